/*
 * Unit tests for gate/format/benchmarkdotnet.c: BenchmarkDotNet's full
 * JSON (tests/data/benchmarkdotnet-sample.json, real output of
 * BenchmarkDotNet 0.11.2 from a public repository, named in
 * tests/data/README: one method under two jobs, MediumRun with
 * LaunchCount=2 and ShortRun), files concatenated, and what is refused.
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

#define MEDIUM "Tests.MyBenchmark.Bench(amount: 5500, fee: 10, minimum: 4) " \
	"[MediumRun]"
#define SHORT "Tests.MyBenchmark.Bench(amount: 5500, fee: 10, minimum: 4) " \
	"[ShortRun]"

static void test_format__benchmarkdotnet_sample(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/benchmarkdotnet-sample.json", &len);
	char msg[512];
	double sum = 0;
	size_t i;

	CHECK(format_detect(text, len) == FORMAT_BENCHMARKDOTNET);
	CHECK(parse(&t, FORMAT_BENCHMARKDOTNET, text, len, msg, sizeof(msg),
		    0) == 0);
	/* one method, two jobs: two cases */
	CHECK(t.n == 2);
	c = fmt_table_find(&t, MEDIUM, "s/op");
	/* 15 result iterations in each of 2 launches: 2 processes */
	CHECK(c && c->n == 30 && fmt_case_processes(c) == 2);
	/* their mean is BenchmarkDotNet's own Statistics.Mean (ns/op) */
	for (i = 0; c && i < c->n; i++)
		sum += c->values[i];
	CHECK(c && fabs(sum / (double)c->n - 14648.73352053324e-9) < 1e-12);
	c = fmt_table_find(&t, SHORT, "s/op");
	CHECK(c && c->n == 3 && fmt_case_processes(c) == 1);
	fmt_table_release(&t);

	/* the same file twice: the second's launches are 3 and 4 */
	{
		char *two = malloc(2 * len + 1);

		memcpy(two, text, len);
		memcpy(two + len, text, len);
		two[2 * len] = '\0';
		CHECK(parse(&t, FORMAT_BENCHMARKDOTNET, two, 2 * len, msg,
			    sizeof(msg), 0) == 0);
		c = fmt_table_find(&t, MEDIUM, "s/op");
		CHECK(c && c->n == 60 && fmt_case_processes(c) == 4);
		fmt_table_release(&t);
		free(two);
	}
	free(text);
}

static void test_format__benchmarkdotnet_refused(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "{\"Benchmarks\":[{\"FullName\":\"A.B.C\",\"Statistics\":{}}]}",
		  "brief" },
		{ "{\"Benchmarks\":[{\"FullName\":\"A.B.C\",\"Measurements\":"
		  "[]}]}", "no result measurements" },
		{ "{\"Benchmarks\":[{\"FullName\":\"A.B.C\",\"Measurements\":"
		  "[{\"IterationMode\":\"Workload\",\"IterationStage\":"
		  "\"Result\",\"LaunchIndex\":0,\"Operations\":2,"
		  "\"Nanoseconds\":10}]}]}", "LaunchIndex" },
		{ "{\"Benchmarks\":[{\"Measurements\":[]}]}", "no \"FullName\"" },
		{ "{\"Title\":\"x\"}", "no \"Benchmarks\"" },
		{ "{\"Benchmarks\":[", "syntax error" },
	};
	static const char old[] =
		"{\"Benchmarks\":[{\"FullName\":\"A.B.C\",\"DisplayInfo\":"
		"\"B.C: DefaultJob\",\"Measurements\":[{\"IterationMode\":"
		"\"MainTarget\",\"LaunchIndex\":1,\"Operations\":4,"
		"\"Nanoseconds\":40},{\"IterationMode\":\"Result\","
		"\"LaunchIndex\":1,\"Operations\":4,\"Nanoseconds\":8}]}]}";
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	char msg[512];
	size_t i;

	/* DefaultJob adds nothing to the name; an older report's
	   IterationMode "Result" */
	CHECK(parse(&t, FORMAT_BENCHMARKDOTNET, old, sizeof(old) - 1, msg,
		    sizeof(msg), 0) == 0);
	c = fmt_table_find(&t, "A.B.C", "s/op");
	CHECK(c && c->n == 1 && fabs(c->values[0] - 2e-9) < 1e-18);
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_BENCHMARKDOTNET, bad[i].text,
			    strlen(bad[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__benchmarkdotnet_sample),
	TEST(test_format__benchmarkdotnet_refused),
};

HARNESS_MAIN(tests)
