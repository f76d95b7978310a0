/*
 * Unit tests for the trimmed mean's interval (stats/trim.c): estimates and
 * bounds against scipy.stats.mstats.trimmed_mean_ci (tests/ref/trim-ref.h),
 * one extreme value set aside, order not mattering, and the refusals.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "common/error.h"
#include "tests/harness.h"
#include "tests/stats/fixture.h"
#include "tests/ref/trim-ref.h"
#include "common/banned.h"

static void test_trim__matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(trim_ref); i++) {
		const struct trim_ref *c = &trim_ref[i];
		struct stats_interval ci;
		double est;

		CHECK(stats_trimmed_mean_interval(&ci, &est, c->x, c->n, c->g,
						  c->level) == 0);
		if (fabs(ci.low - c->low) > 1e-8 ||
		    fabs(ci.high - c->high) > 1e-8)
			fprintf(stderr, "  case %s: %.17g %.17g, want %.17g "
				"%.17g\n", c->name, ci.low, ci.high, c->low,
				c->high);
		CHECK_NEAR(est, c->mean, 1e-12);
		CHECK_NEAR(ci.low, c->low, 1e-8 * (1 + fabs(c->low)));
		CHECK_NEAR(ci.high, c->high, 1e-8 * (1 + fabs(c->high)));
		CHECK_NEAR(ci.level, c->level, 0);
	}
}

/* One extreme value moves neither the 1-trimmed mean nor (much) its
   interval: it is set aside, and winsorised to the next value. */
static void test_trim__one_extreme_is_set_aside(void)
{
	double x[10] = { 0.02, -0.01, 0.00, 0.03, 0.05, 0.01, -0.02, 0.04,
			 0.00, 0.01 };
	struct stats_interval a, b;
	double ea, eb, *r;

	CHECK(stats_trimmed_mean_interval(&a, &ea, x, 10, 1, 0.95) == 0);
	x[4] = 1e6;
	CHECK(stats_trimmed_mean_interval(&b, &eb, x, 10, 1, 0.95) == 0);
	CHECK_NEAR(ea, eb, 1e-15);
	CHECK_NEAR(a.low, b.low, 1e-15);
	CHECK_NEAR(a.high, b.high, 1e-15);
	/* the input is not reordered, and its order does not matter */
	CHECK_NEAR(x[4], 1e6, 0);
	r = copy(x, 10);
	qsort(r, 10, sizeof(*r), cmp_double);
	CHECK(stats_trimmed_mean_interval(&a, &ea, r, 10, 1, 0.95) == 0);
	CHECK_NEAR(ea, eb, 1e-15);
	CHECK_NEAR(a.high, b.high, 1e-15);
	free(r);
}

static void test_trim__refuses_what_it_cannot_do(void)
{
	double x[4] = { 1, 2, 3, NAN };
	struct stats_interval ci;
	char msg[256];
	double e;

	error_capture(msg, sizeof(msg), 1);
	CHECK(stats_trimmed_mean_interval(&ci, &e, x, 3, 1, 0.95) < 0);
	CHECK_CONTAINS(msg, "needs at least 4 values");
	CHECK(stats_trimmed_mean_interval(&ci, &e, x, 4, 1, 0.95) < 0);
	CHECK(stats_trimmed_mean_interval(&ci, &e, x, 3, 0, 1.0) < 0);
	CHECK(stats_trimmed_mean_interval(&ci, &e, x, 3, 0, 0.95) == 0);
	error_capture(NULL, 0, 0);
}

static const struct harness_test tests[] = {
	TEST(test_trim__matches_scipy),
	TEST(test_trim__one_extreme_is_set_aside),
	TEST(test_trim__refuses_what_it_cannot_do),
};

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
