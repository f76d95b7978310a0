/*
 * Progress lines. Called between pairs, after both samples are reaped, so
 * drawing never falls inside a measured interval; a redraw is throttled to
 * a few per second so a fast benchmark does not spend its time printing.
 */
#include "gate/report/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gate/report/view.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/escape.h"
#include "common/banned.h"

void progress_init(struct progress *p, FILE *out, int quiet, int verbose,
		   int github)
{
	p->out = out;
	p->verbose = !quiet && verbose;
	p->color = 0;
	p->index = p->count = 0;
	p->start = p->last_draw = 0;
	p->run_start = clock_seconds();
	p->drawn = 0;
	p->have_done0 = 0;
	(void)github;	/* Actions' log is a pipe like any other */
	if (quiet)
		p->mode = PROGRESS_OFF;
	else if (isatty(fileno(out)))
		p->mode = PROGRESS_TTY;
	else
		p->mode = PROGRESS_LINES;
}

void progress_clear(struct progress *p)
{
	if (p->drawn) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
		p->drawn = 0;
	}
}

void progress_bench_start(struct progress *p, size_t index, size_t count)
{
	p->index = index + 1;
	p->count = count;
	p->start = clock_seconds();
	p->have_done0 = 0;
}

/* The terminal's line: never wider than the terminal, so "\r" and an
 * erase always reach its start (a wrapped line left stale copies). */
static void draw(struct progress *p, const struct bench_run *br, size_t done,
		 size_t total, double elapsed, double t)
{
	char e[32], left[32], run[32], *name, *line, *cut;
	size_t this_round = done - p->done0;
	int width = report_term_width(p->out);

	format_seconds(elapsed, e, sizeof(e));
	format_seconds(elapsed / (double)(this_round ? this_round : 1) *
		       (double)(total - done), left, sizeof(left));
	format_seconds(t - p->run_start, run, sizeof(run));
	name = escape_str(ESCAPE_TERM_LINE, br->cfg->name);
	line = xasprintf("gate: [%zu/%zu] %s: pair %zu of %zu, %s, about %s "
			 "left of this round; run %s", p->index, p->count,
			 name, done, total, e, left, run);
	cut = escape_term_cut(line, (size_t)(width > 1 ? width - 1 : 1));
	fputs("\r\033[K", p->out);
	fputs(cut, p->out);	/* escaped above */
	fflush(p->out);
	p->drawn = 1;
	free(name);
	free(line);
	free(cut);
}

void progress_pair(void *arg, const struct bench_run *br, size_t done,
		   size_t total)
{
	struct progress *p = arg;
	double t = clock_seconds(), elapsed = t - p->start;

	if (p->verbose) {
		const struct pair_result *pr = &br->pairs[done - 1];
		enum metric m = br->cfg->metric;
		double b = sample_value(&pr->s[ARM_BASE], m);
		double h = sample_value(&pr->s[ARM_HEAD], m);
		char bs[32], hs[32], *name;

		progress_clear(p);
		name = escape_str(ESCAPE_TERM_LINE, br->cfg->name);

		term_printf(p->out, "gate: %.*s pair %zu/%zu (%s first): base "
			    "%s, head %s, %+.1f%%", VIEW_NAME_MAX, name, done, total,
			pr->head_first ? "head" : "base",
			metric_format(m, b, bs, sizeof(bs)),
			metric_format(m, h, hs, sizeof(hs)),
			(h / b - 1.0) * 100);
		fputc('\n', p->out);
		free(name);
	}
	/* the rate of this round: the pairs it took, over its time */
	if (!p->have_done0) {
		p->done0 = done - 1;
		p->have_done0 = 1;
	}
	if (p->mode != PROGRESS_TTY || (done < total && t - p->last_draw < 0.2))
		return;
	p->last_draw = t;
	draw(p, br, done, total, elapsed, t);
}

void progress_bench_end(struct progress *p, const struct bench_run *br,
			const struct bench_stats *st)
{
	struct view_row row;
	char *name;

	progress_clear(p);
	if (p->mode != PROGRESS_LINES)
		return;
	view_row_build(&row, br, st, 0);
	name = escape_str(ESCAPE_TERM_LINE, row.bench);	/* one line */
	if (!row.measured)
		term_printf(p->out, "gate: [%zu/%zu] %s: %s after %zu pairs",
			p->index, p->count, name, verdict_name(st->verdict),
			br->npairs);
	else
		term_printf(p->out, "gate: [%zu/%zu] %s: %zu pairs: %s (%s), "
			    "%s",
			p->index, p->count, name, br->npairs, row.change,
			row.interval, verdict_name(st->verdict));
	fputc('\n', p->out);
	view_row_release(&row);
	free(name);
	fflush(p->out);
}
