/* cl/heights.cl - tree heights (shared/papers/001, section III.C): a leaf
 * has height 1, any other vertex 1 + its largest child's, through the
 * recursion templates of cl/templates/tree_rec.clh. Host side:
 * host/algo/treerec.c. The flat walk gives ancestor at distance d at
 * least x + d (atomic_max). */
#define TR_NAME(x) heights_##x
#define TR_LEAF 1u
#define TR_FLAT_ADD(p, x, d) atomic_max((p), (x) + (d))
#define TR_FOLD(p, x) atomic_fetch_max_explicit((p), (x) + 1u, memory_order_relaxed, memory_scope_device)
#define TR_DIRECT(k) 2u
#include "templates/tree_rec.clh"
