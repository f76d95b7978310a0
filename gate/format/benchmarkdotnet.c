/*
 * BenchmarkDotNet's full JSON report (its JSON exporter's
 * *-report-full.json or -full-compressed.json: "Benchmarks"[], each with
 * its "Measurements"), one file per benchmark class, concatenated. A case
 * is the benchmark's FullName ("Ns.Type.Method(a: 1)"), with " [Job]" when
 * DisplayInfo names a job other than DefaultJob (one method may run under
 * several). Its values are the Workload/Result measurements, each an
 * iteration's time per operation (Nanoseconds / Operations) in s/op, the
 * overhead already taken off by BenchmarkDotNet; LaunchIndex is the
 * process they came from (BenchmarkDotNet launches each benchmark
 * LaunchCount times), and a file read after another with the same case
 * is further processes.
 */
#include "gate/format/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/banned.h"

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* FullName, and " [Job]" from DisplayInfo ("Type.Method: Job(...) [p]"),
   onto b. */
static void case_name(struct fmt_buf *b, const char *full, const char *info)
{
	const char *job = info ? strstr(info, ": ") : NULL;
	size_t n;

	fmt_buf_str(b, full);
	if (!job)
		return;
	job += 2;
	n = strcspn(job, "( ");
	if (n && !(n == 10 && !memcmp(job, "DefaultJob", 10))) {
		fmt_buf_str(b, " [");
		fmt_buf_add(b, job, n);
		fmt_buf_str(b, "]");
	}
}

/* 1 for a measurement of the workload's result (an older report's
   IterationMode "Result" alone). */
static int is_result(const cJSON *m)
{
	const char *mode = str(m, "IterationMode");
	const char *stage = str(m, "IterationStage");

	return mode && ((!strcmp(mode, "Workload") && stage &&
			 !strcmp(stage, "Result")) ||
			!strcmp(mode, "Result"));
}

/* One benchmark's result measurements into t. */
static int bdn_bench(struct fmt_table *t, const cJSON *bench,
		     const char *where, struct gate_err *err)
{
	const char *full = str(bench, "FullName");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(bench,
							   "Measurements");
	struct fmt_buf name = FMT_BUF_INIT;
	const cJSON *m;
	size_t base, n = 0;
	int ret = -1;

	if (!full)
		return error_to(err, "%s: a benchmark with no \"FullName\": "
				"not BenchmarkDotNet's JSON", where);
	if (!cJSON_IsArray(ms))
		return error_to(err, "%s: benchmark \"%s\" has no "
				"\"Measurements\": BenchmarkDotNet's brief "
				"JSON; gate reads the full one "
				"(*-report-full.json)", where, full);
	case_name(&name, full, str(bench, "DisplayInfo"));
	/* a case seen in an earlier file: its launches come after */
	base = fmt_table_procs_of(t, name.buf, "s/op");
	cJSON_ArrayForEach(m, ms) {
		const cJSON *launch, *ops, *ns;

		if (!is_result(m))
			continue;
		launch = cJSON_GetObjectItemCaseSensitive(m, "LaunchIndex");
		ops = cJSON_GetObjectItemCaseSensitive(m, "Operations");
		ns = cJSON_GetObjectItemCaseSensitive(m, "Nanoseconds");
		if (!cJSON_IsNumber(launch) || !(launch->valuedouble >= 1) ||
		    !(launch->valuedouble < 1e6) || !cJSON_IsNumber(ops) ||
		    !(ops->valuedouble >= 1) || !cJSON_IsNumber(ns)) {
			error_to(err, "%s: benchmark \"%s\": a measurement "
				 "with no LaunchIndex (from 1), Operations "
				 "(at least 1) or Nanoseconds", where,
				 name.buf);
			goto cleanup;
		}
		t->proc = base + (size_t)launch->valuedouble - 1;
		fmt_table_add(t, name.buf, name.len, "s/op",
			      ns->valuedouble * 1e-9 / ops->valuedouble);
		n++;
	}
	if (!n) {
		error_to(err, "%s: benchmark \"%s\" has no result "
			 "measurements (did it fail?)", where, name.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(name.buf);
	return ret;
}

/* What bdn_file needs of the parse. */
struct bdn_ctx {
	struct fmt_table *t;
	const char *text, *origin;
	size_t len;
	struct gate_err *err;
};

/* One report at offset at. */
static int bdn_file(void *ctx, const cJSON *doc, size_t at)
{
	struct bdn_ctx *d = ctx;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc,
							     "Benchmarks");
	const cJSON *b;
	char where[512];
	size_t line, col;

	jsonpos_linecol(d->text, d->len, at, &line, &col);
	snprintf(where, sizeof(where), "%s:%zu:%zu", d->origin, line, col);
	if (!cJSON_IsArray(list))
		return error_to(d->err, "%s: no \"Benchmarks\" list: not "
				"BenchmarkDotNet's JSON report", where);
	cJSON_ArrayForEach(b, list)
		if (bdn_bench(d->t, b, where, d->err) < 0)
			return -1;
	return 0;
}

static int bdn_parse(struct fmt_table *t, const char *text, size_t len,
		     const char *origin, const struct fmt_opts *o)
{
	struct bdn_ctx d = { .t = t, .text = text, .origin = origin,
			  .len = len, .err = o->err };

	t->track = 1;
	return format_json_docs(text, len, origin, "BenchmarkDotNet",
				bdn_file, &d, o->err);
}

static int bdn_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root,
							      "Benchmarks")) &&
	       cJSON_GetObjectItemCaseSensitive(root, "HostEnvironmentInfo");
}

/* The part of a name --filter selects: "Ns.Type.Method", before the
   parameters and the job. */
static size_t bdn_group(const char *name)
{
	size_t n = strcspn(name, "("), k;
	const char *job = strstr(name, " [");

	k = job ? (size_t)(job - name) : n;
	return k < n ? k : n;
}

/* --filter with each selected method's name (a glob of BenchmarkDotNet's,
   matched against Ns.Type.Method), after the command; GATE_FILTER too,
   for a wrapper. */
static void bdn_select(struct fmt_cmd_edit *e, char *const *argv,
		       const char *shell, const char *const *names, size_t n)
{
	size_t i, j;

	(void)argv;
	(void)shell;
	e->filter = fmt_anchored(names, n);
	fmt_cmd_edit_arg(e, xstrdup("--filter"));
	for (i = 0; i < n; i++) {
		size_t k = bdn_group(names[i]);

		for (j = 0; j < i; j++)
			if (bdn_group(names[j]) == k &&
			    !memcmp(names[j], names[i], k))
				break;
		if (j == i)
			fmt_cmd_edit_arg(e, xstrndup(names[i], k));
	}
}

const struct format_reader format_benchmarkdotnet_reader = {
	.name = "benchmarkdotnet",
	.what = "BenchmarkDotNet's full JSON report (*-report-full.json), "
		"files concatenated",
	.detect = bdn_detect,
	.broken_json_keys = { "\"HostEnvironmentInfo\"",
			      "\"BenchmarkDotNetVersion\"" },
	.parse = bdn_parse,
	.values = FMT_VALUES_TRACKED,
	.select = bdn_select,
	.list = fmt_list_gate_list,
	.list_how = "a whole run, whose results name the cases",
	.group = bdn_group,
	.processes_how = "--launchCount above 1, or runs' reports "
			 "concatenated",
};
