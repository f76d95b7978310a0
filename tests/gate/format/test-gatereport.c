/*
 * Unit tests for gate/report/load-format.c: gate's own reports as a result
 * format (the head samples, the schema).
 */
#include "gate/format/format.h"


#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__gate_report_head_samples(void)
{
	static const char rep[] =
		"{\"schema\": 1, \"gate_version\": \"0.1.0\", \"benchmarks\": ["
		"{\"name\": \"s/a\", \"unit\": \"items/s\", \"error\": null, "
		"\"samples\": [{\"base\": 1, \"head\": 2}, {\"base\": 1, "
		"\"head\": 3}]}, {\"name\": \"n\", \"unit\": \"s\", "
		"\"verdict\": \"new\", \"samples\": []}]}";
	static const char bad[] =
		"{\"schema\": 1, \"gate_version\": \"0.1.0\", "
		"\"benchmarks\": [{\"name\": "
		"\"x\", \"unit\": \"s\", \"samples\": [], \"error\": \"boom\"}]}";
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_case *c;
	char msg[512];

	CHECK(format_detect(rep, sizeof(rep) - 1) == FORMAT_GATE);
	CHECK(parse(&t, FORMAT_GATE, rep, sizeof(rep) - 1, msg, sizeof(msg),
		    0) == 0);
	c = fmt_table_find(&t, "s/a", "items/s");
	CHECK(t.n == 1 && c && c->n == 2 && c->values[1] == 3 &&
	      c->higher_better);
	fmt_table_release(&t);
	CHECK(parse(&t, FORMAT_GATE, bad, sizeof(bad) - 1, msg, sizeof(msg),
		    0) < 0);
	CHECK_CONTAINS(msg, "could not be measured in that run: boom");
}

/* Only schema 1: 2, 0, "1", null, 1.5 and a missing schema are refused,
 * each with a message naming the schema gate reads. */
static void test_format__gate_report_schema(void)
{
	static const char *const schemas[] = {
		"\"schema\": 2, ", "\"schema\": 0, ", "\"schema\": \"1\", ",
		"\"schema\": null, ", "\"schema\": 1.5, ", "",
	};
	struct fmt_table t = FMT_TABLE_INIT;
	char msg[512], text[512];
	size_t i;

	for (i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++) {
		snprintf(text, sizeof(text), "{%s\"gate_version\": \"0.1.0\", "
			 "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"s\", "
			 "\"samples\": [{\"base\": 1, \"head\": 2}]}]}",
			 schemas[i]);
		CHECK(parse(&t, FORMAT_GATE, text, strlen(text), msg,
			    sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, "schema 1");
	}
	snprintf(text, sizeof(text), "{\"schema\": 1, \"gate_version\": "
		 "\"0.1.0\", \"benchmarks\": [{\"name\": \"a\", \"unit\": "
		 "\"s\", \"samples\": [{\"base\": 1, \"head\": 2}]}]}");
	CHECK(parse(&t, FORMAT_GATE, text, strlen(text), msg, sizeof(msg),
		    0) == 0);
	fmt_table_release(&t);
}

static const struct harness_test tests[] = {
	TEST(test_format__gate_report_head_samples),
	TEST(test_format__gate_report_schema),
};

HARNESS_MAIN(tests)
