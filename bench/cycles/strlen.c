/* A string's length recomputed in the loop condition (head) instead of
   once per round (base): 20000 bytes scanned 312 times a round, 200
   rounds, beside 10 M rounds of register work both do. Every byte scanned
   is in L1: cycles and instructions agree; how far wall does depends on
   how fast the CPU runs glibc's vector strlen. */
#include <stdio.h>
#include <string.h>
#ifndef HEAD
#define HEAD 0
#endif
#define LEN 20000
static char s[LEN + 1];

int main(void)
{
	unsigned long sum = 0, x = 88172645463325252ul;
	size_t i, n;
	long k;

	for (k = 0; k < 10000000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum += x & 1;
	}
	memset(s, 'a', LEN);
	for (k = 0; k < 200; k++) {
#if HEAD
		for (i = 0; i < strlen(s) / 64; i++)
			sum += (unsigned char)s[i * 64];
#else
		n = strlen(s) / 64;
		for (i = 0; i < n; i++)
			sum += (unsigned char)s[i * 64];
#endif
	}
	printf("%lu\n", sum);
	return 0;
}
