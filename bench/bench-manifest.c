/*
 * make bench-seal's manifest figure: the time to take a manifest of a
 * tree (every file hashed) and to compare it with itself, as gate does
 * after a build and again after measuring. Usage: bench-manifest DIR
 * [REPEATS]. Prints figures, asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/clock.h"
#include "gate/workspace/workspace.h"

int main(int argc, char **argv)
{
	struct ws_manifest *a, *b;
	double t0, take = 1e9, diff = 1e9;
	char *path, *what;
	int i, reps = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-manifest DIR [REPEATS]\n");
		return 2;
	}
	for (i = 0; i < reps; i++) {
		t0 = clock_seconds();
		a = ws_manifest_take(argv[1], NULL);
		if (!a)
			return 3;
		if (clock_seconds() - t0 < take)
			take = clock_seconds() - t0;
		b = ws_manifest_take(argv[1], NULL);
		t0 = clock_seconds();
		if (!b || ws_manifest_diff(a, b, 1, &path, &what))
			return 3;
		if (clock_seconds() - t0 < diff)
			diff = clock_seconds() - t0;
		ws_manifest_free(a);
		ws_manifest_free(b);
	}
	a = ws_manifest_take(argv[1], NULL);
	printf("manifest: %zu entries: taken in %.1f ms (best of %d), "
	       "compared in %.2f ms\n", ws_manifest_size(a), take * 1e3, reps,
	       diff * 1e3);
	ws_manifest_free(a);
	return 0;
}
