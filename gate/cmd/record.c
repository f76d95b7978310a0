/*
 * gate record: store a run's JSON report in git notes (refs/notes/gate) on
 * the commit it measured as head, as one line per record keyed by a
 * machine label (gate/report/history.h); gate record --last: the newest
 * first-parent ancestor with a record for the label (for nightly jobs).
 */
#include "gate/cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "ci/github.h"
#include "common/error.h"
#include "common/escape.h"
#include "gate/config/options.h"
#include "common/file.h"
#include "gate/report/history.h"
#include "gate/report/load.h"
#include "git/repo.h"
#include "common/banned.h"

#define REPORT_MAX ((size_t)256 << 20)

static void drop_samples(cJSON *report)
{
	cJSON *bs = cJSON_GetObjectItemCaseSensitive(report, "benchmarks");
	cJSON *b;

	cJSON_ArrayForEach(b, bs)
		cJSON_DeleteItemFromObjectCaseSensitive(b, "samples");
}

static int last_recorded(struct repo *repo, const char *rev,
			 const char *label)
{
	struct history h;
	int code;

	if (history_load(&h, repo, rev ? rev : "HEAD", label) < 0)
		return EXIT_ERROR;
	if (h.n) {
		printf("%s\n", h.s[h.n - 1].commit);
		code = EXIT_PASS;
	} else {
		error("no record for label \"%s\" on the first-parent history "
		      "of %s: run gate record first (or git fetch origin "
		      "+refs/notes/gate:refs/notes/gate)", label,
		      rev ? rev : "HEAD");
		code = EXIT_FAIL;
	}
	history_release(&h);
	return code;
}

/* The commit to record on: --commit, else the report's head commit. */
static int target(char *out, struct repo *repo, const char *rev,
		  const struct run_report *r, const char *path)
{
	const struct report_rev *head = &r->rev[ARM_HEAD];
	struct repo_rev rr = REPO_REV_INIT;

	if (!rev) {
		if (strlen(head->commit) != REPO_HEXSZ)
			return error("%s names no head commit: pass --commit "
				     "REV", path);
		if (head->dirty)
			return error("%s measured uncommitted changes: commit "
				     "them and run again, or pass --commit REV",
				     path);
		rev = head->commit;
	}
	if (repo_resolve(&rr, repo, rev) < 0)
		return -1;
	memcpy(out, rr.commit, REPO_HEXSZ + 1);
	repo_rev_release(&rr);
	return 0;
}

struct record_opts {
	const char *label, *rev;
	int samples, last;
};

#define O struct record_opts
static const struct opt record_rows[] = {
	OPT_STRING("label", "NAME", O, label, "the machine the run measured on "
		   "(default: $RUNNER_OS-$RUNNER_ARCH in GitHub Actions, else "
		   "the host name); history compares runs of one label only",
		   NULL),
	OPT_FLAG(0, "samples", O, samples,
		 "keep every sample in the note (default: dropped)"),
	OPT_STRING("commit", "REV", O, rev, "record on this commit instead of "
		   "the report's head", "<rev>"),
	OPT_FLAG(0, "last", O, last, "print the newest first-parent ancestor "
		 "of --commit (default HEAD) with a record for the label; exit "
		 "1 when there is none"),
};
#undef O

const struct opts_cmd cmd_record_opts = {
	.name = "record",
	.repo = 1,
	.operands = "REPORT",
	.operand_values = "<file>",
	.also = "       gate [-C DIR] record --last [--label NAME] "
		"[--commit REV]\n",
	.operand_help = "a JSON report of gate run (--json FILE), or '-' "
			"for stdin; appended to the note in refs/notes/gate "
			"on its head commit (gate compare's report: with "
			"--commit)",
	.rows = record_rows,
	.n = sizeof(record_rows) / sizeof(record_rows[0]),
	.footer = "exit: 0 recorded (or found), 1 none found (--last), 3 "
		  "error\n",
};

/*
 * The report at path, parsed, checked by the loader (what gate trend and
 * gate export will read back) and its head commit (or --commit's) into
 * commit; NULL after an error.
 */
static cJSON *read_report(char *commit, struct repo *repo,
			  const struct record_opts *o, const char *path)
{
	char *text = NULL;
	size_t len;
	cJSON *report = NULL;
	struct run_report r;

	if (file_read(&text, &len, strcmp(path, "-") ? path : "/dev/stdin",
		      REPORT_MAX) < 0)
		return NULL;
	report = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(report) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(report,
							    "benchmarks"))) {
		error("%s is not a gate JSON report (no \"benchmarks\" array): "
		      "write one with gate run --json FILE", path);
		cJSON_Delete(report);
		return NULL;
	}
	if (report_load_tree(&r, report, path, REPORT_LOAD_SUMMARY, NULL) < 0) {
		cJSON_Delete(report);
		return NULL;
	}
	if (target(commit, repo, o->rev, &r, path) < 0) {
		cJSON_Delete(report);
		report = NULL;
	}
	report_load_release(&r);
	return report;
}

/* Append the report at path to the notes as a record for label. */
static int record(struct repo *repo, const struct record_opts *o,
		  const char *label, const char *path)
{
	char commit[REPO_HEXSZ + 1], stamp[32], *line;
	cJSON *report, *rec;
	time_t t = time(NULL);
	struct tm tm;
	int ret;

	if (!(report = read_report(commit, repo, o, path)))
		return EXIT_ERROR;
	if (!o->samples)
		drop_samples(report);
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rec = cJSON_CreateObject();
	cJSON_AddNumberToObject(rec, "gate_record", 1);
	cJSON_AddStringToObject(rec, "label", label);
	cJSON_AddStringToObject(rec, "recorded_at", stamp);
	cJSON_AddItemToObject(rec, "report", report);
	line = cJSON_PrintUnformatted(rec);
	cJSON_Delete(rec);
	ret = repo_note_append(repo, HISTORY_REF, commit, line);
	free(line);
	if (ret < 0)
		return EXIT_ERROR;
	/* the label is the user's text: shown, never obeyed */
	printf("recorded on %.12s as \"", commit);
	escape_put(stdout, ci_github_active() ? ESCAPE_ACTIONS :
		   ESCAPE_TERM_LINE, label);
	printf("\" in %s\n", HISTORY_REF);
	if (fflush(stdout) != 0)
		error("cannot write to stdout: the record is stored");
	return EXIT_PASS;
}

int cmd_record(int argc, char **argv, struct gate_ctx *ctx)
{
	struct record_opts o = { 0 };
	char *label;
	int ready, code, i;

	code = options_parse(&cmd_record_opts, &o, argc, argv, &i);
	if (code != OPTS_GO)
		return code == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	if (!(label = history_label_arg(o.label, &cmd_record_opts)))
		return EXIT_ERROR;
	if (o.last && i < argc) {
		options_usage_error(&cmd_record_opts, "unexpected argument",
				    argv[i]);
		code = EXIT_ERROR;
	} else if (o.last) {
		code = last_recorded(ctx->repo, o.rev, label);
	} else if (i + 1 != argc && i < argc) {
		options_usage_error(&cmd_record_opts, "unexpected argument",
				    argv[i + 1]);
		code = EXIT_ERROR;
	} else if (i + 1 != argc) {
		error("gate record needs a report: gate run --json FILE, then "
		      "gate record FILE");
		options_usage(&cmd_record_opts, stderr);
		code = EXIT_ERROR;
	} else {
		code = record(ctx->repo, &o, label, argv[i]);
	}
	free(label);
	return code;
}
