/* host/list/list_write.c - writing .list files: a comment with the counts,
 * then one successor per line (-1 for a tail), whole or not at all. */
#include "list/list_internal.h"

#include "graph/textio.h"

#include <string.h>

int clirr_list_write(const char *path, const clirr_list *l, clirr_error *err)
{
    size_t len = strlen(path);
    bool gz = len > 3 && !strcmp(path + len - 3, ".gz");
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&t, "# clirr list: ");
    clirr_tout_u64(&t, l->n);
    clirr_tout_str(&t, " elements, ");
    clirr_tout_u64(&t, l->lists);
    clirr_tout_str(&t, l->lists == 1 ? " list; successor per line, -1 = tail\n"
                                     : " lists; successor per line, -1 = tail\n");
    for (uint32_t i = 0; i < l->n && !t.failed; i++) {
        clirr_tout_room(&t);
        if (l->succ[i] == CLIRR_LIST_END)
            clirr_tout_str(&t, "-1");
        else
            clirr_tout_u64(&t, l->succ[i]);
        tout_char(&t, '\n');
    }
    return clirr_tout_close(&t, err);
}
