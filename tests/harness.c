/*
 * The harness's runner: runs each test, counts the tests with a failed
 * check, and prints the closing "N passed, N failed" line CI reads;
 * TEST_VERBOSE=1 prints each test that passed and its seconds.
 */
#include "harness.h"

#include <stdlib.h>
#include <time.h>

int harness_failed_checks;

size_t harness_trials(size_t n)
{
	const char *full = getenv("GATE_TEST_FULL");

	if (full && strcmp(full, "1") == 0)
		return n;
	return n / 4 ? n / 4 : 1;
}

int harness_main(const struct harness_test *tests, size_t n, int argc,
		 char **argv)
{
	size_t i, passed = 0, failed = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	for (i = 0; i < n; i++) {
		int before = harness_failed_checks;
		struct timespec t0, t1;

		if (only && !strstr(tests[i].name, only))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		tests[i].fn();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (harness_failed_checks != before) {
			failed++;
			fprintf(stderr, "FAIL %s\n", tests[i].name);
		} else {
			passed++;
			if (getenv("TEST_VERBOSE"))
				fprintf(stderr, "ok   %s (%.2fs)\n",
					tests[i].name,
					(double)(t1.tv_sec - t0.tv_sec) +
						(t1.tv_nsec - t0.tv_nsec) / 1e9);
		}
	}
	printf("%zu passed, %zu failed\n", passed, failed);
	return failed ? 1 : 0;
}
