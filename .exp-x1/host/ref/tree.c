/* host/ref/tree.c - shortest-path trees read off a result: a BFS tree from
 * BFS levels, a shortest-path tree from SSSP distances. The tree is the
 * breadth-first walk from the source over tight arcs (one level up; or
 * dist[u] + w = dist[v]), so it is a tree even across zero-weight cycles;
 * a reached vertex the walk cannot reach means the result is inconsistent. */
#include "ref/ref.h"

#include <stdlib.h>

/* Whether arc e of u is tight under the result. */
typedef bool (*tight_fn)(const clirr_graph *g, const void *result, uint32_t u, uint32_t e);

static bool bfs_tight(const clirr_graph *g, const void *result, uint32_t u, uint32_t e)
{
    const int32_t *level = result;
    return level[u] >= 0 && level[g->col[e]] == level[u] + 1;
}

static bool sssp_tight(const clirr_graph *g, const void *result, uint32_t u, uint32_t e)
{
    const uint32_t *dist = result;
    uint64_t w = g->weight ? (uint64_t)(uint32_t)g->weight[e] : 1;
    return dist[u] != UINT32_MAX && (uint64_t)dist[u] + w == dist[g->col[e]];
}

static bool reached(const void *result, bool bfs, uint32_t v)
{
    return bfs ? ((const int32_t *)result)[v] >= 0 : ((const uint32_t *)result)[v] != UINT32_MAX;
}

static int tight_tree(const clirr_graph *g, uint32_t source, const void *result, bool bfs,
                      int64_t *parent, clirr_error *err)
{
    tight_fn tight = bfs ? bfs_tight : sssp_tight;
    uint32_t *queue = malloc(((size_t)g->n + 1) * sizeof *queue);
    if (!queue)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a shortest-path tree");
    for (uint32_t v = 0; v < g->n; v++)
        parent[v] = -2; /* not visited */
    uint32_t head = 0, tail = 0;
    queue[tail++] = source;
    parent[source] = -1;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            if (parent[v] == -2 && tight(g, result, u, e)) {
                parent[v] = u;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    for (uint32_t v = 0; v < g->n; v++) {
        if (parent[v] == -2 && reached(result, bfs, v))
            return clirr_fail(err, CLIRR_ERR_VERIFY,
                              "vertex %u is reached but no tight arc leads to it from the source: "
                              "the result is inconsistent", v);
        if (parent[v] == -2)
            parent[v] = -1;
    }
    return CLIRR_OK;
}

int clirr_ref_tree(const clirr_graph *g, uint32_t source, const void *result, bool levels,
                   int64_t *parent, clirr_error *err)
{
    return tight_tree(g, source, result, levels, parent, err);
}
