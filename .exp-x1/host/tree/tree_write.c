/* host/tree/tree_write.c - writing .tree files: the "# Nodes: N Edges: M"
 * header, then one edge "u v" per line, whole or not at all. */
#include "tree/tree_internal.h"

#include "graph/textio.h"

#include <string.h>

int clirr_tree_write(const char *path, const clirr_tree *t, clirr_error *err)
{
    size_t len = strlen(path);
    bool gz = len > 3 && !strcmp(path + len - 3, ".gz");
    tout o;
    int rc = clirr_tout_open(&o, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&o, "# Nodes: ");
    clirr_tout_u64(&o, t->n);
    clirr_tout_str(&o, " Edges: ");
    clirr_tout_u64(&o, t->n - 1);
    clirr_tout_str(&o, "\n");
    for (uint32_t e = 0; e + 1 < t->n && !o.failed; e++) {
        clirr_tout_room(&o);
        clirr_tout_u64(&o, t->u[e]);
        tout_char(&o, ' ');
        clirr_tout_u64(&o, t->v[e]);
        tout_char(&o, '\n');
    }
    return clirr_tout_close(&o, err);
}
