/* tests/fuzz/fuzz_read.c - the fuzz harness of one graph reader (the
 * format FUZZ_EXT, set by tests/fuzz/meson.build): the input bytes become a
 * file of that extension, which clirr_graph_read must either read or refuse
 * with a status and a message - never crash, hang or leak. Built with
 * libFuzzer by `meson setup -Dfuzz=true` (CC=clang); otherwise linked with
 * replay.c, which the suite's smoke run drives. */
#include "clirr/clirr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* As a run of clirr bounds a graph by its devices and memory, the
     * harness bounds it at 64 MiB per array: a short file naming a huge
     * vertex id must be refused, not allocated. */
    clirr_graph_set_array_limits(0, 64u << 20);
    char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/clirr-fuzz-%ld." FUZZ_EXT, dir && *dir ? dir : "/tmp", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, size, f);
    fclose(f);
    if (wrote == size) {
        clirr_graph g;
        clirr_error err;
        int rc = clirr_graph_read(path, &g, &err);
        /* A refusal carries its reason; a graph is well formed. */
        if (rc != CLIRR_OK && !err.msg[0])
            abort();
        if (rc == CLIRR_OK && (g.row[0] != 0 || g.row[g.n] != g.m))
            abort();
        if (rc == CLIRR_OK)
            clirr_graph_free(&g);
    }
    remove(path);
    return 0;
}
