/* tests/reader_fuzz.h - mutation fuzzing of a text reader, shared by the
 * list and tree tests: 3000 mutated copies of a sample (digits, signs,
 * blanks, newlines, comment marks, NUL and 0xff bytes, insertions,
 * deletions, cuts) must each be accepted as valid or refused with a
 * message naming the file; then the reader's fuzz harness binary
 * (tests/fuzz) gets a short smoke run over the same sample. */
#ifndef CLIRR_TESTS_READER_FUZZ_H
#define CLIRR_TESTS_READER_FUZZ_H

#include "harness.h"

/* Read path: CLIRR_OK when accepted (the callback has checked the
 * structure and freed it; CLIRR_ERR_VERIFY with err set when the accepted
 * input was invalid), CLIRR_ERR_INPUT when refused. */
typedef int (*th_reader_fn)(const char *path, clirr_error *err);

/* Fuzz `read` from the sample file; mutated copies go to th_tmp_dir()/name
 * (e.g. "fuzz.list"), and `harness` names the fuzz binary
 * ("fuzz-read-list"), skipped when not built. */
void th_fuzz_reader(th_case *tc, const char *sample, const char *name, th_reader_fn read, const char *harness);

#endif
