/* tests/test_worklist.c - cases for the worklist area (names start "worklist/"). */
#include "harness.h"

void register_worklist_tests(void)
{
}
