/* host/cnf/cnf_write.c - writing DIMACS CNF: a comment, the header, one
 * clause a line ended by 0, whole or not at all. */
#include "cnf/cnf_internal.h"

#include "graph/textio.h"

#include <string.h>

int clirr_cnf_write(const char *path, const clirr_cnf *f, clirr_error *err)
{
    size_t len = strlen(path);
    bool gz = len > 3 && !strcmp(path + len - 3, ".gz");
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&t, "c clirr cnf: one clause a line\np cnf ");
    clirr_tout_u64(&t, f->nvars);
    tout_char(&t, ' ');
    clirr_tout_u64(&t, f->nclauses);
    tout_char(&t, '\n');
    for (uint32_t c = 0; c < f->nclauses && !t.failed; c++) {
        clirr_tout_room(&t);
        /* A clause may be longer than one line's slack: room per literal. */
        for (uint32_t k = f->clause_off[c]; k < f->clause_off[c + 1]; k++) {
            if (t.cap - t.len < 32)
                clirr_tout_room(&t);
            clirr_tout_i64(&t, f->lits[k]);
            tout_char(&t, ' ');
        }
        tout_char(&t, '0');
        tout_char(&t, '\n');
    }
    return clirr_tout_close(&t, err);
}
