/* host/algo/bh.c - Barnes-Hut n-body (shared/papers/000: BH of the
 * data-driven vs topology-driven study, Figure 6 and the pre-pass hybrid
 * of Figure 13; 002: BHtree, BHforce), in float or double. Kernels:
 * cl/bh.cl; the tree's layout: cl/bh.def; the serial mirror and the
 * verifier: host/ref/bh.c, host/ref/bh_verify.c.
 *
 * One time step: bounding box (a reduction), the octree built lock-free
 * (one compare-and-swap per claim, retried by the inserting work-item
 * only), summarization (centre of mass bottom-up, by --variant), bodies
 * sorted in tree order (--sort), the force walk (a group of bodies walks
 * together and opens a cell when any of them needs it), leapfrog
 * integration as LonestarGPU's. Summarization variants, none of which
 * waits across work-groups:
 *   topo    every cell each pass, summarized once its child cells were
 *           ready before the pass (stamps): the tree's depth + 1 passes;
 *   data    a worklist: the cells whose child cells are all ready, then
 *           each round pushes a parent when its last child is done (a
 *           counter per cell);
 *   hybrid  --prepasses K topology passes, then the data-driven rounds
 *           finish the cells left (the study's pre-passes; its finishing
 *           kernel spins on children, this one never waits).
 * Passes and rounds are ordered by the host between launches. The host
 * reads the tree's cell count once per step (to size the later launches
 * and to grow the cell arrays when the build ran out: then it builds
 * again) and each data round's worklist size. */
#include "algo/input.h"
#include "algo/run.h"
#include "prim/prim.h"
#include "ref/bh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REAL float /* only the .def's parameter names matter here */
#define REAL4 float
#include "cl/bh.def"
#undef REAL
#undef REAL4

CLIRR_KARGS_STRUCT(bbox_args, BH_BBOX_ARGS);
CLIRR_KARGS_STRUCT(root_args, BH_ROOT_ARGS);
CLIRR_KARGS_STRUCT(build_args, BH_BUILD_ARGS);
CLIRR_KARGS_STRUCT(topo_args, BH_SUM_TOPO_ARGS);
CLIRR_KARGS_STRUCT(seed_args, BH_SUM_SEED_ARGS);
CLIRR_KARGS_STRUCT(data_args, BH_SUM_DATA_ARGS);
CLIRR_KARGS_STRUCT(sort_args, BH_SORT_ARGS);
CLIRR_KARGS_STRUCT(link_args, BH_LINK_ARGS);
CLIRR_KARGS_STRUCT(force_args, BH_FORCE_ARGS);
CLIRR_KARGS_STRUCT(integrate_args, BH_INTEGRATE_ARGS);

#define SET(k, tag, name, var) CLIRR_TRY(clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err))
#define SET_REAL(k, tag, name, val) CLIRR_TRY(set_real(s, (k), CLIRR_KARG(tag, name), (val), err))

enum { V_TOPO, V_DATA, V_HYBRID };
enum { P_STEPS, P_DT, P_EPS, P_THETA, P_PRECISION, P_PREPASSES, P_SORT, P_WALK, P_CELLS, P_PER_ITEM, P_COUNT };
enum { WALK_AUTO, WALK_SUBGROUP, WALK_WARP, WALK_WORKGROUP, WALK_GROUP };
enum { CELLS_RECALC, CELLS_STORE };

/* The most bodies one work-item of the walk computes (--per-item). */
#define BH_PER_MAX 8

/* Trees of at most this many bodies are checked after a trial. */
#define BH_TREE_CHECK_MAX (1u << 20)

typedef struct bh_session {
    clirr_ctx *ctx;
    const clirr_bodies *bodies;
    clirr_bh_config cfg;
    unsigned variant;
    uint32_t prepasses;
    bool sort, store;            /* --sort, --cells store */
    int walk;                    /* BH_WALK_*: the force walk (a vote, or the group walk) */
    uint32_t gwg, glist, gblist; /* the group walk's work-group, cell and body list entries */
    uint32_t gstack;             /* the group walk's node stack */
    int ptx;                     /* the group walk takes NVIDIA's inline PTX (warp shuffles, rsqrt) */
    uint32_t per;                /* bodies a work-item of the walk computes */
    size_t rs;                   /* bytes of a REAL */
    uint32_t n, cap;             /* bodies, cells the arrays hold */
    size_t bbox_wg, bbox_groups, force_wg;
    cl_kernel bbox, root, build, topo, seed, data, sortk, link, force, integrate;
    cl_mem init[6];              /* the input's positions and velocities */
    cl_mem pos[3], vel[3], acc[3], mass, phi, phi0, inter, inter_bb, inter_sum, order, iota;
    cl_mem head, heads, heads0;  /* bh_sort's group starts, as flags and compacted; unsorted: every G * per */
    uint32_t nheads, nheads0;    /* the group walk's work-groups, sorted and unsorted */
    cl_mem part, geom, info;
    cl_mem child, pslot, cdepth, ready, ccount, pending, wl[2], wlc[2], cpos[3], cm, next;
    cl_mem cgeo, links, cinfo, cell4, body4; /* --cells store; the walk's layout */
    /* The last trial. */
    uint32_t ncells, depth, passes, rounds, rebuilds;
    uint64_t interactions, inter_bodies, inter_all; /* last step's, of them with bodies, all steps' */
    double force_ms;             /* bh_force's kernel time, all steps */
    double energy[2], momentum[2][3];
    bool tree_ok, tree_checked, energy_ok;
    void *tmp;                   /* n REALs, for downloads */
} bh_session;

static const char *const precisions[] = {"float", "double", NULL};
static const char *const walks[] = {"auto", "subgroup", "warp", "workgroup", "group", NULL};
static const char *const cells[] = {"recalc", "store", NULL};

static void bh_config_of(const clirr_plan *plan, clirr_bh_config *c)
{
    c->steps = (uint32_t)plan->params.v[P_STEPS].u;
    c->dt = plan->params.v[P_DT].r;
    c->eps = plan->params.v[P_EPS].r;
    c->theta = plan->params.v[P_THETA].r;
    c->dbl = plan->params.v[P_PRECISION].u == 1;
}

static void release_cells(bh_session *s)
{
    cl_mem *m[] = {&s->child, &s->pslot, &s->cdepth, &s->ready, &s->ccount, &s->pending, &s->wl[0], &s->wl[1],
                   &s->cpos[0], &s->cpos[1], &s->cpos[2], &s->cm, &s->cgeo, &s->links, &s->cinfo, &s->cell4};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        clirr_mem_release(m[i]);
}

static void bh_release(void *state)
{
    bh_session *s = state;
    if (!s)
        return;
    release_cells(s);
    cl_mem *m[] = {&s->mass, &s->phi, &s->phi0, &s->inter, &s->inter_bb, &s->inter_sum, &s->order, &s->iota, &s->head, &s->heads, &s->heads0, &s->part, &s->geom, &s->info,
                   &s->wlc[0], &s->wlc[1], &s->next, &s->body4};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        clirr_mem_release(m[i]);
    for (int k = 0; k < 6; k++)
        clirr_mem_release(&s->init[k]);
    for (int k = 0; k < 3; k++) {
        clirr_mem_release(&s->pos[k]);
        clirr_mem_release(&s->vel[k]);
        clirr_mem_release(&s->acc[k]);
    }
    free(s->tmp);
    free(s);
}

static int set_real(bh_session *s, cl_kernel k, cl_uint idx, double v, clirr_error *err)
{
    float f = (float)v;
    return s->rs == 8 ? clirr_arg(k, idx, sizeof v, &v, err) : clirr_arg(k, idx, sizeof f, &f, err);
}

static int reals(bh_session *s, const char *what, size_t count, cl_mem *m, clirr_error *err)
{
    return clirr_buf_create(s->ctx, what, (count ? count : 1) * s->rs, m, err);
}

static int uints(bh_session *s, const char *what, size_t count, cl_mem *m, clirr_error *err)
{
    return clirr_buf_create(s->ctx, what, (count ? count : 1) * sizeof(uint32_t), m, err);
}

/* Real k of every body, in the device's precision, onto the device. */
static int upload_field(bh_session *s, int k, cl_mem m, clirr_error *err)
{
    const clirr_bodies *b = s->bodies;
    for (uint32_t i = 0; i < s->n; i++) {
        double v = b->v[(size_t)i * CLIRR_BODY_REALS + k];
        if (s->rs == 8)
            ((double *)s->tmp)[i] = v;
        else
            ((float *)s->tmp)[i] = (float)v;
    }
    return clirr_buf_write(s->ctx, m, 0, (size_t)s->n * s->rs, s->tmp, err);
}

/* A device array of n REALs into out[i * stride] as doubles. */
static int download_field(bh_session *s, cl_mem m, double *out, size_t stride, clirr_error *err)
{
    int rc = clirr_buf_read(s->ctx, m, 0, (size_t)s->n * s->rs, s->tmp, err);
    for (uint32_t i = 0; rc == CLIRR_OK && i < s->n; i++)
        out[(size_t)i * stride] = s->rs == 8 ? ((double *)s->tmp)[i] : ((float *)s->tmp)[i];
    return rc;
}

/* Cell arrays for cap cells. */
static int alloc_cells(bh_session *s, uint32_t cap, clirr_error *err)
{
    int rc = CLIRR_OK;
    release_cells(s);
    s->cap = cap;
    CLIRR_TRY(uints(s, "the tree's child slots", (size_t)cap * 8, &s->child, err));
    CLIRR_TRY(uints(s, "the cells' parent slots", cap, &s->pslot, err));
    CLIRR_TRY(uints(s, "the cells' depths", cap, &s->cdepth, err));
    CLIRR_TRY(uints(s, "the cells' ready stamps", cap, &s->ready, err));
    CLIRR_TRY(uints(s, "the cells' body counts", cap, &s->ccount, err));
    CLIRR_TRY(uints(s, "the cells' pending children", cap, &s->pending, err));
    CLIRR_TRY(uints(s, "a summarization worklist", cap, &s->wl[0], err));
    CLIRR_TRY(uints(s, "a summarization worklist", cap, &s->wl[1], err));
    for (int k = 0; k < 3; k++)
        CLIRR_TRY(reals(s, "the cells' centres of mass", cap, &s->cpos[k], err));
    CLIRR_TRY(reals(s, "the cells' masses", cap, &s->cm, err));
    CLIRR_TRY(reals(s, "the cells' centres and sizes", (size_t)cap * 4, &s->cgeo, err));
    CLIRR_TRY(uints(s, "the walk's links", (size_t)cap * 16, &s->links, err));
    CLIRR_TRY(uints(s, "the walk's cell entries", (size_t)cap * 2, &s->cinfo, err));
    CLIRR_TRY(reals(s, "the walk's cells", (size_t)cap * 4, &s->cell4, err));
fail:
    return rc;
}

/* The JSON's "walk": the vote and the bodies a work-item (static text:
 * the extras outlive the session). */
#define WALK_TEXTS(vote)                                                       \
    {vote ", 1 body a work-item",    vote ", 2 bodies a work-item",            \
     vote ", 3 bodies a work-item",  vote ", 4 bodies a work-item",            \
     vote ", 5 bodies a work-item",  vote ", 6 bodies a work-item",            \
     vote ", 7 bodies a work-item",  vote ", 8 bodies a work-item"}
static const char *const walk_texts[4][BH_PER_MAX] = {
    [BH_WALK_WORKGROUP] = WALK_TEXTS("work-groups, a local-memory vote"),
    [BH_WALK_SUBGROUP] = WALK_TEXTS("sub-groups, sub_group_any"),
    [BH_WALK_WARP] = WALK_TEXTS("NVIDIA warps, vote.sync.any (inline PTX)"),
    [BH_WALK_GROUP] = WALK_TEXTS("group walk: work-group box, interaction lists in local memory"),
};

static int build_program(bh_session *s, cl_program *p, clirr_error *err)
{
    char opts[192];
    snprintf(opts, sizeof opts, "-DBH_DOUBLE=%d -DBH_WALK=%d -DBH_STORE=%d -DBH_PER=%u -DBH_GWG=%u -DBH_LIST=%u "
             "-DBH_BLIST=%u -DBH_STK=%u -DBH_PTX=%d", s->rs == 8, s->walk, s->store, s->per, s->gwg, s->glist,
             s->gblist, s->gstack, s->ptx);
    return clirr_program_get(s->ctx, "bh.cl", opts, p, err);
}

/* The warp vote is inline PTX, which only NVIDIA's compiler takes: when it
 * refuses it (--walk auto only), the work-group vote walks instead. */
static int get_kernels(bh_session *s, bool fallback, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program p = NULL;
    rc = build_program(s, &p, err);
    if (rc == CLIRR_ERR_OPENCL && s->ptx) {
        fprintf(stderr, "clirr: bh: %s refused inline PTX; the group walk scans in local memory and takes "
                "native_rsqrt\n", clirr_ctx_caps(s->ctx)->name);
        clirr_error_clear(err);
        s->ptx = 0;
        rc = build_program(s, &p, err);
    }
    if (rc == CLIRR_ERR_OPENCL && fallback && s->walk == BH_WALK_WARP) {
        fprintf(stderr, "clirr: bh: %s refused the warp vote (inline PTX); the work-group vote walks\n",
                clirr_ctx_caps(s->ctx)->name);
        clirr_error_clear(err);
        s->walk = BH_WALK_WORKGROUP;
        rc = build_program(s, &p, err);
    }
    if (rc != CLIRR_OK)
        goto fail;
#define K(var, name, tag) CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, name, CLIRR_KNARGS(tag), &s->var, err))
    K(bbox, "bh_bbox", bbox_args);
    K(root, "bh_root", root_args);
    K(build, "bh_build", build_args);
    K(topo, "bh_sum_topo", topo_args);
    K(seed, "bh_sum_seed", seed_args);
    K(data, "bh_sum_data", data_args);
    K(sortk, "bh_sort", sort_args);
    K(link, "bh_link", link_args);
    K(force, "bh_force", force_args);
    K(integrate, "bh_integrate", integrate_args);
#undef K
fail:
    return rc;
}

/* Sub-groups walk where the device has them and kernels are built as
 * OpenCL C 2.0 or later (the capability options say when). */
static bool can_subgroup(const clirr_caps *c)
{
    return c->subgroups && (c->wg_collectives || c->device_enqueue) && (c->c_3_0 || c->c_2_0);
}

/* NVIDIA's warps: 32 lanes in lock step (the probe read the width from
 * cl_nv_device_attribute_query). */
static bool can_warp(const clirr_caps *c)
{
    return c->is_gpu && c->simd_width == 32 && strstr(c->simd_width_source, "WARP_SIZE_NV") != NULL;
}

/* --walk auto takes the group walk where it was measured faster than the
 * vote the device would otherwise use (tests/bench/RESULTS.md,
 * "Barnes-Hut"), with bodies sorted (unsorted, a group's box spans the
 * whole system and the group walk approaches the direct sum): GPUs (the
 * H100: 1.7-2.5x the warp vote from 50K to 5M bodies in float, 1.2x at 5M
 * in double; other GPUs are unmeasured and take the H100's choice) and
 * CPUs without sub-groups (PoCL 5 on 16 cores: 1.9x the work-group vote).
 * Not where a CPU has sub-groups (Intel's CPU runtime: sub_group_any 2.1x
 * faster). */
static bool group_first(const clirr_caps *c, bool sorted)
{
    return sorted && (c->is_gpu || (c->is_cpu && !can_subgroup(c)));
}

/* The group walk's local memory (cl/bh.cl) for work-groups of g: the
 * least node stack the kernel takes, interaction lists of 2 g cells and
 * 4 g bodies, at least 8 (short lists leave room for more work-groups on
 * a compute unit: measured faster on the H100 than longer lists and a
 * larger stack) and the scan's words. False: it does not fit the device's
 * local memory. */
static bool fit_group_walk(bh_session *s, const clirr_caps *caps, uint32_t g)
{
    uint32_t stack = 7 * (BH_MAXDEPTH + g) + g, bodies = 4 * g > 8 ? 4 * g : 8;
    size_t bytes = BH_MAXDEPTH * s->rs + (size_t)stack * 4 + (size_t)2 * g * 4 * s->rs +
                   (size_t)bodies * (4 * s->rs + 4) + (size_t)g * 8;
    if (bytes > caps->local_mem)
        return false;
    s->gwg = g;
    s->glist = 2 * g;
    s->gblist = bodies;
    s->gstack = stack;
    return true;
}

/* The group walk's work-group: --wg-size; else on a GPU the largest of
 * 128, 64 and 32 whose lists fit (128 measured fastest on the H100:
 * tests/bench/RESULTS.md), on a CPU two SIMD groups of the probe (32 to
 * 128). */
static int size_group_walk(bh_session *s, const clirr_caps *caps, unsigned wg_size, clirr_error *err)
{
    uint32_t simd = caps->simd_width ? caps->simd_width : 32, g = wg_size;
    if (!g && caps->is_gpu) {
        for (g = 128; g > 32 && (g > caps->max_wg_size || !fit_group_walk(s, caps, g));)
            g /= 2;
    } else if (!g) {
        g = 2 * simd < 32 ? 32 : 2 * simd > 128 ? 128 : 2 * simd;
    }
    if (g > 128 || g > caps->max_wg_size)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--walk group: a work-group of %u (the most is 128, and "
                          "%zu on %s)", g, caps->max_wg_size, caps->name);
    if (!fit_group_walk(s, caps, g))
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--walk group: %s's local memory (%llu bytes) holds no "
                          "interaction lists for a work-group of %u", caps->name,
                          (unsigned long long)caps->local_mem, g);
    return CLIRR_OK;
}

/* The group walk's groups when the bodies are not sorted: G * per
 * consecutive ones each (heads0, nheads0). The other walks read no heads:
 * one group of all. */
static int unsorted_heads(bh_session *s, clirr_error *err)
{
    size_t span = s->walk == BH_WALK_GROUP ? (size_t)s->gwg * s->per : (s->n ? s->n : 1);
    s->nheads0 = (uint32_t)((s->n + span - 1) / span);
    int rc = uints(s, "the walk's groups, unsorted", s->nheads0, &s->heads0, err);
    if (rc != CLIRR_OK)
        return rc;
    uint32_t *h = s->tmp;
    for (uint32_t i = 0; i < s->nheads0; i++)
        h[i] = (uint32_t)(i * span);
    return clirr_buf_write(s->ctx, s->heads0, 0, (s->nheads0 ? s->nheads0 : 1) * sizeof *h, h, err);
}

static int bh_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    bh_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    s->ctx = ctx;
    s->bodies = clirr_input_bodies(in);
    s->n = s->bodies->n;
    s->variant = plan->variant;
    bh_config_of(plan, &s->cfg);
    s->prepasses = (uint32_t)plan->params.v[P_PREPASSES].u;
    s->sort = plan->params.v[P_SORT].b;
    s->rs = s->cfg.dbl ? 8 : 4;
    if (s->cfg.dbl && !caps->fp64) {
        rc = clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--precision double: %s has no double precision (no "
                        "cl_khr_fp64)", caps->name);
        goto fail;
    }
    unsigned walk = (unsigned)plan->params.v[P_WALK].u;
    if (walk == WALK_SUBGROUP && !can_subgroup(caps)) {
        rc = clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--walk subgroup: %s has no sub-groups in OpenCL C 2.0 "
                        "or later", caps->name);
        goto fail;
    }
    if (walk == WALK_WARP && !can_warp(caps)) {
        rc = clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--walk warp: %s is not an NVIDIA GPU with 32-lane warps",
                        caps->name);
        goto fail;
    }
    if (walk == WALK_GROUP || (walk == WALK_AUTO && group_first(caps, s->sort)))
        s->walk = BH_WALK_GROUP;
    else if (walk == WALK_SUBGROUP || (walk == WALK_AUTO && can_subgroup(caps)))
        s->walk = BH_WALK_SUBGROUP;
    else if (walk == WALK_WARP || (walk == WALK_AUTO && can_warp(caps)))
        s->walk = BH_WALK_WARP;
    else
        s->walk = BH_WALK_WORKGROUP;
    s->store = plan->params.v[P_CELLS].u == CELLS_STORE;
    /* Bodies per work-item: on a GPU two (each step's loads, vote and
     * control shared by two bodies: measured fastest at 5M bodies on the
     * H100, tests/bench/RESULTS.md) when that still leaves some 64 groups
     * of bodies per compute unit to hide the walk's latency; else one. */
    s->per = (uint32_t)plan->params.v[P_PER_ITEM].u;
    if (s->per == 0) {
        uint64_t simd = caps->simd_width ? caps->simd_width : 32;
        s->per = caps->is_gpu && s->n >= 2 * simd * 64 * (uint64_t)caps->compute_units ? 2 : 1;
    }
    if (s->walk == BH_WALK_GROUP) {
        CLIRR_TRY(size_group_walk(s, caps, plan->wg_size, err));
        s->ptx = can_warp(caps);
    }
    if (!(s->tmp = malloc((size_t)s->n * 8 + 8))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    CLIRR_TRY(get_kernels(s, walk == WALK_AUTO, err));
    size_t n = s->n;
    static const char *const names[6] = {"the initial x", "the initial y", "the initial z",
                                         "the initial vx", "the initial vy", "the initial vz"};
    for (int k = 0; k < 6; k++) {
        CLIRR_TRY(reals(s, names[k], n, &s->init[k], err));
        CLIRR_TRY(upload_field(s, CLIRR_BODY_X + k, s->init[k], err));
    }
    for (int k = 0; k < 3; k++) {
        CLIRR_TRY(reals(s, "positions", n, &s->pos[k], err));
        CLIRR_TRY(reals(s, "velocities", n, &s->vel[k], err));
        CLIRR_TRY(reals(s, "accelerations", n, &s->acc[k], err));
    }
    CLIRR_TRY(reals(s, "masses", n, &s->mass, err));
    CLIRR_TRY(upload_field(s, CLIRR_BODY_M, s->mass, err));
    CLIRR_TRY(reals(s, "potentials", n, &s->phi, err));
    CLIRR_TRY(reals(s, "the first step's potentials", n, &s->phi0, err));
    CLIRR_TRY(uints(s, "interaction counts", n, &s->inter, err));
    CLIRR_TRY(uints(s, "interaction counts with bodies", n, &s->inter_bb, err));
    CLIRR_TRY(clirr_buf_create(ctx, "interaction counts of all steps", (n ? n : 1) * sizeof(uint64_t),
                               &s->inter_sum, err));
    CLIRR_TRY(uints(s, "the tree order", n, &s->order, err));
    CLIRR_TRY(uints(s, "the input order", n, &s->iota, err));
    CLIRR_TRY(clirr_prim_iota_u32(ctx, s->iota, n, 0, err));
    CLIRR_TRY(uints(s, "the walk's group starts", n, &s->head, err));
    CLIRR_TRY(uints(s, "the walk's groups", n, &s->heads, err));
    CLIRR_TRY(unsorted_heads(s, err));
    CLIRR_TRY(uints(s, "the chains of coincident bodies", n, &s->next, err));
    CLIRR_TRY(reals(s, "the walk's bodies", n * 4, &s->body4, err));
    s->bbox_wg = clirr_wg_size(ctx, s->bbox, 256);
    s->bbox_groups = (n + s->bbox_wg - 1) / s->bbox_wg;
    if (s->bbox_groups > 1024)
        s->bbox_groups = 1024;
    CLIRR_TRY(reals(s, "the bounding box's partials", 6 * s->bbox_groups, &s->part, err));
    CLIRR_TRY(reals(s, "the root's geometry", 4, &s->geom, err));
    CLIRR_TRY(uints(s, "the tree's counters", BH_INFO_WORDS, &s->info, err));
    CLIRR_TRY(uints(s, "a worklist size", 1, &s->wlc[0], err));
    CLIRR_TRY(uints(s, "a worklist size", 1, &s->wlc[1], err));
    /* A Plummer sphere needs about half a cell per body; the build says
     * when it needs more, and the arrays double. */
    CLIRR_TRY(alloc_cells(s, (uint32_t)(n + 64 < (1u << 31) ? n + 64 : (1u << 31)), err));
    /* The walk's work-group: one SIMD group of the probe (the group that
     * votes, for the work-group vote), four warps for the warp vote (each
     * walks alone), or --wg-size; warps need whole ones. */
    size_t simd = caps->simd_width ? caps->simd_width : 32;
    size_t wanted = plan->wg_size ? plan->wg_size : s->walk == BH_WALK_WARP ? 4 * simd : simd;
    if (s->walk == BH_WALK_GROUP)
        wanted = s->gwg;
    s->force_wg = clirr_wg_size(ctx, s->force, wanted);
    if (s->walk == BH_WALK_GROUP && s->force_wg != s->gwg) {
        rc = clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--walk group: %s runs the walk in work-groups of at most "
                        "%zu, not %u", caps->name, s->force_wg, s->gwg);
        goto fail;
    }
    if (s->walk == BH_WALK_WARP && s->force_wg % 32 != 0) {
        rc = clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "the warp vote needs work-groups of whole warps (32 "
                        "work-items), not %zu", s->force_wg);
        goto fail;
    }
    *out = s;
    return CLIRR_OK;
fail:
    bh_release(s);
    return rc;
}

static int launch(bh_session *s, cl_kernel k, size_t items, clirr_error *err)
{
    return clirr_launch(s->ctx, k, items, clirr_wg_size(s->ctx, k, 0), err);
}

/* Bounding box, root and the lock-free build; the cell arrays grow (and
 * the build runs again) when it ran out of cells. */
static int build_tree(bh_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t n = s->n;
    SET(s->bbox, bbox_args, px, s->pos[0]);
    SET(s->bbox, bbox_args, py, s->pos[1]);
    SET(s->bbox, bbox_args, pz, s->pos[2]);
    SET(s->bbox, bbox_args, n, n);
    SET(s->bbox, bbox_args, part, s->part);
    for (;;) {
        /* Every slot and chain link empty before the build, written by
         * launches before it: the build then writes a cell's slots and a
         * body's link only by atomics after they are reachable, and a
         * lagging read sees an earlier state whose compare-and-swap fails
         * (slots only go empty -> body -> cell); see cl/bh.cl. */
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->child, 0, (size_t)s->cap * 8, BH_EMPTY, err));
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->next, 0, n, BH_EMPTY, err));
        /* --cells store: NaN (all ones) until a cell's maker writes it. */
        if (s->store)
            CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->cgeo, 0, (size_t)s->cap * s->rs, 0xffffffffu, err));
        CLIRR_TRY(clirr_launch(s->ctx, s->bbox, s->bbox_groups * s->bbox_wg, s->bbox_wg, err));
        uint32_t nparts = (uint32_t)s->bbox_groups;
        SET(s->root, root_args, part, s->part);
        SET(s->root, root_args, nparts, nparts);
        SET(s->root, root_args, geom, s->geom);
        SET(s->root, root_args, info, s->info);
        SET(s->root, root_args, child, s->child);
        SET(s->root, root_args, pslot, s->pslot);
        SET(s->root, root_args, cdepth, s->cdepth);
        SET(s->root, root_args, ready, s->ready);
        SET(s->root, root_args, cgeo, s->cgeo);
        CLIRR_TRY(clirr_launch(s->ctx, s->root, 1, 1, err));
        SET(s->build, build_args, px, s->pos[0]);
        SET(s->build, build_args, py, s->pos[1]);
        SET(s->build, build_args, pz, s->pos[2]);
        SET(s->build, build_args, n, n);
        SET(s->build, build_args, geom, s->geom);
        SET(s->build, build_args, info, s->info);
        SET(s->build, build_args, capacity, s->cap);
        SET(s->build, build_args, child, s->child);
        SET(s->build, build_args, next, s->next);
        SET(s->build, build_args, pslot, s->pslot);
        SET(s->build, build_args, cdepth, s->cdepth);
        SET(s->build, build_args, ready, s->ready);
        SET(s->build, build_args, cgeo, s->cgeo);
        CLIRR_TRY(launch(s, s->build, n, err));
        uint32_t info[BH_INFO_WORDS];
        CLIRR_TRY(clirr_buf_read(s->ctx, s->info, 0, sizeof info, info, err));
        if (!info[BH_INFO_OVERFLOW]) {
            s->ncells = info[BH_INFO_CELLS];
            s->depth = info[BH_INFO_DEPTH];
            break;
        }
        uint64_t most = clirr_ctx_caps(s->ctx)->max_alloc / 32;
        if (s->cap >= most || s->cap >= (1u << 30))
            return clirr_fail(err, CLIRR_ERR_TOO_LARGE, "the octree of %u bodies needs more than %u cells, "
                              "more than a buffer of this device holds", n, s->cap);
        uint64_t grow = (uint64_t)s->cap * 2;
        CLIRR_TRY(alloc_cells(s, (uint32_t)(grow < most ? grow : most), err));
        s->rebuilds++;
    }
fail:
    return rc;
}

#define SUM_COMMON(k, tag)                                                     \
    SET(k, tag, px, s->pos[0]);                                                \
    SET(k, tag, py, s->pos[1]);                                                \
    SET(k, tag, pz, s->pos[2]);                                                \
    SET(k, tag, mass, s->mass);                                                \
    SET(k, tag, n, s->n);                                                      \
    SET(k, tag, child, s->child);                                              \
    SET(k, tag, next, s->next);                                                \
    SET(k, tag, cx, s->cpos[0]);                                               \
    SET(k, tag, cy, s->cpos[1]);                                               \
    SET(k, tag, cz, s->cpos[2]);                                               \
    SET(k, tag, cm, s->cm);                                                    \
    SET(k, tag, ccount, s->ccount);                                            \
    SET(k, tag, ready, s->ready)

static int topo_passes(bh_session *s, uint32_t passes, clirr_error *err)
{
    int rc = CLIRR_OK;
    SUM_COMMON(s->topo, topo_args);
    SET(s->topo, topo_args, ncells, s->ncells);
    for (uint32_t pass = 1; pass <= passes; pass++) {
        SET(s->topo, topo_args, pass, pass);
        CLIRR_TRY(launch(s, s->topo, s->ncells, err));
    }
    s->passes = passes;
fail:
    return rc;
}

/* Data-driven rounds from the cells not ready after `after` passes. */
static int data_rounds(bh_session *s, uint32_t after, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t count = 0, cur = 0;
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->wlc[0], 0, 1, 0, err));
    SET(s->seed, seed_args, child, s->child);
    SET(s->seed, seed_args, n, s->n);
    SET(s->seed, seed_args, pslot, s->pslot);
    SET(s->seed, seed_args, ready, s->ready);
    SET(s->seed, seed_args, ncells, s->ncells);
    SET(s->seed, seed_args, pending, s->pending);
    SET(s->seed, seed_args, wl_out, s->wl[0]);
    SET(s->seed, seed_args, wl_count, s->wlc[0]);
    CLIRR_TRY(launch(s, s->seed, s->ncells, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->wlc[0], 0, sizeof count, &count, err));
    SUM_COMMON(s->data, data_args);
    SET(s->data, data_args, pslot, s->pslot);
    SET(s->data, data_args, pending, s->pending);
    s->rounds = 0;
    while (count) {
        if (s->rounds > BH_MAXDEPTH + 1)
            return clirr_fail(err, CLIRR_ERR_OPENCL, "summarization did not reach the root in %u rounds (a "
                              "tree is at most %u deep)", s->rounds, BH_MAXDEPTH);
        uint32_t round = after + 1 + s->rounds;
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->wlc[1 - cur], 0, 1, 0, err));
        SET(s->data, data_args, wl_in, s->wl[cur]);
        SET(s->data, data_args, nin, count);
        SET(s->data, data_args, wl_out, s->wl[1 - cur]);
        SET(s->data, data_args, wl_count, s->wlc[1 - cur]);
        SET(s->data, data_args, round, round);
        CLIRR_TRY(launch(s, s->data, count, err));
        cur = 1 - cur;
        CLIRR_TRY(clirr_buf_read(s->ctx, s->wlc[cur], 0, sizeof count, &count, err));
        s->rounds++;
    }
fail:
    return rc;
}

/* Centres of mass: a cell at depth d is ready by pass depth_max - d + 1,
 * so topo runs exactly the tree's depth + 1 passes. */
static int summarize(bh_session *s, unsigned variant, clirr_error *err)
{
    s->passes = s->rounds = 0;
    switch (variant) {
    case V_TOPO: return topo_passes(s, s->depth + 1, err);
    case V_DATA: return data_rounds(s, 0, err);
    default: {
        uint32_t k = s->prepasses < s->depth + 1 ? s->prepasses : s->depth + 1;
        int rc = topo_passes(s, k, err);
        return rc == CLIRR_OK && k < s->depth + 1 ? data_rounds(s, k, err) : rc;
    }
    }
}

static int sort_bodies(bh_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    SET(s->sortk, sort_args, px, s->pos[0]);
    SET(s->sortk, sort_args, py, s->pos[1]);
    SET(s->sortk, sort_args, pz, s->pos[2]);
    SET(s->sortk, sort_args, n, s->n);
    SET(s->sortk, sort_args, geom, s->geom);
    SET(s->sortk, sort_args, child, s->child);
    SET(s->sortk, sort_args, next, s->next);
    SET(s->sortk, sort_args, ccount, s->ccount);
    SET(s->sortk, sort_args, order, s->order);
    SET(s->sortk, sort_args, cgeo, s->cgeo);
    /* The group walk's groups: regions (subtrees of at most 4 groups of
     * bodies) cut into groups of at most G * per; the host reads how many
     * (the force launch's size). */
    uint32_t span = s->walk == BH_WALK_GROUP ? s->gwg * s->per : 1, region_cap = 4 * span;
    SET(s->sortk, sort_args, region_cap, region_cap);
    SET(s->sortk, sort_args, span, span);
    SET(s->sortk, sort_args, head, s->head);
    CLIRR_TRY(launch(s, s->sortk, s->n, err));
    if (s->walk == BH_WALK_GROUP)
        CLIRR_TRY(clirr_prim_compact_u32(s->ctx, s->head, 1, NULL, s->n, s->heads, s->n, &s->nheads, err));
fail:
    return rc;
}

/* The walk's layout of the current tree (cl/bh.def). */
static int link_tree(bh_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->link;
    SET(k, link_args, px, s->pos[0]);
    SET(k, link_args, py, s->pos[1]);
    SET(k, link_args, pz, s->pos[2]);
    SET(k, link_args, mass, s->mass);
    SET(k, link_args, n, s->n);
    SET(k, link_args, ncells, s->ncells);
    SET(k, link_args, child, s->child);
    SET(k, link_args, pslot, s->pslot);
    SET(k, link_args, cdepth, s->cdepth);
    SET(k, link_args, cx, s->cpos[0]);
    SET(k, link_args, cy, s->cpos[1]);
    SET(k, link_args, cz, s->cpos[2]);
    SET(k, link_args, cm, s->cm);
    SET(k, link_args, link, s->links);
    SET(k, link_args, cinfo, s->cinfo);
    SET(k, link_args, cell4, s->cell4);
    SET(k, link_args, body4, s->body4);
    CLIRR_TRY(launch(s, k, s->ncells > s->n ? s->ncells : s->n, err));
fail:
    return rc;
}

static int forces(bh_session *s, uint32_t step, uint32_t measure, cl_mem phi, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(link_tree(s, err));
    cl_kernel k = s->force;
    cl_mem order = s->sort ? s->order : s->iota;
    SET(k, force_args, px, s->pos[0]);
    SET(k, force_args, py, s->pos[1]);
    SET(k, force_args, pz, s->pos[2]);
    SET(k, force_args, n, s->n);
    SET(k, force_args, geom, s->geom);
    SET(k, force_args, next, s->next);
    SET(k, force_args, link, s->links);
    SET(k, force_args, cinfo, s->cinfo);
    SET(k, force_args, cell4, s->cell4);
    SET(k, force_args, body4, s->body4);
    SET(k, force_args, order, order);
    cl_mem heads = s->sort ? s->heads : s->heads0;
    SET(k, force_args, heads, heads);
    uint32_t nheads = s->sort ? s->nheads : s->nheads0;
    SET(k, force_args, nheads, nheads);
    SET(k, force_args, child, s->child);
    SET_REAL(k, force_args, theta, s->cfg.theta);
    SET_REAL(k, force_args, eps, s->cfg.eps);
    SET_REAL(k, force_args, dthf, s->cfg.dt * 0.5);
    SET(k, force_args, step, step);
    SET(k, force_args, measure, measure);
    SET(k, force_args, depth, s->depth);
    SET(k, force_args, vx, s->vel[0]);
    SET(k, force_args, vy, s->vel[1]);
    SET(k, force_args, vz, s->vel[2]);
    SET(k, force_args, ax, s->acc[0]);
    SET(k, force_args, ay, s->acc[1]);
    SET(k, force_args, az, s->acc[2]);
    SET(k, force_args, phi, phi);
    SET(k, force_args, inter, s->inter);
    SET(k, force_args, inter_bb, s->inter_bb);
    SET(k, force_args, inter_sum, s->inter_sum);
    /* per bodies a work-item; every group whole (the kernel's bound
     * checks keep the lanes past n voting and idle). The group walk: a
     * work-group a group. */
    size_t items = (s->n + s->per - 1) / s->per;
    if (s->walk == BH_WALK_GROUP)
        items = (size_t)nheads * s->gwg;
    CLIRR_TRY(clirr_launch(s->ctx, k, items, s->force_wg, err));
fail:
    return rc;
}

static int integrate(bh_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->integrate;
    SET(k, integrate_args, px, s->pos[0]);
    SET(k, integrate_args, py, s->pos[1]);
    SET(k, integrate_args, pz, s->pos[2]);
    SET(k, integrate_args, vx, s->vel[0]);
    SET(k, integrate_args, vy, s->vel[1]);
    SET(k, integrate_args, vz, s->vel[2]);
    SET(k, integrate_args, ax, s->acc[0]);
    SET(k, integrate_args, ay, s->acc[1]);
    SET(k, integrate_args, az, s->acc[2]);
    SET(k, integrate_args, n, s->n);
    SET_REAL(k, integrate_args, dt, s->cfg.dt);
    SET_REAL(k, integrate_args, dthf, s->cfg.dt * 0.5);
    CLIRR_TRY(launch(s, k, s->n, err));
fail:
    return rc;
}

/* The tree and its centres of mass at the current positions. */
static int tree_and_summary(bh_session *s, unsigned variant, clirr_error *err)
{
    int rc = build_tree(s, err);
    return rc == CLIRR_OK ? summarize(s, variant, err) : rc;
}

static int bh_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    bh_session *s = state;
    size_t bytes = (size_t)s->n * s->rs;
    for (int k = 0; k < 3; k++) {
        CLIRR_TRY(clirr_buf_copy(s->ctx, s->init[k], 0, s->pos[k], 0, bytes, err));
        CLIRR_TRY(clirr_buf_copy(s->ctx, s->init[3 + k], 0, s->vel[k], 0, bytes, err));
    }
    s->rebuilds = 0;
    stats->iterations = 0;
    for (uint32_t step = 0; step < s->cfg.steps; step++) {
        CLIRR_TRY(tree_and_summary(s, s->variant, err));
        stats->iterations += s->passes + s->rounds;
        if (s->sort)
            CLIRR_TRY(sort_bodies(s, err));
        CLIRR_TRY(forces(s, step, 0, step == 0 ? s->phi0 : s->phi, err));
        CLIRR_TRY(integrate(s, err));
    }
    double *out = result;
    for (int k = 0; k < 3; k++) {
        CLIRR_TRY(download_field(s, s->pos[k], out + BH_OUT_X + k, BH_OUT_REALS, err));
        CLIRR_TRY(download_field(s, s->vel[k], out + BH_OUT_VX + k, BH_OUT_REALS, err));
        CLIRR_TRY(download_field(s, s->acc[k], out + BH_OUT_AX + k, BH_OUT_REALS, err));
    }
    stats->reached = s->n;
fail:
    return rc;
}

/* The last step's tree against the invariants (downloaded), for trees of
 * at most BH_TREE_CHECK_MAX bodies. */
static void check_tree(bh_session *s)
{
    s->tree_checked = false;
    if (s->n > BH_TREE_CHECK_MAX)
        return;
    clirr_error err;
    clirr_error_clear(&err);
    size_t nc = s->ncells;
    uint32_t *child = malloc(nc * 8 * sizeof *child), *next = malloc((size_t)s->n * sizeof *next);
    uint32_t *pslot = malloc(nc * sizeof *pslot), *ccount = malloc(nc * sizeof *ccount);
    double *bm = malloc((size_t)s->n * sizeof *bm), *cm = malloc(nc * sizeof *cm);
    void *raw = malloc(nc * s->rs);
    bool ok = child && next && pslot && ccount && bm && cm && raw;
    ok = ok && clirr_buf_read(s->ctx, s->child, 0, nc * 8 * sizeof *child, child, &err) == CLIRR_OK;
    ok = ok && clirr_buf_read(s->ctx, s->next, 0, (size_t)s->n * sizeof *next, next, &err) == CLIRR_OK;
    ok = ok && clirr_buf_read(s->ctx, s->pslot, 0, nc * sizeof *pslot, pslot, &err) == CLIRR_OK;
    ok = ok && clirr_buf_read(s->ctx, s->ccount, 0, nc * sizeof *ccount, ccount, &err) == CLIRR_OK;
    ok = ok && clirr_buf_read(s->ctx, s->cm, 0, nc * s->rs, raw, &err) == CLIRR_OK;
    ok = ok && download_field(s, s->mass, bm, 1, &err) == CLIRR_OK;
    if (ok) {
        for (size_t c = 0; c < nc; c++)
            cm[c] = s->rs == 8 ? ((double *)raw)[c] : ((float *)raw)[c];
        clirr_bh_tree_view v = {s->n, s->ncells, child, next, pslot, ccount, bm, cm};
        char msg[256];
        s->tree_ok = clirr_bh_tree_check(&v, s->rs == 8 ? 1e-12 : 1e-5, msg, sizeof msg);
        if (!s->tree_ok)
            fprintf(stderr, "clirr: bh: the device's tree breaks an invariant: %s\n", msg);
        s->tree_checked = true;
    }
    free(child), free(next), free(pslot), free(ccount), free(bm), free(cm), free(raw);
}

/* Total energy from velocities and the potentials phi (0.5 sum m phi). */
static double energy_of(const bh_session *s, const double *vel, size_t stride, const double *phi)
{
    double ke = 0, pe = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        double m = s->bodies->v[(size_t)i * CLIRR_BODY_REALS + CLIRR_BODY_M];
        const double *v = vel + (size_t)i * stride;
        ke += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        pe += 0.5 * m * phi[i];
    }
    return ke + pe;
}

/* After the clock: interactions and the tree of the last step, then the
 * potentials at the final positions (one more tree and walk) for the
 * energy after; momentum from the result. */
static void bh_summarize(void *state, const void *result, clirr_stats *stats)
{
    bh_session *s = state;
    const double *out = result;
    clirr_error err;
    clirr_error_clear(&err);
    s->interactions = s->inter_bodies = s->inter_all = 0;
    uint32_t *inter = malloc((size_t)s->n * sizeof(uint64_t));
    double *phi = malloc((size_t)s->n * 2 * sizeof *phi);
    if (inter && clirr_buf_read(s->ctx, s->inter, 0, (size_t)s->n * sizeof *inter, inter, &err) == CLIRR_OK)
        for (uint32_t i = 0; i < s->n; i++)
            s->interactions += inter[i];
    if (inter && clirr_buf_read(s->ctx, s->inter_bb, 0, (size_t)s->n * sizeof *inter, inter, &err) == CLIRR_OK)
        for (uint32_t i = 0; i < s->n; i++)
            s->inter_bodies += inter[i];
    uint64_t *all = (uint64_t *)inter;
    if (inter && clirr_buf_read(s->ctx, s->inter_sum, 0, (size_t)s->n * sizeof *all, all, &err) == CLIRR_OK)
        for (uint32_t i = 0; i < s->n; i++)
            s->inter_all += all[i];
    s->force_ms = 0;
    for (size_t i = 0; i < stats->timing.nkernels; i++)
        if (!strcmp(stats->timing.kernels[i].name, "bh_force"))
            s->force_ms = stats->timing.kernels[i].ns / 1e6;
    stats->edges_traversed = s->interactions;
    check_tree(s);
    uint32_t ncells = s->ncells, depth = s->depth, passes = s->passes, rounds = s->rounds;
    s->energy_ok = phi && download_field(s, s->phi0, phi, 1, &err) == CLIRR_OK &&
                   tree_and_summary(s, V_TOPO, &err) == CLIRR_OK && forces(s, 0, 1, s->phi, &err) == CLIRR_OK &&
                   download_field(s, s->phi, phi + s->n, 1, &err) == CLIRR_OK;
    s->ncells = ncells, s->depth = depth, s->passes = passes, s->rounds = rounds;
    if (s->energy_ok) {
        s->energy[0] = energy_of(s, s->bodies->v + CLIRR_BODY_VX, CLIRR_BODY_REALS, phi);
        s->energy[1] = energy_of(s, out + BH_OUT_VX, BH_OUT_REALS, phi + s->n);
    }
    for (int k = 0; k < 3; k++)
        s->momentum[0][k] = s->momentum[1][k] = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        double m = s->bodies->v[(size_t)i * CLIRR_BODY_REALS + CLIRR_BODY_M];
        for (int k = 0; k < 3; k++) {
            s->momentum[0][k] += m * s->bodies->v[(size_t)i * CLIRR_BODY_REALS + CLIRR_BODY_VX + k];
            s->momentum[1][k] += m * out[(size_t)i * BH_OUT_REALS + BH_OUT_VX + k];
        }
    }
    free(inter);
    free(phi);
}

static void add_real(clirr_extras *x, const char *name, double v, bool table)
{
    clirr_extra *e = clirr_extras_add(x, name, CLIRR_EXTRA_REAL);
    if (e) {
        e->r = v;
        e->in_table = table;
    }
}

static void add_uint(clirr_extras *x, const char *name, uint64_t v, bool table)
{
    clirr_extra *e = clirr_extras_add(x, name, CLIRR_EXTRA_UINT);
    if (e) {
        e->u = v;
        e->in_table = table;
    }
}

/* The device's float rate, as clirr estimates it: compute units x clock
 * (both probed) x float lanes a compute unit x 2 (a multiply-add a lane a
 * cycle). The lanes are not probed by OpenCL: NVIDIA's per streaming
 * multiprocessor from its compute capability (NVIDIA's tables), a CPU's
 * float vector width x 2 FMA ports (assumed), else the SIMD width. */
static double float_peak_gflops(const clirr_caps *c, double *lanes, const char **basis)
{
    uint32_t cc = c->nv_cc;
    if (cc) {
        *lanes = cc == 60 || cc == 70 || cc == 72 || cc == 75 || cc == 80 ? 64 : 128;
        *basis = "NVIDIA FP32 lanes per SM from the compute capability (assumed from NVIDIA's tables)";
    } else if (c->is_cpu && c->float_vector) {
        *lanes = 2.0 * c->float_vector;
        *basis = "CPU: native float vector width x 2 FMA ports per core (assumed)";
    } else {
        *lanes = c->simd_width ? c->simd_width : 32;
        *basis = "the probe's SIMD width as lanes per compute unit (assumed)";
    }
    return c->compute_units * (double)c->clock_mhz * 1e-3 * *lanes * 2;
}

/* The force kernel's rate over all steps: interactions per second, at 20
 * flops each (GPU Gems 3's count for a softened interaction), against the
 * estimated float peak. */
#define BH_FLOPS_PER_INTERACTION 20
static void add_force_rate(bh_session *s, clirr_extras *x)
{
    const clirr_caps *c = clirr_ctx_caps(s->ctx);
    double lanes;
    const char *basis;
    double peak = float_peak_gflops(c, &lanes, &basis);
    add_uint(x, "force.interactions", s->inter_all, false);
    if (s->force_ms <= 0)
        return;
    double rate = s->inter_all / (s->force_ms * 1e-3), gflops = rate * BH_FLOPS_PER_INTERACTION * 1e-9;
    add_real(x, "force.ginteractions_per_s", rate * 1e-9, true);
    add_real(x, "force.gflops", gflops, false);
    if (peak > 0) {
        add_real(x, "force.peak_percent", 100 * gflops / peak, true);
        add_real(x, "force.peak_gflops", peak, false);
        clirr_extra *e = clirr_extras_add(x, "force.peak_units_mhz_lanes", CLIRR_EXTRA_REALS);
        if (e) {
            double v[3] = {c->compute_units, c->clock_mhz, lanes};
            memcpy(e->reals, v, sizeof v);
            e->nreals = 3;
        }
        if ((e = clirr_extras_add(x, "force.peak_lanes", CLIRR_EXTRA_TEXT)))
            e->text = basis;
    }
}

static void bh_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    bh_session *s = state;
    add_uint(x, "steps", s->cfg.steps, false);
    add_uint(x, "cells", s->ncells, false); /* allocated: the tree's and lost races' */
    add_uint(x, "rebuilds", s->rebuilds, false); /* builds rerun after the cells ran out */
    add_uint(x, "depth", s->depth, false);
    add_uint(x, "summarize.passes", s->passes, false);
    add_uint(x, "summarize.rounds", s->rounds, false);
    add_uint(x, "interactions", s->interactions, true);
    add_uint(x, "interactions_with_bodies", s->inter_bodies, false);
    if (s->walk == BH_WALK_GROUP)
        add_uint(x, "force.group", s->gwg, false); /* work-items walking together */
    add_force_rate(s, x);
    clirr_extra *e = clirr_extras_add(x, "walk", CLIRR_EXTRA_TEXT);
    if (e)
        e->text = walk_texts[s->walk][s->per - 1];
    if (s->tree_checked && (e = clirr_extras_add(x, "tree_ok", CLIRR_EXTRA_BOOL)))
        e->b = s->tree_ok;
    if (s->energy_ok) {
        add_real(x, "energy.before", s->energy[0], false);
        add_real(x, "energy.after", s->energy[1], false);
    }
    static const char *const mnames[2] = {"momentum.before", "momentum.after"};
    for (int w = 0; w < 2; w++)
        if ((e = clirr_extras_add(x, mnames[w], CLIRR_EXTRA_REALS))) {
            memcpy(e->reals, s->momentum[w], sizeof s->momentum[w]);
            e->nreals = 3;
        }
    clirr_bh_tolerance tol;
    clirr_bh_tolerance_for(&s->cfg, &tol);
    add_real(x, "tolerance.p99", tol.p99, false);
    add_real(x, "tolerance.max", tol.max, false);
}

static int bh_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    clirr_bh_config c;
    bh_config_of(plan, &c);
    return clirr_ref_bh(clirr_input_bodies(in), &c, out, NULL, err);
}

static bool bh_verify(const clirr_input *in, const clirr_plan *plan, const void *expected, const void *got,
                      clirr_verify_report *r)
{
    clirr_bh_config c;
    bh_config_of(plan, &c);
    return clirr_verify_bh(clirr_input_bodies(in), &c, expected, got, NULL, r);
}

static void bh_write(FILE *f, const void *result, uint64_t i)
{
    const double *o = (const double *)result + i * BH_OUT_REALS;
    fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", o[0], o[1], o[2], o[3], o[4], o[5], o[6],
            o[7], o[8]);
}

static const clirr_variant_desc bh_variants[] = {
    [V_TOPO] = {"topo", "summarization: every cell each pass (depth + 1 passes)", false},
    [V_DATA] = {"data", "summarization: a worklist of ready cells, parents pushed by their last child", false},
    [V_HYBRID] = {"hybrid", "summarization: --prepasses topology passes, then the worklist", false},
};

static const clirr_param_desc bh_params[] = {
    [P_STEPS] = {"steps", CLIRR_PARAM_UINT, "1", 1, 1000000, "time steps"},
    [P_DT] = {"dt", CLIRR_PARAM_REAL, "0.025", 1e-12, 1e6, "time step length"},
    [P_EPS] = {"eps", CLIRR_PARAM_REAL, "0.05", 1e-12, 1e6, "softening length (forces m d / (|d|^2 + eps^2)^1.5)"},
    [P_THETA] = {"theta", CLIRR_PARAM_REAL, "0.5", 0, 10,
                 "opening: a cell is used whole when edge / distance < theta (0: exact)"},
    [P_PRECISION] = {"precision", CLIRR_PARAM_CHOICE, "float", 0, 0, "float, or double where the device has fp64",
                     precisions},
    [P_PREPASSES] = {"prepasses", CLIRR_PARAM_UINT, "1", 0, BH_MAXDEPTH + 1,
                     "hybrid: topology-driven passes before the worklist", NULL, 1u << V_HYBRID},
    [P_SORT] = {"sort", CLIRR_PARAM_BOOL, "on", 0, 0, "walk the bodies in tree order (neighbours walk together)"},
    [P_WALK] = {"walk", CLIRR_PARAM_CHOICE, "auto", 0, 0,
                "the force walk: a vote on each node by subgroup (where the device has them), warp (NVIDIA) or "
                "workgroup; group (the work-group's box, interaction lists); auto",
                walks},
    [P_CELLS] = {"cells", CLIRR_PARAM_CHOICE, "recalc", 0, 0,
                 "cell centres while descending (build, sort): recalc (computed) or store (read per cell)", cells},
    [P_PER_ITEM] = {"per-item", CLIRR_PARAM_UINT, "0", 0, BH_PER_MAX,
                    "bodies each work-item of the force walk computes (0: 2 on a GPU with enough bodies, else 1)"},
};

const clirr_algo clirr_algo_bh = {
    .name = "bh",
    .summary = "Barnes-Hut n-body: octree, centres of mass, sorted force walk, leapfrog",
    .study = "shared/papers/000 (BH, Figures 6 and 13); 002 (BHtree, BHforce)",
    .input = CLIRR_INPUT_BODIES,
    .variants = bh_variants,
    .nvariants = 3,
    .default_variant = V_TOPO,
    .params = bh_params,
    .nparams = P_COUNT,
    .sources = CLIRR_SOURCES_NONE,
    .value_size = BH_OUT_REALS * sizeof(double),
    .prepare = bh_prepare,
    .run = bh_run,
    .release = bh_release,
    .reference = bh_reference,
    .verify = bh_verify,
    .write_value = bh_write,
    .summarize = bh_summarize,
    .extras = bh_extras,
};
