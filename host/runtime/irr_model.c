/* host/runtime/irr_model.c - the SIMT model behind `clirr profile`: the
 * records of one launch, grouped into the instances a W-wide SIMD unit
 * would issue, counted as divergent branches, replayed accesses, active
 * lanes and moved bytes (include/clirr/irregularity.h states the model).
 *
 * Two stable radix sorts: by (work-group, local id, site), which numbers
 * every work-item's executions of each site (its occurrence), then by
 * (work-group, local id / W, site, occurrence), which puts the lanes of
 * one dynamic instance side by side. An instance never spans two lane
 * groups (W-wide groups of one work-group), so large launches are split by
 * lane group over threads, each sorting and counting its share, and the
 * counts are added: a launch of one large work-group (the local-rounds
 * kernels run a whole traversal so) is split as well as one of many. */
#include "base/parallel.h"
#include "runtime/irr.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct irr_event {
    uint32_t wg, lid, site, kind_size;
    uint64_t value;
    uint32_t occ;
    uint32_t lane_group; /* lid / W */
} irr_event;

/* Stable LSD radix sort of ev[0..n) by one 32-bit field (at byte offset
 * off), RADIX_BITS a pass and only the passes its largest value needs; tmp
 * has room for n. The sorted events end in *ev (the two pointers swap). */
#define RADIX_BITS 11
#define RADIX_BUCKETS (1u << RADIX_BITS)

static uint32_t field(const irr_event *e, size_t off)
{
    uint32_t v;
    memcpy(&v, (const char *)e + off, sizeof v);
    return v;
}

static int radix_by(irr_event **ev, irr_event **tmp, size_t n, size_t off)
{
    uint32_t bits = 0;
    for (size_t i = 0; i < n; i++)
        bits |= field(&(*ev)[i], off);
    size_t *count = malloc((RADIX_BUCKETS + 1) * sizeof *count);
    if (!count)
        return CLIRR_ERR_NOMEM;
    for (unsigned shift = 0; shift < 32 && bits >> shift; shift += RADIX_BITS) {
        memset(count, 0, (RADIX_BUCKETS + 1) * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(field(&(*ev)[i], off) >> shift & (RADIX_BUCKETS - 1)) + 1]++;
        for (unsigned b = 0; b < RADIX_BUCKETS; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            (*tmp)[count[field(&(*ev)[i], off) >> shift & (RADIX_BUCKETS - 1)]++] = (*ev)[i];
        irr_event *t = *ev;
        *ev = *tmp;
        *tmp = t;
    }
    free(count);
    return CLIRR_OK;
}

/* Ascending order of v[0..n) (n is at most a few W: insertion sort). */
static void sort_small(uint64_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Distinct values among v[0..n) (sorts v). */
static size_t distinct(uint64_t *v, size_t n)
{
    sort_small(v, n);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* The S-byte segments the lanes of one global instance touch. */
static uint64_t segments(const irr_event *e, size_t n, uint32_t segment, uint64_t *scratch)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t size = e[i].kind_size >> 8;
        uint64_t first = e[i].value / segment, last = (e[i].value + (size ? size : 1) - 1) / segment;
        scratch[m++] = first;
        if (last != first)
            scratch[m++] = last; /* an access wider than the alignment spans two */
    }
    return distinct(scratch, m);
}

/* The most distinct 4-byte words that one of `banks` banks serves in one
 * local instance (1 = no conflict). */
static uint64_t bank_depth(const irr_event *e, size_t n, uint32_t banks, uint64_t *scratch)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t size = e[i].kind_size >> 8;
        uint64_t w0 = e[i].value / 4, w1 = (e[i].value + (size ? size : 1) - 1) / 4;
        for (uint64_t w = w0; w <= w1 && w - w0 < 4; w++)
            scratch[m++] = (w % banks) << 48 | (w & 0xffffffffffffu);
    }
    sort_small(scratch, m);
    uint64_t best = 0, run = 0;
    for (size_t i = 0; i < m; i++) {
        if (i > 0 && scratch[i] == scratch[i - 1])
            continue; /* the same word again: a broadcast, no extra cycle */
        run = i > 0 && scratch[i] >> 48 == scratch[i - 1] >> 48 ? run + 1 : 1;
        best = run > best ? run : best;
    }
    return best;
}

static int count_instance(const irr_event *e, size_t n, uint32_t segment, uint32_t banks,
                          uint64_t *scratch, clirr_irr_kernel *k, clirr_error *err)
{
    uint32_t kind = e[0].kind_size & 0xff;
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += e[i].kind_size >> 8;
    k->lanes += n;
    switch (kind) {
    case IRR_K_BRANCH: {
        size_t taken = 0;
        for (size_t i = 0; i < n; i++)
            taken += e[i].value != 0;
        k->branches++;
        k->divergent += taken > 0 && taken < n;
        return CLIRR_OK;
    }
    case IRR_K_GLD:
    case IRR_K_GST:
    case IRR_K_GAT: {
        uint64_t segs = segments(e, n, segment, scratch);
        k->gmem++;
        k->gmem_replays += segs - 1;
        if (kind == IRR_K_GLD) {
            k->gld++;
            k->gld_requested += bytes;
            k->gld_moved += segs * segment;
        } else {
            k->gst++;
            k->gst_requested += bytes;
            k->gst_moved += segs * segment;
        }
        return CLIRR_OK;
    }
    case IRR_K_LLD:
    case IRR_K_LST:
    case IRR_K_LAT:
        k->lmem++;
        k->lmem_replays += bank_depth(e, n, banks, scratch) - 1;
        return CLIRR_OK;
    default:
        return clirr_fail(err, CLIRR_ERR_INPUT, "irregularity record of unknown kind %u", kind);
    }
}

/* Sort and count one share of the events (whole lane groups, in record
 * order) into k. Stable radix sorts: by (work-group, local id, site), which
 * keeps each work-item's executions of a site in order and so numbers its
 * occurrences; then by (work-group, lane group, site, occurrence), which
 * makes every instance's lanes adjacent. */
static int fold_share(irr_event *ev, irr_event *tmp, size_t n, uint32_t simd_width, uint32_t segment,
                      uint32_t banks, clirr_irr_kernel *k, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (n == 0)
        return CLIRR_OK;
    static const size_t by_lane[] = {offsetof(irr_event, site), offsetof(irr_event, lid),
                                     offsetof(irr_event, wg)};
    static const size_t by_instance[] = {offsetof(irr_event, occ), offsetof(irr_event, site),
                                         offsetof(irr_event, lane_group), offsetof(irr_event, wg)};
    for (size_t f = 0; f < 3 && rc == CLIRR_OK; f++)
        rc = radix_by(&ev, &tmp, n, by_lane[f]);
    for (size_t i = 0; i < n && rc == CLIRR_OK; i++) {
        bool same = i > 0 && ev[i].wg == ev[i - 1].wg && ev[i].lid == ev[i - 1].lid &&
                    ev[i].site == ev[i - 1].site;
        ev[i].occ = same ? ev[i - 1].occ + 1 : 0;
    }
    for (size_t f = 0; f < 4 && rc == CLIRR_OK; f++)
        rc = radix_by(&ev, &tmp, n, by_instance[f]);
    if (rc != CLIRR_OK)
        return clirr_fail(err, rc, "out of memory sorting irregularity records");
    /* An instance has at most W lanes, each touching at most 4 words. */
    uint64_t *scratch = malloc(4 * (size_t)simd_width * sizeof *scratch);
    if (!scratch)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && ev[j].wg == ev[i].wg && ev[j].lane_group == ev[i].lane_group &&
               ev[j].site == ev[i].site && ev[j].occ == ev[i].occ)
            j++;
        k->lane_slots += simd_width;
        rc = count_instance(ev + i, j - i, segment, banks, scratch, k, err);
        if (rc != CLIRR_OK)
            break;
        i = j;
    }
    k->records += rc == CLIRR_OK ? n : 0;
    free(scratch);
    return rc;
}

static void add_counts(clirr_irr_kernel *k, const clirr_irr_kernel *p)
{
    k->records += p->records;
    k->branches += p->branches;
    k->divergent += p->divergent;
    k->gmem += p->gmem;
    k->gmem_replays += p->gmem_replays;
    k->lmem += p->lmem;
    k->lmem_replays += p->lmem_replays;
    k->gld += p->gld;
    k->gld_requested += p->gld_requested;
    k->gld_moved += p->gld_moved;
    k->gst += p->gst;
    k->gst_requested += p->gst_requested;
    k->gst_moved += p->gst_moved;
    k->lanes += p->lanes;
    k->lane_slots += p->lane_slots;
}

typedef struct fold_job {
    irr_event *ev, *tmp;
    size_t n;
    uint32_t simd_width, segment, banks;
    clirr_irr_kernel counts;
    int rc;
    clirr_error err;
} fold_job;

static void fold_part(void *arg)
{
    fold_job *j = arg;
    j->rc = fold_share(j->ev, j->tmp, j->n, j->simd_width, j->segment, j->banks, &j->counts, &j->err);
}

/* Below this many records one thread is quicker than starting more. */
#define IRR_FOLD_PARALLEL_MIN (1u << 16)
#define IRR_FOLD_MAX_THREADS CLIRR_MAX_PARTS

/* Threads for the fold: the host's online cores (CLIRR_IRR_THREADS
 * overrides), at most IRR_FOLD_MAX_THREADS. */
unsigned clirr_irr_fold_threads(size_t n)
{
    unsigned t = clirr_host_threads(n, IRR_FOLD_PARALLEL_MIN, "CLIRR_IRR_THREADS");
    return t > IRR_FOLD_MAX_THREADS ? IRR_FOLD_MAX_THREADS : t;
}

static unsigned share_of(const uint32_t *record, uint32_t simd_width, unsigned nt)
{
    return (unsigned)(((uint64_t)record[0] + record[1] / simd_width) % nt);
}

void clirr_irr_scratch_free(clirr_irr_scratch *ws)
{
    free(ws->events);
    ws->events = NULL;
    ws->cap = 0;
}

int clirr_irr_fold(const uint32_t *raw, size_t n, uint32_t simd_width, uint32_t segment,
                   uint32_t banks, clirr_irr_kernel *k, clirr_error *err)
{
    clirr_irr_scratch ws = {NULL, 0};
    int rc = clirr_irr_fold_reusing(&ws, raw, n, simd_width, segment, banks, k, err);
    clirr_irr_scratch_free(&ws);
    return rc;
}

int clirr_irr_fold_reusing(clirr_irr_scratch *ws, const uint32_t *raw, size_t n, uint32_t simd_width,
                           uint32_t segment, uint32_t banks, clirr_irr_kernel *k, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (n == 0)
        return CLIRR_OK;
    unsigned nt = clirr_irr_fold_threads(n);
    /* The events and the radix sorts' second copy, kept for the next
     * launch: fresh pages for every large launch cost more than sorting. */
    if (ws->cap < 2 * n) {
        clirr_irr_scratch_free(ws);
        ws->events = malloc(2 * n * sizeof(irr_event));
        ws->cap = ws->events ? 2 * n : 0;
    }
    irr_event *ev = ws->events;
    size_t *start = calloc((size_t)nt + 1, sizeof *start);
    fold_job *jobs = calloc(nt, sizeof *jobs);
    if (!ev || !start || !jobs) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %zu irregularity records", n);
        goto done;
    }
    /* Lane group l of work-group w goes to share (w + l) mod nt (record
     * order kept within a share: a counting sort), so every instance lies
     * in one share. */
    for (size_t i = 0; i < n; i++)
        start[share_of(raw + i * IRR_WORDS, simd_width, nt) + 1]++;
    for (unsigned t = 0; t < nt; t++)
        start[t + 1] += start[t];
    size_t *fill = malloc(nt * sizeof *fill);
    if (!fill) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto done;
    }
    memcpy(fill, start, nt * sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        const uint32_t *r = raw + i * IRR_WORDS;
        ev[fill[share_of(r, simd_width, nt)]++] =
            (irr_event){r[0], r[1], r[2], r[3], (uint64_t)r[5] << 32 | r[4], 0, r[1] / simd_width};
    }
    free(fill);
    for (unsigned t = 0; t < nt; t++) {
        jobs[t] = (fold_job){ev + start[t], ev + n + start[t], start[t + 1] - start[t], simd_width,
                             segment, banks,
                             {.records = 0}, CLIRR_OK, {0}};
        clirr_error_clear(&jobs[t].err);
    }
    clirr_run_parts(nt, fold_part, jobs, sizeof *jobs);
    for (unsigned t = 0; t < nt; t++) {
        if (jobs[t].rc != CLIRR_OK && rc == CLIRR_OK) {
            rc = jobs[t].rc;
            if (err)
                *err = jobs[t].err;
        }
    }
    if (rc == CLIRR_OK)
        for (unsigned t = 0; t < nt; t++)
            add_counts(k, &jobs[t].counts);
done:
    free(start);
    free(jobs);
    return rc;
}

double clirr_irr_cfi(const clirr_irr_kernel *k)
{
    return k->branches ? (double)k->divergent / (double)k->branches : 0;
}

double clirr_irr_mai(const clirr_irr_kernel *k)
{
    uint64_t replays = k->gmem_replays + k->lmem_replays;
    uint64_t issued = k->gmem + k->lmem + replays;
    return issued ? (double)replays / (double)issued : 0;
}

double clirr_irr_simd_util(const clirr_irr_kernel *k)
{
    return k->lane_slots ? (double)k->lanes / (double)k->lane_slots : 0;
}

double clirr_irr_gld_eff(const clirr_irr_kernel *k)
{
    return k->gld_moved ? (double)k->gld_requested / (double)k->gld_moved : 0;
}

double clirr_irr_gst_eff(const clirr_irr_kernel *k)
{
    return k->gst_moved ? (double)k->gst_requested / (double)k->gst_moved : 0;
}

void clirr_irr_total(const clirr_irr_report *r, clirr_irr_kernel *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "all");
    for (size_t i = 0; i < r->nkernels; i++) {
        const clirr_irr_kernel *k = &r->kernels[i];
        if (!k->instrumented)
            continue;
        t->instrumented = true;
        t->launches += k->launches;
        t->records += k->records;
        t->dropped += k->dropped;
        t->branches += k->branches;
        t->divergent += k->divergent;
        t->gmem += k->gmem;
        t->gmem_replays += k->gmem_replays;
        t->lmem += k->lmem;
        t->lmem_replays += k->lmem_replays;
        t->gld += k->gld;
        t->gld_requested += k->gld_requested;
        t->gld_moved += k->gld_moved;
        t->gst += k->gst;
        t->gst_requested += k->gst_requested;
        t->gst_moved += k->gst_moved;
        t->lanes += k->lanes;
        t->lane_slots += k->lane_slots;
    }
}
