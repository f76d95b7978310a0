/*
 * Other tools' JSON: hyperfine --export-json (each command a case, its
 * "times" the values) and pytest-benchmark --benchmark-json (each test a
 * case, its stats.data the values, or its median without --benchmark-save-data).
 */
#include "gate/format/format.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/banned.h"

/* Add every number of array a as a value of (name, "s"). */
static int add_times(struct fmt_table *t, const char *name, const cJSON *a,
		     const char *origin, const char *what)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, a) {
		if (!cJSON_IsNumber(v))
			return error("%s: case \"%s\": \"%s\" holds a "
				     "non-number", origin, name, what);
		fmt_table_add(t, name, strlen(name), "s", v->valuedouble);
	}
	return 0;
}

int format_parse_hyperfine(struct fmt_table *t, const char *text, size_t len,
			   const char *origin)
{
	cJSON *root = format_json(text, len, origin, "hyperfine");
	const cJSON *list, *e, *cmd, *times, *codes, *c;
	size_t i = 0;
	int ret = -1;

	if (!root)
		return -1;
	list = cJSON_GetObjectItemCaseSensitive(root, "results");
	if (!cJSON_IsArray(list)) {
		error("%s: no \"results\" list: not hyperfine's "
		      "--export-json output", origin);
		goto cleanup;
	}
	cJSON_ArrayForEach(e, list) {
		cmd = cJSON_GetObjectItemCaseSensitive(e, "command");
		times = cJSON_GetObjectItemCaseSensitive(e, "times");
		codes = cJSON_GetObjectItemCaseSensitive(e, "exit_codes");
		if (!cJSON_IsString(cmd) || !cJSON_IsArray(times) ||
		    !cJSON_GetArraySize(times)) {
			error("%s: results[%zu] lacks \"command\" or a "
			      "non-empty \"times\" list: not hyperfine "
			      "JSON, or hyperfine older than 1.10", origin, i);
			goto cleanup;
		}
		cJSON_ArrayForEach(c, codes)
			if (cJSON_IsNumber(c) && c->valuedouble != 0) {
				error("%s: command \"%s\" exited with code %g "
				      "in a run: its times are not "
				      "comparable", origin, cmd->valuestring,
				      c->valuedouble);
				goto cleanup;
			}
		if (add_times(t, cmd->valuestring, times, origin, "times") < 0)
			goto cleanup;
		i++;
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

int format_parse_pytest(struct fmt_table *t, const char *text, size_t len,
			const char *origin)
{
	cJSON *root = format_json(text, len, origin, "pytest-benchmark");
	const cJSON *list, *e, *name, *st, *data, *med;
	size_t i = 0;
	int ret = -1;

	if (!root)
		return -1;
	list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
	if (!cJSON_IsArray(list)) {
		error("%s: no \"benchmarks\" list: not pytest-benchmark's "
		      "--benchmark-json output", origin);
		goto cleanup;
	}
	cJSON_ArrayForEach(e, list) {
		name = cJSON_GetObjectItemCaseSensitive(e, "fullname");
		if (!cJSON_IsString(name))
			name = cJSON_GetObjectItemCaseSensitive(e, "name");
		st = cJSON_GetObjectItemCaseSensitive(e, "stats");
		data = cJSON_GetObjectItemCaseSensitive(st, "data");
		med = cJSON_GetObjectItemCaseSensitive(st, "median");
		if (!cJSON_IsString(name) || !cJSON_IsObject(st)) {
			error("%s: benchmarks[%zu] lacks \"name\" or "
			      "\"stats\": not pytest-benchmark JSON", origin,
			      i);
			goto cleanup;
		}
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data)) {
			if (add_times(t, name->valuestring, data, origin,
				      "stats.data") < 0)
				goto cleanup;
		} else if (cJSON_IsNumber(med)) {
			/* one value per file: run with --benchmark-save-data
			   for every round */
			fmt_table_add(t, name->valuestring,
				      strlen(name->valuestring), "s",
				      med->valuedouble);
		} else {
			error("%s: benchmarks[%zu] (\"%s\") has neither "
			      "stats.data nor stats.median", origin, i,
			      name->valuestring);
			goto cleanup;
		}
		i++;
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

int format_parse_gate(struct fmt_table *t, const char *text, size_t len,
		      const char *origin)
{
	cJSON *root = format_json(text, len, origin, "gate report");
	const cJSON *list, *b, *name, *unit, *samples, *s, *head, *err;
	int ret = -1;

	if (!root)
		return -1;
	list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
	if (!cJSON_IsArray(list)) {
		error("%s: no \"benchmarks\" list: not a gate JSON report",
		      origin);
		goto cleanup;
	}
	cJSON_ArrayForEach(b, list) {
		name = cJSON_GetObjectItemCaseSensitive(b, "name");
		unit = cJSON_GetObjectItemCaseSensitive(b, "unit");
		samples = cJSON_GetObjectItemCaseSensitive(b, "samples");
		err = cJSON_GetObjectItemCaseSensitive(b, "error");
		if (!cJSON_IsString(name) || !cJSON_IsString(unit) ||
		    !cJSON_IsArray(samples)) {
			error("%s: a benchmark lacks \"name\", \"unit\" or "
			      "\"samples\": not a gate JSON report", origin);
			goto cleanup;
		}
		if (cJSON_IsString(err)) {
			error("%s: benchmark \"%s\" could not be measured in "
			      "that run: %s", origin, name->valuestring,
			      err->valuestring);
			goto cleanup;
		}
		/* a report's head arm is the state it measured */
		cJSON_ArrayForEach(s, samples) {
			head = cJSON_GetObjectItemCaseSensitive(s, "head");
			if (!cJSON_IsNumber(head)) {
				error("%s: benchmark \"%s\": a sample has no "
				      "number \"head\"", origin,
				      name->valuestring);
				goto cleanup;
			}
			fmt_table_add(t, name->valuestring,
				      strlen(name->valuestring),
				      unit->valuestring, head->valuedouble);
		}
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}
