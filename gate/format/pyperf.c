/*
 * Python's pyperf (and what writes its JSON, nanobench's pyperf output):
 * a file of "benchmarks", each with its "runs", one run a worker process.
 * A run's "values" are seconds per loop (pyperf divides by its loops);
 * its "warmups" and a calibration run (warmups alone) are left out. Each
 * run is one of gate's processes; files of several runs of the script,
 * one after another, are more processes.
 */
#include "gate/format/format.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/banned.h"

struct pyperf_ctx {
	struct fmt_table *t;
	const char *text, *origin;
	size_t len;
	struct gate_err *err;
};

/* key of the benchmark's metadata, else of the file's common metadata */
static const cJSON *meta(const cJSON *bench, const cJSON *doc,
			 const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(bench, "metadata"), key);

	return v ? v : cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(doc, "metadata"), key);
}

/* pyperf's units as gate writes them: seconds, bytes, plain numbers */
static const char *pyperf_unit(const cJSON *unit)
{
	if (!unit || (cJSON_IsString(unit) &&
		      !strcmp(unit->valuestring, "second")))
		return "s";
	if (cJSON_IsString(unit) && !strcmp(unit->valuestring, "byte"))
		return "B";
	if (cJSON_IsString(unit) && !strcmp(unit->valuestring, "integer"))
		return "count";
	return NULL;
}

static int pyperf_doc(void *ctx, const cJSON *doc, size_t at)
{
	struct pyperf_ctx *c = ctx;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "benchmarks");
	const cJSON *b, *run, *v;
	size_t line, col, i = 0;

	jsonpos_linecol(c->text, c->len, at, &line, &col);
	if (!cJSON_IsArray(list))
		return error_to(c->err, "%s:%zu:%zu: no \"benchmarks\" list: "
				"not pyperf's JSON (-o FILE)", c->origin,
				line, col);
	cJSON_ArrayForEach(b, list) {
		const cJSON *name = meta(b, doc, "name");
		const cJSON *runs = cJSON_GetObjectItemCaseSensitive(b, "runs");
		const char *unit = pyperf_unit(meta(b, doc, "unit"));
		size_t base, k = 0;

		if (!cJSON_IsString(name) || !*name->valuestring ||
		    !cJSON_IsArray(runs))
			return error_to(c->err, "%s:%zu:%zu: benchmarks[%zu] "
					"lacks a \"name\" in its metadata or "
					"a \"runs\" list", c->origin, line,
					col, i);
		if (!unit)
			return error_to(c->err, "%s:%zu:%zu: benchmark \"%s\": "
					"unit \"%s\" is none of pyperf's "
					"(second, byte, integer)", c->origin,
					line, col, name->valuestring,
					cJSON_GetStringValue(meta(b, doc,
								  "unit")) ?
					cJSON_GetStringValue(meta(b, doc,
								  "unit")) :
					"?");
		base = fmt_table_procs_of(c->t, name->valuestring, unit);
		cJSON_ArrayForEach(run, runs) {
			const cJSON *values =
				cJSON_GetObjectItemCaseSensitive(run, "values");

			/* a calibration run has warmups only */
			if (!cJSON_GetArraySize(values))
				continue;
			c->t->proc = base + k++;
			cJSON_ArrayForEach(v, values) {
				if (!cJSON_IsNumber(v))
					return error_to(c->err, "%s:%zu:%zu: "
						"benchmark \"%s\": a value "
						"that is not a number",
						c->origin, line, col,
						name->valuestring);
				fmt_table_add(c->t, name->valuestring,
					      strlen(name->valuestring), unit,
					      v->valuedouble);
			}
		}
		if (!k)
			return error_to(c->err, "%s:%zu:%zu: benchmark \"%s\" "
					"has no run with values (warmups "
					"only): pyperf was stopped early?",
					c->origin, line, col,
					name->valuestring);
		i++;
	}
	return 0;
}

static int pyperf_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	struct pyperf_ctx c = { .t = t, .text = text, .origin = origin,
				.len = len, .err = o->err };

	t->track = 1;
	return format_json_docs(text, len, origin, "pyperf", pyperf_doc, &c,
				o->err);
}

/* A "benchmarks" list whose first benchmark has "runs". */
static int pyperf_detect(const char *text, size_t len, const struct cJSON *root)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root,
							      "benchmarks");

	(void)text;
	(void)len;
	return cJSON_IsArray(list) && cJSON_IsArray(
		cJSON_GetObjectItemCaseSensitive(list->child, "runs"));
}

const struct format_reader format_pyperf_reader = {
	.name = "pyperf",
	.what = "Python pyperf's JSON (-o FILE), files one after another",
	.detect = pyperf_detect,
	.broken_json_keys = { "\"runs\"", "\"warmups\"" },
	.parse = pyperf_parse,
	/* each run a worker process: pyperf's own processes */
	.values = FMT_VALUES_TRACKED,
	.processes_how = "pyperf's runs (-p), or files of several runs "
			 "one after another",
	/* pyperf has no option that picks benchmarks: the script does,
	   reading GATE_FILTER (passed on to pyperf's workers with
	   --inherit-environ GATE_FILTER; gate.json(5) shows how); a script
	   that does not runs every case in each round */
	.select = fmt_select_gate_filter,
	.list = fmt_list_gate_list,
	.list_how = "a whole run, whose results name the cases (GATE_LIST=1 "
		    "is set: a script may run pyperf with "
		    "--debug-single-value)",
	.counted_why = "a pyperf suite, which gate cannot give: pyperf runs "
		       "each benchmark in worker processes of "
		       "its own, which nothing marks for callgrind; gate "
		       "\"cpu\" or wall time with more pairs instead",
};
