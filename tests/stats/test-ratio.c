/*
 * Unit tests for the ratio of means' interval (stats/ratio.c): estimates
 * and bounds against numpy and scipy.stats.t (tests/ref/ratio-ref.h), a
 * slow tail moving it as it moves the mean, and the refusals.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "common/error.h"
#include "tests/harness.h"
#include "tests/stats/fixture.h"
#include "tests/ref/ratio-ref.h"
#include "common/banned.h"

static void test_ratio__matches_scipy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ratio_ref); i++) {
		const struct ratio_ref *c = &ratio_ref[i];
		struct stats_interval ci;
		double est;

		CHECK(stats_ratio_of_means(&ci, &est, c->num, c->den, c->n,
					   c->level) == 0);
		if (fabs(ci.low - c->low) > 1e-9 ||
		    fabs(ci.high - c->high) > 1e-9)
			fprintf(stderr, "  case %s: %.17g %.17g, want %.17g "
				"%.17g\n", c->name, ci.low, ci.high, c->low,
				c->high);
		/* GSL's t quantile agrees with scipy's to about 1e-10 */
		CHECK_NEAR(est, c->ratio, 1e-13);
		CHECK_NEAR(ci.low, c->low, 1e-9 * (1 + fabs(c->low)));
		CHECK_NEAR(ci.high, c->high, 1e-9 * (1 + fabs(c->high)));
		CHECK_NEAR(ci.level, c->level, 0);
	}
}

/* Head twice as long in 4 of 40 pairs, the rest equal: the ratio is the
   mean's change, +10%, where a median or a 5%-trimmed mean sees less. */
static void test_ratio__a_slow_tail_moves_it_as_the_mean(void)
{
	double b[40], h[40], est;
	struct stats_interval ci;
	size_t i;

	for (i = 0; i < 40; i++) {
		b[i] = 0.1;
		h[i] = i % 10 == 3 ? 0.2 : 0.1;
	}
	CHECK(stats_ratio_of_means(&ci, &est, h, b, 40, 0.95) == 0);
	CHECK_NEAR(est, 1.10, 1e-12);
	CHECK(ci.low < 1.10 && ci.high > 1.10);
}

static void test_ratio__refuses_what_it_cannot_do(void)
{
	double x[3] = { 1, 2, NAN }, z[3] = { 0, 0, 0 };
	struct stats_interval ci;
	char msg[256];
	double e;

	error_capture(msg, sizeof(msg), 1);
	CHECK(stats_ratio_of_means(&ci, &e, x, x, 1, 0.95) < 0);
	CHECK_CONTAINS(msg, "needs at least 2 pairs");
	CHECK(stats_ratio_of_means(&ci, &e, x, x, 3, 0.95) < 0);
	CHECK(stats_ratio_of_means(&ci, &e, x, x, 2, 1.0) < 0);
	CHECK(stats_ratio_of_means(&ci, &e, x, z, 2, 0.95) < 0);
	CHECK_CONTAINS(msg, "sum to 0");
	error_capture(NULL, 0, 0);
	CHECK(stats_ratio_of_means(&ci, &e, x, x, 2, 0.95) == 0);
	CHECK_NEAR(e, 1, 0);
}

static const struct harness_test tests[] = {
	TEST(test_ratio__matches_scipy),
	TEST(test_ratio__a_slow_tail_moves_it_as_the_mean),
	TEST(test_ratio__refuses_what_it_cannot_do),
};

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
