/*
 * libFuzzer target for the config reader: any bytes given to config_parse
 * must give a config or one error, never a crash, a leak or a read past
 * the end (the input is copied to a buffer of exactly its size).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	char msg[512];
	char *text = malloc(size ? size : 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	error_capture(msg, sizeof(msg), 1);
	if (config_parse(&cfg, text, size, "fuzz.json") == 0) {
		size_t i;

		/* a parsed config is whole: every benchmark has a command */
		for (i = 0; i < cfg.nbench; i++)
			if (!cfg.benches[i].run.argv &&
			    !cfg.benches[i].run.shell)
				abort();
		config_release(&cfg);
	} else if (!msg[0]) {
		abort();	/* an error must say something */
	}
	error_capture(NULL, 0, 0);
	free(text);
	return 0;
}
