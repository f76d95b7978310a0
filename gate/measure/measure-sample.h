/*
 * One sample of one arm, for gate/measure/measure.c's loop (private to gate/measure*.c).
 */
#ifndef GATE_MEASURE_SAMPLE_H
#define GATE_MEASURE_SAMPLE_H

#include "gate/measure/measure.h"

/*
 * One sample of arm a into out; label is "warm-up 1" or "pair 3", tmp the
 * samples' directory, pair the pair's index (-1 for a warm-up). counted:
 * take the valgrind run too (when the benchmark counts with valgrind).
 * Returns 0, -1 with br->error set, or the interrupting signal's number
 * (measure_bench names it MEASURE_INTERRUPTED).
 */
int measure_sample(struct bench_run *br, const struct measure_opts *opt,
		   enum arm a, const char *label, const char *tmp, int counted,
		   struct sample *out, long pair);

/*
 * One run of a batch: arm a's sample out, for label; plain: the plain run
 * of a benchmark whose metrics are all counts (measure_counts_only), else
 * the run under valgrind.
 */
struct counted_job {
	enum arm a;
	const char *label;	/* "pair 3" */
	struct sample *out;
	int plain;
	long pair;		/* its pair's index, -1 for a warm-up (a
				   counted suite keeps its cases' counts
				   there) */
};

/*
 * The runs of jobs[0..n) (all plain or all under valgrind), all at once
 * (counts do not depend on load; the caller takes no timed run
 * meanwhile), each with a directory of its own under tmp and its own
 * $GATE_TMPDIR there. Returns 0, -1 with br->error set (the first job's
 * error in the order given), or the interrupting signal's number.
 */
int measure_counted(struct bench_run *br, const struct measure_opts *opt,
		    const struct counted_job *jobs, size_t n, const char *tmp);

#endif
