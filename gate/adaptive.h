/*
 * Adaptive pairs: every benchmark gets its minimum `pairs`, then rounds of
 * more pairs go only to the unresolved ones until max_pairs or the budget,
 * with the false-fail chance spent across the looks so it stays promised.
 */
#ifndef GATE_ADAPTIVE_H
#define GATE_ADAPTIVE_H

#include <stddef.h>

#include "gate/report.h"

/* Number of looks at the data: at pairs, pairs + round, ..., max_pairs. */
size_t adaptive_looks(const struct bench_cfg *cfg);
/* Pairs in hand at look k (0-based). */
unsigned adaptive_look_pairs(const struct bench_cfg *cfg, size_t k);
/*
 * Two-sided level of look k's interval when the benchmark may spend alpha
 * (1 - its Bonferroni level) over all its looks: at least half at the
 * first look, the rest in proportion to the pairs each later look adds.
 * The levels' alphas sum to alpha, so by the union bound the chance of a
 * false fail at any look is within alpha whatever the looks' correlation.
 */
double adaptive_look_level(const struct bench_cfg *cfg, double alpha,
			   size_t k);

struct adaptive_ops {
	/*
	 * Bring benchmark i to `total` pairs (the first call warms up too):
	 * 0, -1 with r->runs[i].error set, or the interrupting signal.
	 */
	int (*measure)(void *ctx, size_t i, unsigned total);
	/* Seconds since measuring began; NULL when there is no budget. */
	double (*elapsed)(void *ctx);
	void *ctx;
};

struct adaptive_opts {
	double budget;		/* seconds for extra rounds; 0: no limit */
	int strict;		/* --strict */
	int quiet;		/* no progress lines */
};

/*
 * Measure and decide every benchmark of r: r->runs, r->results and
 * r->stats (zeroed), r->n, r->confidence, r->resamples and r->seed set,
 * new benchmarks marked in r->runs[i].is_new. Sets r->compared (gating
 * metrics), r->level (per comparison, over all its looks), r->suite, each
 * result, and each view r->stats[i] with its looks and stop reason.
 * Returns 0, or the signal that interrupted it.
 */
int adaptive_run(struct run_report *r, const struct adaptive_ops *ops,
		 const struct adaptive_opts *ao);
/* The per-benchmark seed for its bootstrap at look k. */
unsigned long adaptive_seed(unsigned long seed, const char *name, size_t k);

#endif
