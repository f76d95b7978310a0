/*
 * A small program with two benchmarks, used by `make demo`: "checksum"
 * sums a pseudo-random array, "sort" sorts it. Deterministic output, so
 * gate's parity check holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 400000

static uint32_t next(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static uint32_t *data(void)
{
	uint32_t *v = malloc(N * sizeof(*v)), s = 2463534242u;
	size_t i;

	if (!v)
		exit(1);
	for (i = 0; i < N; i++)
		v[i] = next(&s);
	return v;
}

static uint64_t checksum(const uint32_t *v)
{
	uint64_t h = 0;
	size_t i, round;

	for (round = 0; round < 40; round++)
		for (i = 0; i < N; i++)
			h = h * 31 + v[i];
	return h;
}

static void sort(uint32_t *v)
{
	qsort(v, N, sizeof(*v), cmp);
}

int main(int argc, char **argv)
{
	uint32_t *v = data();

	if (argc == 2 && !strcmp(argv[1], "checksum")) {
		printf("%llu\n", (unsigned long long)checksum(v));
	} else if (argc == 2 && !strcmp(argv[1], "sort")) {
		sort(v);
		printf("%u %u\n", v[0], v[N - 1]);
	} else {
		fprintf(stderr, "usage: bench checksum|sort\n");
		return 2;
	}
	free(v);
	return 0;
}
