/* tests/fuzz/fuzz_read_list_tree.c - the fuzz harness of the list, tree or
 * formula reader (FUZZ_KIND "list", "tree" or "cnf", set by
 * tests/fuzz/meson.build): the input bytes become a .list, .tree or .cnf
 * file, which the reader must either read into a valid list, tree or
 * formula or refuse with a status and a message -
 * never crash, hang or leak. Built like fuzz_read.c: with libFuzzer under
 * -Dfuzz=true, otherwise with replay.c for the suite's smoke run. */
#include "clirr/clirr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Bounded as a run bounds its inputs: 64 MiB per array. */
    clirr_graph_set_array_limits(0, 64u << 20);
    char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/clirr-fuzz-%ld." FUZZ_KIND, dir && *dir ? dir : "/tmp", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, size, f);
    fclose(f);
    if (wrote == size) {
        clirr_error err;
        int rc;
        if (!strcmp(FUZZ_KIND, "list")) {
            clirr_list l;
            rc = clirr_list_read(path, &l, &err);
            /* An accepted list passes the structure check again. */
            if (rc == CLIRR_OK && clirr_list_check(&l, &err) != CLIRR_OK)
                abort();
            clirr_list_free(&l);
        } else if (!strcmp(FUZZ_KIND, "cnf")) {
            clirr_cnf c;
            rc = clirr_cnf_read(path, &c, &err);
            if (rc == CLIRR_OK && clirr_cnf_check(&c, &err) != CLIRR_OK)
                abort();
            clirr_cnf_free(&c);
        } else {
            clirr_tree t;
            rc = clirr_tree_read(path, &t, &err);
            if (rc == CLIRR_OK && clirr_tree_check(&t, &err) != CLIRR_OK)
                abort();
            clirr_tree_free(&t);
        }
        if (rc != CLIRR_OK && !err.msg[0])
            abort();
    }
    remove(path);
    return 0;
}
