/* host/base/spec.h - parsing generator specs "KIND:key=value,..." from a
 * table of keys per kind, for the input kinds whose generators take one
 * (lists, trees). Every error is CLIRR_ERR_USAGE and names the spec and
 * the key. No OpenCL, no input kind: callers bring their own tables. */
#ifndef CLIRR_BASE_SPEC_H
#define CLIRR_BASE_SPEC_H

#include "clirr/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum clirr_spec_type {
    CLIRR_SPEC_UINT, /* a decimal integer within [lo, hi], into a uint64_t */
    CLIRR_SPEC_WORD  /* one of `words` (NULL-terminated), its index into a uint64_t */
} clirr_spec_type;

typedef struct clirr_spec_key {
    const char *name;
    clirr_spec_type type;
    uint64_t lo, hi;            /* CLIRR_SPEC_UINT */
    const char *const *words;   /* CLIRR_SPEC_WORD */
    bool required;
    size_t off;                 /* offset of the uint64_t the value goes to */
} clirr_spec_key;

/* One kind of a generator: its name and keys. */
typedef struct clirr_spec_kind {
    const char *name;
    const clirr_spec_key *keys;
    size_t nkeys;
} clirr_spec_kind;

/* Parse spec against the kinds (family names them in messages, e.g.
 * "list"). Returns the index of the kind the spec names (>= 0), with the
 * keys it gives written into out; keys it does not give keep what out
 * held. A negative status (CLIRR_ERR_USAGE) on an unknown kind or key, a
 * key given twice, a missing required key or a value out of range. */
int clirr_spec_parse(const char *spec, const char *family, const clirr_spec_kind *kinds,
                     size_t nkinds, void *out, clirr_error *err);

/* The decimal integer s[0..len) (no sign, no spaces; at most 20 digits,
 * no overflow) into *v; false when it is not one. Shared with the graph
 * generators' own spec parser. */
bool clirr_spec_parse_uint(const char *s, size_t len, uint64_t *v);

/* "a, b, c": the names of n entries `stride` bytes apart whose first field
 * is the name (from names, the first entry's), into buf. */
void clirr_spec_join_names(char *buf, size_t size, const char *const *names, size_t n, size_t stride);

/* The "key=value,..." items after spec's colon, each key looked up among
 * nkeys entries `stride` bytes apart whose first field is the key's name
 * (from names, the first entry's): an item that is not key=value, an
 * unknown key or a key given twice is CLIRR_ERR_USAGE naming spec, kind and
 * the valid keys; otherwise value(user, key index, text, length, err) takes
 * the value. *seen gets bit i for key i given (at most 64 keys). Both spec
 * parsers (this file's, graph/gen_spec.c's) walk their specs with it. */
typedef int (*clirr_spec_value_fn)(void *user, size_t key, const char *text, size_t len, clirr_error *err);
int clirr_spec_walk(const char *spec, const char *kind, const char *const *names, size_t nkeys, size_t stride,
                    const char *valid, clirr_spec_value_fn value, void *user, uint64_t *seen, clirr_error *err);

/* True when spec names one of the kinds ("KIND" or "KIND:..."). */
bool clirr_spec_is(const char *spec, const clirr_spec_kind *kinds, size_t nkinds);

#endif
