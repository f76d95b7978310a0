/*
 * Google Benchmark's JSON (--benchmark_format=json or --benchmark_out):
 * every "iteration" entry is one value (one per repetition); aggregates
 * (_mean, _median, _stddev, _cv, BigO) summarise those and are not samples.
 * Its items/s and B/s are taken to the time column gate decides on.
 */
#include "gate/format/format.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/banned.h"

static int unit_scale(const char *u, double *scale)
{
	static const struct { const char *name; double scale; } units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].name)) {
			*scale = units[i].scale;
			return 0;
		}
	return -1;
}

/* The keys Google Benchmark writes itself; any other number is a counter. */
static int known_key(const char *k)
{
	static const char *const keys[] = {
		"name", "run_name", "run_type", "family_index",
		"per_family_instance_index", "repetitions", "repetition_index",
		"threads", "iterations", "real_time", "cpu_time", "time_unit",
		"aggregate_name", "aggregate_unit", "error_occurred",
		"error_message", "items_per_second", "bytes_per_second",
		"label", "big_o", "rms", "complexity_n",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return 1;
	return 0;
}

/*
 * User counters (state.counters["name"]): a value of the case in a unit
 * named after the counter; a rate counter is written as a plain number,
 * so only a name ending in "/s" or "per_second" reads as higher-is-better.
 */
static int user_counters(struct fmt_table *t, const cJSON *e,
			 const char *name)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, e) {
		/* newer versions may add keys that are not numbers */
		if (!c->string || known_key(c->string) || !cJSON_IsNumber(c) ||
		    !c->string[0] || strlen(c->string) > 60)
			continue;
		fmt_table_add(t, name, strlen(name), c->string,
			      c->valuedouble);
	}
	return 0;
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * The factor that takes the rates Google Benchmark wrote (items and bytes
 * per second) to the time column gate decides on (key: real_time or
 * cpu_time). It divides them by CPU time unless the benchmark uses real or
 * manual time, which it says by a name ending in "/real_time" or
 * "/manual_time" (manual time is written as real_time); so a rate beside
 * real time was per CPU second, as fast as a parallel or sleeping case is
 * not. The count per iteration is rate x its time, whichever time: 1 when
 * the times are the ones of the rate, or either is missing.
 */
static double rate_factor(const cJSON *e, const char *name, const char *key,
			  double t)
{
	const char *rate_key = ends_with(name, "/real_time") ||
			       ends_with(name, "/manual_time") ?
			       "real_time" : "cpu_time";
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(e, rate_key);

	if (!strcmp(rate_key, key) || !cJSON_IsNumber(rt) ||
	    !(rt->valuedouble > 0) || !(t > 0))
		return 1;
	return rt->valuedouble / t;
}

static int one_entry(struct fmt_table *t, const cJSON *e, size_t i,
		     const char *origin, const struct fmt_opts *o)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "run_name");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "run_type");
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(e,
							    "error_occurred");
	const char *key = o->cpu_time ? "cpu_time" : "real_time";
	const cJSON *tm = cJSON_GetObjectItemCaseSensitive(e, key);
	const cJSON *tu = cJSON_GetObjectItemCaseSensitive(e, "time_unit");
	const cJSON *rate;
	double scale = 1e-9, per;

	if (!cJSON_IsObject(e))
		return error_to(o->err, "%s: benchmarks[%zu] is not an object: not Google "
			     "Benchmark JSON", origin, i);
	if (!cJSON_IsString(name))
		name = cJSON_GetObjectItemCaseSensitive(e, "name");
	if (!cJSON_IsString(name) || !*name->valuestring)
		return error_to(o->err, "%s: benchmarks[%zu] has no \"name\": not Google "
			     "Benchmark JSON", origin, i);
	if (cJSON_IsString(type) && strcmp(type->valuestring, "iteration"))
		return 0;	/* an aggregate: computed from the samples */
	if (cJSON_IsTrue(err)) {
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(
			e, "error_message");

		return error_to(o->err, "%s: case \"%s\" reported an error: %s", origin,
			     name->valuestring, cJSON_IsString(msg) ?
			     msg->valuestring : "(no message)");
	}
	if (!cJSON_IsNumber(tm))
		return error_to(o->err, "%s: case \"%s\" has no number \"%s\": not Google "
			     "Benchmark JSON, or truncated", origin,
			     name->valuestring, key);
	if (tu && (!cJSON_IsString(tu) ||
		   unit_scale(tu->valuestring, &scale) < 0))
		return error_to(o->err, "%s: case \"%s\" has \"time_unit\" %s%s%s: "
			     "expected ns, us, ms or s", origin,
			     name->valuestring, cJSON_IsString(tu) ? "\"" : "",
			     cJSON_IsString(tu) ? tu->valuestring : "(not a "
			     "string)", cJSON_IsString(tu) ? "\"" : "");
	fmt_table_add(t, name->valuestring, strlen(name->valuestring), "s",
		      tm->valuedouble * scale);
	per = rate_factor(e, name->valuestring, key, tm->valuedouble);
	rate = cJSON_GetObjectItemCaseSensitive(e, "items_per_second");
	if (rate) {
		if (!cJSON_IsNumber(rate))
			return error_to(o->err, "%s: case \"%s\": \"items_per_second\" "
				     "is not a number", origin,
				     name->valuestring);
		fmt_table_add(t, name->valuestring, strlen(name->valuestring),
			      "items/s", rate->valuedouble * per);
	}
	rate = cJSON_GetObjectItemCaseSensitive(e, "bytes_per_second");
	if (rate) {
		if (!cJSON_IsNumber(rate))
			return error_to(o->err, "%s: case \"%s\": \"bytes_per_second\" "
				     "is not a number", origin,
				     name->valuestring);
		fmt_table_add(t, name->valuestring, strlen(name->valuestring),
			      "B/s", rate->valuedouble * per);
	}
	return user_counters(t, e, name->valuestring);
}

static int gbench_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	cJSON *root = format_json_to(text, len, origin, "Google Benchmark",
				     o->err);
	const cJSON *list, *e;
	size_t i = 0, aggregates = 0;
	int ret = -1;

	if (!root)
		return -1;
	list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
	if (!cJSON_IsArray(list)) {
		error_to(o->err, "%s: no \"benchmarks\" list: not Google Benchmark JSON "
		      "(run the suite with --benchmark_format=json)", origin);
		goto cleanup;
	}
	cJSON_ArrayForEach(e, list) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(e,
								"run_type");

		if (one_entry(t, e, i++, origin, o) < 0)
			goto cleanup;
		aggregates += cJSON_IsString(type) &&
			      strcmp(type->valuestring, "iteration");
	}
	if (t->n == 0 && aggregates) {
		error_to(o->err, "%s: only aggregates (%zu), no per-repetition results: "
		      "aggregates are not samples; drop "
		      "--benchmark_report_aggregates_only", origin, aggregates);
		goto cleanup;
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

/* Any other JSON object: its parser explains what is missing. */
static int gbench_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)root;
	while (len && strchr(" \t\r\n", *text)) {
		text++;
		len--;
	}
	return len && *text == '{';
}

/* Rounds and shards: its own --benchmark_filter, last (a later flag wins). */
static void gbench_select(struct fmt_cmd_edit *e, char *const *argv,
			  const char *shell, const char *const *names,
			  size_t n)
{
	(void)argv;
	(void)shell;
	e->filter = fmt_anchored(names, n);
	fmt_cmd_edit_arg(e, xasprintf("--benchmark_filter=%s", e->filter));
}

/* One iteration of each: the names and every counter
   (--benchmark_list_tests names no counter). */
static void gbench_list(struct fmt_cmd_edit *e, char *const *argv,
			const char *shell)
{
	(void)argv;
	(void)shell;
	fmt_cmd_edit_arg(e, xstrdup("--benchmark_min_time=0"));
}

const struct format_reader format_gbench_reader = {
	.name = "gbench",
	.what = "Google Benchmark --benchmark_format=json",
	.flags = FMT_DETECT_LAST,
	.detect = gbench_detect,
	.parse = gbench_parse,
	.values = FMT_VALUES_ONE_PROCESS,
	.processes_how = "one --benchmark_repetitions run per process",
	.restates = { "items/s", "B/s" },
	.times = { "real_time", "cpu_time" },
	.select = gbench_select,
	.list = gbench_list,
	.list_how = "one iteration of each, --benchmark_min_time=0",
	.init = "a CMakeLists.txt or Makefile linking benchmark::benchmark: "
		"fixed work sized per case (init-gbench.c)",
	.counted = FMT_COUNTED_LOOPS,
};
