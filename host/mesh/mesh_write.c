/* host/mesh/mesh_write.c - writing Triangle's .node, .ele and .poly
 * (1-based, coordinates with 17 significant digits so the doubles and the
 * Delaunay property survive the text), each file whole or not at all, and
 * the prefix of a mesh's path. */
#include "mesh/mesh_internal.h"

#include "graph/textio.h"

#include <stdio.h>
#include <string.h>

void clirr_mesh_prefix(const char *path, char *prefix, size_t size, bool *gz)
{
    size_t n = strlen(path);
    *gz = false;
    if (n > 8 && !strcmp(path + n - 8, ".node.gz")) {
        n -= 8;
        *gz = true;
    } else if (n > 5 && !strcmp(path + n - 5, ".node")) {
        n -= 5;
    }
    snprintf(prefix, size, "%.*s", (int)n, path);
}

static int open_part(tout *t, char *path, size_t size, const char *prefix, const char *ext, bool gz,
                     clirr_error *err)
{
    snprintf(path, size, "%s.%s%s", prefix, ext, gz ? ".gz" : "");
    return clirr_tout_open(t, path, gz, err);
}

static int write_node(const char *prefix, bool gz, const clirr_mesh *m, clirr_error *err)
{
    char path[4200], line[TOUT_SLACK];
    tout t;
    int rc = open_part(&t, path, sizeof path, prefix, "node", gz, err);
    if (rc != CLIRR_OK)
        return rc;
    snprintf(line, sizeof line, "# clirr mesh: points\n%u 2 0 0\n", m->npoints);
    clirr_tout_str(&t, line);
    for (uint32_t i = 0; i < m->npoints && !t.failed; i++) {
        snprintf(line, sizeof line, "%u %.17g %.17g\n", i + 1, m->xy[2 * (size_t)i], m->xy[2 * (size_t)i + 1]);
        clirr_tout_str(&t, line);
    }
    return clirr_tout_close(&t, err);
}

/* count lines of `per` 1-based indices after a header. */
static int write_indices(const char *prefix, const char *ext, bool gz, const char *header,
                         const uint32_t *idx, uint32_t count, int per, const char *trailer, clirr_error *err)
{
    char path[4200];
    tout t;
    int rc = open_part(&t, path, sizeof path, prefix, ext, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&t, header);
    for (uint32_t i = 0; i < count && !t.failed; i++) {
        clirr_tout_room(&t);
        clirr_tout_u64(&t, (uint64_t)i + 1);
        for (int k = 0; k < per; k++) {
            tout_char(&t, ' ');
            clirr_tout_u64(&t, (uint64_t)idx[(size_t)per * i + k] + 1);
        }
        tout_char(&t, '\n');
    }
    clirr_tout_str(&t, trailer);
    return clirr_tout_close(&t, err);
}

int clirr_mesh_write(const char *path, bool gz, const clirr_mesh *m, clirr_error *err)
{
    char prefix[4096], header[128];
    bool path_gz;
    clirr_mesh_prefix(path, prefix, sizeof prefix, &path_gz);
    gz = gz || path_gz;
    int rc = write_node(prefix, gz, m, err);
    if (rc == CLIRR_OK) {
        snprintf(header, sizeof header, "# clirr mesh: triangles, counter-clockwise\n%u 3 0\n", m->ntri);
        rc = write_indices(prefix, "ele", gz, header, m->tri, m->ntri, 3, "", err);
    }
    if (rc == CLIRR_OK) {
        snprintf(header, sizeof header, "# clirr mesh: the boundary segments\n0 2 0 0\n%u 0\n", m->nseg);
        rc = write_indices(prefix, "poly", gz, header, m->seg, m->nseg, 2, "0\n", err);
    }
    return rc;
}
