/*
 * Unit tests for gate/format/criterion.c: Rust criterion's benchmark.json
 * and sample.json, concatenated as gate init's command prints them
 * (tests/data/criterion-sample.txt, real output of criterion 0.3.6: see
 * tests/data/README).
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

/* Each case by its full id, a value per sample: the sample's time over
   its iterations, in seconds (the first of "fib 15" checked against the
   file's own numbers: 39006414 ns over 1097 iterations); one process. */
static void test_format__criterion_sample(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/criterion-sample.txt", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_CRITERION);
	CHECK(parse(&t, FORMAT_CRITERION, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	c = fmt_table_find(&t, "fib 15", "s/iter");
	CHECK(c && c->n == 10);
	CHECK(c && fabs(c->values[0] - 39006414.0e-9 / 1097) < 1e-15);
	CHECK(fmt_table_find(&t, "sum/1000", "s/iter") != NULL);
	CHECK(fmt_table_find(&t, "sum/4000", "s/iter") != NULL);
	CHECK(fmt_table_one_process(&t));
	fmt_table_release(&t);
	free(text);
}

/*
 * The files of a directory in either order, criterion's other files
 * skipped; a second run's files of the same id are another process; a
 * pair cut short, a lone file or criterion's own text is refused.
 */
static void test_format__criterion_stream(void)
{
	static const char *const bench = "{\"group_id\":\"g\",\"function_id\":"
		"null,\"value_str\":\"1\",\"throughput\":null,\"full_id\":"
		"\"g/1\",\"directory_name\":\"g/1\",\"title\":\"g/1\"}";
	static const char *const sample = "{\"sampling_mode\":\"Linear\","
		"\"iters\":[2.0,4.0],\"times\":[200.0,480.0]}";
	static const char *const est = "{\"mean\":{\"point_estimate\":1}}";
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	char text[1024], msg[512];
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "{\"full_id\":\"a\",\"directory_name\":\"a\"}",
		  "a benchmark.json without its sample.json" },
		{ "{\"iters\":[1],\"times\":[1]}",
		  "a sample.json without its benchmark.json" },
		{ "{\"full_id\":\"a\"}{\"iters\":[1,2],\"times\":[1]}",
		  "lists of one length" },
		{ "{\"full_id\":\"a\"}{\"iters\":[0],\"times\":[1]}",
		  "at least 1" },
		{ "{\"full_id\":\"a\"}{\"iters\":[1],\"ti",
		  "syntax error" },
		{ "{\"full_id\":\"a\"}\nfib time: [1 us 2 us 3 us]\n",
		  "send it to stderr" },
		{ "{\"full_id\":\"a\"}{\"x\":1}", "not one of criterion's" },
		{ "{\"full_id\":\"a\"}{\"full_id\":\"b\"}",
		  "came with no sample.json" },
	};
	size_t i;

	snprintf(text, sizeof(text), "%s\n%s%s\n%s%s", sample, est, bench,
		 bench, sample);
	CHECK(format_detect(text, strlen(text)) == FORMAT_CRITERION);
	CHECK(parse(&t, FORMAT_CRITERION, text, strlen(text), msg,
		    sizeof(msg), 0) == 0);
	c = fmt_table_find(&t, "g/1", "s/iter");
	CHECK(t.n == 1 && c && c->n == 4);
	CHECK(c && fabs(c->values[1] - 120e-9) < 1e-18);
	CHECK(c && fmt_case_processes(c) == 2);
	CHECK(!fmt_table_one_process(&t));
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_CRITERION, bad[i].text,
			    strlen(bad[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
}

/* Every cut of the real output is refused, except between two
   directories' pairs (a whole, shorter output, as for lines). */
static void test_format__criterion_truncated(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	size_t len, cut, whole = 0;
	char *text = slurp("tests/data/criterion-sample.txt", &len), msg[512];

	for (cut = 1; cut < len; cut++) {
		if (parse(&t, FORMAT_CRITERION, text, cut, msg, sizeof(msg),
			  0) == 0) {
			whole++;
			CHECK(t.n < 3 && text[cut - 1] == '}' &&
			      text[cut] == '{');
			fmt_table_release(&t);
		}
	}
	CHECK(whole == 2);
	free(text);
}

static const struct harness_test tests[] = {
	TEST(test_format__criterion_sample),
	TEST(test_format__criterion_stream),
	TEST(test_format__criterion_truncated),
};

HARNESS_MAIN(tests)
