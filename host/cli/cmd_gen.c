/* host/cli/cmd_gen.c - `clirr gen SPEC -o FILE`: generate a graph and write
 * it in the format named by FILE's extension. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>

static void print_help(void)
{
    printf("usage: clirr gen SPEC -o FILE [--symmetrize]\n"
           "\n"
           "Generates a graph and writes it in the format of FILE's extension\n"
           "(.gr .mtx .el .txt .wel .csr, any of them with .gz).\n"
           "SPEC is KIND:key=value,... :\n"
           "  rmat:scale=S,ef=E[,a=..,b=..,c=..,d=..][,permute=0|1]\n"
           "  random:n=N,m=M\n"
           "  grid:w=W,h=H\n"
           "each with optional seed=N (default 1) and weights=LO-HI.\n"
           "The same SPEC gives the same graph on every machine.\n"
           "  -o, --output FILE   where to write (required)\n"
           "  --symmetrize        add the reverse of every arc\n");
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
