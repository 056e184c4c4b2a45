/* tests/fuzz/fuzz_read_mesh.c - the fuzz harness of the mesh reader: the
 * input bytes, cut at the first two '@' lines' worth of bytes ('@' splits
 * them), become PREFIX.node, PREFIX.ele and PREFIX.poly (no '@': the bytes
 * are the .ele beside a fixed unit-square .node), which clirr_mesh_read
 * must either read into a mesh that passes clirr_mesh_check or refuse with
 * a status and a message - never crash, hang or leak. Built like
 * fuzz_read.c: with libFuzzer under -Dfuzz=true, otherwise with replay.c
 * for the suite's smoke run. */
#include "clirr/clirr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_part(const char *prefix, const char *ext, const uint8_t *p, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s.%s", prefix, ext);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t wrote = fwrite(p, 1, n, f);
    fclose(f);
    return wrote == n ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    clirr_graph_set_array_limits(0, 64u << 20);
    char prefix[256], path[300];
    const char *dir = getenv("TMPDIR");
    snprintf(prefix, sizeof prefix, "%s/clirr-fuzz-%ld", dir && *dir ? dir : "/tmp", (long)getpid());
    const uint8_t *at1 = memchr(data, '@', size), *at2 = at1 ? memchr(at1 + 1, '@', size - (size_t)(at1 + 1 - data)) : NULL;
    static const char square[] = "4 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n";
    int bad;
    if (!at1)
        bad = write_part(prefix, "node", (const uint8_t *)square, sizeof square - 1) ||
              write_part(prefix, "ele", data, size);
    else
        bad = write_part(prefix, "node", data, (size_t)(at1 - data)) ||
              write_part(prefix, "ele", at1 + 1, (size_t)((at2 ? at2 : data + size) - at1 - 1)) ||
              (at2 && write_part(prefix, "poly", at2 + 1, size - (size_t)(at2 + 1 - data)));
    if (!bad) {
        clirr_mesh m;
        clirr_error err;
        int rc = clirr_mesh_read(prefix, &m, &err);
        if (rc == CLIRR_OK && clirr_mesh_check(&m, "fuzz", &err) != CLIRR_OK)
            abort();
        if (rc != CLIRR_OK && !err.msg[0])
            abort();
        clirr_mesh_free(&m);
    }
    static const char *const exts[] = {"node", "ele", "poly"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s.%s", prefix, exts[i]);
        remove(path);
    }
    return 0;
}
