/* host/ref/bfs.c - serial breadth-first search with a FIFO queue: the BFS
 * oracle. Levels are hop counts from the source, -1 = unreached. */
#include "ref/ref.h"

#include <stdlib.h>

int clirr_ref_bfs(const clirr_graph *g, uint32_t source, int32_t *level, clirr_error *err)
{
    if (source >= g->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "source vertex %u out of range (graph has %u vertices)",
                          source, g->n);
    uint32_t *queue = malloc((size_t)g->n * sizeof *queue);
    if (!queue)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the BFS queue");
    for (uint32_t v = 0; v < g->n; v++)
        level[v] = -1;
    size_t head = 0, tail = 0;
    level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            if (level[v] < 0) {
                level[v] = level[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return CLIRR_OK;
}
