/*
 * E-divisive means with a permutation test (stats/changepoint.h says what
 * and why). The sums of pairwise distances come from sorted values:
 * sum_{i<j} |s_i - s_j| = sum_j s_j (2j - m + 1) for sorted s, and the
 * cross sum of X and Y is W(X u Y) - W(X) - W(Y); a split costs a sort,
 * not a double loop.
 */
#include "stats/changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>

#include "common/error.h"
#include "stats/stats.h"
#include "common/banned.h"

/* sum_{i<j} |x_i - x_j| of x[0..m), using tmp[0..m). */
static double within(const double *x, size_t m, double *tmp)
{
	double w = 0;
	size_t j;

	memcpy(tmp, x, m * sizeof(*x));
	gsl_sort(tmp, 1, m);
	for (j = 0; j < m; j++)
		w += tmp[j] * (2.0 * (double)j - (double)m + 1);
	return w;
}

/* Q from the three within sums (m, k >= 1). */
static double q_of(double wx, double wy, double wxy, size_t m, size_t k)
{
	double dm = (double)m, dk = (double)k, e;

	e = 2 * (wxy - wx - wy) / (dm * dk);
	if (m > 1)
		e -= wx / (dm * (dm - 1) / 2);
	if (k > 1)
		e -= wy / (dk * (dk - 1) / 2);
	return dm * dk / (dm + dk) * e;
}

double stats_energy_q(const double *x, size_t n, size_t tau)
{
	double *tmp, q;

	if (tau == 0 || tau >= n)
		return NAN;
	tmp = xmalloc(n * sizeof(*tmp));
	q = q_of(within(x, tau, tmp), within(x + tau, n - tau, tmp),
		 within(x, n, tmp), tau, n - tau);
	free(tmp);
	return q;
}

/*
 * The best split of groups [a, b) of the layout (values v, group starts
 * st): the group t with at least min_size groups either side and the
 * largest Q. 0 and *q = -INFINITY when there is none.
 */
static size_t best_split(const double *v, const size_t *st, size_t a,
			 size_t b, size_t min_size, double *tmp, double *q)
{
	const double *seg = v + st[a];
	size_t len = st[b] - st[a], t, best = 0;
	double wxy;

	*q = -INFINITY;
	if (b - a < 2 * min_size)
		return 0;
	wxy = within(seg, len, tmp);
	for (t = a + min_size; t + min_size <= b; t++) {
		size_t m = st[t] - st[a];
		double qt = q_of(within(seg, m, tmp),
				 within(seg + m, len - m, tmp), wxy, m,
				 len - m);

		if (qt > *q) {
			*q = qt;
			best = t;
		}
	}
	return best;
}

/* The largest best split over the segments cuts[0..nc]. */
static double best_over(const double *v, const size_t *st,
			const size_t *cuts, size_t nc, size_t min_size,
			double *tmp, size_t *at)
{
	double best = -INFINITY, q;
	size_t i, t;

	*at = 0;
	for (i = 0; i < nc; i++) {
		t = best_split(v, st, cuts[i], cuts[i + 1], min_size, tmp, &q);
		if (t && q > best) {
			best = q;
			*at = t;
		}
	}
	return best;
}

/*
 * The layout with the groups of each segment shuffled within it: groups
 * order[], values pv, starts pst.
 */
static void shuffle_layout(double *pv, size_t *pst, size_t *order,
			   const double *x, const size_t *st,
			   const size_t *cuts, size_t nc, gsl_rng *rng)
{
	size_t i, j, pos = 0;

	for (i = 0; i < nc; i++) {
		size_t a = cuts[i], b = cuts[i + 1];

		for (j = a; j < b; j++)
			order[j] = j;
		gsl_ran_shuffle(rng, order + a, b - a, sizeof(*order));
		for (j = a; j < b; j++) {
			size_t len = st[order[j] + 1] - st[order[j]];

			pst[j] = pos;
			memcpy(pv + pos, x + st[order[j]], len * sizeof(*x));
			pos += len;
		}
	}
	pst[cuts[nc]] = pos;
}

static double median_of(const double *x, size_t n)
{
	return stats_median(x, n);
}

/* The arguments make sense: 0, or -1 after error() says which does not. */
static int check_input(const double *x, size_t n, const size_t *start,
		       size_t g, size_t min_size, size_t permutations,
		       double sig, const gsl_rng *rng)
{
	size_t i;

	if (min_size < 1 || permutations < 1 || !(sig > 0 && sig < 1) || !rng)
		return error("change points: min_size and permutations must "
			     "be at least 1, sig in (0, 1), and a generator "
			     "given");
	if (start && (start[0] != 0 || start[g] != n))
		return error("change points: the groups do not cover the %zu "
			     "values", n);
	for (i = 0; start && i < g; i++)
		if (start[i + 1] <= start[i])
			return error("change points: group %zu is empty", i);
	if (!start && g != n)
		return error("change points: %zu groups of one value each "
			     "cannot cover %zu values", g, n);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("change points: value %zu is not finite",
				     i);
	return 0;
}

/* The scratch of the permutation test: a shuffled layout (values pv,
   group starts pst, group order) and tmp for the pairwise sums. */
struct shuffle_work {
	double *pv, *tmp;
	size_t *pst, *order;
};

/*
 * The permutation p-value of the best split q over the segments cuts[]:
 * the share of layouts, shuffled within each segment, whose best split is
 * at least q, counting the observed one (so never 0).
 */
static double permutation_p(double q, const double *x, const size_t *st,
			    const size_t *cuts, size_t nc, size_t min_size,
			    size_t permutations, gsl_rng *rng,
			    struct shuffle_work *w)
{
	size_t r, pat, above = 0;

	for (r = 0; r < permutations; r++) {
		shuffle_layout(w->pv, w->pst, w->order, x, st, cuts, nc, rng);
		if (best_over(w->pv, w->pst, cuts, nc, min_size, w->tmp,
			      &pat) >= q)
			above++;
	}
	return (double)(above + 1) / (double)(permutations + 1);
}

/*
 * The points in group order (cuts[1..nc) sorted, cp[] in the order they
 * were found), each with the medians of its final neighbouring segments.
 */
static void order_points(struct stats_changepoint *cp, size_t ncp,
			 const size_t *cuts, size_t nc, const double *x,
			 const size_t *st)
{
	size_t i, k;

	for (i = 1; i < nc; i++) {
		for (k = 0; k < ncp && cp[k].group != cuts[i]; k++)
			;
		if (k != i - 1) {
			struct stats_changepoint t = cp[i - 1];

			cp[i - 1] = cp[k];
			cp[k] = t;
		}
		cp[i - 1].before = median_of(x + st[cuts[i - 1]],
					     st[cuts[i]] - st[cuts[i - 1]]);
		cp[i - 1].after = median_of(x + st[cuts[i]],
					    st[cuts[i + 1]] - st[cuts[i]]);
	}
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * Where change point cp lies, as a range of groups: the segment either
 * side of it (groups [a, b), the change at t) resampled
 * CP_LOCATE_RESAMPLES times, whole groups with replacement from their own
 * side (the levels and the change stay where they are), the best split of
 * each resample taken, and the central CP_LOCATE_LEVEL of those splits
 * kept. With one value per record, a +5% step at 5% noise is found
 * within one record of the truth only a fifth of the time; the range
 * says how far the data can place it (tests/stats/test-changepoint.c
 * measures its coverage).
 */
static void locate(struct stats_changepoint *cp, size_t a, size_t b,
		   const double *x, const size_t *st, size_t min_size,
		   gsl_rng *rng)
{
	size_t t = cp->group, maxlen = 0, j, r, pos;
	size_t *pst = xmalloc((b - a + 1) * sizeof(*pst));
	size_t *at = xmalloc(CP_LOCATE_RESAMPLES * sizeof(*at));
	double *pv, *tmp, q;

	for (j = a; j < b; j++)
		if (st[j + 1] - st[j] > maxlen)
			maxlen = st[j + 1] - st[j];
	pv = xmalloc((b - a) * maxlen * sizeof(*pv));
	tmp = xmalloc((b - a) * maxlen * sizeof(*tmp));
	for (r = 0; r < CP_LOCATE_RESAMPLES; r++) {
		for (j = a, pos = 0; j < b; j++) {
			size_t src = j < t ? a + gsl_rng_uniform_int(rng, t - a)
				     : t + gsl_rng_uniform_int(rng, b - t);
			size_t len = st[src + 1] - st[src];

			pst[j - a] = pos;
			memcpy(pv + pos, x + st[src], len * sizeof(*x));
			pos += len;
		}
		pst[b - a] = pos;
		at[r] = a + best_split(pv, pst, 0, b - a, min_size, tmp, &q);
	}
	qsort(at, CP_LOCATE_RESAMPLES, sizeof(*at), cmp_size);
	cp->lo = at[(size_t)((1 - CP_LOCATE_LEVEL) / 2 * CP_LOCATE_RESAMPLES)];
	cp->hi = at[(size_t)ceil((1 + CP_LOCATE_LEVEL) / 2 *
				 CP_LOCATE_RESAMPLES) - 1];
	if (cp->lo > t)
		cp->lo = t;
	if (cp->hi < t)
		cp->hi = t;
	free(pst);
	free(at);
	free(pv);
	free(tmp);
}

int stats_changepoints(struct stats_changepoint **out, size_t *nout,
		       const double *x, size_t n, const size_t *start,
		       size_t g, size_t min_size, size_t permutations,
		       double sig, gsl_rng *rng)
{
	struct shuffle_work w;
	struct stats_changepoint *cp = NULL;
	size_t *st, *cuts, nc = 1, ncp = 0, cap = 0, i;

	*out = NULL;
	*nout = 0;
	if (check_input(x, n, start, g, min_size, permutations, sig, rng) < 0)
		return -1;
	if (g < 2 * min_size)
		return 0;
	st = xmalloc((g + 1) * sizeof(*st));
	for (i = 0; i <= g; i++)
		st[i] = start ? start[i] : i;
	cuts = xmalloc((g + 1) * sizeof(*cuts));
	cuts[0] = 0;
	cuts[1] = g;
	w.pst = xmalloc((g + 1) * sizeof(*w.pst));
	w.order = xmalloc(g * sizeof(*w.order));
	w.tmp = xmalloc(n * sizeof(*w.tmp));
	w.pv = xmalloc(n * sizeof(*w.pv));
	for (;;) {
		size_t at;
		double q = best_over(x, st, cuts, nc, min_size, w.tmp, &at);

		if (!at)
			break;
		XGROW(cp, cap, ncp + 1);
		cp[ncp].group = at;
		cp[ncp].q = q;
		cp[ncp].p = permutation_p(q, x, st, cuts, nc, min_size,
					  permutations, rng, &w);
		if (cp[ncp].p > sig)
			break;
		ncp++;
		for (i = nc; cuts[i] > at; i--)
			cuts[i + 1] = cuts[i];
		cuts[i + 1] = at;
		nc++;
	}
	order_points(cp, ncp, cuts, nc, x, st);
	for (i = 0; i < ncp; i++)
		locate(&cp[i], cuts[i], cuts[i + 2], x, st, min_size, rng);
	if (!ncp) {
		free(cp);
		cp = NULL;
	}
	*out = cp;
	*nout = ncp;
	free(st);
	free(cuts);
	free(w.pst);
	free(w.order);
	free(w.tmp);
	free(w.pv);
	return 0;
}
