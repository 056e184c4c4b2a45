/* host/algo/input.h - what algorithms read from a clirr_input besides its
 * graph: host forms derived once (transpose, symmetric closure, a rooted
 * tree) and device
 * copies kept per context, so every algorithm and trial that shares an
 * input shares them. */
#ifndef CLIRR_ALGO_INPUT_H
#define CLIRR_ALGO_INPUT_H

#include "algo/dgraph.h"
#include "clirr/algo.h"
#include "ref/treerec.h"

typedef enum clirr_graph_form {
    CLIRR_FORM_AS_IS = 0,   /* the graph as given */
    CLIRR_FORM_TRANSPOSED,  /* every arc reversed (in-arcs) */
    CLIRR_FORM_SYMMETRIC,   /* every arc in both directions */
    CLIRR_FORM_UNDIRECTED,  /* simple undirected: one arc each way per pair,
                             * the lightest weight, no self-loops, rows sorted
                             * (clirr_graph_undirected) */
    CLIRR_FORM_COUNT_
} clirr_graph_form;

/* The graph in form `form`, derived on first use and kept with the input.
 * The graph belongs to the input. */
int clirr_input_graph_form(const clirr_input *in, clirr_graph_form form, const clirr_graph **g,
                           clirr_error *err);

/* The graph input relabelled by layout `how` (not NONE), with perm[old id]
 * = new id, made on first use and kept with the input: an input of its
 * own, whose forms and device copies are kept as this one's, so every
 * session that runs on the layout shares them (--reorder). Both belong to
 * the input. */
int clirr_input_relabelled(const clirr_input *in, clirr_reorder how, const clirr_input **out,
                           const uint32_t **perm, clirr_error *err);

/* The graph in form `form` on ctx's device (its weights too when
 * with_weights and it has them), uploaded on first use and kept until the
 * input is detached or freed. The upload is timed as a transfer. */
int clirr_input_device_graph(const clirr_input *in, clirr_ctx *ctx, clirr_graph_form form,
                             bool with_weights, const clirr_dgraph **dg, clirr_error *err);

/* The tree rooted at its root (parent, depth, breadth-first order,
 * children by parent), made on first use and kept with the input: the
 * recursion templates' preparation, reference and verifier share it. */
int clirr_input_tree_rooted(const clirr_input *in, const clirr_rooted **r, clirr_error *err);

#endif
