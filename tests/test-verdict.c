/*
 * Unit tests for gate/verdict.c and the pair order of gate/measure.c:
 * DESIGN.md's verdict rules at their boundaries, the suite's worst-of
 * rule and exit codes, and analysis of synthetic paired samples.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "gate/adaptive.h"
#include "gate/measure.h"
#include "gate/verdict.h"
#include "tests/harness.h"

static void test_verdict__rules(void)
{
	/* floor f = 5% unless given, pass_excludes m = 2f */
	static const struct {
		double est, low, high, floor;
		enum verdict want;
	} cases[] = {
		{ 1.12, 1.07, 1.18, 0.05, VERDICT_FAIL },	/* DESIGN's example */
		{ 1.12, 1.0499, 1.18, 0.05, VERDICT_NOISY },	/* low just under */
		{ 1.12, 1.0501, 1.18, 0.05, VERDICT_FAIL },	/* low just over */
		{ 1.06, 0.98, 1.09, 0.05, VERDICT_NOISY },
		{ 1.0499, 0.98, 1.09, 0.05, VERDICT_PASS },	/* estimate under */
		{ 1.0501, 0.98, 1.09, 0.05, VERDICT_NOISY },	/* estimate over */
		{ 1.00, 0.97, 1.03, 0.05, VERDICT_PASS },
		{ 1.00, 0.90, 1.0999, 0.05, VERDICT_PASS },	/* m just excluded */
		{ 1.00, 0.90, 1.10, 0.05, VERDICT_NOISY },	/* m not excluded */
		{ 0.80, 0.75, 0.85, 0.05, VERDICT_PASS },	/* improvement */
		{ 1.02, 1.01, 1.03, 0.00, VERDICT_FAIL },	/* zero floor */
		{ 1.31, 1.25, 1.40, 0.30, VERDICT_NOISY },
		{ 1.29, 1.25, 1.40, 0.30, VERDICT_PASS },
		/* no interval at this level: never a pass, never a fail */
		{ 1.00, -INFINITY, INFINITY, 0.05, VERDICT_NOISY },
		{ 0.70, -INFINITY, INFINITY, 0.05, VERDICT_NOISY },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(verdict_decide_rule(RULE_FLOOR, cases[i].est,
					  cases[i].low, cases[i].high,
					  cases[i].floor, 2 * cases[i].floor)
		      == cases[i].want);
	CHECK(verdict_decide_rule(RULE_FLOOR, NAN, 1.0, 1.1, 0.05, 0.1) ==
	      VERDICT_ERROR);
}

static void test_verdict__suite_and_exit_codes(void)
{
	enum verdict a[] = { VERDICT_PASS, VERDICT_NOISY, VERDICT_NEW };
	enum verdict b[] = { VERDICT_NOISY, VERDICT_FAIL, VERDICT_PASS };
	enum verdict c[] = { VERDICT_FAIL, VERDICT_ERROR };
	enum verdict d[] = { VERDICT_NEW };

	CHECK(verdict_suite(a, 3) == VERDICT_NOISY);
	CHECK(verdict_suite(b, 3) == VERDICT_FAIL);
	CHECK(verdict_suite(c, 2) == VERDICT_ERROR);
	CHECK(verdict_suite(d, 1) == VERDICT_PASS);
	CHECK(verdict_exit_code(VERDICT_PASS) == 0);
	CHECK(verdict_exit_code(VERDICT_FAIL) == 1);
	CHECK(verdict_exit_code(VERDICT_NOISY) == 2);
	CHECK(verdict_exit_code(VERDICT_ERROR) == 3);
}

static int analyse(struct bench_stats *st, const struct bench_run *br,
		   unsigned long seed)
{
	struct verdict_opts vo = { 0.025, 2000, 0, 0 };

	vo.seed = seed;
	return verdict_analyse(st, br, &vo);
}

/* Counts of metric m: base[i] and head[i] in pair i; other metrics NAN. */
static void synth_counts(struct bench_run *br, struct bench_cfg *cfg,
			 enum metric m, const double *base,
			 const double *head, size_t n)
{
	size_t i, k;

	memset(br, 0, sizeof(*br));
	memset(cfg, 0, sizeof(*cfg));
	cfg->name = (char *)"counted";
	cfg->metric = m;
	cfg->min_effect = 0.01;
	cfg->metrics[0].id = m;
	cfg->metrics[0].min_effect = 0.01;
	cfg->metrics[0].gating = 1;
	cfg->nmetrics = 1;
	cfg->pairs = (unsigned)n;
	br->cfg = cfg;
	br->pairs = calloc(n, sizeof(*br->pairs));
	br->npairs = n;
	for (i = 0; i < n; i++)
		for (k = 0; k < METRIC_COUNT; k++) {
			br->pairs[i].s[ARM_BASE].value[k] = NAN;
			br->pairs[i].s[ARM_HEAD].value[k] = NAN;
		}
	for (i = 0; i < n; i++) {
		br->pairs[i].s[ARM_BASE].value[m] = base[i];
		br->pairs[i].s[ARM_HEAD].value[m] = head[i];
	}
}

static void test_verdict__exact_counts_decide_without_interval(void)
{
	static const struct {
		double base, head;	/* every pair alike */
		enum verdict want;
		double ratio;
		const char *says;
	} cases[] = {
		/* 1.5% more work: fails against the 1% floor, every time */
		{ 14330000, 14545000, VERDICT_FAIL, 1.0150035, "above" },
		/* identical work: ratio exactly 1 */
		{ 14330000, 14330000, VERDICT_PASS, 1.0, "exactly" },
		/* 0.5% more: within the floor, not noisy */
		{ 1000000, 1005000, VERDICT_PASS, 1.005, "within" },
		/* fewer: a pass */
		{ 1000, 900, VERDICT_PASS, 0.9, "within" },
		/* nothing allocated in either arm: equal */
		{ 0, 0, VERDICT_PASS, 1.0, "exactly" },
		/* from none to some: compared as from 1 */
		{ 0, 3, VERDICT_FAIL, 4.0, "above" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double b[3], h[3];
		struct bench_cfg cfg;
		struct bench_run br;
		struct bench_stats st = { 0 };

		b[0] = b[1] = b[2] = cases[i].base;
		h[0] = h[1] = h[2] = cases[i].head;
		synth_counts(&br, &cfg, METRIC_ALLOCS, b, h, 3);
		CHECK(analyse(&st, &br, 1) == 0);
		CHECK(st.exact && !st.varies);
		CHECK(st.verdict == cases[i].want);
		/* relative: the ratio is a quotient of two exact counts */
		CHECK_NEAR(st.median, cases[i].ratio, 1e-6);
		CHECK(st.low == st.median && st.high == st.median);
		CHECK_CONTAINS(st.reason, cases[i].says);
		bench_stats_release(&st);
		free(br.pairs);
	}
}

static void test_verdict__exact_tolerance_boundary(void)
{
	/* spread 0.05% agrees; 0.5% varies and falls back to the interval */
	double b1[4] = { 100000, 100050, 100000, 100020 };
	double h1[4] = { 103000, 103000, 103040, 103000 };
	double b2[4] = { 100000, 100500, 100000, 100200 };
	double h2[4] = { 103000, 103000, 103400, 103000 };
	struct bench_cfg cfg;
	struct bench_run br;
	struct bench_stats st = { 0 };

	synth_counts(&br, &cfg, METRIC_INSTRUCTIONS, b1, h1, 4);
	CHECK(analyse(&st, &br, 1) == 0);
	CHECK(st.exact && st.verdict == VERDICT_FAIL);
	bench_stats_release(&st);
	free(br.pairs);

	memset(&st, 0, sizeof(st));
	synth_counts(&br, &cfg, METRIC_INSTRUCTIONS, b2, h2, 4);
	CHECK(analyse(&st, &br, 1) == 0);
	CHECK(!st.exact && st.varies);
	CHECK(st.level == 0.975);
	CHECK_CONTAINS(st.reason, "counts vary between samples");
	bench_stats_release(&st);
	free(br.pairs);
}

static void test_verdict__informational_metric_never_decides(void)
{
	double b[3] = { 100, 100, 100 }, h[3] = { 200, 200, 200 };
	struct bench_cfg cfg;
	struct bench_run br;
	struct bench_result res = { 0 };
	size_t i;

	synth_counts(&br, &cfg, METRIC_ALLOCS, b, h, 3);
	/* gating: instructions, equal; informational: allocs, doubled */
	cfg.metrics[1] = cfg.metrics[0];
	cfg.metrics[0].id = METRIC_INSTRUCTIONS;
	cfg.metrics[1].gating = 0;
	cfg.nmetrics = 2;
	for (i = 0; i < 3; i++) {
		br.pairs[i].s[ARM_BASE].value[METRIC_INSTRUCTIONS] = 5e6;
		br.pairs[i].s[ARM_HEAD].value[METRIC_INSTRUCTIONS] = 5e6;
	}
	CHECK(verdict_bench(&res, &br, &(struct verdict_opts){ 0.025, 2000, 1, 0 })
	      == VERDICT_PASS);
	CHECK(res.n == 2);
	CHECK(res.m[0].verdict == VERDICT_PASS && res.m[0].gating);
	CHECK(res.m[1].verdict == VERDICT_FAIL && !res.m[1].gating);
	CHECK(verdict_comparisons(&cfg) == 1);
	bench_result_release(&res);
	free(br.pairs);
}

/* A benchmark run whose head takes factor[i] times base in pair i. */
static void synth(struct bench_run *br, struct bench_cfg *cfg,
		  const double *factor, size_t n)
{
	size_t i;

	memset(br, 0, sizeof(*br));
	memset(cfg, 0, sizeof(*cfg));
	cfg->name = (char *)"synthetic";
	cfg->metric = METRIC_WALL;
	cfg->min_effect = 0.05;
	cfg->pairs = (unsigned)n;
	cfg->max_pairs = (unsigned)n;
	cfg->statistic = STATS_MEDIAN;
	cfg->interval = INTERVAL_PERCENTILE;
	cfg->target_halfwidth = 0.05;
	br->cfg = cfg;
	br->pairs = calloc(n, sizeof(*br->pairs));
	br->npairs = n;
	for (i = 0; i < n; i++) {
		br->pairs[i].s[ARM_BASE].wall = 0.1 + 0.001 * (double)i;
		br->pairs[i].s[ARM_HEAD].wall =
			br->pairs[i].s[ARM_BASE].wall * factor[i];
	}
}


static void test_verdict__analyse_doubled_work_fails(void)
{
	double f[12] = { 2.0, 1.9, 2.1, 2.05, 1.95, 2.0,
			 1.98, 2.02, 2.1, 1.9, 2.0, 2.01 };
	struct bench_cfg cfg;
	struct bench_run br;
	struct bench_stats st = { 0 };

	synth(&br, &cfg, f, 12);
	CHECK(analyse(&st, &br, 1) == 0);
	CHECK(st.verdict == VERDICT_FAIL);
	CHECK_NEAR(st.median, 2.0, 1e-12);	/* median of the table */
	CHECK(st.low > 1.9 && st.high <= 2.1);
	CHECK(st.head_slower == 12 && st.of == 12);
	CHECK(st.sign_p < 0.001);
	CHECK_CONTAINS(st.reason, "floor");
	bench_stats_release(&st);
	free(br.pairs);
}

static void test_verdict__analyse_identical_passes(void)
{
	double f[10] = { 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0,
			 1.0 };
	struct bench_cfg cfg;
	struct bench_run br;
	struct bench_stats st = { 0 };

	synth(&br, &cfg, f, 10);
	CHECK(analyse(&st, &br, 1) == 0);
	CHECK(st.verdict == VERDICT_PASS);
	CHECK(!st.improved);
	CHECK(st.of == 6);	/* exact ties (1.0) are not counted */
	CHECK_CONTAINS(st.reason, "excluded");
	bench_stats_release(&st);
	free(br.pairs);
}

static void test_verdict__analyse_spread_is_noisy(void)
{
	/* median +10% but half the pairs near no change: cannot tell */
	double f[10] = { 1.10, 0.95, 1.30, 1.0, 1.12, 0.9, 1.25, 1.02, 1.11,
			 0.97 };
	struct bench_cfg cfg;
	struct bench_run br;
	struct bench_stats st = { 0 };

	synth(&br, &cfg, f, 10);
	CHECK(analyse(&st, &br, 1) == 0);
	CHECK(st.median > 1.05);
	CHECK(st.verdict == VERDICT_NOISY);
	CHECK_CONTAINS(st.reason, "more pairs");
	bench_stats_release(&st);
	free(br.pairs);
}

static void test_verdict__same_seed_same_interval(void)
{
	double f[8] = { 1.1, 0.9, 1.3, 1.0, 1.2, 0.95, 1.05, 1.15 };
	struct bench_cfg cfg;
	struct bench_run br;
	struct bench_stats a = { 0 }, b = { 0 };

	/* replayable: --seed N must reproduce the report exactly */
	synth(&br, &cfg, f, 8);
	analyse(&a, &br, 42);
	analyse(&b, &br, 42);
	CHECK(a.low == b.low && a.high == b.high);
	bench_stats_release(&a);
	bench_stats_release(&b);
	free(br.pairs);
}

static void test_verdict__order_balanced_and_seeded(void)
{
	gsl_rng *r1 = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng *r2 = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng *r3 = gsl_rng_alloc(gsl_rng_mt19937);
	int a[20], b[20], odd[7];
	size_t i, trial, heads, moved = 0;

	gsl_rng_set(r1, 5);
	gsl_rng_set(r2, 5);
	for (trial = 0; trial < 50; trial++) {
		measure_order(a, 20, r1);
		measure_order(b, 20, r2);
		CHECK(memcmp(a, b, sizeof(a)) == 0);
		for (heads = 0, i = 0; i < 20; i++)
			heads += (size_t)a[i];
		CHECK(heads == 10);
		moved += a[0] != a[19];
		measure_order(odd, 7, r3);
		for (heads = 0, i = 0; i < 7; i++)
			heads += (size_t)odd[i];
		CHECK(heads == 3 || heads == 4);
	}
	CHECK(moved > 5);	/* shuffled, not a fixed pattern */
	gsl_rng_free(r1);
	gsl_rng_free(r2);
	gsl_rng_free(r3);
}

static void test_verdict__rules_significant_and_strict(void)
{
	static const struct {
		enum rule r;
		double est, low, high;
		double m;	/* pass_excludes */
		enum verdict want;
	} cases[] = {
		/* peers' rule: excludes no change and estimate over floor */
		{ RULE_SIGNIFICANT, 1.08, 1.01, 1.15, 0.10, VERDICT_FAIL },
		{ RULE_FLOOR, 1.08, 1.01, 1.15, 0.10, VERDICT_NOISY },
		{ RULE_SIGNIFICANT, 1.04, 1.01, 1.07, 0.10, VERDICT_PASS },
		{ RULE_SIGNIFICANT, 1.08, 0.99, 1.15, 0.10, VERDICT_NOISY },
		/* strict (m = f): a pass excludes regressions of the floor */
		{ RULE_FLOOR, 1.01, 0.97, 1.049, 0.05, VERDICT_PASS },
		{ RULE_FLOOR, 1.01, 0.97, 1.051, 0.05, VERDICT_NOISY },
		{ RULE_FLOOR, 1.01, 0.97, 1.051, 0.10, VERDICT_PASS },
		/* an interval that excludes nothing never passes */
		{ RULE_FLOOR, 1.01, -INFINITY, INFINITY, 0.10, VERDICT_NOISY },
		{ RULE_FLOOR, 1.01, -INFINITY, INFINITY, 0.05, VERDICT_NOISY },
		{ RULE_FLOOR, 1.20, -INFINITY, INFINITY, 0.10, VERDICT_NOISY },
		{ RULE_FLOOR, NAN, 1.0, 1.1, 0.10, VERDICT_ERROR },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(verdict_decide_rule(cases[i].r, cases[i].est,
					  cases[i].low, cases[i].high, 0.05,
					  cases[i].m) == cases[i].want);
}

static void test_verdict__hostile_never_gives_a_pass(void)
{
	struct bench_stats p = { 0 }, f = { 0 };

	p.verdict = VERDICT_PASS;
	p.reason = strdup("fine");
	f.verdict = VERDICT_FAIL;
	f.reason = strdup("slower");
	verdict_hostile(&p, "load rose");
	verdict_hostile(&f, "load rose");
	CHECK(p.verdict == VERDICT_NOISY);
	CHECK_CONTAINS(p.reason, "load rose");
	CHECK(f.verdict == VERDICT_FAIL);
	CHECK_CONTAINS(f.note, "load rose");
	bench_stats_release(&p);
	bench_stats_release(&f);
}

/* The looks' alphas add up to the benchmark's alpha: the union bound. */
static void test_verdict__looks_spend_alpha_exactly(void)
{
	static const unsigned sched[][2] = {
		{ 20, 60 }, { 12, 60 }, { 6, 6 }, { 4, 8 }, { 15, 100 },
		{ 100, 150 }, { 2, 3 },
	};
	size_t i, k;

	for (i = 0; i < sizeof(sched) / sizeof(sched[0]); i++) {
		struct bench_cfg cfg;
		double sum = 0;
		size_t looks;

		memset(&cfg, 0, sizeof(cfg));
		cfg.pairs = sched[i][0];
		cfg.max_pairs = sched[i][1];
		looks = adaptive_looks(&cfg);
		for (k = 0; k < looks; k++) {
			sum += 1 - adaptive_look_level(&cfg, 0.05, k);
			CHECK(adaptive_look_pairs(&cfg, k) <= cfg.max_pairs);
			if (k)
				CHECK(adaptive_look_pairs(&cfg, k) >
				      adaptive_look_pairs(&cfg, k - 1));
		}
		CHECK(adaptive_look_pairs(&cfg, looks - 1) == cfg.max_pairs);
		CHECK_NEAR(sum, 0.05, 1e-12);
		/* at least half at the first look */
		CHECK(1 - adaptive_look_level(&cfg, 0.05, 0) >= 0.025 - 1e-15);
	}
}

static const struct harness_test tests[] = {
	TEST(test_verdict__rules_significant_and_strict),
	TEST(test_verdict__hostile_never_gives_a_pass),
	TEST(test_verdict__looks_spend_alpha_exactly),
	TEST(test_verdict__rules),
	TEST(test_verdict__suite_and_exit_codes),
	TEST(test_verdict__analyse_doubled_work_fails),
	TEST(test_verdict__analyse_identical_passes),
	TEST(test_verdict__analyse_spread_is_noisy),
	TEST(test_verdict__same_seed_same_interval),
	TEST(test_verdict__order_balanced_and_seeded),
	TEST(test_verdict__exact_counts_decide_without_interval),
	TEST(test_verdict__exact_tolerance_boundary),
	TEST(test_verdict__informational_metric_never_decides),
};

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
