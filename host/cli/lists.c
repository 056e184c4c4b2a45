/* host/cli/lists.c - parsing comma-separated lists of named values. */
#include "lists.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Values are indices 0..count-1 named by name(i). */
typedef const char *(*name_fn)(int i);

static const char *parse(const char *text, int count, name_fn name, int *out, size_t max,
                         size_t *n)
{
    static char bad[128];
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        bool all = !strcmp(tok, "all"), found = all;
        for (int i = 0; i < count; i++) {
            if (!all && strcmp(tok, name(i)) != 0)
                continue;
            found = true;
            bool dup = false;
            for (size_t k = 0; k < *n; k++)
                dup |= out[k] == i;
            if (!dup && *n < max)
                out[(*n)++] = i;
        }
        if (!found) {
            snprintf(bad, sizeof bad, "%s", tok);
            return bad;
        }
    }
    if (*n == 0) {
        snprintf(bad, sizeof bad, "%s", text);
        return bad;
    }
    return NULL;
}

/* Template names with auto as the value after the last template. */
static const char *template_name(int i)
{
    return i == CLIRR_TEMPLATE_COUNT_ ? "auto" : clirr_template_name((clirr_template)i);
}

static const char *algo_name(int i) { return cli_algo_at((size_t)i)->name; }
static const char *variant_name(int i) { return clirr_variant_name((clirr_variant)i); }
static const char *push_name(int i) { return clirr_push_mode_name((clirr_push_mode)i); }

const char *cli_list_algos(const char *text, const cli_algo **out, size_t max, size_t *n)
{
    int count = 0, idx[16];
    while (cli_algo_at((size_t)count))
        count++;
    const char *bad = parse(text, count, algo_name, idx, max < 16 ? max : 16, n);
    for (size_t i = 0; !bad && i < *n; i++)
        out[i] = cli_algo_at((size_t)idx[i]);
    return bad;
}

const char *cli_list_variants(const char *text, clirr_variant *out, size_t *n)
{
    int idx[CLIRR_VARIANT_COUNT_];
    const char *bad = parse(text, CLIRR_VARIANT_COUNT_, variant_name, idx, CLIRR_VARIANT_COUNT_, n);
    for (size_t i = 0; !bad && i < *n; i++)
        out[i] = (clirr_variant)idx[i];
    return bad;
}

const char *cli_list_pushes(const char *text, clirr_push_mode *out, size_t *n)
{
    int idx[CLIRR_PUSH_COUNT_];
    const char *bad = parse(text, CLIRR_PUSH_COUNT_, push_name, idx, CLIRR_PUSH_COUNT_, n);
    for (size_t i = 0; !bad && i < *n; i++)
        out[i] = (clirr_push_mode)idx[i];
    return bad;
}

const char *cli_list_templates(const char *text, int *out, size_t max, size_t *n)
{
    const char *bad = parse(text, CLIRR_TEMPLATE_COUNT_ + 1, template_name, out, max, n);
    for (size_t i = 0; !bad && i < *n; i++)
        if (out[i] == CLIRR_TEMPLATE_COUNT_)
            out[i] = CLI_TEMPLATE_AUTO;
    return bad;
}

const char *cli_list_uints(const char *text, uint32_t *out, size_t max, size_t *n)
{
    static char bad[128];
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        unsigned long long v;
        if (!cli_parse_u64(tok, 1, UINT32_MAX - 1, &v) || *n == max) {
            snprintf(bad, sizeof bad, "%s", tok);
            return bad;
        }
        out[(*n)++] = (uint32_t)v;
    }
    if (*n == 0) {
        snprintf(bad, sizeof bad, "%s", text);
        return bad;
    }
    return NULL;
}
