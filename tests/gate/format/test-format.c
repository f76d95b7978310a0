/*
 * Unit tests for gate/format/format.c: detection, every truncation of every
 * format an error, the case filter and the units of values.
 */
#include "gate/format/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "tests/gate/format/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

/*
 * Every prefix of a real output is refused with a message, never read as
 * a shorter table: JSON always; go test until its closing PASS line; the
 * lines format at every cut inside a line (a cut between lines is a whole,
 * shorter output: gate run's manifest check catches that one).
 */
static void truncations(const char *path, enum format f, size_t complete)
{
	struct fmt_table t = FMT_TABLE_INIT;
	size_t len, cut, refused = 0, tried = 0;
	char *text = slurp(path, &len), msg[512];

	/* JSON is whole once its closing brace is in */
	if (complete == (size_t)-1)
		for (complete = len; complete > 0 &&
		     strchr(" \t\r\n", text[complete - 1]); complete--)
			;
	for (cut = 0; cut < len; cut++) {
		char *copy;
		int rc;

		if (cut >= complete)
			break;
		if (f == FORMAT_LINES && cut > 0 && text[cut - 1] == '\n')
			continue;
		copy = xmalloc(cut + 1);	/* exact size: ASan sees reads */
		memcpy(copy, text, cut);
		copy[cut] = '\0';
		rc = parse(&t, f, copy, cut, msg, sizeof(msg), 0);
		tried++;
		if (rc < 0 && msg[0])
			refused++;
		else
			fprintf(stderr, "%s cut at %zu was accepted\n", path,
				cut);
		fmt_table_release(&t);
		free(copy);
	}
	CHECK(tried > 0 && refused == tried);
	free(text);
}

static void test_format__every_truncation_is_an_error(void)
{
	size_t len;
	char *go = slurp("tests/data/gotest-old.txt", &len);
	/* go test's output is complete once its PASS line has ended */
	size_t pass_end = (size_t)(strstr(go, "\nPASS\n") - go) + 5;
	char lines[] = "a 1 ms\nb 2 items/s\nc 3 ns\n";
	FILE *f;

	free(go);
	truncations("tests/data/gbench-sample.json", FORMAT_GBENCH, (size_t)-1);
	truncations("tests/data/gotest-old.txt", FORMAT_GOTEST, pass_end);
	truncations("tests/data/hyperfine-sample.json", FORMAT_HYPERFINE,
		    (size_t)-1);
	truncations("tests/data/pytest-sample.json", FORMAT_PYTEST,
		    (size_t)-1);
	f = fopen("build/test-format-lines.txt", "w");
	if (!f)
		f = fopen("test-format-lines.txt", "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(lines, f);
	fclose(f);
	truncations("build/test-format-lines.txt", FORMAT_LINES, (size_t)-1);
	remove("build/test-format-lines.txt");
}

static void test_format__select(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	char msg[256];

	CHECK(parse(&t, FORMAT_LINES, "aa 1 s\nab 1 s\nb 1 s\n", 20, msg,
		    sizeof(msg), 0) == 0);
	CHECK(fmt_table_filter(&t, "^a") == 0);
	CHECK(t.n == 2 && !fmt_table_find(&t, "b", "s"));
	error_capture(msg, sizeof(msg), 1);
	CHECK(fmt_table_filter(&t, "(") < 0);
	error_capture(NULL, 0, 0);
	CHECK_CONTAINS(msg, "not a valid regular expression");
	fmt_table_release(&t);
}

static void test_format__units(void)
{
	char buf[64];

	CHECK(unit_higher_better("items/s") && unit_higher_better("MB/s"));
	CHECK(unit_higher_better("bytes_per_second"));
	CHECK(!unit_higher_better("s") && !unit_higher_better("s/op"));
	CHECK(!unit_higher_better("allocs/op"));
	CHECK_STR(format_value(1.5e-6, "s/op", buf, sizeof(buf)),
		  "1.50 us/op");
	CHECK_STR(format_value(250000, "items/s", buf, sizeof(buf)),
		  "250k items/s");
	CHECK_STR(format_value(64, "B/op", buf, sizeof(buf)), "64 B/op");
}

/*
 * Every unit boundary: a value prints with 3 significant digits (4 for
 * counts) in the unit that needs no exponent, the unit chosen after
 * rounding (999.7 ns is 1.00 us, never "1e+03 ns").
 */
static void test_format__value_at_each_unit_boundary(void)
{
	static const struct {
		double v;
		const char *unit, *want;
	} cases[] = {
		{ 999.4e-9, "s", "999 ns" },
		{ 999.7e-9, "s", "1.00 us" },
		{ 1e-6, "s/op", "1.00 us/op" },
		{ 9.995e-6, "s", "10.0 us" },
		{ 999.7e-6, "s", "1.00 ms" },
		{ 999.4e-6, "s", "999 us" },
		{ 0.9997, "s", "1.000 s" },
		{ 0.9994, "s", "999 ms" },
		{ 12.3456, "s", "12.346 s" },
		{ 0.25e-9, "s", "0.250 ns" },
		{ 250e-9, "s/op", "250 ns/op" },
		{ 0, "s", "0 ns" },
		{ -999.7e-9, "s", "-1.00 us" },
		{ 9999.4, "B/op", "9999 B/op" },
		{ 9999.7, "B/op", "10k B/op" },
		{ 12345, "allocs/op", "12.35k allocs/op" },
		{ 9999.6e3, "items/s", "10M items/s" },
		{ 999999, "items/s", "1000k items/s" },
		{ 2.5e9, "B/s", "2500M B/s" },
		{ 64, "B/op", "64 B/op" },
		{ 0.5, "faults", "0.5 faults" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STR(format_value(cases[i].v, cases[i].unit, buf,
				       sizeof(buf)), cases[i].want);
}

/* gate's own report is read by gate compare alone: with no reader set for
   it (every other caller), it is refused by name, nothing parsed. */
static void test_format__gate_report_needs_its_reader(void)
{
	static const char rep[] = "{\"schema\": 1, \"gate_version\": "
				  "\"0.1.0\", \"benchmarks\": []}";
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_opts o;
	struct gate_err err;

	memset(&o, 0, sizeof(o));
	o.err = &err;
	CHECK(format_detect(rep, sizeof(rep) - 1) == FORMAT_GATE);
	CHECK(format_parse(&t, FORMAT_GATE, rep, sizeof(rep) - 1, "r.json",
			   &o) < 0);
	CHECK_CONTAINS(err.msg, "r.json: a gate report is read by gate "
		       "compare only");
	CHECK(t.n == 0);
}

/*
 * The format table is whole: every row named once and looked up by its
 * name, described, saying where its values come from; a reader that
 * reads output has a parser; a row that lists its cases can select them
 * (a shard runs its share through the filter); a group only with a
 * filter; the names in messages are exactly the rows'.
 */
static void test_format__table_rows(void)
{
	size_t i, j, nsuite = 0, ncompare = 0;
	const char *names = format_names(), *cmp = format_names_compare();

	for (i = 0; i < FORMAT_COUNT; i++) {
		const struct format_reader *r = format_reader((enum format)i);
		enum format f;
		char want[64];

		CHECK(r->name && *r->name);
		CHECK(r->what && *r->what);
		CHECK(format_lookup(&f, r->name) == 0 && f == (enum format)i);
		CHECK_STR(format_name((enum format)i), r->name);
		for (j = 0; j < i; j++)
			CHECK(strcmp(r->name,
				     format_reader((enum format)j)->name));
		if (r->flags & FMT_NOT_A_SUITE) {
			CHECK(r->values == FMT_VALUES_NONE && !r->parse);
			continue;
		}
		CHECK(r->parse != NULL);
		CHECK(r->values != FMT_VALUES_NONE);
		CHECK(!r->list || r->select);
		CHECK(!r->list || r->list_how);
		CHECK(!r->list_names || r->list);
		CHECK(!r->group || r->select);
		snprintf(want, sizeof(want), "%s", r->name);
		CHECK_CONTAINS(cmp, want);
		ncompare++;
		if (!(r->flags & FMT_COMPARE_ONLY)) {
			CHECK_CONTAINS(names, want);
			nsuite++;
		}
	}
	/* "a, b, c": one comma fewer than names (time is in gate.json's) */
	for (i = j = 0; names[i]; i++)
		j += names[i] == ',';
	CHECK(j == nsuite);
	for (i = j = 0; cmp[i]; i++)
		j += cmp[i] == ',';
	CHECK(j + 1 == ncompare);
	CHECK(format_lookup(&(enum format){ FORMAT_TIME }, "nothing") < 0);
}

static const struct harness_test tests[] = {
	TEST(test_format__gate_report_needs_its_reader),
	TEST(test_format__value_at_each_unit_boundary),
	TEST(test_format__every_truncation_is_an_error),
	TEST(test_format__select),
	TEST(test_format__units),
	TEST(test_format__table_rows),
};

HARNESS_MAIN(tests)
