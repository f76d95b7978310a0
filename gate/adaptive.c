/*
 * Adaptive pairs. The schedule of looks is fixed before any data is seen
 * and each look spends a fixed share of the benchmark's alpha, so stopping
 * early on a verdict cannot inflate the false-fail rate (union bound).
 */
#include "gate/adaptive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "gate/metrics.h"
#include "stats/stats.h"
#include "common/banned.h"

/*
 * Pairs the look after one at n pairs adds: half of n, rounded up to even
 * (each batch is balanced on its own), at least 2.
 */
static unsigned long step(unsigned long n)
{
	unsigned long r = (n + 1) / 2;

	r += r % 2;
	return r < 2 ? 2 : r;
}

size_t adaptive_looks(const struct bench_cfg *cfg)
{
	unsigned long n = cfg->pairs;
	size_t k = 1;

	while (n < cfg->max_pairs) {
		n += step(n);
		k++;
	}
	return k;
}

unsigned adaptive_look_pairs(const struct bench_cfg *cfg, size_t k)
{
	unsigned long n = cfg->pairs;

	while (k-- > 0 && n < cfg->max_pairs)
		n += step(n);
	return n < cfg->max_pairs ? (unsigned)n : cfg->max_pairs > cfg->pairs
	       ? cfg->max_pairs : cfg->pairs;
}

double adaptive_look_level(const struct bench_cfg *cfg, double alpha,
			   size_t k)
{
	size_t looks = adaptive_looks(cfg);

	if (looks == 1)
		return 1 - alpha;
	/*
	 * Half at the first look, where most benchmarks resolve; the other
	 * half in equal shares, so a look at 500 pairs has as much to spend
	 * as one at 50 (the budget, not the cap, usually ends a run).
	 */
	if (k == 0)
		return 1 - alpha / 2;
	return 1 - alpha / 2 / (double)(looks - 1);
}

unsigned long adaptive_seed(unsigned long seed, const char *name, size_t k)
{
	unsigned long h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	return (seed ^ h ^ (unsigned long)k * 0x9e3779b9UL) & 0xffffffffUL;
}

/* Not compared: new in head, or a suite case only base printed. */
static int skipped(const struct bench_run *br)
{
	return br->is_new || br->is_removed;
}

double adaptive_alpha(struct run_report *r)
{
	size_t i;

	r->compared = 0;
	for (i = 0; i < r->n; i++)
		if (!skipped(&r->runs[i]))
			r->compared += verdict_comparisons(r->runs[i].cfg);
	r->level = stats_bonferroni(r->confidence, r->compared);
	return 1 - r->level;
}

unsigned adaptive_min_pairs(const struct bench_cfg *cfg, double alpha)
{
	struct bench_cfg c = *cfg;
	int interval = 0;
	size_t j, need;

	for (j = 0; j < c.nmetrics; j++)
		if (c.metrics[j].gating && !metric_desc(c.metrics[j].id)->exact)
			interval = 1;
	if (!interval)
		return 0;
	/* more pairs may mean one look, with more to spend: iterate */
	for (;;) {
		need = stats_interval_min_n(c.statistic,
					    1 - adaptive_look_level(&c, alpha,
								    0));
		if (need <= c.pairs)
			return c.pairs;
		c.pairs = (unsigned)need;
		if (c.max_pairs < c.pairs)
			c.max_pairs = c.pairs;
	}
}

/* Set the stopping state on every metric of benchmark i, then its view. */
static void set_stop(struct run_report *r, size_t i, size_t looks,
		     enum stop_reason stop)
{
	struct bench_result *res = &r->results[i];
	size_t j;

	for (j = 0; j < res->n; j++) {
		res->m[j].looks = looks;
		res->m[j].stop = stop;
	}
	bench_result_primary(&r->stats[i], res);
	r->stats[i].looks = looks;
	r->stats[i].stop = stop;
}

/* Analyse benchmark i at look k, replacing the previous look's results. */
static void look(struct run_report *r, size_t i, size_t k, double alpha,
		 int strict)
{
	struct bench_result *res = &r->results[i];
	const struct bench_cfg *cfg = r->runs[i].cfg;
	struct verdict_opts vo;
	enum stop_reason stop = STOP_RESOLVED;
	int failed = 0;
	size_t j;

	vo.alpha = 1 - adaptive_look_level(cfg, alpha, k);
	vo.resamples = r->resamples;
	vo.seed = adaptive_seed(r->seed, cfg->name, k);
	vo.strict = strict;
	bench_result_release(res);
	verdict_bench(res, &r->runs[i], &vo);
	for (j = 0; j < res->n; j++) {
		if (!res->m[j].gating)
			continue;
		failed |= res->m[j].verdict == VERDICT_FAIL;
		if (verdict_unresolved(&res->m[j]))
			stop = STOP_NONE;
	}
	/*
	 * A fail is final: the union bound covers stopping at the first
	 * one, and no later look can make the benchmark anything but a
	 * fail, so it gets no more pairs (its other metrics stay as seen).
	 */
	if (failed)
		stop = STOP_RESOLVED;
	if (res->verdict == VERDICT_ERROR)
		stop = STOP_ERROR;
	else if (stop == STOP_NONE && k + 1 >= adaptive_looks(cfg))
		stop = STOP_MAX_PAIRS;
	set_stop(r, i, k + 1, stop);
}

/* Measure benchmark i to `total` pairs; 0, -1 or a signal. */
static int grow(struct run_report *r, const struct adaptive_ops *ops,
		size_t i, unsigned total)
{
	int rc = ops->measure(ops->ctx, i, total);

	if (rc != 0) {
		bench_result_release(&r->results[i]);
		r->results[i].verdict = VERDICT_ERROR;
		set_stop(r, i, r->stats[i].looks, STOP_ERROR);
	}
	return rc;
}

/* Still measuring: compared, and neither resolved nor stopped. */
static int unresolved(const struct run_report *r, size_t i)
{
	return r->stats[i].stop == STOP_NONE && !skipped(&r->runs[i]);
}

/* Seconds benchmark i's next look should take, from its own pairs. */
static double look_cost(const struct run_report *r, size_t i)
{
	const struct bench_run *br = &r->runs[i];
	unsigned next = adaptive_look_pairs(br->cfg, r->stats[i].looks);
	double per_pair;

	if (!br->npairs || next <= br->npairs)
		return 0;
	per_pair = (br->seconds - br->warmup_seconds) / (double)br->npairs;
	return per_pair > 0 ? per_pair * (next - br->npairs) : 0;
}

/* Benchmark i's next look: its pairs, then the analysis. */
static int advance(struct run_report *r, const struct adaptive_ops *ops,
		   size_t i, double alpha, int strict)
{
	size_t k = r->stats[i].looks;
	int rc = grow(r, ops, i, adaptive_look_pairs(r->runs[i].cfg, k));

	if (rc == 0)
		look(r, i, k, alpha, strict);
	return rc;
}

int adaptive_run(struct run_report *r, const struct adaptive_ops *ops,
		 const struct adaptive_opts *ao)
{
	enum verdict *v = xcalloc(r->n ? r->n : 1, sizeof(*v));
	int limited = ao->budget > 0 && ops->elapsed;
	double alpha = adaptive_alpha(r);
	size_t i, round;
	int rc = 0;

	for (i = 0; i < r->n && rc <= 0; i++) {
		if (skipped(&r->runs[i])) {
			r->results[i].verdict = VERDICT_NEW;
			r->stats[i].verdict = VERDICT_NEW;
			continue;
		}
		rc = grow(r, ops, i, r->runs[i].cfg->pairs);
		if (rc == 0)
			look(r, i, 0, alpha, ao->strict);
	}

	/*
	 * Rounds: each unresolved benchmark gets its next look (interleaved
	 * base/head, balanced order, as before) when it fits its fair share
	 * of the time left, until every one is resolved, at max_pairs, or
	 * out of time. The looks are the schedule's: the budget only ends
	 * a benchmark's run, so each look's alpha stays as spent.
	 */
	for (round = 1; rc <= 0; round++) {
		size_t pending = 0, ran = 0, best = r->n;
		double left, share, mine = 0;

		for (i = 0; i < r->n; i++)
			if (unresolved(r, i)) {
				pending++;
				mine += r->runs[i].seconds;
			}
		if (!pending)
			break;
		/*
		 * Each unresolved benchmark's fair share: the budget less
		 * what the others (resolved, stopped) took, split evenly.
		 */
		left = limited ? ao->budget - ops->elapsed(ops->ctx) : INFINITY;
		share = limited ? (left + mine) / (double)pending : INFINITY;
		for (i = 0; i < r->n && rc <= 0; i++) {
			double cost;

			if (!unresolved(r, i))
				continue;
			cost = look_cost(r, i);
			if (limited && (r->runs[i].seconds + cost > share ||
					cost > ao->budget -
					       ops->elapsed(ops->ctx)))
				continue;
			if (!ao->quiet && !ran)
				fprintf(stderr, "gate: round %zu: more pairs "
					"for the unresolved benchmarks\n",
					round);
			rc = advance(r, ops, i, alpha, ao->strict);
			ran++;
		}
		if (ran || rc > 0)
			continue;
		/*
		 * No look fits its share: of the looks that fit what is
		 * left, the benchmark that used the least time goes; when
		 * none fits, time is up.
		 */
		for (i = 0; i < r->n; i++)
			if (unresolved(r, i) && look_cost(r, i) <= left &&
			    (best == r->n ||
			     r->runs[i].seconds < r->runs[best].seconds))
				best = i;
		if (best == r->n) {
			for (i = 0; i < r->n; i++)
				if (unresolved(r, i))
					set_stop(r, i, r->stats[i].looks,
						 STOP_BUDGET);
			break;
		}
		if (!ao->quiet)
			fprintf(stderr, "gate: round %zu: more pairs for "
				"\"%s\", the least served\n", round,
				r->runs[best].cfg->name);
		rc = advance(r, ops, best, alpha, ao->strict);
	}
	for (i = 0; i < r->n; i++)
		v[i] = r->results[i].verdict;
	r->suite = verdict_suite(v, r->n);
	free(v);
	return rc > 0 ? rc : 0;
}
