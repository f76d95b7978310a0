/*
 * Unit tests for gate/suite.c: the filter command each harness is given.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/suite.h"
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

static const struct harness_test tests[] = {
	TEST(test_format__suite_filter_per_harness),
};

HARNESS_MAIN(tests)
