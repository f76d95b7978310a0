/*
 * gate compare's shared types: its options, what the comparison as a whole
 * used, and one row per case; the command (gate/cmd/compare.c) fills them,
 * the printers (gate/cmd/compare-report.c) lay them out.
 */
#ifndef GATE_CMD_COMPARE_H
#define GATE_CMD_COMPARE_H

#include <stdio.h>

#include "gate/format/format.h"
#include "gate/decide/verdict.h"
#include "stats/stats.h"

struct cmp_opts {
	const char *files[2], *filter, *json;
	int have_format, advisory, strict;
	enum format format;
	struct fmt_opts fo;
	double floor, excludes, confidence;
	unsigned long seed;	/* --seed, kept in the report only */
	int have_seed;
};

/* What the comparison as a whole used, for every report. */
struct cmp_run {
	enum format used[2];
	int one_process[2];	/* a file's values are repetitions inside
				   one process */
	size_t compared;
	double alpha;		/* one-sided error of each bound per case */
	size_t min_n;		/* values per side for a bound at alpha */
	size_t normal;		/* cases whose depth came from the normal law */
	size_t single;		/* timing cases left noisy: a side's values
				   are repetitions inside one process */
};

struct row {
	const struct fmt_case *c[2];	/* old, new; NULL when absent */
	double med[2], spread[2];	/* median; max deviation, fraction */
	struct stats_shift sh;		/* of the log values */
	struct stats_mwu mwu;
	double ratio, low, high;	/* exp of the shift and its bounds */
	enum verdict verdict;
	int plus1;			/* a count with a 0: the ratios are
					   of (value + 1) */
	int single;			/* a timing left noisy: a side's
					   values are one process's */
	size_t units[2];		/* values compared per side: the
					   medians per process when a side
					   has several processes' repetitions */
	char *reason;
};

#define ONE_PROCESS_NOTE "values are repetitions within one process: the " \
	"interval covers that process's noise, not run-to-run variation"

/* A ratio as a change for people, bounded in width: "+12.3%", "+1.2e+09%",
   "+inf%". Returns buf. */
const char *compare_pct(char *buf, size_t size, double ratio);

/* The terminal table, suite line and protocol of the decided rows. */
void compare_print_term(FILE *out, const struct row *rows, size_t n,
			const struct cmp_opts *o, const struct cmp_run *run,
			enum verdict suite, int code);
/* The JSON report to path ("-": stdout). Returns 0 or -1 after error(). */
int compare_write_json(const char *path, const struct row *rows, size_t n,
		       const struct cmp_opts *o, const struct cmp_run *run,
		       enum verdict suite, int code);

#endif
