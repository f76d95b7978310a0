/*
 * The format interface: names, detection, the case table the parsers fill,
 * the value checks every format shares, units and their direction, case
 * selection by regex, and the filter arguments for re-running some cases.
 */
#include "gate/format/format.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/jsonpos.h"
#include "common/banned.h"

static const char *const names[] = {
	"time", "gbench", "gotest", "lines", "hyperfine", "pytest", "gate",
};

const char *format_name(enum format f)
{
	return (size_t)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

int format_lookup(enum format *f, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*f = (enum format)i;
			return 0;
		}
	return -1;
}

const char *format_names(void)
{
	return "time, gbench, gotest, lines, hyperfine, pytest";
}

/* Does a line start like a go benchmark result: Benchmark<name> <digits>? */
static int gotest_line(const char *s, const char *end)
{
	if (end - s < 10 || memcmp(s, "Benchmark", 9) != 0)
		return 0;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s < end && *s >= '0' && *s <= '9';
}

enum format format_detect(const char *text, size_t len)
{
	const char *s = text, *end = text + len, *nl;
	cJSON *root;
	enum format f = FORMAT_LINES;

	while (s < end && strchr(" \t\r\n", *s))
		s++;
	if (s < end && *s == '{') {
		root = cJSON_ParseWithLength(text, len);
		if (cJSON_GetObjectItemCaseSensitive(root, "gate_version"))
			f = FORMAT_GATE;
		else if (cJSON_GetObjectItemCaseSensitive(root, "machine_info"))
			f = FORMAT_PYTEST;
		else if (cJSON_GetObjectItemCaseSensitive(root, "results"))
			f = FORMAT_HYPERFINE;
		else
			f = FORMAT_GBENCH;	/* its parser explains */
		cJSON_Delete(root);
		return f;
	}
	for (s = text; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		if (gotest_line(s, nl))
			return FORMAT_GOTEST;
	}
	return f;
}

struct cJSON *format_json(const char *text, size_t len, const char *origin,
			  const char *what)
{
	struct jsonpos_error je;
	size_t line, col;
	cJSON *root;

	if (jsonpos_check(text, len, &je) < 0) {
		jsonpos_linecol(text, len, je.off, &line, &col);
		error("%s:%zu:%zu: %s: not valid %s JSON (truncated, or not "
		      "this format?)", origin, line, col, je.msg, what);
		return NULL;
	}
	root = cJSON_ParseWithLength(text, len);
	if (!root)
		error("%s: cannot parse the %s JSON: out of memory", origin,
		      what);
	return root;
}

struct fmt_case *fmt_table_find(const struct fmt_table *t, const char *name,
				const char *unit)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->cases[i].name, name) &&
		    !strcmp(t->cases[i].unit, unit))
			return &t->cases[i];
	return NULL;
}

void fmt_table_add(struct fmt_table *t, const char *name, size_t name_len,
		   const char *unit, double value)
{
	char *nm = xstrndup(name, name_len);
	struct fmt_case *c = fmt_table_find(t, nm, unit);

	if (!c) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->cases = xrealloc(t->cases,
					    t->cap * sizeof(*t->cases));
		}
		c = &t->cases[t->n++];
		memset(c, 0, sizeof(*c));
		c->name = nm;
		nm = NULL;
		c->unit = xstrdup(unit);
		c->higher_better = unit_higher_better(unit);
	}
	free(nm);
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4;
		c->values = xrealloc(c->values, c->cap * sizeof(*c->values));
	}
	c->values[c->n++] = value;
}

void fmt_table_release(struct fmt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->cases[i].name);
		free(t->cases[i].unit);
		free(t->cases[i].values);
	}
	free(t->cases);
	t->cases = NULL;
	t->n = t->cap = 0;
}

int unit_higher_better(const char *unit)
{
	size_t n = strlen(unit);

	return (n > 2 && !strcmp(unit + n - 2, "/s")) ||
	       strstr(unit, "per_second") || strstr(unit, "per_sec");
}

int unit_is_count(const char *unit)
{
	return !strcmp(unit, "B/op") || !strcmp(unit, "allocs/op");
}

const char *format_value(double v, const char *unit, char *buf, size_t size)
{
	static const char *const si = " kMGTP";
	const char *rest;
	int k = 0;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (!strcmp(unit, "s") || !strncmp(unit, "s/", 2)) {
		rest = unit + 1;
		if (v >= 1.0)
			snprintf(buf, size, "%.3f s%s", v, rest);
		else if (v >= 1e-3)
			snprintf(buf, size, "%.3g ms%s", v * 1e3, rest);
		else if (v >= 1e-6)
			snprintf(buf, size, "%.3g us%s", v * 1e6, rest);
		else
			snprintf(buf, size, "%.3g ns%s", v * 1e9, rest);
		return buf;
	}
	while (fabs(v) >= 1e4 && k < 5) {
		v /= 1e3;
		k++;
	}
	if (k)
		snprintf(buf, size, "%.4g%c %s", v, si[k], unit);
	else
		snprintf(buf, size, "%.4g %s", v, unit);
	return buf;
}

/* Every value finite and above zero (counts may be zero). */
static int check_values(const struct fmt_table *t, const char *origin)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		const struct fmt_case *c = &t->cases[i];

		for (j = 0; j < c->n; j++) {
			double v = c->values[j];

			if (isfinite(v) && (v > 0 ||
					    (v == 0 && unit_is_count(c->unit))))
				continue;
			return error("%s: case \"%s\" has the value %g %s: a "
				     "value must be finite and above zero "
				     "to be compared (a timer too coarse, or "
				     "a broken benchmark?)", origin, c->name,
				     v, c->unit);
		}
	}
	return 0;
}

int format_parse(struct fmt_table *t, enum format f, const char *text,
		 size_t len, const char *origin, const struct fmt_opts *o)
{
	static const struct fmt_opts none = { 0 };
	int rc;

	if (!o)
		o = &none;
	if (len > FORMAT_MAX_BYTES)
		return error("%s: %zu bytes is more than the %u MiB gate reads",
			     origin, len, FORMAT_MAX_BYTES >> 20);
	switch (f) {
	case FORMAT_GBENCH:
		rc = format_parse_gbench(t, text, len, origin, o);
		break;
	case FORMAT_GOTEST:
		rc = format_parse_gotest(t, text, len, origin);
		break;
	case FORMAT_LINES:
		rc = format_parse_lines(t, text, len, origin);
		break;
	case FORMAT_HYPERFINE:
		rc = format_parse_hyperfine(t, text, len, origin);
		break;
	case FORMAT_PYTEST:
		rc = format_parse_pytest(t, text, len, origin);
		break;
	case FORMAT_GATE:
		rc = format_parse_gate(t, text, len, origin);
		break;
	default:
		rc = error("%s: format \"%s\" has no cases to parse", origin,
			   format_name(f));
	}
	if (rc == 0 && t->n == 0)
		rc = error("%s: no benchmark results in the %s output (%zu "
			   "bytes): did the suite run any case?", origin,
			   format_name(f), len);
	if (rc == 0)
		rc = check_values(t, origin);
	if (rc < 0)
		fmt_table_release(t);
	return rc;
}

int fmt_table_filter(struct fmt_table *t, const char *re)
{
	regex_t rx;
	char msg[256];
	size_t i, kept = 0;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);

	if (rc != 0) {
		regerror(rc, &rx, msg, sizeof(msg));
		return error("--filter \"%s\" is not a valid regular "
			     "expression: %s", re, msg);
	}
	for (i = 0; i < t->n; i++) {
		if (regexec(&rx, t->cases[i].name, 0, NULL, 0) == 0) {
			t->cases[kept++] = t->cases[i];
			continue;
		}
		free(t->cases[i].name);
		free(t->cases[i].unit);
		free(t->cases[i].values);
	}
	t->n = kept;
	regfree(&rx);
	return 0;
}

/* Append s to buf (len, cap), escaping regex metacharacters. */
static void put_escaped(char **buf, size_t *len, size_t *cap, const char *s,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (*len + 3 > *cap) {
			*cap = *cap * 2 + 16;
			*buf = xrealloc(*buf, *cap);
		}
		if (strchr("\\^$.|?*+()[]{}", s[i]))
			(*buf)[(*len)++] = '\\';
		(*buf)[(*len)++] = s[i];
	}
	(*buf)[*len] = '\0';
}

/* go's name without the -GOMAXPROCS suffix it appends ("-8"). */
static size_t go_base_len(const char *name)
{
	size_t n = strlen(name), i = n;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i < n && i > 1 && name[i - 1] == '-')
		return i - 1;
	return n;
}

char *format_filter_arg(enum format f, const char *const *case_names,
			size_t n)
{
	const char *prefix;
	char *buf;
	size_t len, cap, i, k, levels = 1;

	if (f == FORMAT_GBENCH)
		prefix = "--benchmark_filter=^(";
	else if (f == FORMAT_GOTEST)
		prefix = "-test.bench=^(";
	else
		return NULL;
	if (n == 0)
		return NULL;
	cap = strlen(prefix) + 64;
	buf = xmalloc(cap);
	len = strlen(prefix);
	memcpy(buf, prefix, len + 1);
	if (f == FORMAT_GOTEST) {
		/*
		 * go splits -bench at each '/' and matches the parts against
		 * the levels of a sub-benchmark's name, so each name
		 * becomes level patterns: only single-level names can share
		 * one alternation per level: A/x and B/y give ^(A|B)$/^(x|y)$,
		 * which may also run A/y; a re-run ignores cases it did not
		 * ask for.
		 */
		for (i = 0; i < n; i++) {
			size_t lv = 1;

			for (k = 0; case_names[i][k]; k++)
				lv += case_names[i][k] == '/';
			if (lv > levels)
				levels = lv;
		}
	}
	for (i = 0; i < n; i++) {
		const char *nm = case_names[i];
		size_t nl = f == FORMAT_GOTEST ? go_base_len(nm) : strlen(nm);
		const char *slash = f == FORMAT_GOTEST ?
				    memchr(nm, '/', nl) : NULL;

		if (i) {
			buf[len++] = '|';
			buf[len] = '\0';
		}
		put_escaped(&buf, &len, &cap, nm,
			    slash ? (size_t)(slash - nm) : nl);
	}
	put_escaped(&buf, &len, &cap, "", 0);
	if (len + 4 > cap)
		buf = xrealloc(buf, cap = len + 4);
	memcpy(buf + len, ")$", 3);
	len += 2;
	if (f == FORMAT_GOTEST && levels > 1) {
		/* the deeper levels: alternations of each name's part */
		for (k = 1; k < levels; k++) {
			size_t j;

			if (len + 4 > cap)
				buf = xrealloc(buf, cap = 2 * cap + 4);
			memcpy(buf + len, "/^(", 4);
			len += 3;
			for (i = 0; i < n; i++) {
				const char *nm = case_names[i];
				size_t nl = go_base_len(nm), at = 0, lv = 0;
				size_t e;

				for (j = 0; j < nl && lv < k; j++)
					if (nm[j] == '/') {
						lv++;
						at = j + 1;
					}
				if (lv < k)
					continue;
				for (e = at; e < nl && nm[e] != '/'; e++)
					;
				if (buf[len - 1] != '(') {
					buf[len++] = '|';
					buf[len] = '\0';
				}
				put_escaped(&buf, &len, &cap, nm + at,
					    e - at);
			}
			if (len + 4 > cap)
				buf = xrealloc(buf, cap = 2 * cap + 4);
			memcpy(buf + len, ")$", 3);
			len += 2;
		}
	}
	return buf;
}
