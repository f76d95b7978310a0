/*
 * lz4bench: compresses and decompresses 4 MiB of deterministic,
 * text-like data with the real LZ4 library (statically linked), writes
 * the compressed stream to $GATE_TMPDIR (or the current directory) and
 * prints a checksum. Used by `make bench-bias` as a real program whose
 * byte-identical builds in two directories are measured against each
 * other.
 */
#include <lz4.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE (4u << 20)

static const char *words[] = {
	"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
	"performance", "regression", "gate", "benchmark", "pair", "ratio",
	"interval", "median", "noise", "floor", "verdict", "compress",
};

int main(void)
{
	char *in = malloc(SIZE), *out, *back;
	int bound = LZ4_compressBound(SIZE), n, m;
	uint32_t s = 12345, sum = 0;
	size_t i = 0;
	const char *dir = getenv("GATE_TMPDIR");
	char path[4096];
	FILE *f;

	out = malloc((size_t)bound);
	back = malloc(SIZE);
	if (!in || !out || !back)
		return 1;
	while (i < SIZE) {
		const char *w;

		s = s * 1103515245u + 12345u;
		w = words[(s >> 16) % 20];
		while (*w && i < SIZE)
			in[i++] = *w++;
		if (i < SIZE)
			in[i++] = (s >> 8) % 7 ? ' ' : '\n';
	}
	n = LZ4_compress_default(in, out, SIZE, bound);
	m = LZ4_decompress_safe(out, back, n, SIZE);
	if (n <= 0 || m != (int)SIZE)
		return 2;
	for (i = 0; i < SIZE; i += 64)
		sum = sum * 31 + (unsigned char)back[i];
	snprintf(path, sizeof(path), "%s/out.lz4", dir ? dir : ".");
	f = fopen(path, "wb");
	if (!f || fwrite(out, 1, (size_t)n, f) != (size_t)n || fclose(f))
		return 3;
	printf("%d %u\n", n, sum);
	free(in);
	free(out);
	free(back);
	return 0;
}
