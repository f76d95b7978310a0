/*
 * Rank statistics: Wilcoxon's signed-rank test (the p-value scipy.stats
 * gives), the Hodges-Lehmann estimator, and exact distribution-free
 * intervals for the median and the Hodges-Lehmann shift.
 */
#include "stats.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_sort_double.h>

#include "common/error.h"
#include "common/banned.h"

/* Above this many values the signed-rank law is taken as normal. */
#define SIGNED_RANK_EXACT_MAX 300
/* Walsh averages kept in memory at most: n(n+1)/2 for n = 3000. */
#define WALSH_MAX_N 3000

static int all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/*
 * Average ranks (1-based) of v[0..n), ties sharing their mean rank, as
 * scipy.stats.rankdata. *ties_term gets sum of t^3 - t over tie groups.
 */
static void average_ranks(double *rank, const double *v, size_t n,
			  double *ties_term)
{
	size_t *idx = xmalloc((n ? n : 1) * sizeof(*idx));
	size_t i, j, k;

	gsl_sort_index(idx, v, 1, n);
	*ties_term = 0;
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && v[idx[j]] == v[idx[i]]; j++)
			;
		for (k = i; k < j; k++)
			rank[idx[k]] = (double)(i + 1 + j) / 2;
		t = (double)(j - i);
		*ties_term += t * t * t - t;
	}
	free(idx);
}

/*
 * pmf[0..n(n+1)/2] of the signed-rank sum T+ for n values without ties:
 * each rank k joins T+ with probability 1/2, independently.
 */
static double *signed_rank_pmf(size_t n)
{
	size_t top = n * (n + 1) / 2, k, s;
	double *p = xcalloc(top + 1, sizeof(*p));

	p[0] = 1;
	for (k = 1; k <= n; k++) {
		size_t hi = k * (k + 1) / 2;

		for (s = hi + 1; s-- > 0;)
			p[s] = (p[s] + (s >= k ? p[s - k] : 0)) / 2;
	}
	return p;
}

double stats_wilcoxon(const double *d, size_t n)
{
	double *rank = NULL, *nz = NULL, rp = 0, rm = 0, ties, p;
	size_t i, m = 0, zeros = 0;

	if (n == 0 || !all_finite(d, n))
		return NAN;
	for (i = 0; i < n; i++)
		zeros += d[i] == 0;
	if (zeros == n)
		return NAN;
	nz = xmalloc(n * sizeof(*nz));
	rank = xmalloc(n * sizeof(*rank));
	if (n <= 50 && zeros == 0) {
		/* scipy's "exact": the null law of T+, r+ truncated to int */
		size_t top = n * (n + 1) / 2, r, s;
		double lo = 0, hi = 0, *pmf;

		for (i = 0; i < n; i++)
			nz[i] = fabs(d[i]);
		average_ranks(rank, nz, n, &ties);
		for (i = 0; i < n; i++)
			if (d[i] > 0)
				rp += rank[i];
		r = (size_t)rp;
		pmf = signed_rank_pmf(n);
		if (r == top / 2) {	/* scipy: the centre of the law */
			p = 1;
		} else {
			for (s = 0; s <= r; s++)
				lo += pmf[s];
			for (s = r; s <= top; s++)
				hi += pmf[s];
			p = 2 * (lo < hi ? lo : hi);
		}
		free(pmf);
	} else {
		/* scipy's "approx", zero_method "wilcox", no continuity */
		double mn, se, z;

		for (i = 0; i < n; i++)
			if (d[i] != 0)
				nz[m++] = fabs(d[i]);
		average_ranks(rank, nz, m, &ties);
		for (i = 0, m = 0; i < n; i++) {
			if (d[i] > 0)
				rp += rank[m++];
			else if (d[i] < 0)
				rm += rank[m++];
		}
		mn = (double)m * (m + 1) / 4;
		se = (double)m * (m + 1) * (2.0 * m + 1) - 0.5 * ties;
		se = sqrt(se / 24);
		z = ((rp < rm ? rp : rm) - mn) / se;
		p = 2 * gsl_cdf_ugaussian_Q(fabs(z));
	}
	free(nz);
	free(rank);
	return p < 1 ? p : 1;
}

/* Sorted Walsh averages (x_i + x_j) / 2, i <= j: n(n+1)/2 of them. */
static double *walsh_sorted(const double *x, size_t n, size_t *m)
{
	size_t i, j, k = 0;
	double *w;

	*m = n * (n + 1) / 2;
	w = xmalloc(*m * sizeof(*w));
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (x[i] + x[j]) / 2;
	gsl_sort(w, 1, *m);
	return w;
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_hodges_lehmann(const double *x, size_t n)
{
	double *w, v;
	size_t m;

	if (n == 0 || n > WALSH_MAX_N || !all_finite(x, n))
		return NAN;
	w = walsh_sorted(x, n, &m);
	v = median_sorted(w, m);
	free(w);
	return v;
}

double stats_estimate(enum stats_estimator e, const double *x, size_t n)
{
	switch (e) {
	case STATS_MEDIAN:
		return stats_median(x, n);
	case STATS_HL:
		return stats_hodges_lehmann(x, n);
	case STATS_MEAN:
		return stats_mean(x, n);
	}
	return NAN;
}

const char *stats_estimator_name(enum stats_estimator e)
{
	switch (e) {
	case STATS_MEDIAN:
		return "median";
	case STATS_HL:
		return "hl";
	case STATS_MEAN:
		return "mean";
	}
	return "?";
}

/*
 * Largest c >= 1 with P[X <= c - 1] <= tail for the count X whose lower
 * cdf is given, or 0 when even P[X <= 0] is above tail.
 */
static size_t binomial_depth(size_t n, double tail)
{
	size_t c = 0;

	while (c < n / 2 + 1 &&
	       gsl_cdf_binomial_P((unsigned)c, 0.5, (unsigned)n) <= tail)
		c++;
	return c;
}

static size_t signed_rank_depth(size_t n, double tail)
{
	size_t top = n * (n + 1) / 2, c = 0;

	if (n <= SIGNED_RANK_EXACT_MAX) {
		double *pmf = signed_rank_pmf(n), cdf = pmf[0];

		while (c < top / 2 + 1 && cdf <= tail)
			cdf += pmf[++c];
		free(pmf);
		return c;
	} else {
		/* normal law of T+ with a continuity correction */
		double mu = (double)top / 2;
		double sd = sqrt((double)n * (n + 1) * (2.0 * n + 1) / 24);
		double v = floor(mu - gsl_cdf_ugaussian_Qinv(tail) * sd + 0.5);

		return v > 0 ? (size_t)v : 0;
	}
}

int stats_interval_exact(struct stats_interval *out, enum stats_estimator e,
			 const double *x, size_t n, double level)
{
	double tail = (1 - level) / 2, *s = NULL;
	size_t c, m;

	if (n < 2)
		return error("an interval needs at least 2 values, got %zu", n);
	if (!(level > 0 && level < 1))
		return error("the interval level must be between 0 and 1 "
			     "(exclusive), got %g", level);
	if (!all_finite(x, n))
		return error("an interval needs finite values");
	if (n > UINT_MAX || (e == STATS_HL && n > WALSH_MAX_N))
		return error("the %s interval cannot be computed from %zu "
			     "values: use fewer pairs or \"statistic\": "
			     "\"median\"", stats_estimator_name(e), n);
	out->level = level;
	switch (e) {
	case STATS_MEDIAN:
		/* [x(c), x(n+1-c)] covers the median with >= level */
		s = xmalloc(n * sizeof(*s));
		memcpy(s, x, n * sizeof(*s));
		gsl_sort(s, 1, n);
		c = binomial_depth(n, tail);
		m = n;
		break;
	case STATS_HL:
		/* Walsh averages at the signed-rank critical depth */
		s = walsh_sorted(x, n, &m);
		c = signed_rank_depth(n, tail);
		break;
	case STATS_MEAN: {
		double mean = stats_mean(x, n), sd = stats_sd(x, n);
		double h = gsl_cdf_tdist_Qinv(tail, (double)(n - 1)) * sd /
			   sqrt((double)n);

		out->low = mean - h;
		out->high = mean + h;
		return 0;
	}
	default:
		return error("unknown estimator");
	}
	if (c == 0) {
		/* too few values to reach this level: nothing is excluded */
		out->low = -INFINITY;
		out->high = INFINITY;
	} else {
		out->low = s[c - 1];
		out->high = s[m - c];
	}
	free(s);
	return 0;
}

size_t stats_interval_min_n(enum stats_estimator e, double tail)
{
	size_t n = 1;
	double p = 0.5;

	if (!(tail > 0 && tail < 0.5))
		return 0;
	if (e == STATS_MEAN)
		return 2;
	/* the extreme order statistic (or Walsh average) has tail 2^-n */
	while (p > tail) {
		p /= 2;
		n++;
	}
	return n < 2 ? 2 : n;
}

double stats_correlation(const double *x, const double *y, size_t n)
{
	double mx, my, sxy = 0, sxx = 0, syy = 0;
	size_t i;

	if (n < 3)
		return NAN;
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0 || syy == 0)
		return 0;
	return sxy / sqrt(sxx * syy);
}
