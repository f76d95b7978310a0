/*
 * hyperfine --export-json: each command a case, its "times" the values;
 * a run with a non-zero exit code is refused.
 */
#include "gate/format/format.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/banned.h"

static int hyperfine_parse(struct fmt_table *t, const char *text, size_t len,
			   const char *origin, const struct fmt_opts *o)
{
	cJSON *root;
	const cJSON *list, *e, *cmd, *times, *codes, *c;
	size_t i = 0;
	int ret = -1;

	list = format_json_list_to(&root, text, len, origin, "hyperfine",
				   "results", "--export-json", o->err);
	if (!list)
		return -1;
	cJSON_ArrayForEach(e, list) {
		cmd = cJSON_GetObjectItemCaseSensitive(e, "command");
		times = cJSON_GetObjectItemCaseSensitive(e, "times");
		codes = cJSON_GetObjectItemCaseSensitive(e, "exit_codes");
		if (!cJSON_IsString(cmd) || !cJSON_IsArray(times) ||
		    !cJSON_GetArraySize(times)) {
			error_to(o->err, "%s: results[%zu] lacks \"command\" or a "
			      "non-empty \"times\" list: not hyperfine "
			      "JSON, or hyperfine older than 1.10", origin, i);
			goto cleanup;
		}
		cJSON_ArrayForEach(c, codes)
			if (cJSON_IsNumber(c) && c->valuedouble != 0) {
				error_to(o->err, "%s: command \"%s\" exited with code %g "
				      "in a run: its times are not "
				      "comparable", origin, cmd->valuestring,
				      c->valuedouble);
				goto cleanup;
			}
		if (fmt_table_add_numbers(t, cmd->valuestring, times, origin,
					  "times", o->err) < 0)
			goto cleanup;
		i++;
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

/* Its top-level "results" list tells it apart. */
static int hyperfine_detect(const char *text, size_t len,
			    const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_GetObjectItemCaseSensitive(root, "results") != NULL;
}

const struct format_reader format_hyperfine_reader = {
	.name = "hyperfine",
	.what = "hyperfine --export-json",
	.detect = hyperfine_detect,
	.broken_json_keys = { "\"results\"" },
	.parse = hyperfine_parse,
	.values = FMT_VALUES_PER_PROCESS,
	/* only a wrapper can pick its commands: GATE_FILTER */
	.select = fmt_select_gate_filter,
	.counted_why = "a hyperfine suite, which gate cannot give: each of "
		"hyperfine's commands is a process of its "
		"own, so make each a benchmark of its own (\"format\": "
		"\"time\") to count it",
};
