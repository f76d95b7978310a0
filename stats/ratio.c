/*
 * The ratio of two means over paired values, sum(num) / sum(den), and its
 * interval: the delta method's standard error from the paired residuals
 * num_i - R den_i, sqrt(sum e^2 / ((n - 1) n)) / mean(den), with Student's
 * t on n - 1 degrees of freedom (tests/ref/ratio-ref.py computes it with
 * numpy and scipy.stats.t). gate's slow-tail check takes head's values
 * over base's, so R is the change in mean time, which a tail of slow runs
 * moves as much as it moves the mean (gate/decide/verdict-bounds.c).
 */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "common/banned.h"

int stats_ratio_of_means(struct stats_interval *out, double *estimate,
			 const double *num, const double *den, size_t n,
			 double level)
{
	double sn = 0, sd = 0, ss = 0, r, se, t;
	size_t i;

	if (n < 2 || !(level > 0 && level < 1))
		return error("a ratio of means' interval needs at least 2 "
			     "pairs and a level in (0, 1) (%zu pairs, level "
			     "%g)", n, level);
	for (i = 0; i < n; i++) {
		if (!isfinite(num[i]) || !isfinite(den[i]) || num[i] < 0 ||
		    den[i] < 0)
			return error("a ratio of means of a value that is "
				     "negative or not finite");
		sn += num[i];
		sd += den[i];
	}
	if (!(sd > 0))
		return error("a ratio of means whose denominators sum to 0");
	r = sn / sd;
	for (i = 0; i < n; i++)
		ss += (num[i] - r * den[i]) * (num[i] - r * den[i]);
	se = sqrt(ss / (double)(n - 1) / (double)n) / (sd / (double)n);
	t = gsl_cdf_tdist_Pinv(0.5 + level / 2, (double)(n - 1));
	*estimate = r;
	out->low = r - t * se;
	out->high = r + t * se;
	out->level = level;
	return 0;
}
