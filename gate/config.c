/*
 * gate.json: strict parsing and validation into struct config. jsonpos checks
 * the syntax and finds positions (cJSON keeps none); cJSON builds the tree.
 * Every error is one error() call naming origin:line:column and the fix.
 */
#include "gate/config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "common/error.h"
#include "gate/jsonpos.h"
#include "common/banned.h"

/* gate.json is a few hundred bytes; more than this is the wrong file. */
#define CONFIG_MAX_MIB 16
#define CONFIG_MAX_BYTES ((size_t)CONFIG_MAX_MIB << 20)
#define NAME_MAX_LEN 100
/* The deepest path we report on: benchmarks[i].run[k]. */
#define PATH_MAX_STEPS 8

#define EXAMPLE_BENCH "{\"name\": \"x\", \"run\": [\"./bench\"]}"

enum scope { SCOPE_TOP, SCOPE_DEFAULTS, SCOPE_BENCH };
/* Where a knob's value came from, to say which setting to change. */
enum source { SRC_BUILTIN, SRC_DEFAULTS, SRC_BENCH };

struct parser {
	const char *text;
	size_t len;
	const char *origin;
	struct jsonpos_step path[PATH_MAX_STEPS];	/* the value at hand */
	size_t depth;
	char where[160];	/* "in benchmark \"parse\"", for key errors */
};

/* A benchmark's settings while they are resolved: defaults, then its own. */
struct knobs {
	struct bench_cfg b;
	enum source pairs_src, max_src, warmup_src;
	/* "gate": which of the metrics decide; all when not given */
	int gate_set;
	int gating[METRIC_COUNT];
	/* "min_effect": one number for every metric, or one per metric */
	double floor_all;		/* NAN: not given */
	double floor[METRIC_COUNT];	/* NAN: not given */
	/* "pass_excludes": the same shapes; unset means twice the floor */
	double excl_all;
	double excl[METRIC_COUNT];
	enum source floor_src, excl_src;	/* where each was given */
};

static const char *const top_keys[] = {
	"version", "build", "defaults", "benchmarks", NULL
};
static const char *const defaults_keys[] = {
	"pairs", "max_pairs", "warmup", "metric", "metrics", "min_effect",
	"pass_excludes", "gate", "counter", "timeout", "parity", "confidence",
	"resamples", "statistic", "interval", "rule", "target_halfwidth", "budget",
	NULL
};
static const char *const bench_keys[] = {
	"name", "run", "pairs", "max_pairs", "warmup", "metric", "metrics",
	"min_effect", "pass_excludes", "gate", "counter", "timeout", "parity",
	"format",
	"expect", "statistic", "interval", "rule", "target_halfwidth", NULL
};
static const char *const metric_list[METRIC_COUNT + 1] = {
	"wall", "cpu", "instructions", "allocs", "alloc_bytes", "frees",
	"max_rss", "minor_faults", "major_faults", "ctx_switches", NULL
};

static const char *const statistic_names[] = { "median", "hl", "mean", NULL };
static const char *const interval_names[] = {
	"exact", "percentile", "bca", NULL
};
static const char *const rule_names[] = { "floor", "significant", NULL };

static void enter(struct parser *p, const char *key, size_t index)
{
	if (p->depth < PATH_MAX_STEPS) {
		p->path[p->depth].key = key;
		p->path[p->depth].index = index;
	}
	p->depth++;
}

static void leave(struct parser *p)
{
	p->depth--;
}

/* Line and column of a value (or its key) at path; 0, or -1 if not found. */
static int position(const struct parser *p, const struct jsonpos_step *path,
		    size_t n, int at_key, size_t *line, size_t *col)
{
	size_t off;
	int r;

	if (n > PATH_MAX_STEPS)
		return -1;
	r = at_key ? jsonpos_key(p->text, p->len, path, n, &off) :
		     jsonpos_value(p->text, p->len, path, n, &off);
	if (r < 0)
		return -1;
	jsonpos_linecol(p->text, p->len, off, line, col);
	return 0;
}

static int vfail(const struct parser *p, int at_key, const char *fmt,
		 va_list ap) PRINTF(3, 0);

static int vfail(const struct parser *p, int at_key, const char *fmt,
		 va_list ap)
{
	char msg[1024];
	size_t line, col;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (position(p, p->path, p->depth, at_key, &line, &col) < 0)
		return error("%s: %s", p->origin, msg);
	return error("%s:%zu:%zu: %s", p->origin, line, col, msg);
}

static int fail_value(const struct parser *p, const char *fmt, ...)
	PRINTF(2, 3);
static int fail_key(const struct parser *p, const char *fmt, ...)
	PRINTF(2, 3);

/* Report an error at the value the current path names; returns -1. */
static int fail_value(const struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(p, 0, fmt, ap);
	va_end(ap);
	return r;
}

/* Report an error at the key of the member the current path names. */
static int fail_key(const struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(p, 1, fmt, ap);
	va_end(ap);
	return r;
}

/*
 * The value at the current path as written in the file, for "got ...":
 * numbers and literals verbatim (so 1e400 reads 1e400, not inf), strings
 * with their quotes and escapes, long ones cut, containers by kind.
 */
static const char *got(const struct parser *p, char *buf, size_t size)
{
	size_t off, end, n, cut;

	if (jsonpos_value(p->text, p->len, p->path, p->depth, &off) < 0 ||
	    jsonpos_skip(p->text, p->len, off, &end) < 0)
		return "something else";
	if (p->text[off] == '{')
		return "an object";
	if (p->text[off] == '[')
		return "an array";
	n = end - off;
	if (n <= 40) {
		snprintf(buf, size, "%.*s", (int)n, p->text + off);
		return buf;
	}
	cut = 36;	/* at a character boundary */
	while (cut > 1 && ((unsigned char)p->text[off + cut] & 0xc0) == 0x80)
		cut--;
	snprintf(buf, size, "%.*s...%s", (int)cut, p->text + off,
		 p->text[off] == '"' ? "\"" : "");
	return buf;
}

/*
 * s in double quotes for a message, control characters escaped and long
 * strings cut; size must be at least 32.
 */
static const char *quote(char *buf, size_t size, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, i;

	buf[o++] = '"';
	for (i = 0; u[i]; i++) {
		unsigned char c = u[i];

		/* Room for one escape, "...", the quote and the NUL. */
		if ((c & 0xc0) != 0x80 && (i >= 60 || o + 16 >= size)) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c == '"' || c == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(buf + o, size - o, "\\u%04x", c);
			o += 6;
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

static const char *ordinal(char *buf, size_t size, size_t n)
{
	const char *suffix = "th";

	if (n % 100 < 11 || n % 100 > 13) {
		if (n % 10 == 1)
			suffix = "st";
		else if (n % 10 == 2)
			suffix = "nd";
		else if (n % 10 == 3)
			suffix = "rd";
	}
	snprintf(buf, size, "%zu%s", n, suffix);
	return buf;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Levenshtein distance ignoring ASCII case; SIZE_MAX past 64 bytes. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65], i, j;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag;

			if (lower((unsigned char)a[i - 1]) !=
			    lower((unsigned char)b[j - 1]))
				best++;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The known key closest to key, if it is a likely misspelling; or NULL. */
static const char *suggest(const char *key, const char *const *known)
{
	const char *best = NULL;
	size_t d, bestd = 3;

	for (; *known; known++) {
		d = distance(key, *known);
		if (d < bestd && d < strlen(key)) {
			bestd = d;
			best = *known;
		}
	}
	return best;
}

/*
 * Check the key of member m (index j) of the object at the current path:
 * known in this scope, and not a repeat (cJSON keeps both copies of a
 * repeated key; one would be silently ignored).
 */
static int check_key(struct parser *p, const cJSON *obj, const cJSON *m,
		     size_t j, enum scope scope, const char *const *known)
{
	const cJSON *q;
	const char *alt;
	char k[128], list[256];
	size_t i, line, col, o;
	int r = 0;

	enter(p, NULL, j);
	quote(k, sizeof(k), m->string);
	if (!in_list(m->string, known)) {
		if (scope == SCOPE_BENCH && in_list(m->string, defaults_keys)) {
			r = fail_key(p, "%s is suite-wide: set it in "
				     "\"defaults\", not %s", k, p->where);
		} else if (scope == SCOPE_DEFAULTS &&
			   (!strcmp(m->string, "name") ||
			    !strcmp(m->string, "run"))) {
			r = fail_key(p, "unknown key %s in \"defaults\": it "
				     "belongs in each benchmark", k);
		} else if (scope == SCOPE_DEFAULTS &&
			   in_list(m->string, top_keys)) {
			r = fail_key(p, "unknown key %s in \"defaults\": it "
				     "belongs at the top level", k);
		} else if (scope == SCOPE_TOP &&
			   in_list(m->string, defaults_keys)) {
			r = fail_key(p, "unknown key %s at the top level: it "
				     "belongs in \"defaults\"%s", k,
				     in_list(m->string, bench_keys) ?
				     " or in a benchmark" : "");
		} else if (scope == SCOPE_TOP &&
			   in_list(m->string, bench_keys)) {
			r = fail_key(p, "unknown key %s at the top level: it "
				     "belongs in each benchmark in "
				     "\"benchmarks\"", k);
		} else if ((alt = suggest(m->string, known))) {
			r = fail_key(p, "unknown key %s %s (did you mean "
				     "\"%s\"?)", k, p->where, alt);
		} else {
			for (o = 0, i = 0; known[i] && o < sizeof(list); i++)
				o += (size_t)snprintf(list + o,
						      sizeof(list) - o, "%s%s",
						      i ? ", " : "", known[i]);
			r = fail_key(p, "unknown key %s %s: known keys are %s",
				     k, p->where, list);
		}
		leave(p);
		return r;
	}
	for (q = obj->child, i = 0; q != m; q = q->next, i++) {
		if (strcmp(q->string, m->string))
			continue;
		p->path[p->depth - 1].index = i;
		if (position(p, p->path, p->depth, 1, &line, &col) < 0)
			line = col = 0;
		p->path[p->depth - 1].index = j;
		r = fail_key(p, "duplicate key %s %s (first at %zu:%zu): "
			     "remove one", k, p->where, line, col);
		break;
	}
	leave(p);
	return r;
}

/* A whole number in [lo, hi] at the current path, for key. */
static int get_whole(const struct parser *p, const cJSON *it, const char *key,
		     unsigned lo, unsigned hi, unsigned *out)
{
	char g[64];
	double d = it->valuedouble;

	if (cJSON_IsNumber(it) && isfinite(d) && d == floor(d) && d >= lo &&
	    d <= hi) {
		*out = (unsigned)d;
		return 0;
	}
	return fail_value(p, "\"%s\" must be a whole number from %u to %u, "
			  "got %s", key, lo, hi, got(p, g, sizeof(g)));
}

static int is_finite_number(const cJSON *it)
{
	return cJSON_IsNumber(it) && isfinite(it->valuedouble);
}

/* One of the strings in names, stored as its index. */
static int get_choice(const struct parser *p, const cJSON *it,
		      const char *key, const char *const *names, int *out)
{
	char g[64], list[128] = "";
	size_t i, o = 0;

	for (i = 0; cJSON_IsString(it) && names[i]; i++) {
		if (!strcmp(it->valuestring, names[i])) {
			*out = (int)i;
			return 0;
		}
	}
	for (i = 0; names[i]; i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s\"%s\"",
				      i == 0 ? "" : names[i + 1] ? ", " :
				      " or ", names[i]);
	return fail_value(p, "\"%s\" must be %s, got %s", key, list,
			  got(p, g, sizeof(g)));
}

/* A metric name at the current path (a string), or -1 after an error. */
static int metric_id(const struct parser *p, const cJSON *it, const char *key)
{
	const char *alt;
	char g[64];
	int id = metric_lookup(it->valuestring);

	if (id >= 0)
		return id;
	alt = suggest(it->valuestring, metric_list);
	if (alt)
		return fail_value(p, "\"%s\" names an unknown metric %s (did "
				  "you mean \"%s\"?)", key,
				  got(p, g, sizeof(g)), alt);
	return fail_value(p, "\"%s\" names an unknown metric %s: known "
			  "metrics are %s", key, got(p, g, sizeof(g)),
			  metric_names());
}

/* A non-empty list of distinct metric names, in order, into list[*n]. */
static int parse_names(struct parser *p, const cJSON *it, const char *key,
		       int *list, size_t *n)
{
	const cJSON *e;
	size_t i, j;
	char g[64];
	int id, r = 0;

	if (!cJSON_IsArray(it) || !it->child)
		return fail_value(p, "\"%s\" must be a non-empty list of metric "
				  "names such as [\"wall\", \"instructions\"], "
				  "got %s", key, got(p, g, sizeof(g)));
	*n = 0;
	for (e = it->child, i = 0; e && r == 0; e = e->next, i++) {
		enter(p, NULL, i);
		if (!cJSON_IsString(e)) {
			r = fail_value(p, "each element of \"%s\" must be a "
				       "metric name such as \"wall\", got %s",
				       key, got(p, g, sizeof(g)));
		} else if ((id = metric_id(p, e, key)) < 0) {
			r = -1;
		} else {
			for (j = 0; j < *n && list[j] != id; j++)
				;
			if (j < *n)
				r = fail_value(p, "\"%s\" names %s twice: "
					       "remove one", key,
					       got(p, g, sizeof(g)));
			else
				list[(*n)++] = id;
		}
		leave(p);
	}
	return r;
}

static int parse_metric_list(struct parser *p, const cJSON *it,
			     const char *key, struct knobs *k)
{
	int list[METRIC_COUNT];
	size_t n, i;

	if (parse_names(p, it, key, list, &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		k->b.metrics[i].id = (enum metric)list[i];
	k->b.nmetrics = n;
	return 0;
}

static int check_floor(const struct parser *p, const cJSON *it,
		       const char *what, double *out)
{
	char g[64];
	double d = it->valuedouble;

	if (is_finite_number(it) && d >= 0 && d < 10) {
		*out = d;
		return 0;
	}
	return fail_value(p, "%s must be a fraction from 0 to below 10 (0.05 "
			  "means 5%%), got %s", what, got(p, g, sizeof(g)));
}

/*
 * "min_effect" or "pass_excludes" (key): a number (every metric's) or an
 * object of fractions by metric name, into *all or by[]. The whole value
 * replaces the one from "defaults".
 */
static int parse_by_metric(struct parser *p, const cJSON *it,
			   const char *key, double *all, double *by)
{
	const cJSON *e;
	char g[64], what[64];
	size_t j;
	int i, id;

	*all = NAN;
	for (i = 0; i < METRIC_COUNT; i++)
		by[i] = NAN;
	snprintf(what, sizeof(what), "\"%s\"", key);
	if (!cJSON_IsObject(it)) {
		if (!is_finite_number(it))
			return fail_value(p, "\"%s\" must be a fraction "
					  "such as 0.05 (5%%) or an object of "
					  "fractions by metric such as "
					  "{\"wall\": 0.05, \"instructions\": "
					  "0.01}, got %s", key,
					  got(p, g, sizeof(g)));
		return check_floor(p, it, what, all);
	}
	for (e = it->child, j = 0; e; e = e->next, j++) {
		const char *alt;

		enter(p, NULL, j);
		id = metric_lookup(e->string);
		if (id < 0) {
			alt = suggest(e->string, metric_list);
			fail_key(p, "\"%s\" names an unknown metric "
				 "\"%s\"%s%s%s", key, e->string,
				 alt ? " (did you mean \"" : ": known metrics "
				 "are ", alt ? alt : metric_names(),
				 alt ? "\"?)" : "");
			return -1;
		}
		if (!isnan(by[id]))
			return fail_key(p, "\"%s\" gives \"%s\" twice: "
					"remove one", key, e->string);
		snprintf(what, sizeof(what), "\"%s\" of \"%s\"", key,
			 e->string);
		if (check_floor(p, e, what, &by[id]) < 0)
			return -1;
		leave(p);
	}
	return 0;
}

/* "metric" and "metrics" in one object: one would silently win. */
static int check_metric_pair(struct parser *p, const cJSON *obj)
{
	const cJSON *m;
	size_t j;

	if (!cJSON_GetObjectItemCaseSensitive(obj, "metric") ||
	    !cJSON_GetObjectItemCaseSensitive(obj, "metrics"))
		return 0;
	for (m = obj->child, j = 0; strcmp(m->string, "metrics");
	     m = m->next, j++)
		;
	enter(p, NULL, j);
	return fail_key(p, "both \"metric\" and \"metrics\" %s: keep "
			"\"metrics\", a list such as [\"wall\"]", p->where);
}

/* A setting allowed in "defaults" and in each benchmark. */
static int parse_knob(struct parser *p, const cJSON *m, struct knobs *k,
		      enum source src)
{
	const char *key = m->string;
	double d = m->valuedouble;
	char g[64];

	if (!strcmp(key, "pairs")) {
		k->pairs_src = src;
		return get_whole(p, m, key, 2, 10000, &k->b.pairs);
	}
	if (!strcmp(key, "max_pairs")) {
		/* Checked against "pairs" once the benchmark is complete. */
		k->max_src = src;
		return get_whole(p, m, key, 2, 100000, &k->b.max_pairs);
	}
	if (!strcmp(key, "warmup")) {
		k->warmup_src = src;
		return get_whole(p, m, key, 0, 1000, &k->b.warmup);
	}
	if (!strcmp(key, "metric")) {
		int id;

		if (!cJSON_IsString(m) || (id = metric_id(p, m, key)) < 0)
			return cJSON_IsString(m) ? -1 :
			       fail_value(p, "\"metric\" must be a metric name "
					  "such as \"wall\" (known: %s), got %s",
					  metric_names(), got(p, g, sizeof(g)));
		k->b.metrics[0].id = (enum metric)id;
		k->b.nmetrics = 1;
		return 0;
	}
	if (!strcmp(key, "metrics"))
		return parse_metric_list(p, m, key, k);
	if (!strcmp(key, "gate")) {
		int list[METRIC_COUNT];
		size_t n, i;

		if (parse_names(p, m, key, list, &n) < 0)
			return -1;
		memset(k->gating, 0, sizeof(k->gating));
		for (i = 0; i < n; i++)
			k->gating[list[i]] = 1;
		k->gate_set = 1;
		return 0;
	}
	if (!strcmp(key, "counter")) {
		static const char *const names[] = { "auto", "perf",
						     "valgrind" };
		int i;

		for (i = 0; i < 3 && cJSON_IsString(m); i++)
			if (!strcmp(m->valuestring, names[i])) {
				k->b.counter = (enum counter)i;
				return 0;
			}
		return fail_value(p, "\"counter\" must be \"auto\", \"perf\" "
				  "or \"valgrind\", got %s",
				  got(p, g, sizeof(g)));
	}
	if (!strcmp(key, "min_effect")) {
		k->floor_src = src;
		return parse_by_metric(p, m, key, &k->floor_all, k->floor);
	}
	if (!strcmp(key, "pass_excludes")) {
		k->excl_src = src;
		return parse_by_metric(p, m, key, &k->excl_all, k->excl);
	}
	if (!strcmp(key, "timeout")) {
		if (is_finite_number(m) && d > 0 && d <= 86400) {
			k->b.timeout = d;
			return 0;
		}
		return fail_value(p, "\"timeout\" must be a number of seconds "
				  "above 0 and at most 86400, got %s",
				  got(p, g, sizeof(g)));
	}
	if (!strcmp(key, "statistic"))
		return get_choice(p, m, key, statistic_names,
				  (int *)&k->b.statistic);
	if (!strcmp(key, "interval"))
		return get_choice(p, m, key, interval_names,
				  (int *)&k->b.interval);
	if (!strcmp(key, "rule"))
		return get_choice(p, m, key, rule_names, (int *)&k->b.rule);
	if (!strcmp(key, "target_halfwidth")) {
		if (is_finite_number(m) && d > 0 && d < 10) {
			k->b.target_halfwidth = d;
			return 0;
		}
		return fail_value(p, "\"target_halfwidth\" must be a fraction "
				  "above 0 and below 10 (0.02 means an "
				  "interval of +-2%%), got %s",
				  got(p, g, sizeof(g)));
	}
	if (!strcmp(key, "parity")) {
		if (cJSON_IsBool(m)) {
			k->b.parity = cJSON_IsTrue(m);
			return 0;
		}
		return fail_value(p, "\"parity\" must be true or false, got %s",
				  got(p, g, sizeof(g)));
	}
	return fail_value(p, "internal error: no rule for key \"%s\"", key);
}

/* A string (run by /bin/sh -c) or a list of strings (argv) into *out. */
static int parse_command(struct parser *p, const cJSON *it, const char *key,
			 const char *example, struct command *out)
{
	struct command c = { NULL, NULL };
	const cJSON *e;
	size_t n, i;
	char g[64];

	if (cJSON_IsString(it)) {
		if (!it->valuestring[strspn(it->valuestring, " \t\n\r\f\v")])
			return fail_value(p, "\"%s\" is an empty command: give "
					  "one, such as \"%s\"", key, example);
		out->shell = xstrdup(it->valuestring);
		return 0;
	}
	if (!cJSON_IsArray(it))
		return fail_value(p, "\"%s\" must be a command string or a "
				  "list of strings (program and arguments), "
				  "got %s%s", key, got(p, g, sizeof(g)),
				  cJSON_IsNull(it) && !strcmp(key, "build") ?
				  " (leave \"build\" out when there is nothing "
				  "to build)" : "");
	for (n = 0, e = it->child; e; e = e->next)
		n++;
	if (!n)
		return fail_value(p, "\"%s\" is an empty list: give the "
				  "program and its arguments, such as "
				  "[\"%s\"]", key, example);
	c.argv = xcalloc(n + 1, sizeof(*c.argv));
	for (i = 0, e = it->child; e; e = e->next, i++) {
		if (!cJSON_IsString(e) || !*e->valuestring) {
			int r;

			enter(p, NULL, i);
			r = fail_value(p, "each element of \"%s\" must be a "
				       "non-empty string, got %s", key,
				       got(p, g, sizeof(g)));
			leave(p);
			command_release(&c);
			return r;
		}
		c.argv[i] = xstrdup(e->valuestring);
	}
	*out = c;
	return 0;
}

/* It becomes a file name and a report key: say so when refusing one. */
static int check_name(const struct parser *p, const cJSON *it)
{
	const unsigned char *s;
	size_t n;
	char g[64];

	if (!cJSON_IsString(it))
		return fail_value(p, "\"name\" must be a string such as "
				  "\"parse\", got %s", got(p, g, sizeof(g)));
	s = (const unsigned char *)it->valuestring;
	n = strlen(it->valuestring);
	if (!n)
		return fail_value(p, "\"name\" is empty: give the benchmark a "
				  "name, such as \"parse\"");
	if (n > NAME_MAX_LEN)
		return fail_value(p, "\"name\" is %zu characters long, more "
				  "than %d: it becomes a file name and a "
				  "report key", n, NAME_MAX_LEN);
	for (; *s; s++) {
		if (*s == '/')
			return fail_value(p, "\"name\" %s contains '/': it "
					  "becomes a file name and a report "
					  "key", got(p, g, sizeof(g)));
		if (*s < 0x20 || *s > 0x7e)
			return fail_value(p, "\"name\" %s is not printable "
					  "ASCII: it becomes a file name and a "
					  "report key", got(p, g, sizeof(g)));
	}
	if (!strcmp(it->valuestring, ".") || !strcmp(it->valuestring, ".."))
		return fail_value(p, "\"name\" cannot be \".\" or \"..\": it "
				  "becomes a file name");
	return 0;
}

int config_parse_duration(const char *s, double *out)
{
	char *end;
	double v, unit = 1;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return -1;
	if (!strcmp(end, "ms"))
		unit = 0.001;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		unit = 60;
	else if (!strcmp(end, "h"))
		unit = 3600;
	else if (strcmp(end, "s") && *end)
		return -1;
	v *= unit;
	if (!isfinite(v) || !(v > 0))
		return -1;
	*out = v;
	return 0;
}

/* The "max_pairs" rule, once a benchmark's settings are all known. */
static int check_max_pairs(struct parser *p, struct knobs *k, size_t i)
{
	char g[64];
	size_t line, col;

	if (k->max_src == SRC_BUILTIN) {
		k->b.max_pairs = k->b.pairs > CONFIG_DEFAULT_MAX_PAIRS ?
				 k->b.pairs : CONFIG_DEFAULT_MAX_PAIRS;
		return 0;
	}
	if (k->b.max_pairs >= k->b.pairs)
		return 0;
	p->depth = 0;
	if (k->max_src == SRC_DEFAULTS && k->pairs_src == SRC_BENCH) {
		/* Point at this benchmark's "pairs": it is what clashes. */
		enter(p, "defaults", 0);
		enter(p, "max_pairs", 0);
		if (position(p, p->path, p->depth, 0, &line, &col) < 0)
			line = col = 0;
		p->depth = 0;
		enter(p, "benchmarks", 0);
		enter(p, NULL, i);
		enter(p, "pairs", 0);
		return fail_value(p, "\"pairs\" %u %s is above \"max_pairs\" "
				  "%u from \"defaults\" (at %zu:%zu): set "
				  "\"max_pairs\" in this benchmark too",
				  k->b.pairs, p->where, k->b.max_pairs, line,
				  col);
	}
	if (k->max_src == SRC_DEFAULTS) {
		enter(p, "defaults", 0);
	} else {
		enter(p, "benchmarks", 0);
		enter(p, NULL, i);
	}
	enter(p, "max_pairs", 0);
	return fail_value(p, "\"max_pairs\" must be a whole number from %u to "
			  "100000 (not below \"pairs\"), got %s", k->b.pairs,
			  got(p, g, sizeof(g)));
}

/* Point p at key where knob src gave it (p is at the benchmark). */
static void point_at(struct parser *p, enum source src, const char *key)
{
	if (src == SRC_DEFAULTS) {
		p->depth = 0;
		enter(p, "defaults", 0);
	}
	enter(p, key, 0);
}

/*
 * A metric's floor f and pass_excludes m together: m below f would let a
 * pass accept a regression a fail needs less to show; a count decided
 * exactly needs a floor above what its exactness tolerance lets identical
 * code show.
 */
static int check_metric_floors(struct parser *p, const struct knobs *k,
			       const struct metric_cfg *mc)
{
	const char *name = metric_name(mc->id);

	if (mc->pass_excludes < mc->min_effect) {
		point_at(p, k->excl_src, "pass_excludes");
		return fail_value(p, "\"pass_excludes\" of \"%s\" (%g) is "
				  "below its \"min_effect\" (%g) %s: a pass "
				  "must exclude at least the floor; set it to "
				  "%g or more (the default is twice the "
				  "floor)", name, mc->pass_excludes,
				  mc->min_effect, p->where, mc->min_effect);
	}
	if (mc->gating && metric_desc(mc->id)->exact &&
	    mc->min_effect < METRIC_EXACT_MIN_FLOOR) {
		point_at(p, k->floor_src, "min_effect");
		return fail_value(p, "\"min_effect\" of \"%s\" is %g %s, but "
				  "counts that agree within %g%% are decided "
				  "exactly, so identical code could fail: "
				  "give \"%s\" a floor of at least %g, such as "
				  "{\"%s\": %g}", name, mc->min_effect,
				  p->where, METRIC_EXACT_TOLERANCE * 100,
				  name, METRIC_EXACT_MIN_FLOOR, name,
				  METRIC_EXACT_FLOOR);
	}
	return 0;
}

/*
 * A benchmark's metrics once all its settings are known: floors, which
 * gate, the primary metric; and fewer pairs by default when every metric
 * is an exact count (no interval is needed when the counts agree).
 */
static int resolve_metrics(struct parser *p, struct knobs *k,
			   struct bench_cfg *out)
{
	size_t i, ngate = 0;
	int all_exact = 1;

	out->nmetrics = k->b.nmetrics;
	for (i = 0; i < k->b.nmetrics; i++) {
		struct metric_cfg *mc = &out->metrics[i];
		const struct metric_desc *d;

		mc->id = k->b.metrics[i].id;
		d = metric_desc(mc->id);
		mc->min_effect = !isnan(k->floor[mc->id]) ? k->floor[mc->id] :
				 !isnan(k->floor_all) ? k->floor_all :
				 d->floor;
		mc->pass_excludes = !isnan(k->excl[mc->id]) ?
				    k->excl[mc->id] : !isnan(k->excl_all) ?
				    k->excl_all : 2 * mc->min_effect;
		mc->gating = !k->gate_set || k->gating[mc->id];
		if (check_metric_floors(p, k, mc) < 0)
			return -1;
		all_exact &= d->exact;
		if (mc->gating && ngate++ == 0) {
			out->metric = mc->id;
			out->min_effect = mc->min_effect;
		}
	}
	if (k->gate_set) {
		int m;

		for (m = 0; m < METRIC_COUNT; m++)
			if (k->gating[m] && !bench_has_metric(out,
							      (enum metric)m))
				return fail_value(p, "\"gate\" names \"%s\", "
						  "which is not among the "
						  "metrics %s: add it to "
						  "\"metrics\" or remove it "
						  "from \"gate\"",
						  metric_name((enum metric)m),
						  p->where);
	}
	if (ngate == 0)
		return fail_value(p, "no metric %s gates: name at least one in "
				  "\"gate\"", p->where);
	/*
	 * "defaults" size the timed benchmarks: an exact-only one keeps its
	 * own 3 pairs and no warm-up unless it sets them itself (20 pairs
	 * under valgrind would cost minutes for what 3 decide).
	 */
	if (all_exact) {
		if (k->pairs_src != SRC_BENCH)
			k->b.pairs = METRIC_EXACT_PAIRS;
		if (k->warmup_src != SRC_BENCH)
			k->b.warmup = METRIC_EXACT_WARMUP;
	}
	return 0;
}

static int parse_format(const struct parser *p, const cJSON *m,
			struct bench_cfg *out)
{
	char g[64];

	if (cJSON_IsString(m) && format_lookup(&out->format,
					       m->valuestring) == 0 &&
	    out->format != FORMAT_GATE)
		return 0;
	return fail_value(p, "\"format\" must be one of %s, got %s",
			  format_names(), got(p, g, sizeof(g)));
}

/* A list of case patterns, each a valid POSIX extended regex. */
static int parse_expect(struct parser *p, const cJSON *m,
			struct bench_cfg *out)
{
	const cJSON *e;
	size_t i = 0, n = 0;
	char g[64], msg[128];
	regex_t rx;
	int rc;

	if (!cJSON_IsArray(m))
		return fail_value(p, "\"expect\" must be a list of case name "
				  "patterns such as [\"^BM_sort\"], got %s",
				  got(p, g, sizeof(g)));
	cJSON_ArrayForEach(e, m)
		n++;
	out->expect = xcalloc(n + 1, sizeof(*out->expect));
	cJSON_ArrayForEach(e, m) {
		enter(p, NULL, i);
		if (!cJSON_IsString(e) || !*e->valuestring)
			return fail_value(p, "each element of \"expect\" must "
					  "be a non-empty pattern, got %s",
					  got(p, g, sizeof(g)));
		rc = regcomp(&rx, e->valuestring, REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			regerror(rc, &rx, msg, sizeof(msg));
			return fail_value(p, "%s is not a valid POSIX extended "
					  "regular expression: %s",
					  got(p, g, sizeof(g)), msg);
		}
		regfree(&rx);
		out->expect[i++] = xstrdup(e->valuestring);
		out->nexpect = i;
		leave(p);
	}
	return 0;
}

static int parse_bench(struct parser *p, const cJSON *it, size_t i,
		       const struct knobs *defaults, struct bench_cfg *out)
{
	const cJSON *m, *name;
	struct knobs k = *defaults;
	char g[64], ord[32];
	int have_name = 0, have_run = 0;
	size_t j;

	enter(p, NULL, i);
	if (!cJSON_IsObject(it))
		return fail_value(p, "each benchmark must be an object like "
				  EXAMPLE_BENCH ", got %s",
				  got(p, g, sizeof(g)));
	/* Name it in messages when its "name" is usable, else by position. */
	name = cJSON_GetObjectItemCaseSensitive(it, "name");
	if (cJSON_IsString(name) && *name->valuestring &&
	    strlen(name->valuestring) <= NAME_MAX_LEN)
		snprintf(p->where, sizeof(p->where), "in benchmark %s",
			 quote(g, sizeof(g), name->valuestring));
	else
		snprintf(p->where, sizeof(p->where), "in the %s benchmark",
			 ordinal(ord, sizeof(ord), i + 1));
	if (check_metric_pair(p, it) < 0)
		return -1;
	for (m = it->child, j = 0; m; m = m->next, j++) {
		int r;

		if (check_key(p, it, m, j, SCOPE_BENCH, bench_keys) < 0)
			return -1;
		enter(p, NULL, j);
		if (!strcmp(m->string, "name")) {
			have_name = 1;
			r = check_name(p, m);
			if (!r)
				out->name = xstrdup(m->valuestring);
		} else if (!strcmp(m->string, "run")) {
			have_run = 1;
			r = parse_command(p, m, "run", "./bench", &out->run);
		} else if (!strcmp(m->string, "format")) {
			r = parse_format(p, m, out);
		} else if (!strcmp(m->string, "expect")) {
			r = parse_expect(p, m, out);
		} else {
			r = parse_knob(p, m, &k, SRC_BENCH);
		}
		if (r < 0)
			return -1;
		leave(p);
	}
	if (!have_name)
		return fail_value(p, "the %s benchmark has no \"name\": add "
				  "one, such as \"name\": \"parse\"",
				  ordinal(ord, sizeof(ord), i + 1));
	if (!have_run)
		return fail_value(p, "benchmark %s has no \"run\": add the "
				  "command, such as \"run\": [\"./bench\"]",
				  quote(g, sizeof(g), out->name));
	if (resolve_metrics(p, &k, out) < 0 || check_max_pairs(p, &k, i) < 0)
		return -1;
	out->pairs = k.b.pairs;
	out->max_pairs = k.b.max_pairs;
	out->warmup = k.b.warmup;
	out->counter = k.b.counter;
	out->timeout = k.b.timeout;
	out->parity = k.b.parity;
	out->statistic = k.b.statistic;
	out->interval = k.b.interval;
	out->rule = k.b.rule;
	/* unset: resolved once the interval is as narrow as the floor */
	out->target_halfwidth = k.b.target_halfwidth > 0 ?
				k.b.target_halfwidth : out->min_effect;
	if (out->format != FORMAT_TIME)
		out->parity = 0;	/* a suite prints its timings */
	if (out->format != FORMAT_TIME) {
		size_t q;

		/* a suite's cases are values it prints, not process counts */
		for (q = 0; q < out->nmetrics; q++)
			if (metric_desc(out->metrics[q].id)->source !=
			    SOURCE_CLOCK)
				return fail_value(p, "benchmark %s has a suite "
						  "\"format\": its metric can "
						  "be \"wall\" or \"cpu\" (the "
						  "time each case reports), not "
						  "\"%s\"", quote(g, sizeof(g),
						  out->name), metric_name(
						  out->metrics[q].id));
	}
	if (out->nexpect && out->format == FORMAT_TIME) {
		enter(p, "expect", 0);
		return fail_value(p, "\"expect\" lists the cases of a suite, "
				  "but benchmark %s has no suite \"format\" "
				  "(one of %s)", quote(g, sizeof(g), out->name),
				  format_names());
	}
	leave(p);
	return 0;
}

static int parse_defaults(struct parser *p, const cJSON *it, struct knobs *k,
			  struct config *cfg)
{
	const cJSON *m;
	size_t j;
	char g[64];

	enter(p, "defaults", 0);
	if (!cJSON_IsObject(it))
		return fail_value(p, "\"defaults\" must be an object like "
				  "{\"pairs\": 20}, got %s",
				  got(p, g, sizeof(g)));
	snprintf(p->where, sizeof(p->where), "in \"defaults\"");
	if (check_metric_pair(p, it) < 0)
		return -1;
	for (m = it->child, j = 0; m; m = m->next, j++) {
		double d = m->valuedouble;
		int r;

		if (check_key(p, it, m, j, SCOPE_DEFAULTS, defaults_keys) < 0)
			return -1;
		enter(p, NULL, j);
		if (!strcmp(m->string, "confidence")) {
			r = 0;
			if (is_finite_number(m) && d > 0.5 && d < 1)
				cfg->confidence = d;
			else
				r = fail_value(p, "\"confidence\" must be a "
					       "number above 0.5 and below 1, "
					       "such as 0.95, got %s",
					       got(p, g, sizeof(g)));
		} else if (!strcmp(m->string, "resamples")) {
			r = get_whole(p, m, "resamples", 1000, 1000000,
				      &cfg->resamples);
		} else if (!strcmp(m->string, "budget")) {
			/* the whole run's measuring time, not per benchmark */
			r = 0;
			if (is_finite_number(m) && d > 0)
				cfg->budget = d;
			else if (!cJSON_IsString(m) ||
				 config_parse_duration(m->valuestring,
						       &cfg->budget) < 0)
				r = fail_value(p, "\"budget\" must be a "
					       "positive duration such as "
					       "\"5m\", \"90s\" or 300 "
					       "(seconds), got %s",
					       got(p, g, sizeof(g)));
		} else {
			r = parse_knob(p, m, k, SRC_DEFAULTS);
		}
		if (r < 0)
			return -1;
		leave(p);
	}
	leave(p);
	return 0;
}

static int parse_version(struct parser *p, const cJSON *it,
			 struct config *cfg)
{
	double d = it->valuedouble;
	char g[64];

	enter(p, "version", 0);
	if (!is_finite_number(it) || d != floor(d) || d < 1)
		return fail_value(p, "\"version\" must be a whole number such "
				  "as %d, got %s", CONFIG_VERSION,
				  got(p, g, sizeof(g)));
	if (d > CONFIG_VERSION)
		return fail_value(p, "\"version\" %s is newer than this gate "
				  "understands (%d): upgrade gate",
				  got(p, g, sizeof(g)), CONFIG_VERSION);
	cfg->version = (int)d;
	leave(p);
	return 0;
}

struct named {
	const char *name;
	size_t index;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Names key files and reports, so they must be unique. Sorting finds
 * repeats in O(n log n); we report the repeat that comes first in the file.
 */
static int check_unique_names(struct parser *p, const struct config *cfg)
{
	struct named *v;
	size_t i, start = 0, first = 0, dup = (size_t)-1, line, col;
	char q[128];

	if (cfg->nbench < 2)
		return 0;
	v = xcalloc(cfg->nbench, sizeof(*v));
	for (i = 0; i < cfg->nbench; i++) {
		v[i].name = cfg->benches[i].name;
		v[i].index = i;
	}
	qsort(v, cfg->nbench, sizeof(*v), cmp_named);
	for (i = 1; i < cfg->nbench; i++) {
		if (strcmp(v[i - 1].name, v[i].name)) {
			start = i;
			continue;
		}
		if (i == start + 1 && v[i].index < dup) {
			dup = v[i].index;
			first = v[start].index;
		}
	}
	free(v);
	if (dup == (size_t)-1)
		return 0;
	p->depth = 0;
	enter(p, "benchmarks", 0);
	enter(p, NULL, first);
	enter(p, "name", 0);
	if (position(p, p->path, p->depth, 0, &line, &col) < 0)
		line = col = 0;
	p->path[1].index = dup;
	return fail_value(p, "duplicate benchmark name %s (first at %zu:%zu)",
			  quote(q, sizeof(q), cfg->benches[dup].name), line,
			  col);
}

static int parse_top(struct parser *p, const cJSON *root, struct config *cfg)
{
	const cJSON *m, *it;
	struct knobs k;
	size_t j, n, i;
	char g[64];

	if (!cJSON_IsObject(root))
		return fail_value(p, "the top level must be an object like "
				  "{\"benchmarks\": [" EXAMPLE_BENCH "]}, "
				  "got %s", got(p, g, sizeof(g)));
	/* First, so a newer file is not misreported as having unknown keys. */
	it = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (it && parse_version(p, it, cfg) < 0)
		return -1;
	snprintf(p->where, sizeof(p->where), "at the top level");
	for (m = root->child, j = 0; m; m = m->next, j++)
		if (check_key(p, root, m, j, SCOPE_TOP, top_keys) < 0)
			return -1;

	it = cJSON_GetObjectItemCaseSensitive(root, "build");
	if (it) {
		enter(p, "build", 0);
		if (parse_command(p, it, "build", "make", &cfg->build) < 0)
			return -1;
		leave(p);
	}

	memset(&k, 0, sizeof(k));
	k.b.pairs = CONFIG_DEFAULT_PAIRS;
	k.b.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
	k.b.warmup = CONFIG_DEFAULT_WARMUP;
	k.b.metrics[0].id = METRIC_WALL;
	k.b.nmetrics = 1;
	k.b.counter = COUNTER_AUTO;
	k.floor_all = k.excl_all = NAN;
	for (i = 0; i < METRIC_COUNT; i++)
		k.floor[i] = k.excl[i] = NAN;
	k.floor_src = k.excl_src = SRC_BUILTIN;
	k.b.timeout = CONFIG_DEFAULT_TIMEOUT;
	k.b.parity = 1;
	k.b.statistic = CONFIG_DEFAULT_STATISTIC;
	k.b.interval = CONFIG_DEFAULT_INTERVAL;
	k.b.rule = RULE_FLOOR;
	k.b.target_halfwidth = 0;
	k.pairs_src = k.max_src = k.warmup_src = SRC_BUILTIN;
	cfg->confidence = CONFIG_DEFAULT_CONFIDENCE;
	cfg->resamples = CONFIG_DEFAULT_RESAMPLES;
	cfg->budget = CONFIG_DEFAULT_BUDGET;
	it = cJSON_GetObjectItemCaseSensitive(root, "defaults");
	if (it && parse_defaults(p, it, &k, cfg) < 0)
		return -1;

	it = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
	if (!it)
		return error("%s: \"benchmarks\" is missing: add a list like "
			     "[" EXAMPLE_BENCH "]", p->origin);
	enter(p, "benchmarks", 0);
	if (!cJSON_IsArray(it))
		return fail_value(p, "\"benchmarks\" must be a list like ["
				  EXAMPLE_BENCH "], got %s",
				  got(p, g, sizeof(g)));
	for (n = 0, m = it->child; m; m = m->next)
		n++;
	if (!n)
		return fail_value(p, "\"benchmarks\" is empty: add a benchmark "
				  "like " EXAMPLE_BENCH);
	cfg->benches = xcalloc(n, sizeof(*cfg->benches));
	for (i = 0, m = it->child; m; m = m->next, i++) {
		/* Counted first, so config_release frees a partial entry. */
		cfg->nbench = i + 1;
		if (parse_bench(p, m, i, &k, &cfg->benches[i]) < 0)
			return -1;
	}
	leave(p);
	return check_unique_names(p, cfg);
}

static int only_whitespace(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

int config_parse(struct config *cfg, const char *text, size_t len,
		 const char *origin)
{
	static const struct config init = CONFIG_INIT;
	struct parser p;
	struct jsonpos_error jerr;
	cJSON *root;
	const char *end = NULL;
	char *copy;
	size_t line, col, off;
	int ret;

	*cfg = init;
	if (!origin)
		origin = "gate.json";
	if (!text)
		len = 0;
	if (len > CONFIG_MAX_BYTES)
		return error("%s: the configuration is %zu bytes, more than "
			     "the %d MiB gate reads: is it the right file?",
			     origin, len, CONFIG_MAX_MIB);
	/* Skip a byte order mark: editors hide it, so columns then match. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	if (only_whitespace(text, len))
		return error("%s: the configuration is empty: write an object "
			     "like {\"benchmarks\": [" EXAMPLE_BENCH "]}",
			     origin);
	if (jsonpos_check(text, len, &jerr) < 0) {
		jsonpos_linecol(text, len, jerr.off, &line, &col);
		return error("%s:%zu:%zu: %s", origin, line, col, jerr.msg);
	}

	/* cJSON gets its own NUL-terminated copy: text need not be one. */
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	root = cJSON_ParseWithLengthOpts(copy, len, &end, 0);
	if (!root) {
		/* jsonpos_check is stricter, so this is cJSON out of memory. */
		off = end && end >= copy && end <= copy + len ?
		      (size_t)(end - copy) : 0;
		jsonpos_linecol(text, len, off, &line, &col);
		free(copy);
		return error("%s:%zu:%zu: cJSON could not parse the "
			     "configuration here (out of memory?)", origin,
			     line, col);
	}

	memset(&p, 0, sizeof(p));
	p.text = copy;
	p.len = len;
	p.origin = origin;
	ret = parse_top(&p, root, cfg);
	cJSON_Delete(root);
	free(copy);
	if (ret < 0)
		config_release(cfg);
	return ret;
}

void config_release(struct config *cfg)
{
	static const struct config init = CONFIG_INIT;
	size_t i;

	for (i = 0; i < cfg->nbench; i++) {
		size_t j;

		free(cfg->benches[i].name);
		command_release(&cfg->benches[i].run);
		for (j = 0; j < cfg->benches[i].nexpect; j++)
			free(cfg->benches[i].expect[j]);
		free(cfg->benches[i].expect);
	}
	free(cfg->benches);
	command_release(&cfg->build);
	*cfg = init;
}

const struct bench_cfg *config_find(const struct config *cfg,
				    const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < cfg->nbench; i++)
		if (cfg->benches[i].name && !strcmp(cfg->benches[i].name, name))
			return &cfg->benches[i];
	return NULL;
}

int bench_has_metric(const struct bench_cfg *b, enum metric m)
{
	size_t i;


	for (i = 0; i < b->nmetrics; i++)
		if (b->metrics[i].id == m)
			return 1;
	return 0;
}

void command_release(struct command *c)
{
	size_t i;

	if (c->argv) {
		for (i = 0; c->argv[i]; i++)
			free(c->argv[i]);
		free(c->argv);
	}
	free(c->shell);
	c->argv = NULL;
	c->shell = NULL;
}

void command_copy(struct command *dst, const struct command *src)
{
	size_t n, i;

	dst->argv = NULL;
	dst->shell = src->shell ? xstrdup(src->shell) : NULL;
	if (!src->argv)
		return;
	for (n = 0; src->argv[n]; n++)
		;
	dst->argv = xcalloc(n + 1, sizeof(*dst->argv));
	for (i = 0; i < n; i++)
		dst->argv[i] = xstrdup(src->argv[i]);
}

const char *interval_name(enum interval_method m)
{
	return interval_names[m];
}

const char *rule_name(enum rule r)
{
	return rule_names[r];
}
