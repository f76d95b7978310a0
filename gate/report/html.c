/*
 * The HTML report: one self-contained file (no scripts, no network, no
 * external assets). Per benchmark, the paired ratios in run order (drift and
 * outliers show) and the interval, floor and no-change line on one axis.
 */
#include "gate/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

#define PLOT_W 640
#define PLOT_H 220
#define AXIS_H 82

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

static const char *vclass(enum verdict v)
{
	return verdict_name(v);
}

static int measured(const struct bench_run *br, const struct bench_stats *st)
{
	return st->verdict != VERDICT_NEW && st->ratios && st->n &&
	       !br->error;
}

static const char style[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"color:#1f2328;background:#fff;margin:0 auto;max-width:980px;"
	"padding:24px}"
	"h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 4px}"
	".sub{color:#59636e;margin:0 0 16px}"
	".badge{display:inline-block;padding:1px 10px;border-radius:12px;"
	"color:#fff;font-weight:600;font-size:.85em;vertical-align:middle}"
	".pass{background:#1a7f37}.fail{background:#cf222e}"
	".noisy{background:#9a6700}.error{background:#6e40c9}"
	".new,.interrupted{background:#59636e}"
	"table{border-collapse:collapse;margin:8px 0 16px}"
	"th,td{padding:4px 10px;border-bottom:1px solid #d1d9e0;"
	"text-align:left}td.n{text-align:right;font-variant-numeric:"
	"tabular-nums}th{background:#f6f8fa}"
	"section{border-top:1px solid #d1d9e0;margin-top:20px}"
	".why{margin:4px 0 8px}svg{display:block;margin:6px 0}"
	"svg text{font:12px system-ui,sans-serif;fill:#59636e}"
	".legend{font-size:13px;color:#59636e}"
	"pre{background:#f6f8fa;padding:12px;overflow:auto;"
	"white-space:pre-wrap}"
	"ul.proto{font-size:14px;color:#353c44}";

static const char *color_of(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS: return "#1a7f37";
	case VERDICT_FAIL: return "#cf222e";
	case VERDICT_NOISY: return "#9a6700";
	case VERDICT_ERROR: return "#6e40c9";
	case VERDICT_NEW: return "#59636e";
	}
	return "#59636e";
}

/* A log-scaled ratio axis covering lo..hi. */
struct axis {
	double lo, hi;		/* ratios */
	double p0, p1;		/* pixels for lo and hi */
};

static double ax(const struct axis *a, double v)
{
	return a->p0 + (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo)) *
	       (a->p1 - a->p0);
}

/* The range every mark of st must fit in, padded a little. */
static void range(double *lo, double *hi, const struct bench_stats *st)
{
	double a = fmin(1.0, st->low), b = fmax(1.0 + st->floor, st->high);
	size_t i;

	for (i = 0; i < st->n; i++) {
		if (isfinite(st->ratios[i]) && st->ratios[i] > 0) {
			a = fmin(a, st->ratios[i]);
			b = fmax(b, st->ratios[i]);
		}
	}
	if (!(a > 0))
		a = 1e-3;
	if (b / a < 1.02) {
		a /= 1.01;
		b *= 1.01;
	}
	*lo = a / pow(b / a, 0.06);
	*hi = b * pow(b / a, 0.06);
}

static void hline(FILE *out, double y, double x0, double x1,
		  const char *stroke, const char *extra)
{
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" %s/>\n", x0, y, x1, y, stroke, extra);
}

/* The right-hand labels of the order plot, pushed apart so that close
 * lines (a small floor, a median near it) keep readable labels. */
static void labels(FILE *out, double x, const struct axis *y,
		   const struct bench_stats *st)
{
	char text[3][48];
	const char *fill[3] = { "#59636e", "#cf222e", color_of(st->verdict) };
	double pos[3];
	int idx[3] = { 0, 1, 2 }, i, j, t;

	snprintf(text[0], sizeof(text[0]), "no change");
	snprintf(text[1], sizeof(text[1]), "floor %+.1f%%", st->floor * 100);
	snprintf(text[2], sizeof(text[2]), "median %+.1f%%", ratio_pct(st->median));
	pos[0] = ax(y, 1.0) + 4;
	pos[1] = ax(y, 1.0 + st->floor) + 4;
	pos[2] = ax(y, st->median) + 4;
	for (i = 0; i < 3; i++)		/* sort top to bottom */
		for (j = i + 1; j < 3; j++)
			if (pos[idx[j]] < pos[idx[i]]) {
				t = idx[i];
				idx[i] = idx[j];
				idx[j] = t;
			}
	for (i = 1; i < 3; i++)
		if (pos[idx[i]] - pos[idx[i - 1]] < 13)
			pos[idx[i]] = pos[idx[i - 1]] + 13;
	for (i = 0; i < 3; i++)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" style=\"fill:%s\">"
			"%s</text>\n", x, pos[i], fill[i], text[i]);
}

/* Ratios in run order: x is the pair, y the ratio on a log scale. */
static void plot_order(FILE *out, const struct bench_run *br,
		       const struct bench_stats *st)
{
	const double l = 64, r = 130, t = 14, b = 30;
	struct axis y;
	double lo, hi, x0 = l, x1 = PLOT_W - r, step;
	char bs[32], hs[32];
	size_t i, k;

	range(&lo, &hi, st);
	y.lo = lo;
	y.hi = hi;
	y.p0 = PLOT_H - b;
	y.p1 = t;
	step = (x1 - x0) / (double)st->n;
	fprintf(out, "<svg class=\"order\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"head/base "
		"ratio of each pair in run order\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", PLOT_W, PLOT_H,
		PLOT_W, PLOT_H);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		" fill=\"#f6f8fa\" stroke=\"#d1d9e0\"/>\n", x0, (double)t,
		x1 - x0, PLOT_H - t - b);
	/* the interval as a band, the median as a line */
	fprintf(out, "<rect class=\"interval\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"0.16\"/>\n", x0, ax(&y, st->high), x1 - x0,
		fmax(1.0, ax(&y, st->low) - ax(&y, st->high)),
		color_of(st->verdict));
	hline(out, ax(&y, st->median), x0, x1, color_of(st->verdict),
	      "stroke-width=\"2\" class=\"median\"");
	hline(out, ax(&y, 1.0), x0, x1, "#59636e", "stroke-width=\"1.5\"");
	hline(out, ax(&y, 1.0 + st->floor), x0, x1, "#cf222e",
	      "stroke-width=\"1.5\" stroke-dasharray=\"6 4\" class=\"floor\"");
	labels(out, x1 + 6, &y, st);
	/* y ticks, evenly spaced on the log scale */
	for (k = 0; k <= 4; k++) {
		double v = exp(log(lo) + (log(hi) - log(lo)) * (double)k / 4);

		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
			"%+.1f%%</text>\n", x0 - 6, ax(&y, v) + 4, ratio_pct(v));
	}
	/* the run order, joined so drift shows */
	fputs("<polyline fill=\"none\" stroke=\"#8c959f\" stroke-width=\"1\" "
	      "points=\"", out);
	for (i = 0; i < st->n; i++)
		fprintf(out, "%.1f,%.1f ", x0 + step * ((double)i + 0.5),
			ax(&y, st->ratios[i]));
	fputs("\"/>\n", out);
	for (i = 0; i < st->n && i < br->npairs; i++) {
		const struct pair_result *pr = &br->pairs[i];
		enum metric m = br->cfg->metric;
		int hf = pr->head_first;

		fprintf(out, "<circle class=\"pair\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"4\" fill=\"%s\"><title>pair %zu (%s first): base "
			"%s, head %s, %+.1f%%</title></circle>\n",
			x0 + step * ((double)i + 0.5), ax(&y, st->ratios[i]),
			hf ? "#bc4c00" : "#0969da", i + 1, hf ? "head" : "base",
			metric_format(m, sample_value(&pr->s[ARM_BASE], m), bs,
				       sizeof(bs)),
			metric_format(m, sample_value(&pr->s[ARM_HEAD], m), hs,
				       sizeof(hs)),
			ratio_pct(st->ratios[i]));
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\">pair 1</text>\n", x0,
		PLOT_H - 10);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">pair %zu "
		"(run order)</text>\n", x1, PLOT_H - 10, st->n);
	fputs("</svg>\n", out);
}

/* One axis: each pair's ratio as a tick, the interval, median, floor. */
static void plot_axis(FILE *out, const struct bench_stats *st)
{
	const double l = 64, r = 130, mid = 38;
	struct axis x;
	double lo, hi, x0 = l, x1 = PLOT_W - r;
	size_t i, k;

	range(&lo, &hi, st);
	x.lo = lo;
	x.hi = hi;
	x.p0 = x0;
	x.p1 = x1;
	fprintf(out, "<svg class=\"axis\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"interval, "
		"floor and no-change on one axis\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", PLOT_W + 60, AXIS_H,
		PLOT_W + 60, AXIS_H);
	hline(out, mid, x0, x1, "#d1d9e0", "stroke-width=\"1\"");
	for (i = 0; i < st->n; i++)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#8c959f\" stroke-width=\"1\"/>\n",
			ax(&x, st->ratios[i]), mid - 16, ax(&x, st->ratios[i]),
			mid - 8);
	fprintf(out, "<rect class=\"interval\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"10\" rx=\"3\" fill=\"%s\"><title>"
		"one-sided %.4g%% bounds %+.1f%% to %+.1f%%</title></rect>\n",
		ax(&x, st->low), mid - 5,
		fmax(2.0, ax(&x, st->high) - ax(&x, st->low)),
		color_of(st->verdict), st->level * 100, ratio_pct(st->low),
		ratio_pct(st->high));
	fprintf(out, "<circle class=\"median\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" "
		"fill=\"#fff\" stroke=\"%s\" stroke-width=\"3\"/>\n",
		ax(&x, st->median), mid, color_of(st->verdict));
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#59636e\" stroke-width=\"1.5\"/>\n", ax(&x, 1.0),
		mid - 20, ax(&x, 1.0), mid + 12);
	fprintf(out, "<line class=\"floor\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" stroke-width=\"1.5\""
		" stroke-dasharray=\"4 3\"/>\n", ax(&x, 1.0 + st->floor),
		mid - 20, ax(&x, 1.0 + st->floor), mid + 12);
	fprintf(out, "<text x=\"%.1f\" y=\"10\" text-anchor=\"end\">no "
		"change</text>\n", ax(&x, 1.0) - 2);
	fprintf(out, "<text x=\"%.1f\" y=\"10\" style=\"fill:#cf222e\">"
		"floor</text>\n", ax(&x, 1.0 + st->floor) + 2);
	for (k = 0; k <= 4; k++) {
		double v = exp(log(lo) + (log(hi) - log(lo)) * (double)k / 4);

		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
			">%+.1f%%</text>\n", ax(&x, v), mid + 30, ratio_pct(v));
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%+.1f%% .. %+.1f%%</text>\n",
		x1 + 10, mid + 4, ratio_pct(st->low), ratio_pct(st->high));
	fputs("</svg>\n", out);
}

static void summary_table(FILE *out, const struct run_report *r)
{
	char b[32], h[32];
	size_t i;

	fprintf(out, "<table class=\"summary\"><tr><th>benchmark</th><th>base"
		"</th><th>head</th><th>change</th><th>one-sided %.4g%% bounds</th>"
		"<th>floor</th><th>head slower</th><th>verdict</th></tr>\n",
		r->level * 100);
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;
		const struct bench_stats *st = &r->b[i].primary;

		fputs("<tr><td>", out);
		esc(out, br->cfg->name);
		if (measured(br, st))
			fprintf(out, "</td><td class=\"n\">%s</td><td "
				"class=\"n\">%s</td><td class=\"n\"><b>%+.1f%%"
				"</b></td><td class=\"n\">%+.1f%% .. %+.1f%%"
				"</td><td class=\"n\">%+.0f%%</td><td "
				"class=\"n\">%zu of %zu</td>",
				metric_format(st->metric, st->base_median, b, sizeof(b)),
				metric_format(st->metric, st->head_median, h, sizeof(h)),
				ratio_pct(st->median), ratio_pct(st->low), ratio_pct(st->high),
				st->floor * 100, st->head_slower, st->of);
		else
			fputs("</td><td></td><td></td><td></td><td></td><td>"
			      "</td><td></td>", out);
		fprintf(out, "<td><span class=\"badge %s\">%s</span></td></tr>\n",
			vclass(st->verdict), verdict_name(st->verdict));
	}
	fputs("</table>\n", out);
}

static void rev_item(FILE *out, const char *arm, const struct report_rev *v)
{
	fprintf(out, "<li>%s: ", arm);
	if (v->worktree) {
		fprintf(out, "working tree (%s) on <code>%.12s</code>",
			v->dirty ? "with uncommitted changes" : "clean",
			v->commit && *v->commit ? v->commit : "none");
	} else {
		esc(out, v->label);
		fprintf(out, " = <code>%.12s</code>", v->commit && *v->commit ?
			v->commit : "none");
		if (v->how) {
			fputs(" (", out);
			esc(out, v->how);
			fputc(')', out);
		}
	}
	fputs("</li>\n", out);
}

/* The measuring conditions both arms shared (gate/layout.h). */
static void conditions(FILE *out, const struct run_report *r)
{
	char *lines[REPORT_CONDITIONS_MAX];
	size_t i, n = report_conditions(r, lines);

	for (i = 0; i < n; i++) {
		fputs("<li>", out);
		esc(out, lines[i]);
		fputs("</li>\n", out);
	}
	report_conditions_free(lines, n);
}

static void protocol(FILE *out, const struct run_report *r)
{
	const struct machine *m = &r->machine;
	char par[192], iv[96], secs[32], *text;
	size_t i;

	fputs("<h2>Protocol</h2>\n<ul class=\"proto\">\n", out);
	rev_item(out, "base", &r->rev[ARM_BASE]);
	rev_item(out, "head", &r->rev[ARM_HEAD]);
	fputs("<li>config: ", out);
	esc(out, r->config_origin ? r->config_origin : "gate.json");
	fprintf(out, "</li>\n<li>order: base and head back to back in pairs, "
		"which runs first drawn at random (balanced); seed %lu "
		"(<code>--seed %lu</code> replays it)</li>\n", r->seed, r->seed);
	fputs("<li>interval: ", out);
	esc(out, report_run_interval(r, iv, sizeof(iv)));
	fputs("</li>\n<li>decision: ", out);
	text = report_rule_text(r);
	esc(out, text);
	free(text);
	fputs("</li>\n<li>promise: ", out);
	text = report_promise_text(r);
	esc(out, text);
	free(text);
	fputs("</li>\n", out);
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;
		const struct bench_cfg *c = br->cfg;

		if (r->b[i].primary.verdict == VERDICT_NEW)
			continue;
		fputs("<li>", out);
		esc(out, c->name);
		fprintf(out, ": metric %s, %zu pairs + %u warm-up in %s, "
			"floor %+.1f%%, pass_excludes %+.1f%%, ",
			metric_name(c->metric), br->npairs, c->warmup,
			format_seconds(br->seconds, secs, sizeof(secs)),
			c->min_effect * 100, report_excludes(r, c) * 100);
		esc(out, report_interval_name(c, iv, sizeof(iv)));
		if (measured(br, &r->b[i].primary))
			fprintf(out, ", CV base %.1f%% / head %.1f%%, sign "
				"test p = %.2g", r->b[i].primary.base_cv * 100,
				r->b[i].primary.head_cv * 100, r->b[i].primary.sign_p);
		esc(out, report_parity(br, par, sizeof(par)));
		fputs("</li>\n", out);
	}
	conditions(out, r);
	fputs("<li>machine: ", out);
	esc(out, m->cpu);
	fprintf(out, ", %ld cores, SMT %s, governor %s, turbo %s, "
		"virtualisation %s, ", m->cores, m->smt, m->governor, m->turbo,
		m->virt);
	esc(out, m->kernel);
	fprintf(out, "</li>\n<li>load: %.2f before, %.2f after; gate %s</li>\n"
		"</ul>\n", m->load_before[0], m->load_after[0], GATE_VERSION);
}

static void bench_section(FILE *out, const struct bench_run *br,
			  const struct bench_stats *st)
{
	const char *why = br->error ? br->error : st->reason;

	fputs("<section class=\"bench\">\n<h2>", out);
	esc(out, br->cfg->name);
	fprintf(out, " <span class=\"badge %s\">%s</span></h2>\n",
		vclass(st->verdict), verdict_name(st->verdict));
	if (st->verdict == VERDICT_NEW)
		why = "new in head (base's gate.json does not declare it): "
		      "not compared";
	if (why) {
		fputs(br->error ? "<pre class=\"why\">" : "<p class=\"why\">",
		      out);
		esc(out, why);
		fputs(br->error ? "</pre>\n" : "</p>\n", out);
	}
	if (st->note) {
		fputs("<p class=\"note\">note: ", out);
		esc(out, st->note);
		fputs("</p>\n", out);
	}
	if (!measured(br, st)) {
		fputs("</section>\n", out);
		return;
	}
	plot_order(out, br, st);
	fputs("<p class=\"legend\">Each dot is one pair's head/base ratio, in "
	      "the order the pairs ran (<span style=\"color:#0969da\">"
	      "\xe2\x97\x8f base ran first</span>, <span style=\"color:"
	      "#bc4c00\">\xe2\x97\x8f head ran first</span>); the band is the "
	      "interval (one-sided bounds), the dashed line the floor. Log "
	      "scale.</p>\n", out);
	plot_axis(out, st);
	fputs("</section>\n", out);
}

void report_html(FILE *out, const struct run_report *r)
{
	const char *v = r->interrupted ? "interrupted" : verdict_name(r->suite);
	size_t i;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		"content=\"width=device-width, initial-scale=1\">\n"
		"<title>gate: %s</title>\n<style>%s</style>\n</head>\n<body>\n",
		v, style);
	fprintf(out, "<h1>gate <span class=\"badge %s\">%s</span></h1>\n", v,
		v);
	fputs("<p class=\"sub\">base ", out);
	esc(out, r->rev[ARM_BASE].label ? r->rev[ARM_BASE].label : "?");
	fputs(" \xe2\x86\x92 head ", out);
	esc(out, r->rev[ARM_HEAD].label ? r->rev[ARM_HEAD].label : "?");
	fprintf(out, " \xc2\xb7 exit %d", r->exit_code);
	if (r->advisory && r->suite != VERDICT_PASS)
		fprintf(out, " (advisory: exit 0 instead of %d)",
			verdict_exit_code(r->suite));
	fputs("</p>\n", out);
	if (r->error) {
		fputs("<pre class=\"error\">", out);
		esc(out, r->error);
		fputs("</pre>\n", out);
	}
	if (r->n)
		summary_table(out, r);
	for (i = 0; i < r->n; i++)
		bench_section(out, &r->b[i].run, &r->b[i].primary);
	protocol(out, r);
	fputs("</body>\n</html>\n", out);
}

int report_html_file(const char *path, const struct run_report *r)
{
	FILE *f;
	int ret = 0;

	if (!strcmp(path, "-")) {
		report_html(stdout, r);
		return fflush(stdout) ? error("cannot write the HTML report "
					      "to stdout:") : 0;
	}
	if (!(f = fopen(path, "w")))
		return error("cannot write the HTML report \"%s\":", path);
	report_html(f, r);
	if (ferror(f))
		ret = -1;
	if (fclose(f) != 0 || ret < 0)
		ret = error("cannot write the HTML report \"%s\":", path);
	return ret;
}
