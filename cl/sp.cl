/* cl/sp.cl - survey propagation on the factor graph of a SAT formula
 * (shared/papers/000 Table I and Figure 6, 002's SP rows). The equations
 * and their order are host/ref/sp.h's: a sweep is sp_products over the
 * variables, then sp_update over the clauses (Jacobi: every survey of a
 * sweep from the previous sweep's products), so the serial engine of
 * host/ref/sp.c computes the same floats in the same order. A clause takes
 * its own factor out of a variable's product by dividing by the survey the
 * product read (eta_seen), which is the current one in a topology-driven
 * sweep and may be older in a data-driven one. Host side:
 * host/algo/sp.c; parameters: cl/sp.def.
 *
 * No kernel waits on another work-group; the only atomics are the
 * per-work-group sums of the counters (local first, one global add per
 * work-group). Flags are plain stores of 1 (idempotent). Floating-point
 * contraction is off so that no fused multiply-add separates a device's
 * surveys from the serial ones. */
#include "common/compat.clh"
#include "common/kargs.h"
#include "sp.def"

#pragma OPENCL FP_CONTRACT OFF

#define SP_FREE 2
#define NEG_BIT 0x80000000u

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
        uint e = var_edge[k], c = edge_clause[e];
        if (clause_sat[c])
            continue;
        if (mark)
            clause_active[c] = 1;
        float seen = eta[e];
        eta_seen[e] = seen;
        float m = 1.0f - seen;
        if (!(lit[e] & NEG_BIT)) {
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
    pp[v] = p;
    pn[v] = q;
    zp[v] = z0;
    zn[v] = z1;
}

kernel void sp_update(CLIRR_KPARAMS(SP_UPDATE_ARGS))
{
    __local uint moved_wg, surveys_wg;
    uint i = get_global_id(0);
    if (get_local_id(0) == 0)
        moved_wg = surveys_wg = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        uint c = use_list ? list[i] : i;
        if (!clause_sat[c]) {
            uint b = clause_off[c], end = clause_off[c + 1], moved = 0, computed = 0;
            for (uint e = b; e < end; e++) {
                uint l = lit[e], j = l & ~NEG_BIT;
                if (var_state[j] != SP_FREE)
                    continue;
                bool pos = !(l & NEG_BIT);
                float own = 1.0f - eta_seen[e];
                float ps = pos ? pp[j] : pn[j], pu = pos ? pn[j] : pp[j];
                uint zs = pos ? zp[j] : zn[j], zu = pos ? zn[j] : zp[j];
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
                moved += fabs(s - eta[e]) > eps;
                /* Drift from what i's product holds, not from the last
                 * sweep: small moves add up and are not lost. */
                if (mark && fabs(s - eta_seen[e]) > eps)
                    var_dirty[i] = 1;
                eta[e] = s;
                computed++;
            }
            if (moved)
                atomic_add(&moved_wg, moved);
            atomic_add(&surveys_wg, computed);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        if (moved_wg)
            atomic_add(&counters[0], moved_wg);
        if (surveys_wg)
            atomic_add(&counters[1], surveys_wg);
    }
}

kernel void sp_bias(CLIRR_KPARAMS(SP_BIAS_ARGS))
{
    uint v = get_global_id(0);
    if (v >= n || var_state[v] != SP_FREE)
        return;
    float P = zp[v] ? 0.0f : pp[v], N = zn[v] ? 0.0f : pn[v];
    float pi_p = (1.0f - P) * N, pi_m = (1.0f - N) * P, pi_0 = P * N;
    float sum = pi_p + pi_m + pi_0;
    float wp = sum > 0.0f ? pi_p / sum : 0.0f, wm = sum > 0.0f ? pi_m / sum : 0.0f;
    wdiff[v] = wp - wm;
    wmag[v] = wp > wm ? wp : wm;
}
