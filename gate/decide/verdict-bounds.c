/*
 * One metric's interval bounds (verdict_analyse_metric's): the exact
 * interval, widened by a bootstrap where it resolves, each bound drawn
 * without the extreme pairs that would push it; and the slow-tail check
 * a Hodges-Lehmann pass must also clear (the ratio of the arms' means).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "gate/decide/verdict.h"
#include "gate/decide/verdict-internal.h"
#include "stats/stats.h"
#include "common/banned.h"

/*
 * The bounds of the log-ratios into ci: the exact interval always; a
 * bootstrap interval only widens it. Percentile and BCa bounds from few
 * values miss the truth more often than their nominal tail at corrected
 * levels (n = 10, 20 benchmarks: 0.45% where 0.0625% is allowed), so they
 * ask for the expanded tail (stats_bootstrap_tail), are drawn only where
 * the resamples resolve it, and never narrow the exact bounds: each bound
 * then errs at most alpha whatever the bootstrap does. 0 or -1.
 */
static int interval_bounds(struct stats_interval *ci, struct bench_stats *st,
			   const struct bench_cfg *cfg,
			   const struct verdict_opts *vo, const double *logr,
			   size_t n)
{
	size_t need = stats_bootstrap_min_n(vo->alpha, vo->resamples);
	struct stats_interval bs;
	gsl_rng *rng;
	int rc;

	st->interval_used = INTERVAL_EXACT;
	rc = stats_interval_exact(ci, cfg->statistic, logr, n,
				  1 - 2 * vo->alpha);
	if (rc != 0 || cfg->interval == INTERVAL_EXACT)
		return rc;
	st->interval_why = "too few pairs for a bootstrap bound at this "
			   "level, so the exact interval decides";
	rng = need && n >= need ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
	if (!rng)
		return rc;
	gsl_rng_set(rng, vo->seed);
	rc = stats_bootstrap(&bs, cfg->statistic,
			     cfg->interval == INTERVAL_BCA, logr, n,
			     vo->resamples,
			     1 - 2 * stats_bootstrap_tail(n, vo->alpha), rng);
	gsl_rng_free(rng);
	st->interval_why = "the exact interval is wider at this level and "
			   "decides";
	if (rc == 0 && bs.low <= ci->low && bs.high >= ci->high) {
		st->interval_used = cfg->interval;
		st->interval_why = NULL;
	}
	if (rc == 0) {
		ci->low = bs.low < ci->low ? bs.low : ci->low;
		ci->high = bs.high > ci->high ? bs.high : ci->high;
	}
	return rc;
}

/*
 * One extreme pair (a sample caught by a page-fault storm or a
 * preemption) moved the lower bound up: a rank interval loses that
 * pair's true value but still counts it on the high side, and at the
 * floor a head sample 3x its value raised the fail rate from 4.7% to
 * 8.6% (bench-sim o). Each bound is therefore drawn without the pairs
 * that would push it and that lie over OUTLIER_SDS robust sd (1.4826 MAD
 * of the log-ratios) from the median on that side: the lower bound,
 * which decides a fail, without the high outliers; the upper, which
 * decides a pass, without the low ones. Leaving out a bound's own
 * extremes only moves it outwards (fewer values above, the depth of the
 * next n lower), so neither promise loosens and clean data, which rarely
 * has such pairs, keeps its bounds; a pair that is a real part of a
 * regression is still in the estimate and in the other bound.
 */
#define OUTLIER_SDS 3.0

/* The bounds of interval_bounds, each without the extreme pairs on its
   own side (st->aside_low, st->aside_high say how many). 0 or -1. */
int verdict_robust_bounds(struct stats_interval *ci, struct bench_stats *st,
			 const struct bench_cfg *cfg,
			 const struct verdict_opts *vo, const double *logr,
			 size_t n)
{
	struct stats_interval side;
	enum interval_method used;
	const char *why;
	double *dev = xmalloc(n * sizeof(*dev)), *keep, med, cut;
	size_t i, k;
	int rc, s;

	med = stats_median(logr, n);
	for (i = 0; i < n; i++)
		dev[i] = fabs(logr[i] - med);
	cut = OUTLIER_SDS * 1.4826 * stats_median(dev, n);
	free(dev);
	rc = interval_bounds(ci, st, cfg, vo, logr, n);
	if (rc != 0 || !(cut > 0))
		return rc;
	used = st->interval_used;
	why = st->interval_why;
	keep = xmalloc(n * sizeof(*keep));
	/* s = 0: the lower bound without the high outliers; 1: the upper
	   without the low ones */
	for (s = 0; s < 2 && rc == 0; s++) {
		for (i = k = 0; i < n; i++)
			if (s ? logr[i] >= med - cut : logr[i] <= med + cut)
				keep[k++] = logr[i];
		if (k == n)
			continue;
		rc = interval_bounds(&side, st, cfg, vo, keep, k);
		/* too few values left for a bound at this level: the pairs
		   stay (at the fewest pairs the bound is the extreme value
		   on its own side, which the other side's extremes do not
		   move), so a clear fail from few pairs is not lost */
		if (rc == 0 && !isfinite(s ? side.high : side.low))
			continue;
		*(s ? &st->aside_high : &st->aside_low) = n - k;
		if (rc == 0 && s == 0 && side.low < ci->low)
			ci->low = side.low;
		if (rc == 0 && s == 1 && side.high > ci->high)
			ci->high = side.high;
		if (st->interval_used != cfg->interval) {
			used = st->interval_used;
			why = st->interval_why;
		}
	}
	st->interval_used = used;
	st->interval_why = why;
	free(keep);
	return rc;
}

/*
 * A slow tail. Hodges-Lehmann follows the typical run: a change that makes
 * 10% of runs twice as long (+10% in mean time) moves it by about +1%. A
 * pass by the Hodges-Lehmann rule must therefore also exclude
 * pass_excludes in the ratio of the arms' mean values (head's total time
 * over base's, over the pairs), whose change is the mean time's: +10% for
 * that tail, which sits at pass_excludes and so passes at most about
 * alpha of the time once the pairs see it. Its upper bound is Student's t
 * on the paired residuals (head - R base, the delta method's standard
 * error of a ratio estimate, stats_ratio_of_means), one-sided at the
 * look's alpha, from TAIL_MIN_PAIRS pairs on. A pass that does not clear
 * it is noisy, saying the tail grew, and takes more pairs; the fail rule
 * is untouched, so identical code fails exactly as often as before. Its
 * price: nothing is set aside, so one extreme sample (a preemption) holds
 * a pass back until enough pairs dilute it, and noise with heavy tails
 * makes the mean uncertain: budget-bound suites of 20 cases with t3 noise
 * at CV 10% end noisy more often (bench-sim A; doc/stats-tail.md). The
 * 5%-trimmed mean of the log-ratios it replaces set the tail itself
 * aside (about +4% for this one), so more pairs always cleared it: such
 * a tail passed 100% of the time without the simulator's 60-pair cap
 * (issue 38 item 1).
 */
#define TAIL_MIN_PAIRS 10

void verdict_tail_check(struct bench_stats *st, const double *num,
		       const double *den, size_t n, double alpha)
{
	struct stats_interval ci;
	double r;

	if (n < TAIL_MIN_PAIRS ||
	    stats_ratio_of_means(&ci, &r, num, den, n, 1 - 2 * alpha) < 0)
		return;
	st->tail_mean = r;
	st->tail_high = ci.high;
	if (!(st->tail_high < 1.0 + st->excludes)) {
		st->tail = 1;
		st->verdict = VERDICT_NOISY;
	}
}
