/*
 * Reports of one run: the terminal table for people, the versioned JSON
 * report for machines, Markdown for GitHub and a self-contained HTML page.
 * Each discloses the protocol (revisions, pairs, order and seed, interval
 * method and level, floor, parity, environment).
 */
#ifndef GATE_REPORT_H
#define GATE_REPORT_H

#include <stdio.h>

#include "gate/decide/model.h"

#define REPORT_SCHEMA 1

/* "101.2 ms", "1.234 s", "850 us": a duration for people. */
const char *format_seconds(double s, char *buf, size_t size);
#define REPORT_CONDITIONS_MAX 4
/*
 * The measuring conditions (arms, padding, scratch, pinning) as plain-text
 * lines into lines[]; returns how many. The caller frees each line.
 */
size_t report_conditions(const struct run_report *r,
			 char *lines[REPORT_CONDITIONS_MAX]);
/*
 * The output-parity statement of one benchmark, starting ", stdout ...",
 * into buf (empty when nothing was checked); returns buf.
 */
const char *report_parity(const struct bench_run *br, char *buf, size_t size);

/*
 * The decision rule and the promise, as plain text for every report's
 * protocol (malloc'd; the caller frees): one-sided bounds at r->level per
 * comparison, the fail, pass and noisy rules with pass_excludes, exact
 * counts, and the suite-wide error rates gate promises.
 */
char *report_rule_text(const struct run_report *r);
char *report_promise_text(const struct run_report *r);
/* Room for an interval method's name (report_interval_name). */
#define REPORT_METHOD_MAX 160
/*
 * The interval method of benchmark c, with its sidedness: "exact
 * signed-rank (one-sided bounds)", "bootstrap percentile (one-sided
 * bounds)", ...; into buf, which is returned.
 */
const char *report_interval_name(const struct bench_cfg *c, char *buf,
				 size_t size);
/*
 * The same for the run: the method every compared benchmark shares, or
 * "per benchmark (one-sided bounds; see benchmarks[])".
 */
const char *report_run_interval(const struct run_report *r, char *buf,
				size_t size);

/*
 * The terminal report at the terminal's width (report_term_width): the
 * table, the reasons and the suite's verdict as the last line; verbose
 * (-v) adds every column, the evidence and the protocol. Every printer
 * takes the run's one view (report_view_build, gate/report/view.h).
 */
struct report_view;
void report_term(FILE *out, const struct report_view *v, int color,
		 int verbose);
/* $COLUMNS when it is a number from 20, else out's terminal's width,
 * else 80. */
int report_term_width(FILE *out);
/* Write the JSON report to path ("-" for stdout). Returns 0 or -1. */
int report_json(const char *path, const struct run_report *r);
/* The Markdown report (a job summary or PR comment body) in a malloc'd
   string the caller frees; NULL after error(). */
char *report_md_text(const struct report_view *v);
/* Write it to path ("-" for stdout). Returns 0 or -1. */
int report_md_file(const char *path, const struct report_view *v);
/* The self-contained HTML report (inline CSS and SVG, no scripts) written
   to path ("-" for stdout). Returns 0 or -1. */
int report_html_file(const char *path, const struct report_view *v);
/* Where reports go besides the terminal and JSON (gate/report/publish.c). */
struct publish_opts {
	const char *markdown, *html, *json;	/* files, or NULL */
	int github;		/* running in GitHub Actions */
};
/*
 * Write the --markdown and --html reports and, in GitHub Actions, append
 * the Markdown to $GITHUB_STEP_SUMMARY, annotate fail/noisy/error on out
 * and set the step outputs (verdict, exit-code, report, *-file). Returns 0,
 * or -1 when a report could not be written.
 */
int report_publish(FILE *out, const struct report_view *v,
		   const struct publish_opts *p);
/* Check --color WHEN and that at most one report goes to stdout ("-").
 * Returns 0, or -1 after error(). Any argument may be NULL. */
int report_check_options(const char *json, const char *markdown,
			 const char *html, const char *color);
/*
 * Before measuring: the report files are distinct (no report overwrites
 * another), none is the config (config, or NULL: the file gate.json is
 * read from, when it is a file), and each can be written: an existing
 * path is a writable file that is not a directory, a new one's directory
 * exists and is writable. Returns 0, or -1 after error().
 */
int report_check_paths(const char *json, const char *markdown,
		       const char *html, const char *config);
/* Where the terminal report goes: stderr when a report takes stdout. */
FILE *report_term_stream(const char *json, const char *markdown,
			 const char *html);
/* --color: "always" 1, "never" 0, else (auto, NULL) 1 when out is a
 * terminal and NO_COLOR is unset or empty. */
int report_use_color(const char *when, FILE *out);
/* In GitHub Actions: arm's build log in a collapsible group on out. */
void report_build_log(FILE *out, const char *arm, const char *path);

#endif
