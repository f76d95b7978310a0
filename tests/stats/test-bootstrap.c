/*
 * Unit tests for stats/bootstrap.c: the bootstrap against its exact closed
 * form (tests/ref/bootstrap-ref.h), its coverage, its seeds and its edges.
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
#include "tests/ref/rank-ref.h"
#include "tests/ref/bootstrap-ref.h"
#include "common/banned.h"

/* Is v within [s[j-1], s[j+1]], clipped to the data? */
static int within_one(const double *s, size_t n, size_t j, double v)
{
	double lo = s[j ? j - 1 : 0], hi = s[j + 1 < n ? j + 1 : n - 1];

	return lo <= v && v <= hi;
}

static void test_stats__bootstrap_matches_exact_distribution(void)
{
	gsl_rng *r = rng_seeded(20240501);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stats_ref_boots); i++) {
		const struct stats_ref_boot *c = &stats_ref_boots[i];
		struct stats_interval ci = { NAN, NAN, NAN };
		double *s = sorted_copy(c->x, c->n);
		int before = harness_failed_checks;

		CHECK(stats_bootstrap_median(&ci, c->x, c->n,
					     STATS_REF_BOOT_RESAMPLES,
					     c->level, r) == 0);
		CHECK(ci.level == c->level);
		/*
		 * Where the script found the Monte-Carlo error at 10,000
		 * resamples cannot move it (p <= 1e-6), the endpoint is the
		 * exact order statistic. Elsewhere the cdf of the resampled
		 * median sits within a few standard errors of the quantile,
		 * so the endpoint may be the neighbouring order statistic or
		 * a type-7 interpolation towards it: the tolerance is one
		 * order-statistic gap each side, still a small part of the
		 * data's range.
		 */
		if (c->lo_exact)
			CHECK(ci.low == s[c->lo]);
		else
			CHECK(within_one(s, c->n, c->lo, ci.low));
		if (c->hi_exact)
			CHECK(ci.high == s[c->hi]);
		else
			CHECK(within_one(s, c->n, c->hi, ci.high));
		if (harness_failed_checks != before)
			fprintf(stderr, "  (%s at %g: got %.17g..%.17g, "
				"want x[%zu] = %.17g .. x[%zu] = %.17g)\n",
				c->name, c->level, ci.low, ci.high, c->lo,
				s[c->lo], c->hi, s[c->hi]);
		free(s);
	}
	gsl_rng_free(r);
}

static void test_stats__bootstrap_coverage(void)
{
	/* the true median of a lognormal is exp(mu) */
	const double mu = 0.05, sigma = 0.2, truth = exp(mu);
	gsl_rng *r = rng_seeded(31337);
	double x[STATS_REF_COVER_N];
	size_t d, i, covered = 0;
	int before = harness_failed_checks;

	for (d = 0; d < STATS_REF_COVER_DATASETS; d++) {
		struct stats_interval ci;

		for (i = 0; i < STATS_REF_COVER_N; i++)
			x[i] = gsl_ran_lognormal(r, mu, sigma);
		if (stats_bootstrap_median(&ci, x, STATS_REF_COVER_N,
					   STATS_REF_COVER_RESAMPLES,
					   STATS_REF_COVER_LEVEL, r) < 0) {
			CHECK(!"bootstrap failed");
			break;
		}
		covered += ci.low <= truth && truth <= ci.high;
	}
	/*
	 * The band (see stats-ref.h) is exact binomial arithmetic, not a
	 * fit to this seed: the small-sample percentile interval at n = 31
	 * covers 92.9% to 97.1% depending on Monte-Carlo jitter of its
	 * endpoints, and 1000 datasets add sampling error; a tail of 1e-5
	 * each side gives 892..990 of 1000. An interval at 80% (or one that
	 * covers 99.9%) lands outside it.
	 */
	CHECK(covered >= STATS_REF_COVER_MIN);
	CHECK(covered <= STATS_REF_COVER_MAX);
	if (harness_failed_checks != before)
		fprintf(stderr, "  (covered %zu of %d)\n", covered,
			STATS_REF_COVER_DATASETS);
	gsl_rng_free(r);
}

static void test_stats__bootstrap_replays_with_seed(void)
{
	static const double x[] = {
		1.03, 0.97, 1.12, 1.01, 1.08, 0.99, 1.05, 1.00, 1.21, 1.04,
		1.02, 0.95, 1.07, 1.06, 1.10, 0.98,
	};
	struct stats_interval a = { NAN, NAN, NAN }, b = a;
	gsl_rng *r = rng_seeded(99);

	CHECK(stats_bootstrap_median(&a, x, ARRAY_SIZE(x), 10000, 0.975,
				     r) == 0);
	gsl_rng_set(r, 99);
	CHECK(stats_bootstrap_median(&b, x, ARRAY_SIZE(x), 10000, 0.975,
				     r) == 0);
	CHECK(a.low == b.low && a.high == b.high && a.level == b.level);
	CHECK(a.low <= stats_median(x, ARRAY_SIZE(x)));
	CHECK(stats_median(x, ARRAY_SIZE(x)) <= a.high);
	gsl_rng_free(r);
}

/* Hodges-Lehmann the textbook way: every Walsh average, sorted. */
static double naive_hl(const double *x, size_t n)
{
	double *w = xmalloc(n * (n + 1) / 2 * sizeof(*w)), v;
	size_t i, j, m = 0;

	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[m++] = (x[i] + x[j]) / 2;
	qsort(w, m, sizeof(*w), cmp_double);
	v = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
	free(w);
	return v;
}

/*
 * The textbook bootstrap, slowly: copy the drawn values, take each
 * resample's median (or Hodges-Lehmann from all its Walsh averages when
 * hl), sort all replicates, take type-7 quantiles. It draws
 * indices as stats/bootstrap.c does (base-n digits of one uniform integer
 * below the largest power of n the generator reaches) into the sorted data,
 * as it does; change both together.
 */
static void naive_bootstrap(struct stats_interval *out, const double *x,
			    size_t n, size_t resamples, double level,
			    gsl_rng *r, int hl)
{
	unsigned long range = gsl_rng_max(r) - gsl_rng_min(r), span = n;
	unsigned long cur = 0;
	unsigned per = 1, left = 0;
	double *m = xmalloc(resamples * sizeof(*m));
	double *t = xmalloc(n * sizeof(*t));
	double *s = sorted_copy(x, n);
	size_t b, i;

	if (range > 0xffffffffUL)
		range = 0xffffffffUL;
	while (span <= range / n) {
		span *= n;
		per++;
	}
	for (b = 0; b < resamples; b++) {
		for (i = 0; i < n; i++) {
			if (!left) {
				cur = gsl_rng_uniform_int(r, span);
				left = per;
			}
			t[i] = s[cur % n];
			cur /= n;
			left--;
		}
		m[b] = hl ? naive_hl(t, n) : stats_median_inplace(t, n);
	}
	qsort(m, resamples, sizeof(*m), cmp_double);
	out->low = stats_quantile_sorted(m, resamples, (1 - level) / 2);
	out->high = stats_quantile_sorted(m, resamples, (1 + level) / 2);
	out->level = level;
	free(s);
	free(t);
	free(m);
}

static void test_stats__bootstrap_tricks_are_exact(void)
{
	static const double ties[] = { 1, 2, 2, 2, 3, 3, 5, 8, 8, 9 };
	static const struct {
		size_t n;
		const double *fixed;	/* or NULL: lognormal draws */
		double level;
	} cases[] = {
		{ 2, NULL, 0.95 }, { 3, NULL, 0.9 }, { 4, NULL, 0.95 },
		{ 10, ties, 0.99 }, { 30, NULL, 0.9995 }, { 31, NULL, 0.975 },
		{ 200, NULL, 0.95 },
	};
	gsl_rng *r = rng_seeded(7), *r2 = rng_seeded(0);
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct stats_interval got = { NAN, NAN, NAN }, want;
		double x[200];
		unsigned long seed = 1000 + i;
		int before = harness_failed_checks;

		for (j = 0; j < cases[i].n; j++)
			x[j] = cases[i].fixed ? cases[i].fixed[j] :
				gsl_ran_lognormal(r, 0, 0.3);
		gsl_rng_set(r2, seed);
		CHECK(stats_bootstrap_median(&got, x, cases[i].n, 2000,
					     cases[i].level, r2) == 0);
		gsl_rng_set(r2, seed);
		naive_bootstrap(&want, x, cases[i].n, 2000, cases[i].level,
				r2, 0);
		/* counts over sorted data and selection: the same numbers */
		CHECK(got.low == want.low);
		CHECK(got.high == want.high);
		/* Hodges-Lehmann from counts and Walsh selection: the same */
		if (cases[i].n <= 31) {
			gsl_rng_set(r2, seed);
			CHECK(stats_bootstrap(&got, STATS_HL, 0, x, cases[i].n,
					      2000, cases[i].level, r2) == 0);
			gsl_rng_set(r2, seed);
			naive_bootstrap(&want, x, cases[i].n, 2000,
					cases[i].level, r2, 1);
			CHECK(got.low == want.low);
			CHECK(got.high == want.high);
		}
		if (harness_failed_checks != before) {
			fprintf(stderr, "  (n %zu)\n", cases[i].n);
			break;
		}
	}
	gsl_rng_free(r2);
	gsl_rng_free(r);
}

static void test_stats__bootstrap_rejects_invalid_input(void)
{
	static const double good[] = { 1, 2, 3, 4 };
	static const double nan_in[] = { 1, NAN, 3 };
	static const double inf_in[] = { 1, 2, -INFINITY };
	static const struct {
		const double *x;
		size_t n, resamples;
		double level;
		int no_rng;
		const char *msg;
	} cases[] = {
		{ good, 0, 1000, 0.95, 0, "at least 2 values, got 0" },
		{ good, 1, 1000, 0.95, 0, "at least 2 values, got 1" },
		{ good, 4, 99, 0.95, 0, "at least 100 resamples, got 99" },
		{ good, 4, 0, 0.95, 0, "at least 100 resamples" },
		{ good, 4, 1000, 0, 0, "between 0 and 1" },
		{ good, 4, 1000, 1, 0, "between 0 and 1" },
		{ good, 4, 1000, -0.5, 0, "between 0 and 1" },
		{ good, 4, 1000, NAN, 0, "between 0 and 1" },
		{ nan_in, 3, 1000, 0.95, 0, "value 2 of 3" },
		{ inf_in, 3, 1000, 0.95, 0, "value 3 of 3" },
		{ good, 4, 1000, 0.95, 1, "random number generator" },
	};
	gsl_rng *r = rng_seeded(1);
	char msg[256];
	size_t i;

	error_capture(msg, sizeof(msg), 1);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct stats_interval ci = { -7, -7, -7 };

		msg[0] = '\0';
		CHECK(stats_bootstrap_median(&ci, cases[i].x, cases[i].n,
					     cases[i].resamples,
					     cases[i].level,
					     cases[i].no_rng ? NULL : r) == -1);
		/* out is untouched on failure */
		CHECK(ci.low == -7 && ci.high == -7 && ci.level == -7);
		CHECK_CONTAINS(msg, cases[i].msg);
	}
	error_capture(NULL, 0, 0);
	gsl_rng_free(r);
}

/*
 * The generic bootstrap: the median path replays stats_bootstrap_median
 * draw for draw; BCa on symmetric data stays near the percentile
 * interval; every estimator's interval contains its estimate.
 */
static void test_stats__bootstrap_estimators(void)
{
	const struct rank_ref_signed *c = &rank_ref_signed[4];
	struct stats_interval a, b;
	gsl_rng *r1 = rng_seeded(7), *r2 = rng_seeded(7);
	enum stats_estimator e;

	CHECK(stats_bootstrap_median(&a, c->x, c->n, 2000, 0.95, r1) == 0);
	CHECK(stats_bootstrap(&b, STATS_MEDIAN, 0, c->x, c->n, 2000, 0.95,
			      r2) == 0);
	CHECK(a.low == b.low && a.high == b.high);
	for (e = STATS_MEDIAN; e <= STATS_MEAN; e++) {
		double est = stats_estimate(e, c->x, c->n);
		int bca;

		for (bca = 0; bca < 2; bca++) {
			CHECK(stats_bootstrap(&a, e, bca, c->x, c->n, 2000,
					      0.95, r1) == 0);
			CHECK(a.low <= est && est <= a.high);
			CHECK(a.low < a.high);
		}
	}
	gsl_rng_free(r1);
	gsl_rng_free(r2);
}

/*
 * The expanded percentile's tail and the bootstrap's minimum n against
 * scipy (tests/ref/bootstrap-ref.py). GSL's Student quantile is less
 * exact than scipy's: measured, the tails differ by up to 2.5e-7 relative
 * here (n 4, tail 0.00125). 1e-6 allows that, while a wrong df (n for
 * n - 1) or a missing or wrong sqrt(n / (n - 1)) is off by far more at
 * small n (scipy: 3e-7 apart already at n = 1000, orders more below).
 * The minimum n's edges all sit at least 1e-5 (relative) away from the
 * threshold in scipy's figures, so rounding cannot move them.
 */
static void test_stats__bootstrap_tail_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bootstrap_ref_tail); i++) {
		const struct bootstrap_ref_tail *c = &bootstrap_ref_tail[i];
		double got = stats_bootstrap_tail(c->n, c->tail);

		if (!(fabs(got - c->want) <= 1e-6 * c->want))
			fprintf(stderr, "  n %zu, tail %g: %.17g, scipy "
				"%.17g\n", c->n, c->tail, got, c->want);
		CHECK(fabs(got - c->want) <= 1e-6 * c->want);
		/* expanded: always asks for less than the tail itself */
		CHECK(got < c->tail);
	}
	CHECK(isnan(stats_bootstrap_tail(0, 0.025)));
	CHECK(isnan(stats_bootstrap_tail(1, 0.025)));
	CHECK(isnan(stats_bootstrap_tail(10, 0)));
	CHECK(isnan(stats_bootstrap_tail(10, 0.5)));
	CHECK(isnan(stats_bootstrap_tail(10, NAN)));
}

static void test_stats__bootstrap_min_n_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bootstrap_ref_min_n); i++) {
		const struct bootstrap_ref_min_n *c = &bootstrap_ref_min_n[i];
		size_t got = stats_bootstrap_min_n(c->tail, c->resamples);

		if (got != c->want)
			fprintf(stderr, "  tail %g, %zu resamples: %zu, scipy "
				"%zu\n", c->tail, c->resamples, got, c->want);
		CHECK(got == c->want);
	}
	CHECK(stats_bootstrap_min_n(0, 1000) == 0);
	CHECK(stats_bootstrap_min_n(0.5, 1000) == 0);
	CHECK(stats_bootstrap_min_n(NAN, 1000) == 0);
	CHECK(stats_bootstrap_min_n(0.025, 0) == 0);
}

static const struct harness_test tests[] = {
	TEST(test_stats__bootstrap_tail_matches_scipy),
	TEST(test_stats__bootstrap_min_n_matches_scipy),
	TEST(test_stats__bootstrap_matches_exact_distribution),
	TEST(test_stats__bootstrap_coverage),
	TEST(test_stats__bootstrap_replays_with_seed),
	TEST(test_stats__bootstrap_tricks_are_exact),
	TEST(test_stats__bootstrap_rejects_invalid_input),
	TEST(test_stats__bootstrap_estimators),
};

int main(int argc, char **argv)
{
	/* stats/ checks every GSL status itself; GSL must not abort */
	gsl_set_error_handler_off();
	return harness_main(tests, ARRAY_SIZE(tests), argc, argv);
}
