/* host/algo/input.c - inputs with their derived forms and device copies. */
#include "algo/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Device copies of one graph form on one context. */
typedef struct device_copy {
    clirr_ctx *ctx;
    clirr_graph_form form;
    bool with_weights;
    clirr_dgraph dg;
    struct device_copy *next;
} device_copy;

struct clirr_input {
    clirr_input_kind kind;
    char *name;
    clirr_graph owned;                    /* the graph, when the input owns it */
    const clirr_graph *graph;
    clirr_list owned_list;                /* the list, when the input owns it */
    const clirr_list *list;
    clirr_tree owned_tree;                /* the tree, when the input owns it */
    const clirr_tree *tree;
    clirr_bodies owned_bodies;            /* the bodies, when the input owns them */
    const clirr_bodies *bodies;
    clirr_tree_adj adj;                   /* the tree's adjacency, once built */
    bool have_adj;
    clirr_rooted rooted;                  /* the tree rooted, once made */
    bool have_rooted;
    clirr_cnf owned_cnf;                  /* the formula, when the input owns it */
    const clirr_cnf *cnf;
    clirr_cnf_factor factor;              /* the formula's factor graph, once built */
    bool have_factor;
    clirr_mesh owned_mesh;                /* the mesh, when the input owns it */
    const clirr_mesh *mesh;
    clirr_graph derived[CLIRR_FORM_COUNT_]; /* transpose, symmetric, undirected (AS_IS unused) */
    bool have[CLIRR_FORM_COUNT_];
    bool is_graph[CLIRR_FORM_COUNT_];     /* the form came out the graph itself: not kept twice */
    /* --reorder: the graph relabelled by each layout once asked for (an
     * input of its own, with its own forms and device copies), and
     * perm[old id] = new id */
    clirr_input *relabelled[CLIRR_REORDER_COUNT_];
    uint32_t *perm[CLIRR_REORDER_COUNT_];
    device_copy *copies;
};

static const char *kind_names[CLIRR_INPUT_KIND_COUNT_] = {"graph", "list", "tree", "bodies", "formula", "mesh"};

const char *clirr_input_kind_name(clirr_input_kind kind)
{
    return (unsigned)kind < CLIRR_INPUT_KIND_COUNT_ ? kind_names[kind] : "?";
}

static clirr_input *new_input(clirr_input_kind kind, const char *name, clirr_error *err)
{
    clirr_input *in = calloc(1, sizeof *in);
    if (!in || !(in->name = strdup(name ? name : kind_names[kind]))) {
        free(in);
        clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for an input");
        return NULL;
    }
    in->kind = kind;
    return in;
}

int clirr_input_from_list(clirr_list *l, bool own, const char *name, clirr_input **out,
                          clirr_error *err)
{
    clirr_input *in = new_input(CLIRR_INPUT_LIST, name, err);
    if (!in)
        return CLIRR_ERR_NOMEM;
    if (own) {
        in->owned_list = *l;
        memset(l, 0, sizeof *l);
        in->list = &in->owned_list;
    } else {
        in->list = l;
    }
    *out = in;
    return CLIRR_OK;
}

int clirr_input_from_tree(clirr_tree *t, bool own, const char *name, clirr_input **out,
                          clirr_error *err)
{
    clirr_input *in = new_input(CLIRR_INPUT_TREE, name, err);
    if (!in)
        return CLIRR_ERR_NOMEM;
    if (own) {
        in->owned_tree = *t;
        memset(t, 0, sizeof *t);
        in->tree = &in->owned_tree;
    } else {
        in->tree = t;
    }
    *out = in;
    return CLIRR_OK;
}

int clirr_input_from_bodies(clirr_bodies *b, bool own, const char *name, clirr_input **out,
                            clirr_error *err)
{
    clirr_input *in = new_input(CLIRR_INPUT_BODIES, name, err);
    if (!in)
        return CLIRR_ERR_NOMEM;
    if (own) {
        in->owned_bodies = *b;
        memset(b, 0, sizeof *b);
        in->bodies = &in->owned_bodies;
    } else {
        in->bodies = b;
    }
    *out = in;
    return CLIRR_OK;
}

int clirr_input_from_cnf(clirr_cnf *f, bool own, const char *name, clirr_input **out,
                         clirr_error *err)
{
    clirr_input *in = new_input(CLIRR_INPUT_CNF, name, err);
    if (!in)
        return CLIRR_ERR_NOMEM;
    if (own) {
        in->owned_cnf = *f;
        memset(f, 0, sizeof *f);
        in->cnf = &in->owned_cnf;
    } else {
        in->cnf = f;
    }
    *out = in;
    return CLIRR_OK;
}

int clirr_input_from_mesh(clirr_mesh *m, bool own, const char *name, clirr_input **out,
                          clirr_error *err)
{
    clirr_input *in = new_input(CLIRR_INPUT_MESH, name, err);
    if (!in)
        return CLIRR_ERR_NOMEM;
    if (own) {
        in->owned_mesh = *m;
        memset(m, 0, sizeof *m);
        in->mesh = &in->owned_mesh;
    } else {
        in->mesh = m;
    }
    *out = in;
    return CLIRR_OK;
}

int clirr_input_from_graph(clirr_graph *g, bool own, const char *name, clirr_input **out,
                           clirr_error *err)
{
    clirr_input *in = new_input(CLIRR_INPUT_GRAPH, name, err);
    if (!in)
        return CLIRR_ERR_NOMEM;
    if (own) {
        in->owned = *g;
        memset(g, 0, sizeof *g);
        in->graph = &in->owned;
    } else {
        in->graph = g;
    }
    *out = in;
    return CLIRR_OK;
}

static void drop_copies(clirr_input *in, const clirr_ctx *ctx)
{
    device_copy **p = &in->copies;
    while (*p) {
        device_copy *c = *p;
        if (!ctx || c->ctx == ctx) {
            *p = c->next;
            clirr_dgraph_release(&c->dg);
            free(c);
        } else {
            p = &c->next;
        }
    }
}

void clirr_input_detach(clirr_input *in, clirr_ctx *ctx)
{
    if (!in || !ctx)
        return;
    drop_copies(in, ctx);
    for (int r = 0; r < CLIRR_REORDER_COUNT_; r++)
        clirr_input_detach(in->relabelled[r], ctx);
}

void clirr_input_free(clirr_input *in)
{
    if (!in)
        return;
    drop_copies(in, NULL);
    for (int f = 0; f < CLIRR_FORM_COUNT_; f++)
        if (in->have[f] && !in->is_graph[f])
            clirr_graph_free(&in->derived[f]);
    for (int r = 0; r < CLIRR_REORDER_COUNT_; r++) {
        clirr_input_free(in->relabelled[r]);
        free(in->perm[r]);
    }
    clirr_graph_free(&in->owned);
    clirr_list_free(&in->owned_list);
    clirr_tree_free(&in->owned_tree);
    clirr_bodies_free(&in->owned_bodies);
    if (in->have_adj)
        clirr_tree_adj_free(&in->adj);
    if (in->have_rooted)
        clirr_rooted_free(&in->rooted);
    clirr_cnf_free(&in->owned_cnf);
    clirr_cnf_factor_free(&in->factor);
    clirr_mesh_free(&in->owned_mesh);
    free(in->name);
    free(in);
}

clirr_input_kind clirr_input_kind_of(const clirr_input *in) { return in->kind; }
const char *clirr_input_name(const clirr_input *in) { return in->name; }

const clirr_graph *clirr_input_graph(const clirr_input *in)
{
    return in->kind == CLIRR_INPUT_GRAPH ? in->graph : NULL;
}

const clirr_list *clirr_input_list(const clirr_input *in)
{
    return in->kind == CLIRR_INPUT_LIST ? in->list : NULL;
}

const clirr_tree *clirr_input_tree(const clirr_input *in)
{
    return in->kind == CLIRR_INPUT_TREE ? in->tree : NULL;
}

const clirr_bodies *clirr_input_bodies(const clirr_input *in)
{
    return in->kind == CLIRR_INPUT_BODIES ? in->bodies : NULL;
}

const clirr_cnf *clirr_input_cnf(const clirr_input *in)
{
    return in->kind == CLIRR_INPUT_CNF ? in->cnf : NULL;
}

const clirr_mesh *clirr_input_mesh(const clirr_input *in)
{
    return in->kind == CLIRR_INPUT_MESH ? in->mesh : NULL;
}

int clirr_input_cnf_factor(const clirr_input *cin, const clirr_cnf_factor **fg, clirr_error *err)
{
    clirr_input *in = (clirr_input *)cin; /* a cache, as the graph forms */
    if (in->kind != CLIRR_INPUT_CNF)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s is a %s, not a formula", in->name, kind_names[in->kind]);
    if (!in->have_factor) {
        int rc = clirr_cnf_factor_build(in->cnf, &in->factor, err);
        if (rc != CLIRR_OK)
            return rc;
        in->have_factor = true;
    }
    *fg = &in->factor;
    return CLIRR_OK;
}

int clirr_input_tree_adj(const clirr_input *cin, const clirr_tree_adj **adj, clirr_error *err)
{
    /* A cache, as the graph forms below. */
    clirr_input *in = (clirr_input *)cin;
    if (in->kind != CLIRR_INPUT_TREE)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s is a %s, not a tree", in->name, kind_names[in->kind]);
    if (!in->have_adj) {
        int rc = clirr_tree_adjacency(in->tree, &in->adj, err);
        if (rc != CLIRR_OK)
            return rc;
        in->have_adj = true;
    }
    *adj = &in->adj;
    return CLIRR_OK;
}

int clirr_input_tree_rooted(const clirr_input *cin, const clirr_rooted **r, clirr_error *err)
{
    clirr_input *in = (clirr_input *)cin;
    const clirr_tree_adj *a = NULL;
    if (in->have_rooted && in->rooted.root != in->tree->root) { /* the caller moved the root */
        clirr_rooted_free(&in->rooted);
        in->have_rooted = false;
    }
    if (!in->have_rooted) {
        int rc = clirr_input_tree_adj(in, &a, err);
        if (rc == CLIRR_OK)
            rc = clirr_rooted_make(a, in->tree->root, &in->rooted, err);
        if (rc != CLIRR_OK)
            return rc;
        in->have_rooted = true;
    }
    *r = &in->rooted;
    return CLIRR_OK;
}

uint64_t clirr_input_items(const clirr_input *in)
{
    switch (in->kind) {
    case CLIRR_INPUT_GRAPH: return in->graph ? in->graph->n : 0;
    case CLIRR_INPUT_LIST: return in->list->n;
    case CLIRR_INPUT_TREE: return in->tree->n;
    case CLIRR_INPUT_BODIES: return in->bodies->n;
    case CLIRR_INPUT_CNF: return (uint64_t)in->cnf->nvars + 1;
    case CLIRR_INPUT_MESH: return 1;
    case CLIRR_INPUT_KIND_COUNT_: break;
    }
    return 0;
}

void clirr_input_describe(const clirr_input *in, char *buf, size_t size)
{
    switch (in->kind) {
    case CLIRR_INPUT_LIST:
        snprintf(buf, size, "%u elements in %u list%s", in->list->n, in->list->lists,
                 in->list->lists == 1 ? "" : "s");
        return;
    case CLIRR_INPUT_TREE:
        snprintf(buf, size, "%u vertices, root %u", in->tree->n, in->tree->root);
        return;
    case CLIRR_INPUT_BODIES:
        snprintf(buf, size, "%u bodies", in->bodies->n);
        return;
    case CLIRR_INPUT_CNF:
        snprintf(buf, size, "%u variables, %u clauses, %u literals", in->cnf->nvars, in->cnf->nclauses,
                 in->cnf->nlits);
        return;
    case CLIRR_INPUT_MESH:
        snprintf(buf, size, "%u points, %u triangles, %u segments", in->mesh->npoints, in->mesh->ntri,
                 in->mesh->nseg);
        return;
    default:
        snprintf(buf, size, "%u vertices, %u arcs, %s", in->graph->n, in->graph->m,
                 in->graph->weight ? "weighted" : "unweighted");
        return;
    }
}

int clirr_input_graph_form(const clirr_input *cin, clirr_graph_form form, const clirr_graph **g,
                           clirr_error *err)
{
    /* Derived forms are a cache: filling one does not change what the
     * input is, so a const input may fill it. */
    clirr_input *in = (clirr_input *)cin;
    if (form == CLIRR_FORM_AS_IS) {
        *g = in->graph;
        return CLIRR_OK;
    }
    if (!in->have[form]) {
        int rc = CLIRR_OK;
        if (form == CLIRR_FORM_TRANSPOSED) {
            rc = clirr_graph_transpose(in->graph, &in->derived[form], err);
        } else if (form == CLIRR_FORM_UNDIRECTED) {
            rc = clirr_graph_undirected(in->graph, &in->derived[form], err);
        } else {
            rc = clirr_graph_copy(in->graph, &in->derived[form], err);
            if (rc == CLIRR_OK)
                rc = clirr_graph_symmetrize(&in->derived[form], err);
            if (rc != CLIRR_OK)
                clirr_graph_free(&in->derived[form]);
        }
        if (rc != CLIRR_OK)
            return rc;
        in->have[form] = true;
        /* A form that comes out the graph itself (a symmetric graph whose
         * rows are sorted, as grids, road networks and GAPBS's files, is its
         * own transpose and closure) is kept once, with one device copy and
         * one upload; kernels that read a row and its transposed row then
         * read the same memory. */
        if (clirr_graph_equal(in->graph, &in->derived[form])) {
            clirr_graph_free(&in->derived[form]);
            in->is_graph[form] = true;
        }
    }
    *g = in->is_graph[form] ? in->graph : &in->derived[form];
    return CLIRR_OK;
}

int clirr_input_relabelled(const clirr_input *cin, clirr_reorder how, const clirr_input **out,
                           const uint32_t **perm, clirr_error *err)
{
    /* A cache, as the graph forms above. */
    clirr_input *in = (clirr_input *)cin;
    if (in->kind != CLIRR_INPUT_GRAPH)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s is a %s, not a graph", in->name, kind_names[in->kind]);
    if (how <= CLIRR_REORDER_NONE || how >= CLIRR_REORDER_COUNT_)
        return clirr_fail(err, CLIRR_ERR_USAGE, "no layout to relabel %s by", in->name);
    if (!in->relabelled[how]) {
        const clirr_graph *g = in->graph;
        uint32_t *p = malloc(((size_t)g->n + 1) * sizeof *p);
        if (!p)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory relabelling %s", in->name);
        clirr_graph pg;
        int rc = clirr_graph_reorder(g, how, p, err);
        if (rc == CLIRR_OK && (rc = clirr_graph_permute(g, p, &pg, err)) == CLIRR_OK &&
            (rc = clirr_input_from_graph(&pg, true, in->name, &in->relabelled[how], err)) != CLIRR_OK)
            clirr_graph_free(&pg);
        if (rc != CLIRR_OK) {
            free(p);
            return rc;
        }
        in->perm[how] = p;
    }
    *out = in->relabelled[how];
    *perm = in->perm[how];
    return CLIRR_OK;
}

int clirr_input_device_graph(const clirr_input *cin, clirr_ctx *ctx, clirr_graph_form form,
                             bool with_weights, const clirr_dgraph **dg, clirr_error *err)
{
    clirr_input *in = (clirr_input *)cin;
    const clirr_graph *g = NULL;
    int rc = clirr_input_graph_form(in, form, &g, err);
    if (rc != CLIRR_OK)
        return rc;
    with_weights = with_weights && g->weight;
    if (in->is_graph[form])
        form = CLIRR_FORM_AS_IS;
    for (device_copy *c = in->copies; c; c = c->next)
        if (c->ctx == ctx && c->form == form && c->with_weights == with_weights) {
            *dg = &c->dg;
            return CLIRR_OK;
        }
    device_copy *c = calloc(1, sizeof *c);
    if (!c)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a device graph");
    rc = clirr_dgraph_upload(ctx, g, with_weights, &c->dg, err);
    if (rc != CLIRR_OK) {
        free(c);
        return rc;
    }
    c->ctx = ctx;
    c->form = form;
    c->with_weights = with_weights;
    c->next = in->copies;
    in->copies = c;
    *dg = &c->dg;
    return CLIRR_OK;
}
