/*
 * The terminal report: one row per benchmark that can be read at a glance
 * (name, medians, change, interval, wins, CV, a compact plot, verdict), the
 * reason for each verdict, the suite verdict, and the protocol underneath.
 */
#include "gate/report/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/github.h"
#include "common/error.h"
#include "common/banned.h"

void term_printf(FILE *out, const char *fmt, ...)
{
	char small[512], *buf = small;
	const unsigned char *p;
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
	for (p = (const unsigned char *)buf; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(out, "\\u%04x", *++p);
		else
			fputc(*p, out);
	}
	if (buf != small)
		free(buf);
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

/* One row per metric; the benchmark's name on its first row only. */
static void print_row(FILE *out, int w, int vw, int tw,
		      const struct view_row *row, int color)
{
	char word[32], verdict[48], wins[40], strip[STRIP_W + 1];
	int paint_it = row->gating;

	snprintf(verdict, sizeof(verdict), "%s%s", row->gating ? "" :
		 "(info) ", loud(row->word, word, sizeof(word)));
	if (!row->measured) {
		term_printf(out, "%-*s  %-12s  %*s  %*s  ", w,
			    row->first ? row->bench : "", row->metric, vw, "-",
			    vw, "-");
		if (tw)
			term_printf(out, "%*s  ", tw, "-");
		term_printf(out, "%8s  %-19s  %-16s  %-11s  %-*s  ", "-",
			    row->verdict == VERDICT_NEW ? "not compared" : "-",
			    "-", "-", STRIP_W, "");
	} else {
		snprintf(wins, sizeof(wins), "%zu/%zu p=%s", row->head_slower,
			 row->of, row->sign_p);
		term_printf(out, "%-*s  %-12s  %*s  %*s  ", w,
			    row->first ? row->bench : "", row->metric, vw,
			    row->base, vw, row->head);
		if (tw)
			term_printf(out, "%*s  ", tw, *row->throughput ?
				    row->throughput : "-");
		term_printf(out, "%8s  %-19s  %-16s  %-11s  %s  ",
			    row->change, row->interval, wins, row->cv,
			    report_strip(strip, STRIP_W, row));
	}
	fprintf(out, "%s%s%s\n", paint_it ? paint(color, row->verdict) : "",
		verdict, paint_it ? reset(color) : "");
}

static void print_suite(FILE *out, const struct report_view *v, int color)
{
	char word[16];
	size_t i;

	if (v->interrupted) {
		fprintf(out, "verdict: interrupted by signal %d before a "
			"verdict (exit %d)\n", v->interrupted, v->exit_code);
		return;
	}
	snprintf(word, sizeof(word), "%s", v->verdict_word);
	for (i = 0; word[i]; i++)
		word[i] = (char)(word[i] - 'a' + 'A');
	fprintf(out, "verdict: %s%s%s", paint(color, v->suite), word,
		reset(color));
	if (v->error)
		term_printf(out, ": %s", v->error);
	else
		term_printf(out, ": %s", v->counts);
	if (v->advisory)
		fprintf(out, " (advisory: exit 0 instead of %d)\n",
			v->advisory_code);
	else
		fprintf(out, " (exit %d)\n", v->exit_code);
}

static void print_reasons(FILE *out, const struct report_view *v)
{
	size_t i, k;

	for (i = 0; i < v->nbenches; i++) {
		const struct view_bench *vb = &v->benches[i];

		if (vb->why) {
			term_printf(out, "%s: %s%s", vb->name,
				    vb->why_is_error ? "error: " : "", vb->why);
			fputc('\n', out);
			continue;
		}
		for (k = vb->row; k < vb->row + vb->nrows; k++) {
			const struct view_row *row = &v->rows[k];

			if (!row->reason)
				continue;
			if (vb->nrows == 1)
				term_printf(out, "%s: %s", vb->name,
					    row->reason);
			else
				term_printf(out, "%s %s%s: %s", vb->name,
					    row->metric, row->gating ? "" :
					    " (informational)", row->reason);
			fputc('\n', out);
		}
		/* a heuristic's note (load, calibration): never the verdict */
		if (vb->note) {
			term_printf(out, "  note: %s", vb->note);
			fputc('\n', out);
		}
		for (k = 0; k < vb->nevidence; k++) {
			term_printf(out, "  %s", vb->evidence[k]);
			fputc('\n', out);
		}
	}
}

void report_term_view(FILE *out, const struct report_view *v, int color)
{
	size_t i;
	int w = 9, vw = 10, tw = 0, len;

	for (i = 0; i < v->nrows; i++) {
		len = (int)strlen(v->rows[i].bench);
		w = len > w ? len : w;
		len = (int)strlen(v->rows[i].base);
		vw = len > vw ? len : vw;
		len = (int)strlen(v->rows[i].head);
		vw = len > vw ? len : vw;
		len = (int)strlen(v->rows[i].throughput);
		tw = len > tw ? len : tw;
	}
	if (v->throughput && tw < 14)
		tw = 14;	/* "throughput b/h" */
	fprintf(out, "\n%-*s  %-12s  %*s  %*s  ", w, "benchmark", "metric",
		vw, "base", vw, "head");
	if (v->throughput)
		fprintf(out, "%*s  ", tw, "throughput b/h");
	else
		tw = 0;
	fprintf(out, "%8s  %-19s  %-16s  %-11s  %-*s  %s\n", "change",
		"interval", "head worse", "CV b/h", STRIP_W,
		"plot (log scale)", "verdict");
	for (i = 0; i < v->nrows; i++)
		print_row(out, w, vw, tw, &v->rows[i], color);
	if (v->nrows)
		fprintf(out, "plot: . pair ratios  [=*=] interval and "
			"estimate  | no change  ! floor\n");
	fputc('\n', out);
	print_reasons(out, v);
	print_suite(out, v, color);
	fprintf(out, "\nprotocol:\n");
	for (i = 0; i < v->nprotocol; i++) {
		term_printf(out, "  %s", v->protocol[i]);
		fputc('\n', out);
	}
}

void report_term(FILE *out, const struct run_report *r)
{
	struct report_view v;
	char token[40];
	int github = ci_github_active();

	report_view_build(&v, r);
	/* in Actions the report quotes untrusted text: no command in it */
	if (github)
		ci_github_stop_commands(out, token);
	report_term_view(out, &v, r->color);
	if (github)
		ci_github_resume_commands(out, token);
	report_view_release(&v);
}
