/* host/templates/plan.c - the plan of a run: the user's intent, completed
 * by the policy (policy.c) for the device and the input, with the reason
 * for every choice. Made once per case; prepare, --explain and the JSON
 * all read the same plan. */
#include "clirr/algo.h"
#include "templates/nested_loop.h"
#include "templates/policy.h"

#include <stdio.h>
#include <string.h>

static int pick_variant(const clirr_algo *a, const clirr_intent *it, clirr_plan *p, clirr_error *err)
{
    if (it->variant < 0) {
        p->variant = a->default_variant;
        p->variant_reason = a->nvariants > 1 ? "the algorithm's default" : "the only one";
        return CLIRR_OK;
    }
    if ((unsigned)it->variant >= a->nvariants)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s has no variant number %d", a->name, it->variant);
    p->variant = (unsigned)it->variant;
    p->variant_reason = "asked for with --variant";
    return CLIRR_OK;
}

/* The recursion variants of a, for a message ("; --variant recursive
 * does"), or "" when it has none. */
static void recursion_variants(const clirr_algo *a, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned v = 0; v < a->nvariants; v++)
        if (a->variants[v].recursion && used < size) {
            int k = snprintf(buf + used, size - used, "%s%s", used ? ", " : "; --variant ",
                             a->variants[v].name);
            used += k > 0 ? (size_t)k : 0;
        }
    if (used && used < size)
        snprintf(buf + used, size - used, " does");
}

/* A template of the other family than the variant's. */
static int refuse_family(const clirr_algo *a, const clirr_plan *p, clirr_template t, clirr_error *err)
{
    if (a->variants[p->variant].recursion)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "%s --variant %s runs a recursion template (flat, rec-naive, rec-hier), not %s",
                          a->name, clirr_plan_variant_name(p), clirr_template_name(t));
    char which[128];
    recursion_variants(a, which, sizeof which);
    return clirr_fail(err, CLIRR_ERR_USAGE, "%s --variant %s does not run the recursion template %s%s", a->name,
                      clirr_plan_variant_name(p), clirr_template_name(t), which);
}

/* Why auto must take the baseline template (a parameter asked for that
 * runs there only), or NULL. */
static const char *baseline_param(const clirr_algo *a, const clirr_intent *it, unsigned variant)
{
    for (unsigned i = 0; i < a->nparams; i++) {
        const clirr_param_desc *d = &a->params[i];
        if (d->baseline_only && it->params.v[i].u > 0 && (!d->variants || (d->variants >> variant & 1)))
            return "a parameter asked for (see plan.params) runs on the thread-mapped baseline template only";
    }
    return NULL;
}

static int pick_template(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it,
                         const clirr_input *in, clirr_plan *p, clirr_error *err)
{
    const char *why = NULL;
    uint64_t items = clirr_input_items(in);
    uint32_t n = items > UINT32_MAX ? UINT32_MAX : (uint32_t)items;
    bool recursion = a->variants[p->variant].recursion;
    if (it->tmpl >= 0 && clirr_template_is_recursion((clirr_template)it->tmpl) != recursion)
        return refuse_family(a, p, (clirr_template)it->tmpl, err);
    if (it->tmpl < 0 && recursion) {
        clirr_policy_recursion_template(caps, &p->tmpl, &p->template_reason);
    } else if (it->tmpl < 0 && (why = baseline_param(a, it, p->variant))) {
        p->tmpl = CLIRR_TEMPLATE_BASELINE;
        p->template_reason = why;
        p->lb_thres = caps->simd_width ? caps->simd_width : 32;
        p->lb_thres_reason = "the SIMD width";
    } else if (it->tmpl < 0) {
        const clirr_template_hint *hint = a->choose_template_hint ? a->choose_template_hint(in, caps) : a->template_hint;
        clirr_policy_template(caps, hint, n, &p->tmpl, &p->lb_thres, &p->template_reason);
        p->lb_thres_reason = "with the template";
    } else {
        p->tmpl = (clirr_template)it->tmpl;
        int rc = clirr_template_require(caps, p->tmpl, err);
        if (rc != CLIRR_OK)
            return rc;
        p->template_reason = "asked for with --template";
        p->lb_thres = caps->simd_width ? caps->simd_width : 32;
        p->lb_thres_reason = "the SIMD width";
    }
    if (recursion) {
        p->lb_thres = 0;
        p->lb_thres_reason = "not used by the recursion templates";
    } else if (it->lb_thres) {
        p->lb_thres = it->lb_thres;
        p->lb_thres_reason = "asked for with --lb-thres";
    }
    return CLIRR_OK;
}

/* Does the plan keep duplicate pushes (its algorithm's "dedup" parameter,
 * read by its variant, off)? Then rounds run one a launch: the local and
 * queued rounds' queues hold each item once (host/algo/round.c). */
static bool keeps_duplicates(const clirr_algo *a, const clirr_intent *it, unsigned variant)
{
    int d = clirr_algo_param(a, "dedup");
    return d >= 0 && a->params[d].type == CLIRR_PARAM_BOOL &&
           (!a->params[d].variants || (a->params[d].variants >> variant & 1u)) && !it->params.v[d].b;
}

/* Does the plan's worklist hold partitions (its algorithm's "partition"
 * parameter, read by its variant, above 1: the spatial hybrid)? Then the
 * local and queued rounds, which run vertices, are off. */
static bool partitioned(const clirr_algo *a, const clirr_intent *it, unsigned variant)
{
    int d = clirr_algo_param(a, "partition");
    return d >= 0 && a->params[d].type == CLIRR_PARAM_UINT &&
           (!a->params[d].variants || (a->params[d].variants >> variant & 1u)) && it->params.v[d].u > 1;
}

/* Why rounds run one a launch whatever --local-rounds and --queue-rounds
 * say, or NULL. */
static const char *one_round_a_launch(const clirr_algo *a, const clirr_intent *it, unsigned variant)
{
    if (it->trace)
        return "off: --trace records every round";
    if (keeps_duplicates(a, it, variant))
        return "off: --no-dedup (their queues hold each item once; a queued round cannot rerun)";
    if (partitioned(a, it, variant))
        return "off: --partition (the worklist holds partitions)";
    return NULL;
}

/* Small worklists run many rounds in one work-group (local_rounds.clh),
 * with two queues of the chosen size in local memory: at most 4096 items,
 * what the device's local memory holds besides 1 KiB of other use. On a
 * GPU with queued rounds, worklists above 1024 go to those instead where
 * queued rounds take them (below 1/256 of the items: host/algo/round.c).
 * Measured on the H100, BFS: the 2048x2048 grid's fronts of up to 2,047
 * items 66-75 ms end to end at 1024 against 120 at 4096, one work-group
 * being one of 132 compute units; near-far SSSP with the arc work in
 * phases 140.8 ms at 1024, 158.5 at 2048, 284.3 at 4096. Since launches
 * take no profiling event (an H200, tests/bench/RESULTS.md "Launches
 * without profiling events"), BFS's 2048 gave way to 1024 too: grids
 * 2048², 1024² and 4096x512 39.7, 11.6 and 22.9 ms at 1024 against 50.3,
 * 11.6, 23.3 at 2048 and 38.7, 14.2, 22.2 at 512; near-far 72.3 at 1024
 * against 82.3 at 512. */
static void pick_local_rounds(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it, uint64_t items,
                              clirr_plan *p)
{
    const char *forced = one_round_a_launch(a, it, p->variant);
    uint64_t fits = caps->local_mem > 1024 ? (caps->local_mem - 1024) / (2 * sizeof(uint32_t)) : 0;
    uint32_t most = caps->is_gpu && p->queue_rounds && items / 256 > 1024 ? 1024 : 4096;
    uint32_t room = fits < 4096 ? (uint32_t)fits : 4096;
    if (forced) {
        p->local_rounds = 0;
        p->local_rounds_reason = forced;
    } else if (it->local_rounds == 0) {
        p->local_rounds = 0;
        p->local_rounds_reason = "off (--local-rounds off)";
    } else if (it->local_rounds > 0) {
        p->local_rounds = it->local_rounds < room ? (uint32_t)it->local_rounds : room;
        p->local_rounds_reason = it->local_rounds <= room ? "asked for with --local-rounds"
                                                          : "asked for with --local-rounds, capped by "
                                                            "the device's local memory";
    } else {
        p->local_rounds = room < most ? room : most;
        p->local_rounds_reason = most == 4096 ? "auto: two queues in the device's local memory, at most 4096 items"
                                              : "auto: two queues in the device's local memory, at most 1024 items "
                                                "on a GPU with queued rounds above";
    }
    if (p->local_rounds < 2) {
        p->local_rounds = 0;
        if (it->local_rounds != 0 && !forced)
            p->local_rounds_reason = "off: the device's local memory holds no queue";
    }
}

/* Mid-sized worklists run rounds queued ahead (host/algo/round.c): a batch
 * of launches, then one read of all their lengths. Measured on the H100
 * against one round a launch: 2048x2048 grid BFS 0.55x, near-far SSSP
 * 0.43x, data SSSP and CC 0.90x, the low-diameter graphs 0.83-1.00x. Not with templates that
 * size a launch from a length read on the host (dual-queue's compactions,
 * the nested ones' child counts). */
#define QUEUE_AUTO 16
#define QUEUE_MAX 64
static void pick_queue_rounds(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it, clirr_plan *p)
{
    const char *forced = one_round_a_launch(a, it, p->variant);
    if (forced) {
        p->queue_rounds = 0;
        p->queue_rounds_reason = forced;
    } else if (it->queue_rounds == 0) {
        p->queue_rounds = 0;
        p->queue_rounds_reason = "off (--queue-rounds off)";
    } else if (it->push == CLIRR_PUSH_SCAN && clirr_plan_uses_worklist(p)) {
        p->queue_rounds = 0;
        p->queue_rounds_reason = "off: the scan push places each round's output after it, on the host's call";
    } else if (a->per_round_variants >> p->variant & 1) {
        p->queue_rounds = 0;
        p->queue_rounds_reason = "off: the variant decides on the host after every round";
    } else if (p->tmpl != CLIRR_TEMPLATE_BASELINE && p->tmpl != CLIRR_TEMPLATE_DBUF_SHARED &&
               p->tmpl != CLIRR_TEMPLATE_DBUF_GLOBAL) {
        p->queue_rounds = 0;
        p->queue_rounds_reason = "off: the template sizes its launches from lengths read on the host";
    } else if (it->queue_rounds > 0) {
        p->queue_rounds = it->queue_rounds < QUEUE_MAX ? (uint32_t)it->queue_rounds : QUEUE_MAX;
        p->queue_rounds_reason = it->queue_rounds <= QUEUE_MAX ? "asked for with --queue-rounds"
                                                               : "asked for with --queue-rounds, at most 64";
    } else if (!caps->is_gpu) {
        p->queue_rounds = 0;
        p->queue_rounds_reason = "auto: off on a CPU (measured, PoCL with 16 cores: local rounds and the "
                                 "compaction's wide rounds leave them nothing to gain)";
    } else {
        p->queue_rounds = QUEUE_AUTO;
        p->queue_rounds_reason = "auto: 16 rounds a read-back on a GPU while the worklist is under 1/256 of "
                                 "the items and the device's resident work-items";
    }
}

/* --grid fixed: a data-driven round launches the device's resident
 * work-items, which stride over the worklist (the study's fixed kernel
 * configuration, section III-F, against its variable one, clirr's
 * default). Only templates whose kernels stride over the items and size
 * no launch from the length on the host. */
static int pick_grid(const clirr_caps *caps, const clirr_intent *it, uint64_t items, clirr_plan *p, clirr_error *err)
{
    p->fixed_grid = 0;
    p->grid_reason = "worklist: a work-item per item (variable kernel configuration)";
    if (!it->fixed_grid)
        return CLIRR_OK;
    if (p->tmpl != CLIRR_TEMPLATE_BASELINE && p->tmpl != CLIRR_TEMPLATE_DBUF_SHARED &&
        p->tmpl != CLIRR_TEMPLATE_DBUF_GLOBAL)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--grid fixed runs the baseline, dbuf-global and dbuf-shared templates (their kernels "
                          "stride over the worklist); %s sizes its launches from the worklist",
                          clirr_template_name(p->tmpl));
    uint64_t resident = (uint64_t)caps->compute_units * caps->max_wg_size;
    uint64_t grid = resident < items ? resident : items;
    p->fixed_grid = grid ? (uint32_t)grid : 1;
    p->grid_reason = "fixed (--grid fixed): the device's resident work-items, or every item if fewer";
    return CLIRR_OK;
}

/* --push hier keeps each work-group's pushes in a queue in local memory,
 * which a nested template's child kernel (a block) cannot declare, and
 * which needs local memory at all. */
static int pick_hier(const clirr_caps *caps, clirr_plan *p, clirr_error *err)
{
    if (p->tmpl == CLIRR_TEMPLATE_NESTED_NAIVE || p->tmpl == CLIRR_TEMPLATE_NESTED_OPT)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--push hier keeps a work-group's pushes in local memory, which the %s template's "
                          "child kernels cannot declare: use baseline, dual-queue, dbuf-global or dbuf-shared",
                          clirr_template_name(p->tmpl));
    uint32_t cap = clirr_policy_hier_capacity(caps);
    if (cap < 64)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--push hier needs local memory for a queue of 64 items a work-group; %s has %llu bytes",
                          caps->name, (unsigned long long)caps->local_mem);
    p->push_reason = "asked for with --push: each work-group queues its pushes in local memory (a quarter of it, "
                     "at most 2048 items), spilling to the global worklist when full";
    return CLIRR_OK;
}

/* --push scan gives each work-item of a launch its own slots and count
 * (cl/common/worklist.clh): a round may launch one pushing kernel only.
 * dual-queue and dbuf-global push from two kernels a round, the nested
 * templates from child kernels. Under --template auto, the planned
 * template gives way to dbuf-shared (load-balanced in one kernel), or
 * baseline where that cannot run. */
static bool scan_template(clirr_template t)
{
    return t == CLIRR_TEMPLATE_BASELINE || t == CLIRR_TEMPLATE_DBUF_SHARED;
}

static int pick_scan(const clirr_caps *caps, const clirr_intent *it, clirr_plan *p, clirr_error *err)
{
    if (!scan_template(p->tmpl) && it->tmpl >= 0)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--push scan needs one pushing kernel a round (each work-item's slots and count are the "
                          "launch's); the %s template pushes from %s: use baseline or dbuf-shared",
                          clirr_template_name(p->tmpl),
                          p->tmpl == CLIRR_TEMPLATE_NESTED_NAIVE || p->tmpl == CLIRR_TEMPLATE_NESTED_OPT
                              ? "child kernels"
                              : "two kernels a round");
    if (!scan_template(p->tmpl)) {
        p->tmpl = clirr_template_runnable(caps, CLIRR_TEMPLATE_DBUF_SHARED, NULL) ? CLIRR_TEMPLATE_DBUF_SHARED
                                                                                  : CLIRR_TEMPLATE_BASELINE;
        p->template_reason = "auto with --push scan: a template that pushes from one kernel a round";
    }
    p->push_reason = "asked for with --push: each work-item writes its pushes to its own slots and counts them; a "
                     "prefix sum of the counts places them (pushes past a work-item's slots take an atomic)";
    return CLIRR_OK;
}

/* --reorder: the session runs on the relabelled graph and moves each
 * vertex's value back (host/algo/session.c). Refused where that would be
 * wrong: results that are not one value per vertex (mst's edges), values
 * that are ids (cc), files named by ids (--parents, --vector...), and
 * sampled sources, which a relabelling would sample differently.
 * cannot_reorder: why the algorithm cannot run relabelled with this
 * intent, or NULL; *param names the file parameter that is the reason,
 * else NULL. */
static const char *cannot_reorder(const clirr_algo *a, const clirr_intent *it, const char **param)
{
    *param = NULL;
    if (a->input != CLIRR_INPUT_GRAPH)
        return "it reads no graph";
    if (a->write_result || a->values_are_ids)
        return a->write_result ? "its result is not one value per vertex" : "its values are vertex ids";
    if (a->sources == CLIRR_SOURCES_MANY && it->source.count)
        return "its sampled sources would differ on the relabelled graph";
    if (a->sources == CLIRR_SOURCES_ONE && it->source.rule == CLIRR_SOURCE_RANDOM)
        return "a random source would differ on the relabelled graph";
    for (unsigned i = 0; i < a->nparams; i++)
        if (a->params[i].type == CLIRR_PARAM_PATH && it->params.v[i].path && it->params.v[i].path[0]) {
            *param = a->params[i].name;
            return "names vertices by id";
        }
    return NULL;
}

/* --reorder auto: degree where the algorithm asks for it on CPU devices and
 * the largest out-degree is at least AUTO_LAYOUT_SKEW times the mean (hubs:
 * the degree layout packs the hot vertices' values into a few cache lines,
 * where a core's random gathers hit; 2-core development machine, GAPBS's
 * kron scale 20, end to end, medians of interleaved runs, PoCL / Intel's
 * CPU runtime: BFS 23.6 -> 14.4 / 24.5 -> 11.8 ms, PageRank 20 iterations
 * 451 -> 233 / 385 -> 236 ms; SSSP gained nothing and does not ask; the
 * uniform graph, no hubs, lost up to 1.3x; tests/bench/RESULTS.md,
 * "Degree layout on CPUs"). None elsewhere: a GPU coalesces neighbouring
 * work-items, and roads and grids keep their locality as given. The
 * relabelling is prepare's work. */
#define AUTO_LAYOUT_SKEW 32
static void pick_auto_reorder(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it,
                              const clirr_input *in, clirr_plan *p)
{
    p->reorder = CLIRR_REORDER_NONE;
    if (!a->cpu_degree_layout || a->input != CLIRR_INPUT_GRAPH || !caps->is_cpu) {
        p->reorder_reason = "auto: none, the graph as given (the degree layout is for BFS and PageRank on "
                            "CPU devices)";
        return;
    }
    if (!clirr_graph_has_hubs(clirr_input_graph(in), AUTO_LAYOUT_SKEW)) {
        p->reorder_reason = "auto: none, no out-degree reaches 32 times the mean (no hubs to pack)";
        return;
    }
    const char *param;
    if (cannot_reorder(a, it, &param)) {
        p->reorder_reason = "auto: none, the run names vertices by id (a file parameter or a random source)";
        return;
    }
    p->reorder = CLIRR_REORDER_DEGREE;
    p->reorder_reason = "auto: degree, a CPU device and a graph with hubs (the hot values share cache lines; "
                        "values mapped back; measured on PoCL)";
}

static int pick_reorder(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it,
                        const clirr_input *in, clirr_plan *p, clirr_error *err)
{
    if (it->reorder == CLIRR_REORDER_AUTO) {
        pick_auto_reorder(a, caps, it, in, p);
        return CLIRR_OK;
    }
    p->reorder = it->reorder;
    p->reorder_reason = it->reorder ? "asked for with --reorder: run on the relabelled graph, values mapped back"
                                    : "none: the graph as given";
    if (!it->reorder)
        return CLIRR_OK;
    const char *param, *why = cannot_reorder(a, it, &param);
    if (why && param)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "%s cannot run with --reorder %s: --%s %s", a->name,
                          clirr_reorder_name(it->reorder), param, why);
    if (why)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "%s cannot run with --reorder %s: %s", a->name,
                          clirr_reorder_name(it->reorder), why);
    return CLIRR_OK;
}

int clirr_plan_make(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it,
                    const clirr_input *in, clirr_plan *p, clirr_error *err)
{
    memset(p, 0, sizeof *p);
    p->algo = a;
    if (clirr_input_kind_of(in) != a->input)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s reads a %s, and %s is a %s", a->name,
                          clirr_input_kind_name(a->input), clirr_input_name(in),
                          clirr_input_kind_name(clirr_input_kind_of(in)));
    if (a->needs_fp64 && !caps->fp64)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "%s needs double precision, which %s lacks (no cl_khr_fp64)", a->name,
                          caps->name);
    int rc = pick_variant(a, it, p, err);
    const char *vname = a->variants[p->variant].name;
    if (rc == CLIRR_OK && a->choose_variant && vname && !strcmp(vname, "auto"))
        p->variant = a->choose_variant(in, caps, &p->variant_reason);
    const char *why = rc == CLIRR_OK && a->unsupported ? a->unsupported(in, p->variant) : NULL;
    if (why)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "%s %s cannot run on %s: %s", a->name,
                          clirr_plan_variant_name(p), clirr_input_name(in), why);
    if (rc == CLIRR_OK)
        rc = pick_template(a, caps, it, in, p, err);
    if (rc == CLIRR_OK)
        rc = pick_reorder(a, caps, it, in, p, err);
    if (rc != CLIRR_OK)
        return rc;

    p->wg_size = it->wg_size;
    p->group_wg = it->group_wg ? it->group_wg : 64;
    p->coarsen = it->coarsen ? it->coarsen : 1;
    p->wg_reason = it->wg_size ? "from --wg-size, capped by kernel and device limits"
                               : "256 or the kernel's limit if lower";
    p->push = it->push;
    p->push_reason = it->push == CLIRR_PUSH_AUTO ? clirr_policy_push_reason(caps)
                                                 : "asked for with --push";
    if (keeps_duplicates(a, it, p->variant)) {
        if (it->push == CLIRR_PUSH_COMPACT)
            return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "the compact push drops duplicates by construction: with "
                                                          "--no-dedup a round pushes with atomic or chunk");
        if (it->push == CLIRR_PUSH_AUTO)
            p->push_reason = "auto without the compaction (--no-dedup): atomic on GPUs, chunk on CPUs";
    }
    p->wl_capacity = it->wl_capacity;
    if (clirr_plan_uses_worklist(p) && it->push == CLIRR_PUSH_HIER) {
        rc = pick_hier(caps, p, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    if (clirr_plan_uses_worklist(p) && it->push == CLIRR_PUSH_SCAN) {
        rc = pick_scan(caps, it, p, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    if (clirr_plan_uses_worklist(p)) {
        rc = pick_grid(caps, it, clirr_input_items(in), p, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    pick_queue_rounds(a, caps, it, p);
    pick_local_rounds(a, caps, it, clirr_input_items(in), p);
    p->source = it->source;
    p->params = it->params;
    p->trace = it->trace;
    clirr_caps_build_options(caps, p->build_options, sizeof p->build_options);
    return CLIRR_OK;
}

const char *clirr_plan_variant_name(const clirr_plan *p)
{
    const char *name = p->algo->variants[p->variant].name;
    return name ? name : "-";
}

bool clirr_variant_uses_templates(const clirr_algo *a, unsigned variant)
{
    return a->variants[variant].recursion || a->variants[variant].worklist || a->input == CLIRR_INPUT_GRAPH;
}

bool clirr_plan_uses_worklist(const clirr_plan *p) { return p->algo->variants[p->variant].worklist; }
