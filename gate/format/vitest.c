/*
 * vitest bench --outputJson FILE (tinybench underneath): files[].groups[]
 * .benchmarks[], each group's fullName "path > describe > ...". A case is
 * named as vitest's -t matches it: its describe blocks and its own name
 * joined by spaces ("fib fib 15"), so "$GATE_FILTER" passed as -t selects
 * exactly the cases gate asks for. One run is one process: its value is
 * the benchmark's median time per call, in s/op (vitest's summary; the
 * "samples" it may add are single calls inside that process, repetitions,
 * and are not read). Several runs' files concatenated are several
 * processes.
 */
#include "gate/format/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/banned.h"

/* A number member of o, or NULL. */
static const cJSON *number(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v : NULL;
}

/* The case name of benchmark name in group fullName ("path > d1 > d2"):
   "d1 d2 name", onto b. */
static void case_name(struct fmt_buf *b, const char *group, const char *name)
{
	const char *p = strstr(group, " > "), *q;

	while (p) {
		p += 3;
		q = strstr(p, " > ");
		fmt_buf_add(b, p, q ? (size_t)(q - p) : strlen(p));
		fmt_buf_str(b, " ");
		p = q;
	}
	fmt_buf_str(b, name);
}

/* One benchmark of group: its value into t (0), or -1 after error_to. */
static int vitest_bench(struct fmt_table *t, const char *group,
			const cJSON *bench, const char *where,
			struct gate_err *err)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(bench, "name");
	const cJSON *v = number(bench, "median");
	struct fmt_buf b = FMT_BUF_INIT;
	const struct fmt_case *c;

	if (!v)		/* before vitest 2: tinybench's mean alone */
		v = number(bench, "mean");
	if (!cJSON_IsString(name) || !v)
		return error_to(err, "%s: a benchmark with no \"name\" or no "
				"\"median\" and \"mean\": not vitest bench's "
				"--outputJson", where);
	case_name(&b, group, name->valuestring);
	c = fmt_table_find(t, b.buf, "s/op");
	if (c && c->n > t->proc) {	/* a value from this run already */
		error_to(err, "%s: two benchmarks named \"%s\" (describe "
			 "blocks and name, as -t matches them): gate cannot "
			 "tell them apart, rename one", where, b.buf);
		free(b.buf);
		return -1;
	}
	/* vitest's times are milliseconds */
	fmt_table_add(t, b.buf, b.len, "s/op", v->valuedouble * 1e-3);
	free(b.buf);
	return 0;
}

/* One --outputJson document (one run) into t. */
static int vitest_doc(struct fmt_table *t, const cJSON *doc,
		      const char *where, struct gate_err *err)
{
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(doc, "files");
	const cJSON *f, *g, *bench;

	if (!cJSON_IsArray(files))
		return error_to(err, "%s: no \"files\" list: not vitest "
				"bench's --outputJson", where);
	cJSON_ArrayForEach(f, files) {
		const cJSON *groups = cJSON_GetObjectItemCaseSensitive(f,
								"groups");

		if (!cJSON_IsArray(groups))
			return error_to(err, "%s: a file with no \"groups\" "
					"list: not vitest bench's "
					"--outputJson", where);
		cJSON_ArrayForEach(g, groups) {
			const cJSON *full =
				cJSON_GetObjectItemCaseSensitive(g, "fullName");
			const cJSON *list =
				cJSON_GetObjectItemCaseSensitive(g,
								 "benchmarks");

			if (!cJSON_IsString(full) || !cJSON_IsArray(list))
				return error_to(err, "%s: a group with no "
						"\"fullName\" or no "
						"\"benchmarks\": not vitest "
						"bench's --outputJson", where);
			cJSON_ArrayForEach(bench, list)
				if (vitest_bench(t, full->valuestring, bench,
						 where, err) < 0)
					return -1;
		}
	}
	return 0;
}

/* What vitest_run needs of the parse. */
struct vitest_ctx {
	struct fmt_table *t;
	const char *text, *origin;
	size_t len;
	struct gate_err *err;
};

/* One run's document at offset at: its values, the next process. */
static int vitest_run(void *ctx, const cJSON *doc, size_t at)
{
	struct vitest_ctx *v = ctx;
	char where[512];
	size_t line, col;
	int rc;

	jsonpos_linecol(v->text, v->len, at, &line, &col);
	snprintf(where, sizeof(where), "%s:%zu:%zu", v->origin, line, col);
	rc = vitest_doc(v->t, doc, where, v->err);
	v->t->proc++;
	return rc;
}

static int vitest_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	struct vitest_ctx v = { .t = t, .text = text, .origin = origin,
				.len = len, .err = o->err };

	t->proc = 0;
	return format_json_docs(text, len, origin, "vitest",
				vitest_run, &v, o->err);
}

/* {"files": [{"filepath": ..., "groups": [...]}, ...]} */
static int vitest_detect(const char *text, size_t len, const struct cJSON *root)
{
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files");

	(void)text;
	(void)len;
	return cJSON_IsArray(files) && files->child &&
	       cJSON_GetObjectItemCaseSensitive(files->child, "groups");
}

const struct format_reader format_vitest_reader = {
	.name = "vitest",
	.what = "vitest bench's --outputJson (tinybench), runs concatenated",
	.detect = vitest_detect,
	.broken_json_keys = { "\"groups\"" },
	.parse = vitest_parse,
	.values = FMT_VALUES_PER_PROCESS,
	/* the command passes "$GATE_FILTER" (an anchored regex over the
	   names as -t matches them) as vitest's -t (gate.json(5)) */
	.select = fmt_select_gate_filter,
	.list = fmt_list_gate_list,
	.list_how = "a whole run, whose results name the cases",
	.processes_how = "one vitest bench run per process, their "
			 "--outputJson files concatenated",
};
