/* cl/sp.cl - survey propagation on the factor graph of a SAT formula
 * (shared/papers/000 Table I and Figure 6, 002's SP rows). The equations
 * and their order are host/ref/sp.h's: a sweep is sp_products over the
 * variables, then the surveys of the clauses (Jacobi: every survey of a
 * sweep from the previous sweep's products), so the serial engine of
 * host/ref/sp.c computes the same floats in the same order as the
 * topology-driven sp_update. A clause takes its own factor out of a
 * variable's product by dividing by the survey the product read
 * (eta_seen): the current one when every product is recomputed each sweep
 * (topo), possibly older in the data-driven sp_update_near, which only
 * visits the clauses of variables whose products changed and pushes the
 * variables whose surveys moved onto the next sweep's worklist. Host side:
 * host/algo/sp.c; parameters: cl/sp.def.
 *
 * No kernel waits on another work-group. Atomics: per-work-group sums of
 * the counters (local first, one global add per work-group), the stamps
 * that let one work-item take a clause or push a variable once per sweep,
 * and the worklist's slots (staged in local memory, one global add per
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

#define SP_NAME(type, name) name
#define SP_SURVEY_NAMES SP_SURVEY_ARGS(SP_NAME, CLIRR_KARG_COMMA)

kernel void sp_products(CLIRR_KPARAMS(SP_PRODUCTS_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (IRR_BRANCH(1, i >= n))
        return;
    uint v = use_list ? *IRR_GLD(2, &list[i]) : i;
    if (IRR_BRANCH(3, *IRR_GLD(4, &var_state[v]) != SP_FREE))
        return;
    float p = 1.0f, q = 1.0f;
    uint z0 = 0, z1 = 0;
    uint kend = *IRR_GLD(5, &var_off[v + 1]);
    for (uint k = *IRR_GLD(6, &var_off[v]); IRR_BRANCH(7, k < kend); k++) {
        if (IRR_BRANCH(8, *IRR_GLD(9, &clause_sat[*IRR_GLD(10, &var_clause[k])])))
            continue;
        uint e = *IRR_GLD(11, &var_edge[k]);
        float seen = *IRR_GLD(12, &eta[e]);
        if (keep_seen)
            *IRR_GST(13, &eta_seen[e]) = seen;
        float m = 1.0f - seen;
        if (!*IRR_GLD(14, &var_neg[k])) {
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
    *IRR_GST(15, &prod[v]) = (float4)(p, q, (float)z0, (float)z1);
}

/* Push variable i onto the next worklist through the work-group's stage. */
static void push(uint i, volatile __local uint *stage_n, __local uint *stage, __global uint *next,
                 volatile __global uint *counters IRR_FPARAM)
{
    uint slot = atomic_inc(IRR_LAT(16, stage_n));
    if (IRR_BRANCH(17, slot < SP_STAGE))
        *IRR_LST(18, &stage[slot]) = i;
    else
        *IRR_GST(19, &next[atomic_inc(IRR_GAT(20, &counters[2]))]) = i;
}

/* New surveys of unsatisfied clause c; returns how many were computed and
 * adds to *moved those that moved more than eps. With pushing, each free
 * variable whose survey is now more than eps from the one its product
 * holds goes onto next, once per stamp. */
static uint survey_clause(uint c, uint *moved, bool pushing, uint stamp, volatile __global uint *var_stamp,
                          volatile __local uint *stage_n, __local uint *stage, __global uint *next,
                          CLIRR_KPARAMS(SP_SURVEY_ARGS) IRR_FPARAM)
{
    uint b = *IRR_GLD(21, &clause_off[c]), end = *IRR_GLD(22, &clause_off[c + 1]), computed = 0;
    for (uint e = b; IRR_BRANCH(23, e < end); e++) {
        uint l = *IRR_GLD(24, &lit[e]), j = l & ~NEG_BIT;
        if (IRR_BRANCH(25, *IRR_GLD(26, &var_state[j]) != SP_FREE))
            continue;
        bool pos = !(l & NEG_BIT);
        float own = 1.0f - *IRR_GLD(27, &eta_seen[e]);
        float4 pj = *IRR_GLD(28, &prod[j]);
        float ps = pos ? pj.x : pj.y, pu = pos ? pj.y : pj.x;
        uint zs = (uint)(pos ? pj.z : pj.w), zu = (uint)(pos ? pj.w : pj.z);
        if (own == 0.0f)
            zs--;
        else
            ps /= own;
        float Ps = zs ? 0.0f : ps, Pu = zu ? 0.0f : pu;
        float pi_u = (1.0f - Pu) * Ps, pi_s = (1.0f - Ps) * Pu, pi_0 = Ps * Pu;
        float sum = pi_u + pi_s + pi_0;
        *IRR_GST(29, &r[e]) = sum > 0.0f ? pi_u / sum : 0.0f;
    }
    for (uint e = b; IRR_BRANCH(30, e < end); e++) {
        uint i = *IRR_GLD(31, &lit[e]) & ~NEG_BIT;
        if (IRR_BRANCH(32, *IRR_GLD(33, &var_state[i]) != SP_FREE))
            continue;
        float s = 1.0f;
        for (uint q = b; IRR_BRANCH(34, q < end); q++)
            if (IRR_BRANCH(35, q != e && *IRR_GLD(36, &var_state[*IRR_GLD(37, &lit[q]) & ~NEG_BIT]) == SP_FREE))
                s *= *IRR_GLD(38, &r[q]);
        *moved += fabs(s - *IRR_GLD(39, &eta[e])) > eps;
        /* Drift from what i's product holds, not the move of this sweep:
         * small moves add up and are not lost. */
        if (IRR_BRANCH(40, pushing && fabs(s - *IRR_GLD(41, &eta_seen[e])) > eps &&
                               atomic_xchg(IRR_GAT(42, &var_stamp[i]), stamp) != stamp))
            push(i, stage_n, stage, next, counters IRR_FARG);
        *IRR_GST(43, &eta[e]) = s;
        computed++;
    }
    return computed;
}

/* Adds the work-group's sums to counters[0] and [1] (every work-item
 * calls it). */
static void add_counts(uint moved, uint computed, volatile __local uint *moved_wg, volatile __local uint *surveys_wg,
                       volatile __global uint *counters IRR_FPARAM)
{
    if (moved)
        atomic_add(IRR_LAT(44, moved_wg), moved);
    if (computed)
        atomic_add(IRR_LAT(45, surveys_wg), computed);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        if (*moved_wg)
            atomic_add(IRR_GAT(46, &counters[0]), *moved_wg);
        if (*surveys_wg)
            atomic_add(IRR_GAT(47, &counters[1]), *surveys_wg);
    }
}

kernel void sp_update(CLIRR_KPARAMS(SP_UPDATE_ARGS) IRR_KPARAM)
{
    __local uint moved_wg, surveys_wg;
    uint c = get_global_id(0), moved = 0, computed = 0;
    if (get_local_id(0) == 0)
        moved_wg = surveys_wg = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (IRR_BRANCH(48, c < n && !*IRR_GLD(49, &clause_sat[c])))
        computed = survey_clause(c, &moved, false, 0, 0, 0, 0, 0, SP_SURVEY_NAMES IRR_FARG);
    add_counts(moved, computed, &moved_wg, &surveys_wg, counters IRR_FARG);
}

kernel void sp_update_near(CLIRR_KPARAMS(SP_UPDATE_NEAR_ARGS) IRR_KPARAM)
{
    __local uint moved_wg, surveys_wg, stage_n, base;
    __local uint stage[SP_STAGE];
    uint i = get_global_id(0), moved = 0, computed = 0;
    if (get_local_id(0) == 0)
        moved_wg = surveys_wg = stage_n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (IRR_BRANCH(50, i < n)) {
        uint v = use_list ? *IRR_GLD(51, &list[i]) : i;
        if (IRR_BRANCH(52, *IRR_GLD(53, &var_state[v]) == SP_FREE)) {
            uint kend = *IRR_GLD(54, &var_off[v + 1]);
            for (uint k = *IRR_GLD(55, &var_off[v]); IRR_BRANCH(56, k < kend); k++) {
                uint c = *IRR_GLD(57, &var_clause[k]);
                if (IRR_BRANCH(58, *IRR_GLD(59, &clause_sat[c]) ||
                                       atomic_xchg(IRR_GAT(60, &clause_stamp[c]), stamp) == stamp))
                    continue;
                computed += survey_clause(c, &moved, true, stamp, var_stamp, &stage_n, stage, next,
                                          SP_SURVEY_NAMES IRR_FARG);
            }
        }
    }
    add_counts(moved, computed, &moved_wg, &surveys_wg, counters IRR_FARG);
    /* The stage onto next: one reservation for the work-group. */
    barrier(CLK_LOCAL_MEM_FENCE);
    uint staged = stage_n < SP_STAGE ? stage_n : SP_STAGE;
    if (get_local_id(0) == 0)
        base = staged ? atomic_add(&counters[2], staged) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = get_local_id(0); IRR_BRANCH(61, j < staged); j += get_local_size(0))
        *IRR_GST(62, &next[base + j]) = *IRR_LLD(63, &stage[j]);
}

kernel void sp_bias(CLIRR_KPARAMS(SP_BIAS_ARGS) IRR_KPARAM)
{
    uint v = get_global_id(0);
    if (IRR_BRANCH(64, v >= n || *IRR_GLD(65, &var_state[v]) != SP_FREE))
        return;
    float4 pv = *IRR_GLD(66, &prod[v]);
    float P = pv.z != 0.0f ? 0.0f : pv.x, N = pv.w != 0.0f ? 0.0f : pv.y;
    float pi_p = (1.0f - P) * N, pi_m = (1.0f - N) * P, pi_0 = P * N;
    float sum = pi_p + pi_m + pi_0;
    float wp = sum > 0.0f ? pi_p / sum : 0.0f, wm = sum > 0.0f ? pi_m / sum : 0.0f;
    *IRR_GST(67, &wdiff[v]) = wp - wm;
    *IRR_GST(68, &wmag[v]) = wp > wm ? wp : wm;
}
