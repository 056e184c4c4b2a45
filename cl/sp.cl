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
 * ones. */
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

kernel void sp_products(CLIRR_KPARAMS(SP_PRODUCTS_ARGS))
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint v = use_list ? list[i] : i;
    if (var_state[v] != SP_FREE)
        return;
    float p = 1.0f, q = 1.0f;
    uint z0 = 0, z1 = 0;
    for (uint k = var_off[v]; k < var_off[v + 1]; k++) {
        if (clause_sat[var_clause[k]])
            continue;
        uint e = var_edge[k];
        float seen = eta[e];
        if (keep_seen)
            eta_seen[e] = seen;
        float m = 1.0f - seen;
        if (!var_neg[k]) {
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
    prod[v] = (float4)(p, q, (float)z0, (float)z1);
}

/* Push variable i onto the next worklist through the work-group's stage. */
static void push(uint i, volatile __local uint *stage_n, __local uint *stage, __global uint *next,
                 volatile __global uint *counters)
{
    uint slot = atomic_inc(stage_n);
    if (slot < SP_STAGE)
        stage[slot] = i;
    else
        next[atomic_inc(&counters[2])] = i;
}

/* New surveys of unsatisfied clause c; returns how many were computed and
 * adds to *moved those that moved more than eps. With pushing, each free
 * variable whose survey is now more than eps from the one its product
 * holds goes onto next, once per stamp. */
static uint survey_clause(uint c, uint *moved, bool pushing, uint stamp, volatile __global uint *var_stamp,
                          volatile __local uint *stage_n, __local uint *stage, __global uint *next,
                          CLIRR_KPARAMS(SP_SURVEY_ARGS))
{
    uint b = clause_off[c], end = clause_off[c + 1], computed = 0;
    for (uint e = b; e < end; e++) {
        uint l = lit[e], j = l & ~NEG_BIT;
        if (var_state[j] != SP_FREE)
            continue;
        bool pos = !(l & NEG_BIT);
        float own = 1.0f - eta_seen[e];
        float4 pj = prod[j];
        float ps = pos ? pj.x : pj.y, pu = pos ? pj.y : pj.x;
        uint zs = (uint)(pos ? pj.z : pj.w), zu = (uint)(pos ? pj.w : pj.z);
        if (own == 0.0f)
            zs--;
        else
            ps /= own;
        float Ps = zs ? 0.0f : ps, Pu = zu ? 0.0f : pu;
        float pi_u = (1.0f - Pu) * Ps, pi_s = (1.0f - Ps) * Pu, pi_0 = Ps * Pu;
        float sum = pi_u + pi_s + pi_0;
        r[e] = sum > 0.0f ? pi_u / sum : 0.0f;
    }
    for (uint e = b; e < end; e++) {
        uint i = lit[e] & ~NEG_BIT;
        if (var_state[i] != SP_FREE)
            continue;
        float s = 1.0f;
        for (uint q = b; q < end; q++)
            if (q != e && var_state[lit[q] & ~NEG_BIT] == SP_FREE)
                s *= r[q];
        *moved += fabs(s - eta[e]) > eps;
        /* Drift from what i's product holds, not the move of this sweep:
         * small moves add up and are not lost. */
        if (pushing && fabs(s - eta_seen[e]) > eps && atomic_xchg(&var_stamp[i], stamp) != stamp)
            push(i, stage_n, stage, next, counters);
        eta[e] = s;
        computed++;
    }
    return computed;
}

/* Adds the work-group's sums to counters[0] and [1] (every work-item
 * calls it). */
static void add_counts(uint moved, uint computed, volatile __local uint *moved_wg, volatile __local uint *surveys_wg,
                       volatile __global uint *counters)
{
    if (moved)
        atomic_add(moved_wg, moved);
    if (computed)
        atomic_add(surveys_wg, computed);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        if (*moved_wg)
            atomic_add(&counters[0], *moved_wg);
        if (*surveys_wg)
            atomic_add(&counters[1], *surveys_wg);
    }
}

kernel void sp_update(CLIRR_KPARAMS(SP_UPDATE_ARGS))
{
    __local uint moved_wg, surveys_wg;
    uint c = get_global_id(0), moved = 0, computed = 0;
    if (get_local_id(0) == 0)
        moved_wg = surveys_wg = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (c < n && !clause_sat[c])
        computed = survey_clause(c, &moved, false, 0, 0, 0, 0, 0, SP_SURVEY_NAMES);
    add_counts(moved, computed, &moved_wg, &surveys_wg, counters);
}

kernel void sp_update_near(CLIRR_KPARAMS(SP_UPDATE_NEAR_ARGS))
{
    __local uint moved_wg, surveys_wg, stage_n, base;
    __local uint stage[SP_STAGE];
    uint i = get_global_id(0), moved = 0, computed = 0;
    if (get_local_id(0) == 0)
        moved_wg = surveys_wg = stage_n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        uint v = use_list ? list[i] : i;
        if (var_state[v] == SP_FREE) {
            for (uint k = var_off[v]; k < var_off[v + 1]; k++) {
                uint c = var_clause[k];
                if (clause_sat[c] || atomic_xchg(&clause_stamp[c], stamp) == stamp)
                    continue;
                computed += survey_clause(c, &moved, true, stamp, var_stamp, &stage_n, stage, next,
                                          SP_SURVEY_NAMES);
            }
        }
    }
    add_counts(moved, computed, &moved_wg, &surveys_wg, counters);
    /* The stage onto next: one reservation for the work-group. */
    barrier(CLK_LOCAL_MEM_FENCE);
    uint staged = stage_n < SP_STAGE ? stage_n : SP_STAGE;
    if (get_local_id(0) == 0)
        base = staged ? atomic_add(&counters[2], staged) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = get_local_id(0); j < staged; j += get_local_size(0))
        next[base + j] = stage[j];
}

kernel void sp_bias(CLIRR_KPARAMS(SP_BIAS_ARGS))
{
    uint v = get_global_id(0);
    if (v >= n || var_state[v] != SP_FREE)
        return;
    float4 pv = prod[v];
    float P = pv.z != 0.0f ? 0.0f : pv.x, N = pv.w != 0.0f ? 0.0f : pv.y;
    float pi_p = (1.0f - P) * N, pi_m = (1.0f - N) * P, pi_0 = P * N;
    float sum = pi_p + pi_m + pi_0;
    float wp = sum > 0.0f ? pi_p / sum : 0.0f, wm = sum > 0.0f ? pi_m / sum : 0.0f;
    wdiff[v] = wp - wm;
    wmag[v] = wp > wm ? wp : wm;
}
