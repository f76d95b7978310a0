/*
 * Verdicts. The interval's lower bound decides a fail, so a regression is
 * only reported when the data shows it; an estimate above the floor whose
 * interval reaches back below it is "noisy", never a guess either way.
 */
#include "gate/verdict.h"

#include <math.h>
#include <stdlib.h>

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

enum verdict verdict_decide(double median, double low, double floor)
{
	if (!isfinite(median) || !isfinite(low))
		return VERDICT_ERROR;
	if (low > 1.0 + floor)
		return VERDICT_FAIL;
	if (median > 1.0 + floor)
		return VERDICT_NOISY;
	return VERDICT_PASS;
}

static double pct(double ratio)
{
	return (ratio - 1.0) * 100.0;
}

static char *explain(const struct bench_stats *st)
{
	double f = st->floor * 100.0;

	switch (st->verdict) {
	case VERDICT_FAIL:
		return xasprintf("slower by %+.1f%% (%.4g%% interval %+.1f%% "
			"to %+.1f%%): the whole interval is above the %+.1f%% "
			"floor", pct(st->median), st->level * 100,
			pct(st->low), pct(st->high), f);
	case VERDICT_NOISY:
		return xasprintf("estimate %+.1f%% is above the %+.1f%% floor "
			"but the interval reaches down to %+.1f%%: more pairs "
			"(\"pairs\" in gate.json) or a quieter machine would "
			"resolve it", pct(st->median), f, pct(st->low));
	case VERDICT_PASS:
		if (st->improved)
			return xasprintf("faster by %.1f%% (interval %+.1f%% "
				"to %+.1f%%)", -pct(st->median), pct(st->low),
				pct(st->high));
		return xasprintf("estimate %+.1f%% is within the %+.1f%% "
			"floor; a regression above %+.1f%% is excluded at "
			"%.4g%%", pct(st->median), f, pct(st->high),
			st->level * 100);
	default:
		return xstrdup("could not be measured");
	}
}

int verdict_analyse(struct bench_stats *st, const struct bench_run *br,
		    double level, unsigned resamples, unsigned long seed)
{
	const struct bench_cfg *cfg = br->cfg;
	enum metric m = cfg->metric;
	double *arm[2];
	struct stats_interval ci;
	gsl_rng *rng = NULL;
	size_t i, n = br->npairs, zeros = 0;
	int ret = -1;

	st->floor = cfg->min_effect;
	st->level = level;
	st->verdict = VERDICT_ERROR;
	st->n = n;
	st->ratios = xcalloc(n, sizeof(double));
	arm[0] = xcalloc(n, sizeof(double));
	arm[1] = xcalloc(n, sizeof(double));
	for (i = 0; i < n; i++) {
		double b = sample_value(&br->pairs[i].s[ARM_BASE], m);
		double h = sample_value(&br->pairs[i].s[ARM_HEAD], m);

		arm[0][i] = b;
		arm[1][i] = h;
		zeros += (b == 0) + (h == 0);
		/* a rate (higher is better) is worse when head is lower */
		st->ratios[i] = cfg->higher_better ? b / h : h / b;
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
	st->median = stats_median(st->ratios, n);
	st->geomean = stats_geomean(st->ratios, n);
	st->sign_p = stats_sign_test(st->head_slower, st->of);
	st->base_median = stats_median(arm[0], n);
	st->head_median = stats_median(arm[1], n);
	st->base_cv = stats_cv(arm[0], n);
	st->head_cv = stats_cv(arm[1], n);

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng) {
		st->reason = xstrdup("cannot allocate a random generator");
		goto cleanup;
	}
	gsl_rng_set(rng, seed);
	if (stats_bootstrap_median(&ci, st->ratios, n, resamples, level,
				   rng) < 0) {
		st->reason = xasprintf("cannot compute an interval from %zu "
				       "pairs", n);
		goto cleanup;
	}
	st->low = ci.low;
	st->high = ci.high;
	st->verdict = verdict_decide(st->median, st->low, st->floor);
	st->improved = st->verdict == VERDICT_PASS && st->high < 1.0;
	st->reason = explain(st);
	ret = 0;
cleanup:
	gsl_rng_free(rng);
	free(arm[0]);
	free(arm[1]);
	return ret;
}

void bench_stats_release(struct bench_stats *st)
{
	free(st->ratios);
	free(st->reason);
	st->ratios = NULL;
	st->reason = NULL;
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
