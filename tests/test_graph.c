/* tests/test_graph.c - cases for the graph area (names start "graph/"). */
#include "harness.h"

void register_graph_tests(void)
{
}
