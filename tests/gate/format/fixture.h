/*
 * What the tests of gate/format/ share: reading a sample file, and
 * parsing with the error message caught (and checked to come back the
 * same through fmt_opts.err, unprinted).
 */
#ifndef TESTS_GATE_FORMAT_FIXTURE_H
#define TESTS_GATE_FORMAT_FIXTURE_H

#include <stddef.h>

#include "gate/format/format.h"

/* The whole file at path, NUL-terminated (aborts when unreadable). */
char *slurp(const char *path, size_t *len);
/*
 * Parse quietly; the error message, if any, lands in msg. On an error the
 * parse is repeated with o.err set: the same message must come back there,
 * with nothing printed (the suites quote it in the benchmark's error).
 */
int parse(struct fmt_table *t, enum format f, const char *text, size_t len,
	  char *msg, size_t size, int cpu);

#endif
