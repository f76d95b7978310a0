/*
 * Unit tests for gate/decide/calibration.c: the record gate calibrate leaves,
 * read back; a missing record is no error, an unreadable one is.
 */
#include "gate/decide/calibration.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "tests/harness.h"
#include "common/banned.h"

/* A record written by calibration_save reads back; no file is 0 with
   none (it returned 1 before), a file that is no record is -1. */
static void test_calibration__load_missing_saved_and_bad(void)
{
	char dir[] = "/tmp/gate-test-calibration-XXXXXX";
	char path[64], msg[512] = "";
	struct calib_bench rec = { (char *)"sleep", METRIC_WALL,
				   (char *)"sleep 0.01", 0.05, 0.1, 0.2, 20 };
	struct calib_bench *b = &rec;
	size_t n = 7;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/calibration.json", dir);
	CHECK(calibration_load(&b, &n, path) == 0);
	CHECK(b == NULL && n == 0);
	calibration_free(b, n);

	CHECK(calibration_save(path, "0123456789abcdef0123456789abcdef01234567",
			       &rec, 1) == 0);
	CHECK(calibration_load(&b, &n, path) == 0);
	CHECK(n == 1 && b && !strcmp(b[0].name, "sleep") &&
	      b[0].metric == METRIC_WALL && b[0].spread == 0.05 &&
	      !strcmp(b[0].command, "sleep 0.01"));
	calibration_free(b, n);

	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("[1, 2]\n", f);
		fclose(f);
	}
	error_capture(msg, sizeof(msg), 1);
	CHECK(calibration_load(&b, &n, path) == -1);
	error_capture(NULL, 0, 0);
	CHECK_CONTAINS(msg, "is not a calibration record");
	remove(path);
	rmdir(dir);
}

/* The pairs to reach a floor, against values computed independently in
   Python (statistics.NormalDist): n = ceil(((z_(1+level)/2 + z_0.8)
   1.023 sd / log1p(floor))^2), at least 2, SIZE_MAX past the cap; and
   consistent with calibration_mde, which it inverts. */
static void test_calibration__pairs_needed(void)
{
	static const struct {
		double spread, floor, level;
		size_t want;	/* Python: 8.6265, 0.3451, 205.377, 26.932,
				   0, 331851.58 */
	} cases[] = {
		{ 0.05, 0.05, 0.95, 9 },
		{ 0.01, 0.05, 0.95, 2 },
		{ 0.2, 0.05, 0.99, 206 },
		{ 0.3, 0.2, 0.975, 27 },
		{ 0.0, 0.05, 0.95, 2 },
		{ 2.0, 0.01, 0.95, SIZE_MAX },
		{ NAN, 0.05, 0.95, SIZE_MAX },
	};
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = calibration_pairs_needed(cases[i].spread, cases[i].floor,
					     cases[i].level);
		CHECK(n == cases[i].want);
		if (n == SIZE_MAX || !(cases[i].spread > 0))
			continue;
		CHECK(calibration_mde(cases[i].spread, n, cases[i].level,
				      0.8) <= cases[i].floor + 1e-12);
		CHECK(n == 2 || calibration_mde(cases[i].spread, n - 1,
						 cases[i].level, 0.8) >
		      cases[i].floor);
	}
}

static const struct harness_test tests[] = {
	TEST(test_calibration__pairs_needed),
	TEST(test_calibration__load_missing_saved_and_bad),
};

HARNESS_MAIN(tests)
