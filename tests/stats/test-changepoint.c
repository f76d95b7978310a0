/*
 * stats/changepoint.c: the energy divergence Q against direct double sums
 * (tests/ref/changepoint-ref.py), a clear step found where it is, a flat
 * noisy series (fixed seeds) without change points, grouped values split
 * only between groups, the smallest inputs, and bad arguments refused.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "common/seed.h"
#include "stats/changepoint.h"
#include "tests/harness.h"
#include "tests/ref/changepoint-ref.h"
#include "common/banned.h"

static gsl_rng *rng_case(unsigned long seed, size_t k)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, seed_derive(seed, "changepoint-test", k));
	return r;
}

static void test_changepoint__q_matches_direct_sums(void)
{
	size_t i, t;

	for (i = 0; i < sizeof(changepoint_ref) / sizeof(*changepoint_ref); i++) {
		const struct changepoint_ref *c = &changepoint_ref[i];
		double best = -INFINITY;
		size_t at = 0;

		for (t = 1; t < c->n; t++) {
			double q = stats_energy_q(c->x, c->n, t);

			CHECK_NEAR(q, c->q[t], 1e-12 * fmax(1, fabs(c->q[t])));
			if (q > best) {
				best = q;
				at = t;
			}
		}
		CHECK(at == c->best);
		CHECK(isnan(stats_energy_q(c->x, c->n, 0)));
		CHECK(isnan(stats_energy_q(c->x, c->n, c->n)));
	}
}

static void test_changepoint__step_found_at_its_index(void)
{
	gsl_rng *r = rng_case(7, 0);
	double x[16];
	struct stats_changepoint *cp;
	size_t n, i;

	/* 16 commits, the 11th (index 10) 10% slower, 1% noise */
	for (i = 0; i < 16; i++)
		x[i] = (i >= 10 ? log(1.10) : 0) + gsl_ran_gaussian(r, 0.01);
	CHECK(stats_changepoints(&cp, &n, x, 16, NULL, 16, 2, 199, 0.05, r) == 0);
	CHECK(n == 1);
	if (n == 1) {
		CHECK(cp[0].group == 10);
		CHECK(cp[0].p <= 0.05);
		CHECK_NEAR(cp[0].after - cp[0].before, log(1.10), 0.02);
	}
	free(cp);
	gsl_rng_free(r);
}

static void test_changepoint__two_steps_both_found(void)
{
	gsl_rng *r = rng_case(7, 1);
	double x[24];
	struct stats_changepoint *cp;
	size_t n, i;

	for (i = 0; i < 24; i++)
		x[i] = (i >= 8 ? 0.2 : 0) + (i >= 16 ? -0.1 : 0) +
		       gsl_ran_gaussian(r, 0.01);
	CHECK(stats_changepoints(&cp, &n, x, 24, NULL, 24, 3, 199, 0.01, r) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(cp[0].group == 8 && cp[1].group == 16);
		CHECK(cp[0].after > cp[0].before && cp[1].after < cp[1].before);
	}
	free(cp);
	gsl_rng_free(r);
}

static void test_changepoint__flat_noise_has_none(void)
{
	size_t seed, i, found = 0;

	/* 20 fixed seeds of 30 flat noisy values: at sig 0.01 with the
	   seeds fixed, none is named (a false point each would be ~1%) */
	for (seed = 0; seed < 20; seed++) {
		gsl_rng *r = rng_case(11, seed);
		double x[30];
		struct stats_changepoint *cp;
		size_t n;

		for (i = 0; i < 30; i++)
			x[i] = gsl_ran_gaussian(r, 0.02);
		CHECK(stats_changepoints(&cp, &n, x, 30, NULL, 30, 3, 199,
					 0.01, r) == 0);
		found += n;
		free(cp);
		gsl_rng_free(r);
	}
	CHECK(found == 0);
}

static void test_changepoint__groups_split_between_groups(void)
{
	/* 16 groups of 3 values (a record's samples each); groups 11..15
	   higher: the point is group 11. Whole groups are permuted, so
	   few groups cannot prove much: 16 can. */
	gsl_rng *r = rng_case(3, 0);
	size_t start[17], g, n;
	double x[48];
	struct stats_changepoint *cp;

	for (g = 0; g <= 16; g++)
		start[g] = 3 * g;
	for (n = 0; n < 48; n++)
		x[n] = (n >= 33 ? 1.0 : 0) + gsl_ran_gaussian(r, 0.05);
	CHECK(stats_changepoints(&cp, &n, x, 48, start, 16, 2, 199, 0.01, r) == 0);
	CHECK(n == 1 && cp && cp[0].group == 11);
	free(cp);
	/* the same step inside group 11 (its values 33 | 34 35) is named
	   at a group boundary, 11 or 12, never inside the group */
	for (n = 0; n < 48; n++)
		x[n] = (n >= 34 ? 1.0 : 0) + gsl_ran_gaussian(r, 0.05);
	CHECK(stats_changepoints(&cp, &n, x, 48, start, 16, 2, 199, 0.01, r) == 0);
	CHECK(n >= 1 && cp && (cp[0].group == 11 || cp[0].group == 12));
	free(cp);
	gsl_rng_free(r);
}

static void test_changepoint__segments_keep_min_size(void)
{
	/* a jump in the last 2 of 16 values: with min_size 4 no point may
	   leave fewer than 4 values either side */
	gsl_rng *r = rng_case(9, 0);
	double x[16];
	struct stats_changepoint *cp;
	size_t n, i;

	for (i = 0; i < 16; i++)
		x[i] = (i >= 14 ? 1.0 : 0) + gsl_ran_gaussian(r, 0.01);
	CHECK(stats_changepoints(&cp, &n, x, 16, NULL, 16, 4, 199, 0.05, r) == 0);
	for (i = 0; i < n; i++)
		CHECK(cp[i].group >= 4 && cp[i].group <= 12);
	free(cp);
	/* min_size 1 names the jump where it is */
	CHECK(stats_changepoints(&cp, &n, x, 16, NULL, 16, 1, 199, 0.05, r) == 0);
	CHECK(n >= 1 && cp[0].group == 14);
	free(cp);
	gsl_rng_free(r);
}

static void test_changepoint__same_seed_same_points(void)
{
	double x[20];
	size_t i, n1, n2;
	struct stats_changepoint *a, *b;
	gsl_rng *r1 = rng_case(5, 0), *r2 = rng_case(5, 0);

	for (i = 0; i < 20; i++)
		x[i] = (i >= 12 ? 0.03 : 0) + 0.02 * sin((double)i * 2.1);
	CHECK(stats_changepoints(&a, &n1, x, 20, NULL, 20, 2, 99, 0.05, r1) == 0);
	CHECK(stats_changepoints(&b, &n2, x, 20, NULL, 20, 2, 99, 0.05, r2) == 0);
	CHECK(n1 == n2);
	for (i = 0; i < n1 && i < n2; i++)
		CHECK(a[i].group == b[i].group && a[i].p == b[i].p);
	free(a);
	free(b);
	gsl_rng_free(r1);
	gsl_rng_free(r2);
}

static void test_changepoint__smallest_inputs(void)
{
	gsl_rng *r = rng_case(1, 0);
	double x[5] = { 0, 0, 5, 5, 5 };
	struct stats_changepoint *cp = (void *)1;
	size_t n = 99, k;

	for (k = 0; k <= 3; k++) {	/* n = 0..3, below 2 * min_size 2 */
		CHECK(stats_changepoints(&cp, &n, x, k, NULL, k, 2, 99, 0.05, r) == 0);
		CHECK(n == 0 && cp == NULL);
	}
	CHECK(stats_changepoints(&cp, &n, NULL, 0, NULL, 0, 1, 99, 0.05, r) == 0);
	CHECK(n == 0 && cp == NULL);
	/* two values, min_size 1: one candidate, never significant (2
	   orderings: p >= 1/2) */
	CHECK(stats_changepoints(&cp, &n, x + 1, 2, NULL, 2, 1, 99, 0.05, r) == 0);
	CHECK(n == 0 && cp == NULL);
	gsl_rng_free(r);
}

static void test_changepoint__refuses_bad_input(void)
{
	gsl_rng *r = rng_case(1, 0);
	double x[4] = { 1, 2, NAN, 4 }, y[4] = { 1, 2, 3, 4 };
	size_t bad[3] = { 0, 2, 3 }, empty[3] = { 0, 2, 2 };
	struct stats_changepoint *cp;
	char msg[256];
	size_t n;

	error_capture(msg, sizeof(msg), 1);
	CHECK(stats_changepoints(&cp, &n, x, 4, NULL, 4, 1, 99, 0.05, r) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 4, NULL, 4, 0, 99, 0.05, r) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 4, NULL, 4, 1, 0, 0.05, r) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 4, NULL, 4, 1, 99, 1.5, r) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 4, NULL, 4, 1, 99, 0.05, NULL) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 4, NULL, 3, 1, 99, 0.05, r) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 4, bad, 2, 1, 99, 0.05, r) < 0);
	CHECK(stats_changepoints(&cp, &n, y, 2, empty, 2, 1, 99, 0.05, r) < 0);
	CHECK_CONTAINS(msg, "group 1 is empty");
	error_capture(NULL, 0, 0);
	gsl_rng_free(r);
}

/*
 * Where a change point lies (issue 25 item 8): 50 records of one value
 * each, 5% noise, a +5% step at a record drawn from 10..40, e-divisive at
 * p <= 0.01 (199 permutations here; gate trend uses 999). A 1-sd step is
 * found in about a third of the histories and placed within one record of
 * the truth in about half of those, so gate says the range the data allow
 * instead: the 95% range of resampled locations held the true record in
 * 90.8% of the steps found over 300 histories (17.6 records wide on
 * average). Here 200 histories: at least 82% of those found (about 80
 * are: 3 standard errors under 0.9), the range always holding the point
 * itself; and with 10 samples a record the location is within one record
 * in at least 80% of the steps (0.94 over 100 histories; 16 here, for
 * time). Those are make bench-tests' sizes; make check runs a quarter
 * (harness_trials), on the same seeds.
 */
static double step_located(size_t samples, size_t trials, unsigned long seed,
			   double *covered, double *found)
{
	gsl_rng *r = rng_case(seed, 0);
	double sigma = sqrt(log(1 + 0.05 * 0.05)), x[500];
	size_t st[51], t, j, i, hit = 0, cover = 0, nfound = 0;

	for (t = 0; t < trials; t++) {
		size_t at = 10 + gsl_rng_uniform_int(r, 31), n = 0, ncp;
		struct stats_changepoint *cp;
		int near = 0, held = 0;

		for (j = 0; j < 50; j++) {
			st[j] = n;
			for (i = 0; i < samples; i++)
				x[n++] = (j >= at ? log(1.05) : 0) +
					 gsl_ran_gaussian(r, sigma);
		}
		st[50] = n;
		CHECK(stats_changepoints(&cp, &ncp, x, n, st, 50, 3, 199, 0.01,
					 r) == 0);
		for (i = 0; i < ncp; i++) {
			CHECK(cp[i].lo <= cp[i].group &&
			      cp[i].group <= cp[i].hi);
			near |= cp[i].group + 1 >= at && cp[i].group <= at + 1;
			held |= cp[i].lo <= at && at <= cp[i].hi;
		}
		nfound += ncp > 0;
		hit += near;
		cover += held;
		free(cp);
	}
	gsl_rng_free(r);
	*covered = nfound ? (double)cover / (double)nfound : 0;
	*found = (double)nfound / (double)trials;
	return (double)hit / (double)trials;
}

static void test_changepoint__location_range_holds_the_step(void)
{
	double cover, found, near;

	near = step_located(1, harness_trials(200), 91, &cover, &found);
	if (!(cover >= 0.82))
		fprintf(stderr, "  one value a record: found %.3f, within one "
			"record %.3f, range holds it %.3f of found\n", found,
			near, cover);
	CHECK(found >= 0.2);
	CHECK(cover >= 0.82);
	near = step_located(10, harness_trials(16), 92, &cover, &found);
	if (!(near >= 0.8))
		fprintf(stderr, "  ten values a record: within one record "
			"%.3f\n", near);
	CHECK(near >= 0.8);
}

static const struct harness_test tests[] = {
	TEST(test_changepoint__q_matches_direct_sums),
	TEST(test_changepoint__step_found_at_its_index),
	TEST(test_changepoint__two_steps_both_found),
	TEST(test_changepoint__flat_noise_has_none),
	TEST(test_changepoint__groups_split_between_groups),
	TEST(test_changepoint__segments_keep_min_size),
	TEST(test_changepoint__same_seed_same_points),
	TEST(test_changepoint__smallest_inputs),
	TEST(test_changepoint__refuses_bad_input),
	TEST(test_changepoint__location_range_holds_the_step),
};

HARNESS_MAIN(tests)
