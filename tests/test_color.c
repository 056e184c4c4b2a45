/* tests/test_color.c - graph coloring: the serial references and the
 * checker, then every variant (topo, data, jp) on every template and with
 * and without the refinements, on every device, through the registry's
 * descriptor (clirr_algo_find("color")): proper colorings on rmat
 * (skewed and Erdos-Renyi-like), uniform random, a grid, a complete graph
 * (n colors, beyond one 64-color window) and a complete bipartite graph (2
 * colors in natural order); speculative colorings within a stated bound of
 * serial greedy; the extra results (colors, conflicts per round, the
 * refinements) as the run had them; Jones-Plassmann identical from run to
 * run and device to device (its hash priorities leave nothing to timing). */
#include "algo/input.h"
#include "harness.h"
#include "ref/ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Speculative greedy may use more colors than serial greedy, by racing
 * neighbours into the same first-fit. On the random sparse inputs the
 * stated bound is 1.5x serial greedy + 2. On structured graphs racing can
 * legitimately go further (an H100 gives a 1024 x 1024 grid 5 colors where
 * natural order gives 2), so there only first-fit's own guarantee holds,
 * checked everywhere: no vertex's color exceeds its degree + 1. */
#define RANDOM_INPUTS 3 /* the first inputs of specs[] */
static bool within_bound(uint32_t got, uint32_t serial) { return got * 2 <= serial * 3 + 4; }

/* *v = the first vertex whose color exceeds its undirected degree + 1, or n. */
static int first_fit_violation(const clirr_graph *g, const uint32_t *color, uint32_t *v, clirr_error *err)
{
    clirr_graph sym = {0};
    int rc = clirr_graph_copy(g, &sym, err);
    if (rc == CLIRR_OK)
        rc = clirr_graph_symmetrize(&sym, err);
    for (*v = 0; rc == CLIRR_OK && *v < sym.n && color[*v] <= sym.row[*v + 1] - sym.row[*v] + 1;)
        ++*v;
    clirr_graph_free(&sym);
    return rc;
}

/* Distinct colors in color[0..n). */
static uint32_t count_colors(uint32_t n, const uint32_t *color)
{
    uint32_t maxc = 0, count = 0;
    for (uint32_t v = 0; v < n; v++)
        maxc = color[v] > maxc ? color[v] : maxc;
    bool *used = calloc((size_t)maxc + 1, sizeof *used);
    if (!used)
        abort();
    for (uint32_t v = 0; v < n; v++)
        if (!used[color[v]]) {
            used[color[v]] = true;
            count++;
        }
    free(used);
    return count;
}

static int complete(clirr_graph *g, uint32_t n, clirr_error *err)
{
    uint32_t m = n * (n - 1), k = 0;
    uint32_t *s = malloc(m * sizeof *s), *d = malloc(m * sizeof *d);
    if (!s || !d) {
        free(s);
        free(d);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    }
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++)
            if (u != v) {
                s[k] = u;
                d[k++] = v;
            }
    int rc = clirr_graph_from_arcs(n, m, s, d, NULL, g, err);
    free(s);
    free(d);
    return rc;
}

/* K_{a,a}: vertices 0..a-1 on one side, a..2a-1 on the other, arcs one way
 * (coloring reads the graph as undirected). */
static int bipartite(clirr_graph *g, uint32_t a, clirr_error *err)
{
    uint32_t m = a * a, k = 0;
    uint32_t *s = malloc(m * sizeof *s), *d = malloc(m * sizeof *d);
    if (!s || !d) {
        free(s);
        free(d);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    }
    for (uint32_t u = 0; u < a; u++)
        for (uint32_t v = 0; v < a; v++) {
            s[k] = u;
            d[k++] = a + v;
        }
    int rc = clirr_graph_from_arcs(2 * a, m, s, d, NULL, g, err);
    free(s);
    free(d);
    return rc;
}

static const char *specs[] = {
    "rmat:scale=11,ef=5,a=0.45,b=0.15,c=0.15,d=0.25,seed=2",
    "rmat:scale=11,ef=5,a=0.25,b=0.25,c=0.25,d=0.25,seed=2",
    "random:n=3000,m=12000,seed=8",
    "grid:w=40,h=25",
};

/* Input i of the list: the generated ones, K_70, K_{40,40}. */
static int input(size_t i, clirr_graph *g, const char **name, clirr_error *err)
{
    size_t ns = sizeof specs / sizeof specs[0];
    if (i < ns) {
        *name = specs[i];
        return clirr_graph_generate(specs[i], g, err);
    }
    *name = i == ns ? "complete K70" : "bipartite K40,40";
    return i == ns ? complete(g, 70, err) : bipartite(g, 40, err);
}
#define NINPUTS (sizeof specs / sizeof specs[0] + 2)
#define K70 (NINPUTS - 2) /* the complete graph's index */

static void references(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    uint32_t *c = NULL;
    clirr_verify_report r;
    for (size_t i = 0; i < NINPUTS; i++) {
        const char *name;
        TH_OK(tc, input(i, &g, &name, &err));
        c = malloc(g.n * sizeof *c);
        TH_REQUIRE(tc, c, "out of memory");
        for (int lf = 0; lf < 2; lf++) {
            TH_OK(tc, clirr_ref_color(&g, lf, c, &err));
            TH_REQUIRE(tc, clirr_verify_coloring(&g, c, &r), "%s %s: %s", name, lf ? "LDF" : "natural", r.text);
            uint32_t k = count_colors(g.n, c);
            if (i == K70)
                TH_REQUIRE(tc, k == 70, "K70 got %u colors", k);
            if (i == NINPUTS - 1 && !lf)
                TH_REQUIRE(tc, k == 2, "K40,40 in natural order got %u colors", k);
            if (i == 3 && !lf)
                TH_REQUIRE(tc, k == 2, "a grid in natural order got %u colors", k);
        }
        /* The checker must catch a conflict and an uncolored vertex. */
        uint32_t u = 0;
        while (u < g.n && g.row[u] == g.row[u + 1])
            u++;
        TH_REQUIRE(tc, u < g.n, "%s has no arcs", name);
        uint32_t v = g.col[g.row[u]], save = c[u];
        c[u] = c[v];
        TH_EXPECT(tc, u == v || !clirr_verify_coloring(&g, c, &r), "%s: a conflict passed", name);
        c[u] = 0;
        TH_EXPECT(tc, !clirr_verify_coloring(&g, c, &r), "%s: an uncolored vertex passed", name);
        c[u] = save;
        clirr_graph_free(&g);
        free(c);
        c = NULL;
    }
done:
    clirr_graph_free(&g);
    free(c);
}

typedef struct color_case {
    const char *variant; /* "topo", "data", "jp" */
    int tmpl;            /* -1 = auto */
    bool refinements;    /* heuristic, bitset, fuse on; else all off */
    clirr_push_mode push;
    unsigned coarsen;
} color_case;

/* The study's refinements: parameters of the descriptor and extra results. */
static const char *const refinements[] = {"heuristic", "bitset", "fuse"};
#define NREFINEMENTS (sizeof refinements / sizeof refinements[0])

/* The extra result called name, or NULL. */
/* Set each refinement (heuristic, bitset, fuse) on or off. */
static int set_refinements(const clirr_algo *a, bool on, clirr_params *p, clirr_error *err)
{
    for (size_t i = 0; i < NREFINEMENTS; i++) {
        int k = clirr_algo_param(a, refinements[i]);
        if (k < 0)
            return clirr_fail(err, CLIRR_ERR_USAGE, "color has no parameter %s", refinements[i]);
        int rc = clirr_param_set(a, (unsigned)k, on ? "on" : "off", p, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    return CLIRR_OK;
}

static int case_intent(const clirr_algo *a, const color_case *cc, clirr_intent *it, clirr_error *err)
{
    clirr_intent_default(a, it);
    it->variant = clirr_algo_variant(a, cc->variant);
    if (it->variant < 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "color has no variant %s", cc->variant);
    it->tmpl = cc->tmpl;
    it->lb_thres = cc->tmpl < 0 ? 0 : 4;
    it->push = cc->push;
    it->coarsen = cc->coarsen;
    int rc = set_refinements(a, cc->refinements, &it->params, err);
    /* Plain cases run synchronous rounds with hash priorities alone (no
     * heuristic); refined ones the study's asynchronous rounds, fused. */
    if (rc == CLIRR_OK)
        rc = clirr_param_set(a, (unsigned)clirr_algo_param(a, "sync"), cc->refinements ? "off" : "on",
                             &it->params, err);
    return rc;
}

/* One trial of plan on in, with its stats and extras. */
static int color_once(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, uint32_t *color,
                      clirr_stats *st, clirr_extras *x, clirr_error *err)
{
    clirr_session *s = NULL;
    int rc = clirr_session_prepare(ctx, in, plan, &s, err);
    if (rc == CLIRR_OK)
        rc = clirr_session_run(s, color, st, err);
    if (rc == CLIRR_OK)
        clirr_session_extras(s, color, x);
    clirr_session_release(s);
    return rc;
}

/* The extras say what the run did: its colors, one conflict count per
 * round (the first 64), and the refinements it was asked for. */
static bool extras_agree(const clirr_extras *x, uint32_t colors, const clirr_stats *st, bool refined,
                         char *why, size_t size)
{
    const clirr_extra *k = th_extra(x, "colors"), *c = th_extra(x, "conflicts_per_round");
    uint32_t rounds = st->iterations < CLIRR_MAX_EXTRA_LIST ? st->iterations : CLIRR_MAX_EXTRA_LIST;
    if (!k || k->type != CLIRR_EXTRA_UINT || !k->in_table || k->u != colors) {
        snprintf(why, size, "extra 'colors' %llu, counted %u", k ? (unsigned long long)k->u : 0ull, colors);
        return false;
    }
    if (!c || c->type != CLIRR_EXTRA_UINTS || c->nlist != rounds) {
        snprintf(why, size, "extra 'conflicts_per_round' holds %zu rounds of %u", c ? c->nlist : 0,
                 st->iterations);
        return false;
    }
    for (size_t i = 0; i < NREFINEMENTS; i++) {
        const clirr_extra *e = th_extra(x, refinements[i]);
        if (!e || e->type != CLIRR_EXTRA_BOOL || e->b != refined) {
            snprintf(why, size, "extra '%s' is not %s", refinements[i], refined ? "on" : "off");
            return false;
        }
    }
    return true;
}

static void run_case(th_case *tc)
{
    const color_case *cc = tc->param;
    const clirr_algo *a = clirr_algo_find("color");
    bool jp = !strcmp(cc->variant, "jp");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *c = NULL, *serial = NULL;
    clirr_verify_report r;
    TH_REQUIRE(tc, a, "color is not in the registry");
    clirr_intent it;
    TH_OK(tc, case_intent(a, cc, &it, &err));
    for (size_t i = 0; i < NINPUTS; i++) {
        const char *name;
        TH_OK(tc, input(i, &g, &name, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, name, &in, &err));
        clirr_plan plan;
        int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
        if (rc == CLIRR_ERR_UNSUPPORTED) {
            th_skip(tc, "%s", err.msg);
            goto done;
        }
        TH_OK(tc, rc);
        c = malloc(g.n * sizeof *c);
        serial = malloc(g.n * sizeof *serial);
        TH_REQUIRE(tc, c && serial, "out of memory");
        clirr_stats st;
        clirr_extras x;
        TH_OK(tc, color_once(tc->ctx, in, &plan, c, &st, &x, &err));
        TH_REQUIRE(tc, clirr_verify_coloring(&g, c, &r), "%s: %s", name, r.text);
        uint32_t colors = count_colors(g.n, c);
        char why[160];
        TH_REQUIRE(tc, extras_agree(&x, colors, &st, cc->refinements, why, sizeof why), "%s: %s", name, why);
        TH_OK(tc, clirr_ref_color(&g, false, serial, &err));
        uint32_t ks = count_colors(g.n, serial);
        if (!jp) {
            if (i < RANDOM_INPUTS)
                TH_REQUIRE(tc, within_bound(colors, ks), "%s: %u colors, serial greedy %u", name, colors, ks);
            uint32_t v;
            TH_OK(tc, first_fit_violation(&g, c, &v, &err));
            TH_REQUIRE(tc, v == g.n, "%s: vertex %u has color %u, above its degree + 1", name, v, c[v]);
        }
        if (i == K70)
            TH_REQUIRE(tc, colors == 70, "K70: %u colors", colors);
        clirr_input_free(in);
        clirr_graph_free(&g);
        free(c);
        free(serial);
        in = NULL;
        c = serial = NULL;
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(c);
    free(serial);
}

/* JP's coloring depends on the hashes alone: the same twice, and the same
 * as the first device's. */
static void jp_deterministic(th_case *tc)
{
    static uint32_t *first; /* the first device's coloring, kept across devices */
    static uint32_t first_n;
    const clirr_algo *a = clirr_algo_find("color");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *x = NULL, *y = NULL;
    TH_REQUIRE(tc, a, "color is not in the registry");
    TH_OK(tc, clirr_graph_generate("rmat:scale=12,ef=6,seed=5", &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "rmat", &in, &err));
    x = malloc(g.n * sizeof *x);
    y = malloc(g.n * sizeof *y);
    TH_REQUIRE(tc, x && y, "out of memory");
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.variant = clirr_algo_variant(a, "jp");
    TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, x, NULL, &err));
    it.tmpl = CLIRR_TEMPLATE_DUAL_QUEUE;
    it.lb_thres = 4;
    TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, y, NULL, &err));
    TH_REQUIRE(tc, !memcmp(x, y, g.n * sizeof *x), "two JP runs differ");
    if (!first) {
        first = malloc(g.n * sizeof *first);
        if (first) {
            memcpy(first, x, g.n * sizeof *x);
            first_n = g.n;
        }
    } else {
        TH_REQUIRE(tc, first_n == g.n && !memcmp(first, x, g.n * sizeof *x), "JP differs between devices");
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(x);
    free(y);
}

/* Synchronous rounds (--sync over every round, no fusing) are
 * deterministic: each variant and template gives exactly the serial
 * synchronous coloring, in as many rounds, on the symmetric form the device
 * reads (on the skewed rmat and K70: about 100 and 70 rounds). */
static void sync_exact(th_case *tc)
{
    const char *variant = tc->param;
    const clirr_algo *a = clirr_algo_find("color");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *c = NULL, *ref = NULL;
    TH_REQUIRE(tc, a, "color is not in the registry");
    static const size_t inputs[] = {0, K70};
    for (size_t k = 0; k < sizeof inputs / sizeof inputs[0]; k++) {
        const char *name;
        TH_OK(tc, input(inputs[k], &g, &name, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, name, &in, &err));
        const clirr_graph *sym = NULL;
        TH_OK(tc, clirr_input_graph_form(in, CLIRR_FORM_SYMMETRIC, &sym, &err));
        c = malloc(g.n * sizeof *c);
        ref = malloc(g.n * sizeof *ref);
        TH_REQUIRE(tc, c && ref, "out of memory");
        uint32_t rounds = 0;
        TH_OK(tc, clirr_ref_color_sync(sym, true, ref, &rounds, &err));
        for (int t = 0; t < CLIRR_TEMPLATE_FIRST_RECURSION; t++) {
            if (!clirr_template_runnable(&tc->device->caps, (clirr_template)t, NULL))
                continue;
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = clirr_algo_variant(a, variant);
            it.tmpl = t;
            it.lb_thres = 4;
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "fuse"), "off", &it.params, &err));
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "sync"), "on", &it.params, &err));
            clirr_plan plan;
            TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
            clirr_stats st;
            clirr_extras x;
            TH_OK(tc, color_once(tc->ctx, in, &plan, c, &st, &x, &err));
            uint32_t v = 0;
            while (v < g.n && c[v] == ref[v])
                v++;
            TH_REQUIRE(tc, v == g.n, "%s, %s: vertex %u has color %u, synchronous rounds give %u", name,
                       clirr_template_name((clirr_template)t), v, c[v], ref[v]);
            TH_REQUIRE(tc, st.iterations == rounds, "%s, %s: %llu rounds, synchronous rounds take %u", name,
                       clirr_template_name((clirr_template)t), (unsigned long long)st.iterations, rounds);
        }
        clirr_input_free(in);
        clirr_graph_free(&g);
        free(c);
        free(ref);
        in = NULL;
        c = ref = NULL;
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(c);
    free(ref);
}

/* g with its ids shuffled (a fixed seed): the same graph, no locality. */
static int shuffled(clirr_graph *g, clirr_error *err)
{
    uint32_t *p = malloc(g->n * sizeof *p), *src = malloc(g->m * sizeof *src), *dst = malloc(g->m * sizeof *dst);
    int rc = CLIRR_ERR_NOMEM;
    if (p && src && dst) {
        uint64_t x = 0x9E3779B97F4A7C15ull;
        for (uint32_t i = 0; i < g->n; i++)
            p[i] = i;
        for (uint32_t i = g->n - 1; i > 0; i--) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint32_t j = (uint32_t)(x % (i + 1)), t = p[i];
            p[i] = p[j], p[j] = t;
        }
        for (uint32_t u = 0; u < g->n; u++)
            for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++)
                src[k] = p[u], dst[k] = p[g->col[k]];
        clirr_graph h = {0};
        rc = clirr_graph_from_arcs(g->n, g->m, src, dst, NULL, &h, err);
        if (rc == CLIRR_OK) {
            clirr_graph_free(g);
            *g = h;
        }
    } else {
        clirr_fail(err, rc, "out of memory");
    }
    free(p);
    free(src);
    free(dst);
    return rc;
}

/* What auto picks, as on a GPU (this device's caps, marked a GPU) and as on
 * this CPU: topo on a GPU where the graph has hubs (rmat, largest degree
 * 404 against a mean of 4) or bounded degree with local ids (a 200 x 100
 * grid: 4 neighbours, half the arcs between consecutive ids); data on the
 * same grid with shuffled ids (large enough that shuffled ids are rarely
 * 256 apart or less), on the uniform random graph (mean 8 neighbours), on
 * a directed bow-tie whose centre has 10 out-arcs and 10 in-arcs (each
 * within the bound, 20 neighbours together: both degrees count), and on
 * every CPU. */
static void auto_shape(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("color");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    TH_REQUIRE(tc, a, "color is not in the registry");
    static const struct {
        const char *spec; /* NULL: the bow-tie */
        bool shuffle;     /* ids shuffled */
        const char *gpu;  /* variant auto picks on a GPU, and a word of its reason */
        const char *why;
    } cases[] = {
        {"grid:w=200,h=100", false, "topo", "bounded degree"},
        {"grid:w=200,h=100", true, "data", "neither"},
        {"rmat:scale=11,ef=4", false, "topo", "hubs"},
        {"random:n=3000,m=12000,seed=8", false, "data", "neither"},
        {NULL, false, "data", "neither"},
    };
    clirr_caps gpu = tc->device->caps, cpu = tc->device->caps;
    gpu.is_gpu = true;
    gpu.is_cpu = false;
    cpu.is_gpu = false;
    cpu.is_cpu = true;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (cases[k].spec) {
            TH_OK(tc, clirr_graph_generate(cases[k].spec, &g, &err));
        } else {
            uint32_t src[20], dst[20];
            for (uint32_t i = 0; i < 20; i++) { /* 0 -> 1..10, 11..20 -> 0 */
                src[i] = i < 10 ? 0 : i + 1;
                dst[i] = i < 10 ? i + 1 : 0;
            }
            TH_OK(tc, clirr_graph_from_arcs(21, 20, src, dst, NULL, &g, &err));
        }
        if (cases[k].shuffle)
            TH_OK(tc, shuffled(&g, &err));
        const char *name = !cases[k].spec ? "bow-tie of 10 out, 10 in" : cases[k].shuffle ? "grid, ids shuffled" : cases[k].spec;
        TH_OK(tc, clirr_input_from_graph(&g, false, name, &in, &err));
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, "auto");
        clirr_plan plan;
        TH_OK(tc, clirr_plan_make(a, &gpu, &it, in, &plan, &err));
        const char *picked = a->variants[plan.variant].name;
        TH_REQUIRE(tc, !strcmp(picked, cases[k].gpu), "%s, as on a GPU: auto picked %s, not %s", name, picked,
                   cases[k].gpu);
        TH_REQUIRE(tc, plan.variant_reason && strstr(plan.variant_reason, cases[k].why),
                   "%s, as on a GPU: reason '%s' does not say '%s'", name,
                   plan.variant_reason ? plan.variant_reason : "", cases[k].why);
        TH_OK(tc, clirr_plan_make(a, &cpu, &it, in, &plan, &err));
        picked = a->variants[plan.variant].name;
        TH_REQUIRE(tc, !strcmp(picked, "data"), "%s, as on a CPU: auto picked %s, not data", name, picked);
        clirr_input_free(in);
        clirr_graph_free(&g);
        in = NULL;
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

TH_REGISTER(register_color_tests)
{
    static const char *const variants[] = {"topo", "data", "jp"};
    enum { NV = sizeof variants / sizeof variants[0] };
    static color_case cases[NV][CLIRR_TEMPLATE_FIRST_RECURSION + 1][2];
    static char names[NV][CLIRR_TEMPLATE_FIRST_RECURSION + 1][2][80];
    th_add("color/references", references, NULL);
    for (int v = 0; v < NV; v++)
        for (int t = -1; t < CLIRR_TEMPLATE_FIRST_RECURSION; t++) /* the loop templates */
            for (int ref = 0; ref < 2; ref++) {
                color_case *cc = &cases[v][t + 1][ref];
                *cc = (color_case){variants[v], t, ref, ref ? CLIRR_PUSH_AUTO : CLIRR_PUSH_ATOMIC, ref ? 3 : 1};
                snprintf(names[v][t + 1][ref], sizeof names[v][t + 1][ref], "color/%s/%s/%s", variants[v],
                         t < 0 ? "auto" : clirr_template_name((clirr_template)t), ref ? "refined" : "plain");
                th_add_device(names[v][t + 1][ref], run_case, cc);
            }
    th_add_device("color/jp/deterministic", jp_deterministic, NULL);
    th_add_device("color/sync/topo", sync_exact, "topo");
    th_add_device("color/sync/data", sync_exact, "data");
    th_add_device("color/auto/shape", auto_shape, NULL);
}
