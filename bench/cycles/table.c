/* A lookup table of 1 KiB (base) or 32 MiB (head), filled by 8 M writes
   and read at 4 M random indexes: the same instructions, and the large
   table misses both cache levels on nearly every read. */
#include <stdio.h>
#include <stdlib.h>
#ifndef HEAD
#define HEAD 0
#endif
#if HEAD
#define BITS 23
#else
#define BITS 8
#endif
#define READS (4 << 20)

int main(void)
{
	unsigned *t = malloc(sizeof(*t) << BITS);
	unsigned long sum = 0, r = 12345;
	unsigned i;

	for (i = 0; i < 1u << 23; i++)
		t[i & ((1u << BITS) - 1)] = i * 2654435761u;
	for (i = 0; i < READS; i++) {
		r = r * 6364136223846793005ul + 1442695040888963407ul;
		sum += t[(r >> 33) & ((1u << BITS) - 1)] & 1;
	}
	printf("%lu\n", sum);
	free(t);
	return 0;
}
