/*
 * Verdicts. The interval's lower bound decides a fail, so a regression is
 * only reported when the data shows it; an estimate above the floor whose
 * interval reaches back below it is "noisy", never a guess either way.
 * Everything is computed on log-ratios and shown as ratios.
 */
#include "gate/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "stats/stats.h"
#include "common/banned.h"

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
		return "pass";
	case VERDICT_NOISY:
		return "noisy";
	case VERDICT_FAIL:
		return "fail";
	case VERDICT_ERROR:
		return "error";
	case VERDICT_NEW:
		return "new";
	}
	return "?";
}

const char *stop_name(enum stop_reason s)
{
	switch (s) {
	case STOP_NONE:
		return "running";
	case STOP_RESOLVED:
		return "resolved";
	case STOP_MAX_PAIRS:
		return "max_pairs";
	case STOP_BUDGET:
		return "budget";
	case STOP_ERROR:
		return "error";
	}
	return "?";
}

enum verdict verdict_decide(double median, double low, double floor)
{
	return verdict_decide_rule(RULE_FLOOR, median, low, INFINITY, floor,
				   0);
}

enum verdict verdict_decide_rule(enum rule r, double est, double low,
				 double high, double floor, int strict)
{
	if (!isfinite(est) || isnan(low) || isnan(high))
		return VERDICT_ERROR;
	if (r == RULE_SIGNIFICANT ? low > 1.0 && est > 1.0 + floor
				  : low > 1.0 + floor)
		return VERDICT_FAIL;
	if (est > 1.0 + floor)
		return VERDICT_NOISY;
	/* --strict: a pass must exclude every regression above the floor */
	if (strict && !(high <= 1.0 + floor))
		return VERDICT_NOISY;
	return VERDICT_PASS;
}

static double pct(double ratio)
{
	return (ratio - 1.0) * 100.0;
}

static const char *stat_label(enum stats_estimator e)
{
	return e == STATS_MEDIAN ? "median" : e == STATS_HL ?
	       "Hodges-Lehmann" : "mean-log";
}

static char *explain(const struct bench_stats *st)
{
	double f = st->floor * 100.0;

	switch (st->verdict) {
	case VERDICT_FAIL:
		if (st->rule == RULE_SIGNIFICANT)
			return xasprintf("slower by %+.1f%% (%.4g%% interval "
				"%+.1f%% to %+.1f%%): above the %+.1f%% floor "
				"and the interval excludes no change",
				pct(st->estimate), st->level * 100,
				pct(st->low), pct(st->high), f);
		return xasprintf("slower by %+.1f%% (%.4g%% interval %+.1f%% "
			"to %+.1f%%): the whole interval is above the %+.1f%% "
			"floor", pct(st->estimate), st->level * 100,
			pct(st->low), pct(st->high), f);
	case VERDICT_NOISY:
		if (st->estimate <= 1.0 + st->floor)
			return xasprintf("estimate %+.1f%% is within the "
				"%+.1f%% floor but --strict needs the interval "
				"to exclude regressions above it, and it reaches "
				"%+.1f%%: more pairs would resolve it",
				pct(st->estimate), f, pct(st->high));
		if (!isfinite(st->low))
			return xasprintf("estimate %+.1f%% is above the %+.1f%% "
				"floor but %zu pairs are too few for an interval "
				"at %.4g%%: more pairs (\"pairs\"/\"max_pairs\" "
				"in gate.json) would resolve it",
				pct(st->estimate), f, st->n, st->level * 100);
		return xasprintf("estimate %+.1f%% is above the %+.1f%% floor "
			"but the interval reaches down to %+.1f%%: more pairs "
			"(\"pairs\"/\"max_pairs\" in gate.json) or a quieter "
			"machine would resolve it", pct(st->estimate), f,
			pct(st->low));
	case VERDICT_PASS:
		if (st->improved)
			return xasprintf("faster by %.1f%% (interval %+.1f%% "
				"to %+.1f%%)", -pct(st->estimate), pct(st->low),
				pct(st->high));
		if (!isfinite(st->high))
			return xasprintf("estimate %+.1f%% is within the "
				"%+.1f%% floor; too few pairs to exclude any "
				"regression", pct(st->estimate), f);
		/* below the floor is unmeasured, not absent: say the bound */
		return xasprintf("estimate %+.1f%% is within the %+.1f%% "
			"floor; a regression above %+.1f%% is excluded at "
			"%.4g%%%s", pct(st->estimate), f, pct(st->high),
			st->level * 100, st->high > 1.0 + st->floor ?
			" (above the floor: --strict would call it noisy)" :
			"");
	default:
		return xstrdup("could not be measured");
	}
}

/* Pairs whose log-ratio lies over 3 robust sd (1.4826 MAD) from the median. */
static size_t count_outliers(const double *l, size_t n)
{
	double *dev = xmalloc(n * sizeof(*dev)), med, mad;
	size_t i, k = 0;

	med = stats_median(l, n);
	for (i = 0; i < n; i++)
		dev[i] = fabs(l[i] - med);
	mad = 1.4826 * stats_median(dev, n);
	for (i = 0; i < n; i++)
		k += mad > 0 && dev[i] > 3 * mad;
	free(dev);
	return k;
}

int verdict_analyse(struct bench_stats *st, const struct bench_run *br,
		    const struct verdict_opts *vo)
{
	const struct bench_cfg *cfg = br->cfg;
	enum metric m = cfg->metric;
	double *arm[2], *logr, *index;
	struct stats_interval ci;
	struct stats_mwu mw;
	gsl_rng *rng = NULL;
	size_t i, n = br->npairs, zeros = 0;
	int ret = -1, rc;

	st->floor = cfg->min_effect;
	st->level = vo->level;
	st->statistic = cfg->statistic;
	st->interval = cfg->interval;
	st->rule = cfg->rule;
	st->strict = vo->strict;
	st->target = cfg->target_halfwidth;
	st->verdict = VERDICT_ERROR;
	st->n = n;
	st->ratios = xcalloc(n ? n : 1, sizeof(double));
	arm[0] = xcalloc(n ? n : 1, sizeof(double));
	arm[1] = xcalloc(n ? n : 1, sizeof(double));
	logr = xcalloc(n ? n : 1, sizeof(double));
	index = xcalloc(n ? n : 1, sizeof(double));
	for (i = 0; i < n; i++) {
		double b = sample_value(&br->pairs[i].s[ARM_BASE], m);
		double h = sample_value(&br->pairs[i].s[ARM_HEAD], m);

		arm[0][i] = b;
		arm[1][i] = h;
		index[i] = (double)i;
		zeros += (b == 0) + (h == 0);
		/* a rate (higher is better) is worse when head is lower */
		st->ratios[i] = cfg->higher_better ? b / h : h / b;
		logr[i] = log(st->ratios[i]);
		if (h != b) {
			st->of++;
			st->head_slower += cfg->higher_better ? h < b : h > b;
		}
	}
	if (zeros) {
		/* a count such as allocs/op may be 0: equal only if all are */
		st->base_median = stats_median(arm[0], n);
		st->head_median = stats_median(arm[1], n);
		if (zeros == 2 * n) {
			st->median = st->low = st->high = st->geomean = 1.0;
			st->estimate = 1.0;
			st->sign_p = 1.0;
			st->verdict = VERDICT_PASS;
			st->reason = xasprintf("0 %s in every sample of both "
					       "arms", cfg->unit ? cfg->unit :
					       "");
			ret = 0;
		} else {
			st->reason = xasprintf("the value is 0 in %zu of %zu "
					       "samples but not in all: no "
					       "ratio can be formed", zeros,
					       2 * n);
		}
		goto cleanup;
	}
	if (n < 2) {
		st->reason = xasprintf("%zu pairs cannot give an interval", n);
		goto cleanup;
	}
	st->median = stats_median(st->ratios, n);
	st->geomean = stats_geomean(st->ratios, n);
	st->sign_p = stats_sign_test(st->head_slower, st->of);
	st->base_median = stats_median(arm[0], n);
	st->head_median = stats_median(arm[1], n);
	st->base_cv = stats_cv(arm[0], n);
	st->head_cv = stats_cv(arm[1], n);
	st->wilcoxon_p = stats_wilcoxon(logr, n);
	st->mann_whitney_p = stats_mann_whitney(&mw, arm[0], n, arm[1], n) == 0
			     ? mw.p : NAN;
	st->outliers = count_outliers(logr, n);
	st->drift = stats_correlation(index, arm[0], n);
	st->estimate = exp(stats_estimate(cfg->statistic, logr, n));

	if (cfg->interval == INTERVAL_EXACT) {
		rc = stats_interval_exact(&ci, cfg->statistic, logr, n,
					  vo->level);
	} else {
		rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!rng) {
			st->reason = xstrdup("cannot allocate a random "
					     "generator");
			goto cleanup;
		}
		gsl_rng_set(rng, vo->seed);
		rc = stats_bootstrap(&ci, cfg->statistic,
				     cfg->interval == INTERVAL_BCA, logr, n,
				     vo->resamples, vo->level, rng);
	}
	if (rc < 0) {
		st->reason = xasprintf("cannot compute the %s interval of the "
				       "%s from %zu pairs",
				       interval_name(cfg->interval),
				       stat_label(cfg->statistic), n);
		goto cleanup;
	}
	st->low = exp(ci.low);
	st->high = exp(ci.high);
	st->verdict = verdict_decide_rule(cfg->rule, st->estimate, st->low,
					  st->high, st->floor, vo->strict);
	st->improved = st->verdict == VERDICT_PASS && st->high < 1.0;
	st->reason = explain(st);
	ret = 0;
cleanup:
	gsl_rng_free(rng);
	free(arm[0]);
	free(arm[1]);
	free(logr);
	free(index);
	return ret;
}

int verdict_unresolved(const struct bench_stats *st)
{
	if (st->verdict == VERDICT_NOISY)
		return 1;
	if (st->verdict != VERDICT_PASS)
		return 0;
	/* half the interval's width, in the ratio's relative terms */
	return !((st->high - st->low) / 2 <= st->target);
}

void verdict_hostile(struct bench_stats *st, const char *why)
{
	char *old = st->reason;

	if (!st->note) {
		st->note = xstrdup(why);
	} else {
		char *both = xasprintf("%s; %s", st->note, why);

		free(st->note);
		st->note = both;
	}
	if (st->verdict != VERDICT_PASS)
		return;
	/* hostility can take a pass away, never give one */
	st->verdict = VERDICT_NOISY;
	st->reason = xasprintf("%s, but %s: not trusted as a pass",
			       old ? old : "pass", why);
	free(old);
}

void bench_stats_release(struct bench_stats *st)
{
	free(st->ratios);
	free(st->reason);
	free(st->note);
	memset(st, 0, sizeof(*st));
}

enum verdict verdict_suite(const enum verdict *v, size_t n)
{
	enum verdict worst = VERDICT_PASS;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != VERDICT_NEW && v[i] > worst)
			worst = v[i];
	return worst;
}

int verdict_exit_code(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
	case VERDICT_NEW:
		return 0;
	case VERDICT_FAIL:
		return 1;
	case VERDICT_NOISY:
		return 2;
	case VERDICT_ERROR:
		return 3;
	}
	return 3;
}
