/* Structure of arrays (base) against an array of structures (head): a sum
   over one field of 1 M particles, 8 passes. The head drags 64-byte
   structures through the cache for 8 bytes of each. */
#include <stdio.h>
#include <stdlib.h>
#ifndef HEAD
#define HEAD 0
#endif
#define N (1 << 20)
#define PASSES 8

struct particle { double x, y, z, vx, vy, vz, m, q; };

int main(void)
{
#if HEAD
	struct particle *p = calloc(N, sizeof(*p));
#else
	double *x = calloc(N, sizeof(*x));
	double *rest = calloc((size_t)N * 7, sizeof(*rest));
#endif
	double sum = 0;
	int i, k;

	for (i = 0; i < N; i++)
#if HEAD
		p[i].x = i & 1023;
#else
		x[i] = i & 1023;
#endif
	for (k = 0; k < PASSES; k++)
		for (i = 0; i < N; i++)
#if HEAD
			sum += p[i].x;
#else
			sum += x[i];
#endif
	printf("%.0f\n", sum);
#if HEAD
	free(p);
#else
	free(x);
	free(rest);
#endif
	return 0;
}
