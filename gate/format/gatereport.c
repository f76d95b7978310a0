/*
 * gate's own JSON report, as gate compare reads it: each benchmark a case,
 * the head arm's samples its values (the state that run measured).
 */
#include "gate/format/format.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/report/report.h"
#include "common/banned.h"

int format_parse_gate(struct fmt_table *t, const char *text, size_t len,
		      const char *origin, const struct fmt_opts *o)
{
	cJSON *root = format_json(text, len, origin, "gate report");
	const cJSON *list, *b, *name, *unit, *samples, *s, *head, *err, *schema;
	int ret = -1;

	(void)o;
	if (!root)
		return -1;
	/* only the schema this gate writes: a newer (or older, or forged)
	   report's fields may mean other things */
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (!schema) {
		error("%s: no \"schema\": not a gate JSON report gate %s can "
		      "read (it reads schema %d)", origin, GATE_VERSION,
		      REPORT_SCHEMA);
		goto cleanup;
	}
	if (!cJSON_IsNumber(schema) ||
	    schema->valuedouble != (double)REPORT_SCHEMA) {
		char *shown = cJSON_PrintUnformatted(schema);

		error("%s: report schema %s is not one gate %s reads (schema "
		      "%d): compare reports written by the same gate version, "
		      "or upgrade gate", origin, shown ? shown : "?",
		      GATE_VERSION, REPORT_SCHEMA);
		cJSON_free(shown);
		goto cleanup;
	}
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

/* Its "gate_version" tells it apart. */
static int gatereport_detect(const char *text, size_t len,
			     const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_GetObjectItemCaseSensitive(root, "gate_version") != NULL;
}

const struct format_reader format_gate_reader = {
	"gate", gatereport_detect, format_parse_gate,
};
