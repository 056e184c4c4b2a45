/* host/base/parallel.c - independent parts of one job on host threads
 * (parallel.h): the staged uploads' copying and CPU devices' reads, the
 * irregularity counts, the graph's derived forms (transpose, undirected,
 * symmetric). */
#include "base/parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct part_run {
    void (*fn)(void *part);
    void *part;
    bool threaded;
    pthread_t thread;
} part_run;

static void *run_one(void *arg)
{
    part_run *r = arg;
    r->fn(r->part);
    return NULL;
}

void clirr_run_parts(unsigned n, void (*fn)(void *part), void *parts, size_t part_size)
{
    part_run run[CLIRR_MAX_PARTS];
    if (n > CLIRR_MAX_PARTS)
        n = CLIRR_MAX_PARTS;
    for (unsigned i = 0; i < n; i++) {
        run[i] = (part_run){fn, (char *)parts + i * part_size, false, 0};
        if (i + 1 < n)
            run[i].threaded = pthread_create(&run[i].thread, NULL, run_one, &run[i]) == 0;
        if (!run[i].threaded)
            run_one(&run[i]);
    }
    for (unsigned i = 0; i < n; i++)
        if (run[i].threaded)
            pthread_join(run[i].thread, NULL);
}

unsigned clirr_host_threads(size_t work, size_t min_work, const char *env)
{
    if (work < min_work)
        return 1;
    const char *set = env ? getenv(env) : NULL;
    long t = set && *set ? strtol(set, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1)
        t = 1;
    return t > CLIRR_MAX_PARTS ? CLIRR_MAX_PARTS : (unsigned)t;
}

typedef struct copy_part {
    char *dst;
    const char *src;
    size_t n;
} copy_part;

static void copy_part_run(void *arg)
{
    copy_part *p = arg;
    memcpy(p->dst, p->src, p->n);
}

void clirr_parallel_copy(unsigned threads, void *dst, const void *src, size_t n)
{
    copy_part part[CLIRR_MAX_PARTS];
    if (threads < 1)
        threads = 1;
    if (threads > CLIRR_MAX_PARTS)
        threads = CLIRR_MAX_PARTS;
    size_t per = (n + threads - 1) / threads;
    for (unsigned i = 0; i < threads; i++) {
        size_t off = i * per < n ? i * per : n;
        part[i] = (copy_part){(char *)dst + off, (const char *)src + off, n - off < per ? n - off : per};
    }
    clirr_run_parts(threads, copy_part_run, part, sizeof part[0]);
}

unsigned clirr_copy_threads(void)
{
    unsigned half = clirr_host_threads(1, 0, "CLIRR_HOST_THREADS") / 2;
    return half < 1 ? 1 : half > 8 ? 8 : half;
}
