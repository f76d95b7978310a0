/*
 * libFuzzer target for every result-format reader (each row of
 * FORMAT_ROWS that reads output, gate's own JSON report as gate compare
 * reads it, and format_detect): the first byte picks the row (127: detect,
 * as compare does), the rest is the text. A table or one message, never a
 * crash; every value kept is finite and above zero (counts may be zero).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The k-th row of FORMAT_ROWS that reads output (time reads none): a new
 * row goes at the end, so the corpus's first bytes keep their format.
 */
static enum format reading_row(unsigned k)
{
	unsigned i, n = 0;

	for (i = 0; i < FORMAT_COUNT; i++)
		n += format_reader((enum format)i)->parse != NULL;
	k %= n;
	for (i = 0; i < FORMAT_COUNT; i++)
		if (format_reader((enum format)i)->parse && !k--)
			break;
	return (enum format)i;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_opts o = { 0 };
	enum format f;
	char msg[512];
	char *text;
	size_t i, k;

	if (size < 1)
		return 0;
	o.cpu_time = data[0] & 0x80;
	text = malloc(size - 1 ? size - 1 : 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	f = (data[0] & 0x7f) == 0x7f ? format_detect(text, size - 1)
				     : reading_row(data[0] & 0x7fu);
	msg[0] = '\0';
	error_capture(msg, sizeof(msg), 1);
	if (format_parse(&t, f, text, size - 1, "fuzz", &o) == 0) {
		if (t.n == 0)
			abort();	/* zero cases is an error */
		for (i = 0; i < t.n; i++)
			for (k = 0; k < t.cases[i].n; k++) {
				double v = t.cases[i].values[k];

				if (!isfinite(v) || v < 0 ||
				    (v == 0 && !unit_is_count(t.cases[i].unit)))
					abort();
			}
		fmt_table_release(&t);
	} else if (!msg[0]) {
		abort();	/* an error must say something */
	}
	error_capture(NULL, 0, 0);
	free(text);
	return 0;
}
