/*
 * Unit tests for stats/summary.c: summaries against numpy
 * (tests/ref/stats-ref.h), selection against sorting, the edges.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "tests/harness.h"
#include "tests/stats/fixture.h"
#include "tests/ref/stats-ref.h"
#include "common/banned.h"

/*
 * Summaries: numpy sums pairwise and we sum in order, and log/exp/sqrt may
 * round differently, so results differ by a few ulps; 1e-12 relative is
 * ~4500 ulps of slack yet a thousand times tighter than any formula error
 * (n for n - 1 in the sd of n = 1000 is already 5e-4 off).
 */
#define SUMMARY_REL 1e-12

static void test_stats__summaries_match_numpy(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(stats_ref_summaries); i++) {
		const struct stats_ref_summary *c = &stats_ref_summaries[i];
		double *s = sorted_copy(c->x, c->n), *t = copy(c->x, c->n);
		int before = harness_failed_checks;

		CHECK_NEAR(stats_mean(c->x, c->n), c->mean,
			   SUMMARY_REL * fabs(c->mean));
		CHECK_NEAR(stats_sd(c->x, c->n), c->sd, SUMMARY_REL * c->sd);
		CHECK_NEAR(stats_cv(c->x, c->n), c->cv,
			   SUMMARY_REL * fabs(c->cv));
		CHECK_NEAR(stats_geomean(c->x, c->n), c->geomean,
			   SUMMARY_REL * c->geomean);
		/* medians and quantiles only pick and average data: exact */
		CHECK_NEAR(stats_median(c->x, c->n), c->median, 0);
		CHECK_NEAR(stats_median_inplace(t, c->n), c->median, 0);
		for (j = 0; j < STATS_REF_NPROBS; j++) {
			double p = stats_ref_probs[j];

			/* interpolation may round differently from numpy */
			CHECK_NEAR(stats_quantile_sorted(s, c->n, p), c->q[j],
				   SUMMARY_REL * fabs(c->q[j]));
			memcpy(t, c->x, c->n * sizeof(*t));
			CHECK_NEAR(stats_quantile_inplace(t, c->n, p), c->q[j],
				   SUMMARY_REL * fabs(c->q[j]));
		}
		if (harness_failed_checks != before)
			fprintf(stderr, "  (dataset %s)\n", c->name);
		free(t);
		free(s);
	}
}

static void test_stats__empty_and_short_input_is_nan(void)
{
	double one = 3, buf[1] = { 3 };

	CHECK(isnan(stats_mean(NULL, 0)));
	CHECK(isnan(stats_sd(NULL, 0)));
	CHECK(isnan(stats_sd(&one, 1)));
	CHECK(isnan(stats_cv(&one, 1)));
	CHECK(isnan(stats_geomean(NULL, 0)));
	CHECK(isnan(stats_median(NULL, 0)));
	CHECK(isnan(stats_median_inplace(buf, 0)));
	CHECK(isnan(stats_quantile_sorted(NULL, 0, 0.5)));
	CHECK(isnan(stats_quantile_inplace(buf, 0, 0.5)));
	CHECK(stats_median(&one, 1) == 3);
	/* exp(log(3)) may round an ulp away */
	CHECK_NEAR(stats_geomean(&one, 1), 3, 1e-15);
}

static void test_stats__geomean_of_nonpositive_is_nan(void)
{
	static const struct {
		double x[3];
		size_t n;
	} cases[] = {
		{ { 1, 0, 2 }, 3 },
		{ { 1, -1, 2 }, 3 },
		{ { -2, -8 }, 2 },
		{ { 1, INFINITY }, 2 },
		{ { 1, NAN }, 2 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK(isnan(stats_geomean(cases[i].x, cases[i].n)));
}

static void test_stats__median_and_quantile_reject_nan(void)
{
	double x[] = { 1, NAN, 3 }, y[] = { NAN, 1 };

	CHECK(isnan(stats_median_inplace(x, 3)));
	CHECK(isnan(stats_median(y, 2)));
	CHECK(isnan(stats_quantile_inplace(x, 3, 0.5)));
}

static void test_stats__quantile_edges(void)
{
	static const double s[] = { 1, 2, 4, 8 };
	static const struct {
		double p, want;
	} cases[] = {
		{ 0, 1 }, { 1, 8 }, { 0.5, 3 }, { 1.0 / 3, 2 }, { 0.75, 5 },
		{ -0.01, NAN }, { 1.01, NAN }, { NAN, NAN },
	};
	double one = 5, t[4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		/* h = 3p lands on or halfway between values: exact in binary */
		CHECK_NEAR(stats_quantile_sorted(s, 4, cases[i].p),
			   cases[i].want, 0);
		memcpy(t, s, sizeof(t));
		CHECK_NEAR(stats_quantile_inplace(t, 4, cases[i].p),
			   cases[i].want, 0);
	}
	CHECK(stats_quantile_sorted(&one, 1, 0) == 5);
	CHECK(stats_quantile_sorted(&one, 1, 0.5) == 5);
	CHECK(stats_quantile_sorted(&one, 1, 1) == 5);
}

static void test_stats__selection_matches_sorting(void)
{
	gsl_rng *r = rng_seeded(4242);
	size_t round;

	for (round = 0; round < 3000; round++) {
		size_t n = 1 + gsl_rng_uniform_int(r, 300), i;
		double x[300], *s, *t, want, p = gsl_rng_uniform(r);
		int lost = 0, before = harness_failed_checks;

		fill_pattern(x, n, (unsigned)(round % FILL_PATTERNS), r);
		s = sorted_copy(x, n);
		t = copy(x, n);
		want = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
		CHECK(stats_median_inplace(t, n) == want);
		/* selection only reorders: the same multiset comes back */
		qsort(t, n, sizeof(*t), cmp_double);
		for (i = 0; i < n; i++)
			lost |= t[i] != s[i];
		CHECK(!lost);
		memcpy(t, x, n * sizeof(*t));
		CHECK(stats_quantile_inplace(t, n, p) ==
		      stats_quantile_sorted(s, n, p));
		CHECK(stats_median(x, n) == want);
		free(t);
		free(s);
		if (harness_failed_checks != before) {
			fprintf(stderr, "  (round %zu, n %zu)\n", round, n);
			break;
		}
	}
	gsl_rng_free(r);
}

static void test_stats__bonferroni(void)
{
	static const struct {
		double confidence;
		size_t m;
		double want;
	} cases[] = {
		{ 0.95, 2, 0.975 },
		{ 0.95, 1, 0.95 },
		{ 0.95, 0, 0.95 },	/* m == 0 is treated as 1 */
		{ 0.95, 100, 0.9995 },
		{ 0.99, 10, 0.999 },
	};
	size_t i;

	/* the first three are exact in binary; the rest within an ulp */
	CHECK(stats_bonferroni(0.95, 2) == 0.975);
	CHECK(stats_bonferroni(0.95, 0) == stats_bonferroni(0.95, 1));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK_NEAR(stats_bonferroni(cases[i].confidence, cases[i].m),
			   cases[i].want, 2e-16);
}

static const struct harness_test tests[] = {
	TEST(test_stats__summaries_match_numpy),
	TEST(test_stats__empty_and_short_input_is_nan),
	TEST(test_stats__geomean_of_nonpositive_is_nan),
	TEST(test_stats__median_and_quantile_reject_nan),
	TEST(test_stats__quantile_edges),
	TEST(test_stats__selection_matches_sorting),
	TEST(test_stats__bonferroni),
};

int main(int argc, char **argv)
{
	/* stats/ checks every GSL status itself; GSL must not abort */
	gsl_set_error_handler_off();
	return harness_main(tests, ARRAY_SIZE(tests), argc, argv);
}
