/*
 * gate-sampler: the program that times a sample inside an arm's sandbox
 * (gate/exec/sampler.c), with gate's arguments (--box-sample first). It
 * links none of gate's libraries, so a sample's sandbox starts it in a
 * tenth of the CPU time gate itself needs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gate/exec/box.h"

int main(int argc, char **argv)
{
	/* _exit: no exit handlers run in a sample's sandbox (the sampler
	   writes nothing buffered). Under make asan, LeakSanitizer's scan
	   at exit took 27 ms of CPU a sample, against 16 ms for the rest;
	   test-box, its own sampler, still has this code leak-checked. */
	if (argc > 1 && !strcmp(argv[1], BOX_SAMPLE_OPTION))
		_exit(box_sample_main(argc - 2, argv + 2));
	fprintf(stderr, "gate-sampler: gate starts this program inside an "
		"arm's sandbox (%s); it is not run by hand\n",
		BOX_SAMPLE_OPTION);
	return 127;
}
