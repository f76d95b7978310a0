/*
 * Which metric would decide where wall time cannot: from the pairs a run
 * or gate calibrate measured, cpu time (always measured, from rusage),
 * the counts measured beside it, or a count under valgrind. Advice for the
 * next run only: the metric is never switched after seeing the data.
 */
#ifndef GATE_ADVICE_H
#define GATE_ADVICE_H

#include <stddef.h>

#include "gate/measure/measure.h"
#include "gate/decide/model.h"
#include "gate/format/format.h"

/*
 * valgrind's slowdown over a run's CPU time used to estimate a count's
 * cost: the upper end of what doc/counts.md measured
 * (gzip -9 36x, xz -6 10x), so the estimate errs long.
 */
#define ADVICE_VALGRIND_SLOWDOWN 40.0

/* What one benchmark's pairs say of its metrics (wall and cpu). */
struct metric_advice {
	double spread[2];	/* robust sd of the log-ratios: wall, cpu
				   (NAN: not usable) */
	size_t need[2];		/* pairs either needs to reach the floor
				   (SIZE_MAX: never) */
	double per_pair;	/* seconds a pair takes */
	double cpu_share;	/* cpu over wall time, its highest sample */
	double cpu_estimate;	/* median cpu ratio of the pairs */
	int use_cpu;		/* 1: cpu reaches the floor within reach,
				   wall does not (or needs 4x the pairs) */
	int count;		/* 1: valgrind is on PATH and neither time
				   reaches the floor: a count could */
	double count_seconds;	/* estimated time of METRIC_EXACT_PAIRS
				   counted pairs under valgrind */
};

/*
 * Fill a from br's pairs (a plain, timed benchmark), at floor and the
 * per-benchmark level, for reach pairs (what max_pairs and its share of
 * the budget allow) and share seconds (its share of the budget, which a
 * count's few pairs must fit; 0: no budget). 0, or -1 when br has too few
 * usable pairs to say anything.
 */
int advice_metric(struct metric_advice *a, const struct bench_run *br,
		  double floor, double level, size_t reach, double share);
/*
 * One sentence (at most size bytes) for a: which metric would decide,
 * with the figures; "" when none does better than wall. budget names what
 * limits reach ("its share of the budget", "max_pairs").
 */
void advice_words(char *buf, size_t size, const struct metric_advice *a,
		  double floor, size_t reach, const char *budget);
/*
 * 1 when a suite of format f can be counted per case (pytest, gbench, the
 * lines protocol: doc/counted.md) and valgrind is on PATH (or
 * GATE_VALGRIND).
 */
int advice_suite_countable(enum format f);
/*
 * Estimated seconds of METRIC_EXACT_PAIRS counted pairs of br (a suite
 * or a plain benchmark), one process after another: valgrind's slowdown
 * over each arm's median process cpu time, start-up in (so it errs long).
 */
double advice_counted_seconds(const struct bench_run *br);
/*
 * Beside each wall-time benchmark that ended noisy, a note saying which
 * metric would have decided it within the budget (cpu time from the same
 * pairs, a count measured beside it, or a count under valgrind when it is
 * on PATH), with the figures; never a verdict change.
 */
void run_note_metric_advice(struct run_report *r);

#endif
