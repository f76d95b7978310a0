/*
 * Unit tests for gate/calibration.c: the record gate calibrate leaves,
 * read back; a missing record is no error, an unreadable one is.
 */
#include "gate/calibration.h"

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

static const struct harness_test tests[] = {
	TEST(test_calibration__load_missing_saved_and_bad),
};

HARNESS_MAIN(tests)
