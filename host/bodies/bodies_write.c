/* host/bodies/bodies_write.c - writing .bodies files: a comment with the
 * count, then "m x y z vx vy vz" per body with 17 significant digits (what
 * reading back needs for the same doubles), whole or not at all. */
#include "bodies/bodies_internal.h"

#include "graph/textio.h"

#include <stdio.h>
#include <string.h>

int clirr_bodies_write(const char *path, const clirr_bodies *b, clirr_error *err)
{
    size_t len = strlen(path);
    bool gz = len > 3 && !strcmp(path + len - 3, ".gz");
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    char line[TOUT_SLACK];
    snprintf(line, sizeof line, "# clirr bodies: %u; m x y z vx vy vz per line\n", b->n);
    clirr_tout_str(&t, line);
    for (uint32_t i = 0; i < b->n && !t.failed; i++) {
        const double *v = b->v + (size_t)i * CLIRR_BODY_REALS;
        snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", v[0], v[1], v[2], v[3],
                 v[4], v[5], v[6]);
        clirr_tout_str(&t, line);
    }
    return clirr_tout_close(&t, err);
}
