/*
 * What the tests of stats/ share (tests/stats/fixture.h).
 */
#include "tests/stats/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

double *copy(const double *x, size_t n)
{
	double *c = xmalloc((n ? n : 1) * sizeof(*c));

	if (n)
		memcpy(c, x, n * sizeof(*c));
	return c;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double *sorted_copy(const double *x, size_t n)
{
	double *c = copy(x, n);

	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

gsl_rng *rng_seeded(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (!r) {
		fputs("tests/stats: gsl_rng_alloc failed\n", stderr);
		abort();
	}
	gsl_rng_set(r, seed);
	return r;
}

void fill_pattern(double *x, size_t n, unsigned shape, gsl_rng *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (shape) {
		case 0:	/* continuous */
			x[i] = gsl_rng_uniform(r);
			break;
		case 1:	/* many duplicates */
			x[i] = (double)gsl_rng_uniform_int(r, 4);
			break;
		case 2:	/* sorted */
			x[i] = (double)i;
			break;
		case 3:	/* reversed */
			x[i] = (double)(n - i);
			break;
		case 4:	/* all equal */
			x[i] = 1;
			break;
		case 5:	/* organ pipe */
			x[i] = (double)(i < n / 2 ? i : n - i);
			break;
		default:	/* negative and positive, with zeros */
			x[i] = (double)gsl_rng_uniform_int(r, 7) - 3;
			break;
		}
	}
}
