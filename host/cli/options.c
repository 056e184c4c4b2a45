/* host/cli/options.c - the one option table of `run` and `bench`: common
 * options plus every registered algorithm's own parameters (built from
 * the descriptors), with help, validation and lists for the case matrix.
 * run and bench differ only in defaults. */
#include "experiment.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    O_ALGO = 256, O_GRAPH, O_LIST, O_TREE, O_BODIES, O_CNF, O_MESH, O_ROOT, O_GEN, O_SYM, O_DEVICE, O_VARIANT, O_PUSH, O_TEMPLATE,
    O_LBTHRES, O_WG, O_GROUPWG, O_COARSEN, O_WLCAP, O_LOCALROUNDS, O_QUEUEROUNDS, O_SOURCE, O_SOURCES, O_SEED, O_VERIFY,
    O_NOVERIFY,
    O_SIMDW, O_SEGMENT, O_BANKS, O_IRRREC, O_IRRSAMPLE, O_IRRBACKEND,
    O_REPEAT, O_WARMUP, O_JSON, O_CSV, O_TRACE, O_GRID, O_REORDER, O_OUTPUT, O_EXPLAIN, O_KERNELS, O_UPLOAD, O_HUGE_PAGES, O_WIDE, O_PROGRESS, O_HELP,
    O_PARAM /* O_PARAM + i: descriptor parameter option i; O_PARAM + i + NO: its --no- form */
};
#define NO_OFFSET 1000

static const struct option common[] = {
    {"algo", required_argument, NULL, O_ALGO},
    {"graph", required_argument, NULL, O_GRAPH},
    {"list", required_argument, NULL, O_LIST},
    {"tree", required_argument, NULL, O_TREE},
    {"bodies", required_argument, NULL, O_BODIES},
    {"cnf", required_argument, NULL, O_CNF},
    {"mesh", required_argument, NULL, O_MESH},
    {"root", required_argument, NULL, O_ROOT},
    {"gen", required_argument, NULL, O_GEN},
    {"symmetrize", no_argument, NULL, O_SYM},
    {"device", required_argument, NULL, O_DEVICE},
    {"variant", required_argument, NULL, O_VARIANT},
    {"push", required_argument, NULL, O_PUSH},
    {"template", required_argument, NULL, O_TEMPLATE},
    {"lb-thres", required_argument, NULL, O_LBTHRES},
    {"wg-size", required_argument, NULL, O_WG},
    {"group-wg", required_argument, NULL, O_GROUPWG},
    {"coarsen", required_argument, NULL, O_COARSEN},
    {"wl-capacity", required_argument, NULL, O_WLCAP},
    {"local-rounds", required_argument, NULL, O_LOCALROUNDS},
    {"queue-rounds", required_argument, NULL, O_QUEUEROUNDS},
    {"grid", required_argument, NULL, O_GRID},
    {"reorder", required_argument, NULL, O_REORDER},
    {"source", required_argument, NULL, O_SOURCE},
    {"sources", required_argument, NULL, O_SOURCES},
    {"seed", required_argument, NULL, O_SEED},
    {"verify", no_argument, NULL, O_VERIFY},
    {"no-verify", no_argument, NULL, O_NOVERIFY},
    {"simd-width", required_argument, NULL, O_SIMDW},
    {"segment", required_argument, NULL, O_SEGMENT},
    {"banks", required_argument, NULL, O_BANKS},
    {"irr-records", required_argument, NULL, O_IRRREC},
    {"irr-sample", required_argument, NULL, O_IRRSAMPLE},
    {"irr-backend", required_argument, NULL, O_IRRBACKEND},
    {"repeat", required_argument, NULL, O_REPEAT},
    {"warmup", required_argument, NULL, O_WARMUP},
    {"json", optional_argument, NULL, O_JSON},
    {"csv", required_argument, NULL, O_CSV},
    {"trace", required_argument, NULL, O_TRACE},
    {"output", required_argument, NULL, O_OUTPUT},
    {"explain", no_argument, NULL, O_EXPLAIN},
    {"kernels", no_argument, NULL, O_KERNELS},
    {"upload", required_argument, NULL, O_UPLOAD},
    {"huge-pages", required_argument, NULL, O_HUGE_PAGES},
    {"wide", no_argument, NULL, O_WIDE},
    {"progress", no_argument, NULL, O_PROGRESS},
    {"help", no_argument, NULL, O_HELP},
};
#define NCOMMON (sizeof common / sizeof common[0])

/* Every distinct descriptor parameter, by name (the first descriptor that
 * has it gives its type and help). */
typedef struct param_ref {
    const clirr_algo *algo;
    unsigned index;
} param_ref;

/* Whether parameter i of algorithm a is the registry's first of its name. */
static bool first_of_name(size_t a, unsigned i)
{
    const char *name = clirr_algo_at(a)->params[i].name;
    for (size_t b = 0; b <= a; b++) {
        const clirr_algo *al = clirr_algo_at(b);
        for (unsigned k = 0; k < (b == a ? i : al->nparams); k++)
            if (!strcmp(al->params[k].name, name))
                return false;
    }
    return true;
}

/* The registry's parameter names, the first descriptor of each, into out
 * (at most max of them); returns how many there are, which may be more
 * than max (make_table refuses to run then). */
static size_t collect_params(param_ref *out, size_t max)
{
    size_t n = 0;
    for (size_t a = 0; a < clirr_algo_count(); a++)
        for (unsigned i = 0; i < clirr_algo_at(a)->nparams; i++)
            if (first_of_name(a, i)) {
                if (n < max)
                    out[n] = (param_ref){clirr_algo_at(a), i};
                n++;
            }
    return n;
}

static void print_help(const exp_config *cfg)
{
    bool b = cfg->bench;
    printf("usage: clirr %s %s(--graph FILE | --list FILE | --tree FILE | --bodies FILE |\n"
           "       --cnf FILE | --mesh PREFIX | --gen SPEC)... [options]\n\n",
           cfg->command,
           b ? "[ALGO[,ALGO...]] " : "ALGO[,ALGO...] ");
    if (b)
        printf("Times every algorithm x input x device x variant x push mode x template x\n"
               "parameter value, each over --repeat trials after --warmup untimed runs,\n"
               "verifies each against the CPU reference, and prints median [min-max] times,\n"
               "build / prepare / upload times apart, MTEPS, the data/topo ratios, each\n"
               "template's speedup over baseline and whether auto picked the fastest.\n");
    else
        printf("Runs each algorithm on each selected device and variant, verifies the\n"
               "result against the serial CPU reference, and prints a table.\n");
    printf("\nalgorithms (default for bench: all):\n");
    for (size_t i = 0; i < clirr_algo_count(); i++) {
        const clirr_algo *a = clirr_algo_at(i);
        printf("  %-10s %s\n", a->name, a->summary);
    }
    printf("\ninputs and devices:\n"
           "  --algo A[,A]        algorithms (or the first argument)\n"
           "  --graph FILE        an input (.gr .mtx .el .txt .wel .csr, optionally .gz);\n"
           "                      repeatable\n"
           "  --list FILE         a list input (.list, optionally .gz: a successor per\n"
           "                      line, -1 = tail); repeatable\n"
           "  --tree FILE         a tree input (.tree, optionally .gz: an edge 'u v' per\n"
           "                      line); repeatable\n"
           "  --bodies FILE       an n-body input (.bodies, optionally .gz: 'm x y z vx vy\n"
           "                      vz' per line); repeatable\n"
           "  --cnf FILE          a SAT formula (DIMACS .cnf, optionally .gz); repeatable\n"
           "  --mesh PREFIX       a triangle mesh: Triangle's PREFIX.node, PREFIX.ele and\n"
           "                      optionally PREFIX.poly (each optionally .gz); repeatable\n"
           "  --root R            the root of every tree input (default 0)\n"
           "  --gen SPEC          a generated graph, list (list:...), tree (tree:...),\n"
           "                      bodies (plummer:...), formula (ksat:...) or mesh\n"
           "                      (mesh:...);\n"
           "                      see 'clirr gen --help'; repeatable\n"
           "  --symmetrize        add the reverse of every arc of every input\n"
           "  --device SEL        index, name substring, cpu, gpu, all, auto (default: %s)\n"
           "  --source S          source vertex: a number, random (seeded, out-degree > 0)\n"
           "                      or max-degree (default 0; BC: evenly spaced)\n"
           "  --sources K         K roots: one case per root where an algorithm takes one\n"
           "                      source (random unless --source says max-degree; a vertex\n"
           "                      number stays the one root); BC samples K (evenly spaced\n"
           "                      unless --source says random or max-degree)\n"
           "  --seed N            seed of --source random (default 1)\n",
           b ? "all" : "$CLIRR_DEVICE, else auto = first GPU, else device 0");
    printf("\nhow it runs (lists make more cases):\n"
           "  --variant V[,V]     a variant of the algorithm, or all (default: %s)\n"
           "  --push M[,M]        data-driven worklist push: atomic, chunk, compact, hier, scan,\n"
           "                      auto (chosen per round), all (default auto)\n"
           "  --template T[,T]    how loops over items and arcs meet the device: baseline,\n"
           "                      dual-queue, dbuf-global, dbuf-shared, nested-naive,\n"
           "                      nested-opt; how a recursion does (descendants, heights,\n"
           "                      bfs --variant recursive): flat, rec-naive, rec-hier;\n"
           "                      auto, all (default auto: see clirr devices)\n"
           "  --lb-thres N[,N]    items with more inner iterations go block-mapped\n"
           "                      (default: with the template, e.g. the SIMD width)\n"
           "  --wg-size N[,N]     work-group size (default 256 or the kernel's limit)\n"
           "  --group-wg N        block-mapped and child work-group size (default 64)\n"
           "  --coarsen K         thread coarsening: K items per work-item (default 1)\n"
           "  --wl-capacity N     initial worklist capacity (default: items; grows on\n"
           "                      overflow and reruns the round)\n"
           "  --local-rounds N    worklists of at most N items run many rounds in one\n"
           "                      work-group launch (BFS, SSSP, CC; BC's levels of at\n"
           "                      most N vertices); off, or auto (default: what the\n"
           "                      device's local memory holds, at most 4096)\n"
           "  --queue-rounds N    larger worklists (up to the device's resident\n"
           "                      work-items) run N rounds a read-back, queued ahead\n"
           "                      (BFS, SSSP, CC); off, or auto (default: 16 on GPUs,\n"
           "                      off on CPUs)\n"
           "  --grid fixed|worklist  data-driven rounds launch the device's resident\n"
           "                      work-items, striding the worklist (fixed), or one\n"
           "                      per item (worklist: the default)\n"
           "  --reorder L         run on the graph relabelled by layout L (bfs, rcm,\n"
           "                      degree, none), values mapped back; auto (the\n"
           "                      default): degree for BFS and PageRank on CPU\n"
           "                      devices where the graph has hubs, else none\n",
           b ? "all" : "the algorithm's default");
    param_ref refs[EXP_MAX_PARAM_OPTS];
    size_t np = collect_params(refs, EXP_MAX_PARAM_OPTS);
    np = np < EXP_MAX_PARAM_OPTS ? np : EXP_MAX_PARAM_OPTS;
    if (np)
        printf("\nalgorithm parameters (lists make more cases):\n");
    for (size_t i = 0; i < np; i++) {
        const clirr_param_desc *d = &refs[i].algo->params[refs[i].index];
        char flag[64];
        if (d->type == CLIRR_PARAM_BOOL) {
            snprintf(flag, sizeof flag, "--[no-]%s", d->name);
        } else if (d->type == CLIRR_PARAM_CHOICE) {
            snprintf(flag, sizeof flag, "--%s ", d->name);
            for (unsigned k = 0; d->choices[k]; k++)
                snprintf(flag + strlen(flag), sizeof flag - strlen(flag), "%s%s", k ? "|" : "", d->choices[k]);
        } else
            snprintf(flag, sizeof flag, "--%s %s", d->name, d->type == CLIRR_PARAM_PATH ? "FILE" : "X");
        printf("  %-19s %s: %s (default %s)\n", flag, refs[i].algo->name, d->help,
               *d->def ? d->def : "none");
        /* The other descriptors with the name (all after the first):
         * their own meaning and default. */
        for (size_t a = 0; a < clirr_algo_count(); a++) {
            const clirr_algo *al = clirr_algo_at(a);
            int k = al == refs[i].algo ? -1 : clirr_algo_param(al, d->name);
            if (k >= 0)
                printf("  %-19s %s: %s (default %s)\n", "", al->name, al->params[k].help,
                       *al->params[k].def ? al->params[k].def : "none");
        }
    }
    if (cfg->profile)
        prof_help();
    printf("\nmeasuring and output:\n"
           "  --repeat N          timed trials per case; times are medians (default %d);\n"
           "                      then N more that time the kernels (profiling events\n"
           "                      slow every launch)\n"
           "  --warmup N          untimed trials first (default 1: some drivers, PoCL,\n"
           "                      compile a kernel at its first launch; the warm-up's\n"
           "                      time is reported apart)\n"
           "  --no-verify         skip the comparison with the CPU reference\n"
           "  --output FILE       the result, one line per item (exactly one case; '-' =\n"
           "                      standard output, instead of the table)\n"
           "  --json[=FILE]       one JSON document: on stdout instead of the table, or to\n"
           "                      FILE as well\n"
           "  --csv FILE          one CSV row per case ('-' = stdout)\n"
           "  --trace FILE        BFS, SSSP: one CSV row per round of each case's last\n"
           "                      trial (worklist in/out, arcs, push, launches, kernel\n"
           "                      ms); rounds run one a launch ('-' = stdout)\n"
           "  --explain           print each case's plan and the reason for each choice\n"
           "  --kernels           print each case's per-kernel times\n"
           "  --upload MODE       how inputs of 4 MiB or more travel to the device: pinned\n"
           "                      (staged through page-locked memory by several host\n"
           "                      threads), pageable (the driver's own copy) or auto\n"
           "                      (pinned on devices with memory of their own, from the\n"
           "                      first copy of 128 MiB, which repays the pinning)\n"
           "  --huge-pages MODE   CPU devices: auto (buffers of 2 MiB or more in host\n"
           "                      memory advised to use huge pages, where the system\n"
           "                      gives them) or off (the runtime's own allocation)\n"
           "  --wide              more columns: spreads, build/prepare/upload, launches\n"
           "  --progress          progress on stderr (default when stderr is a terminal)\n"
           "\nExit codes (the worst case wins): 0 ok, 1 verification failed, 2 bad usage\n"
           "or input (or a template the device cannot run), 3 OpenCL or device error.\n",
           b ? 5 : 1);
}

/* Split a comma list into at most max texts (pointers into a copy). */
static size_t split(const char *text, const char **out, size_t max)
{
    char *copy = strdup(text);
    size_t n = 0;
    for (char *save = NULL, *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && n < max;
         tok = strtok_r(NULL, ",", &save))
        out[n++] = tok;
    return n;
}

static int bad(const exp_config *cfg, const char *fmt, const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, what);
    return cli_usage_error(cfg->command, "%s", msg);
}

static int parse_algos(exp_config *cfg, const char *text)
{
    const char *names[32];
    size_t n = split(text, names, 32);
    for (size_t i = 0; i < n; i++) {
        bool all = !strcmp(names[i], "all");
        const clirr_algo *a = all ? NULL : clirr_algo_find(names[i]);
        if (!all && !a) {
            char known[512] = "";
            for (size_t k = 0; k < clirr_algo_count(); k++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "",
                         clirr_algo_at(k)->name);
            /* `--json FILE` leaves FILE as an argument: --json takes its
             * file as --json=FILE. */
            bool file = strchr(names[i], '.') || strchr(names[i], '/');
            return cli_usage_error(cfg->command, "unknown algorithm '%s' (known: %s)%s", names[i], known,
                                   file ? "; a file after --json is written --json=FILE" : "");
        }
        for (size_t k = 0; k < clirr_algo_count(); k++) {
            const clirr_algo *c = all ? clirr_algo_at(k) : a;
            bool dup = false;
            for (size_t j = 0; j < cfg->nalgos; j++)
                dup |= cfg->algos[j] == c;
            if (!dup && cfg->nalgos < 32)
                cfg->algos[cfg->nalgos++] = c;
            if (!all)
                break;
        }
    }
    return n ? 0 : bad(cfg, "no algorithm in '%s'", text);
}

static int parse_uints(exp_config *cfg, const char *opt, const char *text, unsigned long long min,
                       unsigned long long max, uint32_t *out, size_t *n)
{
    const char *vals[EXP_MAX_LIST];
    *n = split(text, vals, EXP_MAX_LIST);
    for (size_t i = 0; i < *n; i++) {
        unsigned long long v;
        if (!cli_parse_u64(vals[i], min, max, &v))
            return cli_usage_error(cfg->command, "%s needs whole numbers from %llu to %llu, not '%s'",
                                   opt, min, max, vals[i]);
        out[i] = (uint32_t)v;
    }
    return *n ? 0 : cli_usage_error(cfg->command, "%s needs a value", opt);
}

static int parse_one(exp_config *cfg, const char *opt, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *v)
{
    if (!cli_parse_u64(text, min, max, v))
        return cli_usage_error(cfg->command, "%s needs a whole number from %llu to %llu, not '%s'", opt,
                               min, max, text);
    return 0;
}

static int parse_templates(exp_config *cfg, const char *text)
{
    const char *vals[EXP_MAX_LIST];
    size_t n = split(text, vals, EXP_MAX_LIST);
    cfg->ntemplates = 0;
    for (size_t i = 0; i < n; i++) {
        int want[CLIRR_TEMPLATE_COUNT_ + 1], nw = 0;
        clirr_template t;
        if (!strcmp(vals[i], "all")) {
            for (int k = 0; k < CLIRR_TEMPLATE_COUNT_; k++)
                want[nw++] = k;
            want[nw++] = -1;
        } else if (!strcmp(vals[i], "auto")) {
            want[nw++] = -1;
        } else if (clirr_template_parse(vals[i], &t) == 0) {
            want[nw++] = (int)t;
        } else {
            return bad(cfg, "unknown template '%s' (baseline, dual-queue, dbuf-global, dbuf-shared, "
                            "nested-naive, nested-opt; flat, rec-naive, rec-hier; auto, all)", vals[i]);
        }
        for (int k = 0; k < nw; k++) {
            bool dup = false;
            for (size_t j = 0; j < cfg->ntemplates; j++)
                dup |= cfg->templates[j] == want[k];
            if (!dup)
                cfg->templates[cfg->ntemplates++] = want[k];
        }
    }
    return n ? 0 : bad(cfg, "--template needs a value%s", "");
}

static int parse_pushes(exp_config *cfg, const char *text)
{
    const char *vals[EXP_MAX_LIST];
    size_t n = split(text, vals, EXP_MAX_LIST);
    cfg->npushes = 0;
    for (size_t i = 0; i < n; i++) {
        clirr_push_mode m;
        bool all = !strcmp(vals[i], "all");
        if (!all && clirr_push_mode_parse(vals[i], &m) != 0)
            return bad(cfg, "unknown push mode '%s' (atomic, chunk, compact, hier, scan, auto, all)", vals[i]);
        for (int k = 0; k < CLIRR_PUSH_COUNT_; k++) {
            clirr_push_mode c = all ? (clirr_push_mode)k : m;
            bool dup = false;
            for (size_t j = 0; j < cfg->npushes; j++)
                dup |= cfg->pushes[j] == c;
            if (!dup)
                cfg->pushes[cfg->npushes++] = c;
            if (!all)
                break;
        }
    }
    return n ? 0 : bad(cfg, "--push needs a value%s", "");
}

/* A descriptor parameter's values, checked against every algorithm that
 * has a parameter of that name. */
static int parse_param(exp_config *cfg, const param_ref *ref, const char *text)
{
    const char *name = ref->algo->params[ref->index].name;
    exp_param_opt *p = NULL;
    for (size_t i = 0; i < cfg->nparams; i++)
        if (!strcmp(cfg->params[i].name, name))
            p = &cfg->params[i];
    if (!p) {
        p = &cfg->params[cfg->nparams++];
        p->name = name;
    }
    p->nvalues = ref->algo->params[ref->index].type == CLIRR_PARAM_PATH
                     ? (p->values[0] = strdup(text), 1)
                     : split(text, p->values, EXP_MAX_LIST);
    for (size_t a = 0; a < clirr_algo_count(); a++) {
        const clirr_algo *al = clirr_algo_at(a);
        int k = clirr_algo_param(al, name);
        clirr_params scratch;
        clirr_error err;
        for (size_t v = 0; k >= 0 && v < p->nvalues; v++)
            if (clirr_param_set(al, (unsigned)k, p->values[v], &scratch, &err) != CLIRR_OK)
                return cli_usage_error(cfg->command, "%s", err.msg);
    }
    return p->nvalues ? 0 : bad(cfg, "--%s needs a value", name);
}

static void defaults(exp_config *cfg)
{
    cfg->verify = true;
    cfg->repeat = cfg->bench ? 5 : 1;
    /* Some drivers (PoCL) compile at the first launch; profile times
     * nothing, so it needs no warm-up. */
    cfg->warmup = cfg->profile ? 0 : 1;
    cfg->local_rounds = -1;
    cfg->queue_rounds = -1;
    cfg->reorder = CLIRR_REORDER_AUTO;
    cfg->selector = cfg->bench ? "all" : NULL;
    cfg->pushes[0] = CLIRR_PUSH_AUTO;
    cfg->npushes = 1;
    cfg->templates[0] = -1;
    cfg->ntemplates = 1;
    cfg->source.seed = 1;
    cfg->wide = cfg->bench;
}

/* The option table: the common options, then --NAME (and --no-NAME for
 * switches) for every descriptor parameter. */
static struct option *make_table(param_ref *refs, size_t *nrefs)
{
    *nrefs = collect_params(refs, EXP_MAX_PARAM_OPTS);
    if (*nrefs > EXP_MAX_PARAM_OPTS) { /* a new parameter outgrew the table: never drop its option */
        fprintf(stderr, "clirr: the algorithms have %zu parameter names, more than the command line's table holds "
                        "(%d, EXP_MAX_PARAM_OPTS in host/cli/experiment.h)\n",
                *nrefs, EXP_MAX_PARAM_OPTS);
        return NULL;
    }
    struct option *t = calloc(NCOMMON + 2 * *nrefs + 1, sizeof *t);
    if (!t)
        return NULL;
    memcpy(t, common, sizeof common);
    size_t k = NCOMMON;
    for (size_t i = 0; i < *nrefs; i++) {
        const clirr_param_desc *d = &refs[i].algo->params[refs[i].index];
        bool sw = d->type == CLIRR_PARAM_BOOL;
        t[k++] = (struct option){d->name, sw ? optional_argument : required_argument, NULL,
                                 O_PARAM + (int)i};
        if (sw) {
            char *no = malloc(strlen(d->name) + 4);
            if (no)
                sprintf(no, "no-%s", d->name);
            t[k++] = (struct option){no, no_argument, NULL, O_PARAM + NO_OFFSET + (int)i};
        }
    }
    return t;
}

static void free_table(struct option *t)
{
    for (size_t i = NCOMMON; t && t[i].name; i++)
        if (t[i].val >= O_PARAM + NO_OFFSET)
            free((char *)t[i].name);
    free(t);
}

static int handle(exp_config *cfg, int c, const char *arg, const param_ref *refs)
{
    unsigned long long v;
    int rc = 0;
    switch (c) {
    case O_ALGO: return parse_algos(cfg, arg);
    case O_GRAPH:
    case O_LIST:
    case O_TREE:
    case O_BODIES:
    case O_CNF:
    case O_MESH:
    case O_GEN: {
        if (cfg->ninputs == EXP_MAX_INPUTS)
            return cli_usage_error(cfg->command, "at most %d inputs", EXP_MAX_INPUTS);
        exp_input *e = &cfg->inputs[cfg->ninputs++];
        e->file = c == O_GEN ? NULL : arg;
        e->spec = c == O_GEN ? arg : NULL;
        e->kind = c == O_LIST || (c == O_GEN && clirr_list_spec(arg))   ? CLIRR_INPUT_LIST
                  : c == O_TREE || (c == O_GEN && clirr_tree_spec(arg)) ? CLIRR_INPUT_TREE
                  : c == O_BODIES || (c == O_GEN && clirr_bodies_spec(arg)) ? CLIRR_INPUT_BODIES
                  : c == O_CNF || (c == O_GEN && clirr_cnf_spec(arg))   ? CLIRR_INPUT_CNF
                  : c == O_MESH || (c == O_GEN && clirr_mesh_spec(arg)) ? CLIRR_INPUT_MESH
                                                                        : CLIRR_INPUT_GRAPH;
        return 0;
    }
    case O_ROOT:
        rc = parse_one(cfg, "--root", arg, 0, CLIRR_TREE_MAX_NODES - 1, &v);
        cfg->root = (uint32_t)v;
        cfg->root_given = true;
        return rc;
    case O_SYM: cfg->symmetrize = true; return 0;
    case O_DEVICE: cfg->selector = arg; return 0;
    case O_VARIANT:
        cfg->nvariants = split(arg, cfg->variants, EXP_MAX_LIST);
        cfg->variants_given = true;
        return 0;
    case O_PUSH: return parse_pushes(cfg, arg);
    case O_TEMPLATE: return parse_templates(cfg, arg);
    case O_LBTHRES: return parse_uints(cfg, "--lb-thres", arg, 1, UINT32_MAX - 1, cfg->lb_thres, &cfg->nlb_thres);
    case O_WG: return parse_uints(cfg, "--wg-size", arg, 1, 1u << 20, cfg->wg_sizes, &cfg->nwg_sizes);
    case O_GROUPWG:
        rc = parse_one(cfg, "--group-wg", arg, 1, 1u << 20, &v);
        cfg->group_wg = (unsigned)v;
        return rc;
    case O_COARSEN:
        rc = parse_one(cfg, "--coarsen", arg, 1, 1024, &v);
        cfg->coarsen = (unsigned)v;
        return rc;
    case O_WLCAP:
        rc = parse_one(cfg, "--wl-capacity", arg, 1, UINT32_MAX, &v);
        cfg->wl_capacity = (size_t)v;
        return rc;
    case O_LOCALROUNDS:
        if (!strcmp(arg, "auto") || !strcmp(arg, "off")) {
            cfg->local_rounds = arg[0] == 'a' ? -1 : 0;
            return 0;
        }
        rc = parse_one(cfg, "--local-rounds", arg, 2, 1u << 20, &v);
        cfg->local_rounds = (int64_t)v;
        return rc;
    case O_REORDER:
        if (clirr_reorder_parse(arg, &cfg->reorder) != 0)
            return bad(cfg, "--reorder takes auto, none, bfs, rcm or degree, not '%s'", arg);
        return 0;
    case O_GRID:
        if (strcmp(arg, "fixed") && strcmp(arg, "worklist"))
            return bad(cfg, "--grid takes fixed or worklist, not '%s'", arg);
        cfg->fixed_grid = arg[0] == 'f';
        return 0;
    case O_QUEUEROUNDS:
        if (!strcmp(arg, "auto") || !strcmp(arg, "off")) {
            cfg->queue_rounds = arg[0] == 'a' ? -1 : 0;
            return 0;
        }
        rc = parse_one(cfg, "--queue-rounds", arg, 1, 64, &v);
        cfg->queue_rounds = (int64_t)v;
        return rc;
    case O_SOURCE: {
        uint32_t count = cfg->source.count;
        uint64_t seed = cfg->source.seed;
        if (clirr_source_parse(arg, &cfg->source) != 0)
            return bad(cfg, "--source needs a vertex number, random or max-degree, not '%s'", arg);
        cfg->source.count = count;
        cfg->source.seed = seed;
        cfg->source_given = true;
        return 0;
    }
    case O_SOURCES:
        rc = parse_one(cfg, "--sources", arg, 1, UINT32_MAX - 1, &v);
        cfg->source.count = (uint32_t)v;
        return rc;
    case O_SEED:
        rc = parse_one(cfg, "--seed", arg, 0, UINT64_MAX, &v);
        cfg->source.seed = v;
        return rc;
    case O_SIMDW:
    case O_SEGMENT:
    case O_BANKS:
    case O_IRRREC:
    case O_IRRSAMPLE: {
        static const char *names[] = {"--simd-width", "--segment", "--banks", "--irr-records", "--irr-sample"};
        static const unsigned long long most[] = {4096, 1u << 20, 4096, UINT32_MAX - 64, 1u << 30};
        const char *name = names[c - O_SIMDW];
        if (!cfg->profile)
            return cli_usage_error(cfg->command, "%s is an option of 'clirr profile'", name);
        rc = parse_one(cfg, name, arg, 1, most[c - O_SIMDW], &v);
        if (c == O_SIMDW)
            cfg->irr.simd_width = (uint32_t)v;
        else if (c == O_SEGMENT)
            cfg->irr.segment = (uint32_t)v;
        else if (c == O_BANKS)
            cfg->irr.banks = (uint32_t)v;
        else if (c == O_IRRREC)
            cfg->irr.records = v;
        else
            cfg->irr.sample = (uint32_t)v;
        return rc;
    }
    case O_IRRBACKEND:
        if (!cfg->profile)
            return cli_usage_error(cfg->command, "--irr-backend is an option of 'clirr profile'");
        if (!strcmp(arg, "model"))
            cfg->irr.backend = CLIRR_IRR_MODEL;
        else if (!strcmp(arg, "warp"))
            cfg->irr.backend = CLIRR_IRR_WARP;
        else
            return cli_usage_error(cfg->command, "--irr-backend takes model or warp, not '%s'", arg);
        return 0;
    case O_VERIFY: cfg->verify = true; return 0;
    case O_NOVERIFY: cfg->verify = false; return 0;
    case O_REPEAT:
        rc = parse_one(cfg, "--repeat", arg, 1, 100000, &v);
        cfg->repeat = (unsigned)v;
        return rc;
    case O_WARMUP:
        rc = parse_one(cfg, "--warmup", arg, 0, 100000, &v);
        cfg->warmup = (unsigned)v;
        return rc;
    case O_JSON:
        if (arg)
            cfg->json_file = arg;
        else
            cfg->json = true;
        return 0;
    case O_CSV: cfg->csv_file = arg; return 0;
    case O_TRACE: cfg->trace_file = arg; return 0;
    case O_OUTPUT: cfg->output = arg; return 0;
    case O_EXPLAIN: cfg->explain = true; return 0;
    case O_KERNELS: cfg->kernels = true; return 0;
    case O_UPLOAD:
        if (!strcmp(arg, "auto") || !strcmp(arg, "pinned") || !strcmp(arg, "pageable")) {
            cfg->upload = arg[0] == 'a' ? CLIRR_UPLOAD_AUTO : arg[1] == 'i' ? CLIRR_UPLOAD_PINNED : CLIRR_UPLOAD_PAGEABLE;
            return 0;
        }
        return bad(cfg, "--upload takes auto, pinned or pageable, not '%s'", arg);
    case O_HUGE_PAGES:
        if (!strcmp(arg, "auto") || !strcmp(arg, "off")) {
            cfg->no_huge_pages = arg[0] == 'o';
            return 0;
        }
        return bad(cfg, "--huge-pages takes auto or off, not '%s'", arg);
    case O_WIDE: cfg->wide = true; return 0;
    case O_PROGRESS: cfg->progress = true; return 0;
    default: break;
    }
    if (c >= O_PARAM + NO_OFFSET)
        return parse_param(cfg, &refs[c - O_PARAM - NO_OFFSET], "off");
    if (c >= O_PARAM) {
        const param_ref *r = &refs[c - O_PARAM];
        bool sw = r->algo->params[r->index].type == CLIRR_PARAM_BOOL;
        return parse_param(cfg, r, sw && !arg ? "on" : arg);
    }
    return cli_usage_error(cfg->command, "unknown option");
}

int exp_parse(exp_config *cfg, int argc, char **argv)
{
    defaults(cfg);
    cfg->argc = argc;
    cfg->argv = malloc(((size_t)argc + 1) * sizeof *cfg->argv);
    if (!cfg->argv)
        return 3;
    memcpy(cfg->argv, argv, ((size_t)argc + 1) * sizeof *argv);
    param_ref refs[EXP_MAX_PARAM_OPTS];
    size_t nrefs;
    struct option *table = make_table(refs, &nrefs);
    if (!table)
        return 3;
    int c, rc = 0;
    optind = 1;
    opterr = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", table, NULL)) != -1) {
        if (c == O_HELP || c == 'h') {
            print_help(cfg);
            rc = -1;
        } else if (c == '?') {
            rc = cli_usage_error(cfg->command, "unknown option or missing value");
        } else {
            rc = handle(cfg, c, optarg, refs);
        }
    }
    free_table(table);
    if (rc)
        return rc;
    for (; optind < argc; optind++)
        if ((rc = parse_algos(cfg, argv[optind])))
            return rc;
    if (cfg->nalgos == 0 && cfg->bench)
        parse_algos(cfg, "all");
    if (cfg->nalgos == 0)
        return cli_usage_error(cfg->command, "missing ALGO (see the list in --help)");
    if (cfg->ninputs == 0)
        return cli_usage_error(cfg->command, "give at least one --graph FILE, --list FILE, --tree FILE, "
                                             "--bodies FILE, --cnf FILE, --mesh PREFIX or --gen SPEC");
    if (cfg->json && cfg->output && !strcmp(cfg->output, "-"))
        return cli_usage_error(cfg->command, "--json and --output - both write to standard output; "
                                             "use --json=FILE or --output FILE");
    if (cfg->nvariants == 0 && cfg->bench)
        cfg->variants[cfg->nvariants++] = "all";
    /* Every variant named must belong to some selected algorithm. */
    for (size_t v = 0; v < cfg->nvariants; v++) {
        bool known = !strcmp(cfg->variants[v], "all");
        for (size_t a = 0; a < cfg->nalgos && !known; a++)
            known = clirr_algo_variant(cfg->algos[a], cfg->variants[v]) >= 0;
        if (!known)
            return bad(cfg, "no algorithm asked for has a variant '%s' (see --help)", cfg->variants[v]);
    }
    return 0;
}

void exp_config_free(exp_config *cfg)
{
    for (size_t i = 0; i < cfg->ninputs; i++) {
        clirr_input_free(cfg->inputs[i].in);
        free(cfg->inputs[i].roots);
    }
    free(cfg->argv);
    /* Split lists point into strdup'ed copies; the process ends next. */
}
