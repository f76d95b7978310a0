/*
 * The program behind tests/data/probe/*: cases bracketed with
 * lib/gate-probe.h, run under callgrind (see tests/data/README).
 * "loop/1x" sums 10000 numbers, "loop/2x" 20000; "twice" runs twice
 * (2000, then 4000); a name with a space, a newline and a '%'; with an
 * argument, a case stopped under another name than it started with.
 */
#include <stdio.h>

#include "lib/gate-probe.h"

static volatile unsigned long sink;

static void work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	(void)argv;
	work(100000);	/* start-up: in no case */
	gate_probe_start("loop/1x");
	work(10000);
	gate_probe_stop("loop/1x");
	work(50000);	/* between cases: in none */
	gate_probe_start("loop/2x");
	work(20000);
	gate_probe_stop("loop/2x");
	gate_probe_start("twice");
	work(2000);
	gate_probe_stop("twice");
	gate_probe_start("twice");
	work(4000);
	gate_probe_stop("twice");
	gate_probe_start("odd name\n100%");
	work(10);
	gate_probe_stop("odd name\n100%");
	if (argc > 1) {
		gate_probe_start("a");
		work(10);
		gate_probe_stop("b");
	}
	puts("done");
	return 0;
}
