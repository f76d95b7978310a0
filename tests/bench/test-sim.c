/*
 * The promise, checked by simulation on gate's own decision code (adaptive
 * pairs and the Bonferroni correction included): identical code fails a
 * suite at most 1 - confidence of the time, a regression of pass_excludes
 * passes as rarely; intervals cover from 15 pairs.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "bench/sim.h"
#include "tests/harness.h"

/*
 * Trials: 100 suites of 20 benchmarks are 2,000 benchmark verdicts per
 * cell; bench-sim's full table (1,000 suites a cell) puts the procedure's
 * rates on identical code at or near 0, far below 0.05, so the fixed-seed
 * assertions are stable, and a procedure that leaked (no correction for
 * 20 benchmarks or for the looks) would fail them. Kept small for time:
 * each suite is up to 100 analyses of up to 60 pairs. The trial counts
 * below are the full size (make bench-tests); make check runs a quarter
 * of each (harness_trials), on the same seeds.
 */
#define SUITE_TRIALS 100
#define COVER_TRIALS 1500
#define FALSE_FAIL_LIMIT (0.05 + 3 * 0.0218)
/* The promise's cells: 9 single-benchmark and 9 suite-of-20 cells. */
#define PROMISE_TRIALS_1 300
#define PROMISE_TRIALS_20 40

static void check_false_fail(enum rule rule, enum sim_noise noise,
			     double cv, double effect, size_t suite)
{
	struct sim_cell c = { .noise = noise, .cv = cv, .effect = effect,
		.suite = suite };
	struct bench_cfg b;
	struct sim_result res;

	sim_default_cfg(&b);
	b.rule = rule;
	CHECK(sim_run(&res, &c, SIM_GATE, &b, 0.95, 1000, harness_trials(SUITE_TRIALS),
		      (unsigned long)(cv * 1000) + suite) == 0);
	/*
	 * One-sided bounds spend the whole alpha, and a fail is final, so
	 * the true rate may sit at 0.05 itself (the significant rule at CV
	 * 25% measured 0.050 over 400 suites): allow three binomial
	 * standard errors of SUITE_TRIALS over it (0.115). A procedure that
	 * leaked (no Bonferroni for 20 benchmarks) fails far above that.
	 */
	if (!(res.fail <= FALSE_FAIL_LIMIT))
		fprintf(stderr, "  %s rule, %s noise, CV %.0f%%, effect "
			"%+.1f%%, suite of %zu: false-fail rate %.3f\n",
			rule_name(rule), sim_noise_name(noise), cv * 100,
			effect * 100, suite, res.fail);
	CHECK(res.fail <= FALSE_FAIL_LIMIT);
}

static void test_sim__identical_code_rarely_fails(void)
{
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY,
						SIM_DRIFT };
	static const double cv[] = { 0.02, 0.10, 0.25 };
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			check_false_fail(RULE_FLOOR, noise[i], cv[j], 0, 20);
	/* the peers' rule leans on the interval alone: its hardest cells */
	for (i = 0; i < 3; i++)
		check_false_fail(RULE_SIGNIFICANT, noise[i], 0.25, 0, 20);
	/* half the floor is not a regression worth failing for either */
	check_false_fail(RULE_FLOOR, SIM_HEAVY, 0.10, 0.025, 20);
	check_false_fail(RULE_FLOOR, SIM_LOGNORMAL, 0.02, 0.025, 1);
}

/*
 * At the floor itself a fail is a coin the data must earn: the rate is
 * within alpha/2 for one benchmark under the default procedure, looks
 * included (the union bound over looks is what keeps it there).
 */
static void test_sim__boundary_rate_within_alpha(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.10,
		.effect = 0.05, .suite = 1 };
	struct bench_cfg b;
	struct sim_result res;

	sim_default_cfg(&b);
	CHECK(sim_run(&res, &c, SIM_GATE, &b, 0.95, 1000, 600, 11) == 0);
	if (!(res.fail <= 0.035))
		fprintf(stderr, "  fail rate at the floor: %.3f\n", res.fail);
	CHECK(res.fail <= 0.035);
}

/* A regression of twice the floor at CV 2% is caught, never passed. */
static void test_sim__twice_floor_is_caught(void)
{
	struct sim_cell c = { .noise = SIM_DRIFT, .cv = 0.02, .effect = 0.10,
		.suite = 20 };
	struct bench_cfg b;
	struct sim_result res;

	sim_default_cfg(&b);
	CHECK(sim_run(&res, &c, SIM_GATE, &b, 0.95, 1000, 50, 3) == 0);
	CHECK(res.fail >= 0.95);
	CHECK(res.pass == 0);
}

/*
 * The promise, both sides, for one cell: identical code fails the suite
 * at most 1 - confidence of the time, and with every benchmark slower by
 * pass_excludes (2x the floor) a suite in which any benchmark passes is
 * as rare. Fixed seeds; the rates are printed when a check fails.
 */
static void check_promise(enum sim_noise noise, double cv, size_t suite,
			  size_t trials)
{
	struct sim_cell same = { .noise = noise, .cv = cv, .suite = suite };
	struct sim_cell slower = { .noise = noise, .cv = cv, .effect = 0.10,
		.suite = suite };
	unsigned long seed = 7000 + (unsigned long)(cv * 1000) + suite +
			     100 * (unsigned long)noise;
	struct bench_cfg b;
	struct sim_result r0, r1;

	sim_default_cfg(&b);
	CHECK_NEAR(b.metrics[0].pass_excludes, 2 * b.min_effect, 0);
	CHECK(sim_run(&r0, &same, SIM_GATE, &b, 0.95, 1000, trials,
		      seed) == 0);
	CHECK(sim_run(&r1, &slower, SIM_GATE, &b, 0.95, 1000, trials,
		      seed + 1) == 0);
	if (!(r0.fail <= 0.05) || !(r1.any_pass <= 0.05))
		fprintf(stderr, "  %s noise, CV %.0f%%, suite of %zu: "
			"identical code fails %.3f, +10%% passes %.3f\n",
			sim_noise_name(noise), cv * 100, suite, r0.fail,
			r1.any_pass);
	CHECK(r0.fail <= 0.05);
	CHECK(r1.any_pass <= 0.05);
	/* the procedure still decides: +10% is not left noisy for ever */
	if (cv <= 0.02)
		CHECK(r1.fail >= 0.9);
}

static void test_sim__promise_single_benchmark(void)
{
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY,
						SIM_DRIFT };
	static const double cv[] = { 0.02, 0.10, 0.25 };
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			check_promise(noise[i], cv[j], 1,
				      harness_trials(PROMISE_TRIALS_1));
}

static void test_sim__promise_suite_of_20(void)
{
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY,
						SIM_DRIFT };
	static const double cv[] = { 0.02, 0.10, 0.25 };
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			check_promise(noise[i], cv[j], 20,
				      harness_trials(PROMISE_TRIALS_20));
}

/*
 * The audit's other two kinds of noise (issue 38): bimodal (1.25x in a
 * random 30% of samples) and AR(1) (log noise correlated 0.7 from one
 * sample to the next), at CV 10%, one benchmark and suites of 20.
 */
static void test_sim__promise_bimodal_and_ar1(void)
{
	static const enum sim_noise noise[] = { SIM_BIMODAL, SIM_AR1 };
	size_t i;

	for (i = 0; i < 2; i++) {
		check_promise(noise[i], 0.10, 1,
			      harness_trials(PROMISE_TRIALS_1));
		check_promise(noise[i], 0.10, 20,
			      harness_trials(PROMISE_TRIALS_20));
	}
}

/*
 * Pairs too few for an interval at the level can never pass: before, 4
 * pairs gave (0, inf) at one-sided 95% (2^-4 > 0.05), every estimate
 * within the floor passed, and a +10% regression under a 20% floor passed
 * every time.
 */
static void test_sim__too_few_pairs_never_pass(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.02,
		.effect = 0.10, .suite = 1 };
	struct bench_cfg b;
	struct sim_result r;

	sim_default_cfg(&b);
	b.pairs = b.max_pairs = 4;
	b.min_effect = b.metrics[0].min_effect = 0.20;
	b.metrics[0].pass_excludes = 0.40;
	CHECK(sim_run(&r, &c, SIM_GATE, &b, 0.95, 1000, 50, 5) == 0);
	CHECK(r.pass == 0 && r.noisy == 1);
}

static void test_sim__coverage_from_15_pairs(void)
{
	static const struct {
		enum stats_estimator e;
		enum interval_method m;
		enum sim_noise noise;
	} cases[] = {
		{ STATS_HL, INTERVAL_EXACT, SIM_LOGNORMAL },
		{ STATS_HL, INTERVAL_EXACT, SIM_HEAVY },
		{ STATS_HL, INTERVAL_EXACT, SIM_DRIFT },
		{ STATS_MEDIAN, INTERVAL_EXACT, SIM_HEAVY },
		{ STATS_MEAN, INTERVAL_EXACT, SIM_LOGNORMAL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_cell c = { .noise = cases[i].noise, .cv = 0.10,
			.effect = 0.05, .suite = 1 };
		struct bench_cfg b;
		double cover;

		sim_default_cfg(&b);
		b.statistic = cases[i].e;
		b.interval = cases[i].m;
		cover = sim_coverage(&c, &b, 15, 0.95, 1000,
				     harness_trials(COVER_TRIALS),
				     100 + i);
		if (!(cover >= 0.93))
			fprintf(stderr, "  %s %s, %s noise: coverage %.3f\n",
				stats_estimator_name(cases[i].e),
				interval_name(cases[i].m),
				sim_noise_name(cases[i].noise), cover);
		CHECK(cover >= 0.93);
	}
}

/*
 * Issue 11, defect 7: every estimator and interval config accepts keeps
 * each one-sided bound's error within alpha, at the levels gate uses: 20
 * benchmarks' first look (alpha 0.00125) from 10 pairs, and one
 * benchmark's first look (0.0125) from 20 pairs, where the bootstrap is
 * drawn. 8,000 datasets tell an error of 0.45% (36 expected misses) from
 * 0.125% (alpha itself, 10 of 8,000): the bound is 0.25%, twice alpha
 * (20 of 8,000; a bound at exactly alpha would miss more than that with
 * probability 0.002). Before the fix percentile missed 0.53% (median)
 * and 1.3% (mean) at 0.00125.
 */
#define ONESIDED_TRIALS 8000

static void check_onesided(enum stats_estimator e, enum interval_method m,
			   enum sim_noise noise, size_t n, double alpha,
			   double bound, unsigned resamples, size_t trials,
			   unsigned long seed)
{
	struct sim_cell c = { .noise = noise, .cv = 0.10, .effect = 0.05,
		.suite = 1 };
	struct bench_cfg b;
	struct sim_cover cv;

	sim_default_cfg(&b);
	b.statistic = e;
	b.interval = m;
	CHECK(sim_coverage_onesided(&cv, &c, &b, n, alpha, resamples, trials,
				    seed) == 0);
	if (!(cv.below <= bound && cv.above <= bound))
		fprintf(stderr, "  %s %s, %s noise, n %zu, alpha %g: lower "
			"bound above the truth %.4f, upper below %.4f "
			"(allowed %.4f)\n", stats_estimator_name(e),
			interval_name(m), sim_noise_name(noise), n, alpha,
			cv.below, cv.above, bound);
	CHECK(cv.below <= bound);
	CHECK(cv.above <= bound);
}

static void test_sim__every_interval_holds_its_one_sided_level(void)
{
	static const enum stats_estimator est[] = { STATS_MEDIAN, STATS_HL,
						    STATS_MEAN };
	static const enum interval_method how[] = { INTERVAL_EXACT,
		INTERVAL_PERCENTILE, INTERVAL_BCA };
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY };
	size_t i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 2; k++)
				check_onesided(est[i], how[j], noise[k], 10,
					       0.00125, 0.0025, 1000,
					       ONESIDED_TRIALS,
					       200 + 10 * i + 3 * j + k);
}

/*
 * One benchmark's first look from 20 pairs: here the bootstrap is drawn
 * (2,000 resamples resolve the widened tail), so this is the bootstrap's
 * own path. 0.0125 allowed; 3,000 datasets (37.5 misses at alpha), bound
 * 0.02 (60). Hodges-Lehmann's bootstrap is slow: 800 datasets, bound
 * 0.025 (20; 10 at alpha).
 */
static void test_sim__bootstrap_holds_its_one_sided_level(void)
{
	static const enum stats_estimator est[] = { STATS_MEDIAN, STATS_MEAN,
						    STATS_HL };
	static const enum interval_method how[] = { INTERVAL_PERCENTILE,
						    INTERVAL_BCA };
	static const enum sim_noise noise[] = { SIM_LOGNORMAL, SIM_HEAVY };
	size_t i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 2; k++)
				check_onesided(est[i], how[j], noise[k], 20,
					       0.0125, est[i] == STATS_HL ?
					       0.025 : 0.02, 2000,
					       harness_trials(est[i] == STATS_HL ?
							      800 : 3000),
					       300 + 10 * i + 3 * j + k);
}

/*
 * gate bisect with a regression between the floor and twice it (+7%
 * against 5%, CV 5%, 8 commits): a step's pass read as "good" named the
 * wrong commit in 20% of searches (bench-sim b); deciding good only when
 * a run excludes a regression of the floor, with more pairs when unsure,
 * keeps it within 5%. The old rule through the same harness shows the
 * harness can see the difference.
 */
static void test_sim__bisect_names_the_right_commit(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.05,
		.effect = 0.07, .suite = 1 };
	struct bench_cfg b;
	struct sim_bisect now, before;

	sim_default_cfg(&b);
	b.max_pairs = 400;
	CHECK(sim_bisect(&now, &c, &b, 8, SIM_BISECT_NOW, harness_trials(200),
			 5) == 0);
	CHECK(sim_bisect(&before, &c, &b, 8, SIM_BISECT_PASS_GOOD,
			 harness_trials(200), 5) == 0);
	if (!(now.wrong <= 0.05) || !(before.wrong > 0.10))
		fprintf(stderr, "  bisect wrong commit: now %.3f, before "
			"%.3f\n", now.wrong, before.wrong);
	CHECK(now.wrong <= 0.05);
	CHECK(before.wrong > 0.10);
	/* and it still finds it most of the time it reproduces */
	CHECK(now.right >= 0.6);
}

/*
 * Exact counts near the floor (issue 25 item 4): a count jittering within
 * the 0.1% exact tolerance (+-0.05% a sample), floor 0.2%, 20 pairs, one
 * look at one-sided 2.5%. The median rule failed a true +0.19% 18.7% of
 * the time (35.9% from 3 pairs) and a change at the floor half the time;
 * deciding on the smallest and largest pair ratios, the interval where
 * they straddle the floor, keeps both within alpha, and +0.25% still
 * fails every time.
 */
static void test_sim__exact_counts_near_the_floor(void)
{
	double fail, pass;

	CHECK(sim_exact(&fail, &pass, 0.0019, 0.0005, 0.002, 20, 0.025,
			harness_trials(2000),
			33) == 0);
	if (!(fail <= 0.025))
		fprintf(stderr, "  +0.19%%: fail rate %.3f\n", fail);
	CHECK(fail <= 0.025);
	CHECK(pass >= 0.5);
	CHECK(sim_exact(&fail, &pass, 0.002, 0.0005, 0.002, 20, 0.025,
			harness_trials(2000),
			34) == 0);
	if (!(fail <= 0.025 + 3 * 0.0035))
		fprintf(stderr, "  at the floor: fail rate %.3f\n", fail);
	CHECK(fail <= 0.025 + 3 * 0.0035);
	CHECK(sim_exact(&fail, &pass, 0.0025, 0.0005, 0.002, 20, 0.025, 500,
			35) == 0);
	CHECK(fail >= 0.95);
	/* from 3 pairs (the median failed 51.8% at the floor): only what
	   lies beyond the jitter is decided without the interval */
	CHECK(sim_exact(&fail, &pass, 0.002, 0.0005, 0.002, 3, 0.025, 1000,
			36) == 0);
	CHECK(fail <= 0.025);
	CHECK(sim_exact(&fail, &pass, 0.004, 0.0005, 0.002, 3, 0.025, 500,
			37) == 0);
	CHECK(fail >= 0.8);
	CHECK(sim_exact(&fail, &pass, 0, 0.0005, 0.002, 3, 0.025, 500,
			38) == 0);
	CHECK(pass >= 0.8);
}

/*
 * One extreme head sample (issue 25 item 6): at the floor, CV 10%, one
 * head sample of the first look 10 times its value. Before, a rank bound
 * counted that pair on the high side whatever its true value: 20 pairs
 * in one look failed 8.1% (4.7% without it), gate's adaptive looks 5.8%
 * (3.2%), over 8,000 trials (bench-sim o). Each bound now leaves out the
 * extreme pairs that would push it: 4.5% and 3.3%. Limits: the promise,
 * 0.05, for the adaptive looks (3,000 trials: 0.058 before, 0.033 now,
 * each over 3 standard errors from it); for one look, which spends the
 * whole alpha at once, 0.05 plus three standard errors of 2,000 trials
 * (0.064: 0.081 before).
 */
static void test_sim__one_extreme_sample_at_the_floor(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.10,
		.effect = 0.05, .suite = 1, .outlier = 10 };
	struct bench_cfg b;
	struct sim_result one, adaptive, twice;

	sim_default_cfg(&b);
	CHECK(sim_run(&adaptive, &c, SIM_GATE, &b, 0.95, 1000,
		      harness_trials(3000), 63) ==
	      0);
	b.max_pairs = b.pairs;
	CHECK(sim_run(&one, &c, SIM_GATE, &b, 0.95, 1000,
		      harness_trials(2000), 62) == 0);
	if (!(adaptive.fail <= 0.05) || !(one.fail <= 0.064))
		fprintf(stderr, "  fail rate at the floor with one extreme "
			"sample: adaptive %.4f, one look %.4f\n",
			adaptive.fail, one.fail);
	CHECK(adaptive.fail <= 0.05);
	CHECK(one.fail <= 0.064);
	/* and it still catches twice the floor as often as without it */
	c.effect = 0.10;
	sim_default_cfg(&b);
	CHECK(sim_run(&twice, &c, SIM_GATE, &b, 0.95, 1000, 500, 64) == 0);
	CHECK(twice.pass <= 0.05);
	CHECK(twice.fail >= 0.45);
}

/*
 * A slow tail (issues 25 and 38): head twice as long in 10% of samples
 * (+10% mean time), CV 2%, one benchmark, gate's defaults without the
 * simulator's 60-pair cap (max_pairs 2000, the 300 s budget). Hodges-
 * Lehmann alone passes it; so did the 5%-trimmed mean of the log-ratios,
 * 100% of 400 trials (bench-sim A: it sets the tail itself aside, about
 * +4% here). A pass must now also exclude +10% in the ratio of the arms'
 * means, the mean time's change: 16.5% of 400 trials pass (mostly runs
 * whose first 20 pairs hold no slow sample, 12% of them), the rest end
 * noisy after some 1,200 pairs. The limit, 0.30, is 3.6 standard errors
 * of 100 trials above that; the fail rule is untouched (identical code
 * keeps its false-fail rate: the promise tests above).
 */
static void test_sim__slow_tail_is_not_passed_silently(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.02, .suite = 1,
		.tail_p = 0.1, .tail_x = 2 };
	struct bench_cfg b;
	struct sim_result r;

	sim_default_cfg(&b);
	b.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
	CHECK(sim_run(&r, &c, SIM_GATE, &b, 0.95, 1000,
		      harness_trials(100), 65) == 0);
	if (!(r.pass <= 0.30))
		fprintf(stderr, "  a slow tail passes %.3f\n", r.pass);
	CHECK(r.pass <= 0.30);
	CHECK(r.fail <= 0.05);
}

/*
 * Each trial's run owns a fresh copy of the config (issue 38 item 5): a
 * budget that caps max_pairs (plan_to_budget: 2000 pairs of 0.2 s cannot
 * fit 300 s) must neither change the caller's prototype nor carry into
 * the next trial, so the same seed gives the same mean pairs twice.
 * Before, proto's max_pairs came back at the first trial's cap and the
 * second call ran to it.
 */
static void test_sim__each_trial_builds_its_config_afresh(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.25,
		.effect = 0.05, .suite = 2 };
	struct bench_cfg b, keep;
	struct sim_result r1, r2;

	sim_default_cfg(&b);
	b.max_pairs = 2000;
	keep = b;
	CHECK(sim_run(&r1, &c, SIM_GATE, &b, 0.95, 1000, 3, 71) == 0);
	CHECK(b.max_pairs == keep.max_pairs);
	CHECK(memcmp(&b, &keep, sizeof(b)) == 0);
	CHECK(sim_run(&r2, &c, SIM_GATE, &b, 0.95, 1000, 3, 71) == 0);
	CHECK(r1.pairs == r2.pairs);
	CHECK(r1.fail == r2.fail && r1.noisy == r2.noisy);
}

/*
 * A suite's cases measured by the same processes (issue 38 item 4): each
 * pair's processes slow every case they measure by a factor of log-sd
 * 10%, each case's own noise CV 5%, suites of 20. Each case is judged on
 * its own pairs (the factor part of its noise): identical code never
 * fails beyond the promise, and a uniform +10% regression of every case
 * can never pass (bench-sim S: 0 of 100; 42% fail, the rest noisy), where
 * judging each case against its suite's others passed it 96.5% of the
 * time (the audit). 40 suites a cell.
 */
static void test_sim__uniform_regression_never_passes(void)
{
	struct sim_cell same = { .noise = SIM_LOGNORMAL, .cv = 0.05,
		.suite = 20, .tail_x = 2, .common = 0.10 };
	struct sim_cell slower = { .noise = SIM_LOGNORMAL, .cv = 0.05,
		.effect = 0.10, .suite = 20, .tail_x = 2, .common = 0.10 };
	struct bench_cfg b;
	struct sim_result r0, r1;

	sim_default_cfg(&b);
	b.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
	CHECK(sim_run(&r0, &same, SIM_GATE, &b, 0.95, 1000, 40, 4401) == 0);
	CHECK(sim_run(&r1, &slower, SIM_GATE, &b, 0.95, 1000, 40, 4402) == 0);
	if (!(r0.fail <= 0.05) || !(r1.pass == 0) || !(r1.any_pass <= 0.05))
		fprintf(stderr, "  common-mode noise: identical fail %.3f, "
			"uniform +10%% pass %.3f (a case passed in %.3f)\n",
			r0.fail, r1.pass, r1.any_pass);
	CHECK(r0.fail <= 0.05);
	CHECK(r1.pass == 0);
	CHECK(r1.any_pass <= 0.05);
}

/*
 * Item 4's other case: one case unchanged while the suite's other 19 get
 * 10% faster, under the same process factor (log-sd 10%). A case is
 * judged on its own values, so the others' speed-up cannot blame it
 * (bench-sim S: 0 of 100 failed, 13% noisy); judging it against its
 * suite read the others' -10% as its own +10%. A faster case never
 * fails, so the suite's fail rate is the unchanged case's. 40 suites.
 */
static void test_sim__unchanged_case_not_blamed_for_others(void)
{
	struct sim_cell c = { .noise = SIM_LOGNORMAL, .cv = 0.05,
		.suite = 20, .tail_x = 2, .common = 0.10, .others = -0.10 };
	struct bench_cfg b;
	struct sim_result r;

	sim_default_cfg(&b);
	b.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
	CHECK(sim_run(&r, &c, SIM_GATE, &b, 0.95, 1000, 40, 4403) == 0);
	if (!(r.fail <= 0.05))
		fprintf(stderr, "  the unchanged case fails %.3f\n", r.fail);
	CHECK(r.fail <= 0.05);
}

static const struct harness_test tests[] = {
	TEST(test_sim__identical_code_rarely_fails),
	TEST(test_sim__boundary_rate_within_alpha),
	TEST(test_sim__twice_floor_is_caught),
	TEST(test_sim__coverage_from_15_pairs),
	TEST(test_sim__every_interval_holds_its_one_sided_level),
	TEST(test_sim__bootstrap_holds_its_one_sided_level),
	TEST(test_sim__promise_single_benchmark),
	TEST(test_sim__promise_suite_of_20),
	TEST(test_sim__promise_bimodal_and_ar1),
	TEST(test_sim__too_few_pairs_never_pass),
	TEST(test_sim__bisect_names_the_right_commit),
	TEST(test_sim__exact_counts_near_the_floor),
	TEST(test_sim__one_extreme_sample_at_the_floor),
	TEST(test_sim__slow_tail_is_not_passed_silently),
	TEST(test_sim__each_trial_builds_its_config_afresh),
	TEST(test_sim__uniform_regression_never_passes),
	TEST(test_sim__unchanged_case_not_blamed_for_others),
};

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
