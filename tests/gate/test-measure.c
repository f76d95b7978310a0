/*
 * Unit tests for gate/measure.c: a value too fast for its clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/measure.h"
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

static const struct harness_test tests[] = {
	TEST(test_runner__too_fast_for_the_clock),
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
