/*
 * make bench-stats: the full simulation table. First, per interval option
 * (statistic and interval), the promise and the power at gate's corrected
 * levels; then per cell (noise shape, CV, true effect, suite size): suite
 * fail, noisy and pass rates and the mean pairs used, for gate's rule, the
 * peers' rule and two manual rules; then the statistics compared at equal
 * false-fail promise; the audit's cells without the 60-pair cap (A);
 * suites whose cases share each pair's processes (S).
 * `bench-sim i|t|c|b|e|o|T|A|S` runs one part (`bench-sim b N`: N
 * searches a cell).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "bench/sim.h"
#include "gate/decide/adaptive.h"
#include "common/banned.h"

#define TRIALS_ONE 1000	/* suites of 1 benchmark per cell */
#define TRIALS_SUITE 200	/* suites of 20 per cell (4,000 verdicts) */
#define COMPARE_TRIALS 1000
#define COMPARE_RESAMPLES 2000
/* The options table: suites per cell, and datasets per one-sided error. */
#define OPT_TRIALS_ONE 1000
#define OPT_TRIALS_SUITE 100
#define OPT_COVER_ONE 4000
#define OPT_COVER_SUITE 20000
#define OPT_RESAMPLES 1000
#define BISECT_TRIALS 400
#define BISECT_MAX_PAIRS 400
#define EXACT_TRIALS 4000

/*
 * Every statistic and interval option gate accepts, lognormal noise at CV
 * 10%, floor 5%, default pairs and budget: the one-sided error of each
 * bound at the first look's corrected level (the bound used most), the
 * suite false-fail rate on identical code, and at twice the floor the
 * pass rate (the promise: <= 1 - confidence) and the fail rate (power)
 * with the mean pairs it took.
 */
static void options(void)
{
	static const struct {
		enum stats_estimator e;
		enum interval_method m;
	} how[] = {
		{ STATS_HL, INTERVAL_EXACT },
		{ STATS_MEDIAN, INTERVAL_EXACT },
		{ STATS_MEAN, INTERVAL_EXACT },
		{ STATS_MEDIAN, INTERVAL_PERCENTILE },
		{ STATS_MEDIAN, INTERVAL_BCA },
		{ STATS_MEAN, INTERVAL_PERCENTILE },
		{ STATS_MEAN, INTERVAL_BCA },
		{ STATS_HL, INTERVAL_PERCENTILE },
		{ STATS_HL, INTERVAL_BCA },
	};
	static const size_t suite[] = { 1, 20 };
	size_t i, d;

	printf("Interval options: lognormal noise, CV 10%%, floor 5%%, "
	       "confidence 95%%, default pairs;\n%d suites of 1 and %d "
	       "suites of 20 per cell; one-sided errors of each bound from "
	       "the first\nlook's pairs at its corrected alpha over %d "
	       "(suite of 1) and %d (suite of 20) datasets,\n%d resamples. "
	       "\"fallback\": share of those analysed by the exact interval "
	       "(too few\nvalues for the bootstrap at that alpha). Promise: "
	       "false fail and pass@2x <= 0.05.\n\n",
	       OPT_TRIALS_ONE, OPT_TRIALS_SUITE, OPT_COVER_ONE,
	       OPT_COVER_SUITE, OPT_RESAMPLES);
	printf("%-7s %-10s %5s | %8s %7s %7s %8s | %6s | %7s %7s %6s\n",
	       "stat", "interval", "suite", "alpha", "err.lo", "err.hi",
	       "fallback", "false", "pass@2x", "fail@2x", "pairs");
	for (d = 0; d < 2; d++)
		for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
			struct sim_cell zero = { .noise = SIM_LOGNORMAL,
				.cv = 0.10, .suite = suite[d] };
			struct sim_cell twice = { .noise = SIM_LOGNORMAL,
				.cv = 0.10, .effect = 0.10, .suite = suite[d] };
			struct sim_cell one = { .noise = SIM_LOGNORMAL,
				.cv = 0.10, .effect = 0.05, .suite = 1 };
			size_t trials = suite[d] == 1 ? OPT_TRIALS_ONE :
					OPT_TRIALS_SUITE;
			unsigned long seed = 500 + 10 * i + d;
			struct bench_cfg b;
			struct sim_result r0, r2;
			struct sim_cover cv;
			double alpha;

			sim_default_cfg(&b);
			b.statistic = how[i].e;
			b.interval = how[i].m;
			alpha = 1 - adaptive_look_level(&b, 1 -
				stats_bonferroni(0.95, suite[d]), 0);
			if (sim_coverage_onesided(&cv, &one, &b, b.pairs,
						  alpha, OPT_RESAMPLES,
						  suite[d] == 1 ?
						  OPT_COVER_ONE :
						  OPT_COVER_SUITE, seed) < 0 ||
			    sim_run(&r0, &zero, SIM_GATE, &b, 0.95,
				    OPT_RESAMPLES, trials, seed) < 0 ||
			    sim_run(&r2, &twice, SIM_GATE, &b, 0.95,
				    OPT_RESAMPLES, trials, seed + 1) < 0) {
				fprintf(stderr, "bench-sim: %s %s failed\n",
					stats_estimator_name(how[i].e),
					interval_name(how[i].m));
				exit(1);
			}
			printf("%-7s %-10s %5zu | %8.5f %7.5f %7.5f %8.3f | "
			       "%6.3f | %7.3f %7.3f %6.1f\n",
			       stats_estimator_name(how[i].e),
			       interval_name(how[i].m), suite[d], alpha,
			       cv.below, cv.above, cv.fallback, r0.fail,
			       r2.pass, r2.fail, r2.pairs);
			fflush(stdout);
		}
	printf("\n");
}

static void table(void)
{
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY,
						SIM_DRIFT };
	static const double cv[] = { 0.02, 0.10, 0.25 };
	static const double effect[] = { 0, 0.025, 0.05, 0.10 };
	static const size_t suite[] = { 1, 20 };
	size_t a, b, c, d;
	struct bench_cfg gate, peers;

	sim_default_cfg(&gate);
	sim_default_cfg(&peers);
	peers.rule = RULE_SIGNIFICANT;
	printf("Suite verdict rates over %d suites of 1 and %d suites of 20 "
	       "benchmarks per cell;\nfloor 5%%, confidence 95%%, pairs "
	       "20..60 (defaults). A fail at effect 0 or +2.5%% is a false "
	       "fail.\n\n", TRIALS_ONE, TRIALS_SUITE);
	printf("%-9s %4s %6s %5s | %-29s | %-29s | %6s | %6s\n", "", "", "",
	       "", "gate (floor rule, default)", "peers (significant rule)",
	       "single", "best5");
	printf("%-9s %4s %6s %5s | %6s %6s %6s %7s | %6s %6s %6s %7s | %6s | "
	       "%6s\n", "noise", "CV", "effect", "suite", "fail", "noisy",
	       "pass", "pairs", "fail", "noisy", "pass", "pairs", "fail",
	       "fail");
	for (a = 0; a < 3; a++)
	for (b = 0; b < 3; b++)
	for (d = 0; d < 2; d++)
	for (c = 0; c < 4; c++) {
		struct sim_cell cell = { .noise = noise[a], .cv = cv[b],
			.effect = effect[c], .suite = suite[d] };
		struct sim_result g, p, s1, s5;
		size_t trials = suite[d] == 1 ? TRIALS_ONE : TRIALS_SUITE;
		unsigned long seed = 1000 * a + 100 * b + 10 * c + d;

		sim_run(&g, &cell, SIM_GATE, &gate, 0.95, 1000, trials, seed);
		sim_run(&p, &cell, SIM_GATE, &peers, 0.95, 1000, trials,
			seed);
		sim_run(&s1, &cell, SIM_SINGLE, &gate, 0.95, 1000, trials,
			seed);
		sim_run(&s5, &cell, SIM_BEST5, &gate, 0.95, 1000, trials,
			seed);
		printf("%-9s %3.0f%% %+5.1f%% %5zu | %6.3f %6.3f %6.3f %7.1f "
		       "| %6.3f %6.3f %6.3f %7.1f | %6.3f | %6.3f\n",
		       sim_noise_name(noise[a]), cv[b] * 100, effect[c] * 100,
		       suite[d], g.fail, g.noisy, g.pass, g.pairs, p.fail,
		       p.noisy, p.pass, p.pairs, s1.fail, s5.fail);
		fflush(stdout);
	}
}

/*
 * Part 4: the statistic. Fixed 20 pairs, one benchmark, 95%: the fail
 * rate at the floor (must stay <= 5%: one look spends the whole one-sided
 * alpha) and at twice the floor (power), CV 10%, light and heavy tails.
 */
static void compare(void)
{
	static const struct {
		enum stats_estimator e;
		enum interval_method m;
	} how[] = {
		{ STATS_MEDIAN, INTERVAL_PERCENTILE },
		{ STATS_MEDIAN, INTERVAL_BCA },
		{ STATS_MEDIAN, INTERVAL_EXACT },
		{ STATS_HL, INTERVAL_PERCENTILE },
		{ STATS_HL, INTERVAL_BCA },
		{ STATS_HL, INTERVAL_EXACT },
		{ STATS_MEAN, INTERVAL_PERCENTILE },
		{ STATS_MEAN, INTERVAL_BCA },
		{ STATS_MEAN, INTERVAL_EXACT },
	};
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY };
	size_t i, a;

	printf("\nStatistic and interval, fixed 20 pairs, one benchmark, 95%% "
	       "(%d trials, %d resamples),\nCV 10%%, floor 5%%: fail rate at "
	       "the floor (promise <= 0.05: one look, one-sided alpha\n"
	       "0.05) and at twice the floor (power);"
	       "\ncoverage of the 95%% interval at 15 pairs.\n\n",
	       COMPARE_TRIALS, COMPARE_RESAMPLES);
	printf("%-7s %-10s | %-9s %8s %8s %8s\n", "stat", "interval",
	       "noise", "@floor", "@2xfloor", "cover15");
	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++)
		for (a = 0; a < 2; a++) {
			struct sim_cell at = { .noise = noise[a], .cv = 0.10,
				.effect = 0.05, .suite = 1 };
			struct sim_cell twice = { .noise = noise[a], .cv = 0.10,
				.effect = 0.10, .suite = 1 };
			struct bench_cfg b;
			struct sim_result r1, r2;
			double cover;

			sim_default_cfg(&b);
			b.statistic = how[i].e;
			b.interval = how[i].m;
			b.max_pairs = b.pairs;
			sim_run(&r1, &at, SIM_GATE, &b, 0.95,
				COMPARE_RESAMPLES, COMPARE_TRIALS, 77 + a);
			sim_run(&r2, &twice, SIM_GATE, &b, 0.95,
				COMPARE_RESAMPLES, COMPARE_TRIALS, 88 + a);
			cover = sim_coverage(&at, &b, 15, 0.95,
					     COMPARE_RESAMPLES, COMPARE_TRIALS,
					     99 + a);
			printf("%-7s %-10s | %-9s %8.3f %8.3f %8.3f\n",
			       stats_estimator_name(how[i].e),
			       interval_name(how[i].m),
			       sim_noise_name(noise[a]), r1.fail, r2.fail,
			       cover);
			fflush(stdout);
		}
}

/*
 * Part 5: gate bisect between the floor and twice it (issues 25 item 1 and
 * 40): how often it names the wrong commit and how often it misses the
 * regression ("does not reproduce"), with each rule: a step's pass good
 * (before issue 25), the confirming run reproduced only when it fails
 * (issues 25 to 40), and now (every run bad when it shows, good when it
 * excludes a regression of the floor, else more pairs). `make
 * bench-bisect` runs this part alone.
 */
static void bisect(size_t trials)
{
	static const double effect[] = { 0, 0.06, 0.07, 0.10 };
	static const double cv[] = { 0.05, 0.10 };
	static const struct {
		enum sim_bisect_rule rule;
		const char *name;
	} rules[] = {
		{ SIM_BISECT_PASS_GOOD, "pass" },
		{ SIM_BISECT_CONFIRM_FAIL, "fail" },
		{ SIM_BISECT_NOW, "now" },
	};
	size_t e, v, k;

	printf("\ngate bisect, 8 commits, one culprit drawn uniformly, floor "
	       "5%%,\npairs 20..%d a run (%d trials a cell): share of "
	       "searches naming\nthe right commit, a wrong one, only a "
	       "range, \"does not reproduce\" (none),\n\"could not confirm"
	       "\" (unconf); paired runs per search. Rules: pass (a step's "
	       "pass\nis good; before issue 25), fail (reproduced only when "
	       "the confirming run\nfails; issues 25 to 40), now.\n\n",
	       BISECT_MAX_PAIRS, (int)trials);
	printf("%-4s %6s %-4s | %6s %6s %6s %6s %6s %6s\n", "CV", "effect",
	       "rule", "right", "wrong", "range", "none", "unconf", "runs");
	for (v = 0; v < sizeof(cv) / sizeof(cv[0]); v++)
		for (e = 0; e < sizeof(effect) / sizeof(effect[0]); e++)
			for (k = 0; k < sizeof(rules) / sizeof(rules[0]); k++) {
				struct sim_cell c = { .noise = SIM_LOGNORMAL,
					.cv = cv[v], .effect = effect[e],
					.suite = 1 };
				struct bench_cfg b;
				struct sim_bisect r;

				sim_default_cfg(&b);
				b.max_pairs = BISECT_MAX_PAIRS;
				sim_bisect(&r, &c, &b, 8, rules[k].rule,
					   trials, 7 + e + 10 * v);
				printf("%3.0f%% %+5.1f%% %-4s | %6.3f %6.3f "
				       "%6.3f %6.3f %6.3f %6.1f\n",
				       cv[v] * 100, effect[e] * 100,
				       rules[k].name, r.right, r.wrong,
				       r.range, r.none, r.unconfirmed, r.runs);
				fflush(stdout);
			}
}

/*
 * Part 6: exact counts near the floor (issue 25 item 4): a count of 1e6
 * with a uniform jitter of +-0.05% a sample (within the 0.1% exact
 * tolerance), floor 0.2%, one look at one-sided 2.5%.
 */
static void exact(void)
{
	static const double effect[] = { 0, 0.0015, 0.0019, 0.002, 0.0021,
					 0.0025, 0.003, 0.004 };
	static const size_t pairs[] = { 3, 20 };
	size_t e, p;

	printf("\nexact counts, floor 0.2%%, jitter +-0.05%% a sample, "
	       "%d trials a cell:\nfail and pass rates\n\n", EXACT_TRIALS);
	printf("%6s %5s | %6s %6s\n", "effect", "pairs", "fail", "pass");
	for (p = 0; p < 2; p++)
		for (e = 0; e < sizeof(effect) / sizeof(effect[0]); e++) {
			double f, ps;

			sim_exact(&f, &ps, effect[e], 0.0005, 0.002, pairs[p],
				  0.025, EXACT_TRIALS, 31 + e);
			printf("%+5.2f%% %5zu | %6.3f %6.3f\n",
			       effect[e] * 100, pairs[p], f, ps);
			fflush(stdout);
		}
}

/*
 * Part 7: one extreme head sample (issue 25 item 6): the fail rate at the
 * floor (promise: <= 0.05) with one head sample of the first look
 * multiplied by 3, 10 or 100, CV 10%, 20 pairs in one look and gate's
 * default adaptive looks; at twice the floor the pass rate (promise) and
 * the fail rate (power); identical code's fail rate.
 */
#define OUTLIER_TRIALS 8000
static void outlier(void)
{
	static const double x[] = { 1, 3, 10, 100 };
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY };
	size_t i, a, look;

	printf("\none extreme head sample, CV 10%%, floor 5%%, %d trials a "
	       "cell\n\n", OUTLIER_TRIALS);
	printf("%-9s %7s %-8s | %7s %7s %7s %7s\n", "noise", "outlier",
	       "looks", "@floor", "pass@2x", "fail@2x", "false");
	for (a = 0; a < 2; a++)
		for (look = 0; look < 2; look++)
			for (i = 0; i < sizeof(x) / sizeof(x[0]); i++) {
				struct sim_cell at = { .noise = noise[a],
					.cv = 0.10, .effect = 0.05, .suite = 1,
					.outlier = x[i] };
				struct sim_cell twice = at, zero = at;
				struct bench_cfg b;
				struct sim_result r1, r2, r0;

				twice.effect = 0.10;
				zero.effect = 0;
				sim_default_cfg(&b);
				if (!look)
					b.max_pairs = b.pairs;
				sim_run(&r1, &at, SIM_GATE, &b, 0.95, 1000,
					OUTLIER_TRIALS, 61 + i);
				sim_run(&r2, &twice, SIM_GATE, &b, 0.95, 1000,
					OUTLIER_TRIALS / 4, 71 + i);
				sim_run(&r0, &zero, SIM_GATE, &b, 0.95, 1000,
					OUTLIER_TRIALS / 4, 81 + i);
				printf("%-9s %7g %-8s | %7.4f %7.4f %7.4f "
				       "%7.4f\n", sim_noise_name(noise[a]),
				       x[i], look ? "adaptive" : "one",
				       r1.fail, r2.pass, r2.fail, r0.fail);
				fflush(stdout);
			}
}

/*
 * Part 8: a slow tail (issue 25 item 5): each head sample twice as long
 * with probability 0.1 (+10% mean time; the typical run unchanged), and
 * identical code, under gate's defaults (hl, adaptive looks, the default
 * budget on the simulated clock, pairs up to 60): the suite's fail, noisy
 * and pass rates and the mean pairs.
 */
#define TAIL_TRIALS_ONE 1000
#define TAIL_TRIALS_SUITE 100
static void tail(void)
{
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY,
						SIM_DRIFT };
	static const double cv[] = { 0.02, 0.10, 0.25 };
	static const size_t suite[] = { 1, 20 };
	size_t a, b, d, k;

	printf("\nslow tail: head 2x in 10%% of samples (+10%% mean), and "
	       "identical code;\n%d suites of 1 and %d of 20 a cell, gate's "
	       "defaults\n\n", TAIL_TRIALS_ONE, TAIL_TRIALS_SUITE);
	printf("%-9s %4s %5s %-9s | %6s %6s %6s %7s\n", "noise", "CV",
	       "suite", "head", "fail", "noisy", "pass", "pairs");
	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++)
			for (d = 0; d < 2; d++)
				for (k = 0; k < 2; k++) {
					struct sim_cell c = { .noise = noise[a],
						.cv = cv[b], .suite = suite[d],
						.tail_p = k ? 0.1 : 0,
						.tail_x = 2 };
					struct bench_cfg g;
					struct sim_result r;

					sim_default_cfg(&g);
					sim_run(&r, &c, SIM_GATE, &g, 0.95,
						1000, suite[d] == 1 ?
						TAIL_TRIALS_ONE :
						TAIL_TRIALS_SUITE,
						900 + 100 * a + 10 * b +
						2 * d + k);
					printf("%-9s %3.0f%% %5zu %-9s | %6.3f "
					       "%6.3f %6.3f %7.1f\n",
					       sim_noise_name(noise[a]),
					       cv[b] * 100, suite[d],
					       k ? "tail" : "identical",
					       r.fail, r.noisy, r.pass,
					       r.pairs);
					fflush(stdout);
				}
}

/*
 * Part 9, the audit's cells (issue 38), without the 60-pair cap: gate's
 * defaults as a run has them (max_pairs 2000, the 300 s budget on the
 * simulated clock of 100 ms samples), suites of 1 and 20. Identical code
 * (fail: the promise, noisy: its cost), a true +5% (the floor: fail rate),
 * +10% (pass_excludes: pass rate), and the slow tail (head 2x in 10% of
 * samples, +10% in mean time): pass rate and pairs. AUDIT_TRIALS sets the
 * suites of 1 a cell (default 400; suites of 20 get a tenth).
 */
static void audit(void)
{
	static const struct {
		const char *what;
		enum sim_noise noise;
		double cv, effect, tail_p;
	} cell[] = {
		{ "identical", SIM_LOGNORMAL, 0.10, 0, 0 },
		{ "identical", SIM_HEAVY, 0.10, 0, 0 },
		{ "identical", SIM_DRIFT, 0.10, 0, 0 },
		{ "identical", SIM_LOGNORMAL, 0.02, 0, 0 },
		{ "+5%", SIM_LOGNORMAL, 0.10, 0.05, 0 },
		{ "+5%", SIM_HEAVY, 0.10, 0.05, 0 },
		{ "+10%", SIM_LOGNORMAL, 0.10, 0.10, 0 },
		{ "+10%", SIM_HEAVY, 0.10, 0.10, 0 },
		{ "tail 10% 2x", SIM_LOGNORMAL, 0.02, 0, 0.1 },
		{ "tail 10% 2x", SIM_LOGNORMAL, 0.10, 0, 0.1 },
		/* the audit's other two kinds of noise (added after the
		   cells above, whose seeds stay theirs) */
		{ "identical", SIM_BIMODAL, 0.10, 0, 0 },
		{ "identical", SIM_AR1, 0.10, 0, 0 },
		{ "+5%", SIM_BIMODAL, 0.10, 0.05, 0 },
		{ "+5%", SIM_AR1, 0.10, 0.05, 0 },
		{ "+10%", SIM_BIMODAL, 0.10, 0.10, 0 },
		{ "+10%", SIM_AR1, 0.10, 0.10, 0 },
	};
	static const size_t suite[] = { 1, 20 };
	const char *env = getenv("AUDIT_TRIALS");
	size_t trials = env ? (size_t)strtoul(env, NULL, 10) : 400, i, d;

	printf("\naudit cells: gate's defaults without the 60-pair cap "
	       "(max_pairs %d, budget %.0f s\nsimulated, 100 ms samples); "
	       "%zu suites of 1 and %zu of 20 a cell\n\n",
	       CONFIG_DEFAULT_MAX_PAIRS, CONFIG_DEFAULT_BUDGET, trials,
	       trials / 10 ? trials / 10 : 1);
	printf("%-12s %-9s %4s %5s | %6s %6s %6s %7s\n", "head", "noise",
	       "CV", "suite", "fail", "noisy", "pass", "pairs");
	for (i = 0; i < sizeof(cell) / sizeof(cell[0]); i++)
		for (d = 0; d < 2; d++) {
			struct sim_cell c = { .noise = cell[i].noise,
				.cv = cell[i].cv, .effect = cell[i].effect,
				.suite = suite[d], .tail_p = cell[i].tail_p,
				.tail_x = 2 };
			struct bench_cfg g;
			struct sim_result r;
			size_t n = suite[d] == 1 ? trials :
				   trials / 10 ? trials / 10 : 1;

			sim_default_cfg(&g);
			g.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
			if (sim_run(&r, &c, SIM_GATE, &g, 0.95, 1000, n,
				    3800 + 10 * i + d) < 0) {
				fprintf(stderr, "bench-sim: audit cell %zu "
					"failed\n", i);
				exit(1);
			}
			printf("%-12s %-9s %3.0f%% %5zu | %6.3f %6.3f %6.3f "
			       "%7.1f\n", cell[i].what,
			       sim_noise_name(cell[i].noise), cell[i].cv * 100,
			       suite[d], r.fail, r.noisy, r.pass, r.pairs);
			fflush(stdout);
		}
}

/*
 * Part 10, a suite's cases measured by the same processes (issue 38 item
 * 4): each pair's base and head process slow every case they measure by
 * a factor of their own (log-sd COMMON), beside each case's own noise (CV
 * 5%), suites of 20, gate's defaults without the 60-pair cap. Each case is
 * judged on its own pairs, the processes' factor part of its noise: the
 * rates for identical code, a uniform regression of every case (+10%:
 * pass_excludes; +5%: the floor), and the same without the common factor.
 * SUITE_TRIALS sets the suites a cell (default 100).
 */
static void common_mode(void)
{
	static const double common[] = { 0, 0.10 };
	static const double effect[] = { 0, 0.05, 0.10 };
	const char *env = getenv("SUITE_TRIALS");
	size_t trials = env ? (size_t)strtoul(env, NULL, 10) : 100, i, k;

	printf("\nsuites of 20 cases sharing each pair's processes: a "
	       "process factor of log-sd\nCOMMON on every case it measures, "
	       "each case's own noise CV 5%%; %zu suites a cell\n\n",
	       trials);
	printf("%6s %6s | %6s %6s %6s %7s\n", "common", "effect", "fail",
	       "noisy", "pass", "pairs");
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		for (k = 0; k < sizeof(effect) / sizeof(effect[0]); k++) {
			struct sim_cell c = { .noise = SIM_LOGNORMAL,
				.cv = 0.05, .effect = effect[k], .suite = 20,
				.tail_x = 2, .common = common[i] };
			struct bench_cfg g;
			struct sim_result r;

			sim_default_cfg(&g);
			g.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
			if (sim_run(&r, &c, SIM_GATE, &g, 0.95, 1000, trials,
				    4400 + 10 * i + k) < 0) {
				fputs("bench-sim: common-mode cell failed\n",
				      stderr);
				exit(1);
			}
			printf("%5.0f%% %+5.0f%% | %6.3f %6.3f %6.3f %7.1f\n",
			       common[i] * 100, effect[k] * 100, r.fail,
			       r.noisy, r.pass, r.pairs);
			fflush(stdout);
		}
	/* one case unchanged while the other 19 get 10% faster: the
	   suite fails only when that case does (a faster case never
	   fails), so its fail rate is the unchanged case's */
	printf("\none case unchanged, the other 19 faster by 10%%: the "
	       "suite's fail rate is that case's\n\n");
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.05,
			.suite = 20, .tail_x = 2, .common = common[i],
			.others = -0.10 };
		struct bench_cfg g;
		struct sim_result r;

		sim_default_cfg(&g);
		g.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
		if (sim_run(&r, &c, SIM_GATE, &g, 0.95, 1000, trials,
			    4420 + i) < 0) {
			fputs("bench-sim: common-mode cell failed\n", stderr);
			exit(1);
		}
		printf("%5.0f%% %5s | %6.3f %6.3f %6.3f %7.1f\n",
		       common[i] * 100, "0/-10", r.fail, r.noisy, r.pass,
		       r.pairs);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	clock_t t0 = clock();

	gsl_set_error_handler_off();
	if (argc < 2 || argv[1][0] == 'i')
		options();
	if (argc < 2 || argv[1][0] == 't')
		table();
	if (argc < 2 || argv[1][0] == 'c')
		compare();
	/* `bench-sim b N`: N searches a cell (make bench-bisect) */
	if (argc < 2 || argv[1][0] == 'b')
		bisect(argc > 2 && argv[1][0] == 'b' &&
		       strtoul(argv[2], NULL, 10) > 0 ?
		       strtoul(argv[2], NULL, 10) : BISECT_TRIALS);
	if (argc < 2 || argv[1][0] == 'e')
		exact();
	if (argc < 2 || argv[1][0] == 'o')
		outlier();
	if (argc < 2 || argv[1][0] == 'T')
		tail();
	if (argc < 2 || argv[1][0] == 'A')
		audit();
	if (argc < 2 || argv[1][0] == 'S')
		common_mode();
	printf("\n(%.0f s of CPU)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	return 0;
}
