/* host/algo/sp.c - survey propagation for random k-SAT (shared/papers/000:
 * Table I, Figure 6; shared/papers/002: SP rows) on any OpenCL device: the
 * surveys converge on the device, decimation and WalkSAT run on the host
 * (host/ref/sp_solve.c, the loop the serial reference runs too).
 *
 * Variants: topo sweeps every variable's products and every unsatisfied
 * clause's surveys each sweep until no survey moves more than --eps; data
 * keeps a worklist of variables whose products must change (a survey into
 * them moved more than eps in the last sweep, or decimation touched them):
 * a sweep recomputes their products, which push their clauses (each
 * once), then the surveys of those clauses, which push the variables whose
 * surveys drifted onto the next sweep's list, so a sweep costs what is on
 * the lists, not the formula. Two reads of the counters (the clause count,
 * then the sweep's counts) are its round trips. Both are synchronous (products from the previous sweep's
 * surveys), so topo computes what the serial engine does.
 *
 * Result: one value per variable (0 false, 1 true) and, after them, the
 * number of clauses the run counts satisfied (formula inputs have
 * variables + 1 items); the verifier recounts from the formula. */
#include "algo/input.h"
#include "algo/run.h"
#include "algo/sp.h"
#include "base/parallel.h"
#include "cl/sp.def"
#include "prim/prim.h"
#include "ref/sp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CLIRR_KARGS_STRUCT(sp_products_args, SP_PRODUCTS_ARGS);
CLIRR_KARGS_STRUCT(sp_update_args, SP_UPDATE_ARGS);
CLIRR_KARGS_STRUCT(sp_bias_args, SP_BIAS_ARGS);

enum { V_TOPO, V_DATA };
enum { P_EPS, P_MAX_ITER, P_FIX_FRACTION, P_WALKSAT_FLIPS, P_SEED, P_WALKSAT_THREADS };

typedef struct sp_session {
    clirr_ctx *ctx;
    const clirr_cnf *f;
    const clirr_cnf_factor *fg;
    sp_config cfg;
    bool data;
    cl_kernel kprod, kupd, kbias;  /* the context's; not released here */
    cl_mem clause_off, lit, var_off, var_edge, var_clause, var_neg;
    cl_mem eta, eta_seen, r, prod, clause_sat, var_state, wdiff, wmag, counters;
    cl_mem clause_stamp, var_stamp; /* data: which sweep last pushed a clause, a variable */
    cl_mem list[2], clauses;       /* data: the variable worklists of a sweep and the next; its clauses */
    uint32_t stamp;                /* data: the sweeps so far, the next stamp */
    float *eta0;                   /* the initial surveys, uploaded each trial */
    sp_outcome out;                /* the last trial's */
} sp_session;

/* --walksat-flips 0 (the default): at least 50M flips, 100 a variable on
 * larger formulas. Random 3-SAT at 4.2 left WalkSAT about 28 flips a
 * variable it was given after decimation (about half of them); a fixed
 * 50M stopped 3M- and 5M-variable formulas a few hundred clauses short
 * on the H100, 400M solved them. */
static uint64_t walksat_budget(uint64_t asked, uint32_t nvars)
{
    uint64_t scaled = 100 * (uint64_t)nvars;
    return asked ? asked : scaled > 50000000u ? scaled : 50000000u;
}

static void sp_config_from(const clirr_plan *plan, uint32_t nvars, sp_config *c)
{
    c->eps = plan->params.v[P_EPS].r;
    c->max_iter = (uint32_t)plan->params.v[P_MAX_ITER].u;
    c->fix_fraction = plan->params.v[P_FIX_FRACTION].r;
    c->walksat_flips = walksat_budget(plan->params.v[P_WALKSAT_FLIPS].u, nvars);
    c->seed = plan->params.v[P_SEED].u;
    c->walksat_threads = (unsigned)plan->params.v[P_WALKSAT_THREADS].u;
}

static void sp_release(void *state)
{
    sp_session *s = state;
    if (!s)
        return;
    cl_mem *mems[] = {&s->clause_off, &s->lit, &s->var_off, &s->var_edge, &s->var_clause, &s->var_neg,
                      &s->eta, &s->eta_seen, &s->r, &s->prod, &s->clause_sat,
                      &s->var_state, &s->wdiff, &s->wmag, &s->counters, &s->clause_stamp, &s->var_stamp,
                      &s->list[0], &s->list[1], &s->clauses};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        clirr_mem_release(mems[i]);
    free(s->eta0);
    free(s);
}

#define SET(k, tag, name, var) CLIRR_TRY(clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err))

static int launch(sp_session *s, cl_kernel k, size_t items, clirr_error *err)
{
    return clirr_launch(s->ctx, k, items, clirr_wg_size(s->ctx, k, 0), err);
}

/* Products of the n variables (of list when use_list); with stamp (data)
 * their clauses pushed onto s->clauses. */
static int products(sp_session *s, uint32_t n, uint32_t use_list, cl_mem list, uint32_t stamp, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->kprod;
    SET(k, sp_products_args, n, n);
    SET(k, sp_products_args, use_list, use_list);
    SET(k, sp_products_args, list, list);
    SET(k, sp_products_args, stamp, stamp);
    CLIRR_TRY(launch(s, k, n, err));
fail:
    return rc;
}

/* Surveys of the n clauses (of list when use_list); with stamp (data) the
 * variables whose surveys drifted pushed onto next. */
static int update(sp_session *s, uint32_t n, uint32_t use_list, cl_mem list, uint32_t stamp, cl_mem next,
                  clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->kupd;
    SET(k, sp_update_args, n, n);
    SET(k, sp_update_args, use_list, use_list);
    SET(k, sp_update_args, list, list);
    SET(k, sp_update_args, stamp, stamp);
    SET(k, sp_update_args, next, next);
    CLIRR_TRY(launch(s, k, n, err));
fail:
    return rc;
}

static int read_counts(sp_session *s, uint32_t counts[4], clirr_error *err)
{
    return clirr_buf_read(s->ctx, s->counters, 0, 4 * sizeof(uint32_t), counts, err);
}

static int upload_state(sp_session *s, const sp_state *st, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(clirr_buf_write(s->ctx, s->var_state, 0, s->f->nvars, st->var, err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->clause_sat, 0, s->f->nclauses, st->clause_sat, err));
fail:
    return rc;
}

static int topo_converge(sp_session *s, sp_sweeps *out, clirr_error *err)
{
    int rc = CLIRR_OK;
    while (out->sweeps < s->cfg.max_iter) {
        uint32_t counts[4];
        CLIRR_TRY(products(s, s->f->nvars, 0, s->counters, 0, err));
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->counters, 0, 4, 0, err));
        CLIRR_TRY(update(s, s->f->nclauses, 0, s->counters, 0, s->counters, err));
        CLIRR_TRY(read_counts(s, counts, err));
        out->sweeps++;
        out->surveys += counts[1];
        if (counts[0] == 0) {
            out->converged = true;
            break;
        }
    }
fail:
    return rc;
}

/* Sweeps over the worklist: the listed variables' products, which push
 * their clauses; the surveys of those clauses, which push the variables
 * whose surveys drifted onto the other list. The first convergence lists
 * every variable. */
static int data_converge(sp_session *s, const sp_state *st, sp_sweeps *out, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t nv = st->ndirty, use_list = 1, cur = 0;
    if (st->first) {
        nv = s->f->nvars;
        use_list = 0;
    } else if (nv) {
        CLIRR_TRY(clirr_buf_write(s->ctx, s->list[0], 0, (size_t)nv * sizeof(uint32_t), st->dirty, err));
    }
    for (;;) {
        if (nv == 0) {
            out->converged = true; /* no product waits for a survey that moved */
            break;
        }
        if (out->sweeps == s->cfg.max_iter)
            break;
        uint32_t counts[4], stamp = ++s->stamp;
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->counters, 0, 4, 0, err));
        CLIRR_TRY(products(s, nv, use_list, s->list[cur], stamp, err));
        CLIRR_TRY(read_counts(s, counts, err));
        CLIRR_TRY(update(s, counts[3], 1, s->clauses, stamp, s->list[cur ^ 1], err));
        CLIRR_TRY(read_counts(s, counts, err));
        out->sweeps++;
        out->surveys += counts[1];
        nv = counts[2];
        cur ^= 1;
        use_list = 1;
        if (counts[0] == 0) {
            /* topo's test: no survey moved more than eps in this sweep
             * (products that drifted by small moves may be left listed). */
            out->converged = true;
            break;
        }
    }
fail:
    return rc;
}

static int device_converge(void *self, const sp_state *st, sp_sweeps *out, clirr_error *err)
{
    sp_session *s = self;
    memset(out, 0, sizeof *out);
    int rc = upload_state(s, st, err);
    if (rc != CLIRR_OK)
        return rc;
    return s->data ? data_converge(s, st, out, err) : topo_converge(s, out, err);
}

static int device_biases(void *self, const sp_state *st, float *diff, float *mag, clirr_error *err)
{
    (void)st;
    int rc = CLIRR_OK;
    sp_session *s = self;
    uint32_t n = s->f->nvars;
    /* data: the products now hold the current surveys, which eta_seen
     * records under a fresh stamp (the clauses it pushes are not read). */
    if (s->data)
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->counters, 0, 4, 0, err));
    CLIRR_TRY(products(s, n, 0, s->counters, s->data ? ++s->stamp : 0, err));
    SET(s->kbias, sp_bias_args, n, n);
    CLIRR_TRY(launch(s, s->kbias, n, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->wdiff, 0, (size_t)n * sizeof(float), diff, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->wmag, 0, (size_t)n * sizeof(float), mag, err));
fail:
    return rc;
}

static int buffer(sp_session *s, const char *what, size_t bytes, const void *data, cl_mem *mem, clirr_error *err)
{
    int rc = clirr_buf_create(s->ctx, what, bytes, mem, err);
    if (rc == CLIRR_OK && data)
        rc = clirr_buf_write(s->ctx, *mem, 0, bytes, data, err);
    return rc;
}

/* The device's literal and slot arrays over edges [lo, hi) (on the
 * host's threads: at a million variables these gathers were a good part
 * of the preparation). */
typedef struct slots_part {
    const clirr_cnf *f;
    const clirr_cnf_factor *fg;
    uint32_t *lit, *vclause;
    uint8_t *vneg;
    uint32_t lo, hi;
} slots_part;

static void slots_range(void *arg)
{
    const slots_part *p = arg;
    const int32_t *lits = p->f->lits;
    for (uint32_t e = p->lo; e < p->hi; e++)
        p->lit[e] = lits[e] > 0 ? (uint32_t)lits[e] - 1 : ((uint32_t)-lits[e] - 1) | 0x80000000u;
    for (uint32_t k = p->lo; k < p->hi; k++) {
        uint32_t e = p->fg->var_edge[k];
        p->vclause[k] = p->fg->edge_clause[e];
        p->vneg[k] = lits[e] < 0;
    }
}

/* The factor graph on the device: clause -> literal CSR (the signs in the
 * literals' top bit) and variable -> slot CSR whose slots hold the edge,
 * its clause and its sign in variable order (cl/sp.def). */
static int upload_graph(sp_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_cnf *f = s->f;
    size_t L = f->nlits, V = f->nvars, C = f->nclauses;
    uint32_t *lit = malloc((L + 1) * sizeof *lit), *vclause = malloc((L + 1) * sizeof *vclause);
    uint8_t *vneg = malloc(L + 1);
    if (!lit || !vclause || !vneg) {
        free(lit);
        free(vclause);
        free(vneg);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the device literals");
    }
    unsigned parts = clirr_host_threads(L, 1u << 20, "CLIRR_HOST_THREADS");
    slots_part part[CLIRR_MAX_PARTS];
    for (unsigned i = 0; i < parts; i++) {
        part[i] = (slots_part){f, s->fg, lit, vclause, vneg, 0, 0};
        clirr_part_bounds(L, parts, i, &part[i].lo, &part[i].hi);
    }
    clirr_run_parts(parts, slots_range, part, sizeof part[0]);
    CLIRR_TRY(buffer(s, "the clause offsets", (C + 1) * 4, f->clause_off, &s->clause_off, err));
    CLIRR_TRY(buffer(s, "the literals", L * 4, lit, &s->lit, err));
    CLIRR_TRY(buffer(s, "the variable offsets", (V + 1) * 4, s->fg->var_off, &s->var_off, err));
    CLIRR_TRY(buffer(s, "the variable edges", L * 4, s->fg->var_edge, &s->var_edge, err));
    CLIRR_TRY(buffer(s, "the slot clauses", L * 4, vclause, &s->var_clause, err));
    CLIRR_TRY(buffer(s, "the slot signs", L, vneg, &s->var_neg, err));
fail:
    free(lit);
    free(vclause);
    free(vneg);
    return rc;
}

static int sp_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    sp_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->f = clirr_input_cnf(in);
    s->data = plan->variant == V_DATA;
    sp_config_from(plan, s->f->nvars, &s->cfg);
    CLIRR_TRY(clirr_input_cnf_factor(in, &s->fg, err));
    size_t L = s->f->nlits, V = s->f->nvars, C = s->f->nclauses;
    CLIRR_TRY(clirr_prim_prepare(ctx, err));
    /* The worklist stage: half the work-group's local memory at most. */
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    uint64_t stage = caps->local_mem / 8 < 1024 ? caps->local_mem / 8 : 1024;
    /* Divisions correctly rounded where the device offers it: NVIDIA's
     * default single-precision division is approximate, and with it the
     * first round of a 2M-variable random 3-SAT formula never converged
     * on the H100 (1,000 sweeps), where the serial engine, PoCL and the
     * H100 with exact division take 80-108. */
    char options[96];
    snprintf(options, sizeof options, "-DSP_STAGE=%u%s", (unsigned)(stage ? stage : 1),
             caps->fp32_exact_divide ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
    CLIRR_TRY(clirr_program_get(ctx, "sp.cl", options, &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "sp_products", CLIRR_KNARGS(sp_products_args), &s->kprod, err));
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "sp_update", CLIRR_KNARGS(sp_update_args), &s->kupd, err));
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "sp_bias", CLIRR_KNARGS(sp_bias_args), &s->kbias, err));
    CLIRR_TRY(upload_graph(s, err));
    CLIRR_TRY(buffer(s, "the surveys", L * 4, NULL, &s->eta, err));
    CLIRR_TRY(buffer(s, "the survey scratch", L * 4, NULL, &s->r, err));
    CLIRR_TRY(buffer(s, "the products", V * 16, NULL, &s->prod, err));
    CLIRR_TRY(buffer(s, "the clause states", C, NULL, &s->clause_sat, err));
    CLIRR_TRY(buffer(s, "the variable states", V, NULL, &s->var_state, err));
    CLIRR_TRY(buffer(s, "the bias differences", V * 4, NULL, &s->wdiff, err));
    CLIRR_TRY(buffer(s, "the bias magnitudes", V * 4, NULL, &s->wmag, err));
    CLIRR_TRY(buffer(s, "the sweep counters", 4 * 4, NULL, &s->counters, err));
    if (s->data) {
        CLIRR_TRY(buffer(s, "the surveys the products hold", L * 4, NULL, &s->eta_seen, err));
        CLIRR_TRY(buffer(s, "the clause stamps", C * 4, NULL, &s->clause_stamp, err));
        CLIRR_TRY(buffer(s, "the variable stamps", V * 4, NULL, &s->var_stamp, err));
        CLIRR_TRY(buffer(s, "the variable worklist", V * 4, NULL, &s->list[0], err));
        CLIRR_TRY(buffer(s, "the next variable worklist", V * 4, NULL, &s->list[1], err));
        CLIRR_TRY(buffer(s, "the clause worklist", C * 4, NULL, &s->clauses, err));
        CLIRR_TRY(clirr_prim_fill_u32(ctx, s->clause_stamp, 0, C, 0, err));
        CLIRR_TRY(clirr_prim_fill_u32(ctx, s->var_stamp, 0, V, 0, err));
    } else {
        /* Products recomputed every sweep hold the current surveys: the
         * surveys stand in for eta_seen, and the counters for the
         * worklists and stamps that topo's launches (stamp 0, no list)
         * never touch (references released with the session). */
        s->eta_seen = s->eta;
        clRetainMemObject(s->eta);
        cl_mem *unused[] = {&s->clause_stamp, &s->var_stamp, &s->list[0], &s->list[1], &s->clauses};
        for (size_t i = 0; i < sizeof unused / sizeof unused[0]; i++) {
            *unused[i] = s->counters;
            clRetainMemObject(s->counters);
        }
    }
    if (!(s->eta0 = malloc((L + 1) * sizeof *s->eta0)))
        CLIRR_TRY(clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the initial surveys"));
    for (uint32_t e = 0; e < L; e++)
        s->eta0[e] = clirr_sp_initial_survey(s->cfg.seed, e);
    /* Every argument but the counts and switches, once. */
    cl_kernel k = s->kprod;
    SET(k, sp_products_args, var_off, s->var_off);
    SET(k, sp_products_args, var_edge, s->var_edge);
    SET(k, sp_products_args, var_clause, s->var_clause);
    SET(k, sp_products_args, var_neg, s->var_neg);
    SET(k, sp_products_args, eta, s->eta);
    SET(k, sp_products_args, eta_seen, s->eta_seen);
    SET(k, sp_products_args, clause_sat, s->clause_sat);
    SET(k, sp_products_args, var_state, s->var_state);
    SET(k, sp_products_args, prod, s->prod);
    SET(k, sp_products_args, clause_stamp, s->clause_stamp);
    SET(k, sp_products_args, clauses, s->clauses);
    SET(k, sp_products_args, counters, s->counters);
    k = s->kupd;
    float eps = (float)s->cfg.eps;
    SET(k, sp_update_args, clause_off, s->clause_off);
    SET(k, sp_update_args, lit, s->lit);
    SET(k, sp_update_args, eta, s->eta);
    SET(k, sp_update_args, eta_seen, s->eta_seen);
    SET(k, sp_update_args, r, s->r);
    SET(k, sp_update_args, prod, s->prod);
    SET(k, sp_update_args, clause_sat, s->clause_sat);
    SET(k, sp_update_args, var_state, s->var_state);
    SET(k, sp_update_args, eps, eps);
    SET(k, sp_update_args, var_stamp, s->var_stamp);
    SET(k, sp_update_args, counters, s->counters);
    k = s->kbias;
    SET(k, sp_bias_args, prod, s->prod);
    SET(k, sp_bias_args, var_state, s->var_state);
    SET(k, sp_bias_args, wdiff, s->wdiff);
    SET(k, sp_bias_args, wmag, s->wmag);
    *out = s;
    return CLIRR_OK;
fail:
    sp_release(s);
    return rc;
}

/* One trial: the initial surveys, then decimation with this device's
 * engine, then WalkSAT. */
static int sp_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    sp_session *s = state;
    uint32_t *value = result;
    CLIRR_TRY(clirr_buf_write(s->ctx, s->eta, 0, (size_t)s->f->nlits * sizeof(float), s->eta0, err));
    sp_engine eng = {s, device_converge, device_biases};
    CLIRR_TRY(clirr_sp_solve(s->f, s->fg, &s->cfg, &eng, value, &s->out, err));
    value[s->f->nvars] = s->f->nclauses - s->out.unsatisfied;
    stats->iterations = s->out.sweeps_total ? (uint32_t)s->out.sweeps_total : 1;
    stats->reached = value[s->f->nvars];
    stats->edges_traversed = s->out.surveys_total;
fail:
    return rc;
}

static void sp_extras(void *state, const void *result, clirr_extras *x)
{
    const sp_session *s = state;
    const sp_outcome *o = &s->out;
    uint32_t sat = ((const uint32_t *)result)[s->f->nvars];
    clirr_extras_add(x, "clauses", CLIRR_EXTRA_UINT)->u = s->f->nclauses;
    clirr_extra *e = clirr_extras_add(x, "satisfied", CLIRR_EXTRA_UINT);
    e->u = sat;
    e->in_table = true;
    e = clirr_extras_add(x, "solved", CLIRR_EXTRA_BOOL);
    e->b = sat == s->f->nclauses;
    e->in_table = true;
    clirr_extras_add(x, "rounds", CLIRR_EXTRA_UINT)->u = o->rounds;
    /* The first rounds only, as many as the lists hold; a round that ended
     * decimation (paramagnetic, not converged) fixed nothing. */
    uint32_t most = SP_ROUNDS_KEPT < CLIRR_MAX_EXTRA_LIST ? SP_ROUNDS_KEPT : CLIRR_MAX_EXTRA_LIST;
    uint32_t fixing = o->rounds - (o->end == SP_END_PARAMAGNETIC || o->end == SP_END_UNCONVERGED);
    e = clirr_extras_add(x, "sweeps_per_round", CLIRR_EXTRA_UINTS);
    e->nlist = o->rounds < most ? o->rounds : most;
    memcpy(e->list, o->sweeps, e->nlist * sizeof e->list[0]);
    e = clirr_extras_add(x, "fixed_per_round", CLIRR_EXTRA_UINTS);
    e->nlist = fixing < most ? fixing : most;
    memcpy(e->list, o->fixed, e->nlist * sizeof e->list[0]);
    e = clirr_extras_add(x, "walksat", CLIRR_EXTRA_BOOL);
    e->b = o->walksat_ran;
    e->in_table = true;
    clirr_extras_add(x, "walksat_flips", CLIRR_EXTRA_UINT)->u = o->flips;
    clirr_extras_add(x, "surveys_updated", CLIRR_EXTRA_UINT)->u = o->surveys_total;
    clirr_extras_add(x, "sp_end", CLIRR_EXTRA_TEXT)->text = clirr_sp_end_name(o->end);
    clirr_extras_add(x, "sp_ms", CLIRR_EXTRA_REAL)->r = o->sp_ns / 1e6;
    clirr_extras_add(x, "walksat_ms", CLIRR_EXTRA_REAL)->r = o->walksat_ns / 1e6;
}

static int sp_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    sp_config cfg;
    sp_config_from(plan, clirr_input_cnf(in)->nvars, &cfg);
    const clirr_cnf_factor *fg;
    int rc = clirr_input_cnf_factor(in, &fg, err);
    if (rc != CLIRR_OK)
        return rc;
    sp_outcome o;
    return clirr_ref_sp(clirr_input_cnf(in), fg, &cfg, out, &o, err);
}

static bool sp_verify(const clirr_input *in, const clirr_plan *plan, const void *expected, const void *got,
                      clirr_verify_report *r)
{
    (void)plan;
    (void)expected;
    return clirr_verify_sp(clirr_input_cnf(in), got, r);
}

/* Line i: the value of variable i + 1. */
static int sp_write(void *state, const void *result, FILE *f, clirr_error *err)
{
    const sp_session *s = state;
    const uint32_t *value = result;
    for (uint32_t v = 0; v < s->f->nvars; v++)
        if (fputs(value[v] ? "1\n" : "0\n", f) == EOF)
            return clirr_fail(err, CLIRR_ERR_IO, "writing the assignment failed");
    return CLIRR_OK;
}

static const clirr_param_desc sp_params[] = {
    [P_EPS] = {"eps", CLIRR_PARAM_REAL, "0.001", 1e-9, 1,
               "surveys have converged when no survey moves more in a sweep"},
    [P_MAX_ITER] = {"max-iter", CLIRR_PARAM_UINT, "1000", 1, 1e9,
                    "sweeps per decimation round at most (then WalkSAT takes over)"},
    [P_FIX_FRACTION] = {"fix-fraction", CLIRR_PARAM_REAL, "0.01", 0, 1,
                        "fraction of all variables fixed per round, most biased first (LonestarGPU's 1%; "
                        "at least one)"},
    [P_WALKSAT_FLIPS] = {"walksat-flips", CLIRR_PARAM_UINT, "0", 0, 1e15,
                         "WalkSAT's flip budget for what decimation leaves; 0: 100 a variable of the "
                         "formula, at least 50,000,000"},
    [P_SEED] = {"sp-seed", CLIRR_PARAM_UINT, "1", 0, 1e15, "seed of the initial surveys and of WalkSAT"},
    [P_WALKSAT_THREADS] = {"walksat-threads", CLIRR_PARAM_UINT, "0", 0, 64,
                           "host threads of WalkSAT: 1 walks serially (the same result for a seed every "
                           "run), 2 or more walk one walk together (faster, the assignment differs from "
                           "run to run); 0: the host's cores when 100,000 or more clauses are left, else 1"},
};

static const clirr_variant_desc sp_variants[] = {
    [V_TOPO] = {"topo", "every variable's products and every clause's surveys each sweep", false},
    [V_DATA] = {"data", "a worklist of variables whose surveys drifted: their products, which push their "
                        "clauses, then those clauses' surveys, which push the next sweep's list", false},
};

const clirr_algo clirr_algo_sp = {
    .name = "sp",
    .summary = "survey propagation with decimation and WalkSAT: an assignment of a SAT formula",
    .study = "shared/papers/000 (Table I, Figure 6), shared/papers/002 (SP)",
    .input = CLIRR_INPUT_CNF,
    .variants = sp_variants,
    .nvariants = sizeof sp_variants / sizeof sp_variants[0],
    .default_variant = V_DATA,
    .params = sp_params,
    .nparams = sizeof sp_params / sizeof sp_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .value_size = sizeof(uint32_t),
    .prepare = sp_prepare,
    .run = sp_run,
    .release = sp_release,
    .reference = sp_reference,
    .verify = sp_verify,
    .write_result = sp_write,
    .extras = sp_extras,
};

int clirr_sp_device_converge_once(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, float *eta,
                                  sp_sweeps *sw, clirr_error *err)
{
    void *state = NULL;
    int rc = sp_prepare(ctx, in, plan, &state, err);
    if (rc != CLIRR_OK)
        return rc;
    sp_session *s = state;
    const clirr_cnf *f = s->f;
    sp_state st = {.f = f, .fg = s->fg, .first = true};
    st.var = malloc(f->nvars);
    st.clause_sat = calloc(f->nclauses, 1);
    if (!st.var || !st.clause_sat) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    memset(st.var, SP_FREE, f->nvars);
    CLIRR_TRY(clirr_buf_write(ctx, s->eta, 0, (size_t)f->nlits * sizeof(float), s->eta0, err));
    CLIRR_TRY(device_converge(s, &st, sw, err));
    CLIRR_TRY(clirr_buf_read(ctx, s->eta, 0, (size_t)f->nlits * sizeof(float), eta, err));
fail:
    free(st.var);
    free(st.clause_sat);
    sp_release(s);
    return rc;
}
