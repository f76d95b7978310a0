/*
 * Progress lines. Called between pairs, after both samples are reaped, so
 * drawing never falls inside a measured interval; a redraw is throttled to
 * a few per second so a fast benchmark does not spend its time printing.
 */
#include "gate/report/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "gate/report/view.h"
#include "common/clock.h"
#include "common/banned.h"

void progress_init(struct progress *p, FILE *out, int quiet, int verbose,
		   int github)
{
	p->out = out;
	p->verbose = !quiet && verbose;
	p->color = 0;
	p->index = p->count = 0;
	p->start = p->last_draw = 0;
	p->drawn = 0;
	if (quiet)
		p->mode = PROGRESS_OFF;
	else if (isatty(fileno(out)))
		p->mode = PROGRESS_TTY;
	else if (github)
		p->mode = PROGRESS_LINES;
	else
		p->mode = PROGRESS_OFF;
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
}

void progress_pair(void *arg, const struct bench_run *br, size_t done,
		   size_t total)
{
	struct progress *p = arg;
	double t = clock_seconds(), elapsed = t - p->start;
	char e[32], left[32];

	if (p->verbose) {
		const struct pair_result *pr = &br->pairs[done - 1];
		enum metric m = br->cfg->metric;
		double b = sample_value(&pr->s[ARM_BASE], m);
		double h = sample_value(&pr->s[ARM_HEAD], m);
		char bs[32], hs[32];

		progress_clear(p);
		term_printf(p->out, "gate: %s pair %zu/%zu (%s first): base "
			    "%s, head %s, %+.1f%%", br->cfg->name, done, total,
			pr->head_first ? "head" : "base",
			metric_format(m, b, bs, sizeof(bs)),
			metric_format(m, h, hs, sizeof(hs)),
			(h / b - 1.0) * 100);
		fputc('\n', p->out);
	}
	if (p->mode != PROGRESS_TTY || (done < total && t - p->last_draw < 0.2))
		return;
	p->last_draw = t;
	format_seconds(elapsed, e, sizeof(e));
	format_seconds(elapsed / (double)done * (double)(total - done), left,
		       sizeof(left));
	fputs("\r\033[K", p->out);
	term_printf(p->out, "gate: [%zu/%zu] %s: pair %zu of %zu, %s "
		"elapsed, about %s left", p->index, p->count, br->cfg->name,
		done, total, e, left);
	fflush(p->out);
	p->drawn = 1;
}

void progress_bench_end(struct progress *p, const struct bench_run *br,
			const struct bench_stats *st)
{
	struct view_row row;

	progress_clear(p);
	if (p->mode != PROGRESS_LINES)
		return;
	view_row_build(&row, br, st, 0);
	if (!row.measured)
		term_printf(p->out, "gate: [%zu/%zu] %s: %s after %zu pairs",
			p->index, p->count, row.bench, verdict_name(st->verdict),
			br->npairs);
	else
		term_printf(p->out, "gate: [%zu/%zu] %s: %zu pairs: %s (%s), "
			    "%s",
			p->index, p->count, row.bench, br->npairs, row.change,
			row.interval, verdict_name(st->verdict));
	fputc('\n', p->out);
	view_row_release(&row);
	fflush(p->out);
}
