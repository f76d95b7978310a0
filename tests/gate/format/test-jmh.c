/*
 * Unit tests for gate/format/jmh.c: real JMH -rf json output (whole
 * entries of two projects' jmh-result.json, tests/data/README): two forks
 * of ops/s with parameters (JMH 1.21); one fork of ops/ms and a
 * single-shot ms/op (JMH 1.37).
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__jmh_forks_are_processes(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len, k;
	char *text = slurp("tests/data/jmh-json-bench.json", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_JMH);
	CHECK(parse(&t, FORMAT_JMH, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	c = fmt_table_find(&t, "bench.Case1.decodeArgonaut:depth=10,length=10",
			   "ops/s");
	/* two forks of ten iterations: two processes */
	CHECK(c && c->n == 20 && fmt_case_processes(c) == 2);
	CHECK(c && c->higher_better);
	CHECK(c && fabs(c->values[0] - 10163.443194261832) < 1e-9);
	for (k = 0; c && k < c->n; k++)
		CHECK(c->proc[k] == k / 10);
	CHECK(!fmt_table_one_process(&t));
	fmt_table_release(&t);
	free(text);
}

static void test_format__jmh_units_restated(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/jmh-jcasbin.json", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_JMH);
	CHECK(parse(&t, FORMAT_JMH, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 2);
	/* ops/ms restated as ops/s, higher better */
	c = fmt_table_find(&t, "org.casbin.jcasbin.main.benchmark."
			   "BenchmarkEnforce.enforce:dataScale=small,"
			   "modelType=rbac,useCache=false", "ops/s");
	CHECK(c && c->n == 3 && c->higher_better);
	CHECK(c && fabs(c->values[0] - 15889.612079979479) < 1e-6);
	/* ms/op restated in seconds, a time */
	c = fmt_table_find(&t, "org.casbin.jcasbin.main.benchmark."
			   "BenchmarkMemory.measureMemory:scenario=ACL",
			   "s/op");
	CHECK(c && !c->higher_better && unit_is_time(c->unit));
	CHECK(c && fabs(c->values[0] - 0.3645893) < 1e-12);
	fmt_table_release(&t);
	free(text);
}

static void test_format__jmh_select_and_errors(void)
{
	static const char two[] =
		"[{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":"
		"{\"scoreUnit\":\"us/op\",\"rawData\":[[2.0,4.0]]}}]\n"
		"[{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":"
		"{\"scoreUnit\":\"ns/op\",\"rawData\":[[3000.0],[5000.0]]}}]\n";
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "[{\"benchmark\":\"a\",\"primaryMetric\":{\"scoreUnit\":"
		  "\"B/op\",\"rawData\":[[1]]}}]", "scoreUnit \"B/op\"" },
		{ "[{\"benchmark\":\"a\",\"mode\":\"sample\",\"primaryMetric\":"
		  "{\"scoreUnit\":\"us/op\"}}]", "sample mode's histogram" },
		{ "[{\"benchmark\":\"a\",\"primaryMetric\":{\"scoreUnit\":"
		  "\"us/op\",\"rawData\":[[]]}}]", "no iteration" },
		{ "[{\"primaryMetric\":{}}]", "lacks \"benchmark\"" },
		{ "[]", "JMH ran no benchmark" },
		{ "[{\"benchmark\":\"a\",", "syntax error" },
	};
	const struct format_reader *r = format_reader(FORMAT_JMH);
	const char *names[] = { "a.B.m:n=1", "a.B.m:n=2", "a.C.x" };
	struct fmt_cmd_edit e = FMT_CMD_EDIT_INIT;
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	char msg[512];
	size_t i;

	CHECK(parse(&t, FORMAT_JMH, two, sizeof(two) - 1, msg, sizeof(msg),
		    0) == 0);
	c = fmt_table_find(&t, "a.B.m", "s/op");
	/* a second file's forks are further processes */
	CHECK(c && c->n == 4 && fmt_case_processes(c) == 3);
	CHECK(c && fabs(c->values[2] - 3e-6) < 1e-15);
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_JMH, bad[i].text, strlen(bad[i].text),
			    msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
	/* JMH's include regex sees the benchmark, not its parameters: each
	   benchmark once, and a shard deals its parameters together */
	r->select(&e, NULL, "x", names, 3);
	CHECK(e.filter && !strcmp(e.filter, "^(a\\.B\\.m|a\\.C\\.x)$"));
	fmt_cmd_edit_release(&e);
	CHECK(r->group("a.B.m:n=1") == 5 && r->group("a.C.x") == 5);
}

static const struct harness_test tests[] = {
	TEST(test_format__jmh_forks_are_processes),
	TEST(test_format__jmh_units_restated),
	TEST(test_format__jmh_select_and_errors),
};

HARNESS_MAIN(tests)
