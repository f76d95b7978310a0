/*
 * How long the statistics take for a large suite: 100 benchmarks of 30
 * pairs, each with a 10,000-resample bootstrap and the per-arm summaries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats.h"
#include "common/banned.h"

#define BENCHMARKS 100
#define PAIRS 30
#define RESAMPLES 10000
#define REPEATS 3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One suite's statistics, as the verdict computes them. The checksum of
 * the results is returned so that none of the work can be optimised away.
 */
static double suite(gsl_rng *data, gsl_rng *boot)
{
	double level = stats_bonferroni(0.95, BENCHMARKS), sum = 0;
	size_t b, i;

	for (b = 0; b < BENCHMARKS; b++) {
		double base[PAIRS], head[PAIRS], ratio[PAIRS];
		struct stats_interval ci;
		size_t slower = 0;

		/* timings like a noisy runner's: 20% spread, head 3% slower */
		for (i = 0; i < PAIRS; i++) {
			base[i] = gsl_ran_lognormal(data, -2.3, 0.2);
			head[i] = base[i] * gsl_ran_lognormal(data, 0.03, 0.1);
			ratio[i] = head[i] / base[i];
			slower += ratio[i] > 1;
		}
		if (stats_bootstrap_median(&ci, ratio, PAIRS, RESAMPLES, level,
					   boot) < 0) {
			fputs("bench-stats: bootstrap failed\n", stderr);
			exit(1);
		}
		sum += ci.low + ci.high + stats_median(ratio, PAIRS) +
			stats_geomean(ratio, PAIRS) + stats_cv(base, PAIRS) +
			stats_cv(head, PAIRS) + stats_median(base, PAIRS) +
			stats_median(head, PAIRS) +
			stats_sign_test(slower, PAIRS);
	}
	return sum;
}

int main(void)
{
	double t[REPEATS], check = 0;
	gsl_rng *data, *boot;
	int r;

	gsl_set_error_handler_off();
	data = gsl_rng_alloc(gsl_rng_mt19937);
	boot = gsl_rng_alloc(gsl_rng_mt19937);
	if (!data || !boot) {
		fputs("bench-stats: cannot allocate a generator\n", stderr);
		return 1;
	}
	for (r = 0; r < REPEATS; r++) {
		double start;

		/* the same suite every time: only the clock may differ */
		gsl_rng_set(data, 1);
		gsl_rng_set(boot, 2);
		start = now();
		check += suite(data, boot);
		t[r] = now() - start;
	}
	qsort(t, REPEATS, sizeof(t[0]), cmp_double);
	printf("stats: %d benchmarks x %d pairs x %d resamples: "
	       "min %.3f s, median %.3f s of %d (%.2f ms per benchmark)\n",
	       BENCHMARKS, PAIRS, RESAMPLES, t[0], t[REPEATS / 2], REPEATS,
	       t[REPEATS / 2] * 1000 / BENCHMARKS);
	fprintf(stderr, "checksum %.17g\n", check);
	gsl_rng_free(boot);
	gsl_rng_free(data);
	return 0;
}
