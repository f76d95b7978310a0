/*
 * gate.json, one key at a time: which keys each object knows (with a
 * suggestion for a misspelt one), and each value's type and range, read
 * into a benchmark's knobs or the config.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "common/number.h"
#include "gate/config/config-internal.h"
#include "gate/config/config-table.h"
#include "common/banned.h"

/*
 * The names gate.json may use, NULL-terminated, from their one table each
 * (gate/config/metrics.c, stats/rank.c): metrics a benchmark may name, and the
 * statistics in enum stats_estimator's order.
 */
static const char *const *metric_list(void)
{
	static const char *list[METRIC_COUNT + 1];
	size_t n = 0;
	int i;

	if (list[0])
		return list;
	for (i = 0; i < METRIC_COUNT; i++)
		if (metric_lookup(metric_name((enum metric)i)) == i)
			list[n++] = metric_name((enum metric)i);
	return list;
}

static const char *const interval_names[] = {
	"exact", "percentile", "bca", "mann_whitney", NULL
};
static const char *const rule_names[] = { "floor", "significant", NULL };

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

static const unsigned scope_bit[] = { KEY_TOP, KEY_DEFAULTS, KEY_BENCH };

/* The names of the keys known in scope, NULL-terminated, in table order. */
static const char *const *known_in(enum scope scope)
{
	static const char *lists[3][64];
	const struct config_key *t;
	size_t n, i, o = 0;

	if (lists[scope][0])
		return lists[scope];
	t = config_key_table(&n);
	for (i = 0; i < n && o + 1 < 64; i++)
		if (t[i].scope & scope_bit[scope])
			lists[scope][o++] = t[i].name;
	return lists[scope];
}

/* Why key k (member m) is not known in scope, at its key; returns -1. */
static int unknown_key(struct parser *p, const cJSON *m, const char *k,
		       enum scope scope)
{
	const struct config_key *row = config_key_find(m->string);
	const char *const *known = known_in(scope);
	const char *alt;
	char list[512];
	size_t i, o;

	if (row && scope == SCOPE_BENCH && (row->scope & KEY_DEFAULTS))
		return config_fail_key(p, "%s is suite-wide: set it in "
				       "\"defaults\", not %s", k, p->where);
	if (row && scope == SCOPE_DEFAULTS && (row->scope & KEY_BENCH))
		return config_fail_key(p, "unknown key %s in \"defaults\": "
				       "it belongs in each benchmark", k);
	if (row && scope == SCOPE_DEFAULTS && (row->scope & KEY_TOP))
		return config_fail_key(p, "unknown key %s in \"defaults\": "
				       "it belongs at the top level", k);
	if (row && scope == SCOPE_TOP && (row->scope & KEY_DEFAULTS))
		return config_fail_key(p, "unknown key %s at the top level: "
				       "it belongs in \"defaults\"%s", k,
				       row->scope & KEY_BENCH ?
				       " or in a benchmark" : "");
	if (row && scope == SCOPE_TOP)
		return config_fail_key(p, "unknown key %s at the top level: "
				       "it belongs in each benchmark in "
				       "\"benchmarks\"", k);
	if ((alt = suggest(m->string, known)))
		return config_fail_key(p, "unknown key %s %s (did you mean "
				       "\"%s\"?)", k, p->where, alt);
	for (o = 0, i = 0; known[i] && o < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s",
				      i ? ", " : "", known[i]);
	return config_fail_key(p, "unknown key %s %s: known keys are %s", k,
			       p->where, list);
}

/*
 * Check the key of member m (index j) of the object at the current path:
 * known in this scope, and not a repeat (cJSON keeps both copies of a
 * repeated key; one would be silently ignored).
 */
int config_keys_check(struct parser *p, const cJSON *obj, const cJSON *m,
		      size_t j, enum scope scope,
		      const struct config_key **rowp)
{
	const struct config_key *row = config_key_find(m->string);
	const cJSON *q;
	char k[128];
	size_t i, line, col;
	int r = 0;

	config_enter(p, NULL, j);
	config_quote(k, sizeof(k), m->string);
	if (!row || !(row->scope & scope_bit[scope])) {
		r = unknown_key(p, m, k, scope);
		config_leave(p);
		return r;
	}
	*rowp = row;
	for (q = obj->child, i = 0; q != m; q = q->next, i++) {
		if (strcmp(q->string, m->string))
			continue;
		p->path[p->depth - 1].index = i;
		if (config_position(p, p->path, p->depth, 1, &line, &col) < 0)
			line = col = 0;
		p->path[p->depth - 1].index = j;
		r = config_fail_key(p, "duplicate key %s %s (first at "
				    "%zu:%zu): remove one", k, p->where, line,
				    col);
		break;
	}
	config_leave(p);
	return r;
}

/* A whole number in [lo, hi] at the current path, for key. */
int config_keys_whole(const struct parser *p, const cJSON *it, const char *key,
		     unsigned lo, unsigned hi, unsigned *out)
{
	char g[64];
	double d = it->valuedouble;

	if (cJSON_IsNumber(it) && isfinite(d) && d == floor(d) && d >= lo &&
	    d <= hi) {
		*out = (unsigned)d;
		return 0;
	}
	return config_fail(p, "\"%s\" must be a whole number from %u to %u, "
			   "got %s", key, lo, hi, config_got(p, g, sizeof(g)));
}

int config_keys_is_number(const cJSON *it)
{
	return cJSON_IsNumber(it) && isfinite(it->valuedouble);
}

/* One of the strings in names, stored as its index. */
int config_keys_choice(const struct parser *p, const cJSON *it,
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
	return config_fail(p, "\"%s\" must be %s, got %s", key, list,
			   config_got(p, g, sizeof(g)));
}

/* A metric name at the current path (a string), or -1 after an error. */
static int metric_id(const struct parser *p, const cJSON *it, const char *key)
{
	const char *alt;
	char g[64];
	int id = metric_lookup(it->valuestring);

	if (id >= 0)
		return id;
	alt = suggest(it->valuestring, metric_list());
	if (alt)
		return config_fail(p, "\"%s\" names an unknown metric %s (did "
				   "you mean \"%s\"?)", key,
				   config_got(p, g, sizeof(g)), alt);
	return config_fail(p, "\"%s\" names an unknown metric %s: known "
			   "metrics are %s", key, config_got(p, g, sizeof(g)),
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
		return config_fail(p, "\"%s\" must be a non-empty list of "
				   "metric names such as [\"wall\", "
				   "\"instructions\"], got %s", key,
				   config_got(p, g, sizeof(g)));
	*n = 0;
	for (e = it->child, i = 0; e && r == 0; e = e->next, i++) {
		config_enter(p, NULL, i);
		if (!cJSON_IsString(e)) {
			r = config_fail(p, "each element of \"%s\" must be a "
					"metric name such as \"wall\", got %s",
					key, config_got(p, g, sizeof(g)));
		} else if ((id = metric_id(p, e, key)) < 0) {
			r = -1;
		} else {
			for (j = 0; j < *n && list[j] != id; j++)
				;
			if (j < *n)
				r = config_fail(p, "\"%s\" names %s twice: "
						"remove one", key,
						config_got(p, g, sizeof(g)));
			else
				list[(*n)++] = id;
		}
		config_leave(p);
	}
	return r;
}

int config_keys_metric_list(struct parser *p, const cJSON *it,
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

	if (config_keys_is_number(it) && d >= 0 && d < 10) {
		*out = d;
		return 0;
	}
	return config_fail(p, "%s must be a fraction from 0 to below 10 "
			   "(0.05 means 5%%), got %s", what,
			   config_got(p, g, sizeof(g)));
}

/*
 * "min_effect" or "pass_excludes" (key): a number (every metric's) or an
 * object of fractions by metric name, into *all or by[]. The whole value
 * replaces the one from "defaults".
 */
int config_keys_by_metric(struct parser *p, const cJSON *it,
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
		if (!config_keys_is_number(it))
			return config_fail(p, "\"%s\" must be a fraction "
					   "such as 0.05 (5%%) or an object of "
					   "fractions by metric such as "
					   "{\"wall\": 0.05, \"instructions\": "
					   "0.01}, got %s", key,
					   config_got(p, g, sizeof(g)));
		return check_floor(p, it, what, all);
	}
	for (e = it->child, j = 0; e; e = e->next, j++) {
		const char *alt;

		config_enter(p, NULL, j);
		id = metric_lookup(e->string);
		if (id < 0) {
			alt = suggest(e->string, metric_list());
			config_fail_key(p, "\"%s\" names an unknown metric "
				 "\"%s\"%s%s%s", key, e->string,
				 alt ? " (did you mean \"" : ": known metrics "
				 "are ", alt ? alt : metric_names(),
				 alt ? "\"?)" : "");
			return -1;
		}
		if (!isnan(by[id]))
			return config_fail_key(p, "\"%s\" gives \"%s\" twice: "
					"remove one", key, e->string);
		snprintf(what, sizeof(what), "\"%s\" of \"%s\"", key,
			 e->string);
		if (check_floor(p, e, what, &by[id]) < 0)
			return -1;
		config_leave(p);
	}
	return 0;
}

int config_keys_metric(struct parser *p, const cJSON *m, struct knobs *k)
{
	char g[64];
	int id;

	if (!cJSON_IsString(m))
		return config_fail(p, "\"metric\" must be a metric name such "
				   "as \"wall\" (known: %s), got %s",
				   metric_names(), config_got(p, g, sizeof(g)));
	if ((id = metric_id(p, m, "metric")) < 0)
		return -1;
	k->b.metrics[0].id = (enum metric)id;
	k->b.nmetrics = 1;
	return 0;
}

int config_keys_gating(struct parser *p, const cJSON *m, struct knobs *k)
{
	int list[METRIC_COUNT];
	size_t n, i;

	if (parse_names(p, m, "gate", list, &n) < 0)
		return -1;
	memset(k->gating, 0, sizeof(k->gating));
	for (i = 0; i < n; i++)
		k->gating[list[i]] = 1;
	k->gate_set = 1;
	return 0;
}

/* A string (run by /bin/sh -c) or a list of strings (argv) into *out. */
int config_keys_command(struct parser *p, const cJSON *it, const char *key,
			 const char *example, struct command *out)
{
	struct command c = { NULL, NULL };
	const cJSON *e;
	size_t n, i;
	char g[64];

	if (cJSON_IsString(it)) {
		if (!it->valuestring[strspn(it->valuestring, " \t\n\r\f\v")])
			return config_fail(p, "\"%s\" is an empty command: "
					   "give one, such as \"%s\"", key,
					   example);
		out->shell = xstrdup(it->valuestring);
		return 0;
	}
	if (!cJSON_IsArray(it))
		return config_fail(p, "\"%s\" must be a command string or a "
				   "list of strings (program and arguments), "
				   "got %s%s", key, config_got(p, g, sizeof(g)),
				   cJSON_IsNull(it) && !strcmp(key, "build") ?
				   " (leave \"build\" out when there is "
				   "nothing to build)" : "");
	for (n = 0, e = it->child; e; e = e->next)
		n++;
	if (!n)
		return config_fail(p, "\"%s\" is an empty list: give the "
				   "program and its arguments, such as "
				   "[\"%s\"]", key, example);
	c.argv = xcalloc(n + 1, sizeof(*c.argv));
	for (i = 0, e = it->child; e; e = e->next, i++) {
		if (!cJSON_IsString(e) || !*e->valuestring) {
			int r;

			config_enter(p, NULL, i);
			r = config_fail(p, "each element of \"%s\" must be a "
					"non-empty string, got %s", key,
					config_got(p, g, sizeof(g)));
			config_leave(p);
			command_release(&c);
			return r;
		}
		c.argv[i] = xstrdup(e->valuestring);
	}
	*out = c;
	return 0;
}

/* It becomes a file name and a report key: say so when refusing one. */
int config_keys_name(const struct parser *p, const cJSON *it)
{
	const unsigned char *s;
	size_t n;
	char g[64];

	if (!cJSON_IsString(it))
		return config_fail(p, "\"name\" must be a string such as "
				   "\"parse\", got %s",
				   config_got(p, g, sizeof(g)));
	s = (const unsigned char *)it->valuestring;
	n = strlen(it->valuestring);
	if (!n)
		return config_fail(p, "\"name\" is empty: give the benchmark a "
				   "name, such as \"parse\"");
	if (n > NAME_MAX_LEN)
		return config_fail(p, "\"name\" is %zu characters long, more "
				   "than %d: it becomes a file name and a "
				   "report key", n, NAME_MAX_LEN);
	for (; *s; s++) {
		if (*s == '/')
			return config_fail(p, "\"name\" %s contains '/': it "
					   "becomes a file name and a report "
					   "key", config_got(p, g, sizeof(g)));
		if (*s < 0x20 || *s > 0x7e)
			return config_fail(p, "\"name\" %s is not printable "
					   "ASCII: it becomes a file name and "
					   "a report key",
					   config_got(p, g, sizeof(g)));
	}
	if (!strcmp(it->valuestring, ".") || !strcmp(it->valuestring, ".."))
		return config_fail(p, "\"name\" cannot be \".\" or \"..\": it "
				   "becomes a file name");
	return 0;
}

int config_parse_duration(const char *s, double *out)
{
	const char *end;
	double v, unit = 1;

	/* decimal only, as every number gate reads: "0x10s" is no 16 s */
	if (!s || number_scan(s, &v, &end) < 0)
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

int config_keys_format(const struct parser *p, const cJSON *m,
			struct bench_cfg *out)
{
	char g[64];

	if (cJSON_IsString(m) && format_lookup(&out->format,
					       m->valuestring) == 0 &&
	    !(format_reader(out->format)->flags & FMT_COMPARE_ONLY))
		return 0;
	return config_fail(p, "\"format\" must be one of %s, got %s",
			   format_names(), config_got(p, g, sizeof(g)));
}

/* A list of case patterns, each a valid POSIX extended regex. */
int config_keys_patterns(struct parser *p, const cJSON *m, const char *key,
			 char ***list, size_t *count)
{
	const cJSON *e;
	size_t i = 0, n = 0;
	char g[64], msg[128];
	regex_t rx;
	int rc;

	if (!cJSON_IsArray(m))
		return config_fail(p, "\"%s\" must be a list of case name "
				   "patterns such as [\"^BM_sort\"], got %s",
				   key, config_got(p, g, sizeof(g)));
	cJSON_ArrayForEach(e, m)
		n++;
	*list = xcalloc(n + 1, sizeof(**list));
	cJSON_ArrayForEach(e, m) {
		config_enter(p, NULL, i);
		if (!cJSON_IsString(e) || !*e->valuestring)
			return config_fail(p, "each element of \"%s\" must "
					   "be a non-empty pattern, got %s",
					   key, config_got(p, g, sizeof(g)));
		rc = regcomp(&rx, e->valuestring, REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			regerror(rc, &rx, msg, sizeof(msg));
			return config_fail(p, "%s is not a valid POSIX "
					   "extended regular expression: %s",
					   config_got(p, g, sizeof(g)), msg);
		}
		regfree(&rx);
		(*list)[i++] = xstrdup(e->valuestring);
		*count = i;
		config_leave(p);
	}
	return 0;
}

/*
 * "artifacts", "sources", "writable": paths or globs relative to the
 * checkout, none absolute or climbing out of it ("..").
 */
int config_keys_paths(struct parser *p, const cJSON *m, const char *key,
		      int inside, char ***list, size_t *count)
{
	const cJSON *e;
	size_t i = 0, n = 0;
	char g[64];

	if (!cJSON_IsArray(m))
		return config_fail(p, "\"%s\" must be a list of paths or globs "
				   "relative to the checkout, such as "
				   "[\"build/lz4\", \"lib/*.so\"], got %s", key,
				   config_got(p, g, sizeof(g)));
	cJSON_ArrayForEach(e, m)
		n++;
	*list = xcalloc(n + 1, sizeof(**list));
	cJSON_ArrayForEach(e, m) {
		const char *s = cJSON_IsString(e) ? e->valuestring : NULL;

		config_enter(p, NULL, i);
		if (!s || !*s)
			return config_fail(p, "each element of \"%s\" must be "
					   "a non-empty path or glob, got %s",
					   key, config_got(p, g, sizeof(g)));
		if (inside && (*s == '/' || !strcmp(s, "..") ||
			       !strncmp(s, "../", 3) ||
		    strstr(s, "/../") ||
		    (strlen(s) >= 3 && !strcmp(s + strlen(s) - 3, "/.."))))
			return config_fail(p, "%s must name files inside the "
					   "checkout: write it relative to "
					   "the repository's top, without "
					   "\"..\"", config_got(p, g, sizeof(g)));
		(*list)[i++] = xstrdup(s);
		*count = i;
		config_leave(p);
	}
	return 0;
}

void config_keys_defaults(struct parser *p, struct knobs *k,
			  struct config *cfg)
{
	struct key_ctx c = { .cfg = cfg, .k = k, .src = SRC_BUILTIN };
	const struct config_key *t;
	size_t n, i;

	t = config_key_table(&n);
	for (i = 0; i < n; i++) {
		cJSON *v;

		if (!t[i].def || (t[i].scope & KEY_BENCH &&
				  !(t[i].scope & KEY_DEFAULTS)))
			continue;
		/* the table's own text: it parses, or the table is wrong */
		v = cJSON_Parse(t[i].def);
		if (!v || t[i].read(p, v, &c) < 0) {
			error("internal error: the default of \"%s\" (%s) "
			      "is not valid", t[i].name, t[i].def);
			abort();
		}
		cJSON_Delete(v);
	}
}

const char *interval_name(enum interval_method m)
{
	return interval_names[m];
}

const char *rule_name(enum rule r)
{
	return rule_names[r];
}
