/*
 * Unit tests for gate/format/hyperfine.c and pytest.c: hyperfine and
 * pytest-benchmark JSON.
 */
#include "gate/format/format.h"

#include <stdlib.h>

#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

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
	/* valid JSON without the format's list says what the file is not */
	CHECK(parse(&t, FORMAT_HYPERFINE, "{\"results\": {}}", 15, msg,
		    sizeof(msg), 0) < 0);
	CHECK(strstr(msg, "out: no \"results\" list: not hyperfine's "
		     "--export-json output") != NULL);
	CHECK(parse(&t, FORMAT_PYTEST, "[]", 2, msg, sizeof(msg), 0) < 0);
	CHECK(strstr(msg, "out: no \"benchmarks\" list: not pytest-benchmark's "
		     "--benchmark-json output") != NULL);
}

static const struct harness_test tests[] = {
	TEST(test_format__hyperfine_and_pytest),
};

HARNESS_MAIN(tests)
