/*
 * Two independent samples (gate compare, where nothing pairs the runs): the
 * Hodges-Lehmann shift with its distribution-free Mann-Whitney interval,
 * the Mann-Whitney U test computed as scipy.stats.mannwhitneyu(method=
 * "auto") does.
 *
 * The interval. Under the shift model (y is distributed as x + d) the
 * number of the nx*ny differences y_j - x_i below d has the null law of
 * U, whatever the distribution. So the c-th smallest difference D(c) is a
 * lower bound for d with P[D(c) > d] = P[U <= c - 1], and the c-th
 * largest an upper bound with the same error; c is the largest depth with
 * P[U <= c - 1] <= tail (one-sided). With ties in the data the closed
 * bounds only cover more. When even P[U = 0] = 1 / C(nx+ny, nx) is above
 * tail, no bound exists: -INFINITY and INFINITY.
 *
 * U's law is computed exactly (its generating function, the Gaussian
 * binomial, as a distribution) while that costs at most MWU_EXACT_WORK
 * steps: every input with at most ~400 values on the smaller side, and
 * every input gate compare meets in practice (a few values per side).
 * Beyond, the normal law of U is used and made conservative three ways:
 * a continuity correction, the depth rounded down (toward the wider
 * interval), and a margin for the one way the normal errs. U is symmetric
 * and lighter-tailed than the normal (excess kurtosis g2 < 0, below), so
 * by the Edgeworth expansion F(z) ~ Phi(z) - phi(z) g2 / 24 (z^3 - 3z):
 * for tails below Phi(-sqrt 3) ~ 4.2% the normal overstates U's tail (the
 * bound is conservative as it stands), and for larger tails the error is
 * at most phi(z) |g2| / 24 (z^3 - 3z), which the depth gives back in
 * whole steps of U. tests/stats/test-unpaired.c checks the normal depth
 * never exceeds the exact one at sizes where both can be computed.
 *
 * The k-th difference is found without forming the nx*ny differences:
 * each row (one x, the y sorted) is increasing, so a selection that keeps
 * a window of candidate columns per row, pivots on the weighted median of
 * the rows' middle candidates (which removes at least a quarter of the
 * candidates each round) and counts with two pointers costs
 * O((nx log nx + ny) log(nx ny)).
 */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_sort_double.h>

#include "common/error.h"
#include "common/banned.h"

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

/* Above this many steps (smaller side x degrees) U's law is taken as normal. */
#define MWU_EXACT_WORK (1ul << 25)
/* Degrees of U's law held at most (32 MiB of doubles). */
#define MWU_EXACT_DEGREES (1ul << 22)
/*
 * A probability computed in doubles equal to tail up to rounding counts as
 * within it: 1/20 must meet a tail of 0.05 (n = 3 per side at 95%).
 */
#define TAIL_SLACK (1 + 1e-9)

static int exact_feasible(size_t nx, size_t ny)
{
	size_t a = nx < ny ? nx : ny, b = nx < ny ? ny : nx, top;

	if (a == 0 || b > SIZE_MAX / a)
		return 0;
	top = a * b / 2;
	/* top <= 2^22 keeps a <= 2^12 + 1, so a * top cannot overflow */
	return top <= MWU_EXACT_DEGREES && a * top <= MWU_EXACT_WORK;
}

size_t stats_mwu_depth_exact(size_t nx, size_t ny, double tail)
{
	size_t a = nx < ny ? nx : ny, b = nx < ny ? ny : nx, top, i, k, c;
	double *p, cdf;

	if (!(tail > 0 && tail < 0.5) || a == 0 || b > SIZE_MAX / a)
		return 0;
	top = a * b / 2;	/* P[U <= top] >= 1/2 > tail: c stops below */
	p = xcalloc(top + 1, sizeof(*p));
	/*
	 * The generating function of U is prod_i (1 - q^(b+i)) / (1 - q^i),
	 * i = 1..a; each factor scaled by i / (b + i) keeps the product a
	 * probability distribution (coefficients in [0, 1]). Both steps are
	 * lower-triangular, so truncating at degree top is exact below it.
	 */
	p[0] = 1;
	for (i = 1; i <= a; i++) {
		size_t s = b + i;
		double scale = (double)i / (double)s;

		if (top >= s)	/* s >= 2: k-- cannot wrap */
			for (k = top; k >= s; k--)
				p[k] -= p[k - s];
		for (k = i; k <= top; k++)
			p[k] += p[k - i];
		for (k = 0; k <= top; k++)
			p[k] *= scale;
	}
	c = 0;
	cdf = p[0];
	while (c < top && cdf <= tail * TAIL_SLACK)
		cdf += p[++c];
	free(p);
	return c;
}

size_t stats_mwu_depth_normal(size_t nx, size_t ny, double tail)
{
	double m = (double)nx, n = (double)ny, mu = m * n / 2;
	double sd = sqrt(m * n * (m + n + 1) / 12);
	double g2 = 1.2 * (m * m + n * n + m * n + m + n) /
		    (m * n * (m + n + 1));
	double z, he3, v;

	if (!(tail > 0 && tail < 0.5) || nx == 0 || ny == 0)
		return 0;
	z = gsl_cdf_ugaussian_Pinv(tail);
	/* largest c with Phi((c - 1 + 1/2 - mu) / sd) <= tail */
	v = floor(mu + z * sd + 0.5);
	/* where the normal tail is lighter than U's, give the error back */
	he3 = z * z * z - 3 * z;
	if (he3 > 0)
		v -= ceil(sd * g2 / 24 * he3);
	return v > 0 ? (size_t)v : 0;
}

size_t stats_mwu_depth(size_t nx, size_t ny, double tail, int *exact)
{
	int e = exact_feasible(nx, ny);

	if (exact)
		*exact = e;
	return e ? stats_mwu_depth_exact(nx, ny, tail) :
		   stats_mwu_depth_normal(nx, ny, tail);
}

size_t stats_shift_min_n(double tail)
{
	double binom = 2;	/* C(2n, n) for n = 1 */
	size_t n = 1;

	if (!(tail > 0 && tail < 0.5))
		return 0;
	while (1 / binom > tail * TAIL_SLACK) {
		binom *= (double)(2 * n + 1) * (double)(2 * n + 2) /
			 ((double)(n + 1) * (double)(n + 1));
		n++;
	}
	return n;
}

struct cand {
	double v;	/* the row's middle candidate */
	size_t w;	/* the row's candidates */
};

static int cmp_cand(const void *a, const void *b)
{
	double x = ((const struct cand *)a)->v;
	double y = ((const struct cand *)b)->v;

	return (x > y) - (x < y);
}

/* k-th smallest (1-based) of ys[j] - xs[i], rows xs, both sorted. */
static double kth_rows(const double *xs, size_t nx, const double *ys,
		       size_t ny, size_t k)
{
	size_t *lo = xcalloc(nx, sizeof(*lo)), *hi = xmalloc(nx * sizeof(*hi));
	struct cand *c = xmalloc(nx * sizeof(*c));
	size_t i, j;
	double p;

	for (i = 0; i < nx; i++)
		hi[i] = ny;
	for (;;) {
		size_t nc = 0, total = 0, acc = 0, lt = 0, le = 0, jl, je;

		for (i = 0; i < nx; i++) {
			if (hi[i] <= lo[i])
				continue;
			c[nc].v = ys[lo[i] + (hi[i] - lo[i]) / 2] - xs[i];
			c[nc].w = hi[i] - lo[i];
			total += c[nc++].w;
		}
		qsort(c, nc, sizeof(*c), cmp_cand);
		for (j = 0; j < nc; j++) {
			acc += c[j].w;
			if (2 * acc >= total)
				break;
		}
		p = c[j < nc ? j : nc - 1].v;
		/* differences < p and <= p: more of them as x grows */
		for (i = 0, jl = 0, je = 0; i < nx; i++) {
			while (jl < ny && ys[jl] - xs[i] < p)
				jl++;
			if (je < jl)
				je = jl;
			while (je < ny && ys[je] - xs[i] <= p)
				je++;
			lt += jl;
			le += je;
		}
		if (k > lt && k <= le)
			break;
		for (i = 0, jl = 0, je = 0; i < nx; i++) {
			while (jl < ny && ys[jl] - xs[i] < p)
				jl++;
			if (je < jl)
				je = jl;
			while (je < ny && ys[je] - xs[i] <= p)
				je++;
			if (k <= lt && hi[i] > jl)
				hi[i] = jl;	/* the k-th is below p */
			else if (k > le && lo[i] < je)
				lo[i] = je;	/* the k-th is above p */
		}
	}
	free(c);
	free(hi);
	free(lo);
	return p;
}

double stats_shift_kth(const double *xs, size_t nx, const double *ys,
		       size_t ny, size_t k)
{
	if (nx == 0 || ny == 0 || ny > SIZE_MAX / nx || k == 0 ||
	    k > nx * ny)
		return NAN;
	/* rows on the smaller side: y - x's k-th is -(x - y)'s (M+1-k)-th */
	if (nx > ny)
		return -kth_rows(ys, ny, xs, nx, nx * ny + 1 - k);
	return kth_rows(xs, nx, ys, ny, k);
}

int stats_hl_shift(struct stats_shift *out, const double *x, size_t nx,
		   const double *y, size_t ny, double tail,
		   struct gate_err *err)
{
	double *xs, *ys;
	size_t m, c, i;
	int exact;

	if (nx == 0 || ny == 0)
		return error_to(err, "the Hodges-Lehmann shift needs values on "
				"both sides, got %zu and %zu", nx, ny);
	if (ny > SIZE_MAX / nx)
		return error_to(err, "the Hodges-Lehmann shift of %zu by %zu "
				"values is too large to rank", nx, ny);
	if (!(tail > 0 && tail < 0.5))
		return error_to(err, "the one-sided error of a bound must be "
				"between 0 and 0.5 (exclusive), got %g", tail);
	for (i = 0; i < nx; i++)
		if (!isfinite(x[i]))
			return error_to(err, "value %zu of the first sample "
					"is %g, not a finite number", i + 1,
					x[i]);
	for (i = 0; i < ny; i++)
		if (!isfinite(y[i]))
			return error_to(err, "value %zu of the second sample "
					"is %g, not a finite number", i + 1,
					y[i]);
	xs = xmalloc(nx * sizeof(*xs));
	ys = xmalloc(ny * sizeof(*ys));
	memcpy(xs, x, nx * sizeof(*xs));
	memcpy(ys, y, ny * sizeof(*ys));
	gsl_sort(xs, 1, nx);
	gsl_sort(ys, 1, ny);
	m = nx * ny;
	out->estimate = m % 2 ? stats_shift_kth(xs, nx, ys, ny, m / 2 + 1) :
			(stats_shift_kth(xs, nx, ys, ny, m / 2) +
			 stats_shift_kth(xs, nx, ys, ny, m / 2 + 1)) / 2;
	c = stats_mwu_depth(nx, ny, tail, &exact);
	out->tail = tail;
	out->depth = c;
	out->exact = exact;
	if (c == 0) {
		out->low = -INFINITY;
		out->high = INFINITY;
	} else {
		out->low = stats_shift_kth(xs, nx, ys, ny, c);
		out->high = stats_shift_kth(xs, nx, ys, ny, m + 1 - c);
	}
	free(xs);
	free(ys);
	return 0;
}
