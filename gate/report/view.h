/*
 * The report view: every figure and sentence a report shows, decided once
 * from the run model by report_view_build, so that the terminal, Markdown,
 * HTML, GitHub and progress printers only lay it out and escape it (the
 * shape of git's wt_status_collect and its printers).
 */
#ifndef GATE_REPORT_VIEW_H
#define GATE_REPORT_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

#include "gate/report/report.h"

/* One pair of a row's metric, for plots. */
struct view_point {
	double ratio;		/* head/base, oriented so > 1 is worse */
	int head_first;
	char base[32], head[32];	/* the pair's values, with units */
};

/* One benchmark x metric (or one placeholder row for a benchmark that was
 * not measured: an error, new or removed). */
/* A name longer than this is cut in every printer (with "..."): a 10 MB
 * case name made a 30 MB table. The JSON keeps it whole. */
#define VIEW_NAME_MAX 256

struct view_row {
	const char *bench;	/* benchmark (or suite case) name, cut to
				   VIEW_NAME_MAX bytes */
	char *bench_owned;	/* the cut copy, when cut */
	const char *metric;	/* metric name, "-" on a placeholder */
	int first;		/* the first row of its benchmark */
	int gating;		/* 0: informational, never decides */
	int measured;		/* the figures below are set */
	int exact;		/* decided exactly, no interval */
	int unpaired;		/* gate compare's: no pairs, so no pair
				   ratios, wins nor CV to show */
	enum verdict verdict;	/* this metric's own */
	char word[24];		/* "pass", "pass (faster)", "pass (fewer)",
				   "fail", "noisy", "error", "new",
				   "removed" */
	char base[48], head[48];	/* each arm's median, with its unit */
	char throughput[64];	/* a suite case's throughput restating its
				   time, each arm's median: "4575M/4558M
				   B/s" ("; " between two); "" when none */
	double estimate, low, high, floor;	/* ratios, for plots */
	char change[40];	/* the estimate: "+12.3%" ("+1.00%" exact);
				   a rate (higher is better) in its own
				   direction, with which way is worse:
				   "throughput -17.2% (worse)" */
	char interval[64];	/* "+4.8% .. +19.7%" (a rate's in its own
				   direction), "exact", or "none
				   (too few pairs)", with " at 98.75%" when
				   rows differ in level */
	char floor_pct[16];	/* "+5%" */
	char level[16];		/* "97.5%", "" when exact */
	size_t head_slower, of;	/* pairs where head was worse, of non-tied */
	char sign_p[16];	/* sign test p, "0.0004" */
	char cv[24];		/* "4.0/5.0%": base and head */
	char method[160];	/* the interval that gave the bounds:
				   "exact signed-rank (one-sided bounds)",
				   "exact" (counts), ... with why when it is
				   not the configured one */
	char worse[48];		/* what worse means for this metric, for
				   headlines: "slower", "more allocations",
				   "lower throughput", "higher B/op" */
	char direction[256];	/* when the arms' medians move the other
				   way from the change: why both stand;
				   "" otherwise */
	const char *reason;	/* why this verdict, or NULL */
	char decide[256];	/* a noisy row: the pairs and minutes its
				   spread would need to decide at this
				   floor, labelled an estimate; else "" */
	struct view_point *points;	/* owned */
	size_t npoints;
};

#define VIEW_EVIDENCE_MAX 3

/* One benchmark: its rows and the lines beside them. */
struct view_bench {
	const char *name;	/* cut as view_row.bench */
	char *name_owned;
	enum verdict verdict;	/* the worst of its gating metrics */
	char word[16];		/* "pass", "fail", ..., "removed" */
	size_t row, nrows;	/* its rows in view.rows */
	size_t decisive;	/* the row that gave the verdict (index in
				   view.rows): its change is the headline */
	int has_change;		/* the decisive row was measured */
	const char *why;	/* an error, new or removed: instead of
				   reasons, else NULL */
	char *why_owned;	/* why, when the view wrote it */
	int why_is_error;	/* why is an error message */
	const char *note;	/* heuristic note (never the verdict), NULL
				   when an earlier case of its suite says
				   it */
	size_t note_shared;	/* the other cases of its suite whose note
				   is this one, said once here */
	char note_label[192];	/* "note", or "note (the same for all 202
				   cases of suite "tests")", "note (the same
				   for 3 of the 5 cases of suite "s")" */
	const char *suite;	/* its suite, or NULL */
	char *evidence[VIEW_EVIDENCE_MAX];	/* pairs, looks, tests */
	size_t nevidence;
};

#define VIEW_PROTOCOL_MAX 64
/* A headline names at most this many benchmarks ("and N more"), each cut
 * in its middle to VIEW_HEADLINE_NAME_MAX characters: a 200-case suite's
 * headline stays one line. */
#define VIEW_HEADLINE_NAMES 3
#define VIEW_HEADLINE_NAME_MAX 60

struct report_view {
	struct view_row *rows;
	size_t nrows;
	struct view_bench *benches;
	size_t nbenches;
	enum verdict suite;
	char verdict_word[16];	/* "pass", ..., "interrupted" */
	int interrupted;	/* the signal, or 0 */
	int throughput;		/* 1: a row has a throughput (the printers
				   show its column) */
	int exit_code;
	int advisory;		/* a non-pass verdict with exit 0 */
	int advisory_code;	/* the code --advisory replaced */
	const char *error;	/* a run-level error, or NULL */
	char empty[128];	/* a run with no benchmark and no error:
				   what the printers say instead of a
				   pass ("shard 3 of 4 has no benchmarks:
				   ..."), else "" */
	char counts[96];	/* "1 pass, 1 fail, 0 noisy, 0 error, 0 new" */
	char bounds[48];	/* column head: "one-sided 97.5% bounds" */
	char *protocol[VIEW_PROTOCOL_MAX];	/* plain-text lines */
	size_t nprotocol;
	const char *base_label, *head_label;
	const char *config_origin;	/* for annotations: NULL when none */
	char **warnings;	/* policy differences and trailers naming
				   nothing: warning annotations (owned) */
	size_t nwarnings, capwarnings;
	double geomean;		/* geometric mean of the decisive rows'
				   ratios over ngeomean benchmarks (NAN
				   when none was measured) */
	size_t ngeomean;
	char geomean_pct[24];	/* "+1.2%", "" when none */
	size_t *order;		/* benches' indices, worst first: fail,
				   error, noisy, accepted, new, pass (each
				   group in the config's order); every
				   printer shows them so (owned) */
	char counts_short[128];	/* the counts that are not zero, worst
				   first: "1 fail, 2 noisy, 197 pass", "no
				   benchmarks" */
	/* the headline: the benchmarks of the suite's verdict (indices in
	   benches), at most VIEW_HEADLINE_NAMES, and how many more */
	size_t headline[VIEW_HEADLINE_NAMES];
	char *headline_name[VIEW_HEADLINE_NAMES];	/* cut in the middle
				   to VIEW_HEADLINE_NAME_MAX (owned) */
	size_t nheadline, headline_more;
	char *run_url;		/* in GitHub Actions: the run's page, where
				   the HTML report is an artifact (owned),
				   else NULL */
};

/* Fill v from r (v's previous contents are not freed). Free with
 * report_view_release; v borrows r's strings and must not outlive it. */
void report_view_build(struct report_view *v, const struct run_report *r);
void report_view_release(struct report_view *v);
/*
 * One row from one metric's figures st of br (the progress line's view of
 * a benchmark). level_differs adds the level to row->interval. Free with
 * view_row_release.
 */
void view_row_build(struct view_row *row, const struct bench_run *br,
		    const struct bench_stats *st, int level_differs);
/* A placeholder row for a benchmark with nothing measured (the same). */
void view_empty_row(struct view_row *row, const struct bench_run *br,
		    const char *word, enum verdict v);
void view_row_release(struct view_row *row);
/*
 * A metric's name for reports: a suite case's further value by its label
 * ("B/op", "allocs/op", a counter's name), else the metric's name.
 */
const char *view_metric_label(const struct bench_cfg *c, enum metric m);
/*
 * The interval method that gave st's bounds, with its sidedness and, when
 * it is not the one c configures, why: into buf, which is returned.
 */
const char *view_method(const struct bench_stats *st,
			const struct bench_cfg *c, char *buf, size_t size);
/*
 * Axis ticks at round percentages (steps of 1, 2 or 5 x 10^k) covering
 * the ratios lo..hi: 3 to max of them into pct[]; returns how many.
 */
size_t view_ticks(double lo, double hi, double *pct, size_t max);
/*
 * s cut in its middle to at most cols characters (UTF-8 sequences count
 * one each, as in text already escaped for a terminal), "..." standing
 * for what is left out: a third of the room keeps the start, the rest the
 * end, where the cases of one test differ ("[param-1]", "/1024"). A
 * malloc'd copy; the caller frees it.
 */
char *view_cut_middle(const char *s, size_t cols);
/* The rank of a verdict in every report's order: 0 (fail) needs
 * attention first, then error, noisy, accepted, new, pass. */
int view_severity(enum verdict v);
/* A ratio as a signed percentage with decimals places, bounded in width:
 * "+12.3%", "+1.2e+09%", "+inf%". */
void view_pct(char *buf, size_t size, double ratio, int decimals);
/* A tick as a label: "0", "-10%", "+2.5%". */
const char *view_tick_label(double pct, char *buf, size_t size);

/*
 * The printers: each lays out v and escapes its text, choosing no figure.
 * report_term, report_md_text, report_html_file and report_publish
 * (report.h) call these on the run's one view, which the command builds.
 */
struct term_opts {
	int color;	/* ANSI colours on the verdicts */
	int width;	/* the terminal's columns (report_term_width) */
	int verbose;	/* -v: every column, the evidence, the protocol */
	int actions;	/* a GitHub Actions log: no line is a command */
	int wrap;	/* prose wrapped to width: on a terminal or with
			   $COLUMNS set; a log (a pipe, a file) keeps each
			   reason on one line, for its reader to wrap and
			   for grep */
};
void report_term_view(FILE *out, const struct report_view *v,
		      const struct term_opts *o);
/*
 * printf to a terminal through the one terminal escape (common/escape.h:
 * ESCAPE_ACTIONS in GitHub Actions): no control character of the result
 * is obeyed, so a case name or a stderr tail cannot clear the screen or
 * set the title; a newline in it continues on an indented line (never a
 * literal \x0a). The caller writes line ends.
 */
void term_printf(FILE *out, const char *fmt, ...) PRINTF(2, 3);
void report_md_view(FILE *out, const struct report_view *v);
void report_html_view(FILE *out, const struct report_view *v);
/* GitHub annotations: fail and error as errors, noisy as warnings, notes
 * as notices. */
void report_annotate_view(FILE *out, const struct report_view *v);
/*
 * A compact plot of row on a log axis, width cells wide, into buf (at
 * least width + 1 bytes): '.' pair ratios, '[' '=' ']' the interval, '*'
 * the estimate, '|' no change, '!' the floor. Returns buf.
 */
char *report_strip(char *buf, int width, const struct view_row *row);

/*
 * One revision's protocol line, e.g. "base: HEAD (3f2c1a0d12; no upstream
 * branch, working tree has changes)" or "head: working tree (with
 * uncommitted changes) on ..., tree ...". malloc'd. The run prints it
 * first, the reports in their protocol.
 */
char *report_rev_line(const char *arm, const struct report_rev *rv);

#endif
