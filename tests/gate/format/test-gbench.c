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

/*
 * Google Benchmark divides items and bytes by CPU time unless a case uses
 * real (or manual) time, which its name says ("/real_time"): the rates
 * are taken to the time gate decides on. Times 2x apart (a case that
 * waits half its time), so the two readings differ by 2x exactly.
 */
static void test_format__gbench_rate_from_the_decided_time(void)
{
	static const char text[] =
		"{\"benchmarks\": ["
		"{\"name\": \"BM_waits\", \"run_type\": \"iteration\", "
		"\"real_time\": 2000, \"cpu_time\": 1000, "
		"\"time_unit\": \"ns\", \"items_per_second\": 1e6, "
		"\"bytes_per_second\": 8e6},"
		"{\"name\": \"BM_wall/real_time\", \"run_type\": "
		"\"iteration\", \"real_time\": 2000, \"cpu_time\": 1000, "
		"\"time_unit\": \"ns\", \"items_per_second\": 5e5},"
		"{\"name\": \"BM_manual/manual_time\", \"run_type\": "
		"\"iteration\", \"real_time\": 4, \"cpu_time\": 1, "
		"\"time_unit\": \"us\", \"items_per_second\": 2.5e5}]}";
	static const struct {
		int cpu;
		const char *name, *unit;
		double want;
	} cases[] = {
		/* gate on real time: per real second, whatever gbench used */
		{ 0, "BM_waits", "items/s", 5e5 },
		{ 0, "BM_waits", "B/s", 4e6 },
		{ 0, "BM_wall/real_time", "items/s", 5e5 },
		{ 0, "BM_manual/manual_time", "items/s", 2.5e5 },
		/* gate on CPU time (cpu_time): per CPU second */
		{ 1, "BM_waits", "items/s", 1e6 },
		{ 1, "BM_waits", "B/s", 8e6 },
		{ 1, "BM_wall/real_time", "items/s", 1e6 },
		{ 1, "BM_manual/manual_time", "items/s", 1e6 },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fmt_case *c;

		CHECK(parse(&t, FORMAT_GBENCH, text, strlen(text), msg,
			    sizeof(msg), cases[i].cpu) == 0);
		c = fmt_table_find(&t, cases[i].name, cases[i].unit);
		/* one multiplication of exact binary fractions: 1e-12 is
		   rounding, never a reading */
		CHECK(c && c->n == 1 &&
		      fabs(c->values[0] / cases[i].want - 1) < 1e-12);
		fmt_table_release(&t);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__gbench_rate_from_the_decided_time),
	TEST(test_format__gbench_repetitions_not_aggregates),
	TEST(test_format__gbench_errors),
};

HARNESS_MAIN(tests)
