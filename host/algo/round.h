/* host/algo/round.h - the nested loop of a data-driven round, instantiated
 * for each push mode the run may use (one, or two under --push auto) with
 * the run's template, and the choice of one per round. */
#ifndef CLIRR_ALGO_ROUND_H
#define CLIRR_ALGO_ROUND_H

#include "cl/common/kargs.h"
#include "cl/templates/local_rounds.def"
#include "clirr/algo.h"
#include "prim/worklist.h"
#include "templates/nested_loop.h"

/* Many rounds in one launch of one work-group while the worklist is small
 * (cl/templates/local_rounds.clh). */
typedef struct clirr_local_rounds {
    cl_kernel kernel;     /* context-owned; NULL: not used */
    size_t wg;            /* its one work-group */
    uint32_t threshold;   /* the largest worklist it starts on (plan->local_rounds) */
    uint32_t max_rounds;  /* per launch, so that no launch runs for long */
    cl_uint lr_first;     /* index of its first CLIRR_LR_ARGS parameter */
    cl_mem state;         /* {rounds run, output size, the kernel's own words} */
    uint32_t last[CLIRR_LR_STATE_WORDS]; /* the state of the last launch */
    uint32_t serial;      /* launches ever: a caller sees whether `last` is new */
    uint32_t rounds, launches; /* since the last clirr_round_loop_local_stats */
} clirr_local_rounds;

/* Rounds queued ahead: `batch` rounds enqueued back to back, each reading
 * its input's length on the device (host/prim/worklist.h), then one read
 * of every round's length; the rounds after the worklist empties find
 * nothing to do. Replaces a launch, a fill and a blocking read-back per
 * round with a launch per round and a read per batch. */
#define CLIRR_QUEUE_MAX 64
typedef struct clirr_queued_rounds {
    uint32_t batch;       /* rounds per batch (plan->queue_rounds); 0: not used */
    uint32_t threshold;   /* the largest worklist a queued round runs on (a
                             GPU's launch size) */
    cl_uint round_var;    /* index + 1 of a parameter counting rounds (BFS's depth); 0: none */
    cl_uint var0;         /* its value as the caller last set it */
    size_t stride;        /* bytes between counts (the device's sub-buffer alignment) */
    cl_mem counts;        /* batch + 1 counts, one every stride bytes */
    cl_mem count[CLIRR_QUEUE_MAX + 1]; /* sub-buffers over them */
    uint32_t *host;       /* their host copy */
    uint32_t rounds, batches; /* since the last clirr_round_loop_local_stats */
} clirr_queued_rounds;

typedef struct clirr_round_loop {
    clirr_push_mode push;            /* as asked: a mode, or AUTO */
    cl_uint wl_first;                /* index of the first worklist parameter */
    clirr_nl nl[CLIRR_PUSH_AUTO];    /* per concrete push mode */
    bool used[CLIRR_PUSH_AUTO];
    clirr_local_rounds local;
    clirr_queued_rounds queued;
    bool keep_duplicates;            /* the spec's: no compact push */
    uint32_t fixed_grid;             /* the spec's */
    uint32_t most;                   /* run_many's rounds stop past this many
                                        items (clirr_round_loop_cap); 0: no cap */
    clirr_trace *trace;              /* a row a round (clirr_round_loop_trace) */
    const uint32_t *trace_row;       /* host CSR offsets of the items, for arcs */
    uint32_t *trace_seen, trace_stamp; /* per item: the last traced round that read it */
    uint64_t donated_g0, donated;    /* --donate: chunks read back by traced rounds */
} clirr_round_loop;

/* A loop of a .cl file: its kernel name prefix, parameter count and, for
 * a data-driven round, the index of its first worklist parameter (wl_in;
 * the contract's CLIRR_KARG(tag, wl_in)). */
typedef struct clirr_loop_spec {
    const char *file;    /* "bfs.cl" */
    const char *options; /* extra build options, or "" */
    const char *name;    /* "bfs_data" */
    cl_uint nparams;     /* CLIRR_KNARGS(tag) */
    cl_uint wl_first;    /* CLIRR_KARG(tag, wl_in); rounds only */
    /* Optional: the loop's local-rounds kernel, whose parameters are the
     * round's followed by CLIRR_LR_ARGS, and the plan's local_rounds. */
    const char *local_name; /* "bfs_local", or NULL */
    uint32_t local_threshold;
    /* Optional: the plan's queue_rounds, and CLIRR_ROUND_VAR(tag, name) of
     * a uint parameter counting rounds, which each queued round gets as
     * the caller's value + its place in the batch. */
    uint32_t queue_rounds;
    cl_uint round_var;
    /* Keep duplicate pushes (-DCLIRR_WL_DEDUP=0): rounds push with atomics
     * or chunks only (never the compaction, which drops them), one round a launch
     * (no local or queued rounds, whose queues hold each item once). */
    bool keep_duplicates;
    /* The plan's fixed_grid: every round launches this many work-items (0:
     * one per worklist item). */
    uint32_t fixed_grid;
} clirr_loop_spec;
#define CLIRR_ROUND_VAR(tag, name) (CLIRR_KARG(tag, name) + 1)

/* Build round loop `spec` for the modes `push` may use. */
int clirr_round_loop_init(clirr_round_loop *rl, clirr_ctx *ctx, const clirr_loop_spec *spec,
                          uint32_t max_items, clirr_push_mode push, const clirr_nl_config *cfg,
                          clirr_error *err);

/* Set argument idx of every kernel. */
int clirr_round_loop_arg(clirr_round_loop *rl, cl_uint idx, size_t size, const void *value,
                         clirr_error *err);
/* Set argument `name` of parameter list struct `tag` (kargs.h) to var. */
#define CLIRR_ROUND_SET(rl, tag, name, var)                                    \
    clirr_round_loop_arg((rl), CLIRR_KARG(tag, name), sizeof(var), &(var), err)

/* One round over the worklist: the push mode for it (under AUTO the
 * policy's choice from the worklist's size), rerun on overflow. */
int clirr_round_loop_run(clirr_round_loop *rl, clirr_worklist *wl, clirr_error *err);

/* While the worklist holds at most the plan's local_rounds items (and the
 * loop has a local-rounds kernel, and the worklist's capacity is every
 * item), many rounds in one launch of one work-group, which stops when the
 * worklist empties or outgrows that; else, while it is mid-sized (and the
 * round is one kernel pushing with atomics), a batch of queued rounds;
 * otherwise one round. *rounds gets the number of rounds that had work:
 * the caller's round counter (BFS's depth) advances by it. */
int clirr_round_loop_run_many(clirr_round_loop *rl, clirr_worklist *wl, uint32_t *rounds,
                              clirr_error *err);

/* Record every round into trace (NULL: none): its worklist in and out,
 * the input's repeated items, push mode, launches, kernel time and, with
 * row (the items' host CSR offsets; may be NULL), the arcs out of its
 * worklist (the input is read back for them). */
void clirr_round_loop_trace(clirr_round_loop *rl, clirr_trace *trace, const uint32_t *row);

/* Make run_many's rounds (local and queued) stop once the worklist holds
 * more than `most` items (0: only their own limits), so that a caller that
 * handles larger worklists another way (the temporal hybrid's
 * topology-driven rounds) sees every round beyond it. */
int clirr_round_loop_cap(clirr_round_loop *rl, uint32_t most, clirr_error *err);

/* The temporal hybrid (shared/papers/000, section V-A), for an algorithm
 * that gives its two kinds of round: while the worklist is not empty, a
 * topology-driven round (topo_round, which leaves the next worklist in wl)
 * while it holds at least `min` items, else data-driven rounds
 * (data_round, which reports how many rounds it ran). Counts the switches
 * between kinds and the topology-driven rounds; the rounds of both kinds
 * add to stats->iterations. */
typedef struct clirr_hybrid_loop {
    uint32_t min;                    /* the worklist size that goes topology-driven */
    int (*topo_round)(void *user, clirr_error *err);
    int (*data_round)(void *user, uint32_t *rounds, clirr_error *err);
    void *user;
    uint32_t switches, topo_rounds;  /* of the last run */
} clirr_hybrid_loop;
int clirr_hybrid_loop_run(clirr_hybrid_loop *h, const clirr_worklist *wl, clirr_stats *stats, clirr_error *err);

/* Rounds and launches of the local-rounds kernel, and queued rounds and
 * their batches, since the last call, into stats (and reset). */
void clirr_round_loop_local_stats(clirr_round_loop *rl, clirr_stats *stats);

/* --donate T of a data-driven round (the study's work donation, section
 * III-E) into *cfg: refused (CLIRR_ERR_UNSUPPORTED) unless the plan's
 * template is the thread-mapped baseline and the worklist holds vertices
 * (no --partition). */
int clirr_round_donate_config(const clirr_plan *plan, uint32_t thres, bool partitioned, clirr_nl_config *cfg,
                              clirr_error *err);

/* Kernel unrolling of a topology-driven sweep (--unroll K, the study's
 * section IV-B): the thread-mapped kernel `name` of `file`, whose
 * parameters are the sweep's nparams, then K and a local worklist of K
 * slots per work-item, sized here from the device's local memory. The
 * caller binds the sweep's own parameters to `kernel` by the sweep's
 * list. Refused (CLIRR_ERR_UNSUPPORTED) unless the plan's template is
 * baseline: the kernel is thread-mapped. */
typedef struct clirr_unroll {
    clirr_ctx *ctx;
    cl_kernel kernel;     /* context-owned; NULL: not unrolled */
    size_t wg;
    uint32_t k;
} clirr_unroll;
int clirr_unroll_init(clirr_unroll *u, clirr_ctx *ctx, const clirr_plan *plan, const char *file, const char *options,
                      const char *name, cl_uint nparams, uint32_t k, clirr_error *err);
/* One sweep over n vertices. */
int clirr_unroll_run(clirr_unroll *u, uint32_t n, clirr_error *err);

/* The help of the donate and unroll parameters (bfs and sssp). */
#define CLIRR_DONATE_HELP                                                        \
    "data, baseline template: work donation within a work-group: a work-item whose vertex has more arcs than " \
    "the average plus this many donates the rest in chunks of this many (0: off)"
#define CLIRR_UNROLL_HELP                                                        \
    "topo, baseline template: kernel unrolling: a work-item sweeps its vertex, then the vertices it lowered, " \
    "breadth-first, up to this many in all (0, 1: off)"

/* --donate: chunks of work donated since the last call, by work-group 0
 * of each round and by all work-groups (0 and 0 without donation). */
int clirr_round_loop_donations(clirr_round_loop *rl, uint64_t *group0, uint64_t *all, clirr_error *err);

/* Children enqueued by nested templates, over all push modes. */
int clirr_round_loop_child_launches(clirr_round_loop *rl, uint64_t *count, clirr_error *err);

void clirr_round_loop_release(clirr_round_loop *rl);

/* The loop of a run with topology- and data-driven variants (BFS, SSSP):
 * one nested loop over all vertices, or the per-push-mode round loop. */
typedef struct clirr_variant_loop {
    bool topo;
    clirr_nl nl;         /* topology-driven */
    clirr_round_loop rl; /* data-driven */
} clirr_variant_loop;

/* Build the topology-driven loop `topo` or the data-driven round `data`. */
int clirr_variant_loop_init(clirr_variant_loop *vl, clirr_ctx *ctx, bool topo,
                            const clirr_loop_spec *topo_spec, const clirr_loop_spec *data_spec,
                            uint32_t max_items, clirr_push_mode push, const clirr_nl_config *cfg,
                            clirr_error *err);

/* Children the loop's nested templates enqueued since the last call. */
int clirr_variant_loop_child_launches(clirr_variant_loop *vl, uint64_t *count, clirr_error *err);

void clirr_variant_loop_release(clirr_variant_loop *vl);

#endif
