/* cl/color.cl - graph coloring (coloring study, shared/papers/004):
 * speculative greedy (first-fit, then conflict resolution), topology- and
 * data-driven, and Jones-Plassmann with hash priorities. Every loop over a
 * vertex's neighbours runs through cl/templates/nested_loop.clh, so high
 * degree vertices get a work-group (load balancing). The graph is
 * symmetric (the input's symmetric form); self-loops are skipped. Colors are
 * 1, 2, ...; 0 = uncolored.
 *
 *   color_ff        first-fit: the colors 1..64 of the neighbours OR-ed into
 *                   a 64-bit forbidden set, the lowest free one taken by
 *                   find-first-set (bitset = 1) or by scanning the bits one
 *                   by one (bitset = 0, the study's color-mask scan); colors
 *                   beyond 64 are searched window by window
 *                   With sync = 1 the color goes in as tentative (the TENTATIVE
 *                   bit), which no first-fit of the round sees: each round
 *                   then decides from the colors of the rounds before it, as
 *                   synchronous rounds do; resolution commits the winners'
 *                   colors (clears the bit) and losers keep theirs until
 *                   their next first-fit, so every vertex of the round is
 *                   judged by the same tentative colors: the result is
 *                   that of synchronous rounds exactly (ref/color.c). With
 *                   the heuristic the high-degree vertices win first, close
 *                   to largest-degree-first greedy: fewer colors, more
 *                   rounds.
 *   color_resolve_topo / color_resolve_data
 *                   a vertex that shares its color with a neighbour of
 *                   higher priority loses: baseline priority is the lower
 *                   id; with heuristic = 1 the larger degree, ties by id
 *                   (section 3.2). The loser's color is cleared (and it is
 *                   pushed onto the next worklist). With fused = 1 the loser
 *                   recolors at once (first-fit fused into resolution, no
 *                   inter-work-group barrier: the next round checks it
 *                   again) and winners are marked final, which beats any
 *                   priority.
 *   color_jp        a round of Jones-Plassmann with NHASH hash functions
 *                   (the multi-hash idea of cuSPARSE csrcolor): an
 *                   uncolored vertex that is the local maximum (minimum) of
 *                   hash k among the vertices uncolored at the round's start
 *                   takes color base + 2k + 1 (+ 2); one left uncolored
 *                   sets the flag `remaining`.
 * Parameter lists: cl/color.def. */
#include "common/compat.clh"
#include "common/flag.clh"
#include "common/worklist.clh"
#include "color.def"

#define NHASH 4
/* A first-fit color of this round, not yet resolved (sync = 1). Never
 * inside first-fit's windows (c - 1 < 64 + base) for any base in use. */
#define TENTATIVE 0x80000000u
#define DEG(v) (*IRR_GLD(1, &row[(v) + 1]) - *IRR_GLD(2, &row[v]))

/* Lowest free color of a 64-color window, from its forbidden set. */
inline uint window_free(ulong forbidden, uint bitset)
{
    if (bitset) {
        ulong free_bits = ~forbidden;
        return (uint)popcount((free_bits & (~free_bits + 1)) - 1) + 1;
    }
    uint c = 0;
    while ((forbidden >> c) & 1)
        c++;
    return c + 1;
}

/* First-fit of v alone, window by window from color `from` (a multiple of
 * 64): for the rare vertex whose first 64 colors are all forbidden, and for
 * the fused recoloring. */
inline uint first_fit_serial(uint v, __global const uint *row, __global const uint *col,
                             volatile __global uint *color, uint bitset, uint from)
{
    for (uint base = from;; base += 64) {
        ulong w = 0;
        for (uint e = row[v]; e < row[v + 1]; e++) {
            uint u = col[e], c = color[u];
            if (u != v && c > base && c - base <= 64)
                w |= 1ul << (c - base - 1);
        }
        if (w != ~0ul)
            return base + window_free(w, bitset);
    }
}

/* The k-th hash of v (a 32-bit finalizer over v and k). */
inline uint jp_hash(uint v, uint k)
{
    uint h = v * 0x9e3779b9u + (k + 1) * 0x85ebca6bu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

/* Does u keep its color against v (same color)? In synchronous rounds
 * (sync) ties go by a hash of the ids first: by id alone, a grid's or a
 * path's vertices would win one after another along the ids, a round each. */
inline bool beats(uint u, uint v, uint du, uint dv, uint heuristic, bool sync)
{
    if (heuristic && du != dv)
        return du > dv;
    if (sync) {
        uint hu = jp_hash(u, NHASH), hv = jp_hash(v, NHASH);
        if (hu != hv)
            return hu > hv;
    }
    return u < v;
}

/* ---- first-fit ---------------------------------------------------------- */

#define NL_NAME color_ff
#define NL_PARAMS CLIRR_KPARAMS(COLOR_FF_ARGS)
#define NL_NITEMS nitems
#define NL_ITEM(k) (use_items ? items[k] : (k))
#define UNDECIDED(c) ((c) == 0 || ((c) & TENTATIVE))
#define NL_COUNT(v) (use_items || UNDECIDED(color[v]) ? DEG(v) : 0u)
#define NL_REDUCE_T ulong
#define NL_REDUCE_OP(a, b) ((a) | (b))
#define NL_TERM(v, j) ff_bit(v, *IRR_GLD(4, &col[row[v] + (j)]), color IRR_FARG)
#define NL_FINISH(v, forbidden)                                                \
    {                                                                          \
        if (IRR_BRANCH(5, use_items || UNDECIDED(*IRR_GLD(6, &color[v])))) {   \
            color[v] = ((forbidden) != ~0ul ? window_free((forbidden), bitset) \
                                            : first_fit_serial(v, row, col, color, bitset, 64)) | \
                       (sync ? TENTATIVE : 0u);                                \
            CLIRR_SET_FLAG(changed);                                           \
        }                                                                      \
    }

/* The forbidden bit of neighbour u's color within the first window. */
inline ulong ff_bit(uint v, uint u, volatile __global uint *color IRR_FPARAM)
{
    uint c = *IRR_GLD(3, &color[u]);
    return u != v && c - 1u < 64u ? 1ul << (c - 1) : 0ul;
}
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* The conflict test shared by both resolutions: does a neighbour of v
 * beat it? */
#define LOSES_TO(v, u, cv, dv)                                                 \
    ((u) != (v) && (*IRR_GLD(8, &color[u]) & ~TENTATIVE) == ((cv) & ~TENTATIVE) && \
     (*IRR_GLD(9, &final_[u]) || beats((u), (v), DEG(u), (dv), heuristic, ((cv) & TENTATIVE) != 0)))

/* ---- conflict resolution, topology-driven -------------------------------- */

#define NL_NAME color_resolve_topo
#define NL_PARAMS CLIRR_KPARAMS(COLOR_RESOLVE_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) (!final_[v] && color[v] ? DEG(v) : 0u)
#define NL_PREP(v) uint cv = *IRR_GLD(17, &color[v]), dv = DEG(v);
#define NL_REDUCE_T uint
#define NL_REDUCE_OP(a, b) ((a) | (b))
#define NL_TERM(v, j) (LOSES_TO(v, col[row[v] + (j)], cv, dv) ? 1u : 0u)
#define NL_FINISH(v, loses)                                                    \
    {                                                                          \
        if (IRR_BRANCH(15, !final_[v] && cv)) {                                \
            if (IRR_BRANCH(16, loses)) {                                       \
                if (!(cv & TENTATIVE))                                         \
                    color[v] = 0;                                              \
                atomic_inc(conflicts);                                         \
            } else {                                                           \
                final_[v] = 1;                                                 \
                if (cv & TENTATIVE)                                            \
                    color[v] = cv & ~TENTATIVE;                                \
            }                                                                  \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* ---- conflict resolution, data-driven ------------------------------------ */

#define NL_NAME color_resolve_data
#define NL_PARAMS CLIRR_KPARAMS(COLOR_RESOLVE_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) (*IRR_GLD(18, &wl_in[k]))
#define NL_COUNT(v) DEG(v)
#define NL_PREP(v) uint cv = *IRR_GLD(19, &color[v]), dv = DEG(v);
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_REDUCE_T uint
#define NL_REDUCE_OP(a, b) ((a) | (b))
#define NL_TERM(v, j) (LOSES_TO(v, col[row[v] + (j)], cv, dv) ? 1u : 0u)
/* After an output overflow the round reruns: a non-fused loser already
 * cleared its color, so a rerun pushes every uncolored vertex again; a
 * fused loser already recolored and is simply checked again. Two ifs, not
 * if/else: PoCL 5 (LLVM 16) aborts building the block-mapped kernels from
 * an if/else holding a push after the reduction's barrier ("Assertion
 * region_entry_barrier != NULL"). */
#define NL_FINISH(v, loses)                                                    \
    {                                                                          \
        bool again = (loses) || (wl_rerun && color[v] == 0 && !fused);         \
        if (IRR_BRANCH(20, again)) {                                           \
            if (fused || !(cv & TENTATIVE))                                    \
                color[v] = fused ? first_fit_serial(v, row, col, color, bitset, 0) : 0; \
            wl_push(v);                                                        \
        }                                                                      \
        if (fused && !again)                                                   \
            final_[v] = 1;                                                     \
        if (!again && (cv & TENTATIVE))                                        \
            color[v] = cv & ~TENTATIVE;                                        \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* ---- Jones-Plassmann with hash priorities ---------------------------------- */


/* Bit 2k: v beats u under hash k (larger, ties by larger id); bit 2k+1: v
 * is below u. A neighbour colored before this round constrains nothing. */
inline uint jp_mask(uint v, uint u, volatile __global uint *color, uint base IRR_FPARAM)
{
    uint c = *IRR_GLD(10, &color[u]);
    if (IRR_BRANCH(11, u == v || (c != 0 && c <= base)))
        return 0xffffffffu;
    uint m = 0;
    for (uint k = 0; k < NHASH; k++) {
        uint hv = jp_hash(v, k), hu = jp_hash(u, k);
        bool above = hv > hu || (hv == hu && v > u);
        m |= above ? 1u << (2 * k) : 1u << (2 * k + 1);
    }
    return m;
}

#define NL_NAME color_jp
#define NL_PARAMS CLIRR_KPARAMS(COLOR_JP_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) (color[v] == 0 ? DEG(v) : 0u)
#define NL_REDUCE_T uint
#define NL_REDUCE_OP(a, b) ((a) & (b))
#define NL_REDUCE_IDENT 0xffffffffu
#define NL_TERM(v, j) jp_mask(v, *IRR_GLD(12, &col[row[v] + (j)]), color, base IRR_FARG)
#define NL_FINISH(v, m)                                                        \
    {                                                                          \
        if (IRR_BRANCH(13, *IRR_GLD(14, &color[v]) == 0)) {                    \
            uint classes = (m) & ((1u << (2 * NHASH)) - 1);                    \
            if (classes)                                                       \
                color[v] = base + (uint)popcount((classes & (~classes + 1)) - 1) + 1; \
            else                                                               \
                CLIRR_SET_FLAG(remaining);                                     \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
