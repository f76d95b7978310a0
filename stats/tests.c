/*
 * Hypothesis tests on counts: the exact two-sided sign test behind the
 * "head slower in 13 of 15 pairs" line, from GSL's binomial distribution.
 */
#include "stats.h"

#include <limits.h>
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "common/banned.h"

double stats_sign_test(size_t k, size_t n)
{
	size_t tail;
	double p;

	if (k > n || n > UINT_MAX)
		return NAN;
	/*
	 * Within half a trial of n/2 (this includes n == 0) each tail holds
	 * at least half the mass: p is 1 exactly, not 1 minus rounding.
	 */
	if (2 * k + 1 >= n && 2 * k <= n + 1)
		return 1;
	/*
	 * Binomial(n, 1/2) is symmetric, so P[X >= k] = P[X <= n - k] and the
	 * smaller tail is P[X <= min(k, n - k)]: summed from its own end, it
	 * keeps full relative precision down to 2^-n.
	 */
	tail = k < n - k ? k : n - k;
	p = 2 * gsl_cdf_binomial_P((unsigned)tail, 0.5, (unsigned)n);
	if (!(p >= 0))
		return NAN;	/* GSL failed; its handler is off */
	return p < 1 ? p : 1;
}
