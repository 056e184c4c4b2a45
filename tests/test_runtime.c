/* tests/test_runtime.c - cases for the runtime area (names start "runtime/"). */
#include "harness.h"

void register_runtime_tests(void)
{
}
