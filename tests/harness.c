/*
 * The harness's runner: runs each test, counts the tests with a failed
 * check, and prints the closing "N passed, N failed" line CI reads.
 */
#include "harness.h"

#include <stdlib.h>

int harness_failed_checks;

int harness_main(const struct harness_test *tests, size_t n, int argc,
		 char **argv)
{
	size_t i, passed = 0, failed = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	for (i = 0; i < n; i++) {
		int before = harness_failed_checks;

		if (only && !strstr(tests[i].name, only))
			continue;
		tests[i].fn();
		if (harness_failed_checks != before) {
			failed++;
			fprintf(stderr, "FAIL %s\n", tests[i].name);
		} else {
			passed++;
			if (getenv("TEST_VERBOSE"))
				fprintf(stderr, "ok   %s\n", tests[i].name);
		}
	}
	printf("%zu passed, %zu failed\n", passed, failed);
	return failed ? 1 : 0;
}
