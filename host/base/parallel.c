/* host/base/parallel.c - independent parts of one job on host threads
 * (parallel.h): the staged uploads' copying, the irregularity counts, the
 * graph's derived forms (transpose, undirected, symmetric). */
#include "base/parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
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
