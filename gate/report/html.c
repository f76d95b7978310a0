/*
 * The HTML report: one self-contained file (no scripts, no network, no
 * external assets). Per benchmark, the paired ratios in run order (drift and
 * outliers show) and the interval, floor and no-change line on one axis.
 */
#include "gate/report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/escape.h"
#include "common/replace.h"
#include "common/banned.h"

#define PLOT_W 640
#define PLOT_H 220
#define AXIS_H 82

/* The one HTML escape (escape.h). */
static void esc(FILE *out, const char *s)
{
	escape_put(out, ESCAPE_HTML, s);
}

static const char *vclass(enum verdict v)
{
	return verdict_name(v);
}

static const char style[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"color:#1f2328;background:#fff;margin:0 auto;max-width:980px;"
	"padding:24px}"
	"h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 4px;"
	"overflow-wrap:anywhere}"
	".sub{color:#59636e;margin:0 0 16px}"
	".badge{display:inline-block;padding:1px 10px;border-radius:12px;"
	"color:#fff;font-weight:600;font-size:.85em;vertical-align:middle}"
	".pass{background:#1a7f37}.fail{background:#cf222e}"
	".noisy{background:#9a6700}.error{background:#6e40c9}"
	".new,.interrupted{background:#59636e}.accepted{background:#0969da}"
	"table{border-collapse:collapse;margin:8px 0 16px}"
	"th,td{padding:4px 10px;border-bottom:1px solid #d1d9e0;"
	"text-align:left}td.n{text-align:right;font-variant-numeric:"
	"tabular-nums;white-space:nowrap}th{background:#f6f8fa}"
	"td.name{word-break:break-all;min-width:10em;max-width:28em}"
	".wide{overflow-x:auto}"
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
	case VERDICT_ACCEPTED: return "#0969da";
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

/* The range every mark of row must fit in, padded a little. */
static void range(double *lo, double *hi, const struct view_row *row)
{
	double a = fmin(1.0, row->low), b = fmax(1.0 + row->floor, row->high);
	size_t i;

	for (i = 0; i < row->npoints; i++) {
		double v = row->points[i].ratio;

		if (isfinite(v) && v > 0) {
			a = fmin(a, v);
			b = fmax(b, v);
		}
	}
	if (!(a > 0))
		a = 1e-3;
	if (!isfinite(b))
		b = 1e3;
	if (b / a < 1.02) {
		a /= 1.01;
		b *= 1.01;
	}
	/* room below "no change" for a tick there too */
	a = fmin(a, 1 / (1 + 0.4 * (b - 1)));
	b = fmax(b, 1 + 0.5 * (1 / a - 1));
	*lo = a / pow(b / a, 0.06);
	*hi = b * pow(b / a, 0.06);
}

/* A finite ratio to draw: an infinite bound is drawn at the edge. */
static double clampv(const struct axis *a, double v)
{
	return fmin(fmax(v, a->lo), a->hi);
}

static void hline(FILE *out, double y, double x0, double x1,
		  const char *stroke, const char *extra)
{
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" %s/>\n", x0, y, x1, y, stroke, extra);
}

/* The right-hand labels of the order plot, pushed apart so that close
 * lines (a small floor, an estimate near it) keep readable labels. */
static void labels(FILE *out, double x, const struct axis *y,
		   const struct view_row *row)
{
	char text[3][64];
	const char *fill[3] = { "#59636e", "#cf222e", color_of(row->verdict) };
	double pos[3];
	int idx[3] = { 0, 1, 2 }, i, j, t;

	snprintf(text[0], sizeof(text[0]), "no change");
	snprintf(text[1], sizeof(text[1]), "floor %s", row->floor_pct);
	snprintf(text[2], sizeof(text[2]), "estimate %s", row->change);
	pos[0] = ax(y, 1.0) + 4;
	pos[1] = ax(y, 1.0 + row->floor) + 4;
	pos[2] = ax(y, row->estimate) + 4;
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

/* The largest round percentage (1, 2 or 5 x 10^k) of m's sign within
 * |m|, or 0. */
static double round_within(double m)
{
	static const double mult[] = { 1, 2, 5 };
	double a = fabs(m), p, best = 0;
	int k;

	if (!(a >= 1) || !isfinite(a))
		return 0;
	p = pow(10, floor(log10(a)));
	for (k = 0; k < 3; k++)
		if (mult[k] * p <= a)
			best = mult[k] * p;
	return m < 0 ? -best : best;
}

/*
 * Ticks at round percentages: pos(ratio) gives a tick's pixel. A log axis
 * of a large change has round steps (+100%) too wide for the side of "no
 * change" it barely reaches (down to -67%): that side gets one round tick
 * of its own (-50%), so each plot has a tick on each side. Labels never
 * overlap: one too close to the previous is left out.
 */
static void ticks(FILE *out, const struct axis *a, int vertical, double at)
{
	double pct[8], extra, last = 0;
	char label[32];
	size_t k, n = view_ticks(a->lo, a->hi, pct, 6), neg = 0, pos = 0;
	size_t last_len = 0;

	for (k = 0; k < n; k++) {
		neg += pct[k] < 0;
		pos += pct[k] > 0;
	}
	if (!neg && n < 8 && (extra = round_within((a->lo - 1) * 90)) < 0)
		pct[n++] = extra;
	if (!pos && n < 8 && (extra = round_within((a->hi - 1) * 90)) > 0)
		pct[n++] = extra;
	for (k = 1; k < n; k++) {	/* along the axis */
		size_t j;

		for (j = k; j > 0 && pct[j - 1] > pct[j]; j--) {
			extra = pct[j];
			pct[j] = pct[j - 1];
			pct[j - 1] = extra;
		}
	}
	for (k = 0; k < n; k++) {
		double p = ax(a, 1 + pct[k] / 100);
		size_t len;

		view_tick_label(pct[k], label, sizeof(label));
		/* a label that would touch the one before it is left out
		   (a log axis crowds its high end: "+300%+400%") */
		len = strlen(label);
		if (k && fabs(p - last) < (vertical ? 14.0 :
		    4.2 * (double)(len + last_len) + 10))
			continue;
		last = p;
		last_len = len;
		if (vertical)
			fprintf(out, "<text class=\"tick\" x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				at, p + 4, label);
		else
			fprintf(out, "<text class=\"tick\" x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
				p, at, label);
	}
}

/* Ratios in run order: x is the pair, y the ratio on a log scale. */
static void plot_order(FILE *out, const struct view_row *row)
{
	const double l = 64, r = 130, t = 14, b = 30;
	struct axis y;
	double lo, hi, x0 = l, x1 = PLOT_W - r, step;
	size_t i;

	range(&lo, &hi, row);
	y.lo = lo;
	y.hi = hi;
	y.p0 = PLOT_H - b;
	y.p1 = t;
	step = (x1 - x0) / (double)row->npoints;
	fprintf(out, "<svg class=\"order\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"head/base "
		"ratio of each pair in run order\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", PLOT_W, PLOT_H,
		PLOT_W, PLOT_H);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		" fill=\"#f6f8fa\" stroke=\"#d1d9e0\"/>\n", x0, (double)t,
		x1 - x0, PLOT_H - t - b);
	/* the interval as a band, the estimate as a line */
	fprintf(out, "<rect class=\"interval\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"0.16\"/>\n", x0, ax(&y, clampv(&y, row->high)),
		x1 - x0, fmax(1.0, ax(&y, clampv(&y, row->low)) -
			      ax(&y, clampv(&y, row->high))),
		color_of(row->verdict));
	hline(out, ax(&y, row->estimate), x0, x1, color_of(row->verdict),
	      "stroke-width=\"2\" class=\"estimate\"");
	hline(out, ax(&y, 1.0), x0, x1, "#59636e", "stroke-width=\"1.5\"");
	hline(out, ax(&y, 1.0 + row->floor), x0, x1, "#cf222e",
	      "stroke-width=\"1.5\" stroke-dasharray=\"6 4\" class=\"floor\"");
	labels(out, x1 + 6, &y, row);
	ticks(out, &y, 1, x0 - 6);
	/* the run order, joined so drift shows */
	fputs("<polyline fill=\"none\" stroke=\"#8c959f\" stroke-width=\"1\" "
	      "points=\"", out);
	for (i = 0; i < row->npoints; i++)
		fprintf(out, "%.1f,%.1f ", x0 + step * ((double)i + 0.5),
			ax(&y, row->points[i].ratio));
	fputs("\"/>\n", out);
	for (i = 0; i < row->npoints; i++) {
		const struct view_point *pt = &row->points[i];

		fprintf(out, "<circle class=\"pair\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"4\" fill=\"%s\"><title>pair %zu (%s first): base ",
			x0 + step * ((double)i + 0.5), ax(&y, pt->ratio),
			pt->head_first ? "#bc4c00" : "#0969da", i + 1,
			pt->head_first ? "head" : "base");
		esc(out, pt->base);
		fputs(", head ", out);
		esc(out, pt->head);
		fprintf(out, ", %+.1f%%</title></circle>\n",
			(pt->ratio - 1) * 100);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\">pair 1</text>\n", x0,
		PLOT_H - 10);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">pair %zu "
		"(run order)</text>\n", x1, PLOT_H - 10, row->npoints);
	fputs("</svg>\n", out);
}

/* One axis: each pair's ratio as a tick, the interval, estimate, floor. */
static void plot_axis(FILE *out, const struct view_row *row)
{
	const double l = 64, r = 130, mid = 38;
	struct axis x;
	double lo, hi, x0 = l, x1 = PLOT_W - r, a, b;
	size_t i;

	range(&lo, &hi, row);
	x.lo = lo;
	x.hi = hi;
	x.p0 = x0;
	x.p1 = x1;
	a = ax(&x, clampv(&x, row->low));
	b = ax(&x, clampv(&x, row->high));
	fprintf(out, "<svg class=\"axis\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"interval, "
		"floor and no-change on one axis\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", PLOT_W + 60, AXIS_H,
		PLOT_W + 60, AXIS_H);
	hline(out, mid, x0, x1, "#d1d9e0", "stroke-width=\"1\"");
	for (i = 0; i < row->npoints; i++)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#8c959f\" stroke-width=\"1\"/>\n",
			ax(&x, row->points[i].ratio), mid - 16,
			ax(&x, row->points[i].ratio), mid - 8);
	fprintf(out, "<rect class=\"interval\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"10\" rx=\"3\" fill=\"%s\"><title>",
		a, mid - 5, fmax(2.0, b - a), color_of(row->verdict));
	if (row->exact)
		fputs("every pair's ratio (exact)", out);
	else
		fprintf(out, "one-sided %s bounds", row->level);
	fprintf(out, ": %s</title></rect>\n", row->interval);
	fprintf(out, "<circle class=\"estimate\" cx=\"%.1f\" cy=\"%.1f\" "
		"r=\"6\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"3\"/>\n",
		ax(&x, row->estimate), mid, color_of(row->verdict));
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#59636e\" stroke-width=\"1.5\"/>\n", ax(&x, 1.0),
		mid - 20, ax(&x, 1.0), mid + 12);
	fprintf(out, "<line class=\"floor\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" stroke-width=\"1.5\""
		" stroke-dasharray=\"4 3\"/>\n", ax(&x, 1.0 + row->floor),
		mid - 20, ax(&x, 1.0 + row->floor), mid + 12);
	fprintf(out, "<text x=\"%.1f\" y=\"10\" text-anchor=\"end\">no "
		"change</text>\n", ax(&x, 1.0) - 2);
	fprintf(out, "<text x=\"%.1f\" y=\"10\" style=\"fill:#cf222e\">"
		"floor</text>\n", ax(&x, 1.0 + row->floor) + 2);
	ticks(out, &x, 0, mid + 30);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x1 + 10,
		mid + 4, row->interval);
	fputs("</svg>\n", out);
}

static void badge(FILE *out, enum verdict v, const char *word)
{
	fprintf(out, "<span class=\"badge %s\">", vclass(v));
	esc(out, word);
	fputs("</span>", out);
}

/*
 * The table, worst first, the verdict the first cell of every row and the
 * change beside the name: what a reviewer needs is on screen at 800 px
 * however long the names (they wrap), the rest scrolls.
 */
static void summary_table(FILE *out, const struct report_view *v)
{
	size_t i, k;

	/* a table wider than the page scrolls; a number never wraps */
	fputs("<div class=\"wide\">", out);
	fputs("<table class=\"summary\"><tr><th>verdict</th><th>benchmark"
	      "</th><th>change</th><th>", out);
	esc(out, v->bounds);
	fputs("</th><th>floor</th><th>metric</th><th>base</th><th>head</th>",
	      out);
	if (v->throughput)
		fputs("<th>throughput b/h</th>", out);
	fputs("<th>head worse</th></tr>\n", out);
	for (i = 0; i < v->nbenches; i++) {
		const struct view_bench *vb = &v->benches[v->order[i]];

		for (k = vb->row; k < vb->row + vb->nrows; k++) {
			const struct view_row *row = &v->rows[k];

			fputs("<tr><td>", out);
			if (!row->gating)
				fputs("(info) ", out);
			badge(out, row->verdict, row->word);
			fputs("</td><td class=\"name\">", out);
			esc(out, row->first ? row->bench : "");
			if (row->measured) {
				fprintf(out, "</td><td class=\"n\"><b>%s</b>"
					"</td><td class=\"n\">%s</td><td "
					"class=\"n\">%s</td><td>",
					row->change, row->interval,
					row->floor_pct);
				esc(out, row->metric);
				fputs("</td><td class=\"n\">", out);
				esc(out, row->base);
				fputs("</td><td class=\"n\">", out);
				esc(out, row->head);
				if (v->throughput) {
					fputs("</td><td class=\"n\">", out);
					esc(out, row->throughput);
				}
				fprintf(out, "</td><td class=\"n\">%zu of %zu"
					"</td></tr>\n", row->head_slower,
					row->of);
			} else {
				fputs("</td><td></td><td></td><td></td><td>",
				      out);
				esc(out, row->metric);
				fprintf(out, "</td><td></td><td></td>%s<td>"
					"</td></tr>\n", v->throughput ?
					"<td></td>" : "");
			}
		}
	}
	fputs("</table></div>\n", out);
}

static void bench_section(FILE *out, const struct report_view *v,
			  const struct view_bench *vb)
{
	size_t k;

	/* the verdict first, as in the table */
	fputs("<section class=\"bench\">\n<h2>", out);
	badge(out, vb->verdict, vb->word);
	fputc(' ', out);
	esc(out, vb->name);
	fputs("</h2>\n", out);
	if (vb->why) {
		fputs(vb->why_is_error ? "<pre class=\"why\">" :
		      "<p class=\"why\">", out);
		esc(out, vb->why);
		fputs(vb->why_is_error ? "</pre>\n" : "</p>\n", out);
	}
	if (vb->note) {
		fputs("<p class=\"note\">", out);
		esc(out, vb->note_label);
		fputs(": ", out);
		esc(out, vb->note);
		fputs("</p>\n", out);
	}
	for (k = vb->row; !vb->why && k < vb->row + vb->nrows; k++) {
		const struct view_row *row = &v->rows[k];

		if (vb->nrows > 1) {
			fputs("<h3>", out);
			esc(out, row->metric);
			fputs(row->gating ? " " : " (informational) ", out);
			badge(out, row->verdict, row->word);
			fputs("</h3>\n", out);
		}
		if (row->reason) {
			fputs("<p class=\"why\">", out);
			esc(out, row->reason);
			fputs("</p>\n", out);
		}
		if (*row->decide) {
			fputs("<p class=\"note\">", out);
			esc(out, row->decide);
			fputs("</p>\n", out);
		}
		if (*row->direction) {
			fputs("<p class=\"note\">note: ", out);
			esc(out, row->direction);
			fputs("</p>\n", out);
		}
		if (!row->measured || !row->npoints)
			continue;
		plot_order(out, row);
		fputs("<p class=\"legend\">Each dot is one pair's head/base "
		      "ratio, in the order the pairs ran (<span style=\"color:"
		      "#0969da\">\xe2\x97\x8f base ran first</span>, <span "
		      "style=\"color:#bc4c00\">\xe2\x97\x8f head ran first"
		      "</span>); the band is the interval (", out);
		esc(out, row->method);
		fputs("), the solid line the estimate, the dashed line the "
		      "floor. Log scale.</p>\n", out);
		plot_axis(out, row);
	}
	fputs("</section>\n", out);
}

void report_html_view(FILE *out, const struct report_view *v)
{
	const char *w = v->verdict_word;
	size_t i;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		"content=\"width=device-width, initial-scale=1\">\n"
		"<title>gate: %s</title>\n<style>%s</style>\n</head>\n<body>\n",
		w, style);
	if (*v->empty)	/* not a pass: nothing was compared */
		fputs("<h1>gate <span class=\"badge new\">no benchmarks</span>"
		      "</h1>\n", out);
	else
		fprintf(out, "<h1>gate <span class=\"badge %s\">%s</span>"
			"</h1>\n", w, w);
	/* the headline's names, as the Markdown's: at most three */
	if (v->nheadline) {
		fputs("<p class=\"headline\">", out);
		for (i = 0; i < v->nheadline; i++) {
			const struct view_bench *vb =
				&v->benches[v->headline[i]];

			fputs(i ? ", <b>" : "<b>", out);
			esc(out, v->headline_name[i]);
			fputs("</b>", out);
			if (vb->has_change) {
				fputc(' ', out);
				esc(out, v->rows[vb->decisive].change);
			}
		}
		if (v->headline_more)
			fprintf(out, " and %zu more", v->headline_more);
		fputs("</p>\n", out);
	}
	fputs("<p class=\"sub\">base ", out);
	esc(out, v->base_label);
	fputs(" \xe2\x86\x92 head ", out);
	esc(out, v->head_label);
	fputs(" \xc2\xb7 ", out);
	esc(out, *v->empty ? v->empty : v->counts);
	fprintf(out, " \xc2\xb7 exit %d", v->exit_code);
	if (v->advisory)
		fprintf(out, " (advisory: exit 0 instead of %d)",
			v->advisory_code);
	fputs("</p>\n", out);
	if (v->error) {
		fputs("<pre class=\"error\">", out);
		esc(out, v->error);
		fputs("</pre>\n", out);
	}
	if (v->nrows)
		summary_table(out, v);
	for (i = 0; i < v->nbenches; i++)
		bench_section(out, v, &v->benches[v->order[i]]);
	fputs("<h2>Protocol</h2>\n<ul class=\"proto\">\n", out);
	for (i = 0; i < v->nprotocol; i++) {
		fputs("<li>", out);
		esc(out, v->protocol[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n</body>\n</html>\n", out);
}

int report_html_file(const char *path, const struct report_view *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		return error("cannot format the HTML report:");
	report_html_view(f, v);
	if (fclose(f) != 0) {
		free(text);
		return error("cannot format the HTML report:");
	}
	ret = file_replace(path, text, len, "the HTML report");
	free(text);
	return ret;
}
