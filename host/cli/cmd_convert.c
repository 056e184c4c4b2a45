/* host/cli/cmd_convert.c - `clirr convert IN OUT`: read a graph in any
 * format clirr reads and write it in the one OUT's extension names, with
 * optional symmetrization, id compaction (the mapping written beside) and
 * generated weights. Every output is written whole or not at all. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void print_help(void)
{
    printf("usage: clirr convert IN OUT [--symmetrize] [--relabel] [--weights LO-HI[,seed=S]]\n"
           "                     [--galois]\n"
           "\n"
           "Reads IN (.gr .mtx .el .txt .wel .csr, optionally .gz) and writes OUT in the\n"
           "format of its extension. What OUT's format cannot hold is refused, not\n"
           "dropped (weights to .el/.txt: write .wel). A list (.list) converts to a\n"
           "list, a tree (.tree) to a tree, bodies (.bodies) to bodies and a formula\n"
           "(.cnf) to a formula and a mesh (PREFIX.node: with its .ele and .poly) to a\n"
           "mesh, each checked on the way (plain <-> .gz).\n"
           "  --symmetrize        add the reverse of every arc\n"
           "  --relabel           compact the ids to the vertices that have an arc, in\n"
           "                      their order; OUT.map gets 'new old' per vertex\n"
           "  --weights LO-HI[,seed=S]  give every arc a weight from LO to HI (the\n"
           "                      generators' stream: the same on every machine; seed 1)\n"
           "  --galois            write OUT (.gr) as a Galois binary graph, LonestarGPU's\n"
           "                      input format, rather than DIMACS text\n");
}

/* "LO-HI[,seed=S]" (LO may be negative). */
static bool parse_weights(const char *text, long long *lo, long long *hi, unsigned long long *seed)
{
    char *end;
    errno = 0;
    *lo = strtoll(text, &end, 10);
    if (errno || end == text || *end != '-')
        return false;
    const char *h = end + 1;
    *hi = strtoll(h, &end, 10);
    if (errno || end == h || *lo > *hi || *lo < INT32_MIN || *hi > INT32_MAX)
        return false;
    *seed = 1;
    if (!*end)
        return true;
    return !strncmp(end, ",seed=", 6) && cli_parse_u64(end + 6, 0, UINT64_MAX, seed);
}

/* OUT.map: "new old" per vertex, written whole or not at all. */
static int write_map(const char *out, const uint32_t *old, uint32_t n, clirr_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s.map", out);
    clirr_out_file f;
    int rc = clirr_out_open(&f, path, err);
    if (rc != CLIRR_OK)
        return rc;
    fprintf(f.f, "# new old\n");
    for (uint32_t v = 0; v < n; v++)
        fprintf(f.f, "%u %u\n", v, old[v]);
    return clirr_out_close(&f, err);
}

/* Bodies, read (checked) and written again: plain <-> gzip, comments
 * dropped, every real with 17 significant digits. */
static int convert_bodies(const char *in, const char *out)
{
    clirr_error err;
    clirr_error_clear(&err);
    clirr_bodies b = {0};
    int rc = clirr_bodies_read(in, &b, &err);
    if (rc == CLIRR_OK)
        rc = clirr_bodies_write(out, &b, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr convert: wrote %s: %u bodies\n", out, b.n);
    clirr_bodies_free(&b);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

/* A formula, read (checked) and written again: plain <-> gzip, comments
 * dropped, one clause a line. */
static int convert_cnf(const char *in, const char *out)
{
    clirr_error err;
    clirr_error_clear(&err);
    clirr_cnf f = {0};
    int rc = clirr_cnf_read(in, &f, &err);
    if (rc == CLIRR_OK)
        rc = clirr_cnf_write(out, &f, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr convert: wrote %s: %u variables, %u clauses\n", out, f.nvars, f.nclauses);
    clirr_cnf_free(&f);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

/* A mesh, read (checked) and written again: plain <-> gzip, 1-based,
 * every boundary edge a segment. */
static int convert_mesh(const char *in, const char *out)
{
    clirr_error err;
    clirr_error_clear(&err);
    clirr_mesh m = {0};
    int rc = clirr_mesh_read(in, &m, &err);
    if (rc == CLIRR_OK)
        rc = clirr_mesh_write(out, false, &m, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr convert: wrote %s (.node, .ele, .poly): %u points, %u triangles\n", out, m.npoints,
                m.ntri);
    clirr_mesh_free(&m);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

/* A list or a tree, read (checked) and written again: plain <-> gzip,
 * comments dropped, the tree's header added. */
static int convert_other(const char *in, const char *out, bool list)
{
    clirr_error err;
    clirr_error_clear(&err);
    int rc;
    if (list) {
        clirr_list l = {0};
        rc = clirr_list_read(in, &l, &err);
        if (rc == CLIRR_OK)
            rc = clirr_list_write(out, &l, &err);
        if (rc == CLIRR_OK)
            fprintf(stderr, "clirr convert: wrote %s: %u elements in %u list%s\n", out, l.n, l.lists,
                    l.lists == 1 ? "" : "s");
        clirr_list_free(&l);
    } else {
        clirr_tree t = {0};
        rc = clirr_tree_read(in, &t, &err);
        if (rc == CLIRR_OK)
            rc = clirr_tree_write(out, &t, &err);
        if (rc == CLIRR_OK)
            fprintf(stderr, "clirr convert: wrote %s: a tree of %u vertices\n", out, t.n);
        clirr_tree_free(&t);
    }
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

int cmd_convert(int argc, char **argv)
{
    bool symmetrize = false, relabel = false, weights = false, galois = false;
    long long lo = 0, hi = 0;
    unsigned long long seed = 1;
    static const struct option opts[] = {
        {"symmetrize", no_argument, NULL, 's'},
        {"relabel", no_argument, NULL, 'r'},
        {"weights", required_argument, NULL, 'w'},
        {"galois", no_argument, NULL, 'g'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 's': symmetrize = true; break;
        case 'r': relabel = true; break;
        case 'g': galois = true; break;
        case 'w':
            if (!parse_weights(optarg, &lo, &hi, &seed))
                return cli_usage_error("convert", "--weights needs LO-HI[,seed=S] with 32-bit LO <= HI, not '%s'",
                                       optarg);
            weights = true;
            break;
        case 'h': print_help(); return 0;
        default: return cli_usage_error("convert", "unknown option");
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("convert", "give IN and OUT (%d file names given)", argc - optind);
    const char *in = argv[optind], *out = argv[optind + 1];

    clirr_error err;
    clirr_error_clear(&err);
    bool in_cnf = cli_has_kind_extension(in, "cnf"), out_cnf = cli_has_kind_extension(out, "cnf");
    if (in_cnf || out_cnf) {
        if (in_cnf != out_cnf)
            return cli_usage_error("convert", "formulas convert to formulas (.cnf, optionally .gz): %s to %s",
                                   in, out);
        if (symmetrize || relabel || weights || galois)
            return cli_usage_error("convert", "--symmetrize, --relabel, --weights and --galois are for "
                                   "graphs");
        return convert_cnf(in, out);
    }
    bool in_mesh = cli_has_kind_extension(in, "node"), out_mesh = cli_has_kind_extension(out, "node");
    if (in_mesh || out_mesh) {
        if (in_mesh != out_mesh)
            return cli_usage_error("convert", "meshes convert to meshes (PREFIX.node, optionally .gz, with "
                                   "its .ele and .poly): %s to %s", in, out);
        if (symmetrize || relabel || weights || galois)
            return cli_usage_error("convert", "--symmetrize, --relabel, --weights and --galois are for "
                                   "graphs");
        return convert_mesh(in, out);
    }
    bool in_list = cli_has_kind_extension(in, "list"), in_tree = cli_has_kind_extension(in, "tree");
    bool out_list = cli_has_kind_extension(out, "list"), out_tree = cli_has_kind_extension(out, "tree");
    bool in_bodies = cli_has_kind_extension(in, "bodies"), out_bodies = cli_has_kind_extension(out, "bodies");
    if (in_bodies || out_bodies) {
        if (in_bodies != out_bodies)
            return cli_usage_error("convert", "bodies convert to bodies (.bodies, optionally .gz): %s to %s",
                                   in, out);
        if (symmetrize || relabel || weights || galois)
            return cli_usage_error("convert", "--symmetrize, --relabel, --weights and --galois are for "
                                   "graphs");
        return convert_bodies(in, out);
    }
    if (in_list || in_tree || out_list || out_tree) {
        if (in_list != out_list || in_tree != out_tree)
            return cli_usage_error("convert", "lists convert to lists and trees to trees (.list, .tree, "
                                   "optionally .gz): %s to %s", in, out);
        if (symmetrize || relabel || weights || galois)
            return cli_usage_error("convert", "--symmetrize, --relabel, --weights and --galois are for "
                                   "graphs");
        return convert_other(in, out, in_list);
    }
    clirr_graph g = {0};
    uint32_t *old = NULL;
    int rc = clirr_graph_read(in, &g, &err);
    if (rc == CLIRR_OK && symmetrize)
        rc = clirr_graph_symmetrize(&g, &err);
    if (rc == CLIRR_OK && relabel)
        rc = clirr_graph_relabel_compact(&g, &old, &err);
    if (rc == CLIRR_OK && weights)
        rc = clirr_graph_set_random_weights(&g, (int32_t)lo, (int32_t)hi, seed, &err);
    if (rc == CLIRR_OK && galois) {
        bool gz;
        rc = clirr_graph_format_from_path(out, &gz) == CLIRR_FMT_GR
                 ? clirr_graph_write_galois(out, &g, &err)
                 : clirr_fail(&err, CLIRR_ERR_USAGE, "--galois writes a .gr file, not %s", out);
    } else if (rc == CLIRR_OK) {
        rc = clirr_graph_write(out, &g, &err);
    }
    if (rc == CLIRR_OK && relabel)
        rc = write_map(out, old, g.n, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr convert: wrote %s: %u vertices, %u arcs%s%s\n", out, g.n, g.m,
                g.weight ? ", weighted" : "", relabel ? " (ids in OUT.map)" : "");
    free(old);
    clirr_graph_free(&g);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}
