/*
 * Unit tests for gate/format/lines.c: the line protocol.
 */
#include "gate/format/format.h"


#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_format__lines_protocol(void)
{
	static const char text[] =
		"# comment\n\nparse 12.5 ms\nparse 13 ms\nrate 1e6 items/s\n"
		"insns 12345 instructions\n";
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "a 1\n", "three fields" },
		{ "a 1 s x\n", "more than 3" },
		{ "a one s\n", "\"one\" is not a number" },
		{ "a 0 s\n", "value 0 s" },
		{ "a nan s\n", "value nan s" },
		{ "a inf s\n", "value inf s" },
		{ "a 1e999 s\n", "not a number" },
		{ "a 1 s", "no newline" },
		{ "# nothing\n", "no benchmark results" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_case *c;
	char msg[512];
	size_t i;

	CHECK(format_detect(text, sizeof(text) - 1) == FORMAT_LINES);
	CHECK(parse(&t, FORMAT_LINES, text, sizeof(text) - 1, msg,
		    sizeof(msg), 0) == 0);
	CHECK(t.n == 3);
	c = fmt_table_find(&t, "parse", "s");
	CHECK(c && c->n == 2 && fabs(c->values[0] - 0.0125) < 1e-15);
	c = fmt_table_find(&t, "rate", "items/s");
	CHECK(c && c->higher_better);
	c = fmt_table_find(&t, "insns", "instructions");
	CHECK(c && !c->higher_better);
	fmt_table_release(&t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(&t, FORMAT_LINES, bad[i].text, strlen(bad[i].text),
			    msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, bad[i].want);
	}
}

static const struct harness_test tests[] = {
	TEST(test_format__lines_protocol),
};

HARNESS_MAIN(tests)
