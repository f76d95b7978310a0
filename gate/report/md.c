/*
 * The Markdown report: a GitHub job summary or pull-request comment body a
 * reviewer reads in five seconds (a headline, one row per benchmark, why),
 * with the protocol disclosure folded underneath.
 */
#include "gate/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

/* Text in a table cell or a line: '|' escaped, newlines flattened, HTML
 * special characters neutralised so a name cannot inject markup. */
static void md_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '|': fputs("\\|", out); break;
		case '\n': case '\r': fputc(' ', out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '`': case '*': case '_': case '[': case ']': case '\\':
			fputc('\\', out);
			fputc(*s, out);
			break;
		default: fputc(*s, out);
		}
	}
}

static const char *icon(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS: return "\xe2\x9c\x85";	/* white heavy check mark */
	case VERDICT_FAIL: return "\xe2\x9d\x8c";	/* cross mark */
	case VERDICT_NOISY: return "\xe2\x9a\xa0\xef\xb8\x8f";	/* warning */
	case VERDICT_ERROR: return "\xf0\x9f\x9b\x91";	/* stop sign */
	case VERDICT_NEW: return "\xf0\x9f\x86\x95";	/* NEW button */
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
	}
	return "?";
}

static int measured(const struct bench_run *br, const struct bench_stats *st)
{
	return st->verdict != VERDICT_NEW && st->ratios && !br->error;
}

/* "sort +95.4%, parse +7.2%": the benchmarks with verdict v. */
static void list_of(FILE *out, const struct run_report *r, enum verdict v)
{
	size_t i, k = 0;

	for (i = 0; i < r->n; i++) {
		if (r->b[i].primary.verdict != v)
			continue;
		fputs(k++ ? ", " : "", out);
		fputs("**", out);
		md_text(out, r->b[i].run.cfg->name);
		fputs("**", out);
		if (measured(&r->b[i].run, &r->b[i].primary))
			fprintf(out, " %+.1f%%", ratio_pct(r->b[i].primary.median));
	}
}

static void headline(FILE *out, const struct run_report *r)
{
	if (r->interrupted) {
		fprintf(out, "### \xe2\x8f\xb9\xef\xb8\x8f gate: interrupted by "
			"signal %d before a verdict\n\n", r->interrupted);
		return;
	}
	fprintf(out, "### %s gate: %s", icon(r->suite), upper(r->suite));
	if (r->error && !r->n) {
		fputs(" \xe2\x80\x94 could not measure\n\n", out);
		return;
	}
	switch (r->suite) {
	case VERDICT_FAIL:
		fputs(" \xe2\x80\x94 slower: ", out);
		list_of(out, r, VERDICT_FAIL);
		break;
	case VERDICT_NOISY:
		fputs(" \xe2\x80\x94 inconclusive: ", out);
		list_of(out, r, VERDICT_NOISY);
		break;
	case VERDICT_ERROR:
		fputs(" \xe2\x80\x94 could not measure: ", out);
		list_of(out, r, VERDICT_ERROR);
		break;
	default:
		fputs(" \xe2\x80\x94 no regression above the floor", out);
		break;
	}
	fputs("\n\n", out);
	if (r->advisory && r->suite != VERDICT_PASS)
		fprintf(out, "_Advisory mode: gate exits 0 instead of %d._\n\n",
			verdict_exit_code(r->suite));
}

static void row(FILE *out, const struct bench_run *br,
		const struct bench_stats *st)
{
	char b[32], h[32];

	fprintf(out, "| %s | ", icon(st->verdict));
	md_text(out, br->cfg->name);
	if (!measured(br, st)) {
		fprintf(out, " | | | | | | %s |\n", st->verdict == VERDICT_NEW
			? "new, not compared" : "**error**");
		return;
	}
	fprintf(out, " | %s | %s | **%+.1f%%** | %+.1f%% \xe2\x80\xa6 "
		"%+.1f%% | %+.0f%% | %zu of %zu | %s |\n",
		metric_format(st->metric, st->base_median, b, sizeof(b)),
		metric_format(st->metric, st->head_median, h, sizeof(h)),
		ratio_pct(st->median),
		ratio_pct(st->low), ratio_pct(st->high), st->floor * 100, st->head_slower,
		st->of, st->verdict == VERDICT_FAIL ? "**fail**" :
		st->verdict == VERDICT_NOISY ? "**noisy**" :
		st->improved ? "pass (faster)" : "pass");
}

static void rev_line(FILE *out, const char *arm, const struct report_rev *v)
{
	fprintf(out, "- %s: ", arm);
	if (v->worktree) {
		fprintf(out, "working tree (%s) on `%.12s`\n", v->dirty ?
			"with uncommitted changes" : "clean",
			v->commit && *v->commit ? v->commit : "none");
		return;
	}
	md_text(out, v->label);
	fprintf(out, " = `%.12s`", v->commit && *v->commit ? v->commit :
		"none");
	if (v->how) {
		fputs(" (", out);
		md_text(out, v->how);
		fputc(')', out);
	}
	fputc('\n', out);
}

/* The measuring conditions both arms shared (gate/layout.h). */
static void conditions(FILE *out, const struct run_report *r)
{
	char *lines[REPORT_CONDITIONS_MAX];
	size_t i, n = report_conditions(r, lines);

	for (i = 0; i < n; i++) {
		fputs("- ", out);
		md_text(out, lines[i]);
		fputc('\n', out);
	}
	report_conditions_free(lines, n);
}

static void protocol(FILE *out, const struct run_report *r)
{
	const struct machine *m = &r->machine;
	char par[192], iv[96], secs[32], *text;
	size_t i;

	fputs("<details><summary>Protocol</summary>\n\n", out);
	rev_line(out, "base", &r->rev[ARM_BASE]);
	rev_line(out, "head", &r->rev[ARM_HEAD]);
	fputs("- config: ", out);
	md_text(out, r->config_origin ? r->config_origin : "gate.json");
	fprintf(out, "\n- order: base and head back to back in pairs, which "
		"runs first drawn at random (balanced); seed %lu "
		"(`--seed %lu` replays it)\n", r->seed, r->seed);
	fputs("- interval: ", out);
	md_text(out, report_run_interval(r, iv, sizeof(iv)));
	fputs("\n- decision: ", out);
	text = report_rule_text(r);
	md_text(out, text);
	free(text);
	fputs("\n- promise: ", out);
	text = report_promise_text(r);
	md_text(out, text);
	free(text);
	fputc('\n', out);
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;
		const struct bench_cfg *c = br->cfg;

		if (r->b[i].primary.verdict == VERDICT_NEW)
			continue;
		fputs("- ", out);
		md_text(out, c->name);
		fprintf(out, ": metric %s, %zu pairs + %u warm-up in %s, "
			"floor %+.1f%%, pass_excludes %+.1f%%, ",
			metric_name(c->metric), br->npairs, c->warmup,
			format_seconds(br->seconds, secs, sizeof(secs)),
			c->min_effect * 100, report_excludes(r, c) * 100);
		md_text(out, report_interval_name(c, iv, sizeof(iv)));
		if (measured(br, &r->b[i].primary))
			fprintf(out, ", CV base %.1f%% / head %.1f%%, "
				"sign test p = %.2g", r->b[i].primary.base_cv * 100,
				r->b[i].primary.head_cv * 100, r->b[i].primary.sign_p);
		md_text(out, report_parity(br, par, sizeof(par)));
		fputc('\n', out);
	}
	conditions(out, r);
	fputs("- machine: ", out);
	md_text(out, m->cpu);
	fprintf(out, ", %ld cores, SMT %s, governor %s, turbo %s, "
		"virtualisation %s, ", m->cores, m->smt, m->governor, m->turbo,
		m->virt);
	md_text(out, m->kernel);
	fprintf(out, "\n- load: %.2f before, %.2f after; gate %s\n\n"
		"</details>\n", m->load_before[0], m->load_after[0],
		GATE_VERSION);
}

void report_md(FILE *out, const struct run_report *r)
{
	size_t i, count[VERDICT_NEW + 1] = { 0 };

	headline(out, r);
	if (r->error && !r->n) {
		fputs("```\n", out);
		/* a fence cannot be closed early by the message */
		for (i = 0; r->error[i]; i++)
			fputc(r->error[i] == '`' ? '\'' : r->error[i], out);
		fputs("\n```\n", out);
		return;
	}
	if (r->n) {
		fprintf(out, "| | benchmark | base | head | change | "
			"one-sided %.4g%% bounds | floor | head slower | verdict |\n"
			"|---|---|--:|--:|--:|---|--:|---|---|\n",
			r->level * 100);
		for (i = 0; i < r->n; i++)
			row(out, &r->b[i].run, &r->b[i].primary);
		fputc('\n', out);
	}
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;
		const char *why = br->error ? br->error : r->b[i].primary.reason;

		count[r->b[i].primary.verdict]++;
		if (r->b[i].primary.verdict == VERDICT_NEW)
			why = "new in head (base's gate.json does not declare "
			      "it): not compared";
		if (!why)
			continue;
		fputs("- ", out);
		md_text(out, br->cfg->name);
		fputs(": ", out);
		md_text(out, why);
		if (r->b[i].primary.note) {
			fputs(" (note: ", out);
			md_text(out, r->b[i].primary.note);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%zu pass, %zu fail, %zu noisy, %zu error, %zu new "
		"\xc2\xb7 exit %d\n\n", count[VERDICT_PASS], count[VERDICT_FAIL],
		count[VERDICT_NOISY], count[VERDICT_ERROR], count[VERDICT_NEW],
		r->exit_code);
	protocol(out, r);
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
	FILE *f;
	int ret = 0;

	if (!strcmp(path, "-")) {
		report_md(stdout, r);
		return fflush(stdout) ? error("cannot write the Markdown "
					      "report to stdout:") : 0;
	}
	if (!(f = fopen(path, "w")))
		return error("cannot write the Markdown report \"%s\":", path);
	report_md(f, r);
	if (ferror(f))
		ret = -1;
	if (fclose(f) != 0 || ret < 0)
		ret = error("cannot write the Markdown report \"%s\":", path);
	return ret;
}
