/*
 * Unit tests for gate/format/pyperf.c: real pyperf files (pyperf's own
 * test data, tests/data/README): mult_list_py36.json, three benchmarks of
 * 20 worker runs and a calibration run each; track_memory.json, a byte
 * unit and the name in the file's common metadata.
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__pyperf_runs_are_processes(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len, k;
	char *text = slurp("tests/data/pyperf-mult-list.json", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_PYPERF);
	CHECK(parse(&t, FORMAT_PYPERF, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	c = fmt_table_find(&t, "[1]*1000", "s");
	/* 20 runs of 3 values; the calibration run's warmups left out */
	CHECK(c && c->n == 60 && c->proc);
	CHECK(c && fmt_case_processes(c) == 20);
	CHECK(c && fabs(c->values[0] - 2.087224121094522e-06) < 1e-18);
	for (k = 0; c && k < c->n; k++)
		CHECK(c->proc[k] == k / 3);
	CHECK(fmt_table_find(&t, "[1,2,3]*1000", "s") != NULL);
	CHECK(!fmt_table_one_process(&t));
	fmt_table_release(&t);
	free(text);
}

static void test_format__pyperf_common_metadata(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/pyperf-track-memory.json", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_PYPERF);
	CHECK(parse(&t, FORMAT_PYPERF, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 1);
	c = &t.cases[0];
	CHECK(!strcmp(c->name, "timeit") && !strcmp(c->unit, "B"));
	CHECK(fmt_case_processes(c) >= 2);
	fmt_table_release(&t);
	free(text);
}

/* Two runs' files one after another: the second's runs are further
   processes of each benchmark. */
static void test_format__pyperf_files_concatenated(void)
{
	static const char two[] =
		"{\"benchmarks\":[{\"metadata\":{\"name\":\"a\"},\"runs\":["
		"{\"warmups\":[[1,0.5]]},{\"values\":[1.0,2.0]},"
		"{\"values\":[3.0]}]}],\"metadata\":{\"unit\":\"second\"},"
		"\"version\":\"1.0\"}\n"
		"{\"benchmarks\":[{\"metadata\":{\"name\":\"a\"},\"runs\":["
		"{\"values\":[4.0]}]}],\"version\":\"1.0\"}\n";
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "{\"benchmarks\":[{\"runs\":[{\"values\":[1]}]}]}",
		  "lacks a \"name\"" },
		{ "{\"benchmarks\":[{\"metadata\":{\"name\":\"a\"},\"runs\":"
		  "[{\"warmups\":[[1,1]]}]}]}", "no run with values" },
		{ "{\"benchmarks\":[{\"metadata\":{\"name\":\"a\",\"unit\":"
		  "\"meter\"},\"runs\":[{\"values\":[1]}]}]}", "unit \"meter\"" },
		{ "{\"benchmarks\":[{\"metadata\":{\"name\":\"a\"},\"runs\":"
		  "[{\"values\":[\"x\"]}]}]}", "not a number" },
		{ "{\"benchmarks\":[{\"metadata\":{\"name\":\"a\"},\"runs\":"
		  "[{\"values\":[1]", "syntax error" },
		{ "{\"runs\":[]}", "no \"benchmarks\" list" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	char msg[512];
	size_t i;

	CHECK(format_detect(two, sizeof(two) - 1) == FORMAT_PYPERF);
	CHECK(parse(&t, FORMAT_PYPERF, two, sizeof(two) - 1, msg, sizeof(msg),
		    0) == 0);
	c = fmt_table_find(&t, "a", "s");
	CHECK(c && c->n == 4 && fmt_case_processes(c) == 3);
	CHECK(c && c->proc[0] == 0 && c->proc[1] == 0 && c->proc[2] == 1 &&
	      c->proc[3] == 2);
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_PYPERF, bad[i].text,
			    strlen(bad[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__pyperf_runs_are_processes),
	TEST(test_format__pyperf_common_metadata),
	TEST(test_format__pyperf_files_concatenated),
};

HARNESS_MAIN(tests)
