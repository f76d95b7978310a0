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

/* One criterion_parse's state: the table, the text, the pending pair. */
struct crit_ctx {
	struct fmt_table *t;
	struct crit_pending p;
	const char *text, *origin;
	size_t len;
	struct gate_err *err;
};

/* One document at offset at: its part of the pending pair. */
static int crit_doc(void *ctx, const cJSON *doc, size_t at)
{
	struct crit_ctx *c = ctx;
	struct crit_pending *p = &c->p;
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "full_id");
	size_t line, col;

	jsonpos_linecol(c->text, c->len, at, &line, &col);
	if (cJSON_IsString(id)) {
		if (p->id)
			return error_to(c->err, "%s:%zu:%zu: benchmark \"%s\" "
					"came with no sample.json: not "
					"criterion's <id>/new/ files together",
					c->origin, line, col, p->id);
		p->id = xstrdup(id->valuestring);
		p->id_at = at;
	} else if (cJSON_GetObjectItemCaseSensitive(doc, "iters")) {
		if (p->sample)
			return error_to(c->err, "%s:%zu:%zu: a sample.json "
					"with no benchmark.json beside it",
					c->origin, line, col);
		p->sample = cJSON_Duplicate(doc, 1);
		p->sample_at = at;
	} else if (!cJSON_IsArray(doc) &&
		   !cJSON_GetObjectItemCaseSensitive(doc, "mean")) {
		/* not tukey.json, estimates.json (skipped) */
		return error_to(c->err, "%s:%zu:%zu: not one of criterion's "
				"files (benchmark.json, sample.json)",
				c->origin, line, col);
	}
	return p->id && p->sample ?
	       crit_emit(c->t, p, c->origin, c->text, c->len, c->err) : 0;
}

static int crit_parse(struct fmt_table *t, const char *text, size_t len,
		      const char *origin, const struct fmt_opts *o)
{
	struct crit_ctx c = { .t = t, .text = text, .origin = origin,
			      .len = len, .err = o->err };
	size_t line, col;
	int ret = -1;

	t->track = 1;
	if (format_json_docs(text, len, origin, "criterion", crit_doc, &c,
			     o->err) < 0)
		goto cleanup;
	if (c.p.id || c.p.sample) {
		jsonpos_linecol(text, len, c.p.id ? c.p.id_at : c.p.sample_at,
				&line, &col);
		error_to(o->err, "%s:%zu:%zu: %s without its %s: the output "
			 "was cut short, or a file is missing", origin, line,
			 col, c.p.id ? "a benchmark.json" : "a sample.json",
			 c.p.id ? "sample.json" : "benchmark.json");
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(c.p.id);
	cJSON_Delete(c.p.sample);
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
