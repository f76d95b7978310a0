/*
 * The trimmed mean and its interval (Tukey and McLaughlin 1963): the mean
 * of the values left once the g smallest and g largest are set aside,
 * with Student's t on h - 1 degrees of freedom (h = n - 2g values kept)
 * and the standard error from the winsorised variance (the g extremes on
 * each side replaced by the nearest value kept): s_w sqrt(n) / h. It is
 * scipy.stats.mstats.trimmed_mean_ci's interval (tests/ref/trim-ref.py).
 * gate uses g = 1 on the log-ratios to see a slow tail the Hodges-Lehmann
 * estimate is built to ignore, while one extreme pair, set aside, cannot
 * move it (gate/decide/verdict.c).
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#include "common/error.h"
#include "common/banned.h"

int stats_trimmed_mean_interval(struct stats_interval *out, double *estimate,
				const double *x, size_t n, size_t g,
				double level)
{
	double *s, mean = 0, wmean = 0, ss = 0, lo, hi, se, t;
	size_t i, h;

	if (n < 2 * g + 2 || !(level > 0 && level < 1))
		return error("a trimmed mean's interval needs at least %zu "
			     "values and a level in (0, 1) (%zu values, level "
			     "%g)", 2 * g + 2, n, level);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("a trimmed mean of a value that is not "
				     "finite");
	s = malloc(n * sizeof(*s));
	if (!s)
		return error("out of memory for a trimmed mean of %zu values",
			     n);
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	h = n - 2 * g;
	lo = s[g];
	hi = s[n - g - 1];
	for (i = g; i < n - g; i++)
		mean += s[i];
	mean /= (double)h;
	/* the winsorised values: the extremes replaced by lo and hi */
	for (i = 0; i < n; i++)
		wmean += s[i] < lo ? lo : s[i] > hi ? hi : s[i];
	wmean /= (double)n;
	for (i = 0; i < n; i++) {
		double w = s[i] < lo ? lo : s[i] > hi ? hi : s[i];

		ss += (w - wmean) * (w - wmean);
	}
	free(s);
	se = sqrt(ss / (double)(n - 1)) * sqrt((double)n) / (double)h;
	t = gsl_cdf_tdist_Pinv(0.5 + level / 2, (double)(h - 1));
	*estimate = mean;
	out->low = mean - t * se;
	out->high = mean + t * se;
	out->level = level;
	return 0;
}
