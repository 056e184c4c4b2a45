/* tests/test_ref.c - cases for the ref area (names start "ref/"). */
#include "harness.h"

void register_ref_tests(void)
{
}
