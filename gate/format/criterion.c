/*
 * Rust's criterion: the JSON files it writes for each benchmark under
 * <criterion home>/<id>/new/, concatenated on stdout (find ... -exec cat),
 * since criterion prints only summaries: benchmark.json names the case
 * ("full_id"), sample.json holds its samples ("iters" and "times" in ns,
 * each sample a batch of iterations). A value is one sample's time per
 * iteration, in s/iter; a benchmark.json and the sample.json of its
 * directory come together, in either order; estimates.json and
 * tukey.json may come between and are skipped.
 */
#include "gate/format/format.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/banned.h"

/* What one directory's files gave so far. */
struct crit_pending {
	char *id;		/* benchmark.json's full_id, or NULL */
	cJSON *sample;		/* sample.json, or NULL */
	size_t id_at, sample_at;	/* their offsets, for messages */
};

/* How many times name has come before (a second run of the same
   benchmark is another process). */
static size_t runs_before(const struct fmt_table *t, const char *name)
{
	const struct fmt_case *c = fmt_table_find(t, name, "s/iter");

	return c && c->proc ? c->proc[c->n - 1] + 1 : 0;
}

/* The pending pair's values into t: 0, or -1 after error_to. */
static int crit_emit(struct fmt_table *t, struct crit_pending *p,
		     const char *origin, const char *text, size_t len,
		     struct gate_err *err)
{
	const cJSON *iters = cJSON_GetObjectItemCaseSensitive(p->sample,
							       "iters");
	const cJSON *times = cJSON_GetObjectItemCaseSensitive(p->sample,
							       "times");
	const cJSON *i, *s;
	size_t line, col;

	jsonpos_linecol(text, len, p->sample_at, &line, &col);
	if (!cJSON_IsArray(iters) || !cJSON_IsArray(times) ||
	    cJSON_GetArraySize(iters) != cJSON_GetArraySize(times) ||
	    !cJSON_GetArraySize(iters))
		return error_to(err, "%s:%zu:%zu: benchmark \"%s\": its "
				"sample.json needs \"iters\" and \"times\" "
				"lists of one length", origin, line, col,
				p->id);
	t->proc = runs_before(t, p->id);
	for (i = iters->child, s = times->child; i && s;
	     i = i->next, s = s->next) {
		if (!cJSON_IsNumber(i) || !cJSON_IsNumber(s) ||
		    !(i->valuedouble >= 1))
			return error_to(err, "%s:%zu:%zu: benchmark \"%s\": "
					"a sample that is not a number of "
					"iterations (at least 1) and a time",
					origin, line, col, p->id);
		/* criterion's times are nanoseconds for the whole batch */
		fmt_table_add(t, p->id, strlen(p->id), "s/iter",
			      s->valuedouble * 1e-9 / i->valuedouble);
	}
	free(p->id);
	cJSON_Delete(p->sample);
	memset(p, 0, sizeof(*p));
	return 0;
}

/* One parsed document at offset at: its part of the pending pair. */
static int crit_doc(struct fmt_table *t, struct crit_pending *p, cJSON *doc,
		    size_t at, const char *origin, const char *text,
		    size_t len, struct gate_err *err)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "full_id");
	size_t line, col;

	jsonpos_linecol(text, len, at, &line, &col);
	if (cJSON_IsString(id)) {
		if (p->id) {
			cJSON_Delete(doc);
			return error_to(err, "%s:%zu:%zu: benchmark \"%s\" "
					"came with no sample.json: not "
					"criterion's <id>/new/ files together",
					origin, line, col, p->id);
		}
		p->id = xstrdup(id->valuestring);
		p->id_at = at;
		cJSON_Delete(doc);
	} else if (cJSON_GetObjectItemCaseSensitive(doc, "iters")) {
		if (p->sample) {
			cJSON_Delete(doc);
			return error_to(err, "%s:%zu:%zu: a sample.json with "
					"no benchmark.json beside it", origin,
					line, col);
		}
		p->sample = doc;
		p->sample_at = at;
	} else if (cJSON_IsArray(doc) ||
		   cJSON_GetObjectItemCaseSensitive(doc, "mean")) {
		cJSON_Delete(doc);	/* tukey.json, estimates.json */
		return 0;
	} else {
		cJSON_Delete(doc);
		return error_to(err, "%s:%zu:%zu: not one of criterion's "
				"files (benchmark.json, sample.json)", origin,
				line, col);
	}
	return p->id && p->sample ? crit_emit(t, p, origin, text, len, err) :
	       0;
}

static int crit_parse(struct fmt_table *t, const char *text, size_t len,
		      const char *origin, const struct fmt_opts *o)
{
	struct crit_pending p = { NULL, NULL, 0, 0 };
	size_t off = 0, line, col;
	int ret = -1;

	t->track = 1;
	for (;;) {
		const char *end = NULL;
		cJSON *doc;

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
			error_to(o->err, "%s:%zu:%zu: syntax error: not "
				 "criterion's JSON files one after another "
				 "(truncated, or criterion's own output on "
				 "stdout? send it to stderr)", origin, line,
				 col);
			goto cleanup;
		}
		if (crit_doc(t, &p, doc, off, origin, text, len, o->err) < 0)
			goto cleanup;
		off = (size_t)(end - text);
	}
	if (p.id || p.sample) {
		jsonpos_linecol(text, len, p.id ? p.id_at : p.sample_at,
				&line, &col);
		error_to(o->err, "%s:%zu:%zu: %s without its %s: the output "
			 "was cut short, or a file is missing", origin, line,
			 col, p.id ? "a benchmark.json" : "a sample.json",
			 p.id ? "sample.json" : "benchmark.json");
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(p.id);
	cJSON_Delete(p.sample);
	return ret;
}

/* Its first file is a benchmark.json or a sample.json. */
static int crit_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	return (cJSON_GetObjectItemCaseSensitive(root, "full_id") &&
		cJSON_GetObjectItemCaseSensitive(root, "directory_name")) ||
	       (cJSON_GetObjectItemCaseSensitive(root, "sampling_mode") &&
		cJSON_GetObjectItemCaseSensitive(root, "iters"));
}

const struct format_reader format_criterion_reader = {
	.name = "criterion",
	.what = "Rust criterion's <id>/new/benchmark.json and sample.json, "
		"concatenated",
	.detect = crit_detect,
	.broken_json_keys = { "\"directory_name\"", "\"sampling_mode\"" },
	.parse = crit_parse,
	.values = FMT_VALUES_TRACKED,
	/* criterion's filter is a regex argument: the command passes
	   "$GATE_FILTER" to it (gate.json(5) shows how) */
	.select = fmt_select_gate_filter,
	.list = fmt_list_gate_list,
	.list_how = "a whole run, whose results name the cases, or "
		    "criterion's --list when GATE_LIST=1 is set",
	.list_names = fmt_names_bench_list,
};
