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

/*
 * GitHub refuses a comment over 65,536 characters; a report longer than
 * this many bytes (never fewer than its characters) is cut at a
 * benchmark's rows, leaving room for the lines a comment workflow puts
 * around it. The counts, the links and the protocol are always kept.
 */
#define MD_LIMIT 64000
/* Benchmarks needing attention shown open; the rest are folded. */
#define MD_OPEN 20

/* What one rendering shows: the benchmarks v->order[0..shown) in full,
 * the others counted in a line saying where they are. */
struct md {
	FILE *out;
	const struct report_view *v;
	size_t shown;
};

/* "**sort** +95.4% slower, **parse** +7.2% slower and 3 more" */
static void names(FILE *out, const struct report_view *v)
{
	size_t k;

	for (k = 0; k < v->nheadline; k++) {
		const struct view_bench *vb = &v->benches[v->headline[k]];

		fputs(k ? ", **" : "**", out);
		md_text(out, v->headline_name[k]);
		fputs("**", out);
		if (vb->has_change) {
			const struct view_row *r = &v->rows[vb->decisive];

			fprintf(out, " %s", r->change);
			if (vb->verdict == VERDICT_FAIL ||
			    vb->verdict == VERDICT_ACCEPTED)
				fprintf(out, " %s", r->worse);
		}
	}
	if (v->headline_more)
		fprintf(out, " and %zu more", v->headline_more);
}

/* One line: the verdict, at most three names, the counts. */
static void headline(FILE *out, const struct report_view *v)
{
	if (v->interrupted) {
		fprintf(out, "### \xe2\x8f\xb9\xef\xb8\x8f gate: interrupted by "
			"signal %d before a verdict\n\n", v->interrupted);
		return;
	}
	if (*v->empty) {
		fputs("### \xe2\x9e\x96 gate: NO BENCHMARKS \xe2\x80\x94 ", out);
		md_text(out, v->empty);
		fputs("\n\n", out);
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
		break;
	case VERDICT_NOISY:
		fputs(" \xe2\x80\x94 inconclusive: ", out);
		break;
	case VERDICT_ERROR:
		fputs(" \xe2\x80\x94 could not measure: ", out);
		break;
	case VERDICT_ACCEPTED:
		fputs(" \xe2\x80\x94 regressed, as a Gate-Accept trailer "
		      "accepts: ", out);
		break;
	default:
		fputs(" \xe2\x80\x94 no regression above the floor", out);
		break;
	}
	names(out, v);
	fprintf(out, " (%s)\n\n", v->counts_short);
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
		if (*r->decide) {
			fputs("  - ", out);
			md_text(out, r->decide);
			fputc('\n', out);
		}
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

/* The benchmarks v->order[from..to) that this rendering shows: their
 * rows as a table, then their reasons. Returns how many it showed. */
static size_t section(const struct md *m, size_t from, size_t to)
{
	const struct report_view *v = m->v;
	size_t i, k, n = 0;

	if (to > m->shown)
		to = m->shown;
	for (i = from; i < to; i++) {
		const struct view_bench *vb = &v->benches[v->order[i]];

		if (!n++)
			table_head(m->out, v);
		for (k = vb->row; k < vb->row + vb->nrows; k++)
			row(m->out, v, &v->rows[k]);
	}
	if (n)
		fputc('\n', m->out);
	for (i = from; i < to; i++)
		reasons_of(m->out, v, &v->benches[v->order[i]]);
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

/* A link to the run's page: a URL of the runner's own variables, not of
 * the user's. */
static void run_link(FILE *out, const struct report_view *v)
{
	size_t i;

	fputc('[', out);
	md_text(out, v->run_url);
	fputs("](", out);
	for (i = 0; v->run_url[i]; i++)
		if (v->run_url[i] != ')' && v->run_url[i] != ' ')
			fputc(v->run_url[i], out);
	fputc(')', out);
}

/* What a cut left out, and where it is. */
static void cut_line(FILE *out, const struct report_view *v, size_t shown)
{
	size_t i, rows = 0;

	for (i = shown; i < v->nbenches; i++)
		rows += v->benches[v->order[i]].nrows;
	fprintf(out, "\n**%zu more row%s (%zu benchmark%s) in the run's "
		"report**, left out to keep this within GitHub's %d "
		"characters: ", rows, rows == 1 ? "" : "s",
		v->nbenches - shown, v->nbenches - shown == 1 ? "" : "s",
		65536);
	if (v->run_url)
		run_link(out, v);
	else
		fputs("the JSON and HTML reports (--json, --html)", out);
	fputs(".\n", out);
}

static void render(const struct md *m)
{
	const struct report_view *v = m->v;
	FILE *out = m->out;
	size_t i, attention = 0, open;

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
		while (attention < v->nbenches &&
		       v->benches[v->order[attention]].verdict != VERDICT_PASS)
			attention++;
		/* what needs attention, worst first, a long list folded */
		open = attention > MD_OPEN ? MD_OPEN : attention;
		section(m, 0, open);
		if (open < attention && open < m->shown) {
			fprintf(out, "\n<details><summary>%zu more needing "
				"attention</summary>\n\n", attention - open);
			section(m, open, attention);
			fputs("\n</details>\n", out);
		}
		if (attention < v->nbenches && attention < m->shown) {
			size_t npass = v->nbenches - attention;

			fprintf(out, "\n<details><summary>%zu passing "
				"benchmark%s</summary>\n\n", npass,
				npass == 1 ? "" : "s");
			section(m, attention, v->nbenches);
			fputs("\n</details>\n", out);
		}
		if (m->shown < v->nbenches)
			cut_line(out, v, m->shown);
		fprintf(out, "\n%s \xc2\xb7 exit %d\n", v->counts,
			v->exit_code);
	}
	if (v->run_url) {
		fputs("\nThe HTML and JSON reports are this run's artifacts: ",
		      out);
		run_link(out, v);
		fputs(".\n", out);
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

/* The rendering of v showing its first shown benchmarks (malloc'd), or
 * NULL when memory ran out. */
static char *render_text(const struct report_view *v, size_t shown,
			 size_t *len)
{
	char *buf = NULL;
	struct md m = { NULL, v, shown };

	m.out = open_memstream(&buf, len);
	if (!m.out)
		return NULL;
	render(&m);
	if (fclose(m.out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void report_md_view(FILE *out, const struct report_view *v)
{
	size_t len = 0, lo = 0, hi = v->nbenches, mid;
	char *text = render_text(v, v->nbenches, &len);
	struct md whole = { out, v, v->nbenches };

	/* the most benchmarks that fit, found by halving */
	if (text && len > MD_LIMIT) {
		free(text);
		text = NULL;
		while (lo < hi) {
			mid = hi - (hi - lo) / 2;
			text = render_text(v, mid, &len);
			if (!text)
				break;
			free(text);
			if (len <= MD_LIMIT)
				lo = mid;
			else
				hi = mid - 1;
		}
		text = render_text(v, lo, &len);
	}
	if (!text) {	/* no memory to measure it: the whole of it */
		render(&whole);
		return;
	}
	fwrite(text, 1, len, out);
	free(text);
}

char *report_md_text(const struct report_view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		error("cannot format the Markdown report:");
		return NULL;
	}
	report_md_view(f, v);
	if (fclose(f) != 0) {
		free(buf);
		error("cannot format the Markdown report:");
		return NULL;
	}
	return buf;
}

int report_md_file(const char *path, const struct report_view *v)
{
	char *text = report_md_text(v);
	int ret;

	if (!text)
		return -1;
	ret = file_replace(path, text, strlen(text), "the Markdown report");
	free(text);
	return ret;
}
