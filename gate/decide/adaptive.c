/*
 * Adaptive pairs. The schedule of looks is fixed before any change is
 * seen (under a budget, at the first look, from time alone) and each look
 * spends a fixed share of the benchmark's alpha, so stopping early on a
 * verdict cannot inflate the false-fail rate (union bound).
 */
#include "gate/decide/adaptive.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/seed.h"
#include "gate/config/metrics.h"
#include "gate/decide/verdict-explain.h"
#include "gate/exec/notice.h"
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
		if (!skipped(&r->b[i].run))
			r->compared += verdict_comparisons(r->b[i].run.cfg);
	r->compared += r->elsewhere;	/* the other shards' (--shard) */
	r->level = stats_bonferroni(r->confidence, r->compared);
	return 1 - r->level;
}

unsigned adaptive_min_pairs(const struct bench_cfg *cfg, double alpha)
{
	struct bench_cfg c = *cfg;
	int interval = 0;
	size_t j, need;

	for (j = 0; j < c.nmetrics; j++)
		if (c.metrics[j].gating &&
		    !verdict_exact_metric(&c, c.metrics[j].id))
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

unsigned adaptive_decide_pairs(const struct bench_cfg *cfg, double alpha)
{
	size_t j;

	for (j = 0; j < cfg->nmetrics; j++)
		if (cfg->metrics[j].gating &&
		    !verdict_exact_metric(cfg, cfg->metrics[j].id))
			return (unsigned)stats_interval_min_n(cfg->statistic,
				1 - adaptive_look_level(cfg, alpha, 0));
	return 0;
}

/* Set the stopping state of benchmark b and of every metric of it. */
static void set_stop(struct run_bench *b, size_t looks, enum stop_reason stop)
{
	size_t j;

	for (j = 0; j < b->result.n; j++) {
		struct bench_stats *st = &b->result.m[j];

		st->stop = stop;
		/* a noisy reason's advice names what stopped it */
		if (st->explained && st->verdict == VERDICT_NOISY &&
		    (stop == STOP_BUDGET || stop == STOP_MAX_PAIRS)) {
			free(st->reason);
			st->reason = verdict_explain(st);
		}
	}
	b->looks = looks;
	b->stop = stop;
}

/* Analyse benchmark b at look k, replacing the previous look's results. */
static void look(const struct run_report *r, struct run_bench *b, size_t k,
		 double alpha, int strict)
{
	struct bench_result *res = &b->result;
	const struct bench_cfg *cfg = b->run.cfg;
	struct verdict_opts vo;
	enum stop_reason stop = STOP_RESOLVED;
	int failed = 0;
	size_t j;

	vo.alpha = 1 - adaptive_look_level(cfg, alpha, k);
	vo.resamples = r->resamples;
	vo.seed = seed_derive(r->seed, cfg->name, k);
	vo.strict = strict;
	bench_result_release(res);
	verdict_bench(res, &b->run, &vo);
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
		stop = b->run.max_pairs_set ? STOP_BUDGET : STOP_MAX_PAIRS;
	set_stop(b, k + 1, stop);
}

/* Still measuring: compared, and neither resolved nor stopped. */
static int unresolved(const struct run_report *r, size_t i)
{
	return r->b[i].stop == STOP_NONE && !skipped(&r->b[i].run);
}

/* Seconds benchmark i's next look should take, from its own pairs. */
static double look_cost(const struct run_report *r, size_t i)
{
	const struct bench_run *br = &r->b[i].run;
	unsigned next = adaptive_look_pairs(br->cfg, r->b[i].looks);

	if (!br->npairs || next <= br->npairs)
		return 0;
	/* the plain runs' time per pair, and the valgrind runs' per pair
	   for those that will be counted: a look whose every pair is
	   counted costs many times the average of mostly plain pairs */
	return measure_pairs_cost(br, next - (unsigned)br->npairs);
}

void adaptive_begin(struct adaptive *a, struct run_report *r,
		    const struct adaptive_opts *ao)
{
	memset(a, 0, sizeof(*a));
	a->opt = *ao;
	a->alpha = adaptive_alpha(r);
}

/* Benchmark i's next look, into *want. */
static int want_look(struct adaptive_want *want, const struct run_report *r,
		     size_t i)
{
	want->i = i;
	want->look = r->b[i].looks;
	want->total = adaptive_look_pairs(r->b[i].run.cfg, want->look);
	want->probe = 0;
	return 1;
}

/* Whether unresolved benchmark i is a suite case after another unresolved
   case of its suite: one process serves them all in a round (suite_grow),
   and each is charged its whole time, so the suite counts once. */
static int suite_counted(const struct run_report *r, size_t i)
{
	const char *suite = r->b[i].run.suite_name;
	size_t j;

	for (j = 0; suite && j < i; j++)
		if (unresolved(r, j) && r->b[j].run.suite_name &&
		    !strcmp(r->b[j].run.suite_name, suite))
			return 1;
	return 0;
}

/*
 * A new round: 0 when nothing is unresolved. Each unresolved benchmark's
 * fair share is the budget less what the others (resolved, stopped) took,
 * split evenly; a suite's unresolved cases are one benchmark here, as
 * they are one process in a round (counted as many, a suite of 9 cases
 * had a ninth of its share, and a plain benchmark beside it the rest).
 */
static int round_start(struct adaptive *a, const struct run_report *r,
		       double elapsed)
{
	size_t i, pending = 0;
	double mine = 0;

	for (i = 0; i < r->n; i++)
		if (unresolved(r, i) && !suite_counted(r, i)) {
			pending++;
			mine += r->b[i].run.seconds;
		}
	if (!pending)
		return 0;
	a->left = a->opt.budget > 0 ? a->opt.budget - elapsed : INFINITY;
	a->share = a->opt.budget > 0 ? (a->left + mine) / (double)pending :
		   INFINITY;
	a->next = 0;
	a->ran = 0;
	a->fresh = 0;
	return 1;
}

/* Seconds a pair of br took so far (0: none measured). */
static double run_pair_seconds(const struct bench_run *br)
{
	double s;

	if (!br->npairs)
		return 0;
	s = (br->seconds - br->warmup_seconds) / (double)br->npairs;
	return s > 0 ? s : 0;
}

static double pair_seconds(const struct run_report *r, size_t i)
{
	return run_pair_seconds(&r->b[i].run);
}

/* The total br's look may bring it to, from want, within seconds: want
   when it fits, else its pairs plus an even number that fits (its pairs
   when not even 2 do). */
static unsigned fit_run_pairs(const struct bench_run *br, unsigned want,
			      double seconds)
{
	unsigned n = (unsigned)br->npairs;
	double per, more;

	if (want <= n)
		return want;
	/* the look's own pairs' cost, counted runs included */
	per = measure_pairs_cost(br, want - n) / (double)(want - n);
	if (per <= 0)
		return want;
	more = floor((seconds > 0 ? seconds : 0) / per);
	if (more >= (double)(want - n))
		return want;
	more = 2 * floor(more / 2);
	return more < 2 ? n : n + (unsigned)more;
}

static unsigned fit_pairs(const struct run_report *r, size_t i,
			  unsigned want, double seconds)
{
	return fit_run_pairs(&r->b[i].run, want, seconds);
}

unsigned adaptive_first_look_pairs(const struct bench_run *br, unsigned full,
				   double left, size_t benchmarks)
{
	/* an even split of what is left, its probe's time included */
	double share = (left + br->seconds) /
		       (double)(benchmarks ? benchmarks : 1) - br->seconds;
	unsigned total = fit_run_pairs(br, full, share);

	return total < br->npairs ? (unsigned)br->npairs : total;
}

/*
 * Time is up, but benchmark i holds pairs its looks have not seen: a suite
 * case measured in the round of another case's shorter last look (one
 * process serves every case at those pairs). It takes them as its own
 * shorter last look, at its look's alpha, as that case did; they cost
 * nothing more. 1 with *want set, or 0 when none holds any.
 */
static int held_look(const struct run_report *r, struct adaptive_want *want)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct run_bench *b = &r->b[i];
		const struct bench_stats *st = run_bench_primary(b);

		/* st->n: the pairs its last look saw */
		if (!unresolved(r, i) || !b->run.suite_name || !st ||
		    !b->looks || b->run.npairs < st->n + 2 ||
		    b->run.npairs >= adaptive_look_pairs(b->run.cfg,
							 b->looks))
			continue;
		want_look(want, r, i);
		want->total = (unsigned)b->run.npairs;
		return 1;
	}
	return 0;
}

/* Who a look of br serves, for the round's message: a suite case's look
   serves every unresolved case of its suite (one process). */
static const char *served(const struct bench_run *br)
{
	return br->suite_name ? "the unresolved cases of suite " : "";
}

static const char *served_name(const struct bench_run *br)
{
	return br->suite_name ? br->suite_name : br->cfg->name;
}

/*
 * No look fits its share: of the looks that fit what is left, the
 * benchmark that used the least time goes; when none fits, time is up
 * and every unresolved one stops with "budget".
 */
static int least_served(struct adaptive *a, struct run_report *r,
			struct adaptive_want *want)
{
	size_t i, best = r->n;

	for (i = 0; i < r->n; i++)
		if (unresolved(r, i) && look_cost(r, i) <= a->left &&
		    (best == r->n ||
		     r->b[i].run.seconds < r->b[best].run.seconds))
			best = i;
	if (best == r->n && !a->last) {
		/* no look fits whole: the least served takes what is left
		   as a shorter last look, at its look's alpha */
		for (i = 0; i < r->n; i++)
			if (unresolved(r, i) &&
			    fit_pairs(r, i, (unsigned)r->b[i].run.npairs + 2,
				      a->left) > r->b[i].run.npairs &&
			    (best == r->n || r->b[i].run.seconds <
			     r->b[best].run.seconds))
				best = i;
		if (best < r->n) {
			a->last = 1;
			a->round++;
			a->fresh = 1;
			want_look(want, r, best);
			want->total = fit_pairs(r, best, want->total, a->left);
			if (!a->opt.quiet)
				notice("round %zu: the time left for %u "
				       "more pairs of %s\"%s\"",
					a->round - 1, want->total -
					(unsigned)r->b[best].run.npairs,
					served(&r->b[best].run),
					served_name(&r->b[best].run));
			return 1;
		}
	}
	if (best == r->n) {
		if (held_look(r, want))
			return 1;
		for (i = 0; i < r->n; i++)
			if (unresolved(r, i))
				set_stop(&r->b[i], r->b[i].looks,
					 STOP_BUDGET);
		return 0;
	}
	if (!a->opt.quiet)
		notice("round %zu: more pairs for %s\"%s\", the least "
		       "served", a->round, served(&r->b[best].run),
		       served_name(&r->b[best].run));
	a->round++;
	a->fresh = 1;
	return want_look(want, r, best);
}

/* The compared benchmarks from i on still to have their first look. */
static size_t first_looks_left(const struct run_report *r, size_t i)
{
	size_t k = 0;

	for (; i < r->n; i++)
		k += !skipped(&r->b[i].run) && r->b[i].run.identical != 1;
	return k ? k : 1;
}

/*
 * The looks planned to what the budget can reach, not to a max_pairs it
 * never will: at the first look, benchmark b could hold at most its pairs
 * plus those the time left affords at its pace, if the others took none
 * (a quarter more, for a pace that varies). When that is fewer than
 * max_pairs, the schedule ends there, and each later look spends an equal
 * share of fewer: at 7 s a pair and 150 s left, 4 looks to 51 pairs, not
 * 13 to 2000, so each later look has 4 times the alpha. The plan depends
 * on time alone, which swapping a pair's arms leaves as it is: under
 * identical code each look's level holds as before, and the looks' levels
 * still sum to the benchmark's alpha. Said in its note.
 */
static void plan_to_budget(struct adaptive *a, struct run_bench *b,
			   unsigned total, double elapsed)
{
	struct bench_run *br = &b->run;
	struct bench_cfg *c = (struct bench_cfg *)(uintptr_t)(const void *)
			      br->cfg;	/* the run's own: a plan's, a case's */
	double per = run_pair_seconds(br), reach;
	unsigned cap;
	char *why;

	if (a->opt.budget <= 0 || per <= 0 || br->max_pairs_set)
		return;
	reach = floor(1.25 * (a->opt.budget - elapsed) / per);
	if (reach < 0)
		reach = 0;
	reach += (double)br->npairs;
	if (reach >= (double)c->max_pairs)
		return;
	cap = (unsigned)reach;
	cap += cap % 2;			/* looks add even pairs */
	if (cap < total)
		cap = total;
	if (cap < c->pairs)
		cap = c->pairs;
	if (cap >= c->max_pairs)
		return;
	br->max_pairs_set = c->max_pairs;
	c->max_pairs = cap;
	why = xasprintf("looks planned to %u pairs, what --budget %g s can "
			"reach at %.2f s a pair (max_pairs %u): %zu look%s",
			cap, a->opt.budget, per, br->max_pairs_set,
			adaptive_looks(c), adaptive_looks(c) == 1 ? "" : "s");
	run_bench_note(b, why);
	free(why);
}

/*
 * Under a budget, benchmark i's first look once its probe is measured:
 * the pairs that fit its even share of the time left (the budget less
 * elapsed, split between it and the benchmarks after it still to have
 * theirs), never fewer than the probe, nor than the fewest that can
 * decide at its level (adaptive_decide_pairs): a look with no interval
 * can only be noisy, so a budget spent on it would end a head hundreds
 * of times slower as noisy, which an advisory workflow takes for
 * success. Said when fewer than planned, or more than the budget holds.
 */
static void first_look_budget(struct adaptive *a, struct run_report *r,
			      size_t i, double elapsed,
			      struct adaptive_want *want)
{
	struct run_bench *b = &r->b[i];
	unsigned full = want->total, total, need;
	char *why;

	total = adaptive_first_look_pairs(&b->run, full, a->opt.budget -
					  elapsed, first_looks_left(r, i));
	need = adaptive_decide_pairs(b->run.cfg, a->alpha);
	if (need > full)
		need = full;	/* the plan's own first look decides */
	if (total < need) {
		why = xasprintf("first look kept at %u pairs past --budget "
				"%g s: fewer cannot decide at its level "
				"(%.2f s a pair, %u would fit)", need,
				a->opt.budget, pair_seconds(r, i), total);
		if (!a->opt.quiet)
			notice("\"%s\": %s", b->run.cfg->name, why);
		run_bench_note(b, why);
		free(why);
		total = need;
	} else if (total < full) {
		why = xasprintf("first look cut to %u of %u pairs to fit "
				"--budget %g s (%.2f s a pair)", total, full,
				a->opt.budget, pair_seconds(r, i));
		if (!a->opt.quiet)
			notice("\"%s\": %s", b->run.cfg->name, why);
		run_bench_note(b, why);
		free(why);
	}
	want->total = total;
	plan_to_budget(a, b, total, elapsed);
}

/* The first look of every compared benchmark, in order. */
static int first_looks(struct adaptive *a, struct run_report *r,
		       double elapsed, struct adaptive_want *want)
{
	for (; a->next < r->n; a->next++) {
		struct run_bench *b = &r->b[a->next];

		if (skipped(&b->run)) {
			b->result.verdict = VERDICT_NEW;
			continue;
		}
		if (b->run.identical == 1) {
			/* the same build in both arms: nothing to measure */
			bench_result_release(&b->result);
			verdict_identical(&b->result, &b->run);
			set_stop(b, 0, STOP_RESOLVED);
			continue;
		}
		want_look(want, r, a->next);
		/* one counted under valgrind counts in its first batch's
		   first pairs only (measure.c): a probe would split that
		   batch and count every pair of the rest */
		if (a->opt.budget <= 0 || want->total <= ADAPTIVE_PROBE_PAIRS ||
		    measure_valgrind(&b->run))
			return want_look(want, r, a->next++);
		/* under a budget: time a probe, then what fits */
		if (!a->probed) {
			a->probed = 1;
			want->total = ADAPTIVE_PROBE_PAIRS;
			want->probe = 1;
			return 1;
		}
		a->probed = 0;
		first_look_budget(a, r, a->next++, elapsed, want);
		return 1;
	}
	a->round = 1;
	a->fresh = 1;
	return 0;
}

int adaptive_next(struct adaptive *a, struct run_report *r, double elapsed,
		  struct adaptive_want *want)
{
	int limited = a->opt.budget > 0;

	if (a->round == 0 && first_looks(a, r, elapsed, want))
		return 1;
	/*
	 * Rounds: each unresolved benchmark gets its next look (interleaved
	 * base/head, balanced order, as before) when it fits its fair share
	 * of the time left, until every one is resolved, at max_pairs, or
	 * out of time. The looks are the schedule's: the budget only ends
	 * a benchmark's run, so each look's alpha stays as spent.
	 */
	for (;;) {
		if (a->fresh && !round_start(a, r, elapsed))
			return 0;
		for (; a->next < r->n; a->next++) {
			size_t i = a->next;
			double cost;

			if (!unresolved(r, i))
				continue;
			cost = look_cost(r, i);
			if (limited && (r->b[i].run.seconds + cost > a->share ||
					cost > a->opt.budget - elapsed))
				continue;
			if (!a->opt.quiet && !a->ran)
				notice("round %zu: more pairs for the "
				       "unresolved benchmarks", a->round);
			a->ran++;
			return want_look(want, r, a->next++);
		}
		if (!a->ran)
			return least_served(a, r, want);
		a->round++;
		a->fresh = 1;
	}
}

/* b could not be measured (or the run was interrupted): an error, stopped
   where it stood. */
static void stop_error(struct run_bench *b)
{
	bench_result_release(&b->result);
	b->result.verdict = VERDICT_ERROR;
	set_stop(b, b->looks, STOP_ERROR);
}

void adaptive_look(struct adaptive *a, struct run_report *r,
		   const struct adaptive_want *want, int measured)
{
	struct run_bench *b = &r->b[want->i];

	if (measured && want->probe)
		return;		/* timed only: the look comes next */
	if (measured) {
		look(r, b, want->look, a->alpha, a->opt.strict);
		return;
	}
	stop_error(b);
}

void adaptive_stopped(struct run_report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_bench *b = &r->b[i];

		if (b->run.judged || skipped(&b->run) ||
		    b->run.identical == 1 ||
		    b->result.verdict == VERDICT_ERROR)
			continue;
		/* never looked at: not a pass of nothing */
		if (!b->run.error && b->stop == STOP_NONE &&
		    !b->looks)
			b->run.error = xstrdup("not measured: the run was "
					       "interrupted first");
		if (b->run.error)
			stop_error(b);
	}
}

void adaptive_finish(struct run_report *r)
{
	enum verdict *v = xcalloc(r->n ? r->n : 1, sizeof(*v));
	size_t i;

	/* accepted regressions: the last change to any decision */
	for (i = 0; i < r->n; i++)
		verdict_accept_bench(&r->b[i].result, r->b[i].run.cfg->name,
				     r->accept, r->naccept);
	for (i = 0; i < r->n; i++)
		v[i] = r->b[i].result.verdict;
	r->suite = verdict_suite(v, r->n);
	free(v);
}
