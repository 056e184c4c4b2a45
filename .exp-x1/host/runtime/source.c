/* host/runtime/source.c - finding the .cl sources at run time and reading a
 * kernel file with its #include "..." lines expanded in place, so that the
 * text handed to the compiler (and hashed for the binary cache) is complete
 * and no driver's include-path handling matters. */
#include "runtime/source.h"

#include "clirr_config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A directory holds the kernels when it has this file. */
#define MARKER "common/compat.clh"

/* out = a/b; false when it does not fit. */
static bool join(char *out, size_t size, const char *a, const char *b)
{
    int k = snprintf(out, size, "%s/%s", a, b);
    return k >= 0 && (size_t)k < size;
}

static bool has_kernels(const char *dir)
{
    char path[PATH_MAX];
    struct stat st;
    return join(path, sizeof path, dir, MARKER) && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int clirr_kernel_dir(const char **dir, clirr_error *err)
{
    static char found[PATH_MAX];
    if (found[0]) {
        *dir = found;
        return CLIRR_OK;
    }
    char tried[3][PATH_MAX];
    int ntried = 0;

    const char *env = getenv("CLIRR_KERNEL_DIR");
    if (env && *env) {
        if (has_kernels(env) && realpath(env, found)) {
            *dir = found;
            return CLIRR_OK;
        }
        /* An explicit setting that is wrong is an error, not a hint. */
        return clirr_fail(err, CLIRR_ERR_IO,
                          "CLIRR_KERNEL_DIR=%s does not hold the clirr kernel sources (no %s there)",
                          env, MARKER);
    }

    /* A build tree: cl/ beside the executable, or one level up (tests/). */
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        if (join(tried[ntried], PATH_MAX, exe, "cl"))
            ntried++;
        if (join(tried[ntried], PATH_MAX, exe, "../cl"))
            ntried++;
    }
    if (join(tried[ntried], PATH_MAX, CLIRR_INSTALL_KERNEL_DIR, "."))
        ntried++;
    for (int i = 0; i < ntried; i++) {
        if (has_kernels(tried[i]) && realpath(tried[i], found)) {
            *dir = found;
            return CLIRR_OK;
        }
    }
    return clirr_fail(err, CLIRR_ERR_IO,
                      "cannot find the clirr kernel sources: looked in %s%s%s%s%s; "
                      "set CLIRR_KERNEL_DIR to the cl/ folder",
                      tried[0], ntried > 1 ? ", " : "", ntried > 1 ? tried[1] : "",
                      ntried > 2 ? ", " : "", ntried > 2 ? tried[2] : "");
}

typedef struct text_buf {
    char *data;
    size_t len, cap;
} text_buf;

static bool append(text_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown)
            return false;
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return true;
}

typedef struct include_state {
    const char *root;
    text_buf out;
} include_state;

static int read_file(const char *path, char **text, size_t *len, clirr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return clirr_fail(err, CLIRR_ERR_IO, "cannot open kernel source %s: %s", path, strerror(errno));
    text_buf b = {0};
    char chunk[8192];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (!append(&b, chunk, k)) {
            fclose(f);
            free(b.data);
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reading %s", path);
        }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b.data);
        return clirr_fail(err, CLIRR_ERR_IO, "error reading kernel source %s", path);
    }
    if (!b.data && !append(&b, "", 0))
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reading %s", path);
    *text = b.data;
    *len = b.len;
    return CLIRR_OK;
}

/* The file named in `#include "name"`, or false for any other line. */
static bool include_target(const char *line, size_t len, char *name, size_t size)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == len || line[i] != '#')
        return false;
    i++;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (len - i < 7 || strncmp(line + i, "include", 7) != 0)
        return false;
    i += 7;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == len || line[i] != '"')
        return false;
    size_t start = ++i;
    while (i < len && line[i] != '"')
        i++;
    if (i == len || i - start + 1 > size)
        return false;
    memcpy(name, line + start, i - start);
    name[i - start] = '\0';
    return true;
}

static int expand(include_state *st, const char *rel, const char *from, int from_line,
                  int depth, clirr_error *err);

/* Copy text (named label) to the output, replacing its include lines. */
static int expand_text(include_state *st, const char *label, const char *text, size_t len,
                       int depth, clirr_error *err)
{
    int rc = CLIRR_OK;
    char marker[PATH_MAX + 32];
    int k = snprintf(marker, sizeof marker, "#line 1 \"%s\"\n", label);
    bool ok = k > 0 && (size_t)k < sizeof marker && append(&st->out, marker, (size_t)k);
    int line_no = 0;
    for (size_t pos = 0; ok && pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        pos += n + (nl ? 1 : 0);
        line_no++;
        char name[256];
        if (include_target(line, n, name, sizeof name)) {
            rc = expand(st, name, label, line_no, depth + 1, err);
            if (rc != CLIRR_OK)
                return rc;
            k = snprintf(marker, sizeof marker, "#line %d \"%s\"\n", line_no + 1, label);
            ok = k > 0 && (size_t)k < sizeof marker && append(&st->out, marker, (size_t)k);
        } else {
            ok = append(&st->out, line, n) && append(&st->out, "\n", 1);
        }
    }
    if (!ok)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory expanding %s", label);
    return CLIRR_OK;
}

/* Expand the file rel (relative to the root). Every #include is expanded,
 * as the C preprocessor would: headers keep include guards, and templates
 * (cl/templates/) are included once per instantiation. A cycle ends at the
 * depth limit. */
static int expand(include_state *st, const char *rel, const char *from, int from_line,
                  int depth, clirr_error *err)
{
    if (depth > 16)
        return clirr_fail(err, CLIRR_ERR_IO, "%s:%d: includes nested too deeply (a cycle?)", from,
                          from_line);

    char path[PATH_MAX];
    if (!join(path, sizeof path, st->root, rel))
        return clirr_fail(err, CLIRR_ERR_IO, "kernel path too long: %s/%s", st->root, rel);
    char *text = NULL;
    size_t len = 0;
    int rc = read_file(path, &text, &len, err);
    if (rc != CLIRR_OK) {
        if (from)
            clirr_fail_context(err, "%s:%d", from, from_line);
        return rc;
    }
    rc = expand_text(st, rel, text, len, depth, err);
    free(text);
    return rc;
}

static int finish(include_state *st, int rc, char **out)
{
    if (rc != CLIRR_OK) {
        free(st->out.data);
        *out = NULL;
        return rc;
    }
    *out = st->out.data;
    return CLIRR_OK;
}

int clirr_source_expand(const char *root, const char *label, const char *text, char **out,
                        clirr_error *err)
{
    include_state st = {.root = root};
    int rc = expand_text(&st, label, text, strlen(text), 0, err);
    return finish(&st, rc, out);
}

int clirr_source_read(const char *root, const char *file, char **text, clirr_error *err)
{
    char path[PATH_MAX];
    size_t len = 0;
    if (!join(path, sizeof path, root, file))
        return clirr_fail(err, CLIRR_ERR_IO, "kernel path too long: %s/%s", root, file);
    return read_file(path, text, &len, err);
}
