/*
 * A suite's noisy case against the suite's other cases. A machine that
 * slows a whole process (another tenant of the host) slows every case that
 * process measured alike; the change of the case less the median change of
 * every case measured by the same pair of processes cancels it. That
 * figure is a note, never a verdict: a change that slowed every case alike
 * reads as no change in it, and one that sped up the others as a
 * regression of this one.
 */
#include "gate/decide/relative.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "stats/stats.h"
#include "common/banned.h"

/* A pair's cases needed for their median change to stand for the pair. */
#define RELATIVE_MIN_CASES 3

/* One case's change at one pair of the suite's processes. */
struct change {
	double base_wall, head_wall;	/* the processes' (the pair's key) */
	double d;		/* log of head over base, r > 1 worse */
};

static int by_key(const void *pa, const void *pb)
{
	const struct change *a = pa, *b = pb;

	if (a->base_wall != b->base_wall)
		return a->base_wall < b->base_wall ? -1 : 1;
	if (a->head_wall != b->head_wall)
		return a->head_wall < b->head_wall ? -1 : 1;
	return a->d < b->d ? -1 : a->d > b->d;
}

/* Case b's change at pair p, into *c: 0, or -1 when it has none. */
static int change_at(const struct run_bench *b, size_t p, struct change *c)
{
	const struct pair_result *pr = &b->run.pairs[p];
	double base = sample_value(&pr->s[ARM_BASE], b->run.cfg->metric);
	double head = sample_value(&pr->s[ARM_HEAD], b->run.cfg->metric);

	if (!(base > 0) || !(head > 0) || !isfinite(base) || !isfinite(head))
		return -1;
	c->base_wall = pr->s[ARM_BASE].wall;
	c->head_wall = pr->s[ARM_HEAD].wall;
	c->d = b->run.cfg->higher_better ? log(base / head) : log(head / base);
	return 0;
}

/*
 * Every change of the suite's cases r->b[idx[0..n)], sorted by pair key:
 * a case measured in a suite's round has its process's samples, so the
 * cases one pair of processes measured share both walls exactly.
 */
static struct change *all_changes(const struct run_report *r,
				  const size_t *idx, size_t n, size_t *count)
{
	struct change *all;
	size_t j, p, k = 0, cap = 0;

	for (j = 0; j < n; j++)
		cap += r->b[idx[j]].run.npairs;
	all = xcalloc(cap ? cap : 1, sizeof(*all));
	for (j = 0; j < n; j++)
		for (p = 0; p < r->b[idx[j]].run.npairs; p++)
			k += change_at(&r->b[idx[j]], p, &all[k]) == 0;
	qsort(all, k, sizeof(*all), by_key);
	*count = k;
	return all;
}

/* The median change of the pair keyed as c among all[0..n), or NAN when
   fewer than RELATIVE_MIN_CASES cases have it. */
static double pair_median(const struct change *all, size_t n,
			  const struct change *c, double *buf)
{
	size_t lo = 0, hi = n, k = 0;

	while (lo < hi) {	/* the first of its key */
		size_t mid = lo + (hi - lo) / 2;

		if (all[mid].base_wall < c->base_wall ||
		    (all[mid].base_wall == c->base_wall &&
		     all[mid].head_wall < c->head_wall))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && all[lo].base_wall == c->base_wall &&
	       all[lo].head_wall == c->head_wall; lo++)
		buf[k++] = all[lo].d;
	return k < RELATIVE_MIN_CASES ? NAN : stats_median(buf, k);
}

/* The note for case b, or none when its relative interval decides
   nothing at the case's level. */
static void note_case(struct run_bench *b, const struct change *all,
		      size_t n, size_t cases)
{
	const struct bench_stats *st = run_bench_primary(b);
	double *res = xcalloc(b->run.npairs + 1, sizeof(double));
	double *buf = xcalloc(n + 1, sizeof(double));
	struct stats_interval iv;
	struct change c;
	double est, lo, hi, f = st->floor, m = st->excludes;
	size_t p, k = 0;
	char why[600];

	for (p = 0; p < b->run.npairs; p++) {
		double med;

		if (change_at(b, p, &c) < 0)
			continue;
		med = pair_median(all, n, &c, buf);
		if (!isnan(med))
			res[k++] = c.d - med;
	}
	why[0] = '\0';
	if (k >= 2 && st->level > 0.5 && st->level < 1 &&
	    stats_interval_exact(&iv, STATS_HL, res, k,
				 2 * st->level - 1) == 0 &&
	    isfinite(iv.low) && isfinite(iv.high)) {
		est = exp(stats_hodges_lehmann(res, k));
		lo = exp(iv.low);
		hi = exp(iv.high);
		if (lo > 1 + f || (hi < 1 + m && est <= 1 + f))
			snprintf(why, sizeof(why), "against the other cases "
				 "of its suite, %+.1f%% (one-sided %.4g%% "
				 "bounds %+.1f%% to %+.1f%%): %s (%zu pairs, "
				 "each less the median change of the up to "
				 "%zu cases its processes measured, which a "
				 "slowdown of a whole process shares; a note: "
				 "the verdict stands, since a change that "
				 "slowed every case alike, or sped up the "
				 "others, reads differently here)",
				 100 * (est - 1), 100 * st->level,
				 100 * (lo - 1), 100 * (hi - 1),
				 lo > 1 + f ? "a regression of the floor "
				 "against them is shown" : "a regression of "
				 "pass_excludes against them is excluded",
				 k, cases);
	}
	if (why[0])
		run_bench_note(b, why);
	free(res);
	free(buf);
}

void run_note_relative(struct run_report *r)
{
	size_t *idx = xcalloc(r->n ? r->n : 1, sizeof(*idx));
	size_t i, j, n, count;

	for (i = 0; i < r->n; i++) {
		struct change *all;

		n = run_suite_cases(r, i, idx);
		if (n < RELATIVE_MIN_CASES)
			continue;
		all = all_changes(r, idx, n, &count);
		for (j = 0; j < n; j++)
			if (r->b[idx[j]].result.verdict == VERDICT_NOISY &&
			    run_bench_primary(&r->b[idx[j]]))
				note_case(&r->b[idx[j]], all, count, n);
		free(all);
	}
	free(idx);
}
