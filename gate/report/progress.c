/*
 * Progress lines. Called between pairs, after both samples are reaped, so
 * drawing never falls inside a measured interval; a redraw is throttled to
 * a few per second so a fast benchmark does not spend its time printing.
 */
#include "gate/report/progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	memset(&p->left, 0, sizeof(p->left));
	p->left.budget_end = INFINITY;
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

/* A duration as progress bars show one: M:SS, or H:MM:SS from an hour. */
static const char *clock_str(double s, char *buf, size_t size)
{
	long t = !isfinite(s) || s < 0 ? 0 : s > 359999 ? 359999 :
		 (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
	return buf;
}

/*
 * The run's time left at time t, in two bounds: the current look's pairs
 * still to come at its rate (seconds a pair), then p->left, its unpriced
 * pairs at the same rate; the budget caps both, never below the look in
 * hand (a look once started is measured whole).
 */
static void run_left(const struct progress *p, double rate, size_t done,
		     size_t total, double t, double *lo, double *hi)
{
	const struct progress_left *l = &p->left;
	double cur = rate * (double)(total > done ? total - done : 0), b;

	*lo = cur + l->lo_seconds + l->lo_pairs * rate;
	*hi = cur + l->hi_seconds + l->hi_pairs * rate;
	b = l->budget_end - t;
	if (*hi > b)
		*hi = b > cur ? b : cur;
	if (*lo > *hi)
		*lo = *hi;
}

/* "about 0:12 left", or "0:12 to 4:30 left" when the bounds differ. */
static void left_str(double lo, double hi, char *buf, size_t size)
{
	char a[32], b[32];

	clock_str(lo, a, sizeof(a));
	clock_str(hi, b, sizeof(b));
	if (!strcmp(a, b))
		snprintf(buf, size, "about %s left", a);
	else
		snprintf(buf, size, "%s to %s left", a, b);
}

/* A bar of inner columns, done of total filled: "[=====>    ]". */
static void bar_str(char *buf, size_t inner, size_t done, size_t total)
{
	size_t fill = total ? done * inner / total : 0, k;

	buf[0] = '[';
	for (k = 0; k < inner; k++)
		buf[1 + k] = k < fill ? '=' : k == fill ? '>' : ' ';
	buf[1 + inner] = ']';
	buf[2 + inner] = '\0';
}

/* Bar widths (inside the brackets): the least worth drawing, the most. */
#define BAR_MIN 10
#define BAR_MAX 30
/* A name is cut no shorter than this before the words give way. */
#define NAME_MIN 16

/*
 * The terminal's line, never wider than the terminal less one column (a
 * line in the last column wraps on some terminals), so "\r" and an erase
 * always reach its start (a wrapped line left stale copies). Wide:
 * "gate: [2/5] NAME: pair 14 of 20 [=====>   ] run 0:42, 0:20 to 4:18
 * left", the bar only where the name fits whole; narrow, when even a
 * name of NAME_MIN columns would not fit: "[2/5] NAME 14/20 run 0:42,
 * ...", the name cut to what is left.
 */
static void draw(struct progress *p, const struct bench_run *br, size_t done,
		 size_t total, double elapsed, double t)
{
	char pos[48], pairs[64], run[48], left[80], bar[BAR_MAX + 3], el[32];
	char *name, *shown, *line, *cut;
	size_t this_round = done - p->done0, namew, fixed, room, inner = 0;
	int width = report_term_width(p->out), wide;
	size_t w = (size_t)(width > 1 ? width - 1 : 1);
	/* a benchmark's first round began with its warm-ups: as many
	   pairs' time again, near enough */
	size_t runs = this_round + (p->done0 ? 0 : br->cfg->warmup);
	double rate = elapsed / (double)(runs ? runs : 1), lo, hi;

	run_left(p, rate, done, total, t, &lo, &hi);
	left_str(lo, hi, left, sizeof(left));
	snprintf(run, sizeof(run), " run %s, ",
		 clock_str(t - p->run_start, el, sizeof(el)));
	snprintf(pos, sizeof(pos), "[%zu/%zu] ", p->index, p->count);
	snprintf(pairs, sizeof(pairs), ": pair %zu of %zu", done, total);
	name = escape_str(ESCAPE_TERM_LINE, br->cfg->name);
	namew = escape_term_width(name);
	fixed = strlen("gate: ") + strlen(pos) + strlen(pairs) + strlen(run) +
		strlen(left);
	wide = w >= fixed + (namew < NAME_MIN ? namew : NAME_MIN);
	if (!wide) {
		snprintf(pairs, sizeof(pairs), " %zu/%zu", done, total);
		fixed = strlen(pos) + strlen(pairs) + strlen(run) +
			strlen(left);
	}
	room = w > fixed ? w - fixed : 0;
	if (wide && room >= namew + BAR_MIN + 3) {
		inner = room - namew - 3;
		inner = inner > BAR_MAX ? BAR_MAX : inner;
		bar_str(bar, inner, done, total);
	}
	/* cut in its middle: cases of one test differ at their ends */
	shown = namew > room ? view_cut_middle(name, room) : xstrdup(name);
	line = xasprintf("%s%s%s%s%s%s%s%s", wide ? "gate: " : "", pos, shown,
			 pairs, inner ? " " : "", inner ? bar : "", run, left);
	/* the last guard: whatever was miscounted, never wider */
	cut = escape_term_cut(line, w);
	fputs("\r\033[K", p->out);
	fputs(cut, p->out);	/* escaped above */
	fflush(p->out);
	p->drawn = 1;
	free(name);
	free(shown);
	free(line);
	free(cut);
}

void progress_set_left(struct progress *p, const struct progress_left *l)
{
	p->left = *l;
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

void progress_bench_end(struct progress *p, const struct run_bench *b)
{
	const struct bench_run *br = &b->run;
	const struct bench_stats *st = run_bench_primary(b);
	const char *verdict = verdict_name(b->result.verdict);
	struct view_row row;
	char *name;

	progress_clear(p);
	if (p->mode != PROGRESS_LINES)
		return;
	if (st)
		view_row_build(&row, br, st, 0);
	else
		view_empty_row(&row, br, verdict, b->result.verdict);
	name = escape_str(ESCAPE_TERM_LINE, row.bench);	/* one line */
	if (!row.measured)
		term_printf(p->out, "gate: [%zu/%zu] %s: %s after %zu pairs",
			p->index, p->count, name, verdict, br->npairs);
	else
		term_printf(p->out, "gate: [%zu/%zu] %s: %zu pairs: %s (%s), "
			    "%s",
			p->index, p->count, name, br->npairs, row.change,
			row.interval, verdict);
	fputc('\n', p->out);
	view_row_release(&row);
	free(name);
	fflush(p->out);
}
