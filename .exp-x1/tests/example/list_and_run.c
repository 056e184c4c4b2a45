/* list_and_run.c - clirr as a library: list the algorithms it has, then
 * run BFS on the first OpenCL device. Built and run by the test
 * install/pkg-config-example against an installed clirr:
 *     cc list_and_run.c $(pkg-config --cflags --libs clirr) -o list_and_run */
#include <clirr/clirr.h>

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    for (size_t i = 0; i < clirr_algo_count(); i++)
        printf("%-9s %s\n", clirr_algo_at(i)->name, clirr_algo_at(i)->summary);

    clirr_error err = {0};
    clirr_device *devs = NULL;
    size_t ndev = 0;
    clirr_ctx *ctx = NULL;
    clirr_graph g = {0};
    int32_t *level = NULL;
    clirr_stats stats;
    /* Each step runs only when the one before succeeded; err says what failed.
     * permute=0 keeps R-MAT's hub at vertex 0, so BFS from 0 reaches most of it. */
    int rc = clirr_device_list(&devs, &ndev, &err);
    if (rc == CLIRR_OK)
        rc = clirr_ctx_create(&devs[0], &ctx, &err);
    if (rc == CLIRR_OK)
        rc = clirr_graph_generate("rmat:scale=10,ef=8,seed=1,permute=0", &g, &err);
    if (rc == CLIRR_OK && !(level = malloc(g.n * sizeof *level)))
        rc = clirr_fail(&err, CLIRR_ERR_NOMEM, "out of memory");
    if (rc == CLIRR_OK)
        rc = clirr_bfs(ctx, &g, 0, level, &stats, &err); /* level[v] = hops, -1 = unreached */
    if (rc == CLIRR_OK)
        printf("bfs on %s: reached %llu of %u vertices in %u rounds\n", devs[0].caps.name,
               (unsigned long long)stats.reached, g.n, stats.iterations);
    else
        fprintf(stderr, "list_and_run: %s: %s\n", clirr_status_name(rc), err.msg);
    free(level);
    clirr_graph_free(&g);
    clirr_ctx_release(ctx);
    free(devs);
    return rc == CLIRR_OK ? 0 : 1;
}
