/* Branchless (base) against branchy (head): sum the bytes above 128 of 4
   MiB of random bytes, 8 passes. The branch is taken at random, so the
   head mispredicts half the time: slower on a real CPU, though it runs
   fewer instructions and touches the same memory. */
#include <stdio.h>
#include <stdlib.h>
#ifndef HEAD
#define HEAD 0
#endif
#define N (4 << 20)
#define PASSES 8

int main(void)
{
	unsigned char *a = malloc(N);
	unsigned long sum = 0, r = 1;
	int i, k;

	for (i = 0; i < N; i++) {
		r = r * 6364136223846793005ul + 1442695040888963407ul;
		a[i] = (unsigned char)(r >> 56);
	}
	for (k = 0; k < PASSES; k++)
		for (i = 0; i < N; i++) {
#if HEAD
			if (a[i] > 128)
				sum += a[i];
#else
			sum += a[i] & -(unsigned long)(a[i] > 128);
#endif
		}
	printf("%lu\n", sum);
	free(a);
	return 0;
}
