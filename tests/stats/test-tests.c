/*
 * Unit tests for stats/tests.c: sign-test p-values against scipy
 * (tests/ref/stats-ref.h) and their edges.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "tests/harness.h"
#include "tests/stats/fixture.h"
#include "tests/ref/stats-ref.h"
#include "common/banned.h"

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

static const struct harness_test tests[] = {
	TEST(test_stats__sign_test_matches_scipy),
	TEST(test_stats__sign_test_edges),
};

int main(int argc, char **argv)
{
	/* stats/ checks every GSL status itself; GSL must not abort */
	gsl_set_error_handler_off();
	return harness_main(tests, ARRAY_SIZE(tests), argc, argv);
}
