/*
 * Unit tests for stats/: summaries and sign-test p-values against numpy and
 * scipy (tests/ref/stats-ref.h), the bootstrap against its exact closed form.
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
#include "tests/ref/stats-ref.h"
#include "tests/ref/rank-ref.h"
#include "tests/ref/unpaired-ref.h"
#include "tests/ref/bootstrap-ref.h"
#include "common/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Summaries: numpy sums pairwise and we sum in order, and log/exp/sqrt may
 * round differently, so results differ by a few ulps; 1e-12 relative is
 * ~4500 ulps of slack yet a thousand times tighter than any formula error
 * (n for n - 1 in the sd of n = 1000 is already 5e-4 off).
 */
#define SUMMARY_REL 1e-12

static double *copy(const double *x, size_t n)
{
	double *c = xmalloc((n ? n : 1) * sizeof(*c));

	memcpy(c, x, n * sizeof(*c));
	return c;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *c = copy(x, n);

	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

static gsl_rng *rng_seeded(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (!r) {
		fputs("test-stats: gsl_rng_alloc failed\n", stderr);
		abort();
	}
	gsl_rng_set(r, seed);
	return r;
}

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

/* Fills x with one of the patterns that break naive selection. */
static void fill(double *x, size_t n, unsigned shape, gsl_rng *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (shape) {
		case 0:	/* continuous */
			x[i] = gsl_rng_uniform(r);
			break;
		case 1:	/* many duplicates */
			x[i] = (double)gsl_rng_uniform_int(r, 4);
			break;
		case 2:	/* sorted */
			x[i] = (double)i;
			break;
		case 3:	/* reversed */
			x[i] = (double)(n - i);
			break;
		case 4:	/* all equal */
			x[i] = 1;
			break;
		case 5:	/* organ pipe */
			x[i] = (double)(i < n / 2 ? i : n - i);
			break;
		default:	/* negative and positive, with zeros */
			x[i] = (double)gsl_rng_uniform_int(r, 7) - 3;
			break;
		}
	}
}

static void test_stats__selection_matches_sorting(void)
{
	gsl_rng *r = rng_seeded(4242);
	size_t round;

	for (round = 0; round < 3000; round++) {
		size_t n = 1 + gsl_rng_uniform_int(r, 300), i;
		double x[300], *s, *t, want, p = gsl_rng_uniform(r);
		int lost = 0, before = harness_failed_checks;

		fill(x, n, (unsigned)(round % 7), r);
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

static void test_stats__sign_test_matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stats_ref_signs); i++) {
		const struct stats_ref_sign *c = &stats_ref_signs[i];
		double got = stats_sign_test(c->k, c->n);
		int before = harness_failed_checks;

		/*
		 * GSL's binomial cdf is a continued fraction for the
		 * incomplete beta function: measured 7e-12 relative at
		 * n = 1000 against exact arithmetic; 1e-10 relative is
		 * far below anything a p-value is read to.
		 */
		CHECK_NEAR(got, c->p, 1e-10 * c->p);
		/* the two tails are one: exact symmetry */
		CHECK(got == stats_sign_test(c->n - c->k, c->n));
		if (harness_failed_checks != before) {
			fprintf(stderr, "  (k %zu, n %zu)\n", c->k, c->n);
			break;
		}
	}
}

static void test_stats__sign_test_edges(void)
{
	CHECK(stats_sign_test(0, 0) == 1);
	CHECK(stats_sign_test(1, 1) == 1);
	CHECK(stats_sign_test(15, 30) == 1);
	CHECK(stats_sign_test(15, 31) == 1 && stats_sign_test(16, 31) == 1);
	CHECK(isnan(stats_sign_test(3, 2)));
	/* 2 * 2^-20; GSL's cdf is not exact, see the tolerance above */
	CHECK_NEAR(stats_sign_test(0, 20), ldexp(1, -19),
		   1e-10 * ldexp(1, -19));
}

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

static void test_stats__bootstrap_ratio(void)
{
	static const double two[] = { 2, 2, 2, 2 }, one[] = { 1, 1, 1 };
	static const double slow[] = { 2.1, 1.9, 2.0, 2.2, 1.8, 2.05, 1.95 };
	static const double fast[] = { 1.0, 1.1, 0.9, 1.05, 0.95, 1.02 };
	struct stats_interval a, b;
	gsl_rng *r = rng_seeded(42);
	char msg[256];

	/* constant samples: every resampled ratio is exactly 2 */
	CHECK(stats_bootstrap_ratio(&a, two, 4, one, 3, 1000, 0.95, r) == 0);
	CHECK(a.low == 2 && a.high == 2 && a.level == 0.95);
	/* a 2x difference: the interval brackets it and excludes 1.5 */
	CHECK(stats_bootstrap_ratio(&a, slow, 7, fast, 6, 10000, 0.95, r) == 0);
	CHECK(a.low > 1.5 && a.low <= 2.0 && a.high >= 2.0 && a.high < 2.5);
	/* the same generator state replays the same interval */
	gsl_rng_set(r, 7);
	stats_bootstrap_ratio(&a, slow, 7, fast, 6, 2000, 0.9, r);
	gsl_rng_set(r, 7);
	stats_bootstrap_ratio(&b, slow, 7, fast, 6, 2000, 0.9, r);
	CHECK(a.low == b.low && a.high == b.high);
	error_capture(msg, sizeof(msg), 1);
	CHECK(stats_bootstrap_ratio(&a, slow, 1, fast, 6, 1000, 0.9, r) < 0);
	CHECK_CONTAINS(msg, "at least 2 values");
	CHECK(stats_bootstrap_ratio(&a, fast, 6, (const double[]){ 0, 1 }, 2,
				    1000, 0.9, r) < 0);
	CHECK_CONTAINS(msg, "above zero");
	CHECK(stats_bootstrap_ratio(&a, slow, 7, fast, 6, 10, 0.9, r) < 0);
	CHECK(stats_bootstrap_ratio(&a, slow, 7, fast, 6, 1000, 1.0, r) < 0);
	CHECK(stats_mann_whitney(&(struct stats_mwu){ 0 }, slow, 0, fast, 6)
	      < 0);
	error_capture(NULL, 0, 0);
	gsl_rng_free(r);
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

	if (shape < 7) {
		fill(x, n, shape, r);
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
	TEST(test_stats__bootstrap_tail_matches_scipy),
	TEST(test_stats__bootstrap_min_n_matches_scipy),
	TEST(test_stats__hodges_lehmann_small_n),
	TEST(test_stats__hodges_lehmann_above_3000),
	TEST(test_stats__mann_whitney_matches_scipy),
	TEST(test_stats__bootstrap_ratio),
	TEST(test_stats__summaries_match_numpy),
	TEST(test_stats__empty_and_short_input_is_nan),
	TEST(test_stats__geomean_of_nonpositive_is_nan),
	TEST(test_stats__median_and_quantile_reject_nan),
	TEST(test_stats__quantile_edges),
	TEST(test_stats__selection_matches_sorting),
	TEST(test_stats__bonferroni),
	TEST(test_stats__sign_test_matches_scipy),
	TEST(test_stats__sign_test_edges),
	TEST(test_stats__bootstrap_matches_exact_distribution),
	TEST(test_stats__bootstrap_coverage),
	TEST(test_stats__bootstrap_replays_with_seed),
	TEST(test_stats__bootstrap_tricks_are_exact),
	TEST(test_stats__bootstrap_rejects_invalid_input),
	TEST(test_stats__wilcoxon_matches_scipy),
	TEST(test_stats__mann_whitney_rank_ref),
	TEST(test_stats__hl_and_exact_intervals_match_reference),
	TEST(test_stats__rank_edges),
	TEST(test_stats__bootstrap_estimators),
};

int main(int argc, char **argv)
{
	/* stats/ checks every GSL status itself; GSL must not abort */
	gsl_set_error_handler_off();
	return harness_main(tests, ARRAY_SIZE(tests), argc, argv);
}
