/*
 * How long the statistics take for a large suite: 100 benchmarks of 30
 * pairs, each with a 10,000-resample bootstrap and the per-arm summaries;
 * then Hodges-Lehmann with its exact interval (selection among the Walsh
 * averages) up to max_pairs' limit of 100,000 pairs, and its bootstrap.
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

/* One timing of Hodges-Lehmann and its exact interval from n pairs. */
static double hl_once(const double *x, size_t n, double *check)
{
	struct stats_interval ci;
	double start = now();

	*check += stats_hodges_lehmann(x, n);
	if (stats_interval_exact(&ci, STATS_HL, x, n, 0.9975) < 0) {
		fputs("bench-stats: interval failed\n", stderr);
		exit(1);
	}
	*check += ci.low + ci.high;
	return now() - start;
}

static void hodges_lehmann(gsl_rng *data, gsl_rng *boot)
{
	static const size_t sizes[] = { 60, 1000, 3000, 10000, 100000 };
	static const size_t boot_n[] = { 20, 60 };
	double *x = malloc(100000 * sizeof(*x)), check = 0;
	size_t i, j;
	int r;

	if (!x) {
		fputs("bench-stats: out of memory\n", stderr);
		exit(1);
	}
	gsl_rng_set(data, 3);
	for (i = 0; i < 100000; i++)
		x[i] = gsl_ran_gaussian(data, 0.1);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		double t[REPEATS];

		for (r = 0; r < REPEATS; r++)
			t[r] = hl_once(x, sizes[i], &check);
		qsort(t, REPEATS, sizeof(t[0]), cmp_double);
		printf("hl: estimate + exact interval of %6zu pairs "
		       "(%.3g Walsh averages, none stored): median %.2f ms "
		       "of %d\n", sizes[i],
		       (double)sizes[i] * (sizes[i] + 1) / 2,
		       t[REPEATS / 2] * 1000, REPEATS);
	}
	for (j = 0; j < sizeof(boot_n) / sizeof(boot_n[0]); j++) {
		double t[REPEATS];

		for (r = 0; r < REPEATS; r++) {
			struct stats_interval ci;
			double start = now();

			gsl_rng_set(boot, 4);
			if (stats_bootstrap(&ci, STATS_HL, 0, x, boot_n[j],
					    RESAMPLES, 0.9975, boot) < 0) {
				fputs("bench-stats: bootstrap failed\n",
				      stderr);
				exit(1);
			}
			check += ci.low + ci.high;
			t[r] = now() - start;
		}
		qsort(t, REPEATS, sizeof(t[0]), cmp_double);
		printf("hl: percentile bootstrap of %zu pairs x %d resamples: "
		       "median %.1f ms of %d\n", boot_n[j], RESAMPLES,
		       t[REPEATS / 2] * 1000, REPEATS);
	}
	fprintf(stderr, "hl checksum %.17g\n", check);
	free(x);
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
	hodges_lehmann(data, boot);
	gsl_rng_free(boot);
	gsl_rng_free(data);
	return 0;
}
