/*
 * Unit tests for gate/format/hyperfine.c and pytest.c: hyperfine and
 * pytest-benchmark JSON.
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "tests/harness.h"
#include "common/banned.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "test-format: cannot read %s\n", path);
		abort();
	}
	buf = xmalloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

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

static void test_format__hyperfine_and_pytest(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/hyperfine-sample.json", &len);
	char msg[512];

	CHECK(format_detect(text, len) == FORMAT_HYPERFINE);
	CHECK(parse(&t, FORMAT_HYPERFINE, text, len, msg, sizeof(msg), 0) == 0);
	c = fmt_table_find(&t, "sleep 0.02", "s");
	CHECK(t.n == 2 && c && c->n == 5 && c->values[0] > 0.015);
	fmt_table_release(&t);
	free(text);
	text = slurp("tests/data/pytest-sample.json", &len);
	CHECK(format_detect(text, len) == FORMAT_PYTEST);
	CHECK(parse(&t, FORMAT_PYTEST, text, len, msg, sizeof(msg), 0) == 0);
	c = fmt_table_find(&t, "tests/test_x.py::test_parse", "s");
	CHECK(t.n == 2 && c && c->n == 4);
	c = fmt_table_find(&t, "tests/test_x.py::test_dump", "s");
	CHECK(c && c->n == 1 && c->values[0] == 0.002);
	fmt_table_release(&t);
	free(text);
}

static const struct harness_test tests[] = {
	TEST(test_format__hyperfine_and_pytest),
};

HARNESS_MAIN(tests)
