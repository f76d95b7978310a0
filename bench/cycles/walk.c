/* A 2048x2048 int array walked by rows (base) or by columns (head): the
   same statement with its indexes swapped, so -O0 executes the very same
   instructions, and the column walk misses the caches on nearly every
   access. */
#include <stdio.h>
#ifndef HEAD
#define HEAD 0
#endif
#define N 2048
static int a[N][N];

int main(void)
{
	long sum = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
#if HEAD
			a[j][i] += i ^ j;
#else
			a[i][j] += i ^ j;
#endif
	for (i = 0; i < N; i += 7)
		sum += a[i][(i * 13) % N];
	printf("%ld\n", sum);
	return 0;
}
