/*
 * Unit tests for the formats: real outputs of Google Benchmark, go test,
 * hyperfine (tests/data/README says how each was made), the lines protocol,
 * and a clear error at every truncation point of each format.
 */
#include "gate/format/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/suite.h"
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

static void test_format__gotest_real_output(void)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_case *c;
	size_t len;
	char *text = slurp("tests/data/gotest-old.txt", &len), msg[512];

	CHECK(format_detect(text, len) == FORMAT_GOTEST);
	CHECK(parse(&t, FORMAT_GOTEST, text, len, msg, sizeof(msg), 0) == 0);
	/* Steady, Changed, Alloc: 3 units; Sizes/n=10, n=1000: 4 */
	CHECK(t.n == 17);
	c = fmt_table_find(&t, "BenchmarkSteady-2", "s/op");
	CHECK(c && c->n == 8);
	CHECK(c && fabs(c->values[0] - 9144e-9) < 1e-18);
	c = fmt_table_find(&t, "BenchmarkAlloc-2", "allocs/op");
	CHECK(c && c->n == 8 && c->values[0] == 1 && !c->higher_better);
	c = fmt_table_find(&t, "BenchmarkSizes/n=1000-2", "MB/s");
	CHECK(c && c->higher_better);
	/* 0 B/op is a count, allowed */
	CHECK(fmt_table_find(&t, "BenchmarkSteady-2", "B/op") != NULL);
	fmt_table_release(&t);
	free(text);
}

static void test_format__gotest_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "BenchmarkA-2 10 5 ns/op\n--- FAIL: BenchmarkB\nFAIL\n",
		  "out:2: go test reported a failure" },
		{ "BenchmarkA-2 10 5 ns/op\n", "closing \"PASS\"" },
		{ "BenchmarkA-2 x 5 ns/op\nPASS\n", "iteration count" },
		{ "BenchmarkA-2 10 5\nPASS\n", "pairs of value and unit" },
		{ "BenchmarkA-2 10 five ns/op\nPASS\n", "not a number" },
		{ "BenchmarkA-2 10 0 ns/op\nPASS\n", "value 0 s/op" },
		{ "BenchmarkA-2 10 -1 B/op\nPASS\n", "value -1 B/op" },
		{ "goos: linux\nPASS\n", "no benchmark results" },
	};
	struct fmt_table t = FMT_TABLE_INIT;
	const char *s;
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(parse(&t, FORMAT_GOTEST, cases[i].text,
			    strlen(cases[i].text), msg, sizeof(msg), 0) < 0);
		CHECK_CONTAINS(msg, cases[i].want);
	}
	/* -v prints a name alone first; allocs/op 0 is fine */
	s = "BenchmarkA\nBenchmarkA-2 10 5 ns/op 0 allocs/op 3 widgets/op\n"
	    "ok  \tpkg\t1s\n";
	CHECK(parse(&t, FORMAT_GOTEST, s, strlen(s), msg, sizeof(msg), 0) == 0);
	CHECK(t.n == 3 && fmt_table_find(&t, "BenchmarkA-2", "widgets/op"));
	fmt_table_release(&t);
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

/* The harness's filter for a round of more pairs, per format. */
static void test_format__suite_filter_per_harness(void)
{
	char *gb[] = { (char *)"./bench", (char *)"--benchmark_format=json", NULL };
	char *go[] = { (char *)"go", (char *)"test", (char *)"-run=^$", (char *)"-bench=.", NULL };
	char *bin[] = { (char *)"./x.test", (char *)"-test.bench=.", NULL };
	char *ln[] = { (char *)"./suite's.sh", NULL };
	const char *cases[] = { "BM_a/8", "BM_b.c" };
	const char *gocases[] = { "BenchmarkX/small-4", "BenchmarkX/big-4",
				  "BenchmarkY-4" };
	struct bench_cfg c, out;

	memset(&c, 0, sizeof(c));
	c.format = FORMAT_GBENCH;
	c.run.argv = gb;
	suite_filter_cmd(&out, &c, cases, 2);
	CHECK(out.run.shell == NULL);
	CHECK_STR(out.run.argv[1], "--benchmark_format=json");
	CHECK_STR(out.run.argv[2], "--benchmark_filter=^(BM_a/8|BM_b\\.c)$");
	CHECK(out.run.argv[3] == NULL);
	suite_filter_release(&out);
	/* go: anchored top-level names, each once, sub-benchmarks included */
	c.format = FORMAT_GOTEST;
	c.run.argv = go;
	suite_filter_cmd(&out, &c, gocases, 3);
	CHECK_STR(out.run.argv[4], "-bench=^(BenchmarkX|BenchmarkY)$");
	suite_filter_release(&out);
	c.run.argv = bin;
	suite_filter_cmd(&out, &c, gocases + 2, 1);
	CHECK_STR(out.run.argv[2], "-test.bench=^(BenchmarkY)$");
	suite_filter_release(&out);
	/* lines: GATE_FILTER in the environment, the command quoted */
	c.format = FORMAT_LINES;
	c.run.argv = ln;
	suite_filter_cmd(&out, &c, cases, 1);
	CHECK(out.run.argv == NULL);
	CHECK_STR(out.run.shell, "GATE_FILTER='^(BM_a/8)$'; export "
		  "GATE_FILTER; exec './suite'\\''s.sh'");
	suite_filter_release(&out);
	CHECK(suite_can_filter(&c));
	c.format = FORMAT_HYPERFINE;
	CHECK(!suite_can_filter(&c));
}

static void test_format__units(void)
{
	char buf[64];

	CHECK(unit_higher_better("items/s") && unit_higher_better("MB/s"));
	CHECK(unit_higher_better("bytes_per_second"));
	CHECK(!unit_higher_better("s") && !unit_higher_better("s/op"));
	CHECK(!unit_higher_better("allocs/op"));
	CHECK_STR(format_value(1.5e-6, "s/op", buf, sizeof(buf)), "1.5 us/op");
	CHECK_STR(format_value(250000, "items/s", buf, sizeof(buf)),
		  "250k items/s");
	CHECK_STR(format_value(64, "B/op", buf, sizeof(buf)), "64 B/op");
}

static const struct harness_test tests[] = {
	TEST(test_format__gbench_repetitions_not_aggregates),
	TEST(test_format__gbench_errors),
	TEST(test_format__gotest_real_output),
	TEST(test_format__gotest_errors),
	TEST(test_format__lines_protocol),
	TEST(test_format__hyperfine_and_pytest),
	TEST(test_format__gate_report_head_samples),
	TEST(test_format__gate_report_schema),
	TEST(test_format__every_truncation_is_an_error),
	TEST(test_format__select),
	TEST(test_format__units),
	TEST(test_format__suite_filter_per_harness),
};

HARNESS_MAIN(tests)
