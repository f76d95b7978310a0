/*
 * Between verdict.c and verdict-bounds.c: one metric's bounds and the
 * slow-tail check, private to the verdict.
 */
#ifndef GATE_VERDICT_INTERNAL_H
#define GATE_VERDICT_INTERNAL_H

#include <stddef.h>

#include "gate/decide/verdict.h"
#include "stats/stats.h"

/* The interval's bounds of the log-ratios logr[0..n) into ci, each
   without the extreme pairs on its own side (st->aside_low, aside_high
   say how many), st->interval_used and interval_why set. 0 or -1. */
int verdict_robust_bounds(struct stats_interval *ci, struct bench_stats *st,
			  const struct bench_cfg *cfg,
			  const struct verdict_opts *vo, const double *logr,
			  size_t n);
/* With hl: a pass whose ratio of the arms' means (num over den, each
   pair's worse-is-higher value over the other) has an upper bound that
   does not exclude pass_excludes becomes noisy (st->tail, tail_mean,
   tail_high). */
void verdict_tail_check(struct bench_stats *st, const double *num,
		       const double *den, size_t n, double alpha);

#endif
