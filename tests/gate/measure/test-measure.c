/*
 * Unit tests for gate/measure/measure.c: a value too fast for its clock, the cost
 * of the next pairs.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/measure/measure.h"
#include "gate/exec/signals.h"
#include "tests/harness.h"

/* Faster than the clock can resolve: below 100 x its resolution. */
static void test_runner__too_fast_for_the_clock(void)
{
	static const struct {
		double v, res;
		int want;
	} rows[] = {
		{ 0, 1e-9, 0 },			/* nothing measured */
		{ -1e-3, 1e-9, 0 },		/* a clock going back */
		{ NAN, 1e-9, 0 },
		{ INFINITY, 1e-9, 0 },
		{ 99e-9, 1e-9, 0 },		/* under 100 ticks */
		{ 100e-9, 1e-9, 1 },
		{ 5e-3, 1e-9, 1 },		/* a typical sample */
		{ 50e-6, 1e-6, 0 },		/* cpu: 50 us of 1 us ticks */
		{ 4e-3, 4e-3, 0 },		/* one jiffy of a coarse clock */
		{ 0.4, 4e-3, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CHECK(measure_resolvable(rows[i].v, rows[i].res) ==
		      rows[i].want);
		if (measure_resolvable(rows[i].v, rows[i].res) != rows[i].want)
			fprintf(stderr, "  row %zu\n", i);
	}
	CHECK(measure_resolution(METRIC_CPU) == 1e-6);
	CHECK(measure_resolution(METRIC_WALL) > 0);
	CHECK(measure_resolution(METRIC_WALL) <= 1e-3);
}

/*
 * A round's cost counts the runs under valgrind: 20 pairs of 1 s plain
 * runs, the first 3 also counted at 3 s a pair. While the counts repeat
 * the next 10 pairs are plain (10 s); once they vary every added pair is
 * counted (10 x (1 + 3) = 40 s), where the average per pair (1.45 s)
 * said 14.5 s.
 */
static void test_measure__pairs_cost_counts_valgrind(void)
{
	struct bench_cfg cfg;
	struct bench_run br;
	size_t i;

	memset(&cfg, 0, sizeof(cfg));
	memset(&br, 0, sizeof(br));
	cfg.pairs = 20;
	cfg.nmetrics = 2;
	cfg.metrics[0].id = METRIC_WALL;
	cfg.metrics[1].id = METRIC_INSTRUCTIONS;
	cfg.metrics[0].gating = cfg.metrics[1].gating = 1;
	br.cfg = &cfg;
	br.counter = COUNTER_VALGRIND;
	br.plain_runs = 1;
	br.counted_pairs = 3;
	br.npairs = 20;
	br.pairs = calloc(20, sizeof(*br.pairs));
	for (i = 0; i < 20; i++) {
		int a;

		for (a = 0; a < 2; a++)
			br.pairs[i].s[a].value[METRIC_INSTRUCTIONS] =
				i < 3 ? 1e6 : NAN;
	}
	br.seconds = 20 * 1.0 + 3 * 3.0 + 2.0;	/* 2 s of warm-ups */
	br.warmup_seconds = 2.0;
	br.counted_seconds = 9.0;
	br.counted_done = 3;
	CHECK(fabs(measure_pairs_cost(&br, 10) - 10.0) < 1e-9);
	/* counts that vary: every added pair is counted */
	br.pairs[1].s[ARM_HEAD].value[METRIC_INSTRUCTIONS] = 1.01e6;
	CHECK(fabs(measure_pairs_cost(&br, 10) - 40.0) < 1e-9);
	/* counted pairs still to come in the first batch: only those */
	br.counted_pairs = 22;
	br.pairs[1].s[ARM_HEAD].value[METRIC_INSTRUCTIONS] = 1e6;
	CHECK(fabs(measure_pairs_cost(&br, 10) - (10.0 + 2 * 3.0)) < 1e-9);
	/* nothing measured yet: no estimate */
	br.npairs = 0;
	CHECK(measure_pairs_cost(&br, 10) == 0);
	free(br.pairs);
}

static const struct harness_test tests[] = {
	TEST(test_runner__too_fast_for_the_clock),
	TEST(test_measure__pairs_cost_counts_valgrind),
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
