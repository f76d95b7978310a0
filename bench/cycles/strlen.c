/* A string's length recomputed in the loop condition (head) instead of
   once (base): 20000 bytes scanned 200 times. Quadratic in instructions,
   but every byte scanned is in L1: cycles and instructions agree. */
#include <stdio.h>
#include <string.h>
#ifndef HEAD
#define HEAD 0
#endif
#define LEN 20000
static char s[LEN + 1];

int main(void)
{
	unsigned long sum = 0;
	size_t i, n;
	int k;

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
