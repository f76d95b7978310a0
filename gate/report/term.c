/*
 * The terminal report, fitted to the terminal's width: one row per
 * benchmark (name, change, interval, verdict; medians, wins, CV and a
 * compact plot while they fit, all with -v), the reason for each verdict,
 * the protocol with -v, and the suite's verdict as the last line.
 */
#include "gate/report/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ci/github.h"
#include "common/error.h"
#include "common/escape.h"
#include "gate/exec/notice.h"
#include "common/banned.h"

void term_printf(FILE *out, const char *fmt, ...)
{
	char small[512], *buf = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	escape_put_indent(out, ci_github_active() ? ESCAPE_ACTIONS :
			  ESCAPE_TERM, buf, "    ");
	if (buf != small)
		free(buf);
}

int report_term_width(FILE *out)
{
	return term_columns(out);
}

const char *format_seconds(double s, char *buf, size_t size)
{
	if (!isfinite(s))
		snprintf(buf, size, "-");
	else if (s >= 1.0)
		snprintf(buf, size, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, size, "%.1f ms", s * 1e3);
	else
		snprintf(buf, size, "%.0f us", s * 1e6);
	return buf;
}

#define STRIP_W 21

char *report_strip(char *buf, int width, const struct view_row *row)
{
	double lo = fmin(1.0, row->low), hi = fmax(1.0 + row->floor, row->high);
	double span;
	size_t i;
	int c, a, b;

	for (i = 0; i < row->npoints; i++)
		if (isfinite(row->points[i].ratio) && row->points[i].ratio > 0) {
			lo = fmin(lo, row->points[i].ratio);
			hi = fmax(hi, row->points[i].ratio);
		}
	memset(buf, ' ', (size_t)width);
	buf[width] = '\0';
	if (!(lo > 0) || !isfinite(hi) || width < 3)
		return buf;
	if (hi / lo < 1.01)
		hi = lo * 1.01;
	span = log(hi) - log(lo);
#define CELL(v) ((int)lround((log(v) - log(lo)) / span * (width - 1)))
	for (i = 0; i < row->npoints; i++) {
		if (!(row->points[i].ratio > 0))
			continue;
		c = CELL(row->points[i].ratio);
		buf[c] = buf[c] == ' ' ? '.' : ':';
	}
	a = CELL(row->low);
	b = CELL(row->high);
	for (c = a; c <= b; c++)
		buf[c] = '=';
	buf[a] = '[';
	buf[b] = ']';
	buf[CELL(1.0)] = '|';
	buf[CELL(1.0 + row->floor)] = '!';
	buf[CELL(row->estimate)] = '*';
#undef CELL
	return buf;
}

/* ANSI colour for a verdict word, or "" without colour. */
static const char *paint(int color, enum verdict v)
{
	if (!color)
		return "";
	switch (v) {
	case VERDICT_PASS: return "\033[32m";
	case VERDICT_FAIL: return "\033[1;31m";
	case VERDICT_NOISY: return "\033[1;33m";
	case VERDICT_ERROR: return "\033[1;35m";
	case VERDICT_NEW: return "\033[36m";
	case VERDICT_ACCEPTED: return "\033[34m";
	}
	return "";
}

static const char *reset(int color)
{
	return color ? "\033[0m" : "";
}

/* The terminal shouts the verdicts that need attention. */
static const char *loud(const char *word, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", word);
	if (!strcmp(word, "fail") || !strcmp(word, "noisy") ||
	    !strcmp(word, "error"))
		for (i = 0; buf[i]; i++)
			buf[i] = (char)(buf[i] - 'a' + 'A');
	return buf;
}

/* Text from outside, escaped for where the terminal report goes. */
static void put(FILE *out, const struct term_opts *o, const char *s)
{
	escape_put(out, o->actions ? ESCAPE_ACTIONS : ESCAPE_TERM, s);
}

/*
 * The table's columns, in the order they print. The first five are always
 * shown (the metric's when a benchmark has several or one is not wall
 * time); the others by rank (1 first) while they fit the width, all of
 * them with -v.
 */
enum col {
	COL_NAME, COL_METRIC, COL_CHANGE, COL_INTERVAL, COL_VERDICT,
	COL_BASE, COL_HEAD, COL_THROUGHPUT, COL_WINS, COL_CV, COL_PLOT, NCOL
};

static const struct {
	const char *head;
	int right;		/* right-aligned (figures) */
	int rank;		/* 0: always; else the order columns are added */
} cols[NCOL] = {
	[COL_NAME] = { "benchmark", 0, 0 },
	[COL_METRIC] = { "metric", 0, 0 },
	[COL_CHANGE] = { "change", 1, 0 },
	[COL_INTERVAL] = { "interval", 0, 0 },
	[COL_VERDICT] = { "verdict", 0, 0 },
	[COL_BASE] = { "base", 1, 1 },
	[COL_HEAD] = { "head", 1, 1 },	/* with base, or neither */
	[COL_THROUGHPUT] = { "throughput b/h", 1, 2 },
	[COL_WINS] = { "head worse", 0, 3 },
	[COL_CV] = { "CV b/h", 0, 4 },
	[COL_PLOT] = { "plot (log scale)", 0, 5 },
};

#define GAP 2		/* spaces between columns */
#define NAME_MIN 12	/* a name column is cut to no less */

/* Columns of already escaped text (no controls left): one per UTF-8
 * character. */
static size_t cols_of(const char *s)
{
	return escape_term_width(s);
}

struct table {
	const struct view_row **row;	/* in the view's order (owned) */
	char **cell;		/* nrows x NCOL, escaped, owned */
	size_t w[NCOL];
	int shown[NCOL];
	size_t nrows;
};

#define CELL(t, i, c) ((t)->cell[(i) * NCOL + (c)])

static void set_cell(struct table *t, size_t i, enum col c, const char *raw)
{
	CELL(t, i, c) = escape_str(ESCAPE_TERM_LINE, raw);
}

static void fill_row(struct table *t, size_t i, const struct view_row *row)
{
	char word[32], buf[96], strip[STRIP_W + 1];
	int m = row->measured;

	set_cell(t, i, COL_NAME, row->first ? row->bench : "");
	set_cell(t, i, COL_METRIC, row->metric);
	set_cell(t, i, COL_CHANGE, m ? row->change : "-");
	set_cell(t, i, COL_INTERVAL, m ? row->interval :
		 row->verdict == VERDICT_NEW ? "not compared" : "-");
	snprintf(buf, sizeof(buf), "%s%s", row->gating ? "" : "(info) ",
		 loud(row->word, word, sizeof(word)));
	set_cell(t, i, COL_VERDICT, buf);
	set_cell(t, i, COL_BASE, m ? row->base : "-");
	set_cell(t, i, COL_HEAD, m ? row->head : "-");
	set_cell(t, i, COL_THROUGHPUT, m && *row->throughput ?
		 row->throughput : "-");
	snprintf(buf, sizeof(buf), "%zu/%zu p=%s", row->head_slower, row->of,
		 row->sign_p);
	set_cell(t, i, COL_WINS, m && !row->unpaired ? buf : "-");
	set_cell(t, i, COL_CV, m && !row->unpaired ? row->cv : "-");
	set_cell(t, i, COL_PLOT, m ? report_strip(strip, STRIP_W, row) : "");
}

/* Whether the metric column says anything: several metrics, or one that
 * is not wall time. */
static int metric_needed(const struct report_view *v)
{
	size_t i;

	for (i = 0; i < v->nbenches; i++)
		if (v->benches[i].nrows > 1)
			return 1;
	for (i = 0; i < v->nrows; i++)
		if (strcmp(v->rows[i].metric, "wall") &&
		    strcmp(v->rows[i].metric, "-"))
			return 1;
	return 0;
}

/* Which columns show, and the name column's width, for o->width. */
static void fit(struct table *t, const struct report_view *v,
		const struct term_opts *o)
{
	size_t total = 0, i;
	int c, rank;

	t->shown[COL_NAME] = t->shown[COL_CHANGE] = 1;
	t->shown[COL_INTERVAL] = t->shown[COL_VERDICT] = 1;
	t->shown[COL_METRIC] = o->verbose || metric_needed(v);
	for (c = COL_METRIC; c < NCOL; c++)
		if (t->shown[c])
			total += GAP + t->w[c];
	/* the name takes what the essentials leave, never less than
	 * NAME_MIN: a long name is cut, the full one is in the reasons
	 * and the JSON */
	if (!o->verbose && t->w[COL_NAME] + total > (size_t)o->width) {
		size_t room = (size_t)o->width > total + NAME_MIN ?
			      (size_t)o->width - total : NAME_MIN;

		if (room < t->w[COL_NAME])
			t->w[COL_NAME] = room;
	}
	total += t->w[COL_NAME];
	for (rank = 1; rank <= 5; rank++) {
		size_t need = 0;

		for (c = COL_BASE; c < NCOL; c++)
			if (cols[c].rank == rank)
				need += GAP + t->w[c];
		if (rank == 2 && !v->throughput)
			continue;
		if (!o->verbose && total + need > (size_t)o->width)
			continue;
		for (c = COL_BASE; c < NCOL; c++)
			if (cols[c].rank == rank)
				t->shown[c] = 1;
		total += need;
	}
	/* cut the names to the column, in their middle: the cases of one
	   test differ at their ends ("[param-1]", "[param-2]") */
	for (i = 0; i < t->nrows; i++) {
		char *cell = CELL(t, i, COL_NAME);

		if (cols_of(cell) > t->w[COL_NAME]) {
			char *cut = view_cut_middle(cell, t->w[COL_NAME]);

			free(cell);
			CELL(t, i, COL_NAME) = cut;
		}
	}
}

static void table_build(struct table *t, const struct report_view *v,
			const struct term_opts *o)
{
	size_t i, k, w, n = 0;
	int c;

	memset(t, 0, sizeof(*t));
	t->nrows = v->nrows;
	t->cell = xcalloc(v->nrows ? v->nrows * NCOL : 1, sizeof(*t->cell));
	t->row = xcalloc(v->nrows ? v->nrows : 1, sizeof(*t->row));
	for (i = 0; i < v->nbenches; i++) {
		const struct view_bench *vb = &v->benches[v->order[i]];

		for (k = vb->row; k < vb->row + vb->nrows && n < v->nrows; k++)
			t->row[n++] = &v->rows[k];
	}
	t->nrows = n;
	for (c = 0; c < NCOL; c++)
		t->w[c] = strlen(cols[c].head);
	for (i = 0; i < t->nrows; i++) {
		fill_row(t, i, t->row[i]);
		for (c = 0; c < NCOL; c++) {
			w = cols_of(CELL(t, i, c));
			if (w > t->w[c])
				t->w[c] = w;
		}
	}
	fit(t, v, o);
}

static void table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * NCOL; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->row);
}

static void pad(FILE *out, size_t n)
{
	while (n-- > 0)
		fputc(' ', out);
}

/* One line of the table: cells (escaped) or the heads; row for colour. */
static void table_line(FILE *out, const struct table *t, char *const *cell,
		       const struct view_row *row, const struct term_opts *o)
{
	int c, last = NCOL - 1, first = 1;
	size_t w;

	while (last > 0 && !t->shown[last])
		last--;
	for (c = 0; c < NCOL; c++) {
		const char *s = cell ? cell[c] : cols[c].head;
		int colour = row && c == COL_VERDICT && row->gating;

		if (!t->shown[c])
			continue;
		if (!first)
			pad(out, GAP);
		w = cols_of(s);
		if (cols[c].right)
			pad(out, t->w[c] - w);
		if (colour)
			fputs(paint(o->color, row->verdict), out);
		if (first)
			put(out, o, s);	/* a line's start: Actions' rule */
		else
			fputs(s, out);	/* escaped already */
		if (colour)
			fputs(reset(o->color), out);
		if (!cols[c].right && c != last)
			pad(out, t->w[c] - w);
		first = 0;
	}
	fputc('\n', out);
}

/*
 * s (escaped, one column a character) on lines of o->width columns: a
 * name wider than the terminal is whole, and no line is wider.
 */
static void put_broken(FILE *out, const struct term_opts *o, const char *s)
{
	const char *start = s;
	size_t col = 0, len;
	char *line;

	for (;;) {
		if (!*s || col == (size_t)o->width) {
			/* each line through put: a line's start has
			   Actions' rule */
			line = xstrndup(start, (size_t)(s - start));
			put(out, o, line);
			fputc('\n', out);
			free(line);
			if (!*s)
				return;
			start = s;
			col = 0;
		}
		len = 1;
		if ((unsigned char)*s >= 0xc0)
			while (((unsigned char)s[len] & 0xc0) == 0x80)
				len++;
		s += len;
		col++;
	}
}

/*
 * Text wrapped to the width: first line after prefix, the others (and
 * every line of a multi-line text, such as a program's stderr) after
 * indent. A word longer than a line is not broken.
 */
static void wrap(FILE *out, const struct term_opts *o, const char *prefix,
		 const char *text, const char *indent)
{
	char *esc = escape_str(ESCAPE_TERM, text), *line, *save = NULL;
	char *pre = escape_str(ESCAPE_TERM, prefix);
	const char *lead = pre;
	size_t room, used, wl;

	if (!o->wrap) {
		put(out, o, pre);
		escape_put_indent(out, o->actions ? ESCAPE_ACTIONS :
				  ESCAPE_TERM, text, indent);
		fputc('\n', out);
		free(esc);
		free(pre);
		return;
	}
	/* a subject wider than half the line (a long name, whole) stands
	   on lines of its own, broken at the width when wider, the text
	   below it */
	if (cols_of(pre) > (size_t)o->width / 2) {
		size_t n = strlen(pre);

		while (n > 0 && pre[n - 1] == ' ')
			pre[--n] = '\0';
		put_broken(out, o, pre);
		lead = indent;
	}
	for (line = strtok_r(esc, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *word, *wsave = NULL;

		put(out, o, lead);
		used = cols_of(lead);
		room = (size_t)o->width > used ? (size_t)o->width - used : 1;
		used = 0;
		for (word = strtok_r(line, " ", &wsave); word;
		     word = strtok_r(NULL, " ", &wsave)) {
			wl = cols_of(word);
			if (used && used + 1 + wl > room) {
				fputc('\n', out);
				put(out, o, indent);
				room = (size_t)o->width > cols_of(indent) ?
				       (size_t)o->width - cols_of(indent) : 1;
				used = 0;
			} else if (used) {
				fputc(' ', out);
				used++;
			}
			/* the start of a line in Actions: its rule again */
			if (!used)
				put(out, o, word);
			else
				fputs(word, out);
			used += wl;
		}
		fputc('\n', out);
		lead = indent;
	}
	if (lead == pre)	/* empty text */
		fprintf(out, "%s\n", pre);
	free(esc);
	free(pre);
}

/* A benchmark's name as a reason's subject: whole (bounded by the view),
 * on one line; the wrap continues below it when it is long, so that the
 * table's cut names are told apart here. */
static char *subject(const char *name, const char *after)
{
	char *one = escape_str(ESCAPE_TERM_LINE, name), *s;

	s = xasprintf("%s%s", one, after);
	free(one);
	return s;
}

static void print_reasons(FILE *out, const struct report_view *v,
			  const struct term_opts *o)
{
	size_t i, k;
	char *pre;

	for (i = 0; i < v->nbenches; i++) {
		const struct view_bench *vb = &v->benches[v->order[i]];

		if (vb->why) {
			pre = subject(vb->name, vb->why_is_error ?
				      ": error: " : ": ");
			wrap(out, o, pre, vb->why, "    ");
			free(pre);
			continue;
		}
		for (k = vb->row; k < vb->row + vb->nrows; k++) {
			const struct view_row *row = &v->rows[k];
			char *after;

			if (!row->reason)
				continue;
			after = vb->nrows == 1 ? xstrdup(": ") :
				xasprintf(" %s%s: ", row->metric,
					  row->gating ? "" :
					  " (informational)");
			pre = subject(vb->name, after);
			wrap(out, o, pre, row->reason, "    ");
			free(pre);
			free(after);
			if (*row->decide)
				wrap(out, o, "  ", row->decide, "    ");
		}
		/* a heuristic's note (load, calibration): never the verdict */
		if (vb->note) {
			pre = xasprintf("  %s: ", vb->note_label);
			wrap(out, o, pre, vb->note, "    ");
			free(pre);
		}
		for (k = 0; o->verbose && k < vb->nevidence; k++)
			wrap(out, o, "  ", vb->evidence[k], "    ");
	}
}

/* The last line: the suite's verdict and the exit code. */
static void print_suite(FILE *out, const struct report_view *v,
			const struct term_opts *o)
{
	char word[16], *first = NULL, *nl;
	size_t i;

	if (v->interrupted) {
		fprintf(out, "verdict: interrupted by signal %d before a "
			"verdict (exit %d)\n", v->interrupted, v->exit_code);
		return;
	}
	if (*v->empty) {
		fputs("verdict: NO BENCHMARKS: ", out);
		put(out, o, v->empty);
		fprintf(out, " (exit %d)\n", v->exit_code);
		return;
	}
	snprintf(word, sizeof(word), "%s", v->verdict_word);
	for (i = 0; word[i]; i++)
		word[i] = (char)(word[i] - 'a' + 'A');
	if (v->error) {
		/* the whole message above, its first line in the verdict's */
		first = xstrdup(v->error);
		if ((nl = strchr(first, '\n'))) {
			*nl = '\0';
			wrap(out, o, "error: ", v->error, "    ");
		}
	}
	fprintf(out, "verdict: %s%s%s: ", paint(o->color, v->suite), word,
		reset(o->color));
	put(out, o, first ? first : v->counts_short);
	if (v->advisory)
		fprintf(out, " (advisory: exit 0 instead of %d)\n",
			v->advisory_code);
	else
		fprintf(out, " (exit %d)\n", v->exit_code);
	free(first);
}

void report_term_view(FILE *out, const struct report_view *v,
		      const struct term_opts *o)
{
	struct table t;
	size_t i;

	table_build(&t, v, o);
	if (v->nrows) {
		fputc('\n', out);
		table_line(out, &t, NULL, NULL, o);
		for (i = 0; i < t.nrows; i++)
			table_line(out, &t, &CELL(&t, i, 0), t.row[i], o);
		if (t.shown[COL_PLOT])
			fprintf(out, "plot: . pair ratios  [=*=] interval and "
				"estimate  | no change  ! floor\n");
	}
	table_release(&t);
	fputc('\n', out);
	print_reasons(out, v, o);
	if (o->verbose) {
		fprintf(out, "\nprotocol:\n");
		for (i = 0; i < v->nprotocol; i++)
			wrap(out, o, "  ", v->protocol[i], "    ");
		fputc('\n', out);
	} else if (v->nprotocol) {
		fprintf(out, "(-v: every column, the evidence and the "
			"protocol)\n");
	}
	print_suite(out, v, o);
}

void report_term(FILE *out, const struct report_view *v, int color,
		 int verbose)
{
	const char *columns = getenv("COLUMNS");
	struct term_opts o = {
		.color = color, .width = report_term_width(out),
		.verbose = verbose, .actions = ci_github_active(),
		.wrap = isatty(fileno(out)) || (columns && *columns),
	};
	char token[40];

	/* in Actions the report quotes untrusted text: no command in it */
	if (o.actions)
		ci_github_stop_commands(out, token);
	report_term_view(out, v, &o);
	if (o.actions)
		ci_github_resume_commands(out, token);
}
