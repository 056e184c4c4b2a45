/* cl/sp.cl - survey propagation on the factor graph of a SAT formula
 * (shared/papers/000 Table I and Figure 6, 002's SP rows). The equations
 * and their order are host/ref/sp.h's: a sweep is sp_products over the
 * variables, then sp_update over the clauses (Jacobi: every survey of a
 * sweep from the previous sweep's products), so the serial engine of
 * host/ref/sp.c computes the same floats in the same order as the
 * topology-driven sweep (every variable, every clause). A clause takes its
 * own factor out of a variable's product by dividing by the survey the
 * product read (eta_seen): the current one when every product is
 * recomputed each sweep, possibly older in the data-driven sweep, where
 * sp_products runs over a worklist of variables and pushes their clauses,
 * and sp_update runs over those clauses and pushes the variables whose
 * surveys drifted onto the next sweep's worklist. Host side:
 * host/algo/sp.c; parameters: cl/sp.def.
 *
 * No kernel waits on another work-group. Atomics: per-work-group sums of
 * the counters (local first, one global add per work-group), the stamps
 * that let one work-item push a clause or a variable once per sweep, and
 * the worklists' slots (staged in local memory, one global add per
 * work-group unless the stage fills). Floating-point contraction is off so
 * that no fused multiply-add separates a device's surveys from the serial
 * ones. The IRR_ wrappers (cl/common/irregularity.clh) record branches and
 * accesses for `clirr profile` in a -DCLIRR_IRREG build and are the plain
 * expressions otherwise. */
#include "common/compat.clh"
#include "common/kargs.h"
#include "sp.def"

#pragma OPENCL FP_CONTRACT OFF

#define SP_FREE 2
#define NEG_BIT 0x80000000u
/* Worklist items staged per work-group before one global reservation (the
 * host sets it from the device's local memory). */
#ifndef SP_STAGE
#define SP_STAGE 256
#endif

/* Push item onto out through the work-group's stage (counters[which]
 * counts out's items). */
static void push(uint item, volatile __local uint *stage_n, __local uint *stage, __global uint *out,
                 volatile __global uint *counters, uint which IRR_FPARAM)
{
    uint slot = atomic_inc(IRR_LAT(1, stage_n));
    if (IRR_BRANCH(2, slot < SP_STAGE))
        *IRR_LST(3, &stage[slot]) = item;
    else
        *IRR_GST(4, &out[atomic_inc(IRR_GAT(5, &counters[which]))]) = item;
}

/* The stage onto out: one reservation for the work-group (every work-item
 * calls it). */
static void flush(volatile __local uint *stage_n, __local uint *stage, volatile __local uint *base,
                  __global uint *out, volatile __global uint *counters, uint which IRR_FPARAM)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    uint staged = *stage_n < SP_STAGE ? *stage_n : SP_STAGE;
    if (get_local_id(0) == 0)
        *base = staged ? atomic_add(IRR_GAT(6, &counters[which]), staged) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = get_local_id(0); IRR_BRANCH(7, j < staged); j += get_local_size(0))
        *IRR_GST(8, &out[*base + j]) = *IRR_LLD(9, &stage[j]);
}

kernel void sp_products(CLIRR_KPARAMS(SP_PRODUCTS_ARGS) IRR_KPARAM)
{
    __local uint stage_n, base;
    __local uint stage[SP_STAGE];
    uint i = get_global_id(0);
    if (stamp) {
        if (get_local_id(0) == 0)
            stage_n = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint v = i < n && use_list ? *IRR_GLD(10, &list[i]) : i;
    if (IRR_BRANCH(11, i < n && *IRR_GLD(12, &var_state[v]) == SP_FREE)) {
        float p = 1.0f, q = 1.0f;
        uint z0 = 0, z1 = 0;
        uint kend = *IRR_GLD(13, &var_off[v + 1]);
        for (uint k = *IRR_GLD(14, &var_off[v]); IRR_BRANCH(15, k < kend); k++) {
            uint c = *IRR_GLD(16, &var_clause[k]);
            if (IRR_BRANCH(17, *IRR_GLD(18, &clause_sat[c])))
                continue;
            uint e = *IRR_GLD(19, &var_edge[k]);
            float seen = *IRR_GLD(20, &eta[e]);
            if (stamp) {
                *IRR_GST(21, &eta_seen[e]) = seen;
                if (IRR_BRANCH(22, atomic_xchg(IRR_GAT(23, &clause_stamp[c]), stamp) != stamp))
                    push(c, &stage_n, stage, clauses, counters, 3 IRR_FARG);
            }
            float m = 1.0f - seen;
            if (!*IRR_GLD(24, &var_neg[k])) {
                if (m == 0.0f)
                    z0++;
                else
                    p *= m;
            } else if (m == 0.0f) {
                z1++;
            } else {
                q *= m;
            }
        }
        *IRR_GST(25, &prod[v]) = (float4)(p, q, (float)z0, (float)z1);
    }
    if (stamp)
        flush(&stage_n, stage, &base, clauses, counters, 3 IRR_FARG);
}

kernel void sp_update(CLIRR_KPARAMS(SP_UPDATE_ARGS) IRR_KPARAM)
{
    __local uint moved_wg, surveys_wg, stage_n, base;
    __local uint stage[SP_STAGE];
    uint i = get_global_id(0), moved = 0, computed = 0;
    if (get_local_id(0) == 0)
        moved_wg = surveys_wg = stage_n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint c = i < n && use_list ? *IRR_GLD(26, &list[i]) : i;
    if (IRR_BRANCH(27, i < n && !*IRR_GLD(28, &clause_sat[c]))) {
        uint b = *IRR_GLD(29, &clause_off[c]), end = *IRR_GLD(30, &clause_off[c + 1]);
        for (uint e = b; IRR_BRANCH(31, e < end); e++) {
            uint l = *IRR_GLD(32, &lit[e]), j = l & ~NEG_BIT;
            if (IRR_BRANCH(33, *IRR_GLD(34, &var_state[j]) != SP_FREE))
                continue;
            bool pos = !(l & NEG_BIT);
            float own = 1.0f - *IRR_GLD(35, &eta_seen[e]);
            float4 pj = *IRR_GLD(36, &prod[j]);
            float ps = pos ? pj.x : pj.y, pu = pos ? pj.y : pj.x;
            uint zs = (uint)(pos ? pj.z : pj.w), zu = (uint)(pos ? pj.w : pj.z);
            if (own == 0.0f)
                zs--;
            else
                ps /= own;
            float Ps = zs ? 0.0f : ps, Pu = zu ? 0.0f : pu;
            float pi_u = (1.0f - Pu) * Ps, pi_s = (1.0f - Ps) * Pu, pi_0 = Ps * Pu;
            float sum = pi_u + pi_s + pi_0;
            *IRR_GST(37, &r[e]) = sum > 0.0f ? pi_u / sum : 0.0f;
        }
        for (uint e = b; IRR_BRANCH(38, e < end); e++) {
            uint j = *IRR_GLD(39, &lit[e]) & ~NEG_BIT;
            if (IRR_BRANCH(40, *IRR_GLD(41, &var_state[j]) != SP_FREE))
                continue;
            float s = 1.0f;
            for (uint q = b; IRR_BRANCH(42, q < end); q++)
                if (IRR_BRANCH(43, q != e && *IRR_GLD(44, &var_state[*IRR_GLD(45, &lit[q]) & ~NEG_BIT]) == SP_FREE))
                    s *= *IRR_GLD(46, &r[q]);
            moved += fabs(s - *IRR_GLD(47, &eta[e])) > eps;
            /* Drift from what j's product holds, not the move of this
             * sweep: small moves add up and are not lost. */
            if (IRR_BRANCH(48, stamp && fabs(s - *IRR_GLD(49, &eta_seen[e])) > eps &&
                                   atomic_xchg(IRR_GAT(50, &var_stamp[j]), stamp) != stamp))
                push(j, &stage_n, stage, next, counters, 2 IRR_FARG);
            *IRR_GST(51, &eta[e]) = s;
            computed++;
        }
    }
    if (moved)
        atomic_add(IRR_LAT(52, &moved_wg), moved);
    if (computed)
        atomic_add(IRR_LAT(53, &surveys_wg), computed);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        if (moved_wg)
            atomic_add(IRR_GAT(54, &counters[0]), moved_wg);
        if (surveys_wg)
            atomic_add(IRR_GAT(55, &counters[1]), surveys_wg);
    }
    if (stamp)
        flush(&stage_n, stage, &base, next, counters, 2 IRR_FARG);
}

kernel void sp_bias(CLIRR_KPARAMS(SP_BIAS_ARGS) IRR_KPARAM)
{
    uint v = get_global_id(0);
    if (IRR_BRANCH(56, v >= n || *IRR_GLD(57, &var_state[v]) != SP_FREE))
        return;
    float4 pv = *IRR_GLD(58, &prod[v]);
    float P = pv.z != 0.0f ? 0.0f : pv.x, N = pv.w != 0.0f ? 0.0f : pv.y;
    float pi_p = (1.0f - P) * N, pi_m = (1.0f - N) * P, pi_0 = P * N;
    float sum = pi_p + pi_m + pi_0;
    float wp = sum > 0.0f ? pi_p / sum : 0.0f, wm = sum > 0.0f ? pi_m / sum : 0.0f;
    *IRR_GST(59, &wdiff[v]) = wp - wm;
    *IRR_GST(60, &wmag[v]) = wp > wm ? wp : wm;
}
