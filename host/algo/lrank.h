/* host/algo/lrank.h - list ranking on a device, the engine behind the
 * listrank algorithm and the Euler tours of treestats (shared/papers/003).
 * A ranker is made once for a list size (builds, buffers: untimed) and
 * ranks a successor buffer into a rank buffer as often as asked (timed),
 * all on the context's in-order queue. Kernels: cl/listrank.cl. */
#ifndef CLIRR_ALGO_LRANK_H
#define CLIRR_ALGO_LRANK_H

#include "clirr/algo.h"
#include "runtime/runtime.h"

typedef enum lr_method {
    LR_WYLLIE,    /* packed 64-bit words, in place, several jumps a launch */
    LR_WYLLIE32,  /* the same with 16 + 16-bit words (lists under 2^16) */
    LR_STEPWISE,  /* one synchronous jump a launch, double-buffered */
    LR_OPT,       /* a worklist of unfinished elements, work-group steps */
    LR_RHJ,       /* recursive sparse ruling set (Helman-JaJa) */
    LR_SCAN,      /* one ordered list (succ[i] = i + 1) by a prefix sum */
    LR_RHJ_LOCAL  /* rhj whose first level stores step-major and scatters by cache windows */
} lr_method;

typedef enum lr_splitters { LR_SPLIT_NLOGN, LR_SPLIT_N2LOG2N } lr_splitters;
typedef enum lr_handoff { LR_HANDOFF_CPU, LR_HANDOFF_WYLLIE } lr_handoff;

typedef struct lr_config {
    lr_method method;
    lr_splitters splitters;  /* rhj: n / log n or n / (2 log^2 n) */
    lr_handoff handoff;      /* rhj: who ranks the small levels */
    uint32_t handoff_below;  /* rhj: levels of at most this many go to the handoff */
    uint32_t jumps;          /* Wyllie: jumps a launch; 0 = chosen by device */
    uint32_t lists;          /* at most this many lists (heads) in the input */
    uint32_t walk_wg;        /* rhj: work-group size of the walks; 0 = the default */
    uint32_t window;         /* rhj-local: elements a scatter window spans; 0 = from the device's cache */
    bool known_head;         /* one list whose head lr_rank is told (Euler tours) */
} lr_config;

/* The ranker's parameters, shared by the algorithms built on it (listrank,
 * treestats: the same names, so one option sets both): their places at the
 * head of the algorithm's parameter list, and their descriptors, given the
 * masks of the variants that read rhj's and Wyllie's. */
enum { LR_P_SPLITTERS, LR_P_HANDOFF, LR_P_HANDOFF_BELOW, LR_P_JUMPS, LR_NPARAMS };
extern const char *const lr_splitter_rules[];
extern const char *const lr_handoffs[];
#define LR_PARAM_DESCS(rhj, jumpers)                                                                     \
    [LR_P_SPLITTERS] = {"splitters", CLIRR_PARAM_CHOICE, "nlogn", 0, 0,                                  \
                        "rhj: n/log n splitters (nlogn) or n/(2 log^2 n) (n2log2n)", lr_splitter_rules, \
                        (rhj)},                                                                          \
    [LR_P_HANDOFF] = {"handoff", CLIRR_PARAM_CHOICE, "wyllie", 0, 0,                                     \
                      "rhj: who ranks the small levels: the host's serial walk or Wyllie", lr_handoffs,  \
                      (rhj)},                                                                            \
    [LR_P_HANDOFF_BELOW] = {"handoff-below", CLIRR_PARAM_UINT, "4096", 1, 4294967295.0,                  \
                            "rhj: levels of at most this many elements go to the handoff", NULL, (rhj)}, \
    [LR_P_JUMPS] = {"jumps", CLIRR_PARAM_UINT, "0", 0, 64,                                               \
                    "wyllie: jumps a launch (0 = ceil(log2 n) on GPUs, 2 on CPUs)", NULL, (jumpers)}

/* The config's method-independent fields from those parameters. */
void lr_config_params(const clirr_params *params, lr_config *c);

/* One level of rhj's recursion: the reduced list of the level above. */
typedef struct lr_level {
    uint32_t cap;            /* elements at most */
    uint32_t k;              /* splitter interval */
    bool recurse;            /* else the handoff ranks this level */
    cl_mem succ, weight;     /* level >= 1: written by the walks above */
    cl_mem info, rank;       /* info: sublist << 32 | offset; Wyllie's words at a handoff */
} lr_level;

#define LR_MAX_LEVELS 40
/* rhj-local: walk rounds at most (the cap doubles each round). */
#define LR_MAX_ROUNDS 40

/* rhj-local's first level: a walk round's part of the tile, the windows. */
typedef struct lr_round {
    uint64_t off;            /* tile words before it */
    uint32_t ncols, cap, base; /* walkers, steps at most, first sublist */
} lr_round;

typedef struct lr_local {
    bool on;                 /* else (memory) the first level is rhj's */
    uint32_t cap0;           /* steps a first-round walker takes at most */
    uint64_t tile_words;     /* cap0 S + 2 n: what the rounds can need */
    uint32_t wsz, nbins;     /* window of the scatter, in elements; windows */
    uint32_t bin_wg;         /* lr_bin's work-group, as local memory allows */
    cl_mem tile, cstart, bins, bincount;
    lr_round round[LR_MAX_ROUNDS];
    unsigned nrounds;
} lr_local;

typedef struct lr_stats {
    uint32_t launches;       /* jump launches (Wyllie) or levels (rhj) */
    uint32_t readbacks;      /* waits for a count the next launch needs */
    uint32_t levels;         /* rhj levels ranked by walks */
    uint64_t sublists;       /* rhj: sublists of the first level */
    uint32_t longest;        /* unused: walks do not report lengths */
    uint32_t rounds;         /* rhj-local: walk rounds of the first level */
} lr_stats;

typedef struct lr_ranker {
    clirr_ctx *ctx;
    lr_config cfg;
    uint32_t n;
    cl_kernel words_init, words_rank, wyllie, step, opt, w32_init, wyllie32, w32_rank, fill, walk,
        walk_chains, uncovered, mark, recombine, scan_weights, scan_rank, tile_walk, bin, bin_scatter,
        fill_deficit, unranked, mark_rank, head_walk;
    uint32_t chains;         /* splitter walks a work-item interleaves (CPUs) */
    lr_level lv[LR_MAX_LEVELS];
    unsigned nlevels;
    cl_mem words2;           /* stepwise: the second buffer */
    cl_mem wl, wl_next, active; /* opt: worklists and marks */
    cl_mem flag, count_u, count_h;
    uint32_t *host_succ, *host_weight, *host_rank; /* rhj with the cpu handoff */
    lr_local loc;            /* rhj-local */
    lr_stats stats;
} lr_ranker;

/* Make a ranker for lists of up to n elements (n >= 1): builds, buffers.
 * CLIRR_ERR_UNSUPPORTED for wyllie32 at n >= 2^16. */
int lr_init(lr_ranker *r, clirr_ctx *ctx, uint32_t n, const lr_config *cfg, clirr_error *err);

/* rank[0..m) of the list succ[0..m) (m <= the ranker's n): the links from
 * each element to its tail. head: the head of the one list with
 * cfg.known_head, else ignored. Enqueues; reads back only the counts the
 * next launch needs. r->stats gets this call's counts. */
int lr_rank(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, uint32_t head, clirr_error *err);

void lr_release(lr_ranker *r);

/* ceil(log2 x), at least 1. */
uint32_t lr_log2_ceil(uint64_t x);

#endif
