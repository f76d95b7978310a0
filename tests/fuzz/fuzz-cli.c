/*
 * libFuzzer target for the command line: the input, split at newlines,
 * is argv after "gate"; gate_main_parse_only() runs the global options
 * and the command's option parser and stops before opening, running or
 * writing anything. Any argv must give exit 0 or 3, never a crash, a
 * leak, or a read of an option's missing value. Output goes to /dev/null.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/cmd/cmd.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char prog[] = "gate";
	char *text = malloc(size + 1), *p, *argv[MAX_ARGS + 2];
	int argc = 0, code, null_fd, saved[2];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = prog;
	for (p = text; argc < MAX_ARGS + 1; ) {
		char *nl = strchr(p, '\n');

		argv[argc++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	null_fd = open("/dev/null", O_WRONLY);
	saved[0] = dup(1);
	saved[1] = dup(2);
	dup2(null_fd, 1);
	dup2(null_fd, 2);
	code = gate_main_parse_only(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved[0], 1);
	dup2(saved[1], 2);
	close(saved[0]);
	close(saved[1]);
	close(null_fd);
	if (code != EXIT_PASS && code != EXIT_ERROR)
		abort();
	free(text);
	return 0;
}
