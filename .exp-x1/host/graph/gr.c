/* host/graph/gr.c - DIMACS shortest-path graphs (.gr, 9th DIMACS Challenge):
 * "c" comment lines, one "p sp N M" line, then M lines "a U V W" with 1-based
 * vertex ids and integer weights. The Galois project also names its binary
 * CSR files .gr; those are recognised and read by galois.c. */
#include "graph_internal.h"

#include <stdio.h>
#include <string.h>

int clirr_graph_read_gr(const char *path, clirr_graph *g, clirr_error *err)
{
    tin t;
    arcbuf a = {0};
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    /* Galois' binary .gr (LonestarGPU's inputs) starts with a uint64
     * version of 1 or 2: seven NUL bytes no DIMACS text has. */
    const unsigned char *head;
    size_t head_len = clirr_tin_peek(&t, &head);
    if (clirr_galois_sniff(head, head_len)) {
        clirr_tin_close(&t);
        return clirr_graph_read_galois(path, g, err);
    }

    bool have_p = false;
    uint64_t n = 0, m = 0, k = 0, p_line = 0;
    char what_u[96], what_v[96], what_p[96];
    for (;;) {
        rc = clirr_tin_next(&t, err);
        if (rc != CLIRR_OK)
            goto fail;
        if (!t.ls)
            break;
        const char *p = t.ls;
        if (clirr_tin_blank_rest(&t, &p) || *p == 'c')
            continue;
        char kind = *p++;
        if ((kind != 'p' && kind != 'a') || (p < t.le && *p != ' ' && *p != '\t')) {
            rc = clirr_tin_expected(&t, p - 1, "a line starting with 'c', 'p' or 'a'", err);
            goto fail;
        }
        if (kind == 'p') {
            if (have_p) {
                rc = clirr_tin_fail(&t, t.line, err,
                              "expected one 'p' line, found a second one (the first is line %llu)",
                              (unsigned long long)p_line);
                goto fail;
            }
            char word[16];
            uint64_t lim_n = CLIRR_GRAPH_MAX_NODES, lim_m = CLIRR_GRAPH_MAX_EDGES;
            snprintf(what_p, sizeof what_p, "a vertex count N from 0 to %llu", (unsigned long long)lim_n);
            if ((rc = clirr_tin_word(&t, &p, word, sizeof word, false, "problem type 'sp'", err)))
                goto fail;
            if (strcmp(word, "sp") != 0) {
                rc = clirr_tin_expected(&t, p - strlen(word), "problem type 'sp'", err);
                goto fail;
            }
            if ((rc = clirr_tin_u64(&t, &p, 0, lim_n, &n, what_p, err)))
                goto fail;
            snprintf(what_p, sizeof what_p, "an arc count M from 0 to %llu", (unsigned long long)lim_m);
            if ((rc = clirr_tin_u64(&t, &p, 0, lim_m, &m, what_p, err)) ||
                (rc = clirr_tin_end(&t, p, "end of line after 'p sp N M'", err)) ||
                (rc = clirr_arcbuf_init(&a, true, m, err)))
                goto fail;
            have_p = true;
            p_line = t.line;
            snprintf(what_u, sizeof what_u, "a tail vertex id from 1 to %llu", (unsigned long long)n);
            snprintf(what_v, sizeof what_v, "a head vertex id from 1 to %llu", (unsigned long long)n);
            continue;
        }
        if (!have_p) {
            rc = clirr_tin_expected(&t, p - 1, "the 'p sp N M' line before the first arc", err);
            goto fail;
        }
        if (k == m) {
            rc = clirr_tin_fail(&t, t.line, err,
                          "expected no more arcs, found arc %llu (the 'p' line on line %llu says M = %llu)",
                          (unsigned long long)k + 1, (unsigned long long)p_line,
                          (unsigned long long)m);
            goto fail;
        }
        uint64_t u, v;
        int64_t w;
        if ((rc = clirr_tin_u64(&t, &p, 1, n, &u, what_u, err)) ||
            (rc = clirr_tin_u64(&t, &p, 1, n, &v, what_v, err)) ||
            (rc = clirr_tin_i64(&t, &p, INT32_MIN, INT32_MAX, &w, "an integer weight (32-bit)", err)) ||
            (rc = clirr_tin_end(&t, p, "end of line after 'a U V W'", err)) ||
            (rc = arcbuf_push(&a, (uint32_t)(u - 1), (uint32_t)(v - 1), (int32_t)w, err)))
            goto fail;
        k++;
    }
    if (!have_p) {
        rc = clirr_tin_expected(&t, NULL, "a 'p sp N M' line", err);
        goto fail;
    }
    if (k != m) {
        rc = clirr_tin_fail(&t, t.line + 1, err,
                      "expected %llu arcs as the 'p' line (line %llu) says, found end of file after %llu (truncated?)",
                      (unsigned long long)m, (unsigned long long)p_line,
                      (unsigned long long)k);
        goto fail;
    }
    clirr_tin_close(&t);
    return clirr_arcbuf_to_graph(&a, (uint32_t)n, g, err);
fail:
    clirr_tin_close(&t);
    clirr_arcbuf_free(&a);
    return rc;
}

int clirr_graph_write_gr(const char *path, bool gz, const clirr_graph *g, clirr_error *err)
{
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&t, "p sp ");
    clirr_tout_room(&t);
    clirr_tout_u64(&t, g->n);
    tout_char(&t, ' ');
    clirr_tout_u64(&t, g->m);
    tout_char(&t, '\n');
    for (uint32_t u = 0; u < g->n && !t.failed; u++) {
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++) {
            clirr_tout_room(&t);
            tout_char(&t, 'a');
            tout_char(&t, ' ');
            clirr_tout_u64(&t, (uint64_t)u + 1);
            tout_char(&t, ' ');
            clirr_tout_u64(&t, (uint64_t)g->col[k] + 1);
            tout_char(&t, ' ');
            clirr_tout_i64(&t, g->weight ? g->weight[k] : 1);
            tout_char(&t, '\n');
        }
    }
    return clirr_tout_close(&t, err);
}
