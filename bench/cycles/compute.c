/* A control: 10% more arithmetic in registers (head), no memory at all.
   Instructions, cycles and wall should all say about +10%. */
#include <stdio.h>
#ifndef HEAD
#define HEAD 0
#endif
#if HEAD
#define ROUNDS 22000000
#else
#define ROUNDS 20000000
#endif

int main(void)
{
	unsigned long x = 88172645463325252ul, sum = 0;
	long i;

	for (i = 0; i < ROUNDS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum += x & 1;
	}
	printf("%lu\n", sum % 3);
	return 0;
}
