/* tests/test_irregularity.c - `clirr profile`'s recorder and SIMT model
 * (include/clirr/irregularity.h): the model on hand-made records; kernels
 * of known patterns (tests/kernels/irr_patterns.cl) counted exactly on
 * every device; a full buffer reported, never truncated silently; and BFS
 * and SSSP giving the same results instrumented as not, in every variant
 * and loop template the device runs. */
#include "harness.h"

#include "prim/prim.h"
#include "runtime/irr.h"
#include "runtime/runtime.h"
#include "clirr/list.h"
#include "clirr/mesh.h"
#include "clirr/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model on records written by hand -------------------------------- */

static void put(uint32_t *r, uint32_t wg, uint32_t lid, uint32_t site, uint32_t kind, uint32_t size,
                uint64_t value)
{
    r[0] = wg;
    r[1] = lid;
    r[2] = site;
    r[3] = kind | size << 8;
    r[4] = (uint32_t)value;
    r[5] = (uint32_t)(value >> 32);
}

static void model(th_case *tc)
{
    clirr_error err;
    clirr_error_clear(&err);
    uint32_t raw[64 * IRR_WORDS];
    size_t n = 0;
    clirr_irr_kernel k;
    memset(&k, 0, sizeof k);
    /* W = 4. Group 0 (lanes 0-3): a branch taken by lanes 0-1 only
     * (divergent), then lanes 0-3 loading 4-byte words 0, 4, 8, 100
     * (segments of 16 bytes: 0, 0, 0, 6: one replay). Group 1 (lanes 4-7):
     * the branch taken by all (uniform), and twice per lane a site whose
     * occurrences must not mix: occurrence 0 in one segment, occurrence 1
     * in four. Lanes of another work-group never join: wg 1 lane 0 alone. */
    for (uint32_t l = 0; l < 4; l++)
        put(raw + IRR_WORDS * n++, 0, l, 7, IRR_K_BRANCH, 0, l < 2);
    const uint64_t addr[4] = {0, 4, 8, 100};
    for (uint32_t l = 0; l < 4; l++)
        put(raw + IRR_WORDS * n++, 0, l, 9, IRR_K_GLD, 4, addr[l]);
    for (uint32_t l = 4; l < 8; l++) {
        put(raw + IRR_WORDS * n++, 0, l, 7, IRR_K_BRANCH, 0, 1);
        put(raw + IRR_WORDS * n++, 0, l, 11, IRR_K_GST, 4, 4 * l);
        put(raw + IRR_WORDS * n++, 0, l, 11, IRR_K_GST, 4, 16 * l);
    }
    put(raw + IRR_WORDS * n++, 1, 0, 7, IRR_K_BRANCH, 0, 1);
    /* Local: W lanes in 4 banks, words 0, 4, 8, 1 (bank 0 thrice: 2 replays). */
    const uint64_t words[4] = {0, 4, 8, 1};
    for (uint32_t l = 0; l < 4; l++)
        put(raw + IRR_WORDS * n++, 2, l, 13, IRR_K_LLD, 4, 4 * words[l]);
    TH_OK(tc, clirr_irr_fold(raw, n, 4, 16, 4, &k, &err));
    TH_EXPECT(tc, k.records == n, "records %llu of %zu", (unsigned long long)k.records, n);
    TH_EXPECT(tc, k.branches == 3 && k.divergent == 1, "branches %llu divergent %llu",
              (unsigned long long)k.branches, (unsigned long long)k.divergent);
    TH_EXPECT(tc, k.gmem == 3 && k.gmem_replays == 1 + 0 + 3, "global %llu replays %llu",
              (unsigned long long)k.gmem, (unsigned long long)k.gmem_replays);
    TH_EXPECT(tc, k.gld == 1 && k.gld_requested == 16 && k.gld_moved == 32, "gld %llu/%llu",
              (unsigned long long)k.gld_requested, (unsigned long long)k.gld_moved);
    TH_EXPECT(tc, k.gst == 2 && k.gst_requested == 32 && k.gst_moved == 16 * 5, "gst %llu/%llu",
              (unsigned long long)k.gst_requested, (unsigned long long)k.gst_moved);
    TH_EXPECT(tc, k.lmem == 1 && k.lmem_replays == 2, "local %llu replays %llu",
              (unsigned long long)k.lmem, (unsigned long long)k.lmem_replays);
    /* 7 instances x W = 4 slots; 4+4+4+4+4+1+4 lanes. */
    TH_EXPECT(tc, k.lane_slots == 28 && k.lanes == 25, "lanes %llu of %llu",
              (unsigned long long)k.lanes, (unsigned long long)k.lane_slots);
    TH_EXPECT(tc, clirr_irr_cfi(&k) > 0.33 && clirr_irr_cfi(&k) < 0.34, "CFI_b %f", clirr_irr_cfi(&k));
    /* MAI_m = 6 replays / (4 instances + 6). */
    TH_EXPECT(tc, clirr_irr_mai(&k) > 0.599 && clirr_irr_mai(&k) < 0.601, "MAI_m %f", clirr_irr_mai(&k));
    raw[3] = 99;
    memset(&k, 0, sizeof k);
    TH_EXPECT(tc, clirr_irr_fold(raw, n, 4, 16, 4, &k, &err) == CLIRR_ERR_INPUT,
              "a record of unknown kind was accepted");
done:;
}

/* Pseudo-random records over `groups` work-groups of `lids` work-items:
 * folded on one thread and on several (lane groups split over threads),
 * the counts are the same. */
static void model_threads_with(th_case *tc, uint32_t groups, uint32_t lids)
{
    clirr_error err;
    clirr_error_clear(&err);
    const size_t n = 300000;
    uint32_t *raw = malloc(n * IRR_WORDS * sizeof *raw);
    TH_REQUIRE(tc, raw != NULL, "out of memory");
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t kind = 1 + (uint32_t)(x % 7);
        put(raw + IRR_WORDS * i, (uint32_t)(x >> 8) % groups, (uint32_t)(x >> 20) % lids,
            (uint32_t)(x >> 30) % 5, kind, kind == IRR_K_BRANCH ? 0 : 4,
            kind == IRR_K_BRANCH ? (x >> 40) & 1 : (x >> 36) % 4096 * 4);
    }
    clirr_irr_kernel one, many;
    memset(&one, 0, sizeof one);
    memset(&many, 0, sizeof many);
    const char *saved = getenv("CLIRR_IRR_THREADS");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("CLIRR_IRR_THREADS", "1", 1);
    int rc1 = clirr_irr_fold(raw, n, 16, 64, 32, &one, &err);
    setenv("CLIRR_IRR_THREADS", "5", 1);
    int rc2 = clirr_irr_fold(raw, n, 16, 64, 32, &many, &err);
    if (keep)
        setenv("CLIRR_IRR_THREADS", keep, 1);
    else
        unsetenv("CLIRR_IRR_THREADS");
    free(keep);
    TH_REQUIRE(tc, rc1 == CLIRR_OK && rc2 == CLIRR_OK, "fold: %s", err.msg);
    TH_EXPECT(tc, one.records == n && one.branches > 0 && one.divergent > 0 && one.gmem_replays > 0 &&
                      one.lmem_replays > 0,
              "one thread: %llu records, %llu branches", (unsigned long long)one.records,
              (unsigned long long)one.branches);
    TH_EXPECT(tc, !memcmp(&one, &many, sizeof one),
              "5 threads differ: branches %llu/%llu divergent %llu/%llu replays %llu/%llu lanes %llu/%llu",
              (unsigned long long)one.branches, (unsigned long long)many.branches,
              (unsigned long long)one.divergent, (unsigned long long)many.divergent,
              (unsigned long long)one.gmem_replays, (unsigned long long)many.gmem_replays,
              (unsigned long long)one.lanes, (unsigned long long)many.lanes);
done:
    free(raw);
}

static void model_threads(th_case *tc) { model_threads_with(tc, 997, 64); }

/* One work-group of 1024 work-items (a local-rounds launch): its 64 lane
 * groups are split over the threads. */
static void model_threads_one_group(th_case *tc) { model_threads_with(tc, 1, 1024); }

/* ---- hand-made kernels on a device ---------------------------------------- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
        free(s);
        s = NULL;
    }
    if (s)
        s[len] = '\0';
    fclose(f);
    return s;
}

typedef struct patterns {
    clirr_ctx *ctx;
    cl_program prog;
    uint32_t w, seg, groups;
    size_t local, global;
    cl_mem a;
    clirr_irr_report rep; /* of the last launch */
} patterns;

/* Launch kernel `name` (arguments a, then `value`, then optional local
 * bytes) once, return its counts. */
static int launch(patterns *p, const char *name, uint32_t value, size_t local_bytes,
                  clirr_irr_kernel *out, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    clirr_irr_report rep;
    cl_uint nargs = local_bytes ? 3 : 2;
    CLIRR_TRY(clirr_kernel_get_checked(p->ctx, p->prog, name, nargs, &k, err));
    CLIRR_TRY(clirr_arg(k, 0, sizeof(cl_mem), &p->a, err));
    if (local_bytes) {
        CLIRR_TRY(clirr_arg(k, 1, local_bytes, NULL, err));
        CLIRR_TRY(clirr_arg(k, 2, sizeof value, &value, err));
    } else {
        CLIRR_TRY(clirr_arg(k, 1, sizeof value, &value, err));
    }
    CLIRR_TRY(clirr_ctx_irr_take(p->ctx, &rep, err)); /* start clean */
    CLIRR_TRY(clirr_launch(p->ctx, k, p->global, p->local, err));
    CLIRR_TRY(clirr_ctx_irr_take(p->ctx, &rep, err));
    p->rep = rep;
    if (rep.nkernels != 1 || strcmp(rep.kernels[0].name, name) || !rep.kernels[0].instrumented)
        return clirr_fail(err, CLIRR_ERR_VERIFY, "%s: the report holds %zu kernels, the first %s", name,
                          rep.nkernels, rep.nkernels ? rep.kernels[0].name : "none");
    *out = rep.kernels[0];
fail:
    return rc;
}

#define EXPECT_EQ(tc, what, got, want)                                         \
    TH_EXPECT(tc, (got) == (want), "%s: %s = %llu, expected %llu", name, what, \
              (unsigned long long)(got), (unsigned long long)(want))

/* The patterns under the model (W = the probed width, B = W), or under the
 * hardware warp (W = B = 32; devices without it skip). */
static void known_patterns_with(th_case *tc, uint32_t backend)
{
    clirr_error err;
    clirr_error_clear(&err);
    patterns p;
    memset(&p, 0, sizeof p);
    char *src = NULL, path[1024];
    const clirr_caps *caps = &tc->device->caps;
    /* The probed width, at least 4 so that a quarter of a group is a lane. */
    p.w = caps->simd_width >= 4 ? caps->simd_width : 8;
    clirr_irr_options opt = {.simd_width = p.w, .banks = p.w};
    if (backend == CLIRR_IRR_WARP)
        opt = (clirr_irr_options){.backend = CLIRR_IRR_WARP, .banks = 32};
    TH_OK(tc, clirr_ctx_create(tc->device, &p.ctx, &err));
    int rc = clirr_ctx_irr_enable(p.ctx, &opt, &err);
    if (rc == CLIRR_ERR_UNSUPPORTED && backend == CLIRR_IRR_WARP) {
        th_skip(tc, "%s", err.msg);
        goto done;
    }
    TH_OK(tc, rc);
    snprintf(path, sizeof path, "%s/../tests/kernels/irr_patterns.cl", th_data_dir());
    TH_REQUIRE(tc, (src = read_text(path)) != NULL, "cannot read %s", path);
    TH_OK(tc, clirr_program_build_source(p.ctx, "irr_patterns.cl", src, "", &p.prog, &err));
    p.local = caps->max_wg_size >= 2 * p.w ? 2 * p.w : p.w;
    TH_REQUIRE(tc, caps->max_wg_size >= p.w, "work-groups of %zu lanes, under W = %u", caps->max_wg_size, p.w);
    p.global = p.local * 4;
    p.groups = (uint32_t)(p.global / p.w);
    clirr_irr_report probe;
    TH_OK(tc, clirr_ctx_irr_take(p.ctx, &probe, &err));
    p.seg = probe.segment;
    TH_REQUIRE(tc, probe.simd_width == p.w && probe.banks == p.w, "model W %u B %u", probe.simd_width,
               probe.banks);
    TH_OK(tc, clirr_buf_create(p.ctx, "pattern words", p.global * (p.seg / 4 + 1) * 4, &p.a, &err));
    TH_OK(tc, clirr_prim_fill_u32(p.ctx, p.a, 0, p.global * (p.seg / 4 + 1), 0, &err));
    const uint64_t G = p.groups, W = p.w;
    clirr_irr_kernel k;
    const char *name;

    name = "irr_agree";
    TH_OK(tc, launch(&p, name, p.w, 0, &k, &err));
    EXPECT_EQ(tc, "branches", k.branches, G);
    EXPECT_EQ(tc, "divergent", k.divergent, 0);
    EXPECT_EQ(tc, "lanes", k.lanes, G * W);

    name = "irr_half";
    TH_OK(tc, launch(&p, name, p.w, 0, &k, &err));
    EXPECT_EQ(tc, "branches", k.branches, G);
    EXPECT_EQ(tc, "divergent", k.divergent, G);

    name = "irr_loop";
    TH_OK(tc, launch(&p, name, p.w, 0, &k, &err));
    EXPECT_EQ(tc, "branches", k.branches, G * W);
    EXPECT_EQ(tc, "divergent", k.divergent, G * (W - 1));
    EXPECT_EQ(tc, "lanes", k.lanes, G * W * (W + 1) / 2);
    EXPECT_EQ(tc, "lane slots", k.lane_slots, G * W * W);

    name = "irr_coalesced";
    TH_OK(tc, launch(&p, name, p.w, 0, &k, &err));
    /* Buffers start on a boundary of caps->mem_base_align bytes: a group's
     * 4W bytes then fill 4W / S whole segments (or share one). */
    if (caps->mem_base_align >= p.seg) {
        uint64_t segs = 4 * W >= p.seg ? 4 * W / p.seg : 1;
        EXPECT_EQ(tc, "global instances", k.gmem, 2 * G);
        EXPECT_EQ(tc, "replays", k.gmem_replays, 2 * G * (segs - 1));
        EXPECT_EQ(tc, "gld bytes asked", k.gld_requested, 4 * G * W);
        EXPECT_EQ(tc, "gld bytes moved", k.gld_moved, G * segs * p.seg);
    }

    name = "irr_scattered";
    TH_OK(tc, launch(&p, name, p.seg / 4, 0, &k, &err));
    EXPECT_EQ(tc, "global instances", k.gmem, G);
    EXPECT_EQ(tc, "replays", k.gmem_replays, G * (W - 1));
    EXPECT_EQ(tc, "gld bytes moved", k.gld_moved, G * W * p.seg);

    name = "irr_quarter";
    TH_OK(tc, launch(&p, name, p.w, 0, &k, &err));
    EXPECT_EQ(tc, "lanes", k.lanes, G * W / 4);
    EXPECT_EQ(tc, "lane slots", k.lane_slots, G * W);

    name = "irr_banks";
    const uint32_t strides[3] = {1, 2, p.w};
    const uint64_t depth[3] = {1, 2, W};
    for (int i = 0; i < 3; i++) {
        TH_OK(tc, launch(&p, name, strides[i], p.local * strides[i] * 4, &k, &err));
        EXPECT_EQ(tc, "local instances", k.lmem, 3 * G);
        /* The store and the strided load conflict, the broadcast does not. */
        EXPECT_EQ(tc, "local replays", k.lmem_replays, 2 * G * (depth[i] - 1));
    }
done:
    free(src);
    clirr_mem_release(&p.a);
    clirr_ctx_release(p.ctx);
}

static void known_patterns(th_case *tc) { known_patterns_with(tc, CLIRR_IRR_MODEL); }
static void known_patterns_warp(th_case *tc) { known_patterns_with(tc, CLIRR_IRR_WARP); }

/* A buffer of 16 records: the launch's losses are counted. */
static void overflow(th_case *tc)
{
    clirr_error err;
    clirr_error_clear(&err);
    patterns p;
    memset(&p, 0, sizeof p);
    char *src = NULL, path[1024];
    clirr_irr_options opt = {.simd_width = 8, .records = 16};
    TH_OK(tc, clirr_ctx_create(tc->device, &p.ctx, &err));
    TH_OK(tc, clirr_ctx_irr_enable(p.ctx, &opt, &err));
    snprintf(path, sizeof path, "%s/../tests/kernels/irr_patterns.cl", th_data_dir());
    TH_REQUIRE(tc, (src = read_text(path)) != NULL, "cannot read %s", path);
    TH_OK(tc, clirr_program_build_source(p.ctx, "irr_patterns.cl", src, "", &p.prog, &err));
    p.w = 8;
    p.local = 8;
    p.global = 64;
    TH_OK(tc, clirr_buf_create(p.ctx, "pattern words", 64 * 4, &p.a, &err));
    clirr_irr_kernel k;
    TH_OK(tc, launch(&p, "irr_coalesced", 8, 0, &k, &err));
    TH_EXPECT(tc, k.records == 16 && k.dropped == 2 * 64 - 16, "records %llu dropped %llu",
              (unsigned long long)k.records, (unsigned long long)k.dropped);
    /* The next launch starts empty again. */
    TH_OK(tc, launch(&p, "irr_agree", 8, 0, &k, &err));
    TH_EXPECT(tc, k.records == 16 && k.dropped == 64 - 16, "records %llu dropped %llu after a reset",
              (unsigned long long)k.records, (unsigned long long)k.dropped);
    /* The report says what the launch wanted; a buffer grown to that holds
     * it all. */
    TH_OK(tc, launch(&p, "irr_coalesced", 8, 0, &k, &err));
    TH_EXPECT(tc, p.rep.largest_launch == 2 * 64 && p.rep.capacity == 16,
              "largest launch %llu, capacity %llu", (unsigned long long)p.rep.largest_launch,
              (unsigned long long)p.rep.capacity);
    TH_OK(tc, clirr_ctx_irr_grow(p.ctx, p.rep.largest_launch, &err));
    TH_OK(tc, launch(&p, "irr_coalesced", 8, 0, &k, &err));
    TH_EXPECT(tc, k.records == 2 * 64 && k.dropped == 0, "after growing: records %llu dropped %llu",
              (unsigned long long)k.records, (unsigned long long)k.dropped);
done:
    free(src);
    clirr_mem_release(&p.a);
    clirr_ctx_release(p.ctx);
}

/* ---- instrumented and plain builds agree ---------------------------------- */

/* The loop templates, and the plan's own choice (-1: a variant of another
 * template family, bfs's recursive, runs only that way). */
static const int loop_templates[] = {CLIRR_TEMPLATE_BASELINE, CLIRR_TEMPLATE_DUAL_QUEUE,
                                     CLIRR_TEMPLATE_DBUF_GLOBAL, CLIRR_TEMPLATE_DBUF_SHARED, -1};
static const int plan_template[] = {-1};

/* A case: an algorithm's variant (or every variant, ALL_VARIANTS) on a
 * small input of its kind; `templates` asks for every loop template too;
 * `exact` results are compared byte for byte with the plain run's (the
 * others - float sums in atomic order, racy refinement orders - differ run
 * to run even uninstrumented, and are verified against the reference). */
#define ALL_VARIANTS (~0u)
typedef struct same_case {
    const clirr_algo *algo;
    unsigned variant;
    bool templates;
    bool exact;
    const char *spec; /* generator spec of the input */
    bool on_pocl;     /* one of the few PoCL runs (see same_results) */
} same_case;

static int make_input(const clirr_algo *a, const char *spec, clirr_input **in, clirr_error *err)
{
    int rc;
    switch (a->input) {
    case CLIRR_INPUT_LIST: {
        clirr_list l = {0};
        rc = clirr_list_generate(spec, &l, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_list(&l, true, spec, in, err);
        clirr_list_free(&l);
        return rc;
    }
    case CLIRR_INPUT_TREE: {
        clirr_tree t = {0};
        rc = clirr_tree_generate(spec, &t, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_tree(&t, true, spec, in, err);
        clirr_tree_free(&t);
        return rc;
    }
    case CLIRR_INPUT_MESH: {
        clirr_mesh m = {0};
        rc = clirr_mesh_generate(spec, &m, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_mesh(&m, true, spec, in, err);
        clirr_mesh_free(&m);
        return rc;
    }
    default: {
        clirr_graph g = {0};
        rc = clirr_graph_generate(spec, &g, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_graph(&g, true, spec, in, err);
        clirr_graph_free(&g);
        return rc;
    }
    }
}

/* Every selected variant and template: the instrumented run verifies,
 * equals the plain run where results are exact, and every kernel it
 * launched is instrumented, recorded something and lost nothing. */
static void same_results(th_case *tc)
{
    const same_case *sc = tc->param;
    const clirr_algo *a = sc->algo;
    /* PoCL inlines every recording call into its work-group loops, so an
     * instrumented program takes it 30 s to minutes to build (cold, the irr
     * cases took it 24 minutes of a 30-minute suite): there a few cases
     * stand for the rest, which Intel's CPU runtime and GPUs run. */
    const char *run_all = getenv("CLIRR_TEST_IRR_ALL");
    if (!sc->on_pocl && strstr(tc->device->caps.platform, "Portable Computing Language") && !(run_all && *run_all == '1')) {
        th_skip(tc, "an instrumented build costs PoCL minutes; other devices run this case "
                    "(CLIRR_TEST_IRR_ALL=1 runs it here too)");
        return;
    }
    clirr_error err;
    clirr_error_clear(&err);
    clirr_ctx *ictx = NULL;
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    void *expected = NULL, *plain = NULL, *instr = NULL;
    size_t ran = 0;
    /* Small: every instrumented run is counted on the host, and the suite
     * runs these on two CPU devices of a 2-core machine. */
    TH_OK(tc, make_input(a, sc->spec, &in, &err));
    clirr_irr_options opt = {0};
    TH_OK(tc, clirr_ctx_create(tc->device, &ictx, &err));
    TH_OK(tc, clirr_ctx_irr_enable(ictx, &opt, &err));
    size_t items = (size_t)clirr_input_items(in);
    size_t bytes = (items + 1) * a->value_size;
    expected = malloc(bytes);
    plain = malloc(bytes);
    instr = malloc(bytes);
    TH_REQUIRE(tc, expected && plain && instr, "out of memory");
    /* The template code is shared by every algorithm: a GPU runs the whole
     * matrix, a CPU device (whose compiler is the suite's slowest) every
     * template for the algorithm's default variant and the plan's choice
     * for the others. */
    for (unsigned v = 0; v < a->nvariants; v++) {
        if (sc->variant != ALL_VARIANTS && v != sc->variant)
            continue;
        bool matrix = sc->templates && (tc->device->caps.is_gpu || v == a->default_variant);
        const int *tmpls = matrix ? loop_templates : plan_template;
        size_t ntmpls = matrix ? sizeof loop_templates / sizeof loop_templates[0] : 1;
        for (size_t t = 0; t < ntmpls; t++) {
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = (int)v;
            it.tmpl = tmpls[t];
            if (a->sources != CLIRR_SOURCES_NONE) {
                it.source.rule = CLIRR_SOURCE_VERTEX;
                it.source.vertex = 0;
                it.source.count = 1;
            }
            clirr_plan plan;
            /* The profiling context's capabilities: no device-side enqueue. */
            int rc = clirr_plan_make(a, clirr_ctx_caps(ictx), &it, in, &plan, &err);
            /* Unsupported here, or a loop template for a variant of the
             * recursion family (a usage error): its auto case runs it. */
            if (rc == CLIRR_ERR_UNSUPPORTED || (rc == CLIRR_ERR_USAGE && it.tmpl >= 0))
                continue;
            TH_OK(tc, rc);
            TH_OK(tc, a->reference(in, &plan, expected, &err));
            const char *vname = clirr_plan_variant_name(&plan);
            const char *tname = clirr_template_name(plan.tmpl);
            clirr_verify_report vr;
            clirr_stats st;
            /* Verified while the session lives: a result may point into it
             * (DMR's mesh). */
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
            TH_OK(tc, clirr_session_run(s, plain, &st, &err));
            memset(&vr, 0, sizeof vr);
            TH_REQUIRE(tc, a->verify(in, &plan, expected, plain, &vr), "%s/%s plain: %s", vname, tname,
                       vr.text);
            clirr_session_release(s);
            s = NULL;
            clirr_irr_report rep;
            TH_OK(tc, clirr_session_prepare(ictx, in, &plan, &s, &err));
            TH_OK(tc, clirr_ctx_irr_take(ictx, &rep, &err));
            TH_OK(tc, clirr_session_run(s, instr, &st, &err));
            TH_OK(tc, clirr_ctx_irr_take(ictx, &rep, &err));
            memset(&vr, 0, sizeof vr);
            TH_REQUIRE(tc, a->verify(in, &plan, expected, instr, &vr), "%s/%s instrumented: %s", vname,
                       tname, vr.text);
            clirr_session_release(s);
            s = NULL;
            TH_REQUIRE(tc, !sc->exact || !memcmp(plain, instr, items * a->value_size),
                       "%s/%s: instrumented and plain results differ", vname, tname);
            clirr_irr_kernel all;
            clirr_irr_total(&rep, &all);
            bool device_work = st.timing.launches > 0;
            TH_REQUIRE(tc, !device_work || all.records > 0, "%s/%s: %llu launches recorded nothing",
                       vname, tname, (unsigned long long)st.timing.launches);
            TH_REQUIRE(tc, all.dropped == 0, "%s/%s: %llu records lost", vname, tname,
                       (unsigned long long)all.dropped);
            for (size_t i = 0; i < rep.nkernels; i++) {
                const clirr_irr_kernel *k = &rep.kernels[i];
                TH_REQUIRE(tc, k->instrumented, "%s/%s: kernel %s is not instrumented", vname, tname,
                           k->name);
                TH_REQUIRE(tc, k->records > 0 && (k->branches > 0 || k->gmem + k->lmem > 0),
                           "%s/%s: kernel %s counted nothing in %llu launches", vname, tname, k->name,
                           (unsigned long long)k->launches);
            }
            ran++;
        }
    }
    if (ran == 0)
        th_skip(tc, "%s: no variant runs on a loop template here", a->name);
done:
    clirr_session_release(s);
    clirr_input_free(in);
    clirr_ctx_release(ictx);
    free(expected);
    free(plain);
    free(instr);
}

/* ---- calibration kernels --------------------------------------------------- */

/* Every calibration kernel verifies, plain and instrumented; the regular
 * ones (matrix multiply, Black-Scholes) never diverge. */
static void calibration(th_case *tc)
{
    clirr_error err;
    clirr_error_clear(&err);
    clirr_ctx *ictx = NULL;
    clirr_irr_options opt = {0};
    TH_OK(tc, clirr_ctx_create(tc->device, &ictx, &err));
    TH_OK(tc, clirr_ctx_irr_enable(ictx, &opt, &err));
    for (size_t i = 0; i < clirr_calib_count(); i++) {
        const char *name = clirr_calib_name(i);
        clirr_calib_result r;
        int rc = clirr_calib_run(tc->ctx, i, &r, &err);
        if (rc == CLIRR_ERR_UNSUPPORTED)
            continue;
        TH_OK(tc, rc);
        TH_EXPECT(tc, r.verified, "%s plain: %s", name, r.report);
        clirr_irr_report rep;
        TH_OK(tc, clirr_ctx_irr_take(ictx, &rep, &err));
        TH_OK(tc, clirr_calib_run(ictx, i, &r, &err));
        TH_EXPECT(tc, r.verified, "%s instrumented: %s", name, r.report);
        TH_OK(tc, clirr_ctx_irr_take(ictx, &rep, &err));
        clirr_irr_kernel all;
        clirr_irr_total(&rep, &all);
        TH_EXPECT(tc, all.records > 0 && all.dropped == 0, "%s: %llu records, %llu lost", name,
                  (unsigned long long)all.records, (unsigned long long)all.dropped);
        if (!strcmp(name, "matmul") || !strcmp(name, "blackscholes"))
            TH_EXPECT(tc, all.branches > 0 && all.divergent == 0, "%s: %llu of %llu branches diverge",
                      name, (unsigned long long)all.divergent, (unsigned long long)all.branches);
    }
done:
    clirr_ctx_release(ictx);
}

/* ---- the command -------------------------------------------------------------- */

static char cli_out[1 << 16], cli_err[1 << 14];

/* `clirr profile` on this device: a table, a CSV with the case's kernels
 * and its "all" row, verified; calibration kernels likewise; options of
 * profile refused by run; an unknown calibration kernel refused. */
static void command(th_case *tc)
{
    char dev[16], csv[1024];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(csv, sizeof csv, "%s/irr.csv", th_tmp_dir());
    int rc = th_clirr_run(tc, cli_out, sizeof cli_out, cli_err, sizeof cli_err, "profile", "bfs",
                          "--gen", "grid:w=16,h=16", "--variant", "data", "--device", dev, "--csv",
                          csv, NULL);
    TH_REQUIRE(tc, rc == 0, "profile bfs: exit %d: %s", rc, cli_err);
    TH_EXPECT(tc, strstr(cli_out, "CFI_b") && strstr(cli_out, "all instrumented") &&
                      strstr(cli_out, "recording: largest launch"),
              "no table or recording line: %s", cli_out);
    FILE *f = fopen(csv, "r");
    TH_REQUIRE(tc, f != NULL, "no CSV %s", csv);
    char line[4096];
    int rows = 0, all = 0;
    while (fgets(line, sizeof line, f)) {
        rows++;
        if (strstr(line, ",all,model,") && strstr(line, ",true,ok"))
            all++;
    }
    fclose(f);
    TH_EXPECT(tc, rows >= 3 && all == 1, "CSV: %d lines, %d verified 'all' rows", rows, all);
    rc = th_clirr_run(tc, cli_out, sizeof cli_out, cli_err, sizeof cli_err, "profile", "--calib",
                      "blackscholes", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 0 && strstr(cli_out, "verified"), "profile --calib: exit %d: %s", rc, cli_err);
    rc = th_clirr_run(tc, cli_out, sizeof cli_out, cli_err, sizeof cli_err, "run", "bfs", "--gen",
                      "grid:w=4,h=4", "--simd-width", "8", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(cli_err, "clirr profile"), "run --simd-width: exit %d: %s", rc,
              cli_err);
    /* The warp back end: NVIDIA (compute capability 8.0+) only, refused
     * elsewhere with the reason; an unknown back end is a usage error. */
    rc = th_clirr_run(tc, cli_out, sizeof cli_out, cli_err, sizeof cli_err, "profile", "--calib",
                      "blackscholes", "--irr-backend", "warp", "--device", dev, NULL);
    if (strcmp(tc->device->caps.simd_width_source, "CL_DEVICE_WARP_SIZE_NV"))
        TH_EXPECT(tc, rc == 2 && strstr(cli_err, "warp back end needs an NVIDIA GPU"),
                  "--irr-backend warp on %s: exit %d: %s", tc->device->caps.name, rc, cli_err);
    else
        TH_EXPECT(tc, (rc == 0 && strstr(cli_out, "backend warp")) ||
                          (rc == 2 && strstr(cli_err, "compute capability")),
                  "--irr-backend warp: exit %d: %s %s", rc, cli_out, cli_err);
    rc = th_clirr_run(tc, cli_out, sizeof cli_out, cli_err, sizeof cli_err, "profile", "bfs", "--gen",
                      "grid:w=4,h=4", "--irr-backend", "hw", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(cli_err, "takes model or warp"), "--irr-backend hw: exit %d: %s", rc,
              cli_err);
    rc = th_clirr_run(tc, cli_out, sizeof cli_out, cli_err, sizeof cli_err, "profile", "--calib",
                      "nope", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(cli_err, "unknown calibration kernel 'nope'"),
              "profile --calib nope: exit %d: %s", rc, cli_err);
done:;
}

TH_REGISTER(register_irregularity_tests)
{
    th_add("irr/model", model, NULL);
    th_add("irr/model-threads", model_threads, NULL);
    th_add("irr/model-threads-one-group", model_threads_one_group, NULL);
    th_add_device("irr/patterns", known_patterns, NULL);
    th_add_device("irr/patterns-warp", known_patterns_warp, NULL);
    th_add_device("irr/overflow", overflow, NULL);
    th_add_device("irr/calib", calibration, NULL);
    th_add_device_noctx("irr/command", command, NULL);
    /* BFS and SSSP: one case per variant, each with the loop templates.
     * The other algorithms (bh and sp test their own): one case each,
     * every variant on the plan's template. */
    static const char *algos[] = {"bfs", "sssp"};
    const char *graph = "rmat:scale=8,ef=8,seed=3,weights=1-100";
    for (size_t i = 0; i < 2; i++) {
        const clirr_algo *a = clirr_algo_find(algos[i]);
        for (unsigned v = 0; a && v < a->nvariants; v++) {
            same_case *c = malloc(sizeof *c);
            char *name = malloc(96);
            if (!c || !name)
                abort();
            /* On PoCL: BFS's default variant, every template. */
            *c = (same_case){a, v, true, true, graph, i == 0 && v == a->default_variant};
            snprintf(name, 96, "irr/same-results/%s/%s", a->name,
                     a->variants[v].name ? a->variants[v].name : "-");
            th_add_device(name, same_results, c);
        }
    }
    static const struct {
        const char *algo, *spec;
        bool exact;
    } others[] = {
        {"bc", "rmat:scale=7,ef=8,seed=3", false},
        {"pagerank", "rmat:scale=8,ef=8,seed=3", false},
        {"spmv", "rmat:scale=8,ef=8,seed=3,weights=1-100", false},
        {"color", "rmat:scale=8,ef=8,seed=3", false},
        {"cc", "rmat:scale=8,ef=4,seed=3", true},
        {"mst", "rmat:scale=8,ef=8,seed=3,weights=1-100", true},
        {"listrank", "list:n=3000,order=random,lists=3,seed=2", true},
        {"treestats", "tree:kind=binary,n=2000,seed=4", true},
        {"descendants", "tree:kind=attach,n=2000,seed=4", true},
        {"heights", "tree:kind=binary,n=2000,seed=4", true},
        {"dmr", "mesh:n=200,seed=4,shape=disk", false},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        const clirr_algo *a = clirr_algo_find(others[i].algo);
        if (!a)
            continue;
        same_case *c = malloc(sizeof *c);
        char *name = malloc(96);
        if (!c || !name)
            abort();
        /* On PoCL also: list ranking (no graph, no template). */
        *c = (same_case){a, ALL_VARIANTS, false, others[i].exact, others[i].spec,
                         !strcmp(others[i].algo, "listrank")};
        snprintf(name, 96, "irr/same-results/%s", a->name);
        th_add_device(name, same_results, c);
    }
}
