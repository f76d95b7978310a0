/*
 * Unit tests for gate/decide/suite.c: the filter command each harness is given.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/decide/suite.h"
#include "gate/measure/suite-filter.h"
#include "tests/harness.h"
#include "common/banned.h"

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
	/* go: the sub-benchmarks named and no others (a kept -N suffix
	   matches without it too), a whole top-level benchmark by name */
	c.format = FORMAT_GOTEST;
	c.run.argv = go;
	suite_filter_cmd(&out, &c, gocases, 3);
	CHECK_STR(out.run.argv[4], "-bench=^BenchmarkX$/^(small-4|small|"
		  "big-4|big)$|^BenchmarkY$");
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
}

/*
 * go's -bench pattern for some cases: top-level names alone keep the form
 * every go reads; sizes of one benchmark select exactly those sizes (a
 * suite of 48B's N must never run 16384B at it); deeper paths and several
 * benchmarks' sizes become whole paths joined by a top-level "|".
 */
static void test_format__go_pattern(void)
{
	static const char *const top[] = { "BenchmarkA-4", "BenchmarkB",
					   "BenchmarkA" };
	static const char *const sizes[] = { "BenchmarkH/48B",
					     "BenchmarkH/1024B" };
	static const char *const deep[] = { "BenchmarkZ/a/b", "BenchmarkH/x.y" };
	static const char *const mixed[] = { "BenchmarkH/48B", "BenchmarkH",
					     "BenchmarkQ/1" };
	static const struct {
		const char *const *names;
		size_t n;
		const char *want;
	} t[] = {
		{ top, 3, "^(BenchmarkA|BenchmarkB)$" },
		{ sizes, 2, "^BenchmarkH$/^(48B|1024B)$" },
		{ sizes, 1, "^BenchmarkH$/^(48B)$" },
		{ deep, 2, "^BenchmarkZ$/^a$/^(b)$|^BenchmarkH$/^(x\\.y)$" },
		/* the whole of BenchmarkH named: all its sizes, once */
		{ mixed, 3, "^BenchmarkH$|^BenchmarkQ$/^(1)$" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *p = format_go_pattern(t[i].names, t[i].n);

		CHECK_STR(p, t[i].want);
		free(p);
	}
}

/*
 * pytest's and hyperfine's rounds (issue 23 item 2): pytest gets -k with
 * each node id (its module by file name, parameters kept when -k takes
 * them, else cut off, which selects more, never fewer) through
 * PYTEST_ADDOPTS, so a wrapper printing the JSON file works and the
 * suite's own -k wins; hyperfine, whose commands only a wrapper can pick
 * (its JSON must come from a file), gets GATE_FILTER. Both have rounds.
 */
static void test_format__suite_filter_pytest_hyperfine(void)
{
	char *py[] = { (char *)"./bench.sh", NULL };
	const char *ids[] = { "tests/t_x.py::TestA::test_f[1]",
			      "t_y.py::test_g[a b]", "t_z.py::or" };
	struct bench_cfg c, out;

	memset(&c, 0, sizeof(c));
	c.format = FORMAT_PYTEST;
	c.run.argv = py;
	CHECK(suite_can_filter(&c));
	suite_filter_cmd(&out, &c, ids, 3);
	CHECK(out.run.argv == NULL);
	CHECK_CONTAINS(out.run.shell, "PYTEST_ADDOPTS='-k '\\''"
		       "(t_x.py and TestA and test_f[1]) or "
		       "(t_y.py and test_g) or (t_z.py)'\\'' '"
		       "\"${PYTEST_ADDOPTS-}\"; export PYTEST_ADDOPTS; ");
	CHECK_CONTAINS(out.run.shell, "export PYTEST_ADDOPTS; exec './bench.sh'");
	suite_filter_release(&out);
	c.format = FORMAT_HYPERFINE;
	CHECK(suite_can_filter(&c));
	suite_filter_cmd(&out, &c, ids + 1, 1);
	CHECK_STR(out.run.shell, "GATE_FILTER='^(t_y\\.py::test_g\\[a b\\])$'; "
		  "export GATE_FILTER; exec './bench.sh'");
	suite_filter_release(&out);
}

/*
 * The one builder of a harness command (harness_cmd): arguments reach an
 * argv command with no shell; a shell command, or a variable, goes
 * through sh with every word quoted once; a shard's GATE_FILTER yields
 * to a round's (${GATE_FILTER-...}); the harness's own variable is put
 * before any value it has; a listing exports GATE_LIST=1.
 */
static void test_format__harness_cmd(void)
{
	char *gb[] = { (char *)"./b'x", NULL };
	struct command run = { gb, NULL }, out;
	struct fmt_cmd_edit e = FMT_CMD_EDIT_INIT;
	const char *one[] = { "a b" };
	struct bench_cfg c, sh;

	fmt_cmd_edit_arg(&e, xstrdup("--x=1"));
	harness_cmd(&out, &run, &e, "GATE_LIST", "1", 0);
	CHECK(out.shell == NULL && out.argv);
	CHECK_STR(out.argv[0], "./b'x");
	CHECK_STR(out.argv[1], "--x=1");
	CHECK(out.argv[2] == NULL);
	command_release(&out);
	/* a shell command: exported, then the text, then the arguments */
	run.argv = NULL;
	run.shell = (char *)"./b | tee f";
	harness_cmd(&out, &run, &e, "GATE_LIST", "1", 0);
	CHECK_STR(out.shell, "GATE_LIST='1'; export GATE_LIST; ./b | tee f "
		  "'--x=1'");
	command_release(&out);
	fmt_cmd_edit_release(&e);
	/* argv with the harness's own variable: through sh */
	run.argv = gb;
	run.shell = NULL;
	e.env = "V";
	e.env_value = xstrdup("-k 'a' ");
	harness_cmd(&out, &run, &e, NULL, NULL, 0);
	CHECK_STR(out.shell, "V='-k '\\''a'\\'' '\"${V-}\"; export V; "
		  "exec './b'\\''x'");
	command_release(&out);
	fmt_cmd_edit_release(&e);
	/* a shard's filter yields to a round's */
	memset(&c, 0, sizeof(c));
	c.format = FORMAT_LINES;
	c.run.argv = gb;
	suite_shard_cmd(&sh, &c, one, 1);
	CHECK_STR(sh.run.shell, "GATE_FILTER=${GATE_FILTER-'^(a b)$'}; "
		  "export GATE_FILTER; exec './b'\\''x'");
	suite_filter_release(&sh);
}

static const struct harness_test tests[] = {
	TEST(test_format__suite_filter_per_harness),
	TEST(test_format__go_pattern),
	TEST(test_format__suite_filter_pytest_hyperfine),
	TEST(test_format__harness_cmd),
};

HARNESS_MAIN(tests)
