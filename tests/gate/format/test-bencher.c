/*
 * Unit tests for gate/format/bencher.c: "test NAME ... bench: N ns/iter
 * (+/- M)" lines (tests/data/bencher-sample.txt, real output of criterion
 * 0.3.6 --output-format bencher, warnings and all: see tests/data/README;
 * libtest's thousands separators and newer decimals written by hand in
 * its layout, as nightly's #[bench] is not available here).
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__bencher_sample(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/bencher-sample.txt", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_BENCHER);
	CHECK(parse(&t, FORMAT_BENCHER, text, len, msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	c = fmt_table_find(&t, "fib 15", "s/iter");
	CHECK(c && c->n == 1 && fabs(c->values[0] - 17220e-9) < 1e-15);
	CHECK(fmt_table_find(&t, "sum/4000", "s/iter") != NULL);
	/* each line one process's summary: never "one process" */
	CHECK(!fmt_table_one_process(&t));
	fmt_table_release(&t);
	free(text);
}

static void test_format__bencher_lines(void)
{
	static const char libtest[] =
		"running 3 tests\n"
		"test tests::it_works ... ignored\n"
		"test a::b ... bench:       1,234 ns/iter (+/- 56)\n"
		"test c ... bench:      12.50 ns/iter (+/- 0.25)\r\n"
		"test d x ... bench:         2 ms/iter (+/- 1)\n"
		"\n"
		"test result: ok. 0 passed; 0 failed; 1 ignored; 3 measured\n";
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "test a ... bench:  12 ns/iter (+/- 1)", "cut short" },
		{ "test a ... bench:  12 ns/it\n", "expected \"bench: N" },
		{ "test a ... bench:  x ns/iter (+/- 1)\n", "expected" },
		{ "test a ... bench:  12 ks/iter (+/- 1)\n", "expected" },
		{ "test a ... FAILED\n", "a benchmark failed" },
		{ "running 0 tests\n", "no benchmark results" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	const struct fmt_case *c;
	char msg[512];
	size_t i;

	CHECK(format_detect(libtest, sizeof(libtest) - 1) == FORMAT_BENCHER);
	CHECK(parse(&t, FORMAT_BENCHER, libtest, sizeof(libtest) - 1, msg,
		    sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	c = fmt_table_find(&t, "a::b", "s/iter");
	CHECK(c && fabs(c->values[0] - 1234e-9) < 1e-15);
	c = fmt_table_find(&t, "c", "s/iter");
	CHECK(c && fabs(c->values[0] - 12.5e-9) < 1e-18);
	c = fmt_table_find(&t, "d x", "s/iter");
	CHECK(c && fabs(c->values[0] - 2e-3) < 1e-12);
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_BENCHER, bad[i].text,
			    strlen(bad[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__bencher_sample),
	TEST(test_format__bencher_lines),
};

HARNESS_MAIN(tests)
