/*
 * Verdicts beyond one metric: the worst of a benchmark's or a suite's,
 * what a Gate-Accept trailer makes of a fail or a noisy result, the exit
 * code, an identical build's pass and how bisect reads a step.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/decide/verdict.h"
#include "common/banned.h"

/* How bad a verdict is: pass (and new) < accepted < noisy < fail < error. */
static int severity(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
	case VERDICT_NEW:
		return 0;
	case VERDICT_ACCEPTED:
		return 1;
	case VERDICT_NOISY:
		return 2;
	case VERDICT_FAIL:
		return 3;
	case VERDICT_ERROR:
		return 4;
	}
	return 4;
}

enum verdict verdict_suite(const enum verdict *v, size_t n)
{
	enum verdict worst = VERDICT_PASS;
	size_t i;

	for (i = 0; i < n; i++)
		if (severity(v[i]) > severity(worst))
			worst = v[i];
	return worst;
}

enum verdict verdict_accept_rule(enum verdict v, double low, double high,
				 double bound)
{
	double at = 1 + bound;

	if (v != VERDICT_FAIL && v != VERDICT_NOISY && v != VERDICT_ACCEPTED)
		return v;
	if (isnan(low) || isnan(high))
		return VERDICT_ERROR;
	if (high <= at * (1 + VERDICT_EXACT_SLACK))
		return VERDICT_ACCEPTED;
	if (low > at)
		return VERDICT_FAIL;
	return VERDICT_NOISY;
}

/*
 * Metric st, a fail or noisy, under trailer a: accepted when its upper
 * bound is within a's bound, a fail when its lower bound is beyond it,
 * noisy in between, each saying so.
 */
static void accept_metric(struct bench_stats *st,
			  const struct verdict_accept *a)
{
	double low = st->exact ? st->estimate : st->low;
	double high = st->exact ? st->estimate : st->high;
	const char *was = st->reason ? st->reason : verdict_name(st->verdict);
	char by[160];
	char *why;

	st->accept = a;
	st->verdict = verdict_accept_rule(st->verdict, low, high, a->bound);
	snprintf(by, sizeof(by), "Gate-Accept of commit %.10s%s%.100s",
		 a->commit, a->reason[0] ? ": " : "", a->reason);
	if (st->verdict == VERDICT_ACCEPTED)
		why = xasprintf("accepted: %s; within the %+g%% that commit "
				"%.10s accepts%s%s", was, a->bound * 100,
				a->commit, a->reason[0] ? ": " : "",
				a->reason);
	else if (st->verdict == VERDICT_FAIL)
		why = xasprintf("%s; exceeds the accepted %+g%% (%s)", was,
				a->bound * 100, by);
	else if (isfinite(high))
		why = xasprintf("%s; may exceed the accepted %+g%% (%s): the "
				"upper bound %+.1f%% is above it and the lower "
				"bound %+.1f%% below it; more pairs would "
				"settle which", was, a->bound * 100, by,
				ratio_pct(high), ratio_pct(low));
	else
		why = xasprintf("%s; so it is not shown within the accepted "
				"%+g%% (%s)", was, a->bound * 100, by);
	free(st->reason);
	st->reason = why;
	st->explained = 0;	/* not verdict_explain's alone any more */
}

enum verdict verdict_accept_bench(struct bench_result *res, const char *name,
				  struct verdict_accept *a, size_t n)
{
	const struct verdict_accept *use = NULL;
	enum verdict worst = VERDICT_PASS;
	size_t i;

	for (i = 0; i < n; i++)
		if (!fnmatch(a[i].pattern, name, 0)) {
			a[i].matched = 1;
			if (!use)
				use = &a[i];
		}
	/* a noisy benchmark is accepted too when its interval is within
	   the bound: accepted means accepted, not "shown to regress" */
	if (!use || (res->verdict != VERDICT_FAIL &&
		     res->verdict != VERDICT_NOISY))
		return res->verdict;
	for (i = 0; i < res->n; i++) {
		struct bench_stats *st = &res->m[i];

		if (!st->gating)
			continue;
		if (st->verdict == VERDICT_FAIL ||
		    st->verdict == VERDICT_NOISY)
			accept_metric(st, use);
		if (severity(st->verdict) > severity(worst))
			worst = st->verdict;
	}
	res->verdict = worst;
	return worst;
}

int verdict_exit_code(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
	case VERDICT_NEW:
	case VERDICT_ACCEPTED:
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

void verdict_identical(struct bench_result *res, const struct bench_run *br)
{
	const struct bench_cfg *c = br->cfg;
	struct bench_stats *st;

	res->m = xcalloc(1, sizeof(*res->m));
	res->n = 1;
	res->verdict = VERDICT_PASS;
	st = &res->m[0];
	st->metric = c->metric;
	st->gating = 1;
	st->verdict = VERDICT_PASS;
	st->floor = c->min_effect;
	st->statistic = c->statistic;
	st->interval = c->interval;
	st->interval_used = c->interval;
	/* each digest's first 12 digits, as git abbreviates ids */
	st->reason = xasprintf("identical build: %zu file%s, sha256 "
			       "%.12s...%s%.12s%s%s", br->nartifacts,
			       br->nartifacts == 1 ? "" : "s",
			       br->artifacts[0].sha256[0],
			       br->nartifacts > 1 ? ", " : "",
			       br->nartifacts > 1 ? br->artifacts[1].sha256[0] :
			       "", br->nartifacts > 1 ? "..." : "",
			       br->nartifacts > 2 ? ", ..." : "");
}

enum bisect_call verdict_bisect_call(enum verdict v, double low, double high,
				     int identical, double floor)
{
	double at = 1 + floor;

	if (identical && v == VERDICT_PASS)
		return BISECT_GOOD;
	if (v != VERDICT_PASS && v != VERDICT_NOISY && v != VERDICT_FAIL &&
	    v != VERDICT_ACCEPTED)
		return BISECT_SKIP;
	if (isnan(low) || isnan(high) || isnan(floor))
		return BISECT_SKIP;
	/* an accepted noisy result shows nothing: only the bound counts */
	if (v == VERDICT_FAIL ||
	    (v == VERDICT_ACCEPTED && low > at * (1 - VERDICT_EXACT_SLACK)))
		return BISECT_BAD;
	/* a pass only excludes pass_excludes (twice the floor): good needs
	   the upper bound below the floor itself */
	if (high < at)
		return BISECT_GOOD;
	return BISECT_UNSURE;
}
