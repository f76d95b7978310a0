/*
 * Pure statistics on arrays of doubles: summaries, the percentile bootstrap
 * of the median, and the sign test. No I/O, no global state; randomness
 * comes only from the gsl_rng the caller passes in.
 */
#ifndef STATS_STATS_H
#define STATS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/* Arithmetic mean; NAN when n == 0. */
double stats_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1 denominator); NAN when n < 2. */
double stats_sd(const double *x, size_t n);
/* Coefficient of variation sd/mean (sample sd); NAN when n < 2 or mean == 0. */
double stats_cv(const double *x, size_t n);
/* Geometric mean; NAN when n == 0 or any x <= 0 or non-finite. */
double stats_geomean(const double *x, size_t n);
/*
 * Median by selection (Hoare/quickselect), not a full sort: reorders x in
 * place. Even n gives the mean of the two middle values. NAN when n == 0
 * or any x is NaN.
 */
double stats_median_inplace(double *x, size_t n);
/* Median of x without modifying it (copies into a temporary). */
double stats_median(const double *x, size_t n);
/*
 * Quantile p in [0,1] of sorted data by linear interpolation between order
 * statistics (R type 7, numpy's default "linear"). NAN when n == 0 or p
 * is not in [0,1].
 */
double stats_quantile_sorted(const double *sorted, size_t n, double p);
/*
 * The same type-7 quantile of unsorted x by selection, O(n) expected:
 * reorders x in place. NAN when n == 0, p is not in [0,1] or any x is NaN.
 */
double stats_quantile_inplace(double *x, size_t n, double p);

struct stats_interval {
	double low, high;	/* interval bounds */
	double level;		/* two-sided coverage, e.g. 0.975 */
};

/*
 * Percentile bootstrap interval of the median of x: draws `resamples`
 * resamples of size n with replacement using rng, takes each resample's
 * median, and returns the (1-level)/2 and (1+level)/2 quantiles (type 7) of
 * those medians. Returns 0, or -1 through error() when n < 2, resamples <
 * 100, level is not in (0,1), any x is non-finite, or rng is NULL or cannot
 * draw n values (out is then untouched). Same rng state, same interval.
 */
int stats_bootstrap_median(struct stats_interval *out, const double *x,
			   size_t n, size_t resamples, double level,
			   gsl_rng *rng);

enum stats_estimator {
	STATS_MEDIAN,	/* the median */
	STATS_HL,	/* Hodges-Lehmann: the median of Walsh averages */
	STATS_MEAN,	/* the arithmetic mean */
};

/* "median", "hl", "mean". */
const char *stats_estimator_name(enum stats_estimator e);
/* Estimator e of x (not modified); NAN when n == 0 or x is not finite. */
double stats_estimate(enum stats_estimator e, const double *x, size_t n);
/*
 * Hodges-Lehmann location: the median of the n(n+1)/2 averages
 * (x_i + x_j)/2, i <= j (Walsh averages), found by selection in O(n)
 * memory and O(n log n) time: the same double a sorted list of them would
 * give. NAN when n == 0, n > 100000 or any x not finite. The _sorted form
 * takes x already sorted (and finite).
 */
double stats_hodges_lehmann(const double *x, size_t n);
double stats_hodges_lehmann_sorted(const double *sorted, size_t n);
/*
 * The k-th smallest (1-based) Walsh average of sorted[0..n), by selection:
 * bisection on the value with a linear count, then a sort of the <= n
 * candidates left. NAN when n == 0 or k is not in 1..n(n+1)/2.
 */
double stats_walsh_kth(const double *sorted, size_t n, uint64_t k);
/*
 * Bootstrap interval of estimator e at two-sided `level`: percentile, or
 * BCa (bias-corrected and accelerated, jackknife acceleration) when bca.
 * Checks as stats_bootstrap_median; BCa also fails when every resample
 * falls on one side of the estimate. The median path draws exactly as
 * stats_bootstrap_median.
 */
int stats_bootstrap(struct stats_interval *out, enum stats_estimator e,
		    int bca, const double *x, size_t n, size_t resamples,
		    double level, gsl_rng *rng);
/*
 * The bootstrap at corrected levels. A percentile or BCa bound from few
 * values misses the truth more often than its nominal tail (measured with
 * n = 10 and tail 0.00125: 0.45%), so gate widens it and uses it only
 * where the resamples can resolve the widened tail.
 *
 * stats_bootstrap_tail: the nominal one-sided tail to ask the bootstrap
 * for so that each bound errs at most `tail` from n values: the normal
 * tail beyond sqrt(n/(n-1)) t_{n-1}(tail) (the expanded percentile). NAN
 * when n < 2 or tail is not in (0, 0.5).
 *
 * stats_bootstrap_min_n: the fewest values (up to STATS_BOOTSTRAP_MAX_N)
 * whose expanded tail leaves at least STATS_BOOTSTRAP_TAIL_DRAWS of
 * `resamples` replicates beyond each bound; 0 when none does (or tail is
 * not in (0, 0.5)): below it, use stats_interval_exact.
 */
#define STATS_BOOTSTRAP_TAIL_DRAWS 10
#define STATS_BOOTSTRAP_MAX_N 100000
double stats_bootstrap_tail(size_t n, double tail);
size_t stats_bootstrap_min_n(double tail, size_t resamples);

/*
 * Distribution-free interval with coverage >= level: for the median the
 * order statistics [x(c), x(n+1-c)] with c from Binomial(n, 1/2); for
 * Hodges-Lehmann the Walsh averages at the signed-rank critical depth
 * (exact law up to 300 values, normal beyond; needs symmetry about the
 * centre); for the mean Student's t (parametric). When n is too small
 * for the level, low = -INFINITY and high = INFINITY. Returns 0 or -1
 * through error().
 */
int stats_interval_exact(struct stats_interval *out, enum stats_estimator e,
			 const double *x, size_t n, double level);

/*
 * The fewest values from which stats_interval_exact of estimator e gives
 * finite one-sided bounds, each with error at most tail (two-sided level
 * 1 - 2 tail): for the median and Hodges-Lehmann the smallest n with
 * 2^-n <= tail, for the mean 2. 0 when tail is not in (0, 0.5).
 */
size_t stats_interval_min_n(enum stats_estimator e, double tail);

/*
 * The ratio of means sum(num) / sum(den) over n pairs into *estimate, and
 * its two-sided interval at level: the delta method's standard error from
 * the paired residuals num_i - R den_i, Student's t on n - 1 degrees of
 * freedom. Returns 0, or -1 through error() when n < 2, a value is
 * negative or not finite, den sums to 0, or level is not in (0, 1).
 */
int stats_ratio_of_means(struct stats_interval *out, double *estimate,
			 const double *num, const double *den, size_t n,
			 double level);

/*
 * A linear trend of y[0..n) against its index (least squares): the slope,
 * the intercept, the slope's standard error from the residuals and the
 * one-sided p-value of Student's t on n - 2 degrees of freedom against a
 * slope <= 0 (as scipy.stats.linregress with alternative "greater").
 */
struct stats_trend {
	double slope, intercept, se, df;
	double p_up;		/* P[T >= slope / se] under no trend */
	size_t n;
	double span;		/* the steps the slope spans over the series:
				   n - 1 for a trend, n for steps */
};
/* 0, or -1 through error() when n < 3 or a value is not finite. */
int stats_trend(struct stats_trend *out, const double *y, size_t n);
/*
 * The mean of n steps (each a log-ratio of one paired record) against 0:
 * slope the mean step, se its standard error (sd / sqrt(n)), the
 * one-sided p-value of Student's t on n - 1 degrees of freedom against a
 * mean <= 0 (as scipy.stats.ttest_1samp with alternative "greater"),
 * span n, intercept 0. 0, or -1 through error() when n < 3 or a value is
 * not finite.
 */
int stats_steps(struct stats_trend *out, const double *d, size_t n);
/*
 * Creep: the trend rises significantly at one-sided alpha (p_up <= alpha;
 * the caller corrects alpha for the series it tests) and its estimate
 * over the series, exp(slope span) for log values, is above 1 + floor.
 */
int stats_trend_creep(const struct stats_trend *t, double alpha,
		      double floor);

/*
 * Wilcoxon signed-rank test of d against 0, two-sided, as
 * scipy.stats.wilcoxon(d) (zero_method "wilcox", no continuity
 * correction, exact law when n <= 50 and no zeros, else normal with tie
 * correction). NAN when n == 0, all d are 0, or any d is not finite.
 */
double stats_wilcoxon(const double *d, size_t n);
/* Pearson correlation of x and y; NAN when n < 3, 0 when one is constant. */
double stats_correlation(const double *x, const double *y, size_t n);

/*
 * Two independent samples: the Hodges-Lehmann shift of y against x (the
 * median of the nx*ny differences y_j - x_i) with the exact
 * distribution-free Mann-Whitney bounds (stats/unpaired.c says how and
 * why). gate compare passes log values, so the shift is a log-ratio.
 */
struct stats_shift {
	double estimate;	/* the median difference */
	double low, high;	/* one-sided bounds, each wrong with
				   probability <= tail under the shift
				   model; -INFINITY and INFINITY when
				   too few values give none */
	double tail;		/* the one-sided error asked for */
	size_t depth;		/* c: low is the c-th smallest difference,
				   high the c-th largest; 0 when none */
	int exact;		/* 1: U's exact law; 0: its conservative
				   normal approximation (large samples) */
};

/*
 * The shift of y against x with bounds at one-sided error tail. Returns 0,
 * or -1 with a message in *err (NULL: printed; common/error.h) when a side
 * is empty, a value is not finite, tail is not in (0, 0.5), or nx * ny
 * overflows.
 */
struct gate_err;
int stats_hl_shift(struct stats_shift *out, const double *x, size_t nx,
		   const double *y, size_t ny, double tail,
		   struct gate_err *err);
/*
 * The k-th smallest (1-based) of the differences ys[j] - xs[i] of sorted
 * xs and ys, without forming them. NAN when k is not in 1..nx*ny.
 */
double stats_shift_kth(const double *xs, size_t nx, const double *ys,
		       size_t ny, size_t k);
/*
 * The depth c of the Mann-Whitney bounds: the largest c with
 * P[U <= c - 1] <= tail under the null law of U for sizes nx, ny (0 when
 * no bound exists, or tail is not in (0, 0.5)). stats_mwu_depth takes the
 * exact law where it is cheap and the normal one beyond, and says which
 * in *exact (may be NULL); the other two force one (for tests).
 */
size_t stats_mwu_depth(size_t nx, size_t ny, double tail, int *exact);
size_t stats_mwu_depth_exact(size_t nx, size_t ny, double tail);
size_t stats_mwu_depth_normal(size_t nx, size_t ny, double tail);
/*
 * The fewest values per side (equal sides) for which stats_hl_shift gives
 * finite bounds at one-sided error tail: the smallest n with
 * 1 / C(2n, n) <= tail (3 at 0.05, 4 at 0.025, 6 at 0.0025). 0 when tail
 * is not in (0, 0.5).
 */
size_t stats_shift_min_n(double tail);

struct stats_mwu {
	double u;	/* U of the first sample: R1 - n1(n1+1)/2 */
	double p;	/* two-sided */
	int exact;	/* 1: exact distribution, 0: normal approximation */
};

/*
 * Two-sided Mann-Whitney U test of x against y, as scipy.stats.mannwhitneyu
 * (method "auto", continuity correction): exact when a sample has at most 8
 * values and there are no ties (and C(nx+ny, min) < 2^53), else the normal
 * approximation with the tie correction. Returns 0, or -1 through error()
 * when a sample is empty or holds a NaN.
 */
int stats_mann_whitney(struct stats_mwu *out, const double *x, size_t nx,
		       const double *y, size_t ny);

/*
 * Exact two-sided sign test: p-value of k successes in n trials under
 * Binomial(n, 1/2), as scipy.stats.binomtest(k, n, 0.5).pvalue (which, for
 * p = 1/2, is min(1, 2 * min(P[X <= k], P[X >= k]))). 1 when n == 0;
 * NAN when k > n or n > UINT_MAX (GSL's binomial takes unsigned int).
 */
double stats_sign_test(size_t k, size_t n);

/*
 * Bonferroni: the per-comparison two-sided confidence level that keeps the
 * family-wise error of m comparisons within 1 - confidence:
 * 1 - (1 - confidence) / m. m == 0 is treated as 1.
 */
double stats_bonferroni(double confidence, size_t m);

#endif
