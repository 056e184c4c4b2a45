/* tests/test_datasets.c - cases for the datasets area (names start "datasets/"). */
#include "harness.h"

void register_datasets_tests(void)
{
}
