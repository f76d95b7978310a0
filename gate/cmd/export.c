/*
 * gate export: the recorded history (gate record) for other tools. BMF,
 * Bencher's metric format, is one run's results: an object keyed by
 * benchmark name, each an object keyed by measure, each {"value",
 * "lower_value", "upper_value"}; gate writes the newest record (or
 * --commit's) with a "ratio" measure (head against base, with its
 * interval) and "latency" (head's median, in ns) for timed benchmarks.
 * CSV is every record along first-parent history, one row per benchmark.
 */
#include "gate/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/options.h"
#include "gate/history.h"
#include "git/repo.h"
#include "common/banned.h"

const char cmd_export_usage[] =
	"usage: gate [-C DIR] export --format bencher|csv [--label NAME]\n"
	"                           [--commit REV] [--output FILE] [RANGE]\n"
	"\n"
	"  --format F     bencher: Bencher's metric format (BMF JSON) of the\n"
	"                 newest record in RANGE (or --commit's); csv: every\n"
	"                 record in RANGE, one row per benchmark\n"
	"  --label NAME   the machine whose records to read (default as gate\n"
	"                 record's)\n"
	"  --commit REV   bencher: this commit's record instead of the newest\n"
	"  --output FILE  write to FILE instead of stdout\n"
	"  RANGE          A..B or B (default HEAD), as gate trend's\n"
	"\n"
	"exit: 0 written, 3 error (no record included)\n";

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

/* A CSV field: quoted when it holds a comma, quote or line break. */
static void field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputs(",", f);
}

/* One CSV row: benchmark b of record st. */
static void csv_row(FILE *f, const struct history *h,
		   const struct history_step *st, const struct run_bench *b)
{
	const struct bench_stats *fig = history_figures(b);

	fprintf(f, "%s,", st->commit);
	field(f, st->recorded_at ? st->recorded_at : "");
	fputc(',', f);
	field(f, st->subject);
	fputc(',', f);
	field(f, h->label);
	fputc(',', f);
	field(f, b->run.cfg->name);
	fputc(',', f);
	field(f, history_metric(st, b));
	fputc(',', f);
	field(f, history_unit(b));
	fputc(',', f);
	field(f, history_verdict(b));
	num(f, fig ? fig->estimate : NAN);
	num(f, fig ? fig->low : NAN);
	num(f, fig ? fig->high : NAN);
	num(f, fig ? fig->level : NAN);
	num(f, b->run.cfg->min_effect);
	num(f, fig ? fig->head_median : NAN);
	fputc('\n', f);
}

static void csv(FILE *f, const struct history *h)
{
	size_t i, j;

	fputs("commit,recorded_at,subject,label,benchmark,metric,unit,verdict,"
	      "ratio,low,high,level,floor,head_median\n", f);
	for (i = 0; i < h->n; i++)
		for (j = 0; j < h->s[i].report.n; j++)
			csv_row(f, h, &h->s[i], &h->s[i].report.b[j]);
}

struct export_opts {
	const char *format, *label, *commit, *output, *range;
};

/* The options into o. */
static enum opts_result parse_options(struct export_opts *o, int argc,
				       char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, 'l' },
		{ "commit", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	options_getopt_reset();
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': o->format = optarg; break;
		case 'l': o->label = optarg; break;
		case 'c': o->commit = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h':
			fputs(cmd_export_usage, stdout);
			return OPTS_HELP;
		default:
			error("unknown or incomplete option \"%s\"",
			      argv[optind - 1]);
			fputs(cmd_export_usage, stderr);
			return OPTS_ERROR;
		}
	}
	if (optind < argc)
		o->range = argv[optind++];
	if (optind < argc || !o->format ||
	    (strcmp(o->format, "bencher") && strcmp(o->format, "csv"))) {
		if (optind < argc)
			error("unexpected argument \"%s\"", argv[optind]);
		else
			error("--format wants bencher or csv, not \"%s\"",
			      o->format ? o->format : "");
		fputs(cmd_export_usage, stderr);
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

/* h in o's format to --output, else stdout. */
static int write_export(const struct history *h, const struct export_opts *o)
{
	FILE *f = stdout;
	char *text;
	int ret = 0;

	if (o->output && !(f = fopen(o->output, "w")))
		return error("cannot write \"%s\": %s", o->output,
			     strerror(errno));
	if (!strcmp(o->format, "bencher")) {
		text = bmf(&h->s[h->n - 1]);
		fprintf(f, "%s\n", text);
		free(text);
	} else {
		csv(f, h);
	}
	if (ferror(f) || (f != stdout && fclose(f) != 0))
		ret = error("cannot write \"%s\": %s",
			    o->output ? o->output : "stdout", strerror(errno));
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
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	/* --commit: that commit's record alone */
	if (history_load_arg(&h, ctx->repo, o.commit ? o.commit : o.range,
			     o.label, cmd_export_usage) < 0)
		return EXIT_ERROR;
	if (check_found(&h, ctx->repo, &o) == 0 && write_export(&h, &o) == 0)
		code = EXIT_PASS;
	history_release(&h);
	return code;
}
