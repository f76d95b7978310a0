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
/* Fills x[0..n) with pattern shape (0 to FILL_PATTERNS - 1) of those that
   break naive selection: continuous, many duplicates, sorted, reversed, all
   equal, organ pipe, then (any larger shape) negative and positive values
   with zeros, drawing from r where the pattern is random. */
#define FILL_PATTERNS 7
void fill_pattern(double *x, size_t n, unsigned shape, gsl_rng *r);

#endif
