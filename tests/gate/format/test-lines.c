/*
 * Unit tests for gate/format/lines.c: the line protocol.
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "tests/harness.h"
#include "common/banned.h"

/*
 * Parse quietly; the error message, if any, lands in msg. On an error the
 * parse is repeated with o.err set: the same message must come back there,
 * with nothing printed (the suites quote it in the benchmark's error).
 */
static int parse(struct fmt_table *t, enum format f, const char *text,
		 size_t len, char *msg, size_t size, int cpu)
{
	struct fmt_opts o = { cpu, 0, NULL };
	struct gate_err err = { "" };
	struct fmt_table again = FMT_TABLE_INIT;
	char printed[4096] = "";
	int rc;

	msg[0] = '\0';
	error_capture(msg, size, 1);
	rc = format_parse(t, f, text, len, "out", &o);
	error_capture(NULL, 0, 0);
	/* (not FORMAT_GATE: report_load, gate/report/load.c, prints) */
	if (rc < 0 && f != FORMAT_GATE) {
		o.err = &err;
		error_capture(printed, sizeof(printed), 1);
		CHECK(format_parse(&again, f, text, len, "out", &o) < 0);
		error_capture(NULL, 0, 0);
		CHECK_STR(printed, "");
		CHECK_STR(err.msg, msg);
		fmt_table_release(&again);
	}
	return rc;
}

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
