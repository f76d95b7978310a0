/*
 * gate export: the recorded history (gate record) for other tools. BMF,
 * Bencher's metric format, is one run's results: an object keyed by
 * benchmark name, each an object keyed by measure, each {"value",
 * "lower_value", "upper_value"}; gate writes the newest record (or
 * --commit's) with a "ratio" measure (head against base, with its
 * interval) and "latency" (head's median, in ns) for timed benchmarks.
 * CSV is every record along first-parent history (a commit recorded twice
 * gives both), one row per benchmark, or one run's report (--report);
 * every text cell goes through the one CSV escape (common/escape.h), so no
 * cell is a formula a spreadsheet would run.
 */
#include "gate/cmd/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/replace.h"
#include "common/escape.h"
#include "common/file.h"
#include "gate/report/load.h"
#include "gate/config/options.h"
#include "gate/report/history.h"
#include "git/repo.h"
#include "common/banned.h"

static void add_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
}

/* The newest (or --commit's) record as BMF. */
static char *bmf(const struct history_step *st)
{
	cJSON *root = cJSON_CreateObject();
	char *text;
	size_t i;

	for (i = 0; i < st->report.n; i++) {
		const struct run_bench *b = &st->report.b[i];
		const struct bench_stats *f = history_figures(b);
		cJSON *bench, *m;

		/* an identical build is no change by construction: ratio 1,
		   not dropped (it left a "{ }" where a benchmark was) */
		if (history_identical(b)) {
			bench = cJSON_CreateObject();
			m = cJSON_AddObjectToObject(bench, "ratio");
			cJSON_AddNumberToObject(m, "value", 1);
			cJSON_AddNumberToObject(m, "lower_value", 1);
			cJSON_AddNumberToObject(m, "upper_value", 1);
			cJSON_AddItemToObject(root, b->run.cfg->name, bench);
			continue;
		}
		if (!f || !(f->estimate > 0))
			continue;
		bench = cJSON_CreateObject();
		m = cJSON_AddObjectToObject(bench, "ratio");
		cJSON_AddNumberToObject(m, "value", f->estimate);
		add_num(m, "lower_value", f->low);
		add_num(m, "upper_value", f->high);
		if (!strcmp(history_unit(b), "s") && f->head_median > 0) {
			m = cJSON_AddObjectToObject(bench, "latency");
			cJSON_AddNumberToObject(m, "value", f->head_median * 1e9);
		}
		cJSON_AddItemToObject(root, b->run.cfg->name, bench);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

/* A CSV field through the one CSV escape: quoted when it must be, and
 * never a formula. */
static void field(FILE *f, const char *s)
{
	escape_put(f, ESCAPE_CSV, s);
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputs(",", f);
}

/* One CSV row: benchmark b of run r, recorded as st (NULL: a report). */
static void csv_row(FILE *f, const char *label, const struct history_step *st,
		    const char *subject, const struct run_report *r,
		    const struct run_bench *b)
{
	const struct bench_stats *fig = history_figures(b);
	int same = history_identical(b);

	field(f, st ? st->commit : r->rev[ARM_HEAD].commit ?
	      r->rev[ARM_HEAD].commit : "");
	fputc(',', f);
	field(f, st && st->recorded_at ? st->recorded_at : "");
	fputc(',', f);
	field(f, subject ? subject : "");
	fputc(',', f);
	field(f, label ? label : "");
	fputc(',', f);
	field(f, b->run.cfg->name);
	fputc(',', f);
	field(f, metric_name(b->run.cfg->metric));
	fputc(',', f);
	field(f, history_unit(b));
	fputc(',', f);
	field(f, history_verdict(b));
	num(f, same ? 1 : fig ? fig->estimate : NAN);
	num(f, same ? 1 : fig ? fig->low : NAN);
	num(f, same ? 1 : fig ? fig->high : NAN);
	num(f, fig ? fig->level : NAN);
	num(f, b->run.cfg->min_effect);
	num(f, fig ? fig->head_median : NAN);
	fprintf(f, ",%d\n", same);
}

static const char csv_head[] = "commit,recorded_at,subject,label,benchmark,"
	"metric,unit,verdict,ratio,low,high,level,floor,head_median,"
	"identical\n";

/* Every record, each commit's older ones first: the rows of each. */
static void csv(FILE *f, const struct history *h)
{
	size_t i, j, k;

	fputs(csv_head, f);
	for (i = 0; i < h->n; i++) {
		const struct history_step *st = &h->s[i];

		for (k = st->older; k < st->older + st->nolder; k++)
			for (j = 0; j < h->older[k].report.n; j++)
				csv_row(f, h->label, &h->older[k], st->subject,
					&h->older[k].report,
					&h->older[k].report.b[j]);
		for (j = 0; j < st->report.n; j++)
			csv_row(f, h->label, st, st->subject, &st->report,
				&st->report.b[j]);
	}
}

struct export_opts {
	const char *format, *label, *commit, *output, *range, *report;
};

#define E struct export_opts
static const struct opt export_rows[] = {
	OPT_STRING("format", "F", E, format, "bencher: Bencher's metric format "
		   "(BMF JSON) of the newest record in RANGE (or --commit's); "
		   "csv: every record in RANGE, one row per benchmark",
		   "bencher csv"),
	OPT_STRING("report", "FILE", E, report, "csv: the rows of one run's "
		   "JSON report (as gate run writes it), no history read",
		   "<file>"),
	OPT_STRING("label", "NAME", E, label, "the machine whose records to "
		   "read (default as gate record's)", NULL),
	OPT_STRING("commit", "REV", E, commit, "bencher: this commit's record "
		   "instead of the newest", "<rev>"),
	OPT_STRING("output", "FILE", E, output,
		   "write to FILE instead of stdout", "<file>"),
};
#undef E

const struct opts_cmd cmd_export_opts = {
	.name = "export",
	.repo = 1,
	.operands = "[RANGE]",
	.operand_values = "<rev>",
	.also = "       gate export --format csv --report FILE "
		"[--output FILE]\n",
	.operand_help = "A..B or B (default HEAD), as gate trend's",
	.rows = export_rows,
	.n = sizeof(export_rows) / sizeof(export_rows[0]),
	.footer = "exit: 0 written, 3 error (no record included)\n",
};

/* The options into o. */
static enum opts_result parse_options(struct export_opts *o, int argc,
				       char **argv)
{
	enum opts_result res;
	int i;

	res = options_parse(&cmd_export_opts, o, argc, argv, &i);
	if (res != OPTS_GO)
		return res;
	if (i < argc)
		o->range = argv[i++];
	if (i < argc)
		return options_usage_error(&cmd_export_opts,
					   "unexpected argument", argv[i]);
	if (!o->format ||
	    (strcmp(o->format, "bencher") && strcmp(o->format, "csv"))) {
		error("--format wants bencher or csv, not \"%s\"",
		      o->format ? o->format : "");
		options_usage(&cmd_export_opts, stderr);
		return OPTS_ERROR;
	}
	if (o->report && (strcmp(o->format, "csv") || o->range || o->commit ||
			  o->label)) {
		error("--report FILE exports one report as csv: it takes no "
		      "RANGE, --commit or --label, and --format csv");
		options_usage(&cmd_export_opts, stderr);
		return OPTS_ERROR;
	}
	return OPTS_GO;
}

/* Whether h holds what o asks for: a record, and --commit's own. 0 or
   -1 after an error. */
static int check_found(const struct history *h, struct repo *repo,
		       const struct export_opts *o)
{
	int missing = 0;

	if (o->commit && h->n) {
		struct repo_rev rev = REPO_REV_INIT;

		if (repo_resolve(&rev, repo, o->commit) < 0)
			return -1;
		missing = strcmp(rev.commit, h->s[h->n - 1].commit) != 0;
		repo_rev_release(&rev);
	}
	if (!h->n || missing)
		return error("no record for label \"%s\" on the first-parent "
			     "history of %s: record runs with gate record (or "
			     "fetch them: git fetch origin "
			     "+refs/notes/gate:refs/notes/gate)", h->label,
			     o->commit ? o->commit : o->range ? o->range :
			     "HEAD");
	return 0;
}

/* Everything the notes held that export did not: said, never silent. */
static void say_skipped(const struct history *h)
{
	if (h->not_records)
		warning("%zu line%s of gate's notes %s not a gate record (not "
			"JSON, or no \"gate_record\"): skipped", h->not_records,
			h->not_records == 1 ? "" : "s",
			h->not_records == 1 ? "is" : "are");
	if (h->unreadable)
		warning("%zu record%s of label \"%s\" could not be read (said "
			"above): skipped", h->unreadable,
			h->unreadable == 1 ? "" : "s", h->label);
}

/* text (from an open_memstream) to --output, else stdout: whole or not
   at all. */
static int emit(const char *text, size_t len, const struct export_opts *o)
{
	return file_replace(o->output ? o->output : "-", text, len,
			    "the export");
}

/* h in o's format to --output, else stdout. */
static int write_export(const struct history *h, const struct export_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!strcmp(o->format, "bencher")) {
		char *bm = bmf(&h->s[h->n - 1]);

		text = xasprintf("%s\n", bm);
		free(bm);
		len = strlen(text);
	} else {
		if (!(f = open_memstream(&text, &len)))
			return error("cannot format the export:");
		csv(f, h);
		if (fclose(f) != 0) {
			free(text);
			return error("cannot format the export:");
		}
	}
	ret = emit(text, len, o);
	free(text);
	return ret;
}

/* gate export --format csv --report FILE: one run's rows. */
static int export_report(const struct export_opts *o)
{
	struct run_report r;
	char *data = NULL, *text = NULL;
	size_t len, i;
	FILE *f;
	int ret = -1;

	if (file_read(&data, &len, o->report, 1u << 30) < 0)
		return -1;
	if (report_load(&r, data, len, o->report) < 0) {
		free(data);
		return -1;
	}
	free(data);
	if (!(f = open_memstream(&text, &len))) {
		error("cannot format the export:");
		goto cleanup;
	}
	fputs(csv_head, f);
	for (i = 0; i < r.n; i++)
		csv_row(f, NULL, NULL, NULL, &r, &r.b[i]);
	if (fclose(f) != 0) {
		error("cannot format the export:");
		goto cleanup;
	}
	ret = emit(text, len, o);
cleanup:
	free(text);
	report_load_release(&r);
	return ret;
}

int cmd_export(int argc, char **argv, struct gate_ctx *ctx)
{
	struct export_opts o = { 0 };
	struct history h;
	int ready, rc, code = EXIT_ERROR;

	rc = parse_options(&o, argc, argv);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if (o.report)
		return export_report(&o) < 0 ? EXIT_ERROR : EXIT_PASS;
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	/* --commit: that commit's record alone */
	if (history_load_arg(&h, ctx->repo, o.commit ? o.commit : o.range,
			     o.label, &cmd_export_opts) < 0)
		return EXIT_ERROR;
	say_skipped(&h);
	if (check_found(&h, ctx->repo, &o) == 0 && write_export(&h, &o) == 0)
		code = EXIT_PASS;
	history_release(&h);
	return code;
}
