/* host/base/spec.c - "KIND:key=value,..." against per-kind key tables. */
#include "base/spec.h"

#include <stdio.h>
#include <string.h>

bool clirr_spec_parse_uint(const char *s, size_t len, uint64_t *v)
{
    if (len == 0 || len > 20)
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

void clirr_spec_join_names(char *buf, size_t size, const char *const *names, size_t n, size_t stride)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        const char *name = *(const char *const *)((const char *)names + i * stride);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", name);
    }
}

static size_t kind_len(const char *spec)
{
    const char *colon = strchr(spec, ':');
    return colon ? (size_t)(colon - spec) : strlen(spec);
}

static int find_kind(const char *spec, const clirr_spec_kind *kinds, size_t nkinds)
{
    size_t klen = kind_len(spec);
    for (size_t i = 0; i < nkinds; i++)
        if (strlen(kinds[i].name) == klen && !strncmp(spec, kinds[i].name, klen))
            return (int)i;
    return -1;
}

bool clirr_spec_is(const char *spec, const clirr_spec_kind *kinds, size_t nkinds)
{
    return spec && find_kind(spec, kinds, nkinds) >= 0;
}

static int parse_value(const char *spec, const clirr_spec_key *key, const char *s, size_t len,
                       void *out, clirr_error *err)
{
    uint64_t *dst = (uint64_t *)((char *)out + key->off);
    if (key->type == CLIRR_SPEC_UINT) {
        uint64_t x;
        if (!clirr_spec_parse_uint(s, len, &x) || x < key->lo || x > key->hi)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': key '%s': expected an integer from %llu to %llu, "
                              "found '%.*s'", spec, key->name, (unsigned long long)key->lo,
                              (unsigned long long)key->hi, (int)len, s);
        *dst = x;
        return CLIRR_OK;
    }
    size_t n = 0;
    while (key->words[n])
        n++;
    for (size_t i = 0; i < n; i++)
        if (strlen(key->words[i]) == len && !strncmp(key->words[i], s, len)) {
            *dst = i;
            return CLIRR_OK;
        }
    char valid[512];
    clirr_spec_join_names(valid, sizeof valid, key->words, n, sizeof key->words[0]);
    return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': key '%s': expected one of %s, found '%.*s'",
                      spec, key->name, valid, (int)len, s);
}

int clirr_spec_walk(const char *spec, const char *kind, const char *const *names, size_t nkeys, size_t stride,
                    const char *valid, clirr_spec_value_fn value, void *user, uint64_t *seen, clirr_error *err)
{
    *seen = 0;
    const char *colon = strchr(spec, ':');
    const char *s = colon ? colon + 1 : NULL;
    while (s) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (!eq || eq == s)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': expected key=value, found '%.*s' (keys of %s: %s)",
                              spec, (int)len, s, kind, valid);
        size_t nlen = (size_t)(eq - s), i = 0;
        const char *name = NULL;
        for (; i < nkeys; i++) {
            name = *(const char *const *)((const char *)names + i * stride);
            if (strlen(name) == nlen && !strncmp(name, s, nlen))
                break;
        }
        if (i == nkeys)
            return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': unknown key '%.*s' for %s (valid: %s)",
                              spec, (int)nlen, s, kind, valid);
        if (*seen & (1ull << i))
            return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': key '%s' is given twice", spec, name);
        *seen |= 1ull << i;
        int rc = value(user, i, eq + 1, len - nlen - 1, err);
        if (rc != CLIRR_OK)
            return rc;
        s = comma ? comma + 1 : NULL;
    }
    return CLIRR_OK;
}

/* clirr_spec_parse's values: into out at each key's offset. */
struct key_value {
    const char *spec;
    const clirr_spec_key *keys;
    void *out;
};

static int key_value(void *user, size_t key, const char *text, size_t len, clirr_error *err)
{
    struct key_value *kv = user;
    return parse_value(kv->spec, &kv->keys[key], text, len, kv->out, err);
}

int clirr_spec_parse(const char *spec, const char *family, const clirr_spec_kind *kinds,
                     size_t nkinds, void *out, clirr_error *err)
{
    char names[256];
    clirr_spec_join_names(names, sizeof names, &kinds[0].name, nkinds, sizeof kinds[0]);
    if (!spec || !*spec)
        return clirr_fail(err, CLIRR_ERR_USAGE, "empty %s generator spec (kinds: %s)", family, names);
    int k = find_kind(spec, kinds, nkinds);
    if (k < 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': unknown %s kind '%.*s' (valid: %s)",
                          spec, family, (int)kind_len(spec), spec, names);
    const clirr_spec_kind *kd = &kinds[k];
    char valid[256];
    clirr_spec_join_names(valid, sizeof valid, &kd->keys[0].name, kd->nkeys, sizeof kd->keys[0]);
    uint64_t seen = 0;
    struct key_value kv = {spec, kd->keys, out};
    int rc = clirr_spec_walk(spec, kd->name, &kd->keys[0].name, kd->nkeys, sizeof kd->keys[0], valid, key_value,
                             &kv, &seen, err);
    if (rc != CLIRR_OK)
        return rc;
    for (size_t i = 0; i < kd->nkeys; i++)
        if (kd->keys[i].required && !(seen & (1ull << i)))
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': missing required key '%s' (keys of %s: %s)", spec,
                              kd->keys[i].name, kd->name, valid);
    return k;
}
