/*
 * The percentile bootstrap interval of the median: the hot path of every
 * verdict (100 benchmarks x 10,000 resamples), so each resample is a vector
 * of counts over the sorted data rather than a copy to select from.
 */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>

#include "common/error.h"
#include "common/banned.h"

/*
 * Uniform indices below n, several per call into the generator: a uniform
 * integer below n^per (drawn exactly, by rejection, by gsl_rng_uniform_int)
 * has per independent base-n digits, each uniform below n. Digits are used
 * in order and leftovers carry into the next resample, so the indices are a
 * pure function of the generator's state. 32-bit arithmetic: every GSL
 * generator's range fits, and 32-bit division is the cheaper one.
 */
struct digits {
	gsl_rng *rng;
	uint32_t n, span, cur;
	unsigned per, left;
};

static void digits_init(struct digits *d, gsl_rng *rng, uint32_t n)
{
	unsigned long range = gsl_rng_max(rng) - gsl_rng_min(rng);
	uint32_t limit = range > UINT32_MAX ? UINT32_MAX : (uint32_t)range;

	d->rng = rng;
	d->n = n;
	d->span = n;
	d->per = 1;
	while (d->span <= limit / n) {
		d->span *= n;
		d->per++;
	}
	d->cur = 0;
	d->left = 0;
}

static inline uint32_t digits_next(struct digits *d)
{
	uint32_t v;

	if (!d->left) {
		d->cur = (uint32_t)gsl_rng_uniform_int(d->rng, d->span);
		d->left = d->per;
	}
	v = d->cur % d->n;
	d->cur /= d->n;
	d->left--;
	return v;
}

static int check_args(const double *x, size_t n, size_t resamples,
		      double level, const gsl_rng *rng)
{
	unsigned long range;
	size_t i;

	if (n < 2)
		return error("the bootstrap of the median needs at least 2 "
			     "values, got %zu", n);
	if (resamples < 100)
		return error("the bootstrap needs at least 100 resamples, "
			     "got %zu", resamples);
	if (resamples > SIZE_MAX / sizeof(double))
		return error("%zu bootstrap resamples do not fit in memory",
			     resamples);
	if (!(level > 0 && level < 1))
		return error("the bootstrap level must be between 0 and 1 "
			     "(exclusive), got %g", level);
	if (!rng)
		return error("the bootstrap needs a random number generator");
	range = gsl_rng_max(rng) - gsl_rng_min(rng);
	if (n > range || n > UINT32_MAX)
		return error("the bootstrap cannot draw from %zu values with "
			     "generator %s", n, gsl_rng_name(rng));
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("value %zu of %zu given to the bootstrap "
				     "is %g, not a finite number", i + 1, n,
				     x[i]);
	return 0;
}

int stats_bootstrap_median(struct stats_interval *out, const double *x,
			   size_t n, size_t resamples, double level,
			   gsl_rng *rng)
{
	double *sorted, *medians;
	uint32_t *count;
	struct digits d;
	size_t r1 = (n - 1) / 2, r2 = n / 2, b, i;

	if (check_args(x, n, resamples, level, rng) < 0)
		return -1;

	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	count = xmalloc(n * sizeof(*count));
	medians = xmalloc(resamples * sizeof(*medians));
	digits_init(&d, rng, (uint32_t)n);

	/*
	 * A resample is how many times each sorted value was drawn; its
	 * median sits at the ranks r1 <= r2 (equal for odd n), found where
	 * the running count first passes them. The same draws give exactly
	 * the median that copying the values and selecting would, without
	 * comparing a single double.
	 */
	for (b = 0; b < resamples; b++) {
		size_t j = 0, seen;
		double lo;

		memset(count, 0, n * sizeof(*count));
		for (i = 0; i < n; i++)
			count[digits_next(&d)]++;
		seen = count[0];
		while (seen <= r1)
			seen += count[++j];
		lo = sorted[j];
		while (seen <= r2)
			seen += count[++j];
		medians[b] = n % 2 ? lo : (lo + sorted[j]) / 2;
	}

	/*
	 * Two type-7 quantiles by selection instead of sorting all the
	 * medians: the same numbers, in linear rather than B log B time.
	 */
	out->low = stats_quantile_inplace(medians, resamples, (1 - level) / 2);
	out->high = stats_quantile_inplace(medians, resamples, (1 + level) / 2);
	out->level = level;

	free(medians);
	free(count);
	free(sorted);
	return 0;
}
