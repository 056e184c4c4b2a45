/* host/cli/cmd_gen.c - `clirr gen SPEC -o FILE`: generate a graph, a list,
 * a tree, bodies, a SAT formula or a mesh and write it (graphs in the format named by FILE's extension,
 * lists as .list, trees as .tree). */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>

static void print_help(void)
{
    printf("usage: clirr gen SPEC -o FILE [--symmetrize]\n"
           "\n"
           "Generates a graph, list, tree or bodies; a graph is written in the format of FILE's\n"
           "extension (.gr .mtx .el .txt .wel .csr, any of them with .gz).\n"
           "SPEC is KIND:key=value,... :\n"
           "  rmat:scale=S,ef=E[,a=..,b=..,c=..,d=..][,permute=0|1]\n"
           "  random:n=N,m=M  or  random:n=N,deg=LO-HI (every out-degree uniform in LO..HI)\n"
           "  grid:w=W,h=H\n"
           "each with optional seed=N (default 1) and weights=LO-HI; lists (.list) and\n"
           "trees (.tree), each optionally .gz:\n"
           "  list:n=N,order=O[,lists=L][,interval=K]\n"
           "      O = sequential, reverse, random, random-balanced, ordered-unbalanced;\n"
           "      L lists of near-equal length (default 1); K: the splitter interval the\n"
           "      balanced orders are built for (default ceil(log2 N), rhj's n/log n)\n"
           "  tree:kind=binary|attach,n=N[,shuffle=0|1]\n"
           "      random binary tree (free-slot attachment) or random recursive tree;\n"
           "      root 0; shuffle (default 1) scatters the other ids\n"
           "  tree:kind=regular,depth=D,outdeg=K[,sparsity=S][,shuffle=0|1]\n"
           "      the recursion study's trees: D levels with the root's, K children\n"
           "      each, a non-root vertex expanded with probability (1/2)^S\n"
           "each with optional seed=N (default 1); bodies (.bodies, optionally .gz):\n"
           "  plummer:n=N[,seed=S]\n"
           "      the Plummer model as LonestarGPU's Barnes-Hut draws it, mass 1/N\n"
           "SAT formulas (.cnf, optionally .gz):\n"
           "  ksat:n=N,m=M[,k=K][,planted=0|1]\n"
           "      random k-SAT: M clauses of K distinct variables (default 3) with random\n"
           "      signs; planted=1 keeps only clauses a hidden assignment satisfies\n"
           "each with optional seed=N (default 1); triangle meshes (FILE is a prefix, or\n"
           "PREFIX.node, PREFIX.node.gz to gzip: Triangle's .node, .ele and .poly):\n"
           "  mesh:n=N[,seed=S][,shape=square|disk]\n"
           "      N random points (square: the unit square's corners and N-4 inside;\n"
           "      disk: the unit disk), Delaunay-triangulated by Qhull, the convex\n"
           "      hull's edges as segments\n"
           "The same SPEC gives the same input on every machine.\n"
           "  -o, --output FILE   where to write (required)\n"
           "  --symmetrize        add the reverse of every arc\n");
}

/* Bodies, written as .bodies. */
static int gen_bodies(const char *spec, const char *out, bool symmetrize)
{
    clirr_error err;
    clirr_error_clear(&err);
    if (symmetrize)
        return cli_usage_error("gen", "--symmetrize is for graphs, not bodies");
    if (!cli_has_kind_extension(out, "bodies"))
        return cli_usage_error("gen", "bodies are written to a .bodies file (optionally .gz), not %s", out);
    clirr_bodies b = {0};
    int rc = clirr_bodies_generate(spec, &b, &err);
    if (rc == CLIRR_OK)
        rc = clirr_bodies_write(out, &b, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr gen: wrote %s: %u bodies\n", out, b.n);
    clirr_bodies_free(&b);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

/* A mesh, written as PREFIX.node, PREFIX.ele and PREFIX.poly. */
static int gen_mesh(const char *spec, const char *out, bool symmetrize)
{
    clirr_error err;
    clirr_error_clear(&err);
    if (symmetrize)
        return cli_usage_error("gen", "--symmetrize is for graphs, not meshes");
    clirr_mesh m = {0};
    int rc = clirr_mesh_generate(spec, &m, &err);
    if (rc == CLIRR_OK)
        rc = clirr_mesh_write(out, false, &m, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr gen: wrote %s (.node, .ele, .poly): %u points, %u triangles, %u segments\n", out,
                m.npoints, m.ntri, m.nseg);
    clirr_mesh_free(&m);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

/* A formula spec, written as DIMACS CNF. */
static int gen_cnf(const char *spec, const char *out, bool symmetrize)
{
    clirr_error err;
    clirr_error_clear(&err);
    if (symmetrize)
        return cli_usage_error("gen", "--symmetrize is for graphs, not formulas");
    if (!cli_has_kind_extension(out, "cnf"))
        return cli_usage_error("gen", "a formula is written to a .cnf file (optionally .gz), not %s", out);
    clirr_cnf f = {0};
    int rc = clirr_cnf_generate(spec, &f, &err);
    if (rc == CLIRR_OK)
        rc = clirr_cnf_write(out, &f, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr gen: wrote %s: %u variables, %u clauses\n", out, f.nvars, f.nclauses);
    clirr_cnf_free(&f);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

/* A list or a tree spec, written as .list or .tree. */
static int gen_other(const char *spec, const char *out, bool symmetrize)
{
    clirr_error err;
    clirr_error_clear(&err);
    bool list = clirr_list_spec(spec);
    if (symmetrize)
        return cli_usage_error("gen", "--symmetrize is for graphs, not %s", list ? "lists" : "trees");
    if (!cli_has_kind_extension(out, list ? "list" : "tree"))
        return cli_usage_error("gen", "a %s is written to a .%s file (optionally .gz), not %s",
                               list ? "list" : "tree", list ? "list" : "tree", out);
    int rc;
    if (list) {
        clirr_list l = {0};
        rc = clirr_list_generate(spec, &l, &err);
        if (rc == CLIRR_OK)
            rc = clirr_list_write(out, &l, &err);
        if (rc == CLIRR_OK)
            fprintf(stderr, "clirr gen: wrote %s: %u elements in %u list%s\n", out, l.n, l.lists,
                    l.lists == 1 ? "" : "s");
        clirr_list_free(&l);
    } else {
        clirr_tree t = {0};
        rc = clirr_tree_generate(spec, &t, &err);
        if (rc == CLIRR_OK)
            rc = clirr_tree_write(out, &t, &err);
        if (rc == CLIRR_OK)
            fprintf(stderr, "clirr gen: wrote %s: a tree of %u vertices\n", out, t.n);
        clirr_tree_free(&t);
    }
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

int cmd_gen(int argc, char **argv)
{
    const char *out = NULL;
    bool symmetrize = false;
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"symmetrize", no_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 's': symmetrize = true; break;
        case 'h': print_help(); return 0;
        default: return cli_usage_error("gen", "unknown option");
        }
    }
    if (optind >= argc)
        return cli_usage_error("gen", "missing SPEC");
    if (optind + 1 < argc)
        return cli_usage_error("gen", "unexpected argument '%s'", argv[optind + 1]);
    if (!out)
        return cli_usage_error("gen", "missing -o FILE");

    clirr_error err;
    clirr_error_clear(&err);
    if (clirr_bodies_spec(argv[optind]))
        return gen_bodies(argv[optind], out, symmetrize);
    if (clirr_cnf_spec(argv[optind]))
        return gen_cnf(argv[optind], out, symmetrize);
    if (clirr_mesh_spec(argv[optind]))
        return gen_mesh(argv[optind], out, symmetrize);
    if (clirr_list_spec(argv[optind]) || clirr_tree_spec(argv[optind]))
        return gen_other(argv[optind], out, symmetrize);
    clirr_graph g = {0};
    int rc = clirr_graph_generate(argv[optind], &g, &err);
    if (rc == CLIRR_OK && symmetrize)
        rc = clirr_graph_symmetrize(&g, &err);
    if (rc == CLIRR_OK)
        rc = clirr_graph_write(out, &g, &err);
    if (rc == CLIRR_OK)
        fprintf(stderr, "clirr gen: wrote %s: %u vertices, %u arcs%s\n", out, g.n, g.m,
                g.weight ? ", weighted" : "");
    clirr_graph_free(&g);
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}
