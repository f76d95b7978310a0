/*
 * The format interface: the table of readers (one file each, like curl's
 * vtls back-ends), detection, the case table the readers fill, the value
 * checks every format shares, units and their direction, case selection.
 */
#include "gate/format/format.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/banned.h"

/* time reads no output: the whole process is the sample */
const struct format_reader format_time_reader = {
	.name = "time",
	.what = "no output read: the whole process is the sample",
	.flags = FMT_NOT_A_SUITE,
	.values = FMT_VALUES_NONE,
	.init = "a program, a make target, cmake, meson, cargo or npm "
		"benchmark timed as one process (init.c, init-make.c)",
};

/* gate's own report, told apart by "gate_version"; read by the report
   stage's reader, which gate compare passes in fmt_opts.gate_report */
static int gate_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_GetObjectItemCaseSensitive(root, "gate_version") != NULL;
}

static int gate_parse(struct fmt_table *t, const char *text, size_t len,
		      const char *origin, const struct fmt_opts *o)
{
	if (o->gate_report)
		return o->gate_report(t, text, len, origin, o);
	return error_to(o->err, "%s: a gate report is read by gate compare "
			"only", origin);
}

const struct format_reader format_gate_reader = {
	.name = "gate",
	.what = "gate's own JSON report (gate compare only)",
	.flags = FMT_COMPARE_ONLY,
	.detect = gate_detect,
	.broken_json_keys = { "\"gate_version\"" },
	.parse = gate_parse,
	.values = FMT_VALUES_PER_PROCESS,
};

#define FORMAT_ROW_(e, name) [FORMAT_##e] = &format_##name##_reader,
static const struct format_reader *const readers[FORMAT_COUNT] = {
	FORMAT_ROWS(FORMAT_ROW_)
};
#undef FORMAT_ROW_

const struct format_reader *format_reader(enum format f)
{
	return (size_t)f < FORMAT_COUNT ? readers[f] : &format_time_reader;
}

const char *format_name(enum format f)
{
	return (size_t)f < FORMAT_COUNT ? readers[f]->name : "?";
}

int format_lookup(enum format *f, const char *name)
{
	size_t i;

	for (i = 0; i < FORMAT_COUNT; i++)
		if (!strcmp(name, readers[i]->name)) {
			*f = (enum format)i;
			return 0;
		}
	return -1;
}

/* The names of the rows with none of the flags in skip, into buf. */
static const char *names_but(char *buf, size_t size, unsigned skip)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < FORMAT_COUNT; i++) {
		if (readers[i]->flags & skip)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					len ? ", " : "", readers[i]->name);
		if (len >= size)
			break;
	}
	return buf;
}

const char *format_names(void)
{
	static char buf[512];

	return names_but(buf, sizeof(buf), FMT_COMPARE_ONLY);
}

const char *format_names_compare(void)
{
	static char buf[512];

	return names_but(buf, sizeof(buf), FMT_NOT_A_SUITE);
}

/* Where key first occurs in text[0..len), else len (memmem is a GNU
   extension). */
static size_t key_at(const char *text, size_t len, const char *key)
{
	size_t k = strlen(key);
	const char *p = text, *end = text + len;

	while ((size_t)(end - p) >= k &&
	       (p = memchr(p, key[0], (size_t)(end - p) - k + 1))) {
		if (!memcmp(p, key, k))
			return (size_t)(p - text);
		p++;
	}
	return len;
}

/*
 * JSON that does not parse (truncated, broken) cannot show its keys to the
 * readers, yet its text still names whose it is: the row whose key occurs
 * first says which format's error to give (a top-level key comes before a
 * user's data that may hold the same word), so a broken gate report is not
 * called "not valid Google Benchmark JSON". FORMAT_GBENCH when none is.
 */
static enum format detect_broken_json(const char *text, size_t len)
{
	enum format f = FORMAT_GBENCH;
	size_t i, k, first = len;

	for (i = 0; i < FORMAT_COUNT; i++)
		for (k = 0; k < 3 && readers[i]->broken_json_keys[k]; k++) {
			size_t at = key_at(text, len,
					   readers[i]->broken_json_keys[k]);

			if (at < first) {
				first = at;
				f = (enum format)i;
			}
		}
	return f;
}

/* Ask each row's detect, the FMT_DETECT_LAST ones (last) after the
   others: the first that says yes. */
static int detect_pass(enum format *f, const char *text, size_t len,
		       const cJSON *root, unsigned last)
{
	size_t i;

	for (i = 0; i < FORMAT_COUNT; i++) {
		const struct format_reader *r = readers[i];

		if ((r->flags & FMT_DETECT_LAST) == last && r->detect &&
		    r->detect(text, len, root)) {
			*f = (enum format)i;
			return 1;
		}
	}
	return 0;
}

enum format format_detect(const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	cJSON *root = NULL;
	enum format f = FORMAT_LINES;

	while (s < end && strchr(" \t\r\n", *s))
		s++;
	if (s < end && (*s == '{' || *s == '[')) {
		root = cJSON_ParseWithLength(text, len);
		if (!root)
			return detect_broken_json(text, len);
	}
	if (!detect_pass(&f, text, len, root, 0))
		detect_pass(&f, text, len, root, FMT_DETECT_LAST);
	cJSON_Delete(root);
	return f;
}

struct cJSON *format_json_to(const char *text, size_t len, const char *origin,
			     const char *what, struct gate_err *err)
{
	const char *end = NULL;
	size_t line, col, off;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);

	off = end && end >= text && end <= text + len ?
	      (size_t)(end - text) : 0;
	/* cJSON stops after the value: anything but white space is left */
	while (root && off < len && text[off] && strchr(" \t\r\n", text[off]))
		off++;
	if (root && off == len)
		return root;
	cJSON_Delete(root);
	/* cJSON allocates through gate's checked allocators: a syntax error */
	jsonpos_linecol(text, len, off, &line, &col);
	error_to(err, "%s:%zu:%zu: syntax error: not valid %s JSON "
		 "(truncated, or not this format?)", origin, line, col, what);
	return NULL;
}

const struct cJSON *format_json_list_to(struct cJSON **root, const char *text,
					size_t len, const char *origin,
					const char *what, const char *key,
					const char *option,
					struct gate_err *err)
{
	const cJSON *list;

	*root = format_json_to(text, len, origin, what, err);
	if (!*root)
		return NULL;
	list = cJSON_GetObjectItemCaseSensitive(*root, key);
	if (cJSON_IsArray(list))
		return list;
	error_to(err, "%s: no \"%s\" list: not %s's %s output", origin, key,
		 what, option);
	cJSON_Delete(*root);
	*root = NULL;
	return NULL;
}

int format_json_docs(const char *text, size_t len, const char *origin,
		     const char *what,
		     int (*each)(void *ctx, const struct cJSON *doc,
				 size_t at),
		     void *ctx, struct gate_err *err)
{
	size_t off = 0, line, col, ndocs = 0;

	for (;;) {
		const char *end = NULL;
		cJSON *doc;
		int rc;

		while (off < len && strchr(" \t\r\n", text[off]))
			off++;
		if (off == len)
			break;
		doc = cJSON_ParseWithLengthOpts(text + off, len - off, &end,
						0);
		if (!doc) {
			size_t at = end && end >= text + off &&
				    end <= text + len ?
				    (size_t)(end - text) : off;

			jsonpos_linecol(text, len, at, &line, &col);
			return error_to(err, "%s:%zu:%zu: syntax error: not "
					"valid %s JSON (truncated, or the "
					"harness's own output on stdout? send "
					"it to stderr)", origin, line, col,
					what);
		}
		rc = each(ctx, doc, off);
		cJSON_Delete(doc);
		if (rc < 0)
			return -1;
		ndocs++;
		off = (size_t)(end - text);
	}
	if (!ndocs)
		return error_to(err, "%s: empty: no %s JSON", origin, what);
	return 0;
}

size_t fmt_table_procs_of(const struct fmt_table *t, const char *name,
			  const char *unit)
{
	const struct fmt_case *c = fmt_table_find(t, name, unit);

	return c && c->proc && c->n ? c->proc[c->n - 1] + 1 : 0;
}

int fmt_table_add_numbers(struct fmt_table *t, const char *name,
			  const struct cJSON *a, const char *origin,
			  const char *what, struct gate_err *err)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, a) {
		if (!cJSON_IsNumber(v))
			return error_to(err, "%s: case \"%s\": \"%s\" holds "
					"a non-number", origin, name, what);
		fmt_table_add(t, name, strlen(name), "s", v->valuedouble);
	}
	return 0;
}

/* FNV-1a over name, a NUL and unit. */
static size_t case_hash(const char *name, const char *unit)
{
	unsigned long long h = 1469598103934665603ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h *= 1099511628211ULL;
	for (p = (const unsigned char *)unit; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

static void slot_put(size_t *slot, size_t nslot, const struct fmt_case *c,
		     size_t index)
{
	size_t k = case_hash(c->name, c->unit) & (nslot - 1);

	while (slot[k])
		k = (k + 1) & (nslot - 1);
	slot[k] = index + 1;
}

/* (Re)build the index for t's cases: after growth, and after a filter. */
static void table_reindex(struct fmt_table *t)
{
	size_t i, want = 64;

	while (want < 2 * (t->n + 1))
		want *= 2;
	free(t->slot);
	t->slot = xcalloc(want, sizeof(*t->slot));
	t->nslot = want;
	for (i = 0; i < t->n; i++)
		slot_put(t->slot, t->nslot, &t->cases[i], i);
}

/* A case by (name, unit): hashed, so a file of 100k cases reads in
   linear time. */
struct fmt_case *fmt_table_find(const struct fmt_table *t, const char *name,
				const char *unit)
{
	size_t k, i;

	if (!t->nslot) {
		for (i = 0; i < t->n; i++)
			if (!strcmp(t->cases[i].name, name) &&
			    !strcmp(t->cases[i].unit, unit))
				return &t->cases[i];
		return NULL;
	}
	for (k = case_hash(name, unit) & (t->nslot - 1); t->slot[k];
	     k = (k + 1) & (t->nslot - 1)) {
		struct fmt_case *c = &t->cases[t->slot[k] - 1];

		if (!strcmp(c->name, name) && !strcmp(c->unit, unit))
			return c;
	}
	return NULL;
}

void fmt_table_add(struct fmt_table *t, const char *name, size_t name_len,
		   const char *unit, double value)
{
	char *nm = xstrndup(name, name_len);
	struct fmt_case *c = fmt_table_find(t, nm, unit);

	if (!c) {
		XGROW(t->cases, t->cap, t->n + 1);
		c = &t->cases[t->n++];
		memset(c, 0, sizeof(*c));
		c->name = nm;
		nm = NULL;
		c->unit = xstrdup(unit);
		c->higher_better = unit_higher_better(unit);
		if (2 * t->n >= t->nslot)
			table_reindex(t);
		else
			slot_put(t->slot, t->nslot, c, t->n - 1);
	}
	free(nm);
	if (c->n == c->cap) {
		/* proc grows with values: the same capacity, from the same
		   start */
		size_t pcap = c->cap;

		XGROW(c->values, c->cap, c->n + 1);
		if (t->track)
			XGROW(c->proc, pcap, c->cap);
	}
	if (c->proc)
		c->proc[c->n] = t->proc;
	c->values[c->n++] = value;
}

void fmt_table_release(struct fmt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->cases[i].name);
		free(t->cases[i].unit);
		free(t->cases[i].values);
		free(t->cases[i].proc);
	}
	free(t->cases);
	free(t->slot);
	t->procs = 0;
	t->cases = NULL;
	t->slot = NULL;
	t->n = t->cap = t->nslot = 0;
}

size_t fmt_case_processes(const struct fmt_case *c)
{
	size_t i, k = c->n ? 1 : 0;

	if (!c->proc)
		return 0;
	/* values arrive in file order, so a process's are contiguous */
	for (i = 1; i < c->n; i++)
		k += c->proc[i] != c->proc[i - 1];
	return k;
}

int fmt_table_one_process(const struct fmt_table *t)
{
	size_t i;

	if (!t->track || !t->n)
		return 0;
	for (i = 0; i < t->n; i++)
		if (fmt_case_processes(&t->cases[i]) > 1)
			return 0;
	return 1;
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

int unit_is_time(const char *unit)
{
	return !strcmp(unit, "s") || !strncmp(unit, "s/", 2);
}

int unit_may_be_zero(const char *unit)
{
	return unit_is_count(unit) ||
	       (!unit_is_time(unit) && !unit_higher_better(unit));
}

/*
 * v rounded to digits significant digits (v > 0): rounding first, then
 * choosing the unit, is what keeps 999.7 ns from printing as "1e+03 ns".
 */
static double round_sig(double v, int digits)
{
	int p;

	if (!(v > 0) || !isfinite(v))
		return v;
	p = digits - 1 - (int)floor(log10(v));
	/* by an exact power of ten each way: 123/0.001 is not 123000 */
	return p >= 0 ? round(v * pow(10, p)) / pow(10, p) :
	       round(v / pow(10, -p)) * pow(10, -p);
}

/* v (>= 0) with digits significant digits and no exponent into buf;
   strip: drop trailing zeros (counts print "64", not "64.00"). */
static void print_sig(char *buf, size_t size, double v, int digits,
		      int strip, const char *suffix)
{
	int dec = v > 0 ? digits - 1 - (int)floor(log10(v)) : 0;
	char num[64];
	size_t n;

	if (dec < 0)
		dec = 0;
	if (dec > 12)
		dec = 12;
	snprintf(num, sizeof(num), "%.*f", dec, v);
	n = strlen(num);
	if (strip && strchr(num, '.')) {
		while (n && num[n - 1] == '0')
			num[--n] = '\0';
		if (n && num[n - 1] == '.')
			num[--n] = '\0';
	}
	snprintf(buf, size, "%s%s", num, suffix);
}

const char *format_value(double v, const char *unit, char *buf, size_t size)
{
	/* a time: the largest of s, ms, us, ns in which the value, rounded
	   to 3 significant digits, is at least 1 */
	static const struct { double scale; const char *name; } tu[] = {
		{ 1, "s" }, { 1e-3, "ms" }, { 1e-6, "us" }, { 1e-9, "ns" },
	};
	static const char *const si = " kMGTPE";
	char suffix[128], num[192];
	double a, r;
	size_t k = 0;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	a = fabs(v);
	if (!strcmp(unit, "s") || !strncmp(unit, "s/", 2)) {
		r = round_sig(a, 3);
		while (k + 1 < sizeof(tu) / sizeof(tu[0]) && r < tu[k].scale)
			k++;
		snprintf(suffix, sizeof(suffix), " %s%s", tu[k].name,
			 unit + 1);
		if (k == 0 && a >= 1e6)	/* %.3f of 1e299 s is 300 digits */
			snprintf(num, sizeof(num), "%.4g%s", a, suffix);
		else if (k == 0)	/* to the millisecond */
			snprintf(num, sizeof(num), "%.3f%s", a, suffix);
		else
			print_sig(num, sizeof(num),
				  round_sig(r / tu[k].scale, 3), 3, 0, suffix);
	} else {
		/* any other unit: 4 significant digits, a SI prefix from
		   10000 on (9999 B/op, then 10k B/op), decided on the
		   rounded value */
		r = round_sig(a, 4);
		while (r >= 1e4 && k + 1 < strlen(si)) {
			r = round_sig(r / 1e3, 4);
			k++;
		}
		if (k)
			snprintf(suffix, sizeof(suffix), "%c %s", si[k], unit);
		else
			snprintf(suffix, sizeof(suffix), " %s", unit);
		if (r >= 1e4)	/* past the last prefix */
			snprintf(num, sizeof(num), "%.4g%s", r, suffix);
		else
			print_sig(num, sizeof(num), r, 4, 1, suffix);
	}
	snprintf(buf, size, "%s%s", v < 0 ? "-" : "", num);
	return buf;
}

/* Every value finite and above zero (counts, any unit that is not a time
   or a rate, may be zero). */
static int check_values(const struct fmt_table *t, const char *origin,
			int allow_zero, struct gate_err *err)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		const struct fmt_case *c = &t->cases[i];

		for (j = 0; j < c->n; j++) {
			double v = c->values[j];

			if (isfinite(v) && (v > 0 || (v == 0 && (allow_zero ||
					    unit_may_be_zero(c->unit)))))
				continue;
			return error_to(err, "%s: case \"%s\" has the value "
					"%g %s: a value must be finite and "
					"above zero to be compared (a timer "
					"too coarse, or a broken benchmark?)",
					origin, c->name, v, c->unit);
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
		return error_to(o->err, "%s: %zu bytes is more than the %u "
				"MiB gate reads", origin, len,
				FORMAT_MAX_BYTES >> 20);
	if ((size_t)f < FORMAT_COUNT && readers[f]->parse) {
		/* repetitions of one process: every value process 0 */
		if (readers[f]->values == FMT_VALUES_ONE_PROCESS) {
			t->track = 1;
			t->proc = 0;
		}
		rc = readers[f]->parse(t, text, len, origin, o);
	}
	else
		rc = error_to(o->err, "%s: format \"%s\" has no cases to "
			      "parse", origin, format_name(f));
	if (rc == 0 && t->n == 0)
		rc = error_to(o->err, "%s: no benchmark results in the %s "
			      "output (%zu bytes): did the suite run any "
			      "case?", origin, format_name(f), len);
	if (rc == 0)
		rc = check_values(t, origin, o->allow_zero, o->err);
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
		free(t->cases[i].proc);
	}
	t->n = kept;
	table_reindex(t);
	regfree(&rx);
	return 0;
}
