/*
 * JMH's JSON (-rf json): a list of benchmarks, each with its primary
 * metric's "rawData", one list per fork of the measurement iterations'
 * scores (warmups are not in it). A fork is a JVM of its own: one of
 * gate's processes; files of several runs, one after another, are more.
 * A case is the benchmark with its parameters ("Bench.m:size=10,x=a");
 * its unit JMH's scoreUnit restated: times per operation in s/op, rates
 * in ops/s (higher is better).
 */
#include "gate/format/format.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/banned.h"

struct jmh_ctx {
	struct fmt_table *t;
	const char *text, *origin;
	size_t len;
	struct gate_err *err;
};

/* Seconds in one of JMH's time units (TimeUnit's), or 0. */
static double unit_seconds(const char *u, size_t n)
{
	static const struct {
		const char *name;
		double s;
	} units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
		{ "min", 60 }, { "hr", 3600 }, { "day", 86400 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && !memcmp(units[i].name, u, n))
			return units[i].s;
	return 0;
}

/*
 * scoreUnit as gate's unit and the factor that restates a score in it:
 * "us/op" -> s/op times 1e-6, "ops/ms" -> ops/s times 1e3. NULL when
 * it is neither a time per operation nor operations per time.
 */
static const char *jmh_unit(const char *u, double *factor)
{
	const char *slash = strchr(u, '/');
	double s;

	if (!slash)
		return NULL;
	if (!strcmp(slash, "/op")) {
		s = unit_seconds(u, (size_t)(slash - u));
		*factor = s;
		return s > 0 ? "s/op" : NULL;
	}
	if (!strncmp(u, "ops/", 4)) {
		s = unit_seconds(u + 4, strlen(u + 4));
		*factor = s > 0 ? 1 / s : 0;
		return s > 0 ? "ops/s" : NULL;
	}
	return NULL;
}

/* "benchmark" and its parameters, "name=value" in JMH's order. */
static char *case_name(const cJSON *e)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "benchmark");
	const cJSON *p;
	struct fmt_buf name = FMT_BUF_INIT;
	int first = 1;

	if (!cJSON_IsString(b) || !*b->valuestring)
		return NULL;
	fmt_buf_str(&name, b->valuestring);
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(e, "params")) {
		if (!cJSON_IsString(p))
			continue;
		fmt_buf_str(&name, first ? ":" : ",");
		fmt_buf_str(&name, p->string);
		fmt_buf_str(&name, "=");
		fmt_buf_str(&name, p->valuestring);
		first = 0;
	}
	return name.buf;
}

/* One benchmark's forks into c->t: 0, or -1 after error_to. */
static int jmh_entry(struct jmh_ctx *c, const cJSON *e, size_t i,
		     size_t line, size_t col)
{
	const cJSON *pm = cJSON_GetObjectItemCaseSensitive(e, "primaryMetric");
	const cJSON *su = cJSON_GetObjectItemCaseSensitive(pm, "scoreUnit");
	const cJSON *raw = cJSON_GetObjectItemCaseSensitive(pm, "rawData");
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(e, "mode");
	const cJSON *fork, *v;
	char *name = case_name(e);
	const char *unit;
	double factor = 0;
	size_t base, k = 0;
	int ret = -1;

	if (!name || !cJSON_IsString(su)) {
		error_to(c->err, "%s:%zu:%zu: [%zu] lacks \"benchmark\" or "
			 "\"primaryMetric\".\"scoreUnit\": not JMH's -rf json",
			 c->origin, line, col, i);
		goto cleanup;
	}
	unit = jmh_unit(su->valuestring, &factor);
	if (!unit) {
		error_to(c->err, "%s:%zu:%zu: benchmark \"%s\": scoreUnit "
			 "\"%s\" is neither a time per operation nor "
			 "operations per time", c->origin, line, col, name,
			 su->valuestring);
		goto cleanup;
	}
	if (!cJSON_GetArraySize(raw)) {
		error_to(c->err, "%s:%zu:%zu: benchmark \"%s\" (mode %s) has "
			 "no \"rawData\": gate reads each fork's iterations "
			 "(sample mode's histogram is not read: -bm avgt or "
			 "thrpt)", c->origin, line, col, name,
			 cJSON_IsString(mode) ? mode->valuestring : "?");
		goto cleanup;
	}
	base = fmt_table_procs_of(c->t, name, unit);
	cJSON_ArrayForEach(fork, raw) {
		c->t->proc = base + k++;
		if (!cJSON_GetArraySize(fork)) {
			error_to(c->err, "%s:%zu:%zu: benchmark \"%s\": fork "
				 "%zu has no iteration", c->origin, line, col,
				 name, k);
			goto cleanup;
		}
		cJSON_ArrayForEach(v, fork) {
			if (!cJSON_IsNumber(v)) {
				error_to(c->err, "%s:%zu:%zu: benchmark "
					 "\"%s\": fork %zu holds a score that "
					 "is not a number", c->origin, line,
					 col, name, k);
				goto cleanup;
			}
			fmt_table_add(c->t, name, strlen(name), unit,
				      v->valuedouble * factor);
		}
	}
	ret = 0;
cleanup:
	free(name);
	return ret;
}

static int jmh_doc(void *ctx, const cJSON *doc, size_t at)
{
	struct jmh_ctx *c = ctx;
	const cJSON *e;
	size_t line, col, i = 0;

	jsonpos_linecol(c->text, c->len, at, &line, &col);
	if (!cJSON_IsArray(doc))
		return error_to(c->err, "%s:%zu:%zu: not a list of benchmarks: "
				"not JMH's -rf json", c->origin, line, col);
	cJSON_ArrayForEach(e, doc)
		if (jmh_entry(c, e, i++, line, col) < 0)
			return -1;
	if (!i)
		return error_to(c->err, "%s:%zu:%zu: an empty list: JMH ran no "
				"benchmark (does its include pattern match "
				"none?)", c->origin, line, col);
	return 0;
}

static int jmh_parse(struct fmt_table *t, const char *text, size_t len,
		     const char *origin, const struct fmt_opts *o)
{
	struct jmh_ctx c = { .t = t, .text = text, .origin = origin,
			  .len = len, .err = o->err };

	t->track = 1;
	return format_json_docs(text, len, origin, "JMH", jmh_doc, &c, o->err);
}

/* A list whose first element has "benchmark" and "primaryMetric". */
static int jmh_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_IsArray(root) && root->child &&
	       cJSON_GetObjectItemCaseSensitive(root->child, "benchmark") &&
	       cJSON_GetObjectItemCaseSensitive(root->child, "primaryMetric");
}

/* A case's benchmark, without its parameters: what JMH's include regex
   selects (every parameter with it), so a shard deals them together. */
static size_t jmh_group(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon ? (size_t)(colon - name) : strlen(name);
}

/* Rounds and shards: "$GATE_FILTER" as JMH's include regex (a Java regex
   found in the benchmark's name): the benchmarks of the cases asked for,
   anchored, every parameter of each. */
static void jmh_select(struct fmt_cmd_edit *e, char *const *argv,
		       const char *shell, const char *const *names, size_t n)
{
	struct fmt_buf b = FMT_BUF_INIT;
	size_t i, j;

	(void)argv;
	(void)shell;
	fmt_buf_str(&b, "^(");
	for (i = 0; i < n; i++) {
		size_t len = jmh_group(names[i]);
		int dup = 0;

		for (j = 0; j < i && !dup; j++)
			dup = jmh_group(names[j]) == len &&
			      !memcmp(names[j], names[i], len);
		if (dup)
			continue;
		if (b.len > 2)
			fmt_buf_str(&b, "|");
		fmt_ere_escape(&b, names[i], len);
	}
	fmt_buf_str(&b, ")$");
	e->filter = b.buf;
}

const struct format_reader format_jmh_reader = {
	.name = "jmh",
	.what = "JMH's JSON (-rf json), files one after another",
	.detect = jmh_detect,
	.broken_json_keys = { "\"primaryMetric\"", "\"jmhVersion\"" },
	.parse = jmh_parse,
	/* each fork a JVM: JMH's own processes (-f) */
	.values = FMT_VALUES_TRACKED,
	.processes_how = "JMH's forks (-f 5), or files of several runs one "
			 "after another",
	.select = jmh_select,
	.list = fmt_list_gate_list,
	.list_how = "a whole run, whose results name the cases (GATE_LIST=1 "
		    "is set: a command may run JMH with -f 1 -wi 0 -i 1)",
	.group = jmh_group,
	.counted_why = "a JMH suite, which gate cannot give: JMH measures in forked JVMs, which nothing marks "
		       "for callgrind; gate \"cpu\" or wall time with more "
		       "pairs instead",
};
