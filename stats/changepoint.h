/*
 * Change points in a series: e-divisive means (Matteson and James, 2014,
 * "A nonparametric approach for multiple change point analysis of
 * multivariate data"), the method Otava (Hunter) applies to benchmark
 * history, for univariate values with alpha = 1. Pure statistics: no I/O;
 * randomness only from the gsl_rng the caller passes.
 *
 * The series is n values in order, cut into g groups (one group per
 * commit; a group may hold several values, e.g. a record's samples). A
 * change point falls between two groups, never inside one.
 *
 * The divergence of a split of X = x[0..m) from Y = the next k values is
 *   E = 2/(mk) sum|x_i - y_j| - 1/C(m,2) sum_{i<j}|x_i - x_j|
 *                             - 1/C(k,2) sum_{i<j}|y_i - y_j|
 * (a within term is 0 for one value), scaled Q = mk/(m+k) E. Each round
 * takes, within every current segment, the group boundary with the
 * largest Q that leaves at least min_size groups on both sides, and the
 * largest of these over the segments. Its significance is a permutation
 * test: `permutations` times, the groups of every segment are shuffled
 * within the segment (whole groups move: values of one group, e.g. one
 * run's samples, share that run's conditions) and the same largest Q is
 * taken; p = (1 + #{permuted Q >= Q}) / (1 + permutations). The point is
 * kept when p <= sig, and the rounds go on; the first p > sig stops.
 */
#ifndef STATS_CHANGEPOINT_H
#define STATS_CHANGEPOINT_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

struct stats_changepoint {
	size_t group;		/* the first group after the change */
	double q;		/* Q of the split when it was found */
	double p;		/* its permutation p-value */
	double before, after;	/* medians of the final segments either
				   side */
	size_t lo, hi;		/* where the data place it: the first group
				   after the change lies in [lo, hi] in
				   CP_LOCATE_LEVEL of the resamples of its
				   segments (whole groups, each side's own);
				   lo <= group <= hi */
};

/* The location range's resamples and central share. */
#define CP_LOCATE_RESAMPLES 199
#define CP_LOCATE_LEVEL 0.95

/*
 * Q of splitting x[0..n) at tau (X = x[0..tau), Y = x[tau..n)): NAN when
 * tau is 0 or n.
 */
double stats_energy_q(const double *x, size_t n, size_t tau);

/*
 * The change points of x[0..n) in groups: start[0..g] with start[0] = 0,
 * start[g] = n, nondecreasing and each group non-empty; start NULL means
 * one value per group (g = n). Results in *out (malloc'd, in group order,
 * NULL when none), their number in *nout. min_size >= 1 groups per
 * segment; permutations >= 1; sig in (0, 1). Fewer than 2 * min_size
 * groups give none. Returns 0, or -1 through error() on bad arguments or
 * a non-finite value. Same rng state, same points.
 */
int stats_changepoints(struct stats_changepoint **out, size_t *nout,
		       const double *x, size_t n, const size_t *start,
		       size_t g, size_t min_size, size_t permutations,
		       double sig, gsl_rng *rng);

#endif
