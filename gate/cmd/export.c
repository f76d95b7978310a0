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

static char *bmf(const struct history_step *st)
{
	cJSON *root = cJSON_CreateObject();
	char *text;
	size_t i;

	for (i = 0; i < st->n; i++) {
		const struct history_bench *b = &st->b[i];
		cJSON *bench, *m;

		if (!(b->estimate > 0))
			continue;
		bench = cJSON_CreateObject();
		m = cJSON_AddObjectToObject(bench, "ratio");
		cJSON_AddNumberToObject(m, "value", b->estimate);
		add_num(m, "lower_value", b->low);
		add_num(m, "upper_value", b->high);
		if (!strcmp(b->unit, "s") && b->head_median > 0) {
			m = cJSON_AddObjectToObject(bench, "latency");
			cJSON_AddNumberToObject(m, "value", b->head_median * 1e9);
		}
		cJSON_AddItemToObject(root, b->name, bench);
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

static void csv(FILE *f, const struct history *h)
{
	size_t i, j;

	fputs("commit,recorded_at,subject,label,benchmark,metric,unit,verdict,"
	      "ratio,low,high,level,floor,head_median\n", f);
	for (i = 0; i < h->n; i++)
		for (j = 0; j < h->s[i].n; j++) {
			const struct history_step *st = &h->s[i];
			const struct history_bench *b = &st->b[j];

			fprintf(f, "%s,", st->commit);
			field(f, st->recorded_at ? st->recorded_at : "");
			fputc(',', f);
			field(f, st->subject);
			fputc(',', f);
			field(f, h->label);
			fputc(',', f);
			field(f, b->name);
			fputc(',', f);
			field(f, b->metric);
			fputc(',', f);
			field(f, b->unit);
			fputc(',', f);
			field(f, b->verdict);
			num(f, b->estimate);
			num(f, b->low);
			num(f, b->high);
			num(f, b->level);
			num(f, b->floor);
			num(f, b->head_median);
			fputc('\n', f);
		}
}

int cmd_export(int argc, char **argv, struct gate_ctx *ctx)
{
	int ready;
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, 'l' },
		{ "commit", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *label = NULL, *commit = NULL;
	const char *output = NULL, *range = NULL;
	char *deflabel = NULL, *text = NULL;
	struct history h;
	FILE *f = stdout;
	int o, code = EXIT_ERROR, missing = 0;

	options_getopt_reset();
	while ((o = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (o) {
		case 'f': format = optarg; break;
		case 'l': label = optarg; break;
		case 'c': commit = optarg; break;
		case 'o': output = optarg; break;
		case 'h':
			fputs(cmd_export_usage, stdout);
			return EXIT_PASS;
		default:
			error("unknown or incomplete option \"%s\"",
			      argv[optind - 1]);
			fputs(cmd_export_usage, stderr);
			return EXIT_ERROR;
		}
	}
	if (optind < argc)
		range = argv[optind++];
	if (optind < argc || !format ||
	    (strcmp(format, "bencher") && strcmp(format, "csv"))) {
		if (optind < argc)
			error("unexpected argument \"%s\"", argv[optind]);
		else
			error("--format wants bencher or csv, not \"%s\"",
			      format ? format : "");
		fputs(cmd_export_usage, stderr);
		return EXIT_ERROR;
	}
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	if (!label)
		label = deflabel = history_default_label();
	/* --commit: that commit's record alone */
	if (history_load(&h, ctx->repo, commit ? commit : range, label) < 0) {
		free(deflabel);
		return EXIT_ERROR;
	}
	if (commit && h.n) {
		struct repo_rev rev = REPO_REV_INIT;

		if (repo_resolve(&rev, ctx->repo, commit) < 0)
			goto cleanup;
		missing = strcmp(rev.commit, h.s[h.n - 1].commit) != 0;
		repo_rev_release(&rev);
	}
	if (!h.n || missing) {
		error("no record for label \"%s\" on the first-parent history "
		      "of %s: record runs with gate record (or fetch them: git "
		      "fetch origin +refs/notes/gate:refs/notes/gate)", label,
		      commit ? commit : range ? range : "HEAD");
		goto cleanup;
	}
	if (output && !(f = fopen(output, "w"))) {
		error("cannot write \"%s\": %s", output, strerror(errno));
		goto cleanup;
	}
	if (!strcmp(format, "bencher")) {
		text = bmf(&h.s[h.n - 1]);
		fprintf(f, "%s\n", text);
	} else {
		csv(f, &h);
	}
	code = EXIT_PASS;
	if (ferror(f) || (f != stdout && fclose(f) != 0)) {
		error("cannot write \"%s\": %s", output ? output : "stdout",
		      strerror(errno));
		code = EXIT_ERROR;
	}
cleanup:
	free(text);
	history_release(&h);
	free(deflabel);
	return code;
}
