/*
 * gate trend's reports beside the terminal's: the chains (gate/cmd/trend.h)
 * as JSON, and as an HTML page of one SVG chart per benchmark (no script,
 * no external assets).
 */
#include "gate/cmd/trend.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/report/view.h"
#include "gate/report/load-fields.h"
#include "common/banned.h"

/* Chain c's change points: an array, or null when none were sought. */
static void changepoints_json(cJSON *b, const struct chain *c)
{
	cJSON *cps;
	size_t j;

	if (!c->cp_sought) {
		cJSON_AddNullToObject(b, "change_points");
		return;
	}
	cps = cJSON_AddArrayToObject(b, "change_points");
	for (j = 0; j < c->ncp; j++) {
		const struct link *l = trend_cp_at(c, j);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(cps, o);
		cJSON_AddStringToObject(o, "commit", l->st->commit);
		cJSON_AddStringToObject(o, "subject", l->st->subject);
		fields_num(o, "shift", exp(c->cp[j].after - c->cp[j].before));
		fields_num(o, "p", c->cp[j].p);
		fields_num(o, "q", c->cp[j].q);
		fields_num(o, "step_ratio", l->f->estimate);
		cJSON_AddStringToObject(o, "step_verdict", l->verdict);
		cJSON_AddBoolToObject(o, "likely_machine", trend_cp_machine(c, j));
		/* where the data place it: the first and last commit its
		   new level may start at */
		cJSON_AddStringToObject(o, "range_first",
					trend_cp_first(c, j)->st->commit);
		cJSON_AddStringToObject(o, "range_last",
					trend_cp_last(c, j)->st->commit);
		cJSON_AddNumberToObject(o, "range_records",
					(double)(c->cp[j].hi - c->cp[j].lo + 1));
		fields_num(o, "range_level", CP_LOCATE_LEVEL);
	}
}

/* Chain c's steps: each record's ratio and the cumulative one. */
static void steps_json(cJSON *b, const struct chain *c)
{
	cJSON *steps = cJSON_AddArrayToObject(b, "steps");
	size_t j;

	for (j = 0; j < c->n; j++) {
		const struct link *l = &c->l[j];
		cJSON *s = cJSON_CreateObject();

		cJSON_AddItemToArray(steps, s);
		cJSON_AddStringToObject(s, "commit", l->st->commit);
		cJSON_AddStringToObject(s, "subject", l->st->subject);
		cJSON_AddStringToObject(s, "verdict", l->verdict);
		if (l->identical)	/* passed unmeasured: ratio 1 */
			cJSON_AddTrueToObject(s, "identical");
		fields_num(s, "ratio", l->f->estimate);
		fields_num(s, "ratio_low", l->f->low);
		fields_num(s, "ratio_high", l->f->high);
		fields_num(s, "level", l->f->level);
		fields_num(s, "cumulative", l->cum);
		fields_num(s, "low", l->low);
		fields_num(s, "high", l->high);
	}
}

/* Which test flagged creep (the cumulative interval, the mean of the
   paired steps), each at the corrected one-sided alpha. */
static void creep_json(cJSON *b, const struct chain *c)
{
	cJSON *t = cJSON_AddObjectToObject(b, "creep_test");

	cJSON_AddBoolToObject(t, "cumulative", c->creep_chain);
	cJSON_AddBoolToObject(t, "trend", c->creep_trend);
	cJSON_AddBoolToObject(t, "trend_tested", c->trend_tested);
	cJSON_AddStringToObject(t, "of", "paired steps");
	fields_num(t, "alpha", c->trend_alpha);
	if (!c->trend_tested)
		return;
	fields_num(t, "slope_per_record", exp(c->trend.slope));
	fields_num(t, "over_range", exp(c->trend.slope * c->trend.span));
	fields_num(t, "p", c->trend.p_up);
	cJSON_AddNumberToObject(t, "records", (double)c->trend.n);
}

/* One benchmark's chain as JSON. */
static cJSON *chain_json(const struct chain *c)
{
	cJSON *b = cJSON_CreateObject();
	const struct link *last = c->n ? &c->l[c->n - 1] : NULL;

	cJSON_AddStringToObject(b, "name", c->name);
	cJSON_AddStringToObject(b, "metric", c->metric ? c->metric : "");
	cJSON_AddStringToObject(b, "unit", c->unit ? c->unit : "");
	cJSON_AddNumberToObject(b, "floor", c->floor);
	fields_num(b, "cumulative", last ? last->cum : NAN);
	fields_num(b, "low", last ? last->low : NAN);
	fields_num(b, "high", last ? last->high : NAN);
	cJSON_AddBoolToObject(b, "creep", c->creep);
	creep_json(b, c);
	cJSON_AddNumberToObject(b, "failed_steps", c->failed);
	cJSON_AddNumberToObject(b, "noisy_steps", c->noisy);
	cJSON_AddNumberToObject(b, "change_point_records",
				(double)c->cp_records);
	changepoints_json(b, c);
	steps_json(b, c);
	return b;
}

int trend_write_json(const char *path, const struct history *h,
		      const struct chain *c, size_t nc, double confidence,
		      const char *range)
{
	cJSON *root = cJSON_CreateObject(), *bs;
	char *text;
	size_t k;
	FILE *f;
	int ret = 0;

	cJSON_AddStringToObject(root, "label", h->label);
	cJSON_AddStringToObject(root, "range", range ? range : "HEAD");
	cJSON_AddNumberToObject(root, "records", (double)h->n);
	cJSON_AddNumberToObject(root, "commits", (double)h->walked);
	cJSON_AddNumberToObject(root, "confidence", confidence);
	cJSON_AddStringToObject(root, "change_point_method",
		"e-divisive means on head's log samples, one group per "
		"record; null: too few records kept samples");
	cJSON_AddNumberToObject(root, "change_point_sig", CP_SIG);
	cJSON_AddStringToObject(root, "interval",
		"sum of log-ratios; variances added, each step's from its "
		"interval's wider side and its one-sided level");
	bs = cJSON_AddArrayToObject(root, "benchmarks");
	for (k = 0; k < nc; k++)
		cJSON_AddItemToArray(bs, chain_json(&c[k]));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f) {
		free(text);
		return error("cannot write \"%s\": %s", path, strerror(errno));
	}
	fprintf(f, "%s\n", text);
	if (ferror(f) || (f != stdout && fclose(f) != 0))
		ret = error("cannot write \"%s\": %s", path, strerror(errno));
	free(text);
	return ret;
}

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

/* One chart's frame: its size, margins and the ratios its height spans. */
struct chart {
	int slant;		/* commit labels slanted (more than 10) */
	double W, H, L, R, T, B;
	double lo, hi;
	size_t n;		/* steps along x */
};

static double chart_x(const struct chart *ch, size_t i)
{
	return ch->L + (ch->n > 1 ? (double)i / (double)(ch->n - 1) : 0.5) *
	       (ch->W - ch->L - ch->R);
}

static double chart_y(const struct chart *ch, double v)
{
	return ch->T + (ch->hi - v) / (ch->hi - ch->lo) *
	       (ch->H - ch->T - ch->B);
}

/* Chain c's frame: the band, 1 and the floor inside, with a margin. */
static void chart_frame(struct chart *ch, const struct chain *c)
{
	size_t j;

	/* more than 10 commits: their labels slant, not to overlap */
	ch->slant = c->n > 10;
	ch->W = 640;
	ch->H = ch->slant ? 290 : 260;
	ch->L = 60;
	ch->R = 20;
	ch->T = 20;
	ch->B = ch->slant ? 70 : 40;
	ch->n = c->n;
	ch->lo = 1;
	ch->hi = 1 + c->floor;
	for (j = 0; j < c->n; j++) {
		ch->lo = fmin(ch->lo, isfinite(c->l[j].low) ? c->l[j].low :
			      c->l[j].cum);
		ch->hi = fmax(ch->hi, isfinite(c->l[j].high) ? c->l[j].high :
			      c->l[j].cum);
	}
	ch->hi += (ch->hi - ch->lo) * 0.05 + 1e-9;
	ch->lo -= (ch->hi - ch->lo) * 0.05 + 1e-9;
}

/* The band, the lines at 1 and the floor, and the ticks. */
static void chart_axes(FILE *f, const struct chart *ch, const struct chain *c)
{
	double tick[8];
	size_t j, nt;
	char buf[32];

	fprintf(f, "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
		ch->W, ch->H);
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#fff\" stroke=\"#ccc\"/>\n", ch->L, ch->T,
		ch->W - ch->L - ch->R, ch->H - ch->T - ch->B);
	fputs("<polygon class=\"band\" fill=\"#9ecae1\" opacity=\"0.6\" points=\"", f);
	for (j = 0; j < ch->n; j++)
		if (isfinite(c->l[j].high))
			fprintf(f, "%.1f,%.1f ", chart_x(ch, j),
				chart_y(ch, c->l[j].high));
	for (j = ch->n; j-- > 0;)
		if (isfinite(c->l[j].low))
			fprintf(f, "%.1f,%.1f ", chart_x(ch, j),
				chart_y(ch, c->l[j].low));
	fputs("\"/>\n", f);
	fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#888\"/>\n", ch->L, ch->W - ch->R, chart_y(ch, 1.0),
		chart_y(ch, 1.0));
	fprintf(f, "<line class=\"floor\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" "
		"y2=\"%.1f\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n",
		ch->L, ch->W - ch->R, chart_y(ch, 1 + c->floor),
		chart_y(ch, 1 + c->floor));
	trend_pct(buf, sizeof(buf), 1 + c->floor);
	fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" "
		"fill=\"#d62728\" text-anchor=\"end\">floor %s</text>\n",
		ch->W - ch->R - 4, chart_y(ch, 1 + c->floor) - 4, buf);
	/* ticks at round percentages, as in every report's plots */
	nt = view_ticks(ch->lo, ch->hi, tick, 6);
	for (j = 0; j < nt; j++) {
		view_tick_label(tick[j], buf, sizeof(buf));
		fprintf(f, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
			"font-size=\"11\" text-anchor=\"end\">%s</text>\n",
			ch->L - 4, chart_y(ch, 1 + tick[j] / 100) + 4, buf);
	}
}

/* The cumulative ratio, and each step marked by its verdict. */
static void chart_steps(FILE *f, const struct chart *ch, const struct chain *c)
{
	size_t j;
	char buf[32];

	fputs("<polyline fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\" "
	      "points=\"", f);
	for (j = 0; j < ch->n; j++)
		fprintf(f, "%.1f,%.1f ", chart_x(ch, j), chart_y(ch, c->l[j].cum));
	fputs("\"/>\n", f);
	for (j = 0; j < ch->n; j++) {
		const char *v = c->l[j].verdict;
		const char *col = !strcmp(v, "fail") ? "#d62728" :
				  !strcmp(v, "noisy") ? "#ff7f0e" : "#08519c";
		double x = chart_x(ch, j), y = ch->H - ch->B + 14;

		fprintf(f, "<circle class=\"step %s\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"5\" fill=\"%s\"><title>%.12s ", v, x,
			chart_y(ch, c->l[j].cum), col, c->l[j].st->commit);
		html_text(f, c->l[j].st->subject);
		trend_pct(buf, sizeof(buf), c->l[j].f->estimate);
		fprintf(f, ": step %s, %s%s</title></circle>\n", buf, v,
			c->l[j].identical ? " (identical build, not measured)" :
			"");
		if (ch->slant)
			fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" "
				"text-anchor=\"end\" transform=\"rotate(-45 %.1f "
				"%.0f)\">%.7s</text>\n", x, y, x, y,
				c->l[j].st->commit);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" "
				"text-anchor=\"middle\">%.7s</text>\n", x, y,
				c->l[j].st->commit);
	}
}

/* Each change point: a dotted line between the last point of the old
   level and the first of the new one, with its shift. */
static void chart_changepoints(FILE *f, const struct chart *ch,
			       const struct chain *c)
{
	size_t j;
	char buf[32];

	for (j = 0; j < c->ncp; j++) {
		size_t at = c->cp_link[c->cp[j].group];
		double x = (chart_x(ch, at) + chart_x(ch, at - 1)) / 2;

		trend_cp_shift(buf, sizeof(buf), c, j);
		fprintf(f, "<line class=\"changepoint\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.0f\" y2=\"%.0f\" stroke=\"#6a3d9a\" "
			"stroke-width=\"2\" stroke-dasharray=\"3 3\"><title>change "
			"point at %.12s: %s</title></line>\n", x, x, ch->T,
			ch->H - ch->B, c->l[at].st->commit, buf);
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" "
			"fill=\"#6a3d9a\">%s</text>\n", x + 3, ch->T + 12, buf);
	}
}

/* One SVG chart: x the steps, y the cumulative ratio, the band, the floor. */
static void html_chart(FILE *f, const struct chain *c)
{
	struct chart ch;

	chart_frame(&ch, c);
	chart_axes(f, &ch, c);
	chart_steps(f, &ch, c);
	chart_changepoints(f, &ch, c);
	fputs("</svg>\n", f);
}

static void html_changepoints(FILE *f, const struct chain *c)
{
	size_t i;
	char e[32];

	fputs("<p class=\"changepoints\">", f);
	if (!c->cp_sought)
		fprintf(f, "change points not sought: %zu record%s kept samples, "
			"e-divisive needs %d (gate record --samples)",
			c->cp_records, c->cp_records == 1 ? "" : "s",
			2 * CP_MIN_RECORDS);
	else if (!c->ncp)
		fprintf(f, "no change point in %zu records with samples",
			c->cp_records);
	for (i = 0; i < c->ncp; i++) {
		trend_cp_shift(e, sizeof(e), c, i);
		fprintf(f, "%schange point at %.12s (", i ? "; " : "",
			trend_cp_at(c, i)->st->commit);
		html_text(f, trend_cp_at(c, i)->st->subject);
		fprintf(f, "): %s (p %.3f)%s", e, c->cp[i].p,
			trend_cp_machine(c, i) ? ", its paired step saw no change: "
			"likely the machine's" : "");
	}
	fputs("</p>\n", f);
}

int trend_write_html(const char *path, const struct history *h,
		      const struct chain *c, size_t nc, double confidence)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	size_t k;
	int ret = 0;

	if (!f)
		return error("cannot write \"%s\": %s", path, strerror(errno));
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<title>gate trend</title><style>body{font-family:sans-serif;"
	      "margin:2em}h2{font-size:1.1em}.creep{color:#d62728;"
	      "font-weight:bold}</style></head><body>\n", f);
	fputs("<h1>gate trend: ", f);
	html_text(f, h->label);
	fprintf(f, "</h1>\n<p>%zu records on %zu first-parent commits; "
		"cumulative ratio since the range's start with its %.0f%% "
		"band (log-ratios summed, variances added); dashed: the floor; "
		"red points: failed steps, orange: noisy; purple dotted lines: "
		"change points (e-divisive on head's samples).</p>\n", h->n,
		h->walked, confidence * 100);
	for (k = 0; k < nc; k++) {
		char e[32], lo[32], hi[32];
		const struct link *last = c[k].n ? &c[k].l[c[k].n - 1] : NULL;

		trend_pct(e, sizeof(e), last ? last->cum : NAN);
		trend_pct(lo, sizeof(lo), last ? last->low : NAN);
		trend_pct(hi, sizeof(hi), last ? last->high : NAN);
		fputs("<section class=\"bench\"><h2>", f);
		html_text(f, c[k].name);
		fprintf(f, ": %s (%s .. %s)</h2>\n", e, lo, hi);
		if (c[k].creep)
			fputs("<p class=\"creep\">creep: above the floor, and "
			      "no single step failed</p>\n", f);
		html_changepoints(f, &c[k]);
		if (c[k].n)
			html_chart(f, &c[k]);
		fputs("</section>\n", f);
	}
	fputs("</body></html>\n", f);
	if (ferror(f) || (f != stdout && fclose(f) != 0))
		ret = error("cannot write \"%s\": %s", path, strerror(errno));
	return ret;
}
