/*
 * What the tests of stats/ share: copies of a sample, sorted or not, and
 * a seeded generator (mt19937, so that every Monte-Carlo check is fixed).
 */
#ifndef TESTS_STATS_FIXTURE_H
#define TESTS_STATS_FIXTURE_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* x[0..n) in a new array (n may be 0); the caller frees it. */
double *copy(const double *x, size_t n);
/* The same, sorted ascending. */
double *sorted_copy(const double *x, size_t n);
/* qsort's comparison of doubles, ascending. */
int cmp_double(const void *a, const void *b);
/* An mt19937 generator set to seed (aborts when it cannot be had). */
gsl_rng *rng_seeded(unsigned long seed);

#endif
