/*
 * gate calibrate: one revision against itself as interleaved A/A pairs, to
 * measure the noise before choosing a floor: each arm's CV, the spread of
 * paired ratios, and the smallest regression detectable at 10..80 pairs.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/calibrate.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/seed.h"
#include "common/file.h"
#include "gate/decide/advice.h"
#include "gate/decide/calibration.h"
#include "gate/config/config.h"
#include "common/jsonpos.h"
#include "gate/measure/measure.h"
#include "gate/config/options.h"
#include "gate/decide/model.h"
#include "gate/decide/suite.h"
#include "gate/measure/measure-counted.h"
#include "gate/workspace/workspace.h"
#include "gate/exec/signals.h"
#include "gate/decide/verdict.h"
#include "git/repo.h"
#include "stats/stats.h"
#include "common/banned.h"


static const unsigned table_pairs[] = { 10, 20, 40, 80 };
#define NTABLE (sizeof(table_pairs) / sizeof(table_pairs[0]))

struct cal_opts {
	const char *rev, *config;
	long pairs;
	unsigned long seed;
	int have_seed, rebuild, write, quiet;
};


#define C struct cal_opts
static const struct opt cal_rows[] = {
	OPT_STRING("rev", "REV", C, rev, "the revision to measure against "
		   "itself (default HEAD)", "<rev>"),
	OPT_FLAG(0, "rebuild", C, rebuild, "build it twice, in two "
		 "directories, so build nondeterminism shows as noise"),
	OPT_STRING("config", "FILE", C, config,
		   "read this gate.json instead of the revision's", "<file>"),
	OPT_COUNT("pairs", "N", C, pairs, 4, 10000, "A/A pairs per benchmark "
		  "to start with (default: \"pairs\", at least 20); more, up "
		  "to 4x, until the recommendation is stable"),
	OPT_SEED("seed", C, seed, have_seed, "seed for the pair order"),
	OPT_FLAG(0, "write", C, write, "write the recommended min_effect and "
		 "pairs into gate.json (the working tree's, or --config FILE)"),
	OPT_FLAG('q', "quiet", C, quiet, "no progress messages on stderr"),
};
#undef C

const struct opts_cmd cmd_calibrate_opts = {
	.name = "calibrate",
	.repo = 1,
	.rows = cal_rows,
	.n = sizeof(cal_rows) / sizeof(cal_rows[0]),
};

/* "about 40 s" or "about 7 min": how long the pairs from have to to take
 * at per seconds a pair, into buf. */
static const char *eta(char *buf, size_t size, double per, unsigned from,
		       unsigned to)
{
	double t = per * (double)(to - from);

	if (t < 120)
		snprintf(buf, size, "about %.0f s", ceil(t));
	else
		snprintf(buf, size, "about %.0f min", ceil(t / 60));
	return buf;
}

/*
 * The advice: the fewest pairs, from the benchmark's own `pairs` (at
 * least) and the table's above them, at which the current floor catches
 * a regression of twice the floor 80% of the time; when none does, the
 * larger of 40 and its own pairs, and the floor they support, rounded up
 * to 0.5%. Never fewer pairs than it has: those are the least gate run
 * measures (a first look of fewer is weaker than the table's figure, which
 * gives the whole level to one look), and a count decided exactly needs
 * no more than it has.
 */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static struct advice advise(double spread, double floor, double level,
			    unsigned own)
{
	struct advice a = { .pairs = own > 40 ? own : 40,
			    .metric = METRIC_WALL };
	size_t i;

	if (calibration_mde(spread, own, level, 0.8) <= floor) {
		a.pairs = own;
		a.min_effect = floor;
		return a;
	}
	for (i = 0; i < NTABLE; i++)
		if (table_pairs[i] > own &&
		    calibration_mde(spread, table_pairs[i], level, 0.8) <=
		    floor) {
			a.pairs = table_pairs[i];
			a.min_effect = floor;
			return a;
		}
	a.min_effect = ceil(calibration_mde(spread, a.pairs, level, 0.8) *
			    200) / 200;
	return a;
}

/* Two recommendations agree: the same pairs, and floors within half a
 * percent plus a tenth of the larger (one rounding step apart). */
static int advice_agrees(const struct advice *a, const struct advice *b)
{
	double hi = a->min_effect > b->min_effect ? a->min_effect :
		    b->min_effect;

	return a->pairs == b->pairs &&
	       fabs(a->min_effect - b->min_effect) <= 0.005 + 0.1 * hi + 1e-12;
}

#define NBOOT 200

/*
 * The uncertainty of the recommended floor: the recommendation from
 * NBOOT resamples (with replacement) of the n pairs' ratios, seeded, and
 * their 10th and 90th percentiles in *lo, *hi.
 */
static void advice_range(const double *ratios, size_t n, double floor,
			 double level, unsigned own, unsigned long seed,
			 double *lo, double *hi)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *r = xmalloc(n * sizeof(*r)), rec[NBOOT];
	size_t b, i;
	struct advice a;

	if (!rng) {
		*lo = *hi = NAN;
		free(r);
		return;
	}
	gsl_rng_set(rng, seed);
	for (b = 0; b < NBOOT; b++) {
		for (i = 0; i < n; i++)
			r[i] = ratios[gsl_rng_uniform_int(rng, n)];
		a = advise(calibration_spread(r, n), floor, level, own);
		rec[b] = a.min_effect;
	}
	qsort(rec, NBOOT, sizeof(rec[0]), cmp_double);
	*lo = rec[NBOOT / 10];
	*hi = rec[NBOOT - 1 - NBOOT / 10];
	gsl_rng_free(rng);
	free(r);
}

/*
 * Whether the recommendation is stable at st's pairs: the first and the
 * second half of the pairs, each on its own, recommend the same as all
 * of them (within one rounding step; two halves that agree with each
 * other can both differ from the whole when its spread is wider than
 * theirs, as with a shift between them). *first and *second get the two
 * halves', *all the whole's.
 */
static int advice_stable(const struct bench_stats *st, double floor,
			 double level, unsigned own, struct advice *first,
			 struct advice *second, struct advice *all)
{
	size_t h = st->n / 2;

	*first = advise(calibration_spread(st->ratios, h), floor, level, own);
	*second = advise(calibration_spread(st->ratios + h, st->n - h), floor,
			 level, own);
	*all = advise(calibration_spread(st->ratios, st->n), floor, level,
		      own);
	return advice_agrees(first, second) && advice_agrees(first, all) &&
	       advice_agrees(second, all);
}

static void report(const struct bench_cfg *c, const struct bench_stats *st,
		   double spread, double level, const struct advice *a)
{
	struct stats_interval ci;
	double *l = xmalloc(st->n * sizeof(*l)), hw = NAN;
	size_t i;

	for (i = 0; i < st->n; i++)
		l[i] = log(st->ratios[i]);
	if (stats_interval_exact(&ci, STATS_HL, l, st->n, level) == 0 &&
	    isfinite(ci.low))
		hw = (exp(ci.high) - exp(ci.low)) / 2;
	free(l);
	printf("%s: %zu A/A pairs; CV %.2f%% and %.2f%% per arm; paired "
	       "ratios spread %.2f%% (robust sd of log-ratios), %s\n", c->name,
	       st->n, st->base_cv * 100, st->head_cv * 100, spread * 100,
	       st->outliers ? "with outliers" : "no outliers");
	printf("  A/A estimate %+.2f%%, %.4g%% interval half-width %.2f%% at "
	       "%zu pairs\n", (st->estimate - 1) * 100, level * 100, hw * 100,
	       st->n);
	printf("  smallest regression detectable (interval excludes no "
	       "change):\n  %-8s", "pairs");
	for (i = 0; i < NTABLE; i++)
		printf("  %7u", table_pairs[i]);
	printf("\n  %-8s", "80%");
	for (i = 0; i < NTABLE; i++)
		printf("  %+6.1f%%", calibration_mde(spread, table_pairs[i],
						      level, 0.8) * 100);
	printf("\n  %-8s", "95%");
	for (i = 0; i < NTABLE; i++)
		printf("  %+6.1f%%", calibration_mde(spread, table_pairs[i],
						      level, 0.95) * 100);
	printf("\n  recommend: \"min_effect\": %.3g, \"pairs\": %u (a "
	       "regression of %+.1f%% then fails 80%% of the time)%s%s\n",
	       a->min_effect, a->pairs, 2 * a->min_effect * 100,
	       a->min_effect > c->min_effect ? "; the current floor is below "
	       "the measured noise" : "", a->pairs == c->pairs &&
	       a->min_effect <= c->min_effect ? "; its pairs suffice" : "");
}

/* What every benchmark of one calibration shares. */
struct calib_ctx {
	const struct cal_opts *o;
	struct measure_opts mo;
	double level;		/* per benchmark (Bonferroni) */
	double confidence;	/* suite-wide */
	size_t nbench;
	double budget;		/* gate.json's, seconds */
	unsigned long seed;
	unsigned resamples;
};

/*
 * gate run's slots, checkout, build, preflight and layout, so the noise
 * recorded is measured under the conditions runs are (builds stay
 * incremental too): narms arms of one revision.
 */
static enum ws_result calibrate_workspace(struct workspace *w,
					  struct config *cfg, char **origin,
					  struct repo *repo,
					  const struct cal_opts *o,
					  size_t narms, unsigned long seed)
{
	const struct config *def[2] = { cfg, cfg };	/* one revision */
	enum ws_result ws;
	size_t a;

	if (workspace_open(w, repo) < 0)
		return WS_ERROR;
	for (a = 0; a < narms; a++)
		if (repo_resolve(&w->arm[a].rev, repo,
				 o->rev ? o->rev : "HEAD") < 0)
			return WS_ERROR;
	if (workspace_load_config(cfg, origin, repo, o->config,
				  &w->arm[0].rev) < 0)
		return WS_ERROR;
	w->aa = 1;
	workspace_slots(w, narms, 0);
	ws = workspace_checkout(w, repo, o->quiet);
	if (ws == WS_DONE)
		ws = workspace_build(w, def, cfg, o->quiet);
	if (ws == WS_DONE && workspace_preflight(w, def) < 0)
		ws = WS_ERROR;
	if (ws == WS_DONE && workspace_layout(w, 1, 1, seed, NULL) < 0)
		ws = WS_ERROR;
	return ws;
}

/* Whether the two halves of the pairs agree, and the floor's range. */
static void print_stability(const struct bench_cfg *c,
			    const struct bench_stats *st, int stable,
			    const struct advice half[3],
			    const struct calib_ctx *cc)
{
	double lo, hi;

	advice_range(st->ratios, st->n, c->min_effect, cc->level, c->pairs,
		     seed_derive(cc->seed, c->name, 1), &lo, &hi);
	if (stable)
		printf("  stable: each half of the %zu pairs "
		       "recommends what all of them do: \"min_effect\" "
		       "%.3g and %.3g, \"pairs\" %u\n", st->n,
		       half[0].min_effect, half[1].min_effect,
		       half[1].pairs);
	else
		printf("  not stable within %zu pairs: the halves "
		       "recommend \"min_effect\" %.3g (%u pairs) and "
		       "%.3g (%u pairs), all of them %.3g (%u pairs); "
		       "calibrate again with more --pairs, or on a "
		       "quieter machine\n", st->n,
		       half[0].min_effect, half[0].pairs,
		       half[1].min_effect, half[1].pairs,
		       half[2].min_effect, half[2].pairs);
	printf("  recommended floor's range: %.3g to %.3g (10th to "
	       "90th percentile of %d resamples of the pairs)\n\n",
	       lo, hi, NBOOT);
}

/* "12 pairs (about 40 s)" or "more than 100000 pairs", into buf. */
static const char *pairs_eta(char *buf, size_t size, size_t n, double per)
{
	char t[32];

	if (n == SIZE_MAX)
		snprintf(buf, size, "more than %d pairs",
			 CALIBRATION_PAIRS_MAX);
	else
		snprintf(buf, size, "%zu pairs (%s)", n,
			 eta(t, sizeof(t), per, 0, n > UINT_MAX ? UINT_MAX :
			     (unsigned)n));
	return buf;
}

/* The pairs a benchmark taking per seconds a pair can spend in its share
   of the budget, up to max_pairs (never fewer than its pairs). */
static size_t budget_pairs(const struct bench_cfg *c, double share,
			   double per)
{
	double can = per > 0 ? share / per : (double)c->max_pairs;

	if (can > (double)c->max_pairs)
		can = (double)c->max_pairs;
	if (can < (double)c->pairs)
		can = (double)c->pairs;
	return (size_t)can;
}

/*
 * What the recommendation costs: its pairs at the measured time a pair,
 * against the benchmark's share of the budget (gate run shares it
 * evenly between the benchmarks).
 */
static void print_time(const struct advice *a, double per, double share,
		       double budget)
{
	char t[32];

	printf("  time: %u pairs take %s at %.3g s a pair, %s its share of "
	       "the %.0f s budget (%.0f s)%s\n", a->pairs,
	       eta(t, sizeof(t), per, 0, a->pairs), per,
	       per * a->pairs <= share ? "within" : "beyond", budget, share,
	       per * a->pairs <= share ? "" : ": gate run stops it noisy "
	       "there unless \"budget\" (or --budget) grows, or a metric "
	       "below decides sooner");
}

/*
 * The metric that would decide, from the same A/A pairs (gate/decide/advice.c):
 * cpu time when it reaches the floor within the budget and wall time
 * does not (--write then sets it), or a count under valgrind.
 */
static void print_metric(struct advice *adv, const struct bench_run *br,
			 const struct bench_cfg *c, const struct calib_ctx *cc,
			 double share)
{
	struct metric_advice ma;
	char why[1024];
	size_t reach;

	if (c->format != FORMAT_TIME || c->metric != METRIC_WALL ||
	    br->npairs < 4)
		return;
	reach = budget_pairs(c, share, (br->seconds - br->warmup_seconds) /
			     (double)br->npairs);
	if (advice_metric(&ma, br, c->min_effect, cc->level, reach,
			  share) < 0)
		return;
	advice_words(why, sizeof(why), &ma, c->min_effect, reach,
		     "its share of the budget");
	if (!why[0]) {
		printf("  metric: wall time reaches the floor in %zu pairs "
		       "(cpu time: %s)\n", ma.need[0],
		       isfinite(ma.spread[1]) ? "no better" : "not usable: "
		       "the benchmark waits more than it computes");
		return;
	}
	printf("  metric: %s\n", why);
	if (ma.use_cpu) {
		adv->set_metric = 1;
		adv->metric = METRIC_CPU;
		adv->pairs = ma.need[1] > c->pairs ? (unsigned)ma.need[1] :
			     c->pairs;
		adv->min_effect = c->min_effect;
		printf("  so the advice is cpu's: \"metric\": \"cpu\", "
		       "\"pairs\": %u, \"min_effect\": %.3g (--write sets "
		       "them)\n", adv->pairs, adv->min_effect);
	}
}

/* One case's figures: its spread and the pairs it needs to reach floor. */
struct case_fig {
	const char *name;
	double spread;
	size_t need;
};

/*
 * A suite's cases, each against itself: the suite (br, handed over and
 * released here) fanned out as gate run does, each case's spread and the
 * pairs it needs to reach the floor at the run's per-case level; which
 * cases reach it within the suite's share of the budget (a pair runs the
 * whole suite), the pairs the suite then needs and their time, and the
 * floor the others support. Sets adv's pairs (the floor stays).
 */
static void calibrate_cases(struct bench_run *br, const struct bench_cfg *c,
			    const struct calib_ctx *cc, struct advice *adv)
{
	struct run_report r;
	struct suite_owned own = SUITE_OWNED_INIT;
	struct verdict_opts vo = { .resamples = cc->resamples, .seed = 1 };
	struct case_fig *fig;
	double per = br->npairs ? (br->seconds - br->warmup_seconds) /
		     (double)br->npairs : 0, level, share;
	double counted = advice_counted_seconds(br);
	size_t k, nc = 0, reach, most = c->pairs, beyond = 0;
	char buf[64];
	int countable = !suite_counted(br) &&
			advice_suite_countable(c->format);

	memset(&r, 0, sizeof(r));
	run_alloc(&r, 1);
	r.b[0].run = *br;
	memset(br, 0, sizeof(*br));
	if (suite_fanout(&r.b, &r.n, &own, NULL) < 0 || !r.n) {
		printf("  its cases could not be told apart: see the error "
		       "above\n");
		goto cleanup;
	}
	share = cc->budget / (double)(cc->nbench ? cc->nbench : 1);
	reach = budget_pairs(c, share, per);
	level = stats_bonferroni(cc->confidence, cc->nbench - 1 + r.n);
	vo.alpha = (1 - level) / 2;
	fig = xcalloc(r.n, sizeof(*fig));
	for (k = 0; k < r.n; k++) {
		struct bench_stats st;

		memset(&st, 0, sizeof(st));
		if (r.b[k].run.error || r.b[k].run.is_new ||
		    r.b[k].run.is_removed ||
		    verdict_analyse(&st, &r.b[k].run, &vo) < 0 || st.n < 2) {
			bench_stats_release(&st);
			continue;
		}
		fig[nc].name = r.b[k].run.cfg->name;
		fig[nc].spread = calibration_spread(st.ratios, st.n);
		fig[nc].need = calibration_pairs_needed(fig[nc].spread,
							c->min_effect, level);
		bench_stats_release(&st);
		nc++;
	}
	printf("  per case (%zu cases; a pair runs the whole suite, %.3g s; "
	       "level %.4g%% per case; %zu pairs fit its share of the %.0f s "
	       "budget):\n", nc, per, level * 100, reach, cc->budget);
	for (k = 0; k < nc; k++) {
		int fits = fig[k].need <= reach;

		printf("    %s: paired spread %.2f%%, %s to the %+.1f%% "
		       "floor", fig[k].name, fig[k].spread * 100,
		       pairs_eta(buf, sizeof(buf), fig[k].need, per),
		       c->min_effect * 100);
		if (fits)
			printf("\n");
		else
			printf(": beyond the budget; at %zu pairs it "
			       "supports a floor of %+.1f%%\n", reach,
			       calibration_mde(fig[k].spread, reach, level,
					       0.8) * 100);
		if (fits && fig[k].need > most)
			most = fig[k].need;
		beyond += !fits;
	}
	adv->pairs = (unsigned)most;
	adv->min_effect = c->min_effect;
	printf("  recommend for the suite: \"pairs\": %u, %s at %.3g s a "
	       "pair, %s its share of the budget (%.0f s); %zu of %zu cases "
	       "reach the floor within it%s\n", adv->pairs,
	       eta(buf, sizeof(buf), per, 0, adv->pairs), per,
	       per * adv->pairs <= share ? "within" : "beyond", share,
	       nc - beyond, nc, beyond ? ": the others need a larger "
	       "\"min_effect\" or \"budget\", a quieter runner, or fewer "
	       "cases per suite (the figures above)" : "");
	if (beyond && countable)
		printf("  metric: %zu cases cannot reach the floor on time "
		       "within the budget; counts ignore the load and "
		       "valgrind is on PATH: \"metrics\": [\"instructions\"] "
		       "counts each case's own work (doc/counted.md), exactly "
		       "in %d pairs when its count repeats; such a run takes "
		       "about %.0f s (%d counted pairs of the whole suite, "
		       "estimated at %.0fx its process's cpu time here, "
		       "start-up in), %s its share of the budget; instructions "
		       "are blind to memory, sleeps and I/O%s\n\n", beyond,
		       METRIC_EXACT_PAIRS, ceil(counted), METRIC_EXACT_PAIRS,
		       ADVICE_VALGRIND_SLOWDOWN, counted <= share ? "within" :
		       "beyond", c->format == FORMAT_GBENCH &&
		       c->metric != METRIC_CPU ? "; or \"metric\": \"cpu\" "
		       "(gbench's cpu_time per case), if the cases compute "
		       "rather than wait" : "");
	else
		printf("  metric: suites decide on the time each case reports "
		       "(\"metric\": \"cpu\" reads gbench's cpu_time)%s\n\n",
		       suite_counted(br) ? "" : beyond ? "; per-case counts "
		       "(\"metrics\": [\"instructions\"], doc/counted.md) "
		       "need valgrind, not on PATH, and a pytest, gbench or "
		       "lines suite" : "");
	free(fig);
cleanup:
	run_release(&r);
	suite_owned_release(&own);
}

/*
 * Measure benchmark c against itself, with more pairs (up to 4x) until
 * the two halves of the pairs recommend the same; fill its record and
 * advice and print them. 0, or -1 (said why; *signo set when a signal
 * stopped it).
 */
static int calibrate_bench(struct calib_bench *rec, struct advice *adv,
			   struct bench_cfg *c, const struct calib_ctx *cc,
			   int *signo)
{
	struct bench_run br;
	struct bench_stats st;
	struct verdict_opts vo = { .alpha = (1 - cc->level) / 2,
				   .resamples = cc->resamples, .seed = 1 };
	unsigned n = cc->o->pairs > 0 ? (unsigned)cc->o->pairs :
		     c->pairs > 20 ? c->pairs : 20, cap = 4 * n;
	struct advice half[3];
	char why[256], buf[32];
	double start, share, per;
	unsigned had;
	int stable, rc, ret = -1;

	memset(&br, 0, sizeof(br));
	memset(&st, 0, sizeof(st));
	br.cfg = c;
	if (measure_prepare(&br) < 0)
		goto cleanup;
	start = clock_seconds();
	for (;;) {
		rc = measure_bench(&br, &cc->mo, n);
		if (rc == MEASURE_INTERRUPTED) {
			*signo = signals_pending();
			goto cleanup;
		}
		if (rc == MEASURE_ERROR || verdict_analyse(&st, &br, &vo) < 0) {
			error("benchmark \"%s\" could not be calibrated: %s",
			      c->name, br.error ? br.error : st.reason);
			goto cleanup;
		}
		stable = advice_stable(&st, c->min_effect, cc->level,
				       c->pairs, &half[0], &half[1], &half[2]);
		if (stable || n >= cap)
			break;
		bench_stats_release(&st);
		memset(&st, 0, sizeof(st));
		had = n;
		n = 2 * n < cap ? 2 * n : cap;
		/* the warm-up is in the first time: an upper bound */
		if (!cc->o->quiet)
			fprintf(stderr, "gate: %s: the halves of the pairs "
				"disagree; measuring up to %u pairs (%s "
				"more)\n", c->name, n,
				eta(buf, sizeof(buf), (clock_seconds() - start) / had,
				    had, n));
	}
	rec->name = xstrdup(c->name);
	rec->metric = c->metric;
	rec->command = calibration_command(&c->run);
	rec->spread = calibration_spread(st.ratios, st.n);
	rec->base_cv = st.base_cv;
	rec->head_cv = st.head_cv;
	rec->pairs = st.n;
	*adv = advise(rec->spread, c->min_effect, cc->level, c->pairs);
	if (c->format != FORMAT_TIME) {
		/* the process's noise says little of its cases': theirs */
		printf("%s: a suite, %zu A/A pairs\n", c->name, st.n);
		calibrate_cases(&br, c, cc, adv);
		ret = 0;
		goto cleanup;
	}
	report(c, &st, rec->spread, cc->level, adv);
	share = cc->budget / (double)(cc->nbench ? cc->nbench : 1);
	per = (br.seconds - br.warmup_seconds) / (double)br.npairs;
	print_metric(adv, &br, c, cc, share);
	print_time(adv, per, share, cc->budget);
	if (run_fixed_time(&br, why, sizeof(why)))
		printf("  note: %s: it may run for a fixed time, so its time "
		       "says nothing of the code and this advice nothing of a "
		       "regression; use its own rate through a suite format, "
		       "or a fixed amount of work (README: \"Benchmarks that "
		       "run for a fixed time\")\n", why);
	print_stability(c, &st, stable, half, cc);
	ret = 0;
cleanup:
	bench_run_release(&br);
	bench_stats_release(&st);
	return ret;
}

/* How calibrate measures: the arms' directories and layout, the pair order
   drawn from cc->seed, gate.json's levels; 0 or -1. */
static int measure_setup(struct calib_ctx *cc, struct workspace *w,
			 const struct config *cfg, size_t narms)
{
	cc->mo.layout = &w->layout;
	cc->mo.dir[0] = w->arm[0].dir;
	cc->mo.dir[1] = w->arm[narms - 1].dir;
	cc->mo.grace = 2.0;
	cc->mo.quiet = cc->o->quiet;
	cc->mo.order_rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!cc->mo.order_rng)
		return error("cannot allocate a random generator");
	gsl_rng_set(cc->mo.order_rng, cc->seed);
	cc->level = stats_bonferroni(cfg->confidence, cfg->nbench);
	cc->confidence = cfg->confidence;
	cc->nbench = cfg->nbench;
	cc->budget = cfg->budget;
	cc->resamples = cfg->resamples;
	return 0;
}

/* --write: the advice into --config's file or the work tree's gate.json. */
static int write_config(struct repo *repo, const struct cal_opts *o,
			const struct config *cfg, const struct advice *adv)
{
	char *target = o->config ? xstrdup(o->config) :
		       repo_workdir(repo) ?
		       xasprintf("%sgate.json", repo_workdir(repo)) : NULL;
	int rc;

	if (!target)
		return error("a bare repository has no gate.json to write: "
			     "pass --config FILE");
	rc = calibrate_write_advice(target, cfg, adv);
	free(target);
	return rc;
}

int cmd_calibrate(int argc, char **argv, struct gate_ctx *ctx)
{
	struct cal_opts o = { .pairs = -1 };
	struct workspace w = WORKSPACE_INIT;
	struct config cfg = CONFIG_INIT;
	struct calib_ctx cc;
	struct calib_bench *rec = NULL;
	struct advice *adv = NULL;
	char *origin = NULL, *calib = NULL;
	int code = EXIT_ERROR, rc, signo = 0;
	enum ws_result ws;
	size_t i, narms;

	memset(&cc, 0, sizeof(cc));
	rc = options_parse(&cmd_calibrate_opts, &o, argc, argv, NULL);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if ((rc = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(rc);
	narms = o.rebuild ? 2 : 1;
	cc.o = &o;
	cc.seed = o.have_seed ? o.seed : seed_fresh();
	ws = calibrate_workspace(&w, &cfg, &origin, ctx->repo, &o, narms,
				 cc.seed);
	if (ws != WS_DONE) {
		if (ws == WS_INTERRUPTED)
			code = signals_exit_code(signals_pending());
		goto cleanup;
	}
	calib = workspace_path(&w, "calibration.json");
	if (measure_setup(&cc, &w, &cfg, narms) < 0)
		goto cleanup;
	rec = xcalloc(cfg.nbench, sizeof(*rec));
	adv = xcalloc(cfg.nbench, sizeof(*adv));
	printf("calibrating %s against itself%s; levels %.4g%% per "
	       "benchmark (%.4g%% for the suite of %zu)\n\n",
	       w.arm[0].rev.label, o.rebuild ? ", built twice" : "",
	       cc.level * 100, cfg.confidence * 100, cfg.nbench);
	for (i = 0; i < cfg.nbench; i++)
		if (calibrate_bench(&rec[i], &adv[i], &cfg.benches[i], &cc,
				    &signo) < 0) {
			if (signo)
				code = signals_exit_code(signo);
			goto cleanup;
		}
	if (calibration_save(calib, w.arm[0].rev.commit, rec, cfg.nbench) < 0)
		goto cleanup;
	printf("recorded in %s (gate run warns when a floor is below this "
	       "noise, and notes a run 3x noisier beside its verdict)\n",
	       calib);
	if (o.write && write_config(ctx->repo, &o, &cfg, adv) < 0)
		goto cleanup;
	code = EXIT_PASS;
cleanup:
	gsl_rng_free(cc.mo.order_rng);
	calibration_free(rec, cfg.nbench);
	free(adv);
	config_release(&cfg);
	workspace_release(&w);
	free(origin);
	free(calib);
	return code;
}
