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
 * each element's sublist and offset; elements no walk reached lie before
 * the first splitter of their list, and the walks from their heads cover
 * them; the sublists make a shorter weighted list, ranked recursively by
 * the host; a last pass adds the sublist's rank and the offset. */
#include "common/compat.clh"
#include "common/flag.clh"
#include "common/kargs.h"
#include "listrank.def"

#define END CLIRR_NONE
#define INFO_NONE 0xffffffffffffffffUL  /* not reached by a walk */
#define INFO_MARK 0xfffffffffffffffeUL  /* uncovered, with an uncovered predecessor */

static inline uint link_weight(uint e, uint s, __global const uint *weight,
                               uint weighted IRR_FPARAM)
{
    return weighted ? *IRR_GLD(1, &weight[e]) : (uint)(s != END);
}

static inline ulong pack(uint rank, uint succ) { return (ulong)rank << 32 | succ; }

/* ---- Wyllie (64-bit words) --------------------------------------------------- */

kernel void lr_words_init(CLIRR_KPARAMS(LR_WORDS_INIT_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(2, i >= m))
        return;
    uint s = *IRR_GLD(3, &succ[i]);
    *IRR_GST(4, &words[i]) = pack(link_weight(i, s, weight, weighted IRR_FARG), s);
}

kernel void lr_words_rank(CLIRR_KPARAMS(LR_WORDS_RANK_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(5, i < m))
        *IRR_GST(7, &rank[i]) = (uint)(*IRR_GLD(6, &words[i]) >> 32);
}

/* The study's original: every element jumps up to `jumps` times, each
 * jump written back at once so that others may ride on it. */
kernel void lr_wyllie(CLIRR_KPARAMS(LR_WYLLIE_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(8, i >= m))
        return;
    ulong a = *IRR_GLD(9, &words[i]);
    for (uint t = 0; IRR_BRANCH(10, t < jumps && (uint)a != END); t++) {
        ulong b = *IRR_GLD(11, &words[(uint)a]);
        a = pack((uint)(a >> 32) + (uint)(b >> 32), (uint)b);
        *IRR_GST(12, &words[i]) = a;
    }
    if (IRR_BRANCH(13, (uint)a != END))
        CLIRR_SET_FLAG(unfinished);
}

kernel void lr_wyllie_step(CLIRR_KPARAMS(LR_WYLLIE_STEP_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(15, i >= m))
        return;
    ulong a = *IRR_GLD(16, &in[i]);
    if (IRR_BRANCH(17, (uint)a != END)) {
        ulong b = *IRR_GLD(18, &in[(uint)a]);
        a = pack((uint)(a >> 32) + (uint)(b >> 32), (uint)b);
    }
    *IRR_GST(19, &out[i]) = a;
}

/* The study's optimized version: only unfinished elements are launched,
 * each loads its successor only while it has one, and the work-group
 * steps together (a barrier between jumps), so members see each other's
 * progress within the launch. Every work-item reaches every barrier. */
kernel void lr_wyllie_opt(CLIRR_KPARAMS(LR_WYLLIE_OPT_ARGS) IRR_KPARAM)
{
    uint k = get_global_id(0);
    bool live = k < count;
    uint i = IRR_BRANCH(20, live) ? *IRR_GLD(21, &items[k]) : 0;
    ulong a = live ? *IRR_GLD(22, &words[i]) : pack(0, END);
    for (uint t = 0; t < jumps; t++) {
        if (IRR_BRANCH(23, (uint)a != END)) {
            ulong b = *IRR_GLD(24, &words[(uint)a]);
            a = pack((uint)(a >> 32) + (uint)(b >> 32), (uint)b);
            *IRR_GST(25, &words[i]) = a;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (live)
        *IRR_GST(26, &active[k]) = (uint)a != END;
}

/* ---- Wyllie (32-bit words: 16-bit rank, 16-bit successor) --------------------- */

#define END16 0xffffu

kernel void lr_w32_init(CLIRR_KPARAMS(LR_W32_INIT_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(27, i >= m))
        return;
    uint s = *IRR_GLD(28, &succ[i]);
    *IRR_GST(29, &words[i]) = s == END ? END16 : (1u << 16 | s);
}

kernel void lr_wyllie32(CLIRR_KPARAMS(LR_WYLLIE32_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(30, i >= m))
        return;
    uint a = *IRR_GLD(31, &words[i]);
    for (uint t = 0; IRR_BRANCH(32, t < jumps && (a & END16) != END16); t++) {
        uint b = *IRR_GLD(33, &words[a & END16]);
        a = ((a >> 16) + (b >> 16)) << 16 | (b & END16);
        *IRR_GST(34, &words[i]) = a;
    }
    if (IRR_BRANCH(35, (a & END16) != END16))
        CLIRR_SET_FLAG(unfinished);
}

kernel void lr_w32_rank(CLIRR_KPARAMS(LR_W32_RANK_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(37, i < m))
        *IRR_GST(39, &rank[i]) = *IRR_GLD(38, &words[i]) >> 16;
}

/* ---- rhj ---------------------------------------------------------------------- */

kernel void lr_fill(CLIRR_KPARAMS(LR_FILL_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(40, i < m))
        *IRR_GST(41, &info[i]) = INFO_NONE;
}

kernel void lr_walk(CLIRR_KPARAMS(LR_WALK_ARGS) IRR_KPARAM)
{
    uint j = get_global_id(0);
    if (IRR_BRANCH(42, j >= nstarts))
        return;
    uint e, sid;
    if (mode == 0) {
        e = j * k;
        sid = j;
    } else if (mode == 1) {
        e = *IRR_GLD(43, &starts[j]);
        if (IRR_BRANCH(44, *IRR_GLD(45, &info[e]) != INFO_NONE)) /* marked: not a head */
            return;
        sid = base + atomic_inc(IRR_GAT(46, counter));
    } else {
        e = first;
        sid = base;
    }
    uint off = 0, s;
    for (;;) {
        *IRR_GST(47, &info[e]) = (ulong)sid << 32 | off;
        s = *IRR_GLD(48, &succ[e]);
        off += link_weight(e, s, weight, weighted IRR_FARG);
        if (IRR_BRANCH(49, s == END || s % k == 0))
            break;
        e = s;
    }
    *IRR_GST(50, &rsucc[sid]) = s == END ? END : s / k;
    *IRR_GST(51, &rweight[sid]) = off;
}

/* The splitters' walks, `chains` of them interleaved in each work-item
 * (mode 0 only): one work-item's loads are independent of each other, so
 * a CPU, which runs a work-group's items one after another, keeps several
 * cache misses in flight instead of one (a GPU hides the latency with
 * other work-items and takes chains = 1, lr_walk). */
#ifndef LR_CHAINS
#define LR_CHAINS 16
#endif
kernel void lr_walk_chains(CLIRR_KPARAMS(LR_WALK_ARGS) IRR_KPARAM)
{
    uint e[LR_CHAINS], off[LR_CHAINS], alive = 0;
    const uint j0 = get_global_id(0) * LR_CHAINS;
    (void)mode; (void)starts; (void)first; (void)base; (void)counter;
    for (uint c = 0; c < LR_CHAINS; c++) {
        off[c] = 0;
        e[c] = IRR_BRANCH(52, j0 + c < nstarts) ? (j0 + c) * k : END;
        alive += e[c] != END;
    }
    while (IRR_BRANCH(53, alive)) {
        for (uint c = 0; c < LR_CHAINS; c++) {
            if (IRR_BRANCH(54, e[c] == END))
                continue;
            uint sid = j0 + c, s = *IRR_GLD(55, &succ[e[c]]);
            *IRR_GST(56, &info[e[c]]) = (ulong)sid << 32 | off[c];
            off[c] += link_weight(e[c], s, weight, weighted IRR_FARG);
            if (IRR_BRANCH(57, s == END || s % k == 0)) {
                *IRR_GST(58, &rsucc[sid]) = s == END ? END : s / k;
                *IRR_GST(59, &rweight[sid]) = off[c];
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
kernel void lr_uncovered(CLIRR_KPARAMS(LR_UNCOVERED_ARGS) IRR_KPARAM)
{
    local uint lcount, lbase;
    const uint lid = get_local_id(0), stride = get_global_size(0);
    for (ulong base = get_group_id(0) * get_local_size(0); base < m; base += stride) {
        if (IRR_BRANCH(60, lid == 0))
            *IRR_LST(61, &lcount) = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint e = (uint)base + lid, slot = 0;
        bool mine = IRR_BRANCH(62, e < m) && *IRR_GLD(63, &info[e]) == INFO_NONE;
        if (IRR_BRANCH(64, mine))
            slot = atomic_inc(IRR_LAT(65, &lcount));
        barrier(CLK_LOCAL_MEM_FENCE);
        if (IRR_BRANCH(66, lid == 0 && lcount))
            *IRR_LST(68, &lbase) = atomic_add(IRR_GAT(67, count), lcount);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (mine)
            *IRR_GST(70, &list[*IRR_LLD(69, &lbase) + slot]) = e;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* An uncovered element's successor that is no splitter is uncovered too
 * (a walk reaching it would have come through its only predecessor), so
 * marking it needs no check; the unmarked ones are the heads. */
kernel void lr_mark(CLIRR_KPARAMS(LR_MARK_ARGS) IRR_KPARAM)
{
    uint j = get_global_id(0);
    if (IRR_BRANCH(71, j >= count))
        return;
    uint s = *IRR_GLD(73, &succ[*IRR_GLD(72, &list[j])]);
    if (IRR_BRANCH(74, s != END && s % k != 0))
        *IRR_GST(75, &info[s]) = INFO_MARK;
}

kernel void lr_recombine(CLIRR_KPARAMS(LR_RECOMBINE_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(76, i >= m))
        return;
    ulong x = *IRR_GLD(77, &info[i]);
    *IRR_GST(79, &rank[i]) = *IRR_GLD(78, &R[(uint)(x >> 32)]) - (uint)x;
}

/* ---- rhj-local ------------------------------------------------------------------
 * rhj's first level without its per-element scatter to DRAM. On a large
 * random list rhj's walk is the sum of the dependent chase and of a random
 * store per element, each a partly written 32-byte sector (measured on an
 * H100: 2.0 + 4.8 ms at 64M). Here a walk stores the element it visits
 * step-major in a tile, so a warp's stores are consecutive; the element's
 * rank is R[sublist] - step, known once the reduced list is ranked; the
 * pairs (element, rank) are then binned by destination window (a window
 * fits the device's cache) and each bin scattered, so the random stores
 * stay in the cache and whole lines go to memory. Walkers stop at `cap`
 * steps and continue as new sublists in a next round (cap doubled), so no
 * length is needed in advance and the tile stays within cap0 S + 2 n.
 * Elements before each list's first splitter are found afterwards: they
 * are the ones still unranked in windows whose bins came up short. */

kernel void lr_tile_walk(CLIRR_KPARAMS(LR_TILE_WALK_ARGS) IRR_KPARAM)
{
    uint c = get_global_id(0);
    if (IRR_BRANCH(86, c >= ncols))
        return;
    uint e = mode == 0 ? c * k : *IRR_GLD(87, &cstart[first + c]);
    uint sid = base + c;
    bool alive = true;
    __global uint *col = tile + toff + c;
    /* A finished walker fills its column with CLIRR_NONE to the cap: its
     * warp walks that far anyway (its longest walker), and the rows stay
     * whole lines instead of partly written sectors. */
    for (uint j = 0; j < cap; j++) {
        if (IRR_BRANCH(88, !alive)) {
            *IRR_GST(89, &col[(ulong)j * ncols]) = END;
            continue;
        }
        *IRR_GST(90, &col[(ulong)j * ncols]) = e;
        uint s = *IRR_GLD(91, &succ[e]);
        if (IRR_BRANCH(92, s == END || s % k == 0)) {
            *IRR_GST(93, &rsucc[sid]) = s == END ? END : s / k;
            *IRR_GST(94, &rweight[sid]) = s == END ? j : j + 1; /* a tail's link weighs 0 */
            alive = false;
        } else {
            e = s;
        }
    }
    if (IRR_BRANCH(95, alive)) { /* cut: e continues as a sublist of the next round */
        uint slot = atomic_inc(IRR_GAT(96, counter));
        *IRR_GST(97, &cstart[slot]) = e;
        *IRR_GST(98, &rsucc[sid]) = cbase + slot;
        *IRR_GST(99, &rweight[sid]) = cap;
    }
}

/* A work-item bins LR_BIN_ITEMS tile positions: their loads are
 * independent and issued before the local atomics, which would otherwise
 * order them. The work-group then sorts its pairs by bin in local memory
 * (`stage`, LR_BIN_ITEMS a work-item) and writes each bin's run with
 * consecutive work-items: stores straight from the atomics' slots would
 * put each lane of a warp in another bin, a transaction per pair. */
kernel void lr_bin(CLIRR_KPARAMS(LR_BIN_ARGS) IRR_KPARAM)
{
    local uint lcnt[LR_MAX_BINS], lstart[LR_MAX_BINS], gbase[LR_MAX_BINS];
    const uint lid = get_local_id(0), wg = get_local_size(0);
    const ulong total = (ulong)ncols * cap, p0 = (ulong)get_group_id(0) * wg * LR_BIN_ITEMS + lid;
    for (uint b = lid; b < nbins; b += wg)
        *IRR_LST(100, &lcnt[b]) = 0;
    uint e[LR_BIN_ITEMS], v[LR_BIN_ITEMS], slot[LR_BIN_ITEMS];
    /* p = p0 + i wg = j ncols + c */
    uint j = (uint)(p0 / ncols), c = (uint)(p0 - (ulong)j * ncols);
    for (uint i = 0; i < LR_BIN_ITEMS; i++) {
        ulong p = p0 + (ulong)i * wg;
        e[i] = END;
        if (IRR_BRANCH(101, p < total)) { /* a filler is CLIRR_NONE too */
            e[i] = *IRR_GLD(102, &tile[toff + p]);
            v[i] = *IRR_GLD(103, &R[base + c]) - j;
        }
        for (c += wg; c >= ncols; c -= ncols)
            j++;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < LR_BIN_ITEMS; i++)
        if (IRR_BRANCH(104, e[i] != END))
            slot[i] = atomic_inc(IRR_LAT(105, &lcnt[e[i] / wsz]));
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The bins' runs in the work-group (an inclusive scan of the counts,
     * doubling), and their places in the bins (a global atomic a bin). */
    for (uint b = lid; b < nbins; b += wg) {
        uint x = *IRR_LLD(106, &lcnt[b]);
        *IRR_LST(107, &lstart[b]) = x;
        if (IRR_BRANCH(108, x))
            *IRR_LST(109, &gbase[b]) = atomic_add(IRR_GAT(110, &bincount[b]), x);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < nbins; off <<= 1) {
        uint add[LR_MAX_BINS / 64 + 1], t = 0; /* wg >= 64: the host sees to it */
        for (uint b = lid; b < nbins; b += wg, t++)
            add[t] = b >= off ? *IRR_LLD(111, &lstart[b - off]) : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        t = 0;
        for (uint b = lid; b < nbins; b += wg, t++)
            *IRR_LST(112, &lstart[b]) = *IRR_LLD(113, &lstart[b]) + add[t];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint i = 0; i < LR_BIN_ITEMS; i++)
        if (IRR_BRANCH(114, e[i] != END)) {
            uint b = e[i] / wsz;
            uint q = *IRR_LLD(115, &lstart[b]) - *IRR_LLD(116, &lcnt[b]) + slot[i];
            *IRR_LST(117, &stage[q]) = (uint2)(e[i], v[i]);
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint pairs = *IRR_LLD(118, &lstart[nbins - 1]);
    for (uint q = lid; q < pairs; q += wg) {
        uint2 x = *IRR_LLD(119, &stage[q]);
        uint b = x.x / wsz;
        uint at = q - (*IRR_LLD(120, &lstart[b]) - *IRR_LLD(121, &lcnt[b]));
        *IRR_GST(122, &bins[(ulong)b * wsz + *IRR_LLD(123, &gbase[b]) + at]) = x;
    }
}

/* Work-groups run in about increasing order, so the stores of the ones in
 * flight fall in one or two windows. */
kernel void lr_bin_scatter(CLIRR_KPARAMS(LR_BIN_SCATTER_ARGS) IRR_KPARAM)
{
    ulong i = get_global_id(0);
    if (IRR_BRANCH(124, i >= nslots))
        return;
    uint b = (uint)(i / wsz), t = (uint)(i - (ulong)b * wsz);
    if (IRR_BRANCH(125, t < *IRR_GLD(126, &bincount[b]))) {
        uint2 x = *IRR_GLD(127, &bins[i]);
        *IRR_GST(128, &rank[x.x]) = x.y;
    }
}

/* A work-item checks LR_SPAN consecutive elements (most windows have no
 * unranked one). */
static inline bool lr_short_window(__global const uint *bincount, uint wsz, uint m, uint i IRR_FPARAM)
{
    uint b = i / wsz, size = min(wsz, m - b * wsz);
    return *IRR_GLD(129, &bincount[b]) < size;
}

/* Whether LR_SPAN elements from i0 (at most two windows: LR_SPAN <= wsz
 * or every window is short) touch a short window. */
static inline bool lr_span_short(__global const uint *bincount, uint wsz, uint m, uint i0 IRR_FPARAM)
{
    uint last = (uint)min((ulong)i0 + LR_SPAN, (ulong)m) - 1;
    return lr_short_window(bincount, wsz, m, i0 IRR_FARG) || lr_short_window(bincount, wsz, m, last IRR_FARG) ||
           last / wsz > i0 / wsz + 1;
}

kernel void lr_fill_deficit(CLIRR_KPARAMS(LR_FILL_DEFICIT_ARGS) IRR_KPARAM)
{
    ulong i0 = (ulong)get_global_id(0) * LR_SPAN;
    if (IRR_BRANCH(130, i0 >= m || !lr_span_short(bincount, wsz, m, (uint)i0 IRR_FARG)))
        return;
    for (uint t = 0; t < LR_SPAN; t++) {
        ulong i = i0 + t;
        if (IRR_BRANCH(131, i < m && lr_short_window(bincount, wsz, m, (uint)i IRR_FARG)))
            *IRR_GST(132, &rank[i]) = END;
    }
}

/* Work-group aggregated: one global atomic per work-group. */
kernel void lr_unranked(CLIRR_KPARAMS(LR_UNRANKED_ARGS) IRR_KPARAM)
{
    local uint lcount, lbase;
    uint found[LR_SPAN], slot[LR_SPAN], nf = 0;
    const uint lid = get_local_id(0);
    if (IRR_BRANCH(133, lid == 0))
        *IRR_LST(134, &lcount) = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong i0 = (ulong)get_global_id(0) * LR_SPAN;
    bool any = i0 < m && lr_span_short(bincount, wsz, m, (uint)i0 IRR_FARG);
    for (uint t = 0; any && t < LR_SPAN; t++) {
        ulong i = i0 + t;
        if (IRR_BRANCH(135, i < m && lr_short_window(bincount, wsz, m, (uint)i IRR_FARG) &&
                                *IRR_GLD(136, &rank[i]) == END)) {
            found[nf] = (uint)i;
            slot[nf++] = atomic_inc(IRR_LAT(137, &lcount));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (IRR_BRANCH(138, lid == 0 && lcount))
        *IRR_LST(139, &lbase) = atomic_add(IRR_GAT(140, count), lcount);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint t = 0; t < nf; t++)
        *IRR_GST(141, &list[*IRR_LLD(142, &lbase) + slot[t]]) = found[t];
}

/* rank MARK: unranked with an unranked predecessor (an unranked element's
 * successor that is no splitter is unranked too), so not a head. Any
 * value but CLIRR_NONE would do: heads are the ones left at CLIRR_NONE. */
#define LR_MARK 0xfffffffeu

kernel void lr_mark_rank(CLIRR_KPARAMS(LR_MARK_RANK_ARGS) IRR_KPARAM)
{
    uint j = get_global_id(0);
    if (IRR_BRANCH(143, j >= count))
        return;
    uint s = *IRR_GLD(144, &succ[*IRR_GLD(145, &list[j])]);
    if (IRR_BRANCH(146, s != END && s % k != 0))
        *IRR_GST(147, &rank[s]) = LR_MARK;
}

/* A head's segment ends at a splitter s (ranked: rank = rank[s] + links
 * to s) or at its list's tail (rank = links to the tail). */
kernel void lr_head_walk(CLIRR_KPARAMS(LR_HEAD_WALK_ARGS) IRR_KPARAM)
{
    uint j = get_global_id(0);
    if (IRR_BRANCH(148, j >= count))
        return;
    uint u = *IRR_GLD(149, &list[j]);
    if (IRR_BRANCH(150, *IRR_GLD(151, &rank[u]) != END))
        return;
    uint e = u, links = 0, at = 0, s;
    for (;;) {
        s = *IRR_GLD(152, &succ[e]);
        if (IRR_BRANCH(153, s == END))
            break;
        links++;
        if (IRR_BRANCH(154, s % k == 0)) {
            at = *IRR_GLD(155, &rank[s]);
            break;
        }
        e = s;
    }
    e = u;
    for (uint i = 0;; i++) {
        *IRR_GST(156, &rank[e]) = at + links - i;
        s = *IRR_GLD(157, &succ[e]);
        if (IRR_BRANCH(158, s == END || s % k == 0))
            break;
        e = s;
    }
}

/* ---- an ordered list by a scan (the study's lower bound) ------------------------- */

kernel void lr_scan_weights(CLIRR_KPARAMS(LR_SCAN_WEIGHTS_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(80, i < m))
        *IRR_GST(82, &w[i]) = *IRR_GLD(81, &succ[i]) != END;
}

/* rank[i] = the links from i on = total - links before i. */
kernel void lr_scan_rank(CLIRR_KPARAMS(LR_SCAN_RANK_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(83, i < m))
        *IRR_GST(85, &rank[i]) = total - *IRR_GLD(84, &excl[i]);
}
