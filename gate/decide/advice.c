/*
 * Metric advice from the data: when wall time ends noisy, whether cpu time
 * measured in the same pairs, a count measured beside it, or a count under
 * valgrind would have reached the floor within the budget. Said as a note
 * for the next run; the metric is never switched after seeing the data.
 */
#include "gate/decide/advice.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "gate/decide/calibration.h"
#include "gate/exec/counter.h"
#include "gate/config/metrics.h"
#include "gate/format/format.h"
#include "gate/measure/measure-counted.h"
#include "gate/decide/verdict.h"
#include "stats/stats.h"
#include "common/banned.h"

/*
 * cpu time stands for a benchmark's time only when most of it is CPU
 * work: when even its least disturbed sample (the highest share of cpu in
 * wall time) is below this, the benchmark waits (I/O, sleep) and cpu time
 * would miss what it waits for. The highest, not the median: on a busy
 * core a CPU-bound benchmark's median wall time is twice its cpu time,
 * and a low bar: on this project's 2-core machine at a load average of
 * 11, a shell loop's best sample had 20 to 40% of its wall time as cpu
 * (a quarter failed the CLI test under make asan once), while a
 * benchmark that sleeps 0.2 s for 15 ms of work has 7%. The advice gives
 * the figure, so that the user can judge.
 */
#define ADVICE_CPU_SHARE 0.1
/* wall time needing this many times cpu's pairs is worth a note even when
   both fit. */
#define ADVICE_CPU_GAIN 4

/* The highest share of cpu time in wall time of any sample of br. */
static double best_cpu_share(const struct bench_run *br)
{
	double best = 0;
	size_t p;
	int a;

	for (p = 0; p < br->npairs; p++)
		for (a = 0; a < 2; a++) {
			const struct sample *s = &br->pairs[p].s[a];

			if (s->wall > 0 && s->cpu >= 0 &&
			    s->cpu / s->wall > best)
				best = s->cpu / s->wall;
		}
	return best;
}

/* Each arm's median of metric m over br's pairs, in med[2]. */
static void arm_medians(double med[2], const struct bench_run *br,
			enum metric m)
{
	double *x = xcalloc(br->npairs + 1, sizeof(double));
	size_t p, n;
	int a;

	for (a = 0; a < 2; a++) {
		for (p = n = 0; p < br->npairs; p++) {
			double v = sample_value(&br->pairs[p].s[a], m);

			if (isfinite(v) && v > 0)
				x[n++] = v;
		}
		med[a] = n ? stats_median(x, n) : NAN;
	}
	free(x);
}

/*
 * The spread of ratios r[0..n) that the pairs needed are sized from: the
 * robust sd (calibration_spread), or the sd the width of their exact
 * Hodges-Lehmann interval at level implies when that is wider. The robust
 * sd alone misses a two-state benchmark (half its pairs alike, half far
 * apart): its MAD is small while its interval stays wide.
 */
static double spread_of(const double *r, size_t n, double level)
{
	struct stats_interval ci;
	double robust = calibration_spread(r, n), *l, z, wide = NAN;
	size_t i;

	l = xmalloc(n * sizeof(*l));
	for (i = 0; i < n; i++)
		l[i] = log(r[i]);
	z = gsl_cdf_ugaussian_Pinv((1 + level) / 2);
	if (stats_interval_exact(&ci, STATS_HL, l, n, level) == 0 &&
	    isfinite(ci.low) && isfinite(ci.high) && z > 0)
		wide = sqrt((double)n) * (ci.high - ci.low) / (2 * z * 1.023);
	free(l);
	return isfinite(wide) && wide > robust ? wide : robust;
}

int advice_metric(struct metric_advice *a, const struct bench_run *br,
		  double floor, double level, size_t reach, double share)
{
	double wall[2], cpu[2], *r;
	char *vg = NULL, why[256];
	size_t n, k;

	memset(a, 0, sizeof(*a));
	a->spread[0] = a->spread[1] = a->cpu_estimate = NAN;
	a->need[0] = a->need[1] = SIZE_MAX;
	if (!br->npairs || !(br->seconds > br->warmup_seconds))
		return -1;
	a->per_pair = (br->seconds - br->warmup_seconds) / (double)br->npairs;
	for (k = 0; k < 2; k++) {
		r = verdict_pair_ratios(br, k ? METRIC_CPU : METRIC_WALL, &n);
		if (n >= 4) {
			a->spread[k] = spread_of(r, n, level);
			a->need[k] = calibration_pairs_needed(a->spread[k],
							      floor, level);
			if (k)
				a->cpu_estimate = stats_median(r, n);
		}
		free(r);
	}
	if (!isfinite(a->spread[0]))
		return -1;
	arm_medians(wall, br, METRIC_WALL);
	arm_medians(cpu, br, METRIC_CPU);
	a->cpu_share = best_cpu_share(br);
	/* cpu must stand for the time, and be read well above wait4's
	   microsecond */
	if (!(a->cpu_share >= ADVICE_CPU_SHARE) ||
	    !measure_resolvable(fmin(cpu[0], cpu[1]),
				measure_resolution(METRIC_CPU))) {
		a->spread[1] = NAN;
		a->need[1] = SIZE_MAX;
	}
	a->use_cpu = a->need[1] <= reach &&
		     (a->need[0] > reach ||
		      a->need[0] / ADVICE_CPU_GAIN >= a->need[1]);
	if (a->use_cpu || a->need[0] <= reach)
		return 0;
	/* neither time reaches it: a count ignores the load, if valgrind is
	   there to count and its runs fit the benchmark's share of the
	   budget */
	if (counter_valgrind_find(&vg, why, sizeof(why)) < 0)
		return 0;
	free(vg);
	a->count_seconds = 2.0 * METRIC_EXACT_PAIRS *
		(fmax(wall[0], wall[1]) + ADVICE_VALGRIND_SLOWDOWN *
		 fmax(isfinite(cpu[0]) ? cpu[0] : 0,
		      isfinite(cpu[1]) ? cpu[1] : 0));
	/* its own few pairs, not wall's max_pairs, bound a count's time */
	a->count = !(share > 0) || a->count_seconds <= share;
	return 0;
}

/* "240 pairs (about 38 s)" or "more than 100000 pairs", into buf. */
static const char *pairs_text(char *buf, size_t size, size_t n, double per)
{
	double t = (double)n * per;

	if (n == SIZE_MAX)
		snprintf(buf, size, "more than %d pairs", CALIBRATION_PAIRS_MAX);
	else if (t < 120)
		snprintf(buf, size, "%zu pairs (about %.0f s)", n, ceil(t));
	else
		snprintf(buf, size, "%zu pairs (about %.0f min)", n,
			 ceil(t / 60));
	return buf;
}

void advice_words(char *buf, size_t size, const struct metric_advice *a,
		  double floor, size_t reach, const char *budget)
{
	char w[64], c[64], can[64];
	int cycles = metric_lookup("cycles") >= 0;

	buf[0] = '\0';
	pairs_text(w, sizeof(w), a->need[0], a->per_pair);
	pairs_text(c, sizeof(c), a->need[1], a->per_pair);
	pairs_text(can, sizeof(can), reach, a->per_pair);
	if (a->use_cpu)
		snprintf(buf, size, "cpu time would decide where wall time "
			 "cannot: its pair ratios spread %.2f%% against "
			 "wall's %.2f%%, so the %+.1f%% floor takes %s on "
			 "cpu and %s on wall, with %s allowing %s (cpu in "
			 "these pairs: %+.1f%%); set \"metric\": \"cpu\" for "
			 "the next run (gate calibrate --write does) if the "
			 "benchmark computes rather than waits: cpu time, "
			 "%.0f%% of its wall time at best here, misses any "
			 "time spent waiting", a->spread[1] * 100,
			 a->spread[0] * 100, floor * 100, c, w, budget, can,
			 (a->cpu_estimate - 1) * 100, a->cpu_share * 100);
	else if (a->count)
		snprintf(buf, size, "neither wall nor cpu time reaches the "
			 "%+.1f%% floor within %s (%s; wall needs %s, cpu %s"
			 "); counts ignore the load and valgrind is on PATH: "
			 "\"instructions\"%s decide%s exactly in %d pairs when "
			 "the count repeats from run to run, about %.0f s "
			 "under valgrind (estimated at %.0fx the cpu time); "
			 "instructions are blind to memory%s", floor * 100,
			 budget, can, w, isfinite(a->spread[1]) ? c :
			 "unusable: the benchmark waits more than it computes",
			 cycles ? " or \"cycles\"" : "", cycles ? "" : "s",
			 METRIC_EXACT_PAIRS, ceil(a->count_seconds),
			 ADVICE_VALGRIND_SLOWDOWN, cycles ?
			 ", cycles simulate the caches" : " and caches");
}

/*
 * A count measured beside wall time (instructions, allocations) that
 * decided exactly in these pairs: said instead of guessing one. 1 when
 * noted.
 */
static int note_measured_count(struct run_bench *b)
{
	const struct bench_cfg *c = b->run.cfg;
	char why[512];
	size_t k;

	for (k = 0; k < b->result.n; k++) {
		const struct bench_stats *st = &b->result.m[k];

		if (!st->exact || !verdict_exact_metric(c, st->metric) ||
		    (st->verdict != VERDICT_PASS &&
		     st->verdict != VERDICT_FAIL))
			continue;
		snprintf(why, sizeof(why), "%s decided exactly in these pairs "
			 "(%+.2f%%, a %s at its %+.1f%% floor) where wall time "
			 "stayed noisy: for the next run gate on it "
			 "(\"gate\": [\"%s\"]; advice: the verdict stands)",
			 metric_name(st->metric), ratio_pct(st->estimate),
			 verdict_name(st->verdict), st->floor * 100,
			 metric_name(st->metric));
		run_bench_note(b, why);
		return 1;
	}
	return 0;
}

int advice_suite_countable(enum format f)
{
	char *vg = NULL, why[256];
	int found;

	if (f != FORMAT_PYTEST && f != FORMAT_GBENCH && f != FORMAT_LINES)
		return 0;
	found = counter_valgrind_find(&vg, why, sizeof(why)) == 0;
	free(vg);
	return found;
}

double advice_counted_seconds(const struct bench_run *br)
{
	double cpu[2];

	arm_medians(cpu, br, METRIC_CPU);
	return 2.0 * METRIC_EXACT_PAIRS * ADVICE_VALGRIND_SLOWDOWN *
	       fmax(isfinite(cpu[0]) ? cpu[0] : 0,
		    isfinite(cpu[1]) ? cpu[1] : 0);
}

/*
 * A suite case that ended noisy on its time: per-case counts where the
 * harness can mark its cases and valgrind is there, and the harness's own
 * cpu time where it reports one per case (Google Benchmark's cpu_time).
 * The suite's first noisy case gets the whole sentence; its others point
 * to it. Counts are never measured here: the estimate is of a counted run
 * of the suite, at valgrind's slowdown over the suite's process's cpu
 * time (start-up in, so it errs long).
 */
static void note_suite_case(struct run_report *r, size_t i,
			    const char **first_suite, const char **first_case)
{
	struct run_bench *b = &r->b[i];
	const struct bench_run *br = &b->run;
	const struct bench_cfg *c = br->cfg;
	const struct format_reader *fr = format_reader(c->format);
	double *ratios, spread, secs;
	char why[1024], need[64], can[64];
	size_t n, reach, want;
	int by_budget, gb_cpu, count, len;

	if (suite_counted_case(br, why, sizeof(why)))
		return;		/* counted already */
	ratios = verdict_pair_ratios(br, b->run.cfg->metric, &n);
	spread = n >= 4 ? spread_of(ratios, n, r->level) : NAN;
	free(ratios);
	if (!isfinite(spread))
		return;
	reach = calibration_reachable(r, i, &by_budget);
	want = calibration_pairs_needed(spread, c->min_effect, r->level);
	if (want <= reach)
		return;		/* more pairs would do */
	gb_cpu = fr->times[0] && c->suite_metric != METRIC_CPU;
	count = advice_suite_countable(c->format);
	if (!gb_cpu && !count)
		return;
	if (*first_suite && !strcmp(*first_suite, br->suite_name)) {
		snprintf(why, sizeof(why), "%s, as advised beside %s (advice "
			 "for the next run: the verdict stands)",
			 count ? "per-case counts would decide it" :
			 "its cpu_time would decide it", *first_case);
		run_bench_note(b, why);
		return;
	}
	*first_suite = br->suite_name;
	*first_case = c->name;
	secs = advice_counted_seconds(br);
	pairs_text(need, sizeof(need), want, br->npairs ?
		   (br->seconds - br->warmup_seconds) / (double)br->npairs : 0);
	pairs_text(can, sizeof(can), reach, br->npairs ?
		   (br->seconds - br->warmup_seconds) / (double)br->npairs : 0);
	len = snprintf(why, sizeof(why), "this case's pair ratios spread "
		       "%.2f%%: the %+.1f%% floor takes %s, with %s allowing "
		       "%s", spread * 100, c->min_effect * 100, need,
		       by_budget ? "its share of the budget" : "its max_pairs",
		       can);
	if (count && len > 0 && (size_t)len < sizeof(why))
		len += snprintf(why + len, sizeof(why) - (size_t)len, "; "
			"counts ignore the load and valgrind is on PATH: "
			"\"metrics\": [\"instructions\"] on suite \"%s\" "
			"counts each case's own work (doc/counted.md), about "
			"%.0f s for %d counted pairs of the whole suite "
			"(estimated at %.0fx its process's cpu time); "
			"instructions are blind to memory, sleeps and I/O",
			br->suite_name, ceil(secs), METRIC_EXACT_PAIRS,
			ADVICE_VALGRIND_SLOWDOWN);
	if (gb_cpu && len > 0 && (size_t)len < sizeof(why))
		len += snprintf(why + len, sizeof(why) - (size_t)len, "; "
			"the harness reports each case's cpu_time: "
			"\"metric\": \"cpu\" on suite \"%s\" gates on it "
			"if its cases compute rather than wait (cpu time "
			"misses any time spent waiting)", br->suite_name);
	if (len > 0 && (size_t)len < sizeof(why))
		snprintf(why + len, sizeof(why) - (size_t)len, " (advice for "
			 "the next run: the verdict stands)");
	run_bench_note(b, why);
}

void run_note_metric_advice(struct run_report *r)
{
	const char *first_suite = NULL, *first_case = NULL;
	struct metric_advice a;
	char why[1024];
	size_t i, reach, nb = 0;
	int by_budget;

	for (i = 0; i < r->n; i++)
		nb += !r->b[i].run.is_new && !r->b[i].run.is_removed;

	for (i = 0; i < r->n; i++) {
		struct run_bench *b = &r->b[i];
		const struct bench_run *br = &b->run;
		const struct bench_cfg *c = br->cfg;

		if (br->error || br->is_new || br->judged ||
		    b->result.verdict != VERDICT_NOISY)
			continue;
		/* a suite case's cpu time is its whole process's: a suite
		   gets its harness's time or per-case counts named */
		if (br->suite_name) {
			if (METRIC_IS_VALUE(b->run.cfg->metric))
				note_suite_case(r, i, &first_suite,
						&first_case);
			continue;
		}
		if (c->format != FORMAT_TIME ||
		    b->run.cfg->metric != METRIC_WALL)
			continue;
		if (note_measured_count(b))
			continue;
		reach = calibration_reachable(r, i, &by_budget);
		if (advice_metric(&a, br, c->min_effect, r->level, reach,
				  r->budget / (double)(nb ? nb : 1)) < 0)
			continue;
		advice_words(why, sizeof(why) - 64, &a, c->min_effect, reach,
			     by_budget ? "its share of the budget" :
			     "its max_pairs");
		if (!why[0])
			continue;
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 " (advice for the next run: the verdict stands)");
		run_bench_note(b, why);
	}
}
