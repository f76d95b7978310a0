/*
 * Unit tests for gate/format/vitest.c: vitest bench --outputJson
 * (tests/data/vitest-sample.json, real output of vitest 4.1.12 with
 * tinybench 2.9.0: see tests/data/README), runs concatenated, and what
 * is refused.
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__vitest_sample(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/vitest-sample.json", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_VITEST);
	CHECK(parse(&t, FORMAT_VITEST, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	/* named as -t matches: describe blocks and name, no file */
	c = fmt_table_find(&t, "fib fib 15", "s/op");
	/* the median, vitest's milliseconds in seconds */
	CHECK(c && c->n == 1 && fabs(c->values[0] - 0.007103e-3) < 1e-12);
	CHECK(fmt_table_find(&t, "fib fib 20", "s/op") != NULL);
	CHECK(fmt_table_find(&t, "sum", "s/op") != NULL);
	/* one run is one process: never "one process" repetitions */
	CHECK(!fmt_table_one_process(&t));
	fmt_table_release(&t);
	free(text);
}

static void test_format__vitest_runs(void)
{
	static const char two[] =
		"{\"files\":[{\"filepath\":\"/x/a.bench.ts\",\"groups\":[{"
		"\"fullName\":\"a.bench.ts > outer > inner\",\"benchmarks\":["
		"{\"name\":\"b\",\"mean\":3,\"median\":2}]}]}]}\n"
		"{\"files\":[{\"filepath\":\"/x/a.bench.ts\",\"groups\":[{"
		"\"fullName\":\"a.bench.ts > outer > inner\",\"benchmarks\":["
		"{\"name\":\"b\",\"mean\":5}]}]}]}\n";
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "{\"files\":[{\"groups\":[{\"fullName\":\"a\",\"benchmarks\":"
		  "[{\"name\":\"x\",\"median\":1}]}]}", "syntax error" },
		{ "{\"files\":[{\"groups\":[{\"fullName\":\"a\",\"benchmarks\":"
		  "[{\"name\":\"x\"}]}]}]}", "no \"median\"" },
		{ "{\"files\":[{\"groups\":[{\"fullName\":\"a\",\"benchmarks\":"
		  "[{\"name\":\"x\",\"median\":0}]}]}]}", "" },
		{ "{\"files\":[{\"groups\":[{\"fullName\":\"a > d\",\"benchmarks\":"
		  "[{\"name\":\"x\",\"median\":1}]},{\"fullName\":\"b > d\","
		  "\"benchmarks\":[{\"name\":\"x\",\"median\":1}]}]}]}",
		  "two benchmarks named \"d x\"" },
		{ "{\"files\":[{\"nogroups\":1}]}", "no \"groups\"" },
		{ "{\"results\":[]}", "no \"files\"" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	char msg[512];
	size_t i;

	CHECK(format_detect(two, sizeof(two) - 1) == FORMAT_VITEST);
	CHECK(parse(&t, FORMAT_VITEST, two, sizeof(two) - 1, msg,
		    sizeof(msg), 0) == 0);
	CHECK(t.n == 1);
	c = fmt_table_find(&t, "outer inner b", "s/op");
	/* a run each: the median, else (older vitest) the mean */
	CHECK(c && c->n == 2 && fabs(c->values[0] - 2e-3) < 1e-12 &&
	      fabs(c->values[1] - 5e-3) < 1e-12);
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_VITEST, bad[i].text,
			    strlen(bad[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__vitest_sample),
	TEST(test_format__vitest_runs),
};

HARNESS_MAIN(tests)
