/*
 * A suite's samples as they are measured: each process's output read by
 * its format into per-case values, pair by pair (measure-suite.c). The
 * fan-out into compared cases is the decide stage's (gate/decide/suite.h).
 */
#ifndef GATE_MEASURE_SUITE_H
#define GATE_MEASURE_SUITE_H

#include <stddef.h>

#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/measure/measure.h"

/* One case of a suite: its value in each pair and arm, after reduction. */
struct suite_case {
	char *name, *unit;
	int higher_better;
	int in[2];		/* present in that arm's output */
	double *v[2];		/* [pair], by enum arm */
	size_t vcap[2];
	size_t inner;		/* most values one process gave (repetitions) */
};

struct suite_data {
	struct suite_case *cases;
	size_t n, cap;
	size_t samples[2];	/* samples parsed per arm, warm-ups in */
	size_t counted[2];	/* runs counted per case, per arm
				   (gate/measure/measure-counted.c) */
	long procs[2];		/* go: GOMAXPROCS each arm's names carried
				   ("-8", dropped from them), 0: none */
	/* a round of more pairs: only these cases must be printed (NULL:
	   every case of the manifest) */
	const char *const *want;
	size_t nwant;
};

/* Whether case name is asked for in this sample (every case outside a
   round of more pairs). */
int suite_wanted(const struct suite_data *sd, const char *name);
/* The case of sd named name with unit unit, or NULL. */
struct suite_case *suite_case_find(struct suite_data *sd, const char *name,
				   const char *unit);
/*
 * 1 when unit, printed by a suite of format f beside a case's time,
 * restates that time as a throughput (gbench's items/s and B/s, go's
 * MB/s): shown beside the case, never decided apart from it.
 */
int suite_restates_time(enum format f, const char *unit);
/* Which time a suite case reports: "cpu_time", "real_time", "as printed". */
const char *suite_time(const struct bench_run *br);
/* "median of 5 repetitions per process" or "1 value per process". */
const char *suite_reduction(const struct bench_run *br, char *buf,
			    size_t size);

/*
 * Parse a suite sample's stdout (res) into br->suite and check it against
 * the arm's manifest (the case list of its first sample): every case in
 * every sample, no case added. pair is the pair index, or -1 for a warm-up
 * (values not kept). 0, or -1 with br->error set.
 */
int suite_parse_sample(struct bench_run *br, enum arm a, const char *label,
		       const struct run_result *res, long pair);

#endif
