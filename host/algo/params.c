/* host/algo/params.c - an algorithm's typed parameters (from its
 * descriptor's list), its variants by name, and the default intent. */
#include "clirr/algo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clirr_algo_variant(const clirr_algo *a, const char *name)
{
    for (unsigned i = 0; i < a->nvariants; i++)
        if (a->variants[i].name && !strcmp(a->variants[i].name, name))
            return (int)i;
    return -1;
}

int clirr_algo_param(const clirr_algo *a, const char *name)
{
    for (unsigned i = 0; i < a->nparams; i++)
        if (!strcmp(a->params[i].name, name))
            return (int)i;
    return -1;
}

static bool parse_bool(const char *text, bool *b)
{
    static const char *yes[] = {"on", "yes", "true", "1"}, *no[] = {"off", "no", "false", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcmp(text, yes[i]))
            return *b = true, true;
        if (!strcmp(text, no[i]))
            return *b = false, true;
    }
    return false;
}

int clirr_param_set(const clirr_algo *a, unsigned i, const char *text, clirr_params *p,
                    clirr_error *err)
{
    const clirr_param_desc *d = &a->params[i];
    char *end = NULL;
    errno = 0;
    switch (d->type) {
    case CLIRR_PARAM_UINT: {
        unsigned long long v = *text && *text != '-' && *text != '+' ? strtoull(text, &end, 10) : 0;
        if (!end || *end || errno || (double)v < d->min || (double)v > d->max)
            return clirr_fail(err, CLIRR_ERR_USAGE, "--%s needs a whole number from %.0f to %.0f, not '%s'",
                              d->name, d->min, d->max, text);
        p->v[i].u = v;
        return CLIRR_OK;
    }
    case CLIRR_PARAM_REAL: {
        double v = *text ? strtod(text, &end) : NAN;
        if (!end || *end || errno || !isfinite(v) || v < d->min || v > d->max)
            return clirr_fail(err, CLIRR_ERR_USAGE, "--%s needs a number from %g to %g, not '%s'",
                              d->name, d->min, d->max, text);
        p->v[i].r = v;
        return CLIRR_OK;
    }
    case CLIRR_PARAM_BOOL:
        if (!parse_bool(text, &p->v[i].b))
            return clirr_fail(err, CLIRR_ERR_USAGE, "--%s is on or off, not '%s'", d->name, text);
        return CLIRR_OK;
    case CLIRR_PARAM_PATH:
        p->v[i].path = *text ? text : NULL;
        return CLIRR_OK;
    case CLIRR_PARAM_CHOICE: {
        char words[256] = "";
        for (unsigned k = 0; d->choices[k]; k++) {
            if (!strcmp(text, d->choices[k])) {
                p->v[i].u = k;
                return CLIRR_OK;
            }
            snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s", k ? ", " : "",
                     d->choices[k]);
        }
        return clirr_fail(err, CLIRR_ERR_USAGE, "--%s is one of %s, not '%s'", d->name, words, text);
    }
    }
    return clirr_fail(err, CLIRR_ERR_USAGE, "--%s: unknown parameter type", d->name);
}

void clirr_param_text(const clirr_algo *a, unsigned i, const clirr_params *p, char *buf,
                      size_t size)
{
    const clirr_param_value *v = &p->v[i];
    switch (a->params[i].type) {
    case CLIRR_PARAM_UINT: snprintf(buf, size, "%llu", (unsigned long long)v->u); break;
    case CLIRR_PARAM_REAL: snprintf(buf, size, "%.17g", v->r); break;
    case CLIRR_PARAM_BOOL: snprintf(buf, size, "%s", v->b ? "on" : "off"); break;
    case CLIRR_PARAM_PATH: snprintf(buf, size, "%s", v->path ? v->path : ""); break;
    case CLIRR_PARAM_CHOICE: snprintf(buf, size, "%s", a->params[i].choices[v->u]); break;
    }
    /* The shortest text that reads back as the same double. */
    if (a->params[i].type == CLIRR_PARAM_REAL)
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, size, "%.*g", prec, v->r);
            if (strtod(buf, NULL) == v->r)
                break;
        }
}

void clirr_params_default(const clirr_algo *a, clirr_params *p)
{
    memset(p, 0, sizeof *p);
    /* Descriptors' defaults are checked by the tests, so they parse. */
    for (unsigned i = 0; i < a->nparams && i < CLIRR_MAX_PARAMS; i++)
        (void)clirr_param_set(a, i, a->params[i].def, p, NULL);
}

void clirr_intent_default(const clirr_algo *a, clirr_intent *it)
{
    memset(it, 0, sizeof *it);
    it->variant = -1;
    it->tmpl = -1;
    it->push = CLIRR_PUSH_AUTO;
    it->local_rounds = -1;
    it->queue_rounds = -1;
    it->reorder = CLIRR_REORDER_AUTO;
    it->source.rule = a->sources == CLIRR_SOURCES_MANY ? CLIRR_SOURCE_SPREAD : CLIRR_SOURCE_VERTEX;
    clirr_params_default(a, &it->params);
}
