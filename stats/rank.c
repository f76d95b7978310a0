/*
 * Rank statistics: Wilcoxon's signed-rank test (the p-value scipy.stats
 * gives), the Hodges-Lehmann estimator, and exact distribution-free
 * intervals for the median and the Hodges-Lehmann shift.
 */
#include "stats.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_sort_double.h>

#include "common/error.h"
#include "common/banned.h"

/* Above this many values the signed-rank law is taken as normal. */
#define SIGNED_RANK_EXACT_MAX 300
/*
 * Hodges-Lehmann's values are order statistics of the n(n+1)/2 Walsh
 * averages, found by selection in O(n) memory (see walsh_kth), so its
 * limit is max_pairs' own. Selection stops narrowing once this many
 * candidates (or n, if more) are left and sorts them instead.
 */
#define WALSH_MAX_N 100000
#define WALSH_COLLECT 64

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

/*
 * Selection among the Walsh averages w(i, j) = (s_i + s_j) / 2, i <= j, of
 * sorted s, without materialising them. Each w is computed exactly as a
 * sorted list of them would hold it, and a rounded sum is monotone in each
 * term, so w(i, j) never decreases along a row or a column: the averages
 * <= t in row i are j = i .. end(i) - 1, and end(i) never increases with
 * i. One two-pointer pass, O(n), counts them.
 */
static inline double walsh(const double *s, size_t i, size_t j)
{
	return (s[i] + s[j]) / 2;
}

/* How many Walsh averages are <= t (none when t is NaN). */
static uint64_t walsh_count(const double *s, size_t n, double t)
{
	uint64_t c = 0;
	size_t i, end = n;

	for (i = 0; i < n; i++) {
		while (end > i && !(walsh(s, i, end - 1) <= t))
			end--;
		if (end <= i)
			break;
		c += end - i;
	}
	return c;
}

/*
 * The Walsh averages in (lo, hi] (their count is given) into buf, or,
 * when buf is NULL, the first one found into *one.
 */
static void walsh_collect(const double *s, size_t n, double lo, double hi,
			  double *buf, double *one)
{
	size_t i, ehi = n, elo = n, j, k = 0;

	for (i = 0; i < n; i++) {
		while (ehi > i && !(walsh(s, i, ehi - 1) <= hi))
			ehi--;
		if (ehi <= i)
			break;
		while (elo > i && !(walsh(s, i, elo - 1) <= lo))
			elo--;
		for (j = elo > i ? elo : i; j < ehi; j++) {
			if (!buf) {
				*one = walsh(s, i, j);
				return;
			}
			buf[k++] = walsh(s, i, j);
		}
	}
}

/*
 * Doubles as unsigned keys in the same order (-0 just below +0), so that
 * bisection on the key ends in at most 64 steps whatever the values' scale.
 * Keys below that of -inf are NaNs: nothing is <= them.
 */
static uint64_t dkey(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

static double dval(uint64_t k)
{
	uint64_t b = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* A bracket of the order: count(lo) = clo < the ranks sought <= count(hi). */
struct walsh_bracket {
	uint64_t lo, hi, clo, chi;
};

static void walsh_start(struct walsh_bracket *b, const double *s, size_t n)
{
	b->lo = 0;		/* a NaN: count 0 */
	b->clo = 0;
	b->hi = dkey(walsh(s, n - 1, n - 1));
	b->chi = (uint64_t)n * (n + 1) / 2;
}

static void walsh_finish(const double *s, size_t n,
			 const struct walsh_bracket *b, uint64_t k,
			 uint64_t k2, double *out, double *out2)
{
	uint64_t m = b->chi - b->clo;
	double *buf;

	buf = xmalloc(m * sizeof(*buf));
	walsh_collect(s, n, dval(b->lo), dval(b->hi), buf, NULL);
	gsl_sort(buf, 1, m);
	*out = buf[k - b->clo - 1];
	*out2 = buf[k2 - b->clo - 1];
	free(buf);
}

/*
 * The order statistics k <= k2 (k2 == k or k + 1) of the Walsh averages,
 * inside bracket b: bisect on the key while more than `limit` candidates
 * are left, then sort the few left. With ties, bisection can stop at
 * adjacent keys with more candidates than that: all then have one value.
 */
static void walsh_select(const double *s, size_t n, struct walsh_bracket b,
			 uint64_t k, uint64_t k2, size_t limit,
			 double *out, double *out2)
{
	while (b.chi - b.clo > limit && b.hi - b.lo > 1) {
		uint64_t mid = b.lo + (b.hi - b.lo) / 2;
		uint64_t c = walsh_count(s, n, dval(mid));

		if (c >= k2) {
			b.hi = mid;
			b.chi = c;
		} else if (c < k) {
			b.lo = mid;
			b.clo = c;
		} else {
			/* k <= c < k2: the two ranks part at mid */
			struct walsh_bracket b2 = b;
			double unused;

			b.hi = mid;
			b.chi = c;
			b2.lo = mid;
			b2.clo = c;
			walsh_select(s, n, b, k, k, limit, out, &unused);
			walsh_select(s, n, b2, k2, k2, limit, out2, &unused);
			return;
		}
	}
	if (b.chi - b.clo <= limit) {
		walsh_finish(s, n, &b, k, k2, out, out2);
	} else {
		/* adjacent keys: every candidate has the same value */
		walsh_collect(s, n, dval(b.lo), dval(b.hi), NULL, out);
		*out2 = *out;
	}
}

static size_t walsh_limit(size_t n)
{
	return n > WALSH_COLLECT ? n : WALSH_COLLECT;
}

double stats_walsh_kth(const double *sorted, size_t n, uint64_t k)
{
	struct walsh_bracket b;
	double v, unused;

	if (n == 0 || k == 0 || k > (uint64_t)n * (n + 1) / 2)
		return NAN;
	walsh_start(&b, sorted, n);
	/* limit n, not walsh_limit: the tests reach bisection from n = 2 */
	walsh_select(sorted, n, b, k, k, n, &v, &unused);
	return v;
}

double stats_hodges_lehmann_sorted(const double *sorted, size_t n)
{
	uint64_t m = (uint64_t)n * (n + 1) / 2;
	struct walsh_bracket b;
	double lo, hi;

	if (n == 0 || n > WALSH_MAX_N)
		return NAN;
	walsh_start(&b, sorted, n);
	/* the median of m: rank (m + 1) / 2, or the mean of m/2 and m/2 + 1 */
	if (m % 2) {
		walsh_select(sorted, n, b, m / 2 + 1, m / 2 + 1,
			     walsh_limit(n), &lo, &hi);
		return lo;
	}
	walsh_select(sorted, n, b, m / 2, m / 2 + 1, walsh_limit(n), &lo,
		     &hi);
	return (lo + hi) / 2;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	return s;
}

double stats_hodges_lehmann(const double *x, size_t n)
{
	double *s, v;

	if (n == 0 || n > WALSH_MAX_N || !all_finite(x, n))
		return NAN;
	s = sorted_copy(x, n);
	v = stats_hodges_lehmann_sorted(s, n);
	free(s);
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
		s = sorted_copy(x, n);
		c = binomial_depth(n, tail);
		m = n;
		break;
	case STATS_HL: {
		/* Walsh averages at the signed-rank critical depth */
		uint64_t top = (uint64_t)n * (n + 1) / 2;
		struct walsh_bracket b;
		double unused;

		c = signed_rank_depth(n, tail);
		if (c == 0)
			break;
		s = sorted_copy(x, n);
		walsh_start(&b, s, n);
		walsh_select(s, n, b, c, c, walsh_limit(n), &out->low,
			     &unused);
		walsh_select(s, n, b, top - c + 1, top - c + 1,
			     walsh_limit(n), &out->high, &unused);
		free(s);
		return 0;
	}
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
