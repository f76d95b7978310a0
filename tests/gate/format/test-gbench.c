/*
 * Unit tests for gate/format/gbench.c: Google Benchmark JSON.
 */
#include "gate/format/format.h"

#include <stdlib.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__gbench_repetitions_not_aggregates(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/gbench-sample.json", &len), msg[512];

	CHECK(format_detect(text, len) == FORMAT_GBENCH);
	CHECK(parse(&t, FORMAT_GBENCH, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3);	/* BM_steady s and items/s, BM_changed s */
	c = fmt_table_find(&t, "BM_steady", "s");
	CHECK(c && c->n == 3 && !c->higher_better);
	/* the first repetition's real_time, 4191.78... ns */
	CHECK(c && fabs(c->values[0] - 4.1917878740457563e-06) < 1e-15);
	c = fmt_table_find(&t, "BM_steady", "items/s");
	CHECK(c && c->n == 3 && c->higher_better);
	CHECK(fmt_table_find(&t, "BM_changed", "s") != NULL);
	CHECK(fmt_table_find(&t, "BM_steady_mean", "s") == NULL);
	fmt_table_release(&t);
	CHECK(parse(&t, FORMAT_GBENCH, text, len, msg, sizeof(msg), 1) == 0);
	c = fmt_table_find(&t, "BM_steady", "s");
	CHECK(c && fabs(c->values[0] - 2.4213153530217091e-06) < 1e-15);
	fmt_table_release(&t);
	free(text);
}

static void test_format__gbench_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "{\"benchmarks\": 3}", "no \"benchmarks\" list" },
		{ "{\"benchmarks\": []}", "no benchmark results" },
		{ "{\"benchmarks\": [{\"name\": \"a_mean\", \"run_type\": "
		  "\"aggregate\", \"real_time\": 1}]}", "only aggregates" },
		{ "{\"benchmarks\": [{\"name\": \"a\", \"run_type\": "
		  "\"iteration\", \"real_time\": 0, \"time_unit\": \"ns\"}]}",
		  "value 0 s" },
		{ "{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, "
		  "\"time_unit\": \"fortnights\"}]}", "expected ns, us, ms" },
		{ "{\"benchmarks\": [{\"name\": \"a\", \"error_occurred\": "
		  "true, \"error_message\": \"boom\"}]}", "boom" },
		{ "{\"benchmarks\": [{\"name\": \"a\"}]}", "no number" },
		{ "{\"benchmarks\": [{\"real_time\": 1}]}", "no \"name\"" },
		/* cJSON alone reads result files: where it stopped */
		{ "[1, 2", "out:1:5: syntax error" },
		{ "{\n  \"benchmarks\": [1,, 2]}", "out:2:20: syntax error" },
		{ "{\"benchmarks\": []} x", "out:1:20: syntax error" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(parse(&t, FORMAT_GBENCH, cases[i].text,
			    strlen(cases[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, cases[i].want);
		CHECK(t.n == 0 && t.cases == NULL);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__gbench_repetitions_not_aggregates),
	TEST(test_format__gbench_errors),
};

HARNESS_MAIN(tests)
