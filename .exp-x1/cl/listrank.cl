/* cl/listrank.cl - list ranking (shared/papers/003): Wyllie's pointer
 * jumping in the study's variants and the recursive Helman-JaJa sparse
 * ruling set (rhj). Host side: host/algo/lrank.c; parameters:
 * cl/listrank.def.
 *
 * rank[i] = the sum of the weights from i to the tail of its list, tail
 * included; with one per link (a tail weighs 0) it is the number of links
 * to the tail. A tail's successor is CLIRR_NONE.
 *
 * Wyllie keeps rank and successor of an element in one 64-bit word (32 +
 * 32), written by one aligned store, so a reader sees either the old or
 * the new pair and both are true: rank(i) = word.rank + rank(word.succ).
 * That is what lets the in-place variants jump asynchronously (no work-
 * group waits for another); the stepwise one is the PRAM algorithm with a
 * launch per synchronous step. No 64-bit atomics are needed anywhere.
 *
 * rhj: elements whose id is a multiple of k are splitters; one work-item
 * walks from each splitter until the next splitter or the tail, writing
 * each element's sublist and offset into the word it read the element's
 * successor from (so the store lands in a cache line the load just
 * brought in, instead of a second scattered line); elements no walk
 * reached lie before the first splitter of their list, and the walks
 * from their heads cover them; the sublists make a shorter weighted list, ranked recursively by
 * the host; a last pass adds the sublist's rank and the offset. */
#include "common/compat.clh"
#include "common/kargs.h"
#include "listrank.def"

#define END CLIRR_NONE
/* An rhj word is sublist << 32 | offset once a walk has passed, else
 * one of these << 32 | successor (sublists number under 2^31). */
#define INFO_NONE 0xffffffffu  /* not reached by a walk */
#define INFO_MARK 0xfffffffeu  /* uncovered, with an uncovered predecessor */

static inline uint link_weight(uint e, uint s, __global const uint *weight, uint weighted)
{
    return weighted ? weight[e] : (uint)(s != END);
}

static inline ulong pack(uint rank, uint succ) { return (ulong)rank << 32 | succ; }

/* ---- Wyllie (64-bit words) --------------------------------------------------- */

kernel void lr_words_init(CLIRR_KPARAMS(LR_WORDS_INIT_ARGS))
{
    uint i = get_global_id(0);
    if (i >= m)
        return;
    uint s = succ[i];
    words[i] = pack(link_weight(i, s, weight, weighted), s);
}

kernel void lr_words_rank(CLIRR_KPARAMS(LR_WORDS_RANK_ARGS))
{
    uint i = get_global_id(0);
    if (i < m)
        rank[i] = (uint)(words[i] >> 32);
}

/* The study's original: every element jumps up to `jumps` times, each
 * jump written back at once so that others may ride on it. */
kernel void lr_wyllie(CLIRR_KPARAMS(LR_WYLLIE_ARGS))
{
    uint i = get_global_id(0);
    if (i >= m)
        return;
    ulong a = words[i];
    for (uint t = 0; t < jumps && (uint)a != END; t++) {
        ulong b = words[(uint)a];
        a = pack((uint)(a >> 32) + (uint)(b >> 32), (uint)b);
        words[i] = a;
    }
    if ((uint)a != END)
        *unfinished = 1;
}

kernel void lr_wyllie_step(CLIRR_KPARAMS(LR_WYLLIE_STEP_ARGS))
{
    uint i = get_global_id(0);
    if (i >= m)
        return;
    ulong a = in[i];
    if ((uint)a != END) {
        ulong b = in[(uint)a];
        a = pack((uint)(a >> 32) + (uint)(b >> 32), (uint)b);
    }
    out[i] = a;
}

/* The study's optimized version: only unfinished elements are launched,
 * each loads its successor only while it has one, and the work-group
 * steps together (a barrier between jumps), so members see each other's
 * progress within the launch. Every work-item reaches every barrier. */
kernel void lr_wyllie_opt(CLIRR_KPARAMS(LR_WYLLIE_OPT_ARGS))
{
    uint k = get_global_id(0);
    bool live = k < count;
    uint i = live ? items[k] : 0;
    ulong a = live ? words[i] : pack(0, END);
    for (uint t = 0; t < jumps; t++) {
        if ((uint)a != END) {
            ulong b = words[(uint)a];
            a = pack((uint)(a >> 32) + (uint)(b >> 32), (uint)b);
            words[i] = a;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (live)
        active[k] = (uint)a != END;
}

/* ---- Wyllie (32-bit words: 16-bit rank, 16-bit successor) --------------------- */

#define END16 0xffffu

kernel void lr_w32_init(CLIRR_KPARAMS(LR_W32_INIT_ARGS))
{
    uint i = get_global_id(0);
    if (i >= m)
        return;
    uint s = succ[i];
    words[i] = s == END ? END16 : (1u << 16 | s);
}

kernel void lr_wyllie32(CLIRR_KPARAMS(LR_WYLLIE32_ARGS))
{
    uint i = get_global_id(0);
    if (i >= m)
        return;
    uint a = words[i];
    for (uint t = 0; t < jumps && (a & END16) != END16; t++) {
        uint b = words[a & END16];
        a = ((a >> 16) + (b >> 16)) << 16 | (b & END16);
        words[i] = a;
    }
    if ((a & END16) != END16)
        *unfinished = 1;
}

kernel void lr_w32_rank(CLIRR_KPARAMS(LR_W32_RANK_ARGS))
{
    uint i = get_global_id(0);
    if (i < m)
        rank[i] = words[i] >> 16;
}

/* ---- rhj ---------------------------------------------------------------------- */

kernel void lr_pack(CLIRR_KPARAMS(LR_PACK_ARGS))
{
    uint i = get_global_id(0);
    if (i < m)
        info[i] = (ulong)INFO_NONE << 32 | succ[i];
}

/* One step of a walk: element e joins sublist sid at offset *off; true
 * when e ends the sublist (its successor is a splitter or the end). */
static inline bool walk_step(uint e, uint sid, uint k, uint *off, uint *s, __global ulong *info,
                             __global const uint *weight, uint weighted, __global const uint *succ)
{
    *s = succ[e];
    info[e] = (ulong)sid << 32 | *off;
    *off += link_weight(e, *s, weight, weighted);
    return *s == END || *s % k == 0;
}

static inline void sublist_done(uint sid, uint s, uint off, uint k, __global uint *rsucc,
                                __global uint *rweight)
{
    rsucc[sid] = s == END ? END : s / k;
    rweight[sid] = off;
}

/* Mode 0 walks the splitters' sublists j, j + G, j + 2G, ... (G work-
 * items) in one flat loop: a work-item whose sublist ends starts its next
 * one at once instead of idling until the longest walk of its SIMD group
 * ends, so a group's time follows the sum of its members' sublists. */
kernel void lr_walk(CLIRR_KPARAMS(LR_WALK_ARGS))
{
    uint j = get_global_id(0), off = 0, s, e;
    if (j >= nstarts)
        return;
    if (mode == 0) {
        const uint G = get_global_size(0);
        for (e = j * k;;) {
            if (!walk_step(e, j, k, &off, &s, info, weight, weighted, succ)) {
                e = s;
                continue;
            }
            sublist_done(j, s, off, k, rsucc, rweight);
            j += G;
            if (j >= nstarts)
                return;
            e = j * k;
            off = 0;
        }
    }
    uint sid;
    if (mode == 1) {
        e = starts[j];
        if ((uint)(info[e] >> 32) != INFO_NONE) /* marked: not a head */
            return;
        sid = base + atomic_inc(counter);
    } else {
        e = first;
        sid = base;
    }
    while (!walk_step(e, sid, k, &off, &s, info, weight, weighted, succ))
        e = s;
    sublist_done(sid, s, off, k, rsucc, rweight);
}

/* The splitters' walks, `chains` of them interleaved in each work-item
 * (mode 0 only): one work-item's loads are independent of each other, so
 * a CPU, which runs a work-group's items one after another, keeps several
 * cache misses in flight instead of one (a GPU hides the latency with
 * other work-items and takes chains = 1, lr_walk). */
#ifndef LR_CHAINS
#define LR_CHAINS 16
#endif
kernel void lr_walk_chains(CLIRR_KPARAMS(LR_WALK_ARGS))
{
    uint e[LR_CHAINS], off[LR_CHAINS], alive = 0;
    const uint j0 = get_global_id(0) * LR_CHAINS;
    (void)mode; (void)starts; (void)first; (void)base; (void)counter;
    for (uint c = 0; c < LR_CHAINS; c++) {
        off[c] = 0;
        e[c] = j0 + c < nstarts ? (j0 + c) * k : END;
        alive += e[c] != END;
    }
    while (alive) {
        for (uint c = 0; c < LR_CHAINS; c++) {
            if (e[c] == END)
                continue;
            uint s;
            if (walk_step(e[c], j0 + c, k, &off[c], &s, info, weight, weighted, succ)) {
                sublist_done(j0 + c, s, off[c], k, rsucc, rweight);
                e[c] = END;
                alive--;
            } else {
                e[c] = s;
            }
        }
    }
}

/* Work-group aggregated: one global atomic per work-group, each work-item
 * striding over the level. */
kernel void lr_uncovered(CLIRR_KPARAMS(LR_UNCOVERED_ARGS))
{
    local uint lcount, lbase;
    const uint lid = get_local_id(0), stride = get_global_size(0);
    for (ulong base = get_group_id(0) * get_local_size(0); base < m; base += stride) {
        if (lid == 0)
            lcount = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint e = (uint)base + lid, slot = 0;
        bool mine = e < m && (uint)(info[e] >> 32) == INFO_NONE;
        if (mine)
            slot = atomic_inc(&lcount);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0 && lcount)
            lbase = atomic_add(count, lcount);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (mine)
            list[lbase + slot] = e;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* An uncovered element's successor that is no splitter is uncovered too
 * (a walk reaching it would have come through its only predecessor), so
 * marking it needs no check; the unmarked ones are the heads. */
kernel void lr_mark(CLIRR_KPARAMS(LR_MARK_ARGS))
{
    uint j = get_global_id(0);
    if (j >= count)
        return;
    uint s = succ[list[j]];
    if (s != END && s % k != 0)
        info[s] = (ulong)INFO_MARK << 32 | succ[s];
}

kernel void lr_recombine(CLIRR_KPARAMS(LR_RECOMBINE_ARGS))
{
    uint i = get_global_id(0);
    if (i >= m)
        return;
    ulong x = info[i];
    rank[i] = R[(uint)(x >> 32)] - (uint)x;
}

/* ---- an ordered list by a scan (the study's lower bound) ------------------------- */

kernel void lr_scan_weights(CLIRR_KPARAMS(LR_SCAN_WEIGHTS_ARGS))
{
    uint i = get_global_id(0);
    if (i < m)
        w[i] = succ[i] != END;
}

/* rank[i] = the links from i on = total - links before i. */
kernel void lr_scan_rank(CLIRR_KPARAMS(LR_SCAN_RANK_ARGS))
{
    uint i = get_global_id(0);
    if (i < m)
        rank[i] = total - excl[i];
}
