/* gate's bench driver (not liblzf's): compresses and decompresses 8 MiB
   of generated text (words from a fixed vocabulary, a fixed LCG) in
   64 KiB blocks, as a caller of liblzf would, 4 times, and checks the
   round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lzf.h"

#define SIZE (8u << 20)
#define BLOCK (64u << 10)

static const char *const words[] = {
	"the ", "of ", "and ", "compression ", "buffer ", "a ", "to ",
	"performance ", "in ", "regression ", "is ", "gate ", "that ",
	"benchmark ", "for ", "pull ", "request ", "with ", "cache ",
	"line ", "on ", "table ", "hash ", "as ", "by ", "memory ",
	"\n", "it ", "be ", "this ", "time ", "count "
};

int main(void)
{
	unsigned char *in = malloc(SIZE), *out = malloc(BLOCK * 2),
		      *back = malloc(BLOCK);
	unsigned long x = 12345, total = 0;
	size_t n = 0, off;
	int r;

	if (!in || !out || !back)
		return 1;
	while (n < SIZE) {
		const char *w;
		size_t l;

		x = x * 6364136223846793005ul + 1442695040888963407ul;
		w = words[(x >> 33) % (sizeof(words) / sizeof(*words))];
		l = strlen(w);
		if (n + l > SIZE)
			l = SIZE - n;
		memcpy(in + n, w, l);
		n += l;
	}
	for (r = 0; r < 4; r++)
		for (off = 0; off < SIZE; off += BLOCK) {
			unsigned c = lzf_compress(in + off, BLOCK, out,
						  BLOCK * 2);

			if (!c || lzf_decompress(out, c, back, BLOCK) != BLOCK ||
			    memcmp(back, in + off, BLOCK))
				return 2;
			total += c;
		}
	printf("%lu\n", total);
	free(in);
	free(out);
	free(back);
	return 0;
}
