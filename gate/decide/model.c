/*
 * The run model's lifecycle: the entries of one run, their primary metric
 * and their notes. What goes in them is decided elsewhere (measure.c,
 * adaptive.c, verdict.c); this file only allocates, refreshes and frees.
 */
#include "gate/decide/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "stats/stats.h"
#include "common/banned.h"

void run_alloc(struct run_report *r, size_t n)
{
	r->b = xcalloc(n ? n : 1, sizeof(*r->b));
	r->n = n;
}

void run_release(struct run_report *r)
{
	size_t i;

	for (i = 0; r->b && i < r->n; i++) {
		bench_run_release(&r->b[i].run);
		bench_result_release(&r->b[i].result);
		free(r->b[i].note);
	}
	free(r->b);
	r->b = NULL;
	r->n = 0;
}

const struct bench_stats *run_bench_primary(const struct run_bench *b)
{
	size_t i;

	for (i = 0; i < b->result.n; i++)
		if (b->result.m[i].gating)
			return &b->result.m[i];
	return NULL;
}

void run_bench_note(struct run_bench *b, const char *why)
{
	char *both = b->note ? xasprintf("%s; %s", b->note, why) :
		     xstrdup(why);

	free(b->note);
	b->note = both;
}

/*
 * The cores the benchmarks themselves kept busy while they ran: their CPU
 * time over their wall time, over every sample. A multi-threaded
 * benchmark raises the load average by this much on its own.
 */
static double own_load(const struct run_report *r)
{
	double cpu = 0, wall = 0;
	size_t i, p;
	int a;

	for (i = 0; i < r->n; i++)
		for (p = 0; p < r->b[i].run.npairs; p++)
			for (a = 0; a < 2; a++) {
				const struct sample *s =
					&r->b[i].run.pairs[p].s[a];

				if (s->wall > 0 && s->cpu >= 0) {
					cpu += s->cpu;
					wall += s->wall;
				}
			}
	return wall > 0 ? cpu / wall : 0;
}

void run_note_load(struct run_report *r)
{
	const struct machine *m = &r->machine;
	double own = own_load(r);
	double rise = m->load_after[0] - m->load_before[0] - own;
	double limit = m->cores > 2 ? (double)m->cores / 2 : 1.0;
	char why[256];
	size_t i;

	/* sharp: more than the limit, and the machine now oversubscribed */
	if (!(m->load_before[0] >= 0) || !(rise > limit) ||
	    !(m->load_after[0] - own > (double)m->cores) ||
	    !(m->load_after[0] > 1.5 * m->load_before[0]))
		return;
	snprintf(why, sizeof(why), "the load average rose from %.2f to %.2f "
		 "during the run, more than the benchmarks' own %.1f busy "
		 "cores explain (a note: the verdict stands)",
		 m->load_before[0], m->load_after[0], own);
	for (i = 0; i < r->n; i++)
		if (r->b[i].result.verdict != VERDICT_NEW &&
		    r->b[i].result.verdict != VERDICT_ERROR)
			run_bench_note(&r->b[i], why);
}

/* A sample's common factor at or above this is a slow process. */
#define SLOW_PROCESS 1.3

/* Whether b is a measured, compared suite case. */
static int suite_compared(const struct run_bench *b)
{
	return b->run.suite_name && !b->run.error && !b->run.judged &&
	       !b->run.is_new && !b->run.is_removed && b->run.npairs &&
	       b->result.verdict != VERDICT_NEW &&
	       b->result.verdict != VERDICT_ERROR;
}

size_t run_suite_cases(const struct run_report *r, size_t i, size_t *idx)
{
	const char *suite = r->b[i].run.suite_name;
	size_t j, n = 0;

	if (!suite_compared(&r->b[i]))
		return 0;
	for (j = 0; j < i; j++)
		if (suite_compared(&r->b[j]) &&
		    !strcmp(r->b[j].run.suite_name, suite))
			return 0;	/* counted at its suite's first */
	for (j = i; j < r->n; j++)
		if (suite_compared(&r->b[j]) &&
		    !strcmp(r->b[j].run.suite_name, suite))
			idx[n++] = j;
	return n;
}

/* Suite cases r->b[idx[0..n)]: their slow samples per arm over their
   first np pairs into slow[]. */
static void count_slow(const struct run_report *r, const size_t *idx,
		       size_t n, size_t np, size_t slow[2])
{
	double *col = xcalloc(np + 1, sizeof(double));
	double *med = xcalloc(2 * n, sizeof(double));
	double *f = xcalloc(n, sizeof(double));
	size_t j, p, a, k;

	for (j = 0; j < n; j++)
		for (a = 0; a < 2; a++) {
			const struct pair_result *pr = r->b[idx[j]].run.pairs;

			for (p = k = 0; p < np; p++)
				if (pr[p].s[a].value[METRIC_VALUE] > 0)
					col[k++] = pr[p].s[a].value[METRIC_VALUE];
			med[2 * j + a] = k ? stats_median(col, k) : NAN;
		}
	slow[0] = slow[1] = 0;
	for (p = 0; p < np; p++)
		for (a = 0; a < 2; a++) {
			for (j = k = 0; j < n; j++) {
				const struct run_bench *b = &r->b[idx[j]];
				double v = b->run.pairs[p].s[a].value[METRIC_VALUE];
				double m = med[2 * j + a];

				if (!(v > 0) || !(m > 0))
					continue;
				/* slower: more time, or less throughput */
				f[k++] = b->run.cfg->higher_better ? m / v : v / m;
			}
			slow[a] += k * 2 > n && stats_median(f, k) >= SLOW_PROCESS;
		}
	free(col);
	free(med);
	free(f);
}

void run_note_slow_processes(struct run_report *r)
{
	size_t *idx = xcalloc(r->n ? r->n : 1, sizeof(*idx));
	size_t i, j, n, np, slow[2];
	char why[400];

	for (i = 0; i < r->n; i++) {
		n = run_suite_cases(r, i, idx);
		np = n ? r->b[i].run.cfg->pairs : 0;
		for (j = 0; j < n; j++)
			if (r->b[idx[j]].run.npairs < np)
				np = r->b[idx[j]].run.npairs;
		/* a common factor needs a few cases and samples */
		if (n < 3 || np < 5)
			continue;
		count_slow(r, idx, n, np, slow);
		if (slow[0] + slow[1] < 2 ||
		    10 * (slow[0] + slow[1]) < 2 * np)
			continue;
		snprintf(why, sizeof(why), "%zu of the first %zu samples of "
			 "suite \"%s\" (base %zu, head %zu) ran %.1f times "
			 "slower or more in most of its %zu cases at once, "
			 "against their arm's medians: the machine slowed "
			 "whole processes, not the code (a note: the verdict "
			 "stands; a quieter runner, or more pairs)",
			 slow[0] + slow[1], 2 * np, r->b[i].run.suite_name,
			 slow[0], slow[1],
			 SLOW_PROCESS, n);
		for (j = 0; j < n; j++)
			if (r->b[idx[j]].result.verdict == VERDICT_NOISY)
				run_bench_note(&r->b[idx[j]], why);
	}
	free(idx);
}

/* Medians and CVs of one sample field per arm; n pairs with both set,
 * `worse` of them with head above base. */
struct arm_figures {
	double median[2], cv[2];
	size_t n, worse;
};

static void figures(struct arm_figures *f, const struct bench_run *br,
		    int which)
{
	double *x[2];
	size_t p, a;

	x[0] = xcalloc(br->npairs + 1, sizeof(double));
	x[1] = xcalloc(br->npairs + 1, sizeof(double));
	f->n = f->worse = 0;
	for (p = 0; p < br->npairs; p++) {
		const struct sample *s = br->pairs[p].s;
		double v[2];

		for (a = 0; a < 2; a++)
			v[a] = which == 0 ? s[a].wall : which == 1 ? s[a].cpu :
			       s[a].value[METRIC_INSTRUCTIONS];
		if (!(v[0] > 0) || !(v[1] > 0))
			continue;
		x[0][f->n] = v[0];
		x[1][f->n] = v[1];
		f->worse += v[1] > v[0];
		f->n++;
	}
	for (a = 0; a < 2; a++) {
		f->median[a] = f->n ? stats_median(x[a], f->n) : 0;
		f->cv[a] = f->n > 1 ? stats_cv(x[a], f->n) : 0;
	}
	free(x[0]);
	free(x[1]);
}

static double rel(const struct arm_figures *f)
{
	return f->median[1] / f->median[0] - 1;
}

/* Whether f's arms differ by more than frac, the same way in nearly every
 * pair (sign test p <= 0.01): a real change, not two noisy medians apart
 * (lz4 -b on identical code: CPU +13.9%, head above base in 13 of 20). */
static int differs(const struct arm_figures *f, double frac)
{
	return f->n >= 4 && fabs(rel(f)) > frac &&
	       stats_sign_test(f->worse, f->n) <= 0.01;
}

/*
 * The whole number of seconds (at least 1) at which both arms' medians of
 * fixed sit, within 2%, with a spread (CV) under a fifth of other's in
 * either arm: the mark of a benchmark that runs for a set time of that
 * kind; 0 when not.
 */
static double at_round(const struct arm_figures *fixed,
		       const struct arm_figures *other)
{
	double s = floor(fixed->median[0] + 0.5);
	size_t a;

	if (s < 1 || !(other->cv[0] > 0) || !(other->cv[1] > 0))
		return 0;
	for (a = 0; a < 2; a++)
		if (fabs(fixed->median[a] - s) >= 0.02 * s)
			return 0;
	if (fmax(fixed->cv[0], fixed->cv[1]) >=
	    fmin(other->cv[0], other->cv[1]) / 5)
		return 0;
	return s;
}

int run_fixed_time(const struct bench_run *br, char *why, size_t size)
{
	struct arm_figures w, c, ins;
	double round_s;

	if (br->suite_name || br->cfg->format != FORMAT_TIME ||
	    br->error || br->is_new || br->npairs < 4)
		return 0;
	figures(&w, br, 0);
	figures(&c, br, 1);
	figures(&ins, br, 2);
	if (w.n < 4)
		return 0;
	why[0] = '\0';
	if (fabs(rel(&w)) < 0.02 && differs(&c, 0.10))
		snprintf(why, size, "wall time stays the same in both arms "
			 "(%+.1f%%) while CPU time changes by %+.1f%%",
			 rel(&w) * 100, rel(&c) * 100);
	else if (fabs(rel(&w)) < 0.02 && differs(&ins, 0.05))
		snprintf(why, size, "wall time stays the same in both arms "
			 "(%+.1f%%) while instructions change by %+.1f%%",
			 rel(&w) * 100, rel(&ins) * 100);
	if (!why[0] && c.n >= 4 && (round_s = at_round(&w, &c)) > 0)
		snprintf(why, size, "wall time sits at %.0f s (CV %.2f%%) with "
			 "far less spread than CPU time (CV %.1f%%)", round_s,
			 fmax(w.cv[0], w.cv[1]) * 100,
			 fmin(c.cv[0], c.cv[1]) * 100);
	/* a harness timing itself with clock(): CPU time is what is fixed
	   (xxhsum -b), the wall time follows the load */
	if (!why[0] && c.n >= 4 && (round_s = at_round(&c, &w)) > 0)
		snprintf(why, size, "CPU time sits at %.0f s (CV %.2f%%) with "
			 "far less spread than wall time (CV %.1f%%)", round_s,
			 fmax(c.cv[0], c.cv[1]) * 100,
			 fmin(w.cv[0], w.cv[1]) * 100);
	return why[0] != '\0';
}

void run_note_fixed_time(struct run_report *r)
{
	size_t i;
	char why[512];

	for (i = 0; i < r->n; i++) {
		if (!run_fixed_time(&r->b[i].run, why, sizeof(why)))
			continue;
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 ": the benchmark may run for a fixed time, which "
			 "wall-clock timing cannot see; use its own rate "
			 "through a suite format, or a fixed amount of work "
			 "(README: \"Benchmarks that run for a fixed time\"; "
			 "a note: the verdict stands)");
		run_bench_note(&r->b[i], why);
	}
}
