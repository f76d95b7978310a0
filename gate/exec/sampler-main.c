/*
 * gate-sampler: the program that times a sample inside an arm's sandbox
 * (gate/exec/sampler.c), with gate's arguments (--box-sample first). It
 * links none of gate's libraries, so a sample's sandbox starts it in a
 * tenth of the CPU time gate itself needs.
 */
#include <stdio.h>
#include <string.h>

#include "gate/exec/box.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], BOX_SAMPLE_OPTION))
		return box_sample_main(argc - 2, argv + 2);
	fprintf(stderr, "gate-sampler: gate starts this program inside an "
		"arm's sandbox (%s); it is not run by hand\n",
		BOX_SAMPLE_OPTION);
	return 127;
}
