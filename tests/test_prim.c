/* tests/test_prim.c - cases for the prim area (names start "prim/"). */
#include "harness.h"

void register_prim_tests(void)
{
}
