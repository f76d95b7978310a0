/*
 * Two independent samples (gate compare, where nothing pairs the runs): the
 * percentile bootstrap of a ratio of medians, and the Mann-Whitney U test
 * computed as scipy.stats.mannwhitneyu(method="auto") does.
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

static int check_sample(const double *x, size_t n, const char *which)
{
	size_t i;

	if (n < 2)
		return error("the unpaired bootstrap needs at least 2 values "
			     "in the %s sample, got %zu", which, n);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("value %zu of the %s sample is %g, not a "
				     "finite number", i + 1, which, x[i]);
	return 0;
}

/* The median of a resample of sorted x drawn with rng (n draws). */
static double resample_median(const double *sorted, size_t n,
			      uint32_t *count, gsl_rng *rng)
{
	size_t r1 = (n - 1) / 2, r2 = n / 2, i, j = 0, seen;
	double lo;

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[gsl_rng_uniform_int(rng, n)]++;
	seen = count[0];
	while (seen <= r1)
		seen += count[++j];
	lo = sorted[j];
	while (seen <= r2)
		seen += count[++j];
	return n % 2 ? lo : (lo + sorted[j]) / 2;
}

int stats_bootstrap_ratio(struct stats_interval *out, const double *num,
			  size_t nn, const double *den, size_t nd,
			  size_t resamples, double level, gsl_rng *rng)
{
	double *sn = NULL, *sd = NULL, *ratios = NULL;
	uint32_t *count = NULL;
	size_t b;
	int ret = -1;

	if (check_sample(num, nn, "first") < 0 ||
	    check_sample(den, nd, "second") < 0)
		return -1;
	if (resamples < 100 || resamples > SIZE_MAX / sizeof(double))
		return error("the bootstrap needs from 100 resamples, got %zu",
			     resamples);
	if (!(level > 0 && level < 1))
		return error("the bootstrap level must be between 0 and 1 "
			     "(exclusive), got %g", level);
	if (!rng || nn > gsl_rng_max(rng) - gsl_rng_min(rng) ||
	    nd > gsl_rng_max(rng) - gsl_rng_min(rng))
		return error("the bootstrap needs a random number generator "
			     "that can draw from %zu values",
			     nn > nd ? nn : nd);
	sn = xmalloc(nn * sizeof(*sn));
	sd = xmalloc(nd * sizeof(*sd));
	memcpy(sn, num, nn * sizeof(*sn));
	memcpy(sd, den, nd * sizeof(*sd));
	gsl_sort(sn, 1, nn);
	gsl_sort(sd, 1, nd);
	if (sd[0] <= 0) {
		error("the denominator sample holds %g: a ratio needs "
		      "values above zero", sd[0]);
		goto cleanup;
	}
	count = xmalloc((nn > nd ? nn : nd) * sizeof(*count));
	ratios = xmalloc(resamples * sizeof(*ratios));
	/* each resample draws both samples, numerator first */
	for (b = 0; b < resamples; b++) {
		double m1 = resample_median(sn, nn, count, rng);

		ratios[b] = m1 / resample_median(sd, nd, count, rng);
	}
	out->low = stats_quantile_inplace(ratios, resamples, (1 - level) / 2);
	out->high = stats_quantile_inplace(ratios, resamples, (1 + level) / 2);
	out->level = level;
	ret = 0;
cleanup:
	free(ratios);
	free(count);
	free(sn);
	free(sd);
	return ret;
}

struct ranked {
	double v;
	int first;	/* from x */
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v;
	double y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

/*
 * P[U >= u] for sample sizes a <= b without ties: U's counts are the
 * coefficients of the Gaussian binomial [a+b choose a]_q, built as the
 * product over i of (1 - q^(b+i)) / (1 - q^i). Integers held in doubles
 * stay exact while the total C(a+b, a) is below 2^53; returns NAN beyond.
 */
static double exact_sf(double u, size_t a, size_t b)
{
	size_t deg = a * b, i, k;
	double *c, total = 0, tail = 0, binom = 1;

	for (i = 1; i <= a; i++)
		binom = binom * (double)(b + i) / (double)i;
	if (binom > 9007199254740992.0)
		return NAN;
	c = xcalloc(deg + 1, sizeof(*c));
	c[0] = 1;
	for (i = 1; i <= a; i++) {
		size_t s = b + i;

		for (k = deg; k >= s; k--)
			c[k] -= c[k - s];
		for (k = i; k <= deg; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= deg; k++) {
		total += c[k];
		if ((double)k >= u)
			tail += c[k];
	}
	free(c);
	return tail / total;
}

int stats_mann_whitney(struct stats_mwu *out, const double *x, size_t nx,
		       const double *y, size_t ny)
{
	size_t n = nx + ny, i, j;
	struct ranked *r;
	double r1 = 0, ties = 0, u, s, z, p = NAN;

	if (nx == 0 || ny == 0)
		return error("the Mann-Whitney test needs values in both "
			     "samples, got %zu and %zu", nx, ny);
	for (i = 0; i < nx; i++)
		if (isnan(x[i]))
			return error("the Mann-Whitney test got a NaN");
	for (i = 0; i < ny; i++)
		if (isnan(y[i]))
			return error("the Mann-Whitney test got a NaN");
	r = xmalloc(n * sizeof(*r));
	for (i = 0; i < nx; i++) {
		r[i].v = x[i];
		r[i].first = 1;
	}
	for (i = 0; i < ny; i++) {
		r[nx + i].v = y[i];
		r[nx + i].first = 0;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* mid-ranks for ties, and the tie term sum(t^3 - t) */
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		rank = ((double)i + 1 + (double)j) / 2;
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (r[k].first)
				r1 += rank;
	}
	free(r);
	out->u = r1 - (double)nx * ((double)nx + 1) / 2;
	u = out->u > (double)nx * (double)ny - out->u ?
	    out->u : (double)nx * (double)ny - out->u;
	out->exact = 0;
	if ((nx <= 8 || ny <= 8) && ties == 0) {
		p = exact_sf(u, nx < ny ? nx : ny, nx < ny ? ny : nx);
		out->exact = !isnan(p);
	}
	if (!out->exact) {
		s = sqrt((double)nx * (double)ny / 12 *
			 ((double)n + 1 - ties / ((double)n * ((double)n - 1))));
		z = (u - (double)nx * (double)ny / 2 - 0.5) / s;
		p = s > 0 ? gsl_cdf_ugaussian_Q(z) : 1.0;
	}
	p *= 2;
	out->p = p < 1 ? p : 1;
	return 0;
}
