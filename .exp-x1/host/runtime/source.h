/* host/runtime/source.h - reading kernel sources with includes expanded. */
#ifndef CLIRR_RUNTIME_SOURCE_H
#define CLIRR_RUNTIME_SOURCE_H

#include "runtime/runtime.h"

/* Read root/file as it is (malloc'd, NUL-terminated). */
int clirr_source_read(const char *root, const char *file, char **text, clirr_error *err);

/* Replace every `#include "x"` line of text (x relative to root) by the
 * text of x, expanded the same way (each time, as cpp does), with #line markers so
 * compiler messages name the right file and line. label names text in
 * those markers and in messages. *out is malloc'd. */
int clirr_source_expand(const char *root, const char *label, const char *text, char **out,
                        clirr_error *err);

#endif
