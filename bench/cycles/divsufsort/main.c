/* gate's bench driver (not libdivsufsort's): the Burrows-Wheeler
   transform (divbwt, as bzip2-like compressors use it) of 4 MiB of
   generated text (words from a fixed vocabulary, a fixed LCG). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "divsufsort.h"

#define SIZE (4 << 20)

static const char *const words[] = {
	"the ", "of ", "and ", "compression ", "buffer ", "a ", "to ",
	"performance ", "in ", "regression ", "is ", "gate ", "that ",
	"benchmark ", "for ", "pull ", "request ", "with ", "cache ",
	"line ", "on ", "table ", "hash ", "as ", "by ", "memory ",
	"\n", "it ", "be ", "this ", "time ", "count "
};

int main(void)
{
	sauchar_t *t = malloc(SIZE), *u = malloc(SIZE);
	saidx_t *a = malloc(SIZE * sizeof(*a)), n = 0, idx, i;
	unsigned long x = 12345, sum = 0;

	if (!t || !u || !a)
		return 1;
	while (n < SIZE) {
		const char *w;
		saidx_t l;

		x = x * 6364136223846793005ul + 1442695040888963407ul;
		w = words[(x >> 33) % (sizeof(words) / sizeof(*words))];
		l = (saidx_t)strlen(w);
		if (n + l > SIZE)
			l = SIZE - n;
		memcpy(t + n, w, (size_t)l);
		n += l;
	}
	idx = divbwt(t, u, a, SIZE);
	if (idx < 0)
		return 2;
	for (i = 0; i < SIZE; i++)
		sum = sum * 31 + u[i];
	printf("%ld %lu\n", (long)idx, sum);
	free(t);
	free(u);
	free(a);
	return 0;
}
