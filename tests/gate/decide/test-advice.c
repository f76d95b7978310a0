/*
 * Unit tests for gate/decide/advice.c: which metric would have decided a noisy
 * wall-time benchmark, from synthetic pairs whose structure fixes the
 * answer (wall ratios of 3 and 1/3 by turns, cpu nearly constant).
 */
#include "gate/decide/advice.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "tests/harness.h"
#include "common/banned.h"

#define NP 40

/* br with NP pairs: base wall 0.1 s, head 0.3 or 0.033 s by turns; cpu
   cpu_s in both arms, head's within 0.2% of base's. */
static void make_run(struct bench_run *br, struct bench_cfg *c, double cpu_s)
{
	size_t p, m;

	memset(c, 0, sizeof(*c));
	c->name = (char *)"b";
	c->format = FORMAT_TIME;
	c->metric = METRIC_WALL;
	c->pairs = 10;
	c->max_pairs = 2000;
	c->min_effect = 0.05;
	memset(br, 0, sizeof(*br));
	br->cfg = c;
	br->npairs = NP;
	br->pairs = xcalloc(NP, sizeof(*br->pairs));
	for (p = 0; p < NP; p++) {
		struct sample *s = br->pairs[p].s;

		for (m = 0; m < METRIC_COUNT; m++)
			s[0].value[m] = s[1].value[m] = NAN;
		s[0].wall = 0.1;
		s[1].wall = p % 2 ? 0.3 : 0.1 / 3;
		s[0].cpu = cpu_s;
		s[1].cpu = cpu_s * (1 + 0.001 * (double)((int)(p % 5) - 2));
	}
	br->seconds = 1 + NP * 0.45;
	br->warmup_seconds = 1;
}

/* cpu nearly constant, 80% of base's wall: cpu decides in a few pairs,
   wall in none that fit, and the words say so with the figures. */
static void test_advice__cpu_where_wall_cannot(void)
{
	struct bench_cfg c;
	struct bench_run br;
	struct metric_advice a;
	char buf[1024];

	make_run(&br, &c, 0.08);
	CHECK(advice_metric(&a, &br, 0.05, 0.95, 100, 150) == 0);
	CHECK(a.use_cpu == 1);
	CHECK(a.need[1] <= 10);
	CHECK(a.need[0] > 100);
	CHECK(a.count == 0);
	CHECK_NEAR(a.per_pair, 0.45, 1e-9);
	advice_words(buf, sizeof(buf), &a, 0.05, 100, "its share");
	CHECK_CONTAINS(buf, "cpu time would decide where wall time cannot");
	CHECK_CONTAINS(buf, "\"metric\": \"cpu\"");
	bench_run_release(&br);
}

/* cpu a hundredth of the wall time: the benchmark waits, cpu is not
   advised; a count is when valgrind is there, and fits the share. */
static void test_advice__count_only_with_valgrind(void)
{
	struct bench_cfg c;
	struct bench_run br;
	struct metric_advice a;
	char buf[1024];

	make_run(&br, &c, 0.001);
	setenv("GATE_VALGRIND", "/bin/true", 1);
	CHECK(advice_metric(&a, &br, 0.05, 0.95, 100, 150) == 0);
	CHECK(a.use_cpu == 0);
	CHECK(isnan(a.spread[1]));
	CHECK(a.count == 1);
	/* 3 pairs of two runs, each the larger arm's median wall (head's:
	   halfway between 0.3 and 0.033) and 40x its cpu */
	CHECK_NEAR(a.count_seconds, 6 * ((0.3 + 0.1 / 3) / 2 + 40 * 0.001),
		   1e-9);
	advice_words(buf, sizeof(buf), &a, 0.05, 100, "its share");
	CHECK_CONTAINS(buf, "valgrind is on PATH: \"instructions\"");
	/* the count's runs must fit the share of the budget */
	CHECK(advice_metric(&a, &br, 0.05, 0.95, 100, 1) == 0);
	CHECK(a.count == 0);
	setenv("GATE_VALGRIND", "/nonexistent/valgrind", 1);
	CHECK(advice_metric(&a, &br, 0.05, 0.95, 100, 150) == 0);
	CHECK(a.count == 0);
	advice_words(buf, sizeof(buf), &a, 0.05, 100, "its share");
	CHECK_STR(buf, "");
	unsetenv("GATE_VALGRIND");
	bench_run_release(&br);
}

/* The note goes beside a noisy wall-time verdict only. */
static void test_advice__note_beside_noisy_wall_only(void)
{
	struct bench_cfg c;
	struct run_report r;

	memset(&r, 0, sizeof(r));
	run_alloc(&r, 1);
	make_run(&r.b[0].run, &c, 0.08);
	r.budget = 300;
	r.level = 0.95;
	r.b[0].result.verdict = VERDICT_PASS;
	run_note_metric_advice(&r);
	CHECK(r.b[0].note == NULL);
	r.b[0].result.verdict = VERDICT_NOISY;
	run_note_metric_advice(&r);
	CHECK(r.b[0].note != NULL);
	if (r.b[0].note) {
		CHECK_CONTAINS(r.b[0].note, "cpu time would decide");
		CHECK_CONTAINS(r.b[0].note, "the verdict stands");
	}
	run_release(&r);
}

static const struct harness_test tests[] = {
	TEST(test_advice__cpu_where_wall_cannot),
	TEST(test_advice__count_only_with_valgrind),
	TEST(test_advice__note_beside_noisy_wall_only),
};

HARNESS_MAIN(tests)
