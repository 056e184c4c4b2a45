/* clirr/algo.h - the algorithms clirr runs, as descriptors in one registry,
 * and the generic way to run any of them:
 *
 *     const clirr_algo *a = clirr_algo_find("bfs");
 *     clirr_intent it;   clirr_intent_default(a, &it);      // what the user wants
 *     clirr_plan plan;   clirr_plan_make(a, caps, &it, in, &plan, &err);  // what runs, and why
 *     clirr_session *s;  clirr_session_prepare(ctx, in, &plan, &s, &err); // builds, uploads
 *     clirr_session_run(s, result, &stats, &err);          // one timed trial; repeat at will
 *     clirr_session_release(s);
 *
 * A descriptor names the algorithm, its study, the kind of input it reads,
 * its variants and its typed parameters, and carries its prepare / run /
 * release steps, its CPU reference, verifier, output writer and extra
 * results. Adding an algorithm is one descriptor in its own file plus one
 * line in host/algo/registry.c. */
#ifndef CLIRR_ALGO_H
#define CLIRR_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clirr/bodies.h"
#include "clirr/cnf.h"
#include "clirr/device.h"
#include "clirr/export.h"
#include "clirr/graph.h"
#include "clirr/list.h"
#include "clirr/mesh.h"
#include "clirr/tree.h"
#include "clirr/templates.h"
#include "clirr/trace.h"
#include "clirr/worklist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- inputs ------------------------------------------------------------ */

typedef enum clirr_input_kind {
    CLIRR_INPUT_GRAPH = 0, /* a directed graph in CSR form */
    CLIRR_INPUT_LIST,      /* linked lists as a successor array (clirr/list.h) */
    CLIRR_INPUT_TREE,      /* a rooted tree (clirr/tree.h) */
    CLIRR_INPUT_BODIES,    /* bodies of an n-body system (clirr/bodies.h) */
    CLIRR_INPUT_CNF,       /* a SAT formula in CNF (clirr/cnf.h) */
    CLIRR_INPUT_MESH,      /* a triangle mesh (clirr/mesh.h) */
    CLIRR_INPUT_KIND_COUNT_
} clirr_input_kind;

/* "graph", "list", "tree", "bodies", "formula", "mesh". */
CLIRR_API const char *clirr_input_kind_name(clirr_input_kind kind);

/* An input an algorithm reads, with the host forms derived from it once
 * (transpose, symmetric closure) and its copies on devices, kept for every
 * algorithm and trial that uses it. A form equal to the graph itself (the
 * transpose of a symmetric graph with sorted rows) is not kept twice. */
typedef struct clirr_input clirr_input;

/* Wrap graph g, named `name` in reports. With own, the input takes g's
 * arrays (and *g is cleared); else g must outlive the input. */
CLIRR_API int clirr_input_from_graph(clirr_graph *g, bool own, const char *name, clirr_input **in,
                                     clirr_error *err);
/* Wrap list l or tree t the same way. */
CLIRR_API int clirr_input_from_list(clirr_list *l, bool own, const char *name, clirr_input **in,
                                    clirr_error *err);
CLIRR_API int clirr_input_from_tree(clirr_tree *t, bool own, const char *name, clirr_input **in,
                                    clirr_error *err);
CLIRR_API int clirr_input_from_bodies(clirr_bodies *b, bool own, const char *name, clirr_input **in,
                                      clirr_error *err);
/* Wrap formula f the same way. */
CLIRR_API int clirr_input_from_cnf(clirr_cnf *f, bool own, const char *name, clirr_input **in,
                                   clirr_error *err);
/* Wrap mesh m the same way. */
CLIRR_API int clirr_input_from_mesh(clirr_mesh *m, bool own, const char *name, clirr_input **in,
                                    clirr_error *err);
CLIRR_API void clirr_input_free(clirr_input *in);
CLIRR_API clirr_input_kind clirr_input_kind_of(const clirr_input *in);
CLIRR_API const char *clirr_input_name(const clirr_input *in);
/* The graph of a graph input, else NULL. */
CLIRR_API const clirr_graph *clirr_input_graph(const clirr_input *in);
/* The list of a list input, the tree of a tree input, else NULL. */
CLIRR_API const clirr_list *clirr_input_list(const clirr_input *in);
CLIRR_API const clirr_tree *clirr_input_tree(const clirr_input *in);
/* The bodies of a bodies input, else NULL. */
CLIRR_API const clirr_bodies *clirr_input_bodies(const clirr_input *in);
/* The formula of a formula input, else NULL. */
CLIRR_API const clirr_cnf *clirr_input_cnf(const clirr_input *in);
/* The mesh of a mesh input, else NULL. */
CLIRR_API const clirr_mesh *clirr_input_mesh(const clirr_input *in);
/* The formula's factor graph (clirr_cnf_factor_build), built on first use
 * and kept with the input; CLIRR_ERR_USAGE for an input that is not a
 * formula. */
CLIRR_API int clirr_input_cnf_factor(const clirr_input *in, const clirr_cnf_factor **fg,
                                     clirr_error *err);
/* The tree's adjacency (clirr_tree_adjacency), built on first use and kept
 * with the input; CLIRR_ERR_USAGE for an input that is not a tree. */
CLIRR_API int clirr_input_tree_adj(const clirr_input *in, const clirr_tree_adj **adj,
                                   clirr_error *err);
/* One line about the input's size for reports: "1000 vertices, 5000 arcs,
 * weighted", "1048576 elements in 1 list", "1000 vertices, root 0". */
CLIRR_API void clirr_input_describe(const clirr_input *in, char *buf, size_t size);
/* Items an algorithm's result has one value for (a graph's or tree's
 * vertices, a list's elements, bodies; a formula's variables plus one, the
 * slot where a solver puts its own count of satisfied clauses, which its
 * verifier checks against a recount; a mesh: 1, the refinement's record,
 * its refined mesh kept by the session). */
CLIRR_API uint64_t clirr_input_items(const clirr_input *in);
/* Free the input's copies on ctx now (they are freed with the input or the
 * context otherwise). */
CLIRR_API void clirr_input_detach(clirr_input *in, clirr_ctx *ctx);

/* ---- descriptors ------------------------------------------------------- */

typedef struct clirr_variant_desc {
    const char *name;     /* "topo", "data", "jp", ... */
    const char *summary;
    bool worklist;        /* runs data-driven rounds: has a push mode */
    bool recursion;       /* a recursion: runs a recursion template (flat,
                           * rec-naive, rec-hier), not a loop template */
} clirr_variant_desc;

typedef enum clirr_param_type {
    CLIRR_PARAM_UINT = 0, /* --NAME N, within [min, max] */
    CLIRR_PARAM_REAL,     /* --NAME X, within [min, max] */
    CLIRR_PARAM_BOOL,     /* --NAME / --no-NAME, or --NAME=on|off */
    CLIRR_PARAM_PATH,     /* --NAME FILE */
    CLIRR_PARAM_CHOICE    /* --NAME WORD, one of choices; the value is its index */
} clirr_param_type;

typedef struct clirr_param_desc {
    const char *name;     /* the option's name, without dashes */
    clirr_param_type type;
    const char *def;      /* default as text: "0.85", "on", "" (no file) */
    double min, max;      /* range of UINT and REAL values */
    const char *help;     /* one line */
    const char *const *choices; /* CLIRR_PARAM_CHOICE: the words, NULL-terminated */
    uint32_t variants;    /* bit v: variant v reads it; 0 = every variant. A
                           * parameter only some variants read is a tuning
                           * knob: it must not change the answer (the
                           * reference is computed once for all its values),
                           * and a list of values makes more cases of those
                           * variants only */
    bool baseline_only;   /* a UINT value above 0 runs on the thread-mapped
                           * baseline template only: --template auto picks
                           * it (another asked-for template is refused) */
} clirr_param_desc;

#define CLIRR_MAX_PARAMS 16

typedef union clirr_param_value {
    uint64_t u;           /* UINT; CHOICE: the index of the word */
    double r;
    bool b;
    const char *path;     /* NULL = none; the text must outlive the run */
} clirr_param_value;

/* An algorithm's parameter values, in the order of its descriptor's list. */
typedef struct clirr_params {
    clirr_param_value v[CLIRR_MAX_PARAMS];
} clirr_params;

typedef enum clirr_source_use {
    CLIRR_SOURCES_NONE = 0, /* reads no source vertex */
    CLIRR_SOURCES_ONE,      /* one root per run (BFS, SSSP) */
    CLIRR_SOURCES_MANY      /* a set of roots per run (BC) */
} clirr_source_use;

/* What one trial reports; the engine fills the times. */
typedef struct clirr_stats {
    uint32_t iterations;      /* rounds (kernel sweeps) to the fixed point */
    uint64_t reached;         /* items reached (vertices from the source) */
    uint64_t edges_traversed; /* arcs out of reached vertices (for TEPS) */
    uint64_t child_launches;  /* kernels enqueued from the device */
    uint32_t wl_grows;        /* worklist capacity increases */
    uint32_t wl_reruns;       /* rounds rerun after an overflow */
    uint64_t wl_max;          /* largest worklist seen */
    uint64_t wl_grow_ns;      /* host time of the capacity increases (allocation, copy) */
    uint32_t wl_rounds[CLIRR_PUSH_AUTO]; /* data-driven rounds per push mode */
    uint64_t wl_scan_pushes;  /* scan push: pushes placed through the prefix sum */
    uint64_t wl_scan_spills;  /* scan push: pushes past a work-item's slots (one atomic each) */
    uint32_t local_rounds;    /* of the rounds, those run inside one-work-group launches */
    uint32_t local_launches;  /* those launches */
    uint32_t queued_rounds;   /* of the rounds, those queued ahead without a read-back each */
    uint32_t queued_batches;  /* their batches (one read-back each) */
    clirr_timing timing;      /* kernels, transfers, per-kernel times (engine) */
    uint64_t total_ns;        /* the trial, compute + download, wall clock (engine) */
} clirr_stats;

/* What a verifier found: the number of wrong entries and a description of
 * the first few "(index, expected, got)" plus any violated property. */
typedef struct clirr_verify_report {
    uint64_t mismatches;
    char text[1024];
} clirr_verify_report;

/* Results beyond the per-item values (colors used, conflicts per round,
 * ...), named, for reports. */
typedef enum clirr_extra_type { CLIRR_EXTRA_UINT, CLIRR_EXTRA_REAL, CLIRR_EXTRA_BOOL,
                                CLIRR_EXTRA_UINTS, CLIRR_EXTRA_INT, CLIRR_EXTRA_TEXT,
                                CLIRR_EXTRA_REALS } clirr_extra_type;
#define CLIRR_MAX_EXTRAS 24
#define CLIRR_MAX_EXTRA_LIST 128
#define CLIRR_MAX_EXTRA_REALS 4
/* A name with dots ("energy.before") nests in the JSON: {"energy":
 * {"before": ...}}. */
typedef struct clirr_extra {
    const char *name;
    clirr_extra_type type;
    uint64_t u;
    int64_t i;                /* CLIRR_EXTRA_INT (a signed sum: MST's weight) */
    const char *text;         /* CLIRR_EXTRA_TEXT: static text (what auto picked) */
    double r;
    bool b;
    uint32_t list[CLIRR_MAX_EXTRA_LIST];
    size_t nlist;
    double reals[CLIRR_MAX_EXTRA_REALS]; /* CLIRR_EXTRA_REALS (a 3-vector) */
    size_t nreals;
    bool in_table;            /* worth a column in the short table */
} clirr_extra;
typedef struct clirr_extras {
    clirr_extra e[CLIRR_MAX_EXTRAS];
    size_t n;
} clirr_extras;
CLIRR_API clirr_extra *clirr_extras_add(clirr_extras *x, const char *name, clirr_extra_type type);

typedef struct clirr_plan clirr_plan;

typedef struct clirr_algo {
    const char *name;         /* "bfs" */
    const char *summary;      /* one line */
    const char *study;        /* the paper it follows, e.g. "shared/papers/000" */
    clirr_input_kind input;
    const clirr_variant_desc *variants; /* at least one */
    unsigned nvariants;
    unsigned default_variant;
    const clirr_param_desc *params;
    unsigned nparams;
    clirr_source_use sources;
    bool needs_fp64;          /* kernels use double precision */
    bool values_are_ids;      /* per-vertex results are vertex ids (cc's labels):
                                 no --reorder, whose mapping back moves values only */
    bool cpu_degree_layout;   /* --reorder auto relabels by degree on CPU devices
                                 for graphs with hubs (measured per algorithm) */
    const clirr_template_hint *template_hint; /* NULL = the device rules decide */
    /* Optional, in place of template_hint: the hint for this input (NULL =
     * the device rules decide), e.g. none where hubs want load balancing. */
    const clirr_template_hint *(*choose_template_hint)(const clirr_input *in, const clirr_caps *caps);
    size_t value_size;        /* bytes of result per item */
    /* Optional: why `variant` cannot run on input `in` (e.g. a list too
     * long for 16-bit packing), or NULL when it can. Planning turns a
     * reason into CLIRR_ERR_UNSUPPORTED, which bench shows as skipped. */
    const char *(*unsupported)(const clirr_input *in, unsigned variant);
    /* Optional: for the variant named "auto", the variant that runs on
     * this device and input, and why (a static text). */
    unsigned (*choose_variant)(const clirr_input *in, const clirr_caps *caps, const char **reason);
    /* Variants (bit i: variant i) that decide on the host after every
     * round (BFS do's direction switch): no rounds are queued ahead. */
    unsigned per_round_variants;
    /* Everything before a trial: host preparation, program builds, uploads,
     * buffers, template state. *session is the algorithm's own. */
    int (*prepare)(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **session,
                   clirr_error *err);
    /* One trial: exactly what each repetition must redo; writes the result
     * (clirr_input_items values of value_size) and the algorithm's stats. */
    int (*run)(void *session, void *result, clirr_stats *stats, clirr_error *err);
    void (*release)(void *session);
    /* The serial CPU reference's result for the same plan. */
    int (*reference)(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err);
    /* Properties first, equality second; false when anything is wrong. */
    bool (*verify)(const clirr_input *in, const clirr_plan *plan, const void *expected,
                   const void *got, clirr_verify_report *report);
    /* One line of the --output file for item i (without the newline). */
    void (*write_value)(FILE *f, const void *result, uint64_t i);
    /* Optional, instead of write_value: the whole --output file, for
     * results whose lines are not one per item (MST: one line per forest
     * edge). Returns a status (CLIRR_ERR_IO on a failed write). */
    int (*write_result)(void *session, const void *result, FILE *f, clirr_error *err);
    /* Optional, instead of both: --output names a prefix of files the
     * algorithm writes itself (DMR: PREFIX.node, .ele, .poly), each whole
     * or not at all. */
    int (*write_prefix)(void *session, const void *result, const char *prefix, clirr_error *err);
    /* Optional: counters read off a trial's result (reached, arcs
     * traversed), after the trial's clock has stopped (NULL = none). */
    void (*summarize)(void *session, const void *result, clirr_stats *stats);
    /* Optional: files the algorithm's own PATH parameters name (BFS's
     * --parents), read off the last trial's result, each written whole or
     * not at all (NULL = none). */
    int (*write_outputs)(void *session, const void *result, clirr_error *err);
    /* Optional: extra results of the last trial (NULL = none). */
    void (*extras)(void *session, const void *result, clirr_extras *x);
} clirr_algo;

/* ---- the registry ------------------------------------------------------ */

CLIRR_API size_t clirr_algo_count(void);
/* The i-th descriptor, or NULL past the end. */
CLIRR_API const clirr_algo *clirr_algo_at(size_t i);
/* The descriptor called name, or NULL. */
CLIRR_API const clirr_algo *clirr_algo_find(const char *name);
/* Index of a's variant or parameter called name, or -1. */
CLIRR_API int clirr_algo_variant(const clirr_algo *a, const char *name);
CLIRR_API int clirr_algo_param(const clirr_algo *a, const char *name);

/* Every parameter at its default. */
CLIRR_API void clirr_params_default(const clirr_algo *a, clirr_params *p);
/* Set parameter i from text, checking type and range; CLIRR_ERR_USAGE with
 * a message naming the option otherwise. */
CLIRR_API int clirr_param_set(const clirr_algo *a, unsigned i, const char *text, clirr_params *p,
                              clirr_error *err);
/* The value of parameter i as text ("0.85", "on", "file.txt"). */
CLIRR_API void clirr_param_text(const clirr_algo *a, unsigned i, const clirr_params *p, char *buf,
                                size_t size);

/* ---- intent and plan --------------------------------------------------- */

/* What the user asks for; 0 / -1 / AUTO leave a choice to clirr. */
typedef struct clirr_intent {
    int variant;              /* index into a->variants; -1 = the default */
    int tmpl;                 /* a clirr_template; -1 = auto */
    uint32_t lb_thres;        /* 0 = chosen with the template */
    unsigned wg_size;         /* 0 = 256 or the kernel's limit */
    unsigned group_wg;        /* block-mapped work-group size; 0 = 64 */
    unsigned coarsen;         /* items per thread-mapped work-item; 0 = 1 */
    clirr_push_mode push;     /* worklist push; AUTO = per round */
    size_t wl_capacity;       /* initial worklist capacity; 0 = items */
    int64_t local_rounds;     /* worklists of at most this many items run many
                                 rounds in one work-group; 0 = never; -1 = auto */
    int64_t queue_rounds;     /* rounds queued ahead per read-back; 0 = never; -1 = auto */
    clirr_reorder reorder;    /* run on the graph relabelled by this layout, results
                                 mapped back (--reorder); NONE = as given; AUTO
                                 (the default) = the planner's choice */
    bool fixed_grid;          /* data-driven rounds launch a fixed grid (the device's
                                 resident work-items) striding the worklist, not
                                 one work-item per item (--grid fixed) */
    clirr_source_spec source; /* roots (ONE: the first; MANY: all) */
    bool source_given;        /* source set by the user (else the algorithm's default) */
    clirr_params params;      /* the algorithm's own parameters */
    clirr_trace *trace;       /* per-round rows of each trial (BFS, SSSP); NULL = none */
} clirr_intent;

/* Defaults for algorithm a: everything automatic, source vertex 0 (BC:
 * every vertex), parameters at their defaults. */
CLIRR_API void clirr_intent_default(const clirr_algo *a, clirr_intent *it);

/* What runs, with the reason for each choice. Made once per case by
 * clirr_plan_make; prepare receives it, --explain prints it. */
struct clirr_plan {
    const clirr_algo *algo;
    unsigned variant;
    const char *variant_reason;
    clirr_template tmpl;
    uint32_t lb_thres;
    const char *template_reason;
    const char *lb_thres_reason;
    unsigned wg_size;         /* asked-for work-group size (0 = default) */
    unsigned group_wg;        /* block-mapped work-group size */
    unsigned coarsen;         /* >= 1 */
    const char *wg_reason;
    clirr_push_mode push;     /* meaningful when the variant has a worklist */
    const char *push_reason;
    size_t wl_capacity;       /* 0 = items (dedup makes it enough) */
    uint32_t local_rounds;    /* the largest worklist run as many rounds in one
                                 work-group (0 = never), where the algorithm
                                 has such a kernel and the capacity is items */
    const char *local_rounds_reason;
    uint32_t queue_rounds;    /* rounds queued ahead per read-back of the
                                 worklist's length (0 = one round each) */
    const char *queue_rounds_reason;
    clirr_reorder reorder;    /* the layout the session relabels the graph by */
    const char *reorder_reason;
    uint32_t fixed_grid;      /* work-items of every data-driven round's launch
                                 (0: as many as the worklist's items) */
    const char *grid_reason;
    clirr_source_spec source;
    clirr_params params;
    clirr_trace *trace;       /* the intent's: rounds are recorded there */
    char build_options[1024]; /* the device's capability options */
};

/* The plan of algorithm a on a device for input in: the user's choices,
 * the policy's where left open (measured profiles, then capability rules).
 * CLIRR_ERR_UNSUPPORTED when the device cannot run what was asked (a
 * template it lacks, fp64), naming what it lacks and what it can run;
 * CLIRR_ERR_USAGE for an input of the wrong kind or a bad source. */
CLIRR_API int clirr_plan_make(const clirr_algo *a, const clirr_caps *caps, const clirr_intent *it,
                              const clirr_input *in, clirr_plan *plan, clirr_error *err);

/* The variant's name ("-" when the algorithm has one unnamed variant) and
 * whether the plan's variant has a worklist (then push matters). */
CLIRR_API const char *clirr_plan_variant_name(const clirr_plan *plan);
CLIRR_API bool clirr_plan_uses_worklist(const clirr_plan *plan);
/* Does a template change how variant v of a runs? Recursions and graph or
 * worklist loops meet one; the other variants (lists, trees, bodies,
 * formulas outside a worklist) ignore --template. */
CLIRR_API bool clirr_variant_uses_templates(const clirr_algo *a, unsigned v);

/* ---- sessions ---------------------------------------------------------- */

typedef struct clirr_session clirr_session;

/* Where prepare's time went. */
typedef struct clirr_prepare_times {
    uint64_t build_ns;        /* program builds and binary-cache loads */
    uint64_t upload_ns;       /* host-to-device copies (profiling; wall clock
                                 for staged uploads, see clirr_upload_mode) */
    uint64_t upload_bytes;    /* the bytes they copied */
    uint64_t upload_pinned_bytes; /* of them, staged through pinned memory */
    uint64_t huge_page_bytes; /* buffers made in huge-page host memory
                                 (clirr_ctx_set_huge_pages) */
    uint64_t prepare_ns;      /* everything else: host preparation, buffers */
} clirr_prepare_times;

/* Prepare plan on ctx for input in: everything a trial needs, built and
 * uploaded. */
CLIRR_API int clirr_session_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan,
                                    clirr_session **s, clirr_error *err);
CLIRR_API void clirr_session_prepare_times(const clirr_session *s, clirr_prepare_times *t);
/* One timed trial: result gets clirr_input_items values; stats its
 * counters, kernel / transfer / per-kernel times and wall-clock total. */
CLIRR_API int clirr_session_run(clirr_session *s, void *result, clirr_stats *stats,
                                clirr_error *err);
/* The files the algorithm's own parameters ask for (BFS --parents, SSSP
 * --predecessors), read off a trial's result; CLIRR_OK when none. */
CLIRR_API int clirr_session_write_outputs(clirr_session *s, const void *result, clirr_error *err);
/* The --output file's text for a trial's result on f: the algorithm's own
 * writer (write_result), else one write_value line per item. */
CLIRR_API int clirr_session_write_result(clirr_session *s, const void *result, FILE *f,
                                         clirr_error *err);
/* Whether --output is a prefix of the algorithm's own files, and writing
 * them (CLIRR_ERR_USAGE when it is not). */
CLIRR_API bool clirr_session_writes_prefix(const clirr_session *s);
CLIRR_API int clirr_session_write_prefix(clirr_session *s, const void *result, const char *prefix,
                                         clirr_error *err);
/* The algorithm's extra results for the last trial's result. */
CLIRR_API void clirr_session_extras(clirr_session *s, const void *result, clirr_extras *x);
CLIRR_API void clirr_session_release(clirr_session *s);

/* Plan, prepare, run once, release: result must hold clirr_input_items
 * values of a->value_size. it NULL = defaults. */
CLIRR_API int clirr_algo_run(clirr_ctx *ctx, const clirr_algo *a, const clirr_input *in,
                             const clirr_intent *it, void *result, clirr_stats *stats,
                             clirr_error *err);

/* ---- typed entry points ------------------------------------------------ */
/* The registry's algorithms on a graph with every choice left to clirr;
 * stats may be NULL. */

/* Level of every vertex from source; -1 = unreached. */
#define CLIRR_BFS_UNREACHED (-1)
CLIRR_API int clirr_bfs(clirr_ctx *ctx, const clirr_graph *g, uint32_t source, int32_t *level,
                        clirr_stats *stats, clirr_error *err);

/* Shortest distance of every vertex from source; CLIRR_SSSP_INF =
 * unreached. Unweighted graphs have unit weights. Negative weights, or
 * path sums beyond 32 bits, give CLIRR_ERR_INPUT. */
#define CLIRR_SSSP_INF UINT32_MAX
CLIRR_API int clirr_sssp(clirr_ctx *ctx, const clirr_graph *g, uint32_t source, uint32_t *dist,
                         clirr_stats *stats, clirr_error *err);

#ifdef __cplusplus
}
#endif
#endif
