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
#include "stats/stats.h"
#include "common/banned.h"

/* Pairs added per round: half the minimum, even so order stays balanced. */
static unsigned round_pairs(const struct bench_cfg *cfg)
{
	unsigned r = (cfg->pairs + 1) / 2;

	r += r % 2;
	return r < 2 ? 2 : r;
}

size_t adaptive_looks(const struct bench_cfg *cfg)
{
	unsigned r = round_pairs(cfg);

	if (cfg->max_pairs <= cfg->pairs)
		return 1;
	return 1 + (cfg->max_pairs - cfg->pairs + r - 1) / r;
}

unsigned adaptive_look_pairs(const struct bench_cfg *cfg, size_t k)
{
	unsigned long n = cfg->pairs + (unsigned long)k * round_pairs(cfg);

	return n < cfg->max_pairs ? (unsigned)n : cfg->max_pairs > cfg->pairs
	       ? cfg->max_pairs : cfg->pairs;
}

double adaptive_look_level(const struct bench_cfg *cfg, double alpha,
			   size_t k)
{
	size_t looks = adaptive_looks(cfg);
	double first, share;

	if (looks == 1)
		return 1 - alpha;
	/*
	 * Half or more at the first look, where most benchmarks resolve;
	 * the rest follows the information each later look adds.
	 */
	share = (double)cfg->pairs / cfg->max_pairs;
	first = alpha * (share > 0.5 ? share : 0.5);
	if (k == 0)
		return 1 - first;
	return 1 - (alpha - first) * (adaptive_look_pairs(cfg, k) -
				      adaptive_look_pairs(cfg, k - 1)) /
		   (double)(cfg->max_pairs - cfg->pairs);
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
	size_t j;

	vo.alpha = 1 - adaptive_look_level(cfg, alpha, k);
	vo.resamples = r->resamples;
	vo.seed = adaptive_seed(r->seed, cfg->name, k);
	vo.strict = strict;
	bench_result_release(res);
	verdict_bench(res, &r->runs[i], &vo);
	for (j = 0; j < res->n; j++)
		if (res->m[j].gating && verdict_unresolved(&res->m[j]))
			stop = STOP_NONE;
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

int adaptive_run(struct run_report *r, const struct adaptive_ops *ops,
		 const struct adaptive_opts *ao)
{
	enum verdict *v = xcalloc(r->n ? r->n : 1, sizeof(*v));
	double alpha;
	size_t i, k, pending;
	int rc = 0;

	r->compared = 0;
	for (i = 0; i < r->n; i++)
		if (!skipped(&r->runs[i]))
			r->compared += verdict_comparisons(r->runs[i].cfg);
	r->level = stats_bonferroni(r->confidence, r->compared);
	alpha = 1 - r->level;

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
	 * Rounds: each unresolved benchmark gets its next batch of pairs
	 * (interleaved base/head, balanced order, as before) and one more
	 * look, until every one is resolved, at max_pairs, or out of time.
	 */
	for (k = 1, pending = 1; rc <= 0 && pending; k++) {
		double spent, per_pair, need = 0;
		size_t done = 0;

		pending = 0;
		for (i = 0; i < r->n; i++) {
			if (r->stats[i].stop != STOP_NONE ||
			    skipped(&r->runs[i]))
				continue;
			pending++;
			need += adaptive_look_pairs(r->runs[i].cfg, k) -
				r->runs[i].npairs;
		}
		if (!pending)
			break;
		if (ao->budget > 0 && ops->elapsed) {
			/* a round starts only if it should fit what is left */
			for (i = 0; i < r->n; i++)
				done += r->runs[i].npairs;
			spent = ops->elapsed(ops->ctx);
			per_pair = done ? spent / (double)done : 0;
			if (spent + per_pair * need > ao->budget) {
				for (i = 0; i < r->n; i++)
					if (r->stats[i].stop == STOP_NONE &&
					    !skipped(&r->runs[i]))
						set_stop(r, i,
							 r->stats[i].looks,
							 STOP_BUDGET);
				break;
			}
		}
		if (!ao->quiet)
			fprintf(stderr, "gate: round %zu: more pairs for %zu "
				"unresolved benchmark%s\n", k, pending,
				pending == 1 ? "" : "s");
		for (i = 0; i < r->n && rc <= 0; i++) {
			if (r->stats[i].stop != STOP_NONE ||
			    skipped(&r->runs[i]))
				continue;
			rc = grow(r, ops, i,
				  adaptive_look_pairs(r->runs[i].cfg, k));
			if (rc == 0)
				look(r, i, k, alpha, ao->strict);
		}
	}
	for (i = 0; i < r->n; i++)
		v[i] = r->results[i].verdict;
	r->suite = verdict_suite(v, r->n);
	free(v);
	return rc > 0 ? rc : 0;
}
