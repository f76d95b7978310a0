/*
 * Verdicts. The interval's lower bound decides a fail, so a regression is
 * only reported when the data shows it; an estimate above the floor whose
 * interval reaches back below it is "noisy", never a guess either way.
 */
#include "gate/decide/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/measure/suite-filter.h"
#include "gate/decide/verdict-explain.h"
#include "gate/decide/verdict-internal.h"
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
	case VERDICT_ACCEPTED:
		return "accepted";
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

enum verdict verdict_decide_rule(enum rule r, double est, double low,
				 double high, double floor, double excludes)
{
	if (!isfinite(est) || isnan(low) || isnan(high))
		return VERDICT_ERROR;
	if (r == RULE_SIGNIFICANT ? low > 1.0 && est > 1.0 + floor
				  : low > 1.0 + floor)
		return VERDICT_FAIL;
	/* a pass must exclude a regression of m, not merely estimate less */
	if (est <= 1.0 + floor && high < 1.0 + excludes)
		return VERDICT_PASS;
	return VERDICT_NOISY;
}

double verdict_spread(const double *x, size_t n)
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
	struct metric_cfg mc;
	size_t i;

	mc.id = br->cfg->metric;
	mc.min_effect = br->cfg->min_effect;
	mc.pass_excludes = 2 * mc.min_effect;
	mc.gating = 1;
	for (i = 0; i < br->cfg->nmetrics; i++)
		if (br->cfg->metrics[i].id == mc.id &&
		    br->cfg->metrics[i].pass_excludes >= mc.min_effect)
			mc.pass_excludes = br->cfg->metrics[i].pass_excludes;
	return verdict_analyse_metric(st, br, &mc, vo);
}

/* The pairs where metric m was measured in both arms. */
struct metric_pairs {
	double *arm[2];		/* the base and head values */
	double *logr;		/* the log of each ratio (st->ratios) */
	double *index;		/* each pair's place in the run, for drift */
	size_t n;
	size_t zeros;		/* values of 0 of a suite value, not a count */
};

/*
 * How metric m of cfg forms its ratios: counted, a count (not a time, not
 * a suite's time or rate), which may be 0: a suite's unit that is neither
 * a time nor a rate ("faults") counts too (unit_may_be_zero); higher, a
 * rate (inverted).
 */
static void ratio_sense(const struct bench_cfg *cfg, enum metric m,
			int *counted, int *higher)
{
	const struct metric_desc *d = metric_desc(m);
	const struct value_slot *vs = bench_value_slot(cfg, m);
	const char *unit = vs && vs->unit ? vs->unit :
			   d->source == SOURCE_SUITE ? cfg->unit : NULL;

	*counted = vs ? vs->counted : d->source == SOURCE_SUITE ?
		   cfg->counted : d->source != SOURCE_CLOCK;
	if (unit && unit_may_be_zero(unit))
		*counted = 1;
	*higher = vs ? vs->higher_better : cfg->higher_better;
}

/* One pair's ratio, above 1 worse: a rate inverted; a count of 0 in
   either arm compares both plus one, so no ratio is 0 or infinite. */
static double pair_ratio(double b, double h, int counted, int higher)
{
	return higher ? b / h : counted && (b == 0 || h == 0) ?
	       (h + 1) / (b + 1) : h / b;
}

double *verdict_pair_ratios(const struct bench_run *br, enum metric m,
			    size_t *n)
{
	double *r = xcalloc(br->npairs + 1, sizeof(double));
	int counted, higher;
	size_t i;

	ratio_sense(br->cfg, m, &counted, &higher);
	*n = 0;
	for (i = 0; i < br->npairs; i++) {
		double b = sample_value(&br->pairs[i].s[ARM_BASE], m);
		double h = sample_value(&br->pairs[i].s[ARM_HEAD], m);

		if (isfinite(b) && isfinite(h))
			r[(*n)++] = pair_ratio(b, h, counted, higher);
	}
	return r;
}

/* Gather metric m's pairs into p and their ratios into st->ratios. */
static void pairs_collect(struct metric_pairs *p, struct bench_stats *st,
			  const struct bench_run *br, enum metric m,
			  int counted, int higher)
{
	const struct metric_desc *d = metric_desc(m);
	size_t i, n = 0;

	st->ratios = xcalloc(br->npairs + 1, sizeof(double));
	p->arm[0] = xcalloc(br->npairs + 1, sizeof(double));
	p->arm[1] = xcalloc(br->npairs + 1, sizeof(double));
	p->logr = xcalloc(br->npairs + 1, sizeof(double));
	p->index = xcalloc(br->npairs + 1, sizeof(double));
	p->zeros = 0;
	for (i = 0; i < br->npairs; i++) {
		double b = sample_value(&br->pairs[i].s[ARM_BASE], m);
		double h = sample_value(&br->pairs[i].s[ARM_HEAD], m);

		/* valgrind counts only the first few pairs */
		if (!isfinite(b) || !isfinite(h))
			continue;
		p->arm[0][n] = b;
		p->arm[1][n] = h;
		if (d->source == SOURCE_SUITE && !counted)
			p->zeros += (b == 0) + (h == 0);
		st->ratios[n] = pair_ratio(b, h, counted, higher);
		p->logr[n] = log(st->ratios[n]);
		p->index[n] = (double)i;
		if (h != b) {
			st->of++;
			st->head_slower += higher ? h < b : h > b;
		}
		n++;
	}
	p->n = st->n = n;
}

static void pairs_free(struct metric_pairs *p)
{
	free(p->arm[0]);
	free(p->arm[1]);
	free(p->logr);
	free(p->index);
}

/* What every verdict shows: medians, spreads, the tests, outliers. */
static void pairs_summarise(struct bench_stats *st,
			    const struct metric_pairs *p)
{
	struct stats_mwu mw;
	size_t n = p->n;

	st->median = stats_median(st->ratios, n);
	st->geomean = stats_geomean(st->ratios, n);
	st->sign_p = stats_sign_test(st->head_slower, st->of);
	st->base_median = stats_median(p->arm[0], n);
	st->head_median = stats_median(p->arm[1], n);
	st->base_cv = stats_cv(p->arm[0], n);
	st->head_cv = stats_cv(p->arm[1], n);
	st->base_spread = verdict_spread(p->arm[0], n);
	st->head_spread = verdict_spread(p->arm[1], n);
	st->estimate = st->median;
	if (n >= 2) {
		st->wilcoxon_p = stats_wilcoxon(p->logr, n);
		st->mann_whitney_p = stats_mann_whitney(&mw, p->arm[0], n,
							p->arm[1], n) == 0 ?
				     mw.p : NAN;
		st->outliers = count_outliers(p->logr, n);
		st->drift = stats_correlation(p->index, p->arm[0], n);
	}
}

/* The smallest and largest pair ratio of st. */
static void ratio_range(const struct bench_stats *st, double *lo, double *hi)
{
	size_t i;

	*lo = *hi = st->ratios[0];
	for (i = 1; i < st->n; i++) {
		if (st->ratios[i] < *lo)
			*lo = st->ratios[i];
		if (st->ratios[i] > *hi)
			*hi = st->ratios[i];
	}
}

/*
 * Counts that repeat: no interval, the ratios are the answer ("at least
 * the floor" fails: 100 -> 101 at 1% is a fail). When every pair's ratio
 * is the same, it is the change itself. When they jitter (within the
 * exact tolerance), the median alone failed a true +0.19% at a 0.2% floor
 * in a third of runs; so the smallest ratio must reach the floor to fail
 * and the largest stay below it to pass, and then only with pairs enough
 * that n ratios all on the wrong side of a true change at the floor are
 * rarer than half the alpha (2^-n <= alpha / 2, a sign test's bound), or
 * farther from the floor than both arms' jitter together can move a
 * ratio; otherwise the interval decides at the metric's alpha. 1 when
 * decided.
 */
static int decide_exact(struct bench_stats *st, double alpha)
{
	double at = (1.0 + st->floor) * (1.0 - VERDICT_EXACT_SLACK), lo, hi;
	double jitter = 1.0 + st->base_spread + st->head_spread;
	int signs = ldexp(1.0, -(int)(st->n < 64 ? st->n : 64)) <= alpha / 2;

	ratio_range(st, &lo, &hi);
	if (isfinite(lo) && isfinite(hi) && lo != hi &&
	    ((lo < at && hi >= at) ||
	     !(signs || lo >= at * jitter || hi * jitter < at)))
		return 0;
	st->exact = 1;
	st->low = lo;
	st->high = hi;
	st->level = 1.0;
	st->verdict = !isfinite(st->median) || !isfinite(lo) ||
		      !isfinite(hi) ? VERDICT_ERROR :
		      lo >= at ? VERDICT_FAIL : VERDICT_PASS;
	st->improved = st->verdict == VERDICT_PASS && st->high < 1.0;
	st->reason = verdict_explain(st);
	st->explained = 1;
	return 1;
}

/* The slow-tail check on the arms' values, each pair's worse-is-higher
   value over the other (as pair_ratio forms the ratio). */
static void tail_check(struct bench_stats *st, const struct metric_pairs *p,
		       int counted, int higher, double alpha)
{
	double *num = xcalloc(p->n + 1, sizeof(double));
	double *den = xcalloc(p->n + 1, sizeof(double));
	size_t i;

	for (i = 0; i < p->n; i++) {
		double b = p->arm[0][i], h = p->arm[1][i];
		int plus1 = !higher && counted && (b == 0 || h == 0);

		num[i] = higher ? b : h + plus1;
		den[i] = higher ? h : b + plus1;
	}
	verdict_tail_check(st, num, den, p->n, alpha);
	free(num);
	free(den);
}

/* What is decided before any pair is read: the rule, floor and level. */
static void stats_setup(struct bench_stats *st, const struct bench_cfg *cfg,
			const struct metric_cfg *mc,
			const struct verdict_opts *vo)
{
	st->metric = mc->id;
	st->gating = mc->gating;
	st->floor = mc->min_effect;
	st->excludes = vo->strict ? mc->min_effect : mc->pass_excludes;
	st->level = 1 - vo->alpha;
	st->statistic = cfg->statistic;
	st->interval = cfg->interval;
	st->rule = cfg->rule;
	st->strict = vo->strict;
	st->target = cfg->target_halfwidth;
	st->verdict = VERDICT_ERROR;
}

int verdict_analyse_metric(struct bench_stats *st, const struct bench_run *br,
			   const struct metric_cfg *mc,
			   const struct verdict_opts *vo)
{
	const struct bench_cfg *cfg = br->cfg;
	enum metric m = mc->id;
	struct metric_pairs p;
	struct stats_interval ci;
	size_t n;
	int ret = -1, counted, higher;

	ratio_sense(cfg, m, &counted, &higher);
	stats_setup(st, cfg, mc, vo);
	/* the advice a noisy reason gives depends on it */
	st->one_look = br->suite_name && !suite_can_filter(cfg);
	pairs_collect(&p, st, br, m, counted, higher);
	n = p.n;
	if (n == 0) {
		st->reason = xasprintf("no pair measured \"%s\"",
				       metric_name(m));
		goto cleanup;
	}
	if (p.zeros) {
		/* a suite value that is not a count cannot be 0 */
		st->base_median = stats_median(p.arm[0], n);
		st->head_median = stats_median(p.arm[1], n);
		st->reason = xasprintf("the value is 0 in %zu of %zu "
				       "samples: no ratio can be formed",
				       p.zeros, 2 * n);
		goto cleanup;
	}
	pairs_summarise(st, &p);
	if (verdict_exact_metric(cfg, m) &&
	    st->base_spread <= METRIC_EXACT_TOLERANCE &&
	    st->head_spread <= METRIC_EXACT_TOLERANCE) {
		if (decide_exact(st, vo->alpha)) {
			ret = 0;
			goto cleanup;
		}
		st->straddles = 1;
	}
	st->varies = verdict_exact_metric(cfg, m);
	st->estimate = exp(stats_estimate(cfg->statistic, p.logr, n));
	/* every interval option is floored by the exact one (below) */
	st->min_n = stats_interval_min_n(cfg->statistic, vo->alpha);
	if (n < st->min_n || n < 2) {
		/* no interval at this level: neither shown nor excluded */
		if (st->min_n < 2)
			st->min_n = 2;
		st->low = -INFINITY;
		st->high = INFINITY;
		st->verdict = VERDICT_NOISY;
		st->reason = verdict_explain(st);
		st->explained = 1;
		ret = 0;
		goto cleanup;
	}
	if (verdict_robust_bounds(&ci, st, cfg, vo, p.logr, n) < 0) {
		st->reason = xasprintf("cannot compute the %s interval of the "
				       "%s from %zu pairs",
				       interval_name(cfg->interval),
				       verdict_stat_label(cfg->statistic), n);
		goto cleanup;
	}
	st->low = exp(ci.low);
	st->high = exp(ci.high);
	if ((!isfinite(st->low) || !isfinite(st->high)) && st->min_n <= n)
		st->min_n = n + 1;
	st->verdict = verdict_decide_rule(cfg->rule, st->estimate, st->low,
					  st->high, st->floor, st->excludes);
	if (st->verdict == VERDICT_PASS && cfg->statistic == STATS_HL)
		tail_check(st, &p, counted, higher, vo->alpha);
	st->improved = st->verdict == VERDICT_PASS && st->high < 1.0;
	st->reason = verdict_explain(st);
	st->explained = 1;
	ret = 0;
cleanup:
	pairs_free(&p);
	return ret;
}

int verdict_exact_metric(const struct bench_cfg *cfg, enum metric m)
{
	const struct value_slot *vs = bench_value_slot(cfg, m);

	if (vs)
		return vs->counted;
	return metric_desc(m)->exact || (m == METRIC_VALUE && cfg->counted);
}

/* Gating metrics of cfg decided by an interval (t) and exact counts (c). */
static void gating_kinds(const struct bench_cfg *cfg, size_t *t, size_t *c)
{
	size_t i;

	*t = *c = 0;
	for (i = 0; i < cfg->nmetrics; i++)
		if (cfg->metrics[i].gating) {
			if (verdict_exact_metric(cfg, cfg->metrics[i].id))
				(*c)++;
			else
				(*t)++;
		}
}

double verdict_metric_alpha(const struct bench_cfg *cfg, size_t i,
			    double alpha)
{
	size_t t, c;

	gating_kinds(cfg, &t, &c);
	if (!cfg->metrics[i].gating)
		return alpha;
	if (!verdict_exact_metric(cfg, cfg->metrics[i].id))
		return c ? alpha * (1 - VERDICT_COUNT_SHARE) : alpha;
	return t ? alpha * VERDICT_COUNT_SHARE * (double)t / (double)c :
	       alpha / (double)c;
}

enum verdict verdict_bench(struct bench_result *res, const struct bench_run *br,
			   const struct verdict_opts *vo)
{
	struct verdict_opts each = *vo;
	const struct bench_cfg *cfg = br->cfg;
	enum verdict worst = VERDICT_PASS;
	size_t i;

	res->n = cfg->nmetrics;
	res->m = xcalloc(cfg->nmetrics, sizeof(*res->m));
	for (i = 0; i < cfg->nmetrics; i++) {
		struct bench_stats *st = &res->m[i];

		each.seed = vo->seed + 7919 * i;
		each.alpha = verdict_metric_alpha(cfg, i, vo->alpha);
		verdict_analyse_metric(st, br, &cfg->metrics[i], &each);
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

size_t verdict_comparisons(const struct bench_cfg *cfg)
{
	size_t t, c;

	gating_kinds(cfg, &t, &c);
	return t ? t : c ? 1 : 0;
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

void bench_stats_release(struct bench_stats *st)
{
	free(st->ratios);
	free(st->reason);
	free(st->note);
	memset(st, 0, sizeof(*st));
}
