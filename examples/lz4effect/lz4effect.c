/*
 * lz4effect: a real program whose slowdown is set exactly, for
 * `make bench-verdicts`. It compresses and decompresses one 16 KiB
 * buffer of deterministic, text-like data with the real LZ4 library
 * (statically linked), over and over: BASE_BYTES in all, plus a fraction
 * e more, read at run time from the file "effect" in the working
 * directory (a decimal such as 0.05; 0 for none). The extra work is the
 * same loop over the same buffer, so it adds e times the loop's
 * instructions; the rest (process start, one buffer's generation) is
 * under 1% of a sample, which `valgrind --tool=callgrind` confirms (see
 * doc/bench-verdicts.md). Prints the bytes processed and a checksum; writes nothing.
 */
#include <lz4.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (16u << 10)
#ifndef BASE_BYTES
#define BASE_BYTES (12ull << 20)
#endif

static const char *words[] = {
	"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
	"performance", "regression", "gate", "benchmark", "pair", "ratio",
	"interval", "median", "noise", "floor", "verdict", "compress",
};

static int read_effect(double *e)
{
	char line[64], *end;
	FILE *f = fopen("effect", "r");

	if (!f) {
		perror("lz4effect: cannot open \"effect\"");
		return -1;
	}
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		fprintf(stderr, "lz4effect: \"effect\" is empty; write a "
			"fraction such as 0.05 into it\n");
		return -1;
	}
	fclose(f);
	*e = strtod(line, &end);
	if (end == line || (*end && *end != '\n') || !(*e >= 0 && *e <= 10)) {
		fprintf(stderr, "lz4effect: \"effect\" must hold a fraction "
			"from 0 to 10, got \"%s\"\n", strtok(line, "\n"));
		return -1;
	}
	return 0;
}

int main(void)
{
	static char in[CHUNK], back[CHUNK];
	char out[LZ4_COMPRESSBOUND(CHUNK)];
	unsigned long long total, done = 0;
	uint32_t s = 12345, sum = 0;
	size_t i = 0;
	double e;

	if (read_effect(&e) < 0)
		return 1;
	while (i < CHUNK) {
		const char *w;

		s = s * 1103515245u + 12345u;
		w = words[(s >> 16) % 20];
		while (*w && i < CHUNK)
			in[i++] = *w++;
		if (i < CHUNK)
			in[i++] = (s >> 8) % 7 ? ' ' : '\n';
	}
	total = (unsigned long long)(BASE_BYTES * (1 + e) + 0.5);
	while (done < total) {
		int len = total - done < CHUNK ? (int)(total - done) : (int)CHUNK;
		int n = LZ4_compress_default(in, out, len, (int)sizeof(out));

		if (n <= 0 || LZ4_decompress_safe(out, back, n, len) != len ||
		    memcmp(in, back, (size_t)len))
			return 2;
		sum = sum * 31 + (uint32_t)n + (unsigned char)back[len - 1];
		done += (unsigned long long)len;
	}
	printf("%llu bytes, checksum %u\n", done, sum);
	return 0;
}
