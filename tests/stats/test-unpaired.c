/*
 * Unit tests for the unpaired Hodges-Lehmann shift (stats/unpaired.c) that
 * gate compare decides with: depths, estimates and bounds against scipy
 * (tests/ref/shift-ref.h), the selection against every difference sorted,
 * the normal law against the exact one, the smallest inputs, and the
 * error rates of the decision, by simulation with fixed seeds; the
 * Mann-Whitney test and the bootstrap of a ratio against scipy
 * (tests/ref/unpaired-ref.h, rank-ref.h).
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "gate/decide/verdict.h"
#include "tests/harness.h"
#include "tests/stats/fixture.h"
#include "tests/ref/rank-ref.h"
#include "tests/ref/shift-ref.h"
#include "tests/ref/unpaired-ref.h"
#include "common/banned.h"

static void test_unpaired__shift_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(shift_ref); i++) {
		const struct shift_ref *c = &shift_ref[i];
		struct stats_shift s;

		CHECK(stats_hl_shift(&s, c->x, c->nx, c->y, c->ny,
				     c->tail, NULL) == 0);
		if (s.depth != c->depth)
			fprintf(stderr, "case %s\n", c->name);
		CHECK(s.depth == c->depth);
		CHECK(s.exact);
		/* the same subtraction picked by rank: equal to the bit */
		CHECK_NEAR(s.estimate, c->estimate, 1e-12);
		if (isinf(c->low)) {
			CHECK(s.low == -INFINITY && s.high == INFINITY);
		} else {
			CHECK_NEAR(s.low, c->low, 1e-12);
			CHECK_NEAR(s.high, c->high, 1e-12);
		}
		/* y against x is minus x against y */
		CHECK(stats_hl_shift(&s, c->y, c->ny, c->x, c->nx,
				     c->tail, NULL) == 0);
		CHECK_NEAR(s.estimate, -c->estimate, 1e-12);
		if (!isinf(c->low))
			CHECK_NEAR(s.low, -c->high, 1e-12);
	}
}

static void test_unpaired__depth_matches_exact_law(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(shift_ref_depth); i++) {
		const struct shift_ref_depth *c = &shift_ref_depth[i];
		int exact = 0;

		CHECK(stats_mwu_depth_exact(c->nx, c->ny, c->tail) == c->depth);
		CHECK(stats_mwu_depth_exact(c->ny, c->nx, c->tail) == c->depth);
		CHECK(stats_mwu_depth(c->nx, c->ny, c->tail, &exact) ==
		      c->depth);
		CHECK(exact == 1);
	}
	CHECK(stats_mwu_depth(5, 5, 0.5, NULL) == 0);
	CHECK(stats_mwu_depth(5, 5, 0, NULL) == 0);
	CHECK(stats_mwu_depth(0, 5, 0.05, NULL) == 0);
}

static void test_unpaired__min_n_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(shift_ref_min_n); i++) {
		const struct shift_ref_min_n *c = &shift_ref_min_n[i];
		size_t n = stats_shift_min_n(c->tail);

		CHECK(n == c->n);
		/* the minimum is where a bound first exists */
		CHECK(stats_mwu_depth(n, n, c->tail, NULL) >= 1);
		if (n > 1)
			CHECK(stats_mwu_depth(n - 1, n - 1, c->tail, NULL) == 0);
	}
	CHECK(stats_shift_min_n(0.5) == 0);
	CHECK(stats_shift_min_n(0) == 0);
	CHECK(stats_shift_min_n(NAN) == 0);
}

/*
 * The normal law is used only where the exact one costs too much, and must
 * never give a deeper (narrower) bound than the exact law: checked where
 * both can be computed, from the sizes just past the exact limit's shape
 * (a small side against a large one, and equal sides) and at every tail a
 * suite can ask for. Nor wasteful where it is used (tails a suite of up
 * to a thousand cases asks for): within 15% of a standard deviation of U
 * (the normal tail is far heavier than U's at 1e-9, where it may waste
 * more; the small sides against large ones are where it is worst).
 */
static void test_unpaired__normal_depth_is_conservative(void)
{
	static const size_t sizes[][2] = {
		{ 8, 1500 }, { 12, 900 }, { 30, 400 }, { 60, 60 },
		{ 120, 150 }, { 250, 250 }, { 350, 350 },
	};
	static const double tails[] = {
		0.45, 0.3, 0.2, 0.1, 0.05, 0.0416, 0.03, 0.025, 0.01, 0.0025,
		1e-3, 1e-5, 5e-7, 1e-9,
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		double a = (double)sizes[i][0], b = (double)sizes[i][1];
		double sd = sqrt(a * b * (a + b + 1) / 12);

		for (j = 0; j < ARRAY_SIZE(tails); j++) {
			size_t e = stats_mwu_depth_exact(sizes[i][0],
							 sizes[i][1], tails[j]);
			size_t n = stats_mwu_depth_normal(sizes[i][0],
							  sizes[i][1],
							  tails[j]);

			int near = tails[j] < 1e-3 ||
				   (double)(e - n) <= 0.15 * sd + 1;

			if (n > e || !near)
				fprintf(stderr, "%zu x %zu at %g: normal %zu, "
					"exact %zu\n", sizes[i][0],
					sizes[i][1], tails[j], n, e);
			CHECK(n <= e);
			CHECK(near);
		}
	}
}

static void test_unpaired__kth_matches_sorted_differences(void)
{
	gsl_rng *r = rng_seeded(11);
	size_t trial;

	for (trial = 0; trial < 300; trial++) {
		size_t nx = 1 + gsl_rng_uniform_int(r, 25);
		size_t ny = 1 + gsl_rng_uniform_int(r, 25);
		double x[25], y[25], *d = xmalloc(nx * ny * sizeof(*d));
		/* a third of the trials on a coarse grid: many ties */
		double grid = trial % 3 ? 0 : 4;
		size_t i, j, k = 0;

		for (i = 0; i < nx; i++)
			x[i] = grid ? floor(gsl_rng_uniform(r) * grid) :
			       gsl_ran_gaussian(r, 1);
		for (j = 0; j < ny; j++)
			y[j] = grid ? floor(gsl_rng_uniform(r) * grid) :
			       gsl_ran_gaussian(r, 1) + 0.5;
		qsort(x, nx, sizeof(*x), cmp_double);
		qsort(y, ny, sizeof(*y), cmp_double);
		for (i = 0; i < nx; i++)
			for (j = 0; j < ny; j++)
				d[k++] = y[j] - x[i];
		qsort(d, k, sizeof(*d), cmp_double);
		for (k = 1; k <= nx * ny; k++)
			if (stats_shift_kth(x, nx, y, ny, k) != d[k - 1]) {
				fprintf(stderr, "trial %zu: %zu x %zu, k %zu\n",
					trial, nx, ny, k);
				CHECK(0);
				break;
			}
		CHECK(isnan(stats_shift_kth(x, nx, y, ny, 0)));
		CHECK(isnan(stats_shift_kth(x, nx, y, ny, nx * ny + 1)));
		free(d);
	}
	gsl_rng_free(r);
}

/*
 * 2,000 by 200,000 values (4e8 differences, never formed): the k-th found
 * is checked by counting, in O(nx + ny), the differences below it.
 */
static void test_unpaired__kth_of_a_large_input(void)
{
	size_t nx = 2000, ny = 200000, i, j, below, atmost, t;
	double *x = xmalloc(nx * sizeof(*x)), *y = xmalloc(ny * sizeof(*y));
	static const size_t ks[] = { 1, 77777, 200000000, 399999999,
				     400000000 };
	gsl_rng *r = rng_seeded(5);

	for (i = 0; i < nx; i++)
		x[i] = floor(gsl_rng_uniform(r) * 5000) / 8;
	for (j = 0; j < ny; j++)
		y[j] = floor(gsl_rng_uniform(r) * 90000) / 8;
	qsort(x, nx, sizeof(*x), cmp_double);
	qsort(y, ny, sizeof(*y), cmp_double);
	for (t = 0; t < ARRAY_SIZE(ks); t++) {
		double v = stats_shift_kth(x, nx, y, ny, ks[t]);
		size_t jl = 0, je = 0;

		below = atmost = 0;
		for (i = 0; i < nx; i++) {
			while (jl < ny && y[jl] - x[i] < v)
				jl++;
			while (je < ny && y[je] - x[i] <= v)
				je++;
			below += jl;
			atmost += je;
		}
		CHECK(below < ks[t] && ks[t] <= atmost);
	}
	/* and the whole shift, with its normal-law bounds */
	{
		struct stats_shift s;

		CHECK(stats_hl_shift(&s, x, nx, y, ny, 0.01, NULL) == 0);
		CHECK(!s.exact);
		CHECK(s.low <= s.estimate && s.estimate <= s.high);
		CHECK(isfinite(s.low) && isfinite(s.high));
	}
	gsl_rng_free(r);
	free(x);
	free(y);
}

static void test_unpaired__smallest_inputs(void)
{
	struct stats_shift s;
	const double one[] = { 2.0 }, two[] = { 1.0, 3.0 };
	const double a3[] = { 1.0, 2.0, 3.0 }, b3[] = { 4.0, 5.0, 6.0 };
	const double same[] = { 7.0, 7.0, 7.0, 7.0 };

	/* n = 1: an estimate, no bound at any tail */
	CHECK(stats_hl_shift(&s, one, 1, (const double[]){ 5.0 }, 1,
			     0.49, NULL) == 0);
	CHECK(s.estimate == 3.0 && s.depth == 0);
	CHECK(s.low == -INFINITY && s.high == INFINITY);
	/* n = 2: 1/C(4,2) = 1/6, a bound at 0.2 but not at 0.1 */
	CHECK(stats_hl_shift(&s, two, 2, (const double[]){ 4.0, 8.0 }, 2,
			     0.2, NULL) == 0);
	CHECK(s.depth == 1 && s.low == 1.0 && s.high == 7.0);
	CHECK(s.estimate == 4.0);	/* differences 1, 3, 5, 7 */
	CHECK(stats_hl_shift(&s, two, 2, (const double[]){ 4.0, 8.0 }, 2,
			     0.1, NULL) == 0);
	CHECK(s.depth == 0 && isinf(s.low));
	/* exactly the minimum: 3 per side at 0.05 (1/20), none at 0.0499 */
	CHECK(stats_hl_shift(&s, a3, 3, b3, 3, 0.05, NULL) == 0);
	CHECK(s.depth == 1 && s.low == 1.0 && s.high == 5.0 &&
	      s.estimate == 3.0);
	CHECK(stats_hl_shift(&s, a3, 3, b3, 3, 0.0499, NULL) == 0);
	CHECK(s.depth == 0);
	/* all equal: no shift, bounds on it */
	CHECK(stats_hl_shift(&s, same, 4, same, 4, 0.02, NULL) == 0);
	CHECK(s.depth == 1 && s.estimate == 0 && s.low == 0 && s.high == 0);
	/* ties across the sides */
	CHECK(stats_hl_shift(&s, (const double[]){ 1, 1, 2, 2 }, 4,
			     (const double[]){ 2, 2, 3, 3 }, 4, 0.025, NULL) == 0);
	CHECK(s.estimate == 1.0 && s.low == 0.0 && s.high == 2.0);
}

static void test_unpaired__refuses_bad_input(void)
{
	struct stats_shift s;
	const double x[] = { 1, 2, 3 }, bad[] = { 1, NAN, 3 };
	char cap[256];

	error_capture(cap, sizeof(cap), 1);
	CHECK(stats_hl_shift(&s, x, 0, x, 3, 0.05, NULL) < 0);
	CHECK(stats_hl_shift(&s, x, 3, bad, 3, 0.05, NULL) < 0);
	CHECK_CONTAINS(cap, "value 2 of the second sample");
	CHECK(stats_hl_shift(&s, (const double[]){ INFINITY }, 1, x, 3,
			     0.05, NULL) < 0);
	CHECK(stats_hl_shift(&s, x, 3, x, 3, 0.5, NULL) < 0);
	CHECK(stats_hl_shift(&s, x, 3, x, 3, 0, NULL) < 0);
	error_capture(NULL, 0, 0);
}

/*
 * gate compare's decision for one case: the shift of log NEW against log
 * OLD, as ratios, decided by the rule gate run uses (floor f, pass_excludes
 * 2f). The caller's rng draws lognormal values with sd s of the log.
 */
static enum verdict compare_case(gsl_rng *r, size_t n, double ratio,
				 double s, double tail, double floor)
{
	double x[64], y[64];
	struct stats_shift sh;
	size_t i;

	for (i = 0; i < n; i++) {
		x[i] = gsl_ran_gaussian(r, s);
		y[i] = log(ratio) + gsl_ran_gaussian(r, s);
	}
	if (stats_hl_shift(&sh, x, n, y, n, tail, NULL) < 0)
		return VERDICT_ERROR;
	return verdict_decide_rule(RULE_FLOOR, exp(sh.estimate), exp(sh.low),
				   exp(sh.high), floor, 2 * floor);
}

/* Monte-Carlo slack: 3 standard errors of a rate p over runs draws. */
static double mc_slack(double p, size_t runs)
{
	return 3 * sqrt(p * (1 - p) / (double)runs);
}

/*
 * Issue 11, defect 1: the true ratio exactly at the floor must fail with
 * probability at most alpha. The bootstrap of the ratio of medians that
 * gate compare used failed 16-17% at n = 2 (2.5% allowed).
 */
static void test_unpaired__fail_rate_at_the_floor_within_alpha(void)
{
	static const size_t ns[] = { 2, 3, 5 };
	static const double tails[] = { 0.05, 0.025 };
	const size_t runs = 20000;
	size_t i, t, k;

	for (t = 0; t < ARRAY_SIZE(tails); t++)
		for (i = 0; i < ARRAY_SIZE(ns); i++) {
			gsl_rng *r = rng_seeded(1000 + 10 * t + i);
			size_t fails = 0, errors = 0;
			double rate;

			for (k = 0; k < runs; k++) {
				enum verdict v = compare_case(r, ns[i], 1.05,
							      0.05, tails[t],
							      0.05);

				fails += v == VERDICT_FAIL;
				errors += v == VERDICT_ERROR;
			}
			rate = (double)fails / (double)runs;
			if (rate > tails[t] + mc_slack(tails[t], runs))
				fprintf(stderr, "n=%zu tail %g: fail rate %.4f\n",
					ns[i], tails[t], rate);
			CHECK(errors == 0);
			CHECK(rate <= tails[t] + mc_slack(tails[t], runs));
			gsl_rng_free(r);
		}
}

/*
 * Identical code, a suite of 20 cases at CV 5%, confidence 95%: no suite
 * may fail more often than 5% (the old bootstrap: about 47% at n = 2). At
 * n = 2 no bound exists at 0.25% per bound, so every case is noisy, never
 * a pass or a fail; at n = 8 the bounds exist and the suite-wide rate
 * holds.
 */
static void test_unpaired__identical_suite_never_fails(void)
{
	static const size_t ns[] = { 2, 8 };
	const size_t suites = 2000, cases = 20;
	const double tail = 0.05 / 20;
	size_t i, s, c;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		gsl_rng *r = rng_seeded(77 + i);
		size_t failed = 0, passes = 0;

		for (s = 0; s < suites; s++) {
			int fail = 0;

			for (c = 0; c < cases; c++) {
				enum verdict v = compare_case(r, ns[i], 1.0,
							      0.05, tail,
							      0.05);

				fail |= v == VERDICT_FAIL;
				passes += v == VERDICT_PASS;
			}
			failed += fail;
		}
		if (ns[i] == 2) {
			CHECK(failed == 0);
			CHECK(passes == 0);	/* too few: noisy */
		} else {
			CHECK((double)failed / (double)suites <=
			      0.05 + mc_slack(0.05, suites));
			CHECK(passes > 0);	/* and it can pass */
		}
		gsl_rng_free(r);
	}
}

/*
 * The other side of the promise, for one case: a regression of 2f (the
 * default pass_excludes) passes at most alpha of the time.
 */
static void test_unpaired__regression_of_pass_excludes_rarely_passes(void)
{
	static const size_t ns[] = { 3, 5, 12 };
	const size_t runs = 20000;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		gsl_rng *r = rng_seeded(300 + i);
		size_t passes = 0;

		for (k = 0; k < runs; k++)
			passes += compare_case(r, ns[i], 1.10, 0.05, 0.05,
					       0.05) == VERDICT_PASS;
		CHECK((double)passes / (double)runs <=
		      0.05 + mc_slack(0.05, runs));
		gsl_rng_free(r);
	}
}

/*
 * p-values against scipy: the exact laws are sums of the same dyadic
 * probabilities in a different order, and the normal tails go through
 * erfc in both, so 1e-9 relative is generous yet catches any slip in a
 * rank, a tie term or a continuity correction (all >= 1e-3 relative).
 */
#define PVALUE_REL 1e-9

/*
 * Mann-Whitney against scipy: U is a sum of (mid-)ranks, exact; p from
 * the exact distribution or the normal tail, 1e-12 relative for the
 * different summation order of the counts and erfc implementations.
 */
static void test_stats__mann_whitney_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unpaired_ref_mwu); i++) {
		const struct unpaired_ref_mwu *c = &unpaired_ref_mwu[i];
		struct stats_mwu r;
		int before = harness_failed_checks;

		CHECK(stats_mann_whitney(&r, c->x, c->nx, c->y, c->ny) == 0);
		CHECK_NEAR(r.u, c->u, 0);
		CHECK_NEAR(r.p, c->p, 1e-12 * c->p);
		if (harness_failed_checks != before)
			fprintf(stderr, "  in case %s\n", c->name);
	}
}

/* Mann-Whitney also on rank-ref.py's datasets (different sizes and ties). */
static void test_stats__mann_whitney_rank_ref(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rank_ref_two); i++) {
		const struct rank_ref_two *c = &rank_ref_two[i];
		struct stats_mwu r;
		int before = harness_failed_checks;

		CHECK(stats_mann_whitney(&r, c->x, c->nx, c->y, c->ny) == 0);
		CHECK_NEAR(r.p, c->p, PVALUE_REL * c->p);
		if (harness_failed_checks != before)
			fprintf(stderr, "  (dataset %s)\n", c->name);
	}
}

static const struct harness_test tests[] = {
	TEST(test_unpaired__shift_matches_scipy),
	TEST(test_unpaired__depth_matches_exact_law),
	TEST(test_unpaired__min_n_matches_scipy),
	TEST(test_unpaired__normal_depth_is_conservative),
	TEST(test_unpaired__kth_matches_sorted_differences),
	TEST(test_unpaired__kth_of_a_large_input),
	TEST(test_unpaired__smallest_inputs),
	TEST(test_unpaired__refuses_bad_input),
	TEST(test_unpaired__fail_rate_at_the_floor_within_alpha),
	TEST(test_unpaired__identical_suite_never_fails),
	TEST(test_unpaired__regression_of_pass_excludes_rarely_passes),
	TEST(test_stats__mann_whitney_matches_scipy),
	TEST(test_stats__mann_whitney_rank_ref),
};

int main(int argc, char **argv)
{
	/* stats/ checks every GSL status itself; GSL must not abort */
	gsl_set_error_handler_off();
	return harness_main(tests, ARRAY_SIZE(tests), argc, argv);
}
