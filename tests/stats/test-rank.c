/*
 * Unit tests for stats/rank.c: Wilcoxon, Hodges-Lehmann and the exact
 * intervals against scipy (tests/ref/rank-ref.h), the Walsh selection
 * against sorting every average.
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
#include "tests/ref/rank-ref.h"
#include "common/banned.h"

/*
 * p-values against scipy: the exact laws are sums of the same dyadic
 * probabilities in a different order, and the normal tails go through
 * erfc in both, so 1e-9 relative is generous yet catches any slip in a
 * rank, a tie term or a continuity correction (all >= 1e-3 relative).
 */
#define PVALUE_REL 1e-9

static void test_stats__wilcoxon_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rank_ref_signed); i++) {
		const struct rank_ref_signed *c = &rank_ref_signed[i];
		int before = harness_failed_checks;

		CHECK_NEAR(stats_wilcoxon(c->x, c->n), c->wilcoxon_p,
			   PVALUE_REL * c->wilcoxon_p);
		if (harness_failed_checks != before)
			fprintf(stderr, "  (dataset %s)\n", c->name);
	}
}

/* Estimates and interval bounds pick and average data: exact. */
static void test_stats__hl_and_exact_intervals_match_reference(void)
{
	struct stats_interval ci;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rank_ref_signed); i++) {
		const struct rank_ref_signed *c = &rank_ref_signed[i];
		int before = harness_failed_checks;

		CHECK_NEAR(stats_hodges_lehmann(c->x, c->n), c->hl, 0);
		CHECK(stats_interval_exact(&ci, STATS_MEDIAN, c->x, c->n,
					   0.95) == 0);
		CHECK(ci.low == c->med_lo && ci.high == c->med_hi);
		CHECK(stats_interval_exact(&ci, STATS_HL, c->x, c->n,
					   0.95) == 0);
		CHECK(ci.low == c->hl_lo && ci.high == c->hl_hi);
		if (harness_failed_checks != before)
			fprintf(stderr, "  (dataset %s)\n", c->name);
	}
}

static void test_stats__rank_edges(void)
{
	double zeros[] = { 0, 0, 0 }, nan[] = { 1, NAN, 2 };
	struct stats_interval ci;

	CHECK(isnan(stats_wilcoxon(zeros, 3)));
	CHECK(isnan(stats_wilcoxon(nan, 3)));
	CHECK(isnan(stats_wilcoxon(NULL, 0)));
	CHECK(isnan(stats_hodges_lehmann(NULL, 0)));
	CHECK(stats_interval_exact(&ci, STATS_MEDIAN, zeros, 1, 0.95) < 0);
	CHECK(stats_interval_exact(&ci, STATS_HL, zeros, 3, 1.0) < 0);
	CHECK(stats_interval_exact(&ci, STATS_HL, nan, 3, 0.95) < 0);
	CHECK(stats_correlation(zeros, zeros, 3) == 0);
}

/*
 * Issue 11, defect 9: Hodges-Lehmann and its interval come from selection
 * among the Walsh averages, not from materialising them. Checked against
 * the materialised, sorted list, bit for bit: every rank for small n, the
 * ranks gate uses (median, interval depths, ends) and random ones for
 * larger n, on continuous, tied, constant, signed-zero and wide-scale
 * data.
 */
static double *walsh_all(const double *x, size_t n, size_t *m)
{
	double *w = xmalloc(n * (n + 1) / 2 * sizeof(*w));
	size_t i, j, k = 0;

	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (x[i] + x[j]) / 2;
	qsort(w, k, sizeof(*w), cmp_double);
	*m = k;
	return w;
}

static void fill_walsh(double *x, size_t n, unsigned shape, gsl_rng *r)
{
	size_t i;

	if (shape < FILL_PATTERNS) {
		fill_pattern(x, n, shape, r);
		return;
	}
	for (i = 0; i < n; i++) {
		switch (shape) {
		case 7:	/* log-ratios of timings */
			x[i] = gsl_ran_gaussian(r, 0.1) + 0.02;
			break;
		case 8:	/* signed zeros among a few values */
			x[i] = (double)gsl_rng_uniform_int(r, 3) - 1;
			if (x[i] == 0 && gsl_rng_uniform_int(r, 2))
				x[i] = -0.0;
			break;
		default:	/* wide scale: 1e-300 .. 1e300, both signs */
			x[i] = (gsl_rng_uniform_int(r, 2) ? 1 : -1) *
			       pow(10, gsl_rng_uniform(r) * 600 - 300);
			break;
		}
	}
}

/* Does some depth c give [w(c), w(m+1-c)] = ci, as the interval promises? */
static int interval_at_some_depth(const double *w, size_t m,
				  const struct stats_interval *ci)
{
	size_t c;

	for (c = 1; c <= m / 2 + 1 && c <= m; c++)
		if (w[c - 1] == ci->low && w[m - c] == ci->high)
			return 1;
	return 0;
}

static void check_walsh(const double *x, size_t n, gsl_rng *r)
{
	double *s = sorted_copy(x, n), *w, want;
	size_t m, k, tries;
	int before = harness_failed_checks;

	w = walsh_all(x, n, &m);
	if (n <= 60) {
		for (k = 1; k <= m; k++)
			CHECK(stats_walsh_kth(s, n, k) == w[k - 1]);
	} else {
		for (tries = 0; tries < 40; tries++) {
			k = tries < 2 ? (tries ? m : 1) :
			    1 + gsl_rng_uniform_int(r, (unsigned long)m);
			CHECK(stats_walsh_kth(s, n, k) == w[k - 1]);
		}
	}
	CHECK(isnan(stats_walsh_kth(s, n, 0)));
	CHECK(isnan(stats_walsh_kth(s, n, m + 1)));
	want = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
	CHECK(stats_hodges_lehmann(x, n) == want);
	CHECK(stats_hodges_lehmann_sorted(s, n) == want);
	if (n >= 2) {
		static const double levels[] = { 0.5, 0.95, 0.9975 };

		for (k = 0; k < ARRAY_SIZE(levels); k++) {
			struct stats_interval ci;

			CHECK(stats_interval_exact(&ci, STATS_HL, x, n,
						   levels[k]) == 0);
			CHECK(!isfinite(ci.low) ||
			      interval_at_some_depth(w, m, &ci));
		}
	}
	if (harness_failed_checks != before)
		fprintf(stderr, "  (n %zu, first value %g)\n", n, x[0]);
	free(w);
	free(s);
}

static void test_stats__walsh_selection_matches_sorting(void)
{
	static const size_t big[] = { 61, 100, 299, 300, 301, 777, 1500 };
	gsl_rng *r = rng_seeded(911);
	double x[1500];
	unsigned shape;
	size_t n, i;

	for (shape = 0; shape < 10; shape++) {
		for (n = 1; n <= 60; n++) {
			fill_walsh(x, n, shape, r);
			check_walsh(x, n, r);
		}
		for (i = 0; i < ARRAY_SIZE(big); i++) {
			fill_walsh(x, big[i], shape, r);
			check_walsh(x, big[i], r);
		}
	}
	gsl_rng_free(r);
}

/* The edges by hand: n = 1, 2, 3. */
static void test_stats__hodges_lehmann_small_n(void)
{
	double one[] = { 0.25 }, two[] = { 1, 4 }, three[] = { 3, 0, 1 };
	double s3[] = { 0, 1, 3 };

	CHECK(stats_hodges_lehmann(one, 1) == 0.25);
	CHECK(stats_walsh_kth(one, 1, 1) == 0.25);
	/* {1, 2.5, 4} */
	CHECK(stats_hodges_lehmann(two, 2) == 2.5);
	/* {0, 0.5, 1, 1.5, 2, 3}: the mean of 1 and 1.5 */
	CHECK(stats_hodges_lehmann(three, 3) == 1.25);
	CHECK(stats_walsh_kth(s3, 3, 1) == 0);
	CHECK(stats_walsh_kth(s3, 3, 4) == 1.5);
	CHECK(stats_walsh_kth(s3, 3, 6) == 3);
	CHECK(isnan(stats_walsh_kth(s3, 0, 1)));
}

/*
 * Above the old limit of 3,000 values (refused with "cannot be computed")
 * the estimate and interval still come, equal to the materialised ones;
 * 100,000 (max_pairs' limit) is timed in make bench, not here.
 */
static void test_stats__hodges_lehmann_above_3000(void)
{
	gsl_rng *r = rng_seeded(3001);
	size_t n = 3001, m, i;
	double *x = xmalloc(n * sizeof(*x)), *w;
	struct stats_interval ci;

	for (i = 0; i < n; i++)
		x[i] = gsl_ran_gaussian(r, 0.1);
	w = walsh_all(x, n, &m);
	/* 4,504,501 averages: the median is the middle one */
	CHECK(m % 2 && stats_hodges_lehmann(x, n) == w[m / 2]);
	CHECK(stats_interval_exact(&ci, STATS_HL, x, n, 0.9975) == 0);
	CHECK(isfinite(ci.low) && interval_at_some_depth(w, m, &ci));
	free(w);
	free(x);
	gsl_rng_free(r);
}

/*
 * The minimum n is the edge itself: one value fewer gives no interval at
 * that tail, n gives finite bounds, for each tail and estimator.
 */
static void test_stats__interval_min_n_is_the_edge(void)
{
	static const double tails[] = { 0.025, 0.0125, 0.0025, 0.000125,
					0.5 / 1024 };
	static const enum stats_estimator est[] = { STATS_MEDIAN, STATS_HL };
	double x[40];
	size_t i, j, k, n;

	for (i = 0; i < 40; i++)
		x[i] = 0.01 * (double)((i * 7) % 40) - 0.2;
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		for (j = 0; j < 2; j++) {
			struct stats_interval ci;

			n = stats_interval_min_n(est[j], tails[i]);
			CHECK(n >= 2 && n < 40);
			for (k = n - 1; k <= n; k++) {
				CHECK(stats_interval_exact(&ci, est[j], x, k,
						1 - 2 * tails[i]) == 0);
				CHECK(isfinite(ci.low) == (k == n));
				CHECK(isfinite(ci.high) == (k == n));
			}
		}
	}
	/* 0.025 one-sided: 2^-6 = 0.0156 is the first under it */
	CHECK(stats_interval_min_n(STATS_HL, 0.025) == 6);
	CHECK(stats_interval_min_n(STATS_MEAN, 0.025) == 2);
	CHECK(stats_interval_min_n(STATS_HL, 0) == 0);
	CHECK(stats_interval_min_n(STATS_HL, 0.5) == 0);
}

static const struct harness_test tests[] = {
	TEST(test_stats__interval_min_n_is_the_edge),
	TEST(test_stats__walsh_selection_matches_sorting),
	TEST(test_stats__hodges_lehmann_small_n),
	TEST(test_stats__hodges_lehmann_above_3000),
	TEST(test_stats__wilcoxon_matches_scipy),
	TEST(test_stats__hl_and_exact_intervals_match_reference),
	TEST(test_stats__rank_edges),
};

int main(int argc, char **argv)
{
	/* stats/ checks every GSL status itself; GSL must not abort */
	gsl_set_error_handler_off();
	return harness_main(tests, ARRAY_SIZE(tests), argc, argv);
}
