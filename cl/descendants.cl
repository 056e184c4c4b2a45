/* cl/descendants.cl - tree descendants (shared/papers/001, Fig. 3): the
 * number of descendants of every vertex, through the recursion templates
 * of cl/templates/tree_rec.clh. Host side: host/algo/treerec.c. A leaf
 * has 0; a vertex adds 1 + each child's. */
#define TR_NAME(x) desc_##x
#define TR_LEAF 0u
#define TR_FLAT_ADD(p, x, d) atomic_add((p), (x) + 1u)
#define TR_FOLD(p, x) atomic_fetch_add_explicit((p), (x) + 1u, memory_order_relaxed, memory_scope_device)
#define TR_DIRECT(k) (k)
#include "templates/tree_rec.clh"
