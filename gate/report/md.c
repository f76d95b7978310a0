/*
 * The Markdown report: a GitHub job summary or pull-request comment body a
 * reviewer reads in five seconds (a headline, one row per benchmark, why),
 * with the protocol disclosure folded underneath.
 */
#include "gate/report/view.h"

#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/escape.h"
#include "common/replace.h"
#include "common/banned.h"

/* Text in a table cell or a line: the one Markdown escape (escape.h). */
static void md_text(FILE *out, const char *s)
{
	escape_put(out, ESCAPE_MD, s);
}

static const char *icon(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS: return "\xe2\x9c\x85";	/* white heavy check mark */
	case VERDICT_FAIL: return "\xe2\x9d\x8c";	/* cross mark */
	case VERDICT_NOISY: return "\xe2\x9a\xa0\xef\xb8\x8f";	/* warning */
	case VERDICT_ERROR: return "\xf0\x9f\x9b\x91";	/* stop sign */
	case VERDICT_NEW: return "\xf0\x9f\x86\x95";	/* NEW button */
	case VERDICT_ACCEPTED: return "\xe2\x98\x91\xef\xb8\x8f";	/* ballot box with check */
	}
	return "";
}

static const char *upper(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS: return "PASS";
	case VERDICT_FAIL: return "FAIL";
	case VERDICT_NOISY: return "NOISY";
	case VERDICT_ERROR: return "ERROR";
	case VERDICT_NEW: return "NEW";
	case VERDICT_ACCEPTED: return "ACCEPTED";
	}
	return "?";
}

/* "sort +95.4%, parse +7.2%": the benchmarks with verdict v. */
static void list_of(FILE *out, const struct report_view *v, enum verdict w)
{
	size_t i, k = 0;

	for (i = 0; i < v->nbenches; i++) {
		const struct view_bench *vb = &v->benches[i];

		if (vb->verdict != w)
			continue;
		fputs(k++ ? ", " : "", out);
		fputs("**", out);
		md_text(out, vb->name);
		fputs("**", out);
		if (vb->has_change) {
			const struct view_row *r = &v->rows[vb->decisive];

			fprintf(out, " %s", r->change);
			if (w == VERDICT_FAIL || w == VERDICT_ACCEPTED)
				fprintf(out, " %s", r->worse);
		}
	}
}

static void headline(FILE *out, const struct report_view *v)
{
	if (v->interrupted) {
		fprintf(out, "### \xe2\x8f\xb9\xef\xb8\x8f gate: interrupted by "
			"signal %d before a verdict\n\n", v->interrupted);
		return;
	}
	fprintf(out, "### %s gate: %s", icon(v->suite), upper(v->suite));
	if (v->error && !v->nbenches) {
		fputs(" \xe2\x80\x94 could not measure\n\n", out);
		return;
	}
	switch (v->suite) {
	case VERDICT_FAIL:
		fputs(" \xe2\x80\x94 regressed: ", out);
		list_of(out, v, VERDICT_FAIL);
		break;
	case VERDICT_NOISY:
		fputs(" \xe2\x80\x94 inconclusive: ", out);
		list_of(out, v, VERDICT_NOISY);
		break;
	case VERDICT_ERROR:
		fputs(" \xe2\x80\x94 could not measure: ", out);
		list_of(out, v, VERDICT_ERROR);
		break;
	case VERDICT_ACCEPTED:
		fputs(" \xe2\x80\x94 regressed, as a Gate-Accept trailer "
		      "accepts: ", out);
		list_of(out, v, VERDICT_ACCEPTED);
		break;
	default:
		fputs(" \xe2\x80\x94 no regression above the floor", out);
		break;
	}
	fputs("\n\n", out);
	if (v->advisory)
		fprintf(out, "_Advisory mode: gate exits 0 instead of %d._\n\n",
			v->advisory_code);
}

static void row(FILE *out, const struct report_view *v,
		const struct view_row *row)
{
	fprintf(out, "| %s | ", icon(row->verdict));
	md_text(out, row->first ? row->bench : "");
	fputs(" | ", out);
	md_text(out, row->metric);
	if (!row->measured) {
		fprintf(out, " | |%s | | | | | %s |\n",
			v->throughput ? " |" : "",
			row->verdict == VERDICT_NEW ? "new, not compared" :
			row->verdict == VERDICT_ERROR ? "**error**" : row->word);
		return;
	}
	fprintf(out, " | %s | %s", row->base, row->head);
	if (v->throughput)
		fprintf(out, " | %s", row->throughput);
	fprintf(out, " | **%s** | %s | %s | %zu of %zu | ", row->change,
		row->interval, row->floor_pct, row->head_slower, row->of);
	if (!row->gating)
		fputs("(info) ", out);
	if (row->verdict == VERDICT_FAIL || row->verdict == VERDICT_NOISY ||
	    row->verdict == VERDICT_ERROR)
		fprintf(out, "**%s** |\n", row->word);
	else
		fprintf(out, "%s |\n", row->word);
}

/* "- name: text" (or "- name metric: text"), escaped. */
static void item(FILE *out, const char *name, const char *metric,
		 const char *text)
{
	fputs("- ", out);
	md_text(out, name);
	if (metric) {
		fputc(' ', out);
		md_text(out, metric);
	}
	fputs(": ", out);
	md_text(out, text);
	fputc('\n', out);
}

/* The order benchmarks are shown in: what needs attention first. */
static int severity(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL: return 0;
	case VERDICT_ERROR: return 1;
	case VERDICT_NOISY: return 2;
	case VERDICT_ACCEPTED: return 3;
	case VERDICT_NEW: return 4;
	case VERDICT_PASS: return 5;
	}
	return 5;
}

static void reasons_of(FILE *out, const struct report_view *v,
		       const struct view_bench *vb)
{
	char metric[64];
	size_t k;

	if (vb->why) {
		item(out, vb->name, NULL, vb->why);
		return;
	}
	for (k = vb->row; k < vb->row + vb->nrows; k++) {
		const struct view_row *r = &v->rows[k];

		if (!r->reason)
			continue;
		snprintf(metric, sizeof(metric), "%s%s", r->metric,
			 r->gating ? "" : " (informational)");
		item(out, vb->name, vb->nrows > 1 ? metric : NULL, r->reason);
	}
	if (vb->note)
		item(out, vb->name, vb->note_label, vb->note);
}

static void table_head(FILE *out, const struct report_view *v)
{
	fprintf(out, "| | benchmark | metric | base | head | %schange | ",
		v->throughput ? "throughput b/h | " : "");
	md_text(out, v->bounds);
	fprintf(out, " | floor | head worse | verdict |\n"
		"|---|---|---|--:|--:|%s--:|---|--:|---|---|\n",
		v->throughput ? "--:|" : "");
}

/* The benchmarks whose verdict is (pass) or is not (!pass) a pass, in
 * order of severity: their rows, then (reasons) their reasons. */
static size_t section(FILE *out, const struct report_view *v, int pass,
		      int reasons)
{
	size_t i, k, n = 0;
	int rank;

	for (rank = 0; rank <= 5; rank++)
		for (i = 0; i < v->nbenches; i++) {
			const struct view_bench *vb = &v->benches[i];

			if (severity(vb->verdict) != rank ||
			    (vb->verdict == VERDICT_PASS) != pass)
				continue;
			if (!n++ && !reasons)
				table_head(out, v);
			if (reasons)
				reasons_of(out, v, vb);
			else
				for (k = vb->row; k < vb->row + vb->nrows; k++)
					row(out, v, &v->rows[k]);
		}
	return n;
}

/* One row across the suite: the counts and the geometric mean. */
static void summary(FILE *out, const struct report_view *v)
{
	fprintf(out, "| benchmarks | geometric mean of head/base | verdicts "
		"|\n|--:|--:|---|\n| %zu | ", v->nbenches);
	if (v->ngeomean)
		fprintf(out, "%s (over %zu measured)", v->geomean_pct,
			v->ngeomean);
	else
		fputs("- (none measured)", out);
	fputs(" | ", out);
	md_text(out, v->counts);
	fputs(" |\n\n", out);
}

void report_md_view(FILE *out, const struct report_view *v)
{
	size_t i, npass = 0;

	headline(out, v);
	if (v->error && !v->nbenches) {
		fputs("```\n", out);
		/* a fence cannot be closed early by the message */
		for (i = 0; v->error[i]; i++)
			fputc(v->error[i] == '`' ? '\'' : v->error[i], out);
		fputs("\n```\n", out);
	} else {
		if (v->nbenches)
			summary(out, v);
		/* what needs attention, then the passes folded away */
		if (section(out, v, 0, 0))
			fputc('\n', out);
		section(out, v, 0, 1);
		for (i = 0; i < v->nbenches; i++)
			npass += v->benches[i].verdict == VERDICT_PASS;
		if (npass) {
			fprintf(out, "\n<details><summary>%zu passing "
				"benchmark%s</summary>\n\n", npass,
				npass == 1 ? "" : "s");
			section(out, v, 1, 0);
			fputc('\n', out);
			section(out, v, 1, 1);
			fputs("\n</details>\n", out);
		}
		fprintf(out, "\n%s \xc2\xb7 exit %d\n", v->counts,
			v->exit_code);
	}
	if (v->run_url) {
		fputs("\nThe HTML and JSON reports are this run's artifacts: [", out);
		md_text(out, v->run_url);
		fputs("](", out);
		/* a URL of the runner's own variables, not of the user's */
		for (i = 0; v->run_url[i]; i++)
			if (v->run_url[i] != ')' && v->run_url[i] != ' ')
				fputc(v->run_url[i], out);
		fputs(").\n", out);
	}
	if (v->error && !v->nbenches)
		return;
	fputs("\n<details><summary>Protocol</summary>\n\n", out);
	for (i = 0; i < v->nprotocol; i++) {
		fputs("- ", out);
		md_text(out, v->protocol[i]);
		fputc('\n', out);
	}
	fputs("\n</details>\n", out);
}

void report_md(FILE *out, const struct run_report *r)
{
	struct report_view v;

	report_view_build(&v, r);
	report_md_view(out, &v);
	report_view_release(&v);
}

char *report_md_text(const struct run_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		error("cannot format the Markdown report:");
		return NULL;
	}
	report_md(f, r);
	if (fclose(f) != 0) {
		free(buf);
		error("cannot format the Markdown report:");
		return NULL;
	}
	return buf;
}

int report_md_file(const char *path, const struct run_report *r)
{
	char *text = report_md_text(r);
	int ret;

	if (!text)
		return -1;
	ret = file_replace(path, text, strlen(text), "the Markdown report");
	free(text);
	return ret;
}
