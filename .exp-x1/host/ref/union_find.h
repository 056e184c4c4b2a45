/* host/ref/union_find.h - the serial union-find the references share:
 * path halving, and the larger root linked under the smaller, so every
 * root is the smallest vertex of its set. */
#ifndef CLIRR_REF_UNION_FIND_H
#define CLIRR_REF_UNION_FIND_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t uf_find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Join the sets of a and b; false when they were one set already. */
static inline bool uf_union(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a == b)
        return false;
    if (a < b)
        parent[b] = a;
    else
        parent[a] = b;
    return true;
}

static inline void uf_init(uint32_t *parent, uint32_t n)
{
    for (uint32_t v = 0; v < n; v++)
        parent[v] = v;
}

#endif
