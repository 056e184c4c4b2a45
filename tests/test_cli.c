/* tests/test_cli.c - cases for the cli area (names start "cli/"). */
#include "harness.h"

void register_cli_tests(void)
{
}
