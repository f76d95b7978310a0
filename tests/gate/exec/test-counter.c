/*
 * Unit tests for gate/exec/counter.c: a hardware counter counts, or fails
 * cleanly where perf_event_open is not allowed; cachegrind's summary read
 * by event name; the cycles estimate (gate/config/metrics.c); valgrind's argv.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/exec/counter.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "tests/harness.h"

/* Counted runs: a count where the machine has counters, else a clean
   spawn failure naming why (this machine: a VM without a PMU). */
static void test_runner__perf_count_or_clean_failure(void)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"i=0; while [ $i -lt 2000 ]; do i=$((i+1)); "
			 "done; echo x", NULL };
	struct command cmd = { argv, NULL };
	struct run_spec spec = { .cmd = &cmd, .timeout = 10, .grace = 0.3,
				 .log_fd = -1, .count_instructions = 1 };
	struct run_result r;
	char why[512];
	int usable = counter_perf_probe(why, sizeof(why)) == 0;

	run_one(&r, &spec);
	if (usable) {
		CHECK(r.status == RUN_OK);
		CHECK(r.instructions > 1e5);	/* 2000 shell loop rounds */
		CHECK(r.out_bytes == 2);
	} else {
		CHECK(r.status == RUN_SPAWN);
		CHECK(r.code != 0);
		CHECK(isnan(r.instructions));
		CHECK(strlen(why) > 10);
	}
}

/*
 * cachegrind's summary read by its events header, whatever their order,
 * and summed over processes; a short summary is refused.
 */
static void test_counter__sim_events_parsed_by_name(void)
{
	/* valgrind 3.19's order with the cache simulation on */
	const char *ev = " Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw ";
	double ir = 0, sim[SIM_EVENTS] = { 0 };

	CHECK(counter_sim_parse(ev, " 100815546 1253 1244 37786175 4195896 "
				"4195568 4206917 416 387", &ir, sim) ==
	      SIM_EVENTS);
	CHECK(ir == 100815546);
	CHECK(sim[SIM_IR] == 100815546 && sim[SIM_DR] == 37786175 &&
	      sim[SIM_DW] == 4206917);
	CHECK(sim[SIM_I1MR] == 1253 && sim[SIM_D1MR] == 4195896 &&
	      sim[SIM_D1MW] == 416);
	CHECK(sim[SIM_ILMR] == 1244 && sim[SIM_DLMR] == 4195568 &&
	      sim[SIM_DLMW] == 387);
	/* a second process adds to it */
	CHECK(counter_sim_parse(ev, "1 1 1 1 1 1 1 1 1", &ir, sim) ==
	      SIM_EVENTS);
	CHECK(ir == 100815547 && sim[SIM_DLMW] == 388);
	/* another order, another event (branches) ignored */
	memset(sim, 0, sizeof(sim));
	ir = 0;
	CHECK(counter_sim_parse("Dw Bc Ir", "7 9 5", &ir, sim) == 2);
	CHECK(ir == 5 && sim[SIM_DW] == 7 && sim[SIM_IR] == 5);
	/* the simulation off: instructions only */
	ir = 0;
	CHECK(counter_sim_parse(" Ir", " 42", &ir, NULL) == 0 && ir == 42);
	/* fewer numbers than events */
	CHECK(counter_sim_parse(ev, "1 2 3", &ir, sim) == -1);
}

/*
 * The estimate is iai-callgrind's: L1 hits + 5 LL hits + 35 RAM, checked
 * on the row walk's counts by hand: refs 142808638, L1 misses 265406
 * (1253 + 263737 + 416), LL misses 265039 (1244 + 263408 + 387).
 */
static void test_counter__cycles_estimate(void)
{
	double row[SIM_EVENTS] = { 100815546, 37786175, 4206917, 1253,
				   263737, 416, 1244, 263408, 387 };
	double l1_hits = 142808638.0 - 265406, ll_hits = 265406.0 - 265039;

	CHECK(metric_cycles(row) == l1_hits + 5 * ll_hits + 35 * 265039.0);
	CHECK(metric_cycles(row) == 151821432);
	row[SIM_DLMW] = NAN;
	CHECK(isnan(metric_cycles(row)));
	CHECK(!strcmp(sim_event_name(SIM_D1MR), "D1mr"));
	CHECK(metric_lookup("cycles") == METRIC_CYCLES);
	CHECK(metric_desc(METRIC_CYCLES)->exact);
}

/* The valgrind argv: the simulation's fixed geometry when asked, the
   benchmark's argv last, gate's own strings freed (asan/memcheck). */
static void test_counter__valgrind_argv(void)
{
	char *argv[] = { (char *)"./walk", (char *)"--fast", NULL };
	char **v = counter_valgrind_argv("/usr/bin/valgrind", "/tmp/d", argv, 1);
	size_t n;
	int sim = 0, ll = 0;

	for (n = 0; v[n]; n++) {
		sim += !strcmp(v[n], "--cache-sim=yes");
		ll += !strcmp(v[n], COUNTER_SIM_LL);
	}
	CHECK(sim == 1 && ll == 1);
	CHECK(n >= 3 && v[n - 2] == argv[0] && v[n - 1] == argv[1]);
	CHECK(!strcmp(v[0], "/usr/bin/valgrind"));
	counter_valgrind_argv_free(v);
	v = counter_valgrind_argv("valgrind", "/tmp/d", argv, 0);
	for (n = 0, sim = 0; v[n]; n++)
		sim += !strcmp(v[n], "--cache-sim=no");
	CHECK(sim == 1);
	counter_valgrind_argv_free(v);
}

static const struct harness_test tests[] = {
	TEST(test_counter__sim_events_parsed_by_name),
	TEST(test_counter__cycles_estimate),
	TEST(test_counter__valgrind_argv),
	TEST(test_runner__perf_count_or_clean_failure),
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
