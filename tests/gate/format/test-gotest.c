/*
 * Unit tests for gate/format/gotest.c: go test -bench output.
 */
#include "gate/format/format.h"

#include <stdlib.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__gotest_real_output(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/gotest-old.txt", &len), msg[512];

	CHECK(format_detect(text, len) == FORMAT_GOTEST);
	CHECK(parse(&t, FORMAT_GOTEST, text, len, msg, sizeof(msg), 0) == 0);
	/* Steady, Changed, Alloc: 3 units; Sizes/n=10, n=1000: 4 */
	CHECK(t.n == 17);
	c = fmt_table_find(&t, "BenchmarkSteady", "s/op");
	CHECK(c && c->n == 8);
	CHECK(c && fabs(c->values[0] - 9144e-9) < 1e-18);
	c = fmt_table_find(&t, "BenchmarkAlloc", "allocs/op");
	CHECK(c && c->n == 8 && c->values[0] == 1 && !c->higher_better);
	c = fmt_table_find(&t, "BenchmarkSizes/n=1000", "MB/s");
	CHECK(c && c->higher_better);
	/* 0 B/op is a count, allowed */
	CHECK(fmt_table_find(&t, "BenchmarkSteady", "B/op") != NULL);
	fmt_table_release(&t);
	free(text);
}

static void test_format__gotest_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "BenchmarkA-2 10 5 ns/op\n--- FAIL: BenchmarkB\nFAIL\n",
		  "out:2: go test reported a failure" },
		{ "BenchmarkA-2 10 5 ns/op\n", "closing \"PASS\"" },
		{ "BenchmarkA-2 x 5 ns/op\nPASS\n", "iteration count" },
		{ "BenchmarkA-2 10 5\nPASS\n", "pairs of value and unit" },
		{ "BenchmarkA-2 10 five ns/op\nPASS\n", "not a number" },
		{ "BenchmarkA-2 10 0 ns/op\nPASS\n", "value 0 s/op" },
		{ "BenchmarkA-2 10 -1 B/op\nPASS\n", "value -1 B/op" },
		{ "goos: linux\nPASS\n", "no benchmark results" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	const char *s;
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(parse(&t, FORMAT_GOTEST, cases[i].text,
			    strlen(cases[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, cases[i].want);
	}
	/* -v prints a name alone first; allocs/op 0 is fine */
	s = "BenchmarkA\nBenchmarkA-2 10 5 ns/op 0 allocs/op 3 widgets/op\n"
	    "ok  \tpkg\t1s\n";
	CHECK(parse(&t, FORMAT_GOTEST, s, strlen(s), msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3 && fmt_table_find(&t, "BenchmarkA", "widgets/op"));
	fmt_table_release(&t);
}

/*
 * The -GOMAXPROCS suffix is dropped from every name (benchstat's rule, so
 * a case keeps its name on a runner of another core count) and kept as
 * the table's procs; sub-benchmark names ending in digits keep them;
 * output at several counts (go test -cpu 1,4) keeps every suffix, since
 * each count is a case of its own; GOMAXPROCS 1 prints none.
 */
static void test_format__gotest_gomaxprocs_suffix(void)
{
	static const struct {
		const char *text;
		long procs;
		const char *names[3];
	} cases[] = {
		{ "BenchmarkA-8 10 5 ns/op\nBenchmarkB/size-1024-8 10 5 "
		  "ns/op\nPASS\n", 8, { "BenchmarkA", "BenchmarkB/size-1024",
		  NULL } },
		{ "BenchmarkA-2 10 5 ns/op\nBenchmarkA-2 10 6 ns/op\nPASS\n",
		  2, { "BenchmarkA", NULL, NULL } },
		{ "BenchmarkA 10 5 ns/op\nBenchmarkA-4 10 6 ns/op\nPASS\n",
		  0, { "BenchmarkA", "BenchmarkA-4", NULL } },
		{ "BenchmarkA/n-10 10 5 ns/op\nBenchmarkA/n-100 10 5 ns/op\n"
		  "PASS\n", 0, { "BenchmarkA/n-10", "BenchmarkA/n-100", NULL } },
		{ "BenchmarkA 10 5 ns/op\nPASS\n", 0,
		  { "BenchmarkA", NULL, NULL } },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	char msg[512];
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(parse(&t, FORMAT_GOTEST, cases[i].text,
			    strlen(cases[i].text), msg, sizeof(msg), 0) == 0);
		CHECK(t.procs == cases[i].procs);
		for (k = 0; k < 3 && cases[i].names[k]; k++)
			CHECK(fmt_table_find(&t, cases[i].names[k], "s/op"));
		CHECK(t.n == k);
		fmt_table_release(&t);
	}
}

/*
 * Each "pkg:" header starts a test binary's output, a process: compare
 * takes the process as the unit (issue 25 item 2). One section is one
 * process; two runs concatenated are two; no header, one run: one.
 */
static void test_format__gotest_processes(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const char *one = "pkg: x\nBenchmarkA-2 10 5 ns/op\n"
			  "BenchmarkA-2 10 6 ns/op\nPASS\n";
	const char *two = "pkg: x\nBenchmarkA-2 10 5 ns/op\n"
			  "BenchmarkA-2 10 6 ns/op\nok x 1s\npkg: x\n"
			  "BenchmarkA-2 10 7 ns/op\nPASS\n";
	const char *none = "BenchmarkA-2 10 5 ns/op\nPASS\n";
	char msg[512];

	CHECK(parse(&t, FORMAT_GOTEST, one, strlen(one), msg, sizeof(msg),
		    0) == 0);
	CHECK(t.n == 1 && fmt_case_processes(&t.cases[0]) == 1);
	fmt_table_release(&t);
	CHECK(parse(&t, FORMAT_GOTEST, two, strlen(two), msg, sizeof(msg),
		    0) == 0);
	CHECK(t.n == 1 && t.cases[0].n == 3);
	CHECK(fmt_case_processes(&t.cases[0]) == 2);
	fmt_table_release(&t);
	CHECK(parse(&t, FORMAT_GOTEST, none, strlen(none), msg, sizeof(msg),
		    0) == 0);
	CHECK(fmt_case_processes(&t.cases[0]) == 1);
	fmt_table_release(&t);
}

static const struct harness_test tests[] = {
	TEST(test_format__gotest_real_output),
	TEST(test_format__gotest_errors),
	TEST(test_format__gotest_processes),
	TEST(test_format__gotest_gomaxprocs_suffix),
};

HARNESS_MAIN(tests)
