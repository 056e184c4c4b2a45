/* host/graph/format.c - choosing a file format from a path's extension and
 * handing reads and writes to the file of that format. */
#include "graph_internal.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *ext;
    clirr_graph_format fmt;
} formats[] = {
    {".gr", CLIRR_FMT_GR},   {".mtx", CLIRR_FMT_MTX}, {".el", CLIRR_FMT_EL},
    {".txt", CLIRR_FMT_TXT}, {".wel", CLIRR_FMT_WEL}, {".csr", CLIRR_FMT_CSR},
};

#define KNOWN_EXTENSIONS ".gr, .mtx, .el, .txt, .wel, .csr (each optionally + .gz)"

static bool ends_with(const char *s, size_t len, const char *suffix)
{
    size_t k = strlen(suffix);
    return len >= k && strncasecmp(s + len - k, suffix, k) == 0;
}

clirr_graph_format clirr_graph_format_from_path(const char *path, bool *gz)
{
    size_t len = path ? strlen(path) : 0;
    bool zipped = ends_with(path, len, ".gz");
    if (gz)
        *gz = zipped;
    if (zipped)
        len -= 3;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (ends_with(path, len, formats[i].ext))
            return formats[i].fmt;
    return CLIRR_FMT_UNKNOWN;
}

const char *clirr_graph_format_name(clirr_graph_format fmt)
{
    switch (fmt) {
    case CLIRR_FMT_GR: return "gr";
    case CLIRR_FMT_MTX: return "mtx";
    case CLIRR_FMT_EL: return "el";
    case CLIRR_FMT_TXT: return "txt";
    case CLIRR_FMT_WEL: return "wel";
    case CLIRR_FMT_CSR: return "csr";
    default: return "unknown";
    }
}

int clirr_graph_read(const char *path, clirr_graph *g, clirr_error *err)
{
    memset(g, 0, sizeof *g);
    bool gz;
    int rc;
    switch (clirr_graph_format_from_path(path, &gz)) {
    case CLIRR_FMT_GR: rc = clirr_graph_read_gr(path, g, err); break;
    case CLIRR_FMT_MTX: rc = clirr_graph_read_mtx(path, g, err); break;
    case CLIRR_FMT_EL:
    case CLIRR_FMT_TXT: rc = clirr_graph_read_edgelist(path, false, g, err); break;
    case CLIRR_FMT_WEL: rc = clirr_graph_read_edgelist(path, true, g, err); break;
    case CLIRR_FMT_CSR: rc = clirr_graph_read_csrbin(path, g, err); break;
    default:
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "%s: unknown graph file extension; clirr reads " KNOWN_EXTENSIONS,
                          path ? path : "(null)");
    }
    if (rc != CLIRR_OK)
        memset(g, 0, sizeof *g);
    return rc;
}

int clirr_graph_write(const char *path, const clirr_graph *g, clirr_error *err)
{
    bool gz;
    switch (clirr_graph_format_from_path(path, &gz)) {
    case CLIRR_FMT_GR: return clirr_graph_write_gr(path, gz, g, err);
    case CLIRR_FMT_MTX: return clirr_graph_write_mtx(path, gz, g, err);
    case CLIRR_FMT_EL:
    case CLIRR_FMT_TXT: return clirr_graph_write_edgelist(path, gz, false, g, err);
    case CLIRR_FMT_WEL: return clirr_graph_write_edgelist(path, gz, true, g, err);
    case CLIRR_FMT_CSR: return clirr_graph_write_csrbin(path, gz, g, err);
    default:
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "%s: unknown graph file extension; clirr writes " KNOWN_EXTENSIONS,
                          path ? path : "(null)");
    }
}
