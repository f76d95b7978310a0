/*
 * Summaries of one array of doubles: mean, spread, geometric mean, median
 * and quantiles by selection (no full sort), and the Bonferroni level that
 * keeps a suite's family-wise error within the requested confidence.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "common/error.h"
#include "common/banned.h"

double stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double stats_sd(const double *x, size_t n)
{
	double m, ss = 0, s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	/*
	 * Two passes: squaring deviations from the mean, not raw values,
	 * keeps 1e9 + {1, 2, 3} from cancelling to nothing. s is the
	 * rounding error left in the mean, removed as in the corrected
	 * two-pass algorithm.
	 */
	m = stats_mean(x, n);
	for (i = 0; i < n; i++) {
		double d = x[i] - m;

		ss += d * d;
		s += d;
	}
	return sqrt((ss - s * s / n) / (n - 1));
}

double stats_cv(const double *x, size_t n)
{
	double m;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	if (m == 0)
		return NAN;
	return stats_sd(x, n) / m;
}

double stats_geomean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	/* the mean of the logs: a product of 10,000 ratios would overflow */
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0) || isinf(x[i]))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / n);
}

static void swap(double *x, size_t i, size_t j)
{
	double t = x[i];

	x[i] = x[j];
	x[j] = t;
}

static int has_nan(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return 1;
	return 0;
}

/*
 * Hoare's quickselect: afterwards x[k] is the k-th smallest (from 0), with
 * nothing larger before it and nothing smaller after it. The pivot is the
 * median of the first, middle and last values, so sorted and reversed input
 * stay linear; both scans stop on keys equal to the pivot, so ties split
 * evenly instead of degrading to quadratic time. x must hold no NaN: the
 * scans rely on the sentinels that a total order guarantees.
 */
static void select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo + 1) {
		size_t mid = lo + (hi - lo) / 2, i, j;
		double pivot;

		/* x[lo] <= x[mid] <= x[hi]: the ends become the sentinels */
		if (x[mid] < x[lo])
			swap(x, mid, lo);
		if (x[hi] < x[lo])
			swap(x, hi, lo);
		if (x[hi] < x[mid])
			swap(x, hi, mid);
		swap(x, mid, lo + 1);
		pivot = x[lo + 1];
		i = lo + 1;
		j = hi;
		for (;;) {
			while (x[++i] < pivot)
				;
			while (pivot < x[--j])
				;
			if (j < i)
				break;
			swap(x, i, j);
		}
		/* x[lo..j] <= pivot <= x[i..hi]; anything between equals it */
		x[lo + 1] = x[j];
		x[j] = pivot;
		if (k < j)
			hi = j - 1;
		else if (k >= i)
			lo = i;
		else
			return;
	}
	if (hi == lo + 1 && x[hi] < x[lo])
		swap(x, lo, hi);
}

/* The smallest of x[from..n): after select_kth(k), x[k + 1]'s true value. */
static double min_from(const double *x, size_t from, size_t n)
{
	double m = x[from];
	size_t i;

	for (i = from + 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double stats_median_inplace(double *x, size_t n)
{
	if (!n || has_nan(x, n))
		return NAN;
	/* GSL selects in place too; for even n the mean of the two middles */
	return gsl_stats_median(x, 1, n);
}

double stats_median(const double *x, size_t n)
{
	double *tmp, m;

	if (!n)
		return NAN;
	tmp = xmalloc(n * sizeof(*tmp));
	memcpy(tmp, x, n * sizeof(*tmp));
	m = stats_median_inplace(tmp, n);
	free(tmp);
	return m;
}

/*
 * a + t(b - a), but from b's end when t >= 1/2, as numpy does: exact at
 * t = 0 and t = 1 and monotone in t, so quantiles never leave [a, b].
 */
static double lerp(double a, double b, double t)
{
	double d = b - a;

	return t < 0.5 ? a + d * t : b - d * (1 - t);
}

/* Type 7: h = (n - 1)p, between the floor(h)-th and the next value. */
static int type7_position(size_t n, double p, size_t *lo, double *frac)
{
	double h;

	if (!n || !(p >= 0 && p <= 1))
		return -1;
	h = (n - 1) * p;
	*lo = (size_t)h;
	if (*lo >= n - 1) {
		*lo = n - 1;
		*frac = 0;
	} else {
		*frac = h - (double)*lo;
	}
	return 0;
}

double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	size_t lo;
	double frac;

	if (type7_position(n, p, &lo, &frac) < 0)
		return NAN;
	if (lo == n - 1)
		return sorted[lo];
	return lerp(sorted[lo], sorted[lo + 1], frac);
}

double stats_quantile_inplace(double *x, size_t n, double p)
{
	size_t lo;
	double frac;

	if (type7_position(n, p, &lo, &frac) < 0 || has_nan(x, n))
		return NAN;
	select_kth(x, n, lo);
	if (lo == n - 1)
		return x[lo];
	return lerp(x[lo], min_from(x, lo + 1, n), frac);
}

double stats_bonferroni(double confidence, size_t m)
{
	if (!m)
		m = 1;
	return 1 - (1 - confidence) / m;
}
