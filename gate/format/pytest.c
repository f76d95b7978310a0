/*
 * pytest-benchmark --benchmark-json: each test a case, its stats.data the
 * values, or its median alone without --benchmark-save-data.
 */
#include "gate/format/format.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/banned.h"

static int pytest_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	cJSON *root;
	const cJSON *list, *e, *name, *st, *data, *med;
	size_t i = 0;
	int ret = -1;

	list = format_json_list_to(&root, text, len, origin,
				   "pytest-benchmark", "benchmarks",
				   "--benchmark-json", o->err);
	if (!list)
		return -1;
	/* one pytest session: every round one process */
	t->track = 1;
	t->proc = 0;
	cJSON_ArrayForEach(e, list) {
		name = cJSON_GetObjectItemCaseSensitive(e, "fullname");
		if (!cJSON_IsString(name))
			name = cJSON_GetObjectItemCaseSensitive(e, "name");
		st = cJSON_GetObjectItemCaseSensitive(e, "stats");
		data = cJSON_GetObjectItemCaseSensitive(st, "data");
		med = cJSON_GetObjectItemCaseSensitive(st, "median");
		if (!cJSON_IsString(name) || !cJSON_IsObject(st)) {
			error_to(o->err, "%s: benchmarks[%zu] lacks \"name\" or "
			      "\"stats\": not pytest-benchmark JSON", origin,
			      i);
			goto cleanup;
		}
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data)) {
			if (fmt_table_add_numbers(t, name->valuestring, data,
						  origin, "stats.data",
						  o->err) < 0)
				goto cleanup;
		} else if (cJSON_IsNumber(med)) {
			/* one value per file: run with --benchmark-save-data
			   for every round */
			fmt_table_add(t, name->valuestring,
				      strlen(name->valuestring), "s",
				      med->valuedouble);
		} else {
			error_to(o->err, "%s: benchmarks[%zu] (\"%s\") has neither "
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

/* Its "machine_info" tells it apart. */
static int pytest_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_GetObjectItemCaseSensitive(root, "machine_info") != NULL;
}

const struct format_reader format_pytest_reader = {
	"pytest", pytest_detect, pytest_parse,
};
