/*
 * Verdicts. The interval's lower bound decides a fail, so a regression is
 * only reported when the data shows it; an estimate above the floor whose
 * interval reaches back below it is "noisy", never a guess either way.
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

static char *explain_interval(const struct bench_stats *st)
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

static char *explain_exact(const struct bench_stats *st)
{
	double f = st->floor * 100.0;

	if (st->low == 1.0 && st->high == 1.0)
		return xasprintf("exact: head counts exactly what base counts "
			"in all %zu pairs (ratio 1), within the %+.1f%% floor",
			st->n, f);
	if (st->verdict == VERDICT_FAIL)
		return xasprintf("exact: head counts %+.2f%% more than base "
			"(every pair %+.2f%% to %+.2f%%), above the %+.1f%% "
			"floor", pct(st->median), pct(st->low), pct(st->high),
			f);
	return xasprintf("exact: head counts %+.2f%% against base (every "
		"pair %+.2f%% to %+.2f%%), within the %+.1f%% floor%s",
		pct(st->median), pct(st->low), pct(st->high), f,
		st->improved ? ": fewer" : "");
}

static char *explain(const struct bench_stats *st)
{
	char *why, *out;

	if (st->exact)
		return explain_exact(st);
	why = explain_interval(st);
	if (!st->varies)
		return why;
	out = xasprintf("counts vary between samples (base spread %.2f%%, "
			"head %.2f%%, more than the %.1f%% exact tolerance), so "
			"the interval decides: %s", st->base_spread * 100,
			st->head_spread * 100, METRIC_EXACT_TOLERANCE * 100,
			why);
	free(why);
	return out;
}

/* (max - min) / max of x[0..n): 0 when all agree. */
static double spread(const double *x, size_t n)
{
	double lo = x[0], hi = x[0];
	size_t i;

	for (i = 1; i < n; i++) {
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	return hi > 0 ? (hi - lo) / hi : 0;
}

int verdict_analyse(struct bench_stats *st, const struct bench_run *br,
		    double level, unsigned resamples, unsigned long seed)
{
	struct metric_cfg mc;

	mc.id = br->cfg->metric;
	mc.min_effect = br->cfg->min_effect;
	mc.gating = 1;
	return verdict_analyse_metric(st, br, &mc, level, resamples, seed);
}

int verdict_analyse_metric(struct bench_stats *st, const struct bench_run *br,
			   const struct metric_cfg *mc, double level,
			   unsigned resamples, unsigned long seed)
{
	const struct bench_cfg *cfg = br->cfg;
	enum metric m = mc->id;
	const struct metric_desc *d = metric_desc(m);
	double *arm[2];
	struct stats_interval ci;
	gsl_rng *rng = NULL;
	size_t i, n = 0, zeros = 0;
	int ret = -1;

	st->metric = m;
	st->gating = mc->gating;
	st->floor = mc->min_effect;
	st->level = level;
	st->verdict = VERDICT_ERROR;
	st->ratios = xcalloc(br->npairs + 1, sizeof(double));
	arm[0] = xcalloc(br->npairs + 1, sizeof(double));
	arm[1] = xcalloc(br->npairs + 1, sizeof(double));
	for (i = 0; i < br->npairs; i++) {
		double b = sample_value(&br->pairs[i].s[ARM_BASE], m);
		double h = sample_value(&br->pairs[i].s[ARM_HEAD], m);

		/* valgrind counts only the first few pairs */
		if (!isfinite(b) || !isfinite(h))
			continue;
		arm[0][n] = b;
		arm[1][n] = h;
		if (d->source == SOURCE_SUITE)
			zeros += (b == 0) + (h == 0);
		/* a rate (higher is better) is worse when head is lower; a
		   count may be 0: compare it as if from 1 */
		st->ratios[n] = cfg->higher_better ? b / h :
				b == 0 && d->source != SOURCE_CLOCK &&
				d->source != SOURCE_SUITE ?
				(h + 1) / (b + 1) : h / b;
		if (h != b) {
			st->of++;
			st->head_slower += cfg->higher_better ? h < b : h > b;
		}
		n++;
	}
	st->n = n;
	if (n == 0) {
		st->reason = xasprintf("no pair measured \"%s\"",
				       metric_name(m));
		goto cleanup;
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
	st->base_spread = spread(arm[0], n);
	st->head_spread = spread(arm[1], n);

	if (d->exact && st->base_spread <= METRIC_EXACT_TOLERANCE &&
	    st->head_spread <= METRIC_EXACT_TOLERANCE) {
		/* no interval: the counts repeat, the ratio is the answer */
		st->exact = 1;
		st->low = st->high = st->ratios[0];
		for (i = 1; i < n; i++) {
			if (st->ratios[i] < st->low)
				st->low = st->ratios[i];
			if (st->ratios[i] > st->high)
				st->high = st->ratios[i];
		}
		st->level = 1.0;
		st->verdict = isfinite(st->median) ? (st->median > 1.0 +
				st->floor ? VERDICT_FAIL : VERDICT_PASS) :
				VERDICT_ERROR;
		st->improved = st->verdict == VERDICT_PASS && st->high < 1.0;
		st->reason = explain(st);
		ret = 0;
		goto cleanup;
	}
	st->varies = d->exact;
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

enum verdict verdict_bench(struct bench_result *res, const struct bench_run *br,
			   double level, unsigned resamples,
			   unsigned long seed)
{
	const struct bench_cfg *cfg = br->cfg;
	enum verdict worst = VERDICT_PASS;
	size_t i;

	res->n = cfg->nmetrics;
	res->m = xcalloc(cfg->nmetrics, sizeof(*res->m));
	for (i = 0; i < cfg->nmetrics; i++) {
		struct bench_stats *st = &res->m[i];

		verdict_analyse_metric(st, br, &cfg->metrics[i], level,
				       resamples, seed + 7919 * i);
		if (st->gating && st->verdict > worst)
			worst = st->verdict;
	}
	res->verdict = worst;
	return worst;
}

void bench_result_release(struct bench_result *res)
{
	size_t i;

	for (i = 0; i < res->n; i++)
		bench_stats_release(&res->m[i]);
	free(res->m);
	res->m = NULL;
	res->n = 0;
}

void bench_result_primary(struct bench_stats *out,
			  const struct bench_result *res)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < res->n; i++)
		if (res->m[i].gating) {
			*out = res->m[i];
			break;
		}
	out->verdict = res->verdict;
}

size_t verdict_comparisons(const struct bench_cfg *cfg)
{
	size_t i, n = 0;

	for (i = 0; i < cfg->nmetrics; i++)
		n += cfg->metrics[i].gating;
	return n;
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
