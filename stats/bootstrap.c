/*
 * Bootstrap intervals (percentile and BCa) of the median, Hodges-Lehmann
 * and mean. For the median and Hodges-Lehmann each resample is a vector
 * of counts over the sorted data rather than a copy to sort or select
 * from.
 */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
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

/*
 * The medians of `resamples` resamples of sorted[0..n) into med. A resample
 * is how many times each sorted value was drawn; its median sits at the
 * ranks r1 <= r2 (equal for odd n), found where the running count first
 * passes them. The same draws give exactly the median that copying the
 * values and selecting would, without comparing a single double.
 */
static void median_replicates(double *med, const double *sorted, size_t n,
			      size_t resamples, struct digits *d)
{
	uint32_t *count = xmalloc(n * sizeof(*count));
	size_t r1 = (n - 1) / 2, r2 = n / 2, b, i;

	for (b = 0; b < resamples; b++) {
		size_t j = 0, seen;
		double lo;

		memset(count, 0, n * sizeof(*count));
		for (i = 0; i < n; i++)
			count[digits_next(d)]++;
		seen = count[0];
		while (seen <= r1)
			seen += count[++j];
		lo = sorted[j];
		while (seen <= r2)
			seen += count[++j];
		med[b] = n % 2 ? lo : (lo + sorted[j]) / 2;
	}
	free(count);
}

/*
 * Hodges-Lehmann of `resamples` resamples of sorted[0..n) into hl: the
 * same counts as median_replicates give each resample already sorted, so
 * the selection among its Walsh averages (stats_hodges_lehmann_sorted)
 * needs no sort. The same draws, the same doubles as drawing values and
 * calling stats_hodges_lehmann; measured, 5x faster than sorting all
 * n(n+1)/2 averages at n = 20 and 27x at n = 60 (see bench/bench-stats.c).
 */
static void hl_replicates(double *hl, const double *sorted, size_t n,
			  size_t resamples, struct digits *d)
{
	uint32_t *count = xmalloc(n * sizeof(*count));
	double *buf = xmalloc(n * sizeof(*buf));
	size_t b, i, j, k;

	for (b = 0; b < resamples; b++) {
		memset(count, 0, n * sizeof(*count));
		for (i = 0; i < n; i++)
			count[digits_next(d)]++;
		for (j = 0, k = 0; j < n; j++)
			for (i = 0; i < count[j]; i++)
				buf[k++] = sorted[j];
		hl[b] = stats_hodges_lehmann_sorted(buf, n);
	}
	free(buf);
	free(count);
}

/* The estimator e of `resamples` resamples of x[0..n) into rep. */
static void replicates(double *rep, enum stats_estimator e, const double *x,
		       size_t n, size_t resamples, struct digits *d)
{
	double *buf = xmalloc(n * sizeof(*buf));
	size_t b, i;

	for (b = 0; b < resamples; b++) {
		for (i = 0; i < n; i++)
			buf[i] = x[digits_next(d)];
		rep[b] = stats_estimate(e, buf, n);
	}
	free(buf);
}

int stats_bootstrap_median(struct stats_interval *out, const double *x,
			   size_t n, size_t resamples, double level,
			   gsl_rng *rng)
{
	return stats_bootstrap(out, STATS_MEDIAN, 0, x, n, resamples, level,
			       rng);
}

/*
 * BCa's acceleration from the jackknife of the estimator:
 * sum (m - t_i)^3 / (6 (sum (m - t_i)^2)^1.5).
 */
static double acceleration(enum stats_estimator e, const double *x, size_t n)
{
	double *jack = xmalloc(n * sizeof(*jack));
	double *buf = xmalloc(n * sizeof(*buf)), m, s2 = 0, s3 = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(buf, x, i * sizeof(*buf));
		memcpy(buf + i, x + i + 1, (n - 1 - i) * sizeof(*buf));
		jack[i] = stats_estimate(e, buf, n - 1);
	}
	m = stats_mean(jack, n);
	for (i = 0; i < n; i++) {
		double dv = m - jack[i];

		s2 += dv * dv;
		s3 += dv * dv * dv;
	}
	free(buf);
	free(jack);
	return s2 > 0 ? s3 / (6 * pow(s2, 1.5)) : 0;
}

int stats_bootstrap(struct stats_interval *out, enum stats_estimator e,
		    int bca, const double *x, size_t n, size_t resamples,
		    double level, gsl_rng *rng)
{
	double *rep, plo = (1 - level) / 2, phi = (1 + level) / 2;
	struct digits d;

	if (check_args(x, n, resamples, level, rng) < 0)
		return -1;

	rep = xmalloc(resamples * sizeof(*rep));
	digits_init(&d, rng, (uint32_t)n);
	if (e == STATS_MEDIAN || e == STATS_HL) {
		double *sorted = xmalloc(n * sizeof(*sorted));

		memcpy(sorted, x, n * sizeof(*sorted));
		gsl_sort(sorted, 1, n);
		if (e == STATS_MEDIAN)
			median_replicates(rep, sorted, n, resamples, &d);
		else
			hl_replicates(rep, sorted, n, resamples, &d);
		free(sorted);
	} else {
		replicates(rep, e, x, n, resamples, &d);
	}

	if (bca) {
		/*
		 * Bias correction z0 from the share of replicates below the
		 * estimate (ties count half), acceleration a from the
		 * jackknife; the percentiles move to
		 * Phi(z0 + (z0 + z) / (1 - a (z0 + z))).
		 */
		double est = stats_estimate(e, x, n), below = 0, z0, a, z;
		size_t b;

		for (b = 0; b < resamples; b++)
			below += rep[b] < est ? 1 : rep[b] == est ? 0.5 : 0;
		below /= (double)resamples;
		if (below <= 0 || below >= 1) {
			free(rep);
			return error("the BCa interval is undefined: every "
				     "resample lies on one side of the "
				     "estimate");
		}
		z0 = gsl_cdf_ugaussian_Pinv(below);
		a = acceleration(e, x, n);
		z = gsl_cdf_ugaussian_Pinv(plo);
		plo = gsl_cdf_ugaussian_P(z0 + (z0 + z) / (1 - a * (z0 + z)));
		z = gsl_cdf_ugaussian_Pinv(phi);
		phi = gsl_cdf_ugaussian_P(z0 + (z0 + z) / (1 - a * (z0 + z)));
	}
	/*
	 * Two type-7 quantiles by selection instead of sorting all the
	 * replicates: the same numbers, in linear rather than B log B time.
	 */
	out->low = stats_quantile_inplace(rep, resamples, plo);
	out->high = stats_quantile_inplace(rep, resamples, phi);
	out->level = level;
	free(rep);
	return 0;
}

double stats_bootstrap_tail(size_t n, double tail)
{
	double t;

	if (n < 2 || !(tail > 0 && tail < 0.5))
		return NAN;
	/*
	 * The percentile interval is about a normal interval with the
	 * plug-in sd, sqrt((n - 1) / n) of the sample sd: too narrow twice
	 * over at small n. Expanded (Hesterberg 2015): take the percentile
	 * whose normal quantile is sqrt(n / (n - 1)) times Student's.
	 */
	t = gsl_cdf_tdist_Qinv(tail, (double)(n - 1)) *
	    sqrt((double)n / (double)(n - 1));
	return gsl_cdf_ugaussian_Q(t);
}

size_t stats_bootstrap_min_n(double tail, size_t resamples)
{
	size_t lo = 2, hi = STATS_BOOTSTRAP_MAX_N;

	if (!(tail > 0 && tail < 0.5) || resamples == 0)
		return 0;
	/* the expanded tail grows with n towards tail: bisect on n */
	if (stats_bootstrap_tail(hi, tail) * (double)resamples <
	    STATS_BOOTSTRAP_TAIL_DRAWS)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (stats_bootstrap_tail(mid, tail) * (double)resamples >=
		    STATS_BOOTSTRAP_TAIL_DRAWS)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
