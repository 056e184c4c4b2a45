/* tests/test_algo.c - cases for the algo area (names start "algo/"). */
#include "harness.h"

void register_algo_tests(void)
{
}
