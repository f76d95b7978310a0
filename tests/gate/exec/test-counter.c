/*
 * Unit tests for gate/exec/counter.c: a hardware counter counts, or fails
 * cleanly where perf_event_open is not allowed.
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
	struct run_spec spec = { &cmd, NULL, 10, 0.3, -1, NULL, 0, 1, NULL };
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

static const struct harness_test tests[] = {
	TEST(test_runner__perf_count_or_clean_failure),
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
