/*
 * main(), and nothing else, so that everything in gate/ links into the
 * unit tests as a library.
 */
#include "gate/cmd/cmd.h"

int main(int argc, char **argv)
{
	return gate_main(argc, argv);
}
