/*
 * libFuzzer target for the JSON position scanner behind config messages:
 * the first bytes choose a path and an offset, the rest is the text. Every
 * function must stay inside the text, and whatever jsonpos_check accepts
 * cJSON must parse too (the config reader relies on that).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/jsonpos.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = { "benchmarks", "name", "run", "pairs",
				    "defaults", "a", "" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonpos_step path[3];
	struct jsonpos_error err;
	size_t i, n, off, end, line, col;
	char *text;

	if (size < 4)
		return 0;
	n = data[0] % 4;
	for (i = 0; i < 3; i++) {
		path[i].key = data[1 + i] & 0x80 ? NULL
			: keys[data[1 + i] % (sizeof(keys) / sizeof(keys[0]))];
		path[i].index = data[1 + i] & 3;
	}
	data += 4;
	size -= 4;
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);

	if (jsonpos_check(text, size, &err) == 0) {
		cJSON *json = cJSON_ParseWithLength(text, size);

		if (!json)
			abort();	/* accepted here, refused by cJSON */
		cJSON_Delete(json);
		if (jsonpos_skip(text, size, 0, &end) == 0 && end > size)
			abort();
	} else if (err.off > size || !err.msg[0]) {
		abort();
	}
	if (jsonpos_value(text, size, path, n, &off) == 0) {
		if (off >= size)
			abort();
		if (jsonpos_skip(text, size, off, &end) == 0 &&
		    (end <= off || end > size))
			abort();
	}
	if (n && jsonpos_key(text, size, path, n, &off) == 0 &&
	    (off >= size || text[off] != '"'))
		abort();
	jsonpos_linecol(text, size, size / 2, &line, &col);
	if (line < 1 || col < 1)
		abort();
	free(text);
	return 0;
}
