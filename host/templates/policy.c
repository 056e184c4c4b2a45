/* host/templates/policy.c - which parallelization templates a device can
 * run, from its capabilities. One table, so every rule is in one place. */
#include "clirr/templates.h"
#include "templates/policy.h"

#include <string.h>

typedef struct template_rule {
    const char *name;
    bool needs_device_enqueue; /* enqueue_kernel from a kernel (C 2.0+) */
    bool needs_local_memory;   /* a work-group buffer in local memory */
} template_rule;

static const template_rule rules[CLIRR_TEMPLATE_COUNT_] = {
    [CLIRR_TEMPLATE_BASELINE] = {"baseline", false, false},
    [CLIRR_TEMPLATE_DUAL_QUEUE] = {"dual-queue", false, false},
    [CLIRR_TEMPLATE_DBUF_GLOBAL] = {"dbuf-global", false, false},
    [CLIRR_TEMPLATE_DBUF_SHARED] = {"dbuf-shared", false, true},
    [CLIRR_TEMPLATE_NESTED_NAIVE] = {"nested-naive", true, false},
    [CLIRR_TEMPLATE_NESTED_OPT] = {"nested-opt", true, true},
    [CLIRR_TEMPLATE_FLAT] = {"flat", false, false},
    [CLIRR_TEMPLATE_REC_NAIVE] = {"rec-naive", true, false},
    [CLIRR_TEMPLATE_REC_HIER] = {"rec-hier", true, true},
};

const char *clirr_template_name(clirr_template t)
{
    return (unsigned)t < CLIRR_TEMPLATE_COUNT_ ? rules[t].name : "?";
}

bool clirr_template_is_recursion(clirr_template t)
{
    return t >= CLIRR_TEMPLATE_FIRST_RECURSION && t < CLIRR_TEMPLATE_COUNT_;
}

int clirr_template_parse(const char *name, clirr_template *t)
{
    for (int i = 0; i < CLIRR_TEMPLATE_COUNT_; i++)
        if (!strcmp(name, rules[i].name)) {
            *t = (clirr_template)i;
            return 0;
        }
    return -1;
}

bool clirr_template_runnable(const clirr_caps *caps, clirr_template t, const char **why)
{
    const char *no = NULL;
    if ((unsigned)t >= CLIRR_TEMPLATE_COUNT_)
        no = "unknown template";
    else if (rules[t].needs_device_enqueue && !caps->device_enqueue)
        no = "no device-side enqueue";
    else if (rules[t].needs_local_memory && caps->local_mem == 0)
        no = "no local memory";
    if (why)
        *why = no;
    return no == NULL;
}

/* A round of at least universe/SCAN_SHARE items places its pushes by a
 * prefix sum over the marks. Measured on an H100 and 16-core PoCL (README,
 * "Measured"): the compaction wins on rmat and uniform random frontiers,
 * loses by 2x (H100) to 24x (PoCL) on a grid's thin wavefront (at most
 * sqrt(n) items a round). The input size predicts the pushes poorly (a
 * few rmat hubs push a million), so the share is small: only rounds far
 * thinner than the graph avoid the compaction. */
#define SCAN_SHARE 256u

clirr_push_mode clirr_policy_push(const clirr_caps *caps, uint32_t size, uint32_t universe)
{
    if ((uint64_t)size * SCAN_SHARE >= universe)
        return CLIRR_PUSH_COMPACT;
    return caps->is_gpu ? CLIRR_PUSH_ATOMIC : CLIRR_PUSH_CHUNK;
}

uint32_t clirr_policy_push_small(uint32_t universe)
{
    return universe ? (universe - 1) / SCAN_SHARE : 0;
}

/* The rest of local memory stays for the templates' own buffers
 * (dbuf-shared's delayed items and sums), which the host sizes from the
 * work-group; 2048 items outlast most work-groups' rounds (a round pushes
 * at most its arcs). */
#define HIER_MAX_ITEMS 2048u

uint32_t clirr_policy_hier_capacity(const clirr_caps *caps)
{
    uint64_t items = caps->local_mem / 4 / sizeof(uint32_t);
    return (uint32_t)(items < HIER_MAX_ITEMS ? items : HIER_MAX_ITEMS);
}

const char *clirr_policy_push_reason(const clirr_caps *caps)
{
    return caps->is_gpu ? "per round: compact when the round holds at least 1/256 of the vertices, "
                          "else atomic (cheap on GPUs)"
                        : "per round: compact when the round holds at least 1/256 of the vertices, "
                          "else chunk (one atomic per work-item: contended atomics are dear on CPUs)";
}

/* A GPU runs dbuf-shared when the graph gives every compute unit many
 * work-groups of items; on smaller graphs dbuf-shared leaves the device
 * idle (its large items stay in the few work-groups that found them), and
 * dbuf-global, which spreads them over all work-groups, wins. Measured on
 * an H100 (README, "Measured"): dbuf-shared best on rmat scale 20
 * (1M vertices), dbuf-global 2-5x better than it on email-Enron (37K). */
#define SHARED_ITEMS_PER_CU 2048u

/* On CPUs a work-group is one core's loop over its work-items, so moving an
 * item to block-mapped work pays only for long items: measured on PoCL
 * (16 and 2 cores) and Intel's CPU runtime, lb_THRES 16-64 lost up to 2x
 * against baseline where 256-1024 gained up to 1.7x. */
#define CPU_LB_THRES 256u

/* Measured device profiles, looked up by platform name and device type
 * before the general rules (the vendor -> device -> default idea of
 * CLBlast's tuning database), after an algorithm's own profile (its
 * descriptor's template_hint). Kernel times of every template against
 * baseline on rmat scale 18-20 and email-Enron (tests/bench/RESULTS.md). */
typedef enum { ANY_DEVICE, CPU_ONLY } device_kind;
typedef struct tuning_profile {
    const char *platform; /* substring of the platform name; "" = any */
    device_kind kind;
    clirr_template tmpl;
    uint32_t lb_thres;    /* 0 = the SIMD width */
    const char *reason;
} tuning_profile;

static const tuning_profile profiles[] = {
    {"Portable Computing Language", CPU_ONLY, CLIRR_TEMPLATE_BASELINE, 0,
     "PoCL on a CPU (measured profile): the load-balancing templates ran at 0.04-1.7x of "
     "baseline, a loss more often than a gain (a work-group runs serially on one core)"},
    {"Intel(R) OpenCL", CPU_ONLY, CLIRR_TEMPLATE_DBUF_GLOBAL, 64,
     "Intel's CPU runtime (measured profile): dbuf-global at lb_THRES 64 ran at 0.7-1.7x of "
     "baseline, 1.09x on geometric mean (gains on PageRank, SpMV, BC; losses on SSSP)"},
};

static bool profile_matches(const tuning_profile *p, const clirr_caps *caps)
{
    if (p->kind == CPU_ONLY && caps->is_gpu)
        return false;
    return strstr(caps->platform, p->platform) && clirr_template_runnable(caps, p->tmpl, NULL);
}

void clirr_policy_template(const clirr_caps *caps, const clirr_template_hint *hint, uint32_t n,
                           clirr_template *tmpl, uint32_t *lb_thres, const char **reason)
{
    /* lb_THRES defaults to the SIMD width: an item with fewer inner
     * iterations than lanes gains nothing from a whole work-group. */
    *lb_thres = caps->simd_width ? caps->simd_width : 32;
    if (hint && clirr_template_runnable(caps, hint->tmpl, NULL)) {
        *tmpl = hint->tmpl;
        if (hint->lb_thres)
            *lb_thres = hint->lb_thres;
        *reason = hint->reason;
        return;
    }
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        const tuning_profile *p = &profiles[i];
        if (profile_matches(p, caps)) {
            *tmpl = p->tmpl;
            if (p->lb_thres)
                *lb_thres = p->lb_thres;
            *reason = p->reason;
            return;
        }
    }
    bool big = (uint64_t)n >= (uint64_t)caps->compute_units * SHARED_ITEMS_PER_CU;
    if (caps->is_gpu && caps->local_mem_dedicated && caps->local_mem > 0 && big) {
        *tmpl = CLIRR_TEMPLATE_DBUF_SHARED;
        *reason = "GPU with on-chip local memory and a graph large enough to fill it: delayed "
                  "buffer in local memory, one kernel";
    } else if (caps->is_gpu) {
        *tmpl = CLIRR_TEMPLATE_DBUF_GLOBAL;
        *reason = big ? "GPU without on-chip local memory: delayed buffer in global memory"
                      : "GPU, graph too small to fill it per work-group: delayed buffer in global "
                        "memory, spread over all work-groups";
    } else {
        *tmpl = CLIRR_TEMPLATE_DBUF_GLOBAL;
        *lb_thres = CPU_LB_THRES;
        *reason = "CPU: a work-group runs on one core, so only long items (lb_THRES 256) go to a "
                  "global buffer that spreads them over all work-groups";
    }
}

/* Flat wherever it runs. Measured on Intel's CPU runtime, the one device
 * here with device-side enqueue (tests/bench/RESULTS.md, "Recursion
 * templates"): rec-hier ran descendants 1.0-1.3x faster than flat on the
 * larger trees (K >= 64) but slower on small and very sparse ones, and
 * heights 1.7-2.8x slower everywhere; rec-naive 10-40x slower than flat.
 * The GPUs reachable here lack device-side enqueue. */
void clirr_policy_recursion_template(const clirr_caps *caps, clirr_template *tmpl, const char **reason)
{
    *tmpl = CLIRR_TEMPLATE_FLAT;
    *reason = caps->device_enqueue
                  ? "auto: flat (measured on Intel's CPU runtime: rec-hier at most 1.3x faster on descendants, "
                    "slower on heights and small trees; rec-naive far slower)"
                  : "auto: flat, the one recursion template a device without device-side enqueue runs";
}
