/*
 * The "lines" protocol, for any language: one "name value unit" line per
 * case and run, blank lines and '#' comments ignored; one run of the
 * harness is one process, a "# run" line before each of runs concatenated. Times in ns, us, ms
 * or s become seconds; a unit ending in "/s" is a rate (higher is better).
 */
#include "gate/format/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

static double time_scale(const char *u)
{
	if (!strcmp(u, "ns"))
		return 1e-9;
	if (!strcmp(u, "us"))
		return 1e-6;
	if (!strcmp(u, "ms"))
		return 1e-3;
	if (!strcmp(u, "s"))
		return 1.0;
	return 0;
}

static int one_line(struct fmt_table *t, const char *s, size_t n,
		    const char *origin, size_t lineno, struct gate_err *err)
{
	const char *f[4];
	size_t fl[4], k = 0, i = 0;
	char num[64], unit[64], *endp;
	double v, scale;

	while (i < n && k < 4) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i >= n)
			break;
		f[k] = s + i;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
		fl[k] = (size_t)(s + i - f[k]);
		k++;
	}
	if (k == 0 || f[0][0] == '#')
		return 0;
	if (k != 3)
		return error_to(err, "%s:%zu: expected \"name value unit\" (three "
			     "fields), got %s%zu: \"%.*s\"", origin, lineno,
			     k == 4 ? "more than " : "", k == 4 ? (size_t)3 : k,
			     (int)(n > 80 ? 80 : n), s);
	if (fl[1] >= sizeof(num) || fl[2] >= sizeof(unit))
		return error_to(err, "%s:%zu: value or unit too long", origin, lineno);
	memcpy(num, f[1], fl[1]);
	num[fl[1]] = '\0';
	memcpy(unit, f[2], fl[2]);
	unit[fl[2]] = '\0';
	errno = 0;
	v = strtod(num, &endp);
	if (*endp || errno == ERANGE)
		return error_to(err, "%s:%zu: \"%s\" is not a number (case \"%.*s\")",
			     origin, lineno, num, (int)fl[0], f[0]);
	scale = time_scale(unit);
	if (scale > 0) {
		v *= scale;
		memcpy(unit, "s", 2);
	}
	fmt_table_add(t, f[0], fl[0], unit, v);
	return 0;
}

/*
 * Whether line s (n bytes) is "# run" (words may follow): the start of
 * another run's output in runs concatenated, so another process.
 */
static int run_mark(const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end || *s++ != '#')
		return 0;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return end - s >= 3 && !memcmp(s, "run", 3) &&
	       (end - s == 3 || s[3] == ' ' || s[3] == '\t' || s[3] == '\r');
}

static int lines_parse(struct fmt_table *t, const char *text, size_t len,
		       const char *origin, const struct fmt_opts *o)
{
	const char *s = text, *end = text + len, *nl;
	size_t lineno = 0;

	/* one run of the harness is one process, as gate run reads a
	   sample's output; each "# run" line starts another */
	t->track = 1;
	t->proc = 0;
	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		lineno++;
		if (!nl)
			return error_to(o->err, "%s:%zu: the last line has no newline: "
				     "the output was cut short (every line of "
				     "the lines format ends with '\\n')",
				     origin, lineno);
		if (memchr(s, '\0', (size_t)(nl - s)))
			return error_to(o->err, "%s:%zu: a NUL byte: not text", origin,
				     lineno);
		if (run_mark(s, (size_t)(nl - s)))
			t->proc++;
		if (one_line(t, s, (size_t)(nl - s), origin, lineno,
			     o->err) < 0)
			return -1;
	}
	return 0;
}

/* What is not another format is read as lines. */
static int lines_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	(void)root;
	return 1;
}

/* A listing's names: the first word of each line ('#' comments and blank
   lines skipped). */
static void lines_names(const char *out, size_t len,
			void (*add)(void *ctx, const char *name, size_t len),
			void *ctx)
{
	const char *p = out, *end = out + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *e;

		if (!eol)
			eol = end;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		e = q;
		while (e < eol && *e != ' ' && *e != '\t' && *e != '\r')
			e++;
		p = eol + 1;
		if (e == q || *q == '#')
			continue;
		add(ctx, q, (size_t)(e - q));
	}
}

const struct format_reader format_lines_reader = {
	.name = "lines",
	.what = "one \"name value unit\" line per case and run",
	.flags = FMT_DETECT_LAST,
	.detect = lines_detect,
	.parse = lines_parse,
	.values = FMT_VALUES_TRACKED,
	.processes_how = "a line \"# run\" before each run's lines",
	.select = fmt_select_gate_filter,
	.list = fmt_list_gate_list,
	.list_how = "each case's name when GATE_LIST=1 is set",
	.list_names = lines_names,
	.counted = FMT_COUNTED_MARKS,
};
