/*
 * gate trend: each benchmark's cumulative ratio along first-parent history
 * from gate's records (gate record), with an interval, creep flagged.
 *
 * Each record is a paired comparison of a commit against its base, so the
 * history is a chain of ratios. The cumulative log-ratio is the sum of the
 * steps' log-ratios; the records are independent runs, so their variances
 * add. A step's standard error is read from its interval: the wider side
 * of the interval in log space (asymmetric intervals are taken at their
 * wider side, which is conservative) divided by the normal quantile of the
 * step's one-sided level. The cumulative interval is the sum +- z times
 * the root of the summed variances, at --confidence (two-sided). A union
 * (Bonferroni) bound would add the half-widths instead of their squares:
 * always valid but wider by up to sqrt(steps), and creep is exactly what
 * it would hide.
 *
 * Change points: where the records kept their samples (gate record
 * --samples), each benchmark's head samples, as logs, one group per
 * record, go through e-divisive means with a permutation test
 * (stats/changepoint.h), as Otava does on its series: a change point is
 * the first recorded commit of a new level. Head's samples are absolute
 * values from one label's machine, not ratios, so a shift of the machine
 * itself between records can show as one; the permutation moves whole
 * records, so that day-to-day variation between records is part of the
 * null. The generator is seeded by a constant through common/seed.c, so
 * the same records give the same points.
 */
#include "gate/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "gate/options.h"
#include "gate/history.h"
#include "gate/report/view.h"
#include "common/seed.h"
#include "stats/changepoint.h"
#include "git/repo.h"
#include "common/banned.h"

const char cmd_trend_usage[] =
	"usage: gate [-C DIR] trend [--label NAME] [--floor F] [--confidence C]\n"
	"                          [--json FILE] [--html FILE] [RANGE]\n"
	"\n"
	"  RANGE          A..B or B: the records on B's first-parent history\n"
	"                 (after A); default HEAD\n"
	"  --label NAME   the machine whose records to read (default as gate\n"
	"                 record's)\n"
	"  --floor F      the floor creep is flagged above, a fraction\n"
	"                 (default: each benchmark's min_effect, else 0.05)\n"
	"  --confidence C the cumulative interval's confidence (default 0.95)\n"
	"  --json FILE    write the trend as JSON ('-' for stdout)\n"
	"  --html FILE    write one chart per benchmark as an HTML page\n"
	"\n"
	"exit: 0 no creep, 1 creep flagged (the cumulative interval is above\n"
	"the floor while no step failed), 3 error\n";

/* One benchmark's chain. */
struct chain {
	const char *name, *metric, *unit;
	double floor;
	size_t n;		/* steps with this benchmark */
	struct link {
		const struct history_step *st;
		const struct run_bench *b;
		const struct bench_stats *f;	/* its figures */
		const char *verdict;
		double cum, low, high;	/* cumulative ratio and interval */
	} *l;
	int failed, noisy, creep;
	/* change points: records with samples (the groups), the points */
	size_t cp_records;
	int cp_sought;		/* 1 when enough records carried samples */
	struct stats_changepoint *cp;
	size_t ncp;
	size_t *cp_link;	/* cp_link[g]: the link of group g */
};

/* e-divisive's settings: records per segment at least, permutations,
   significance, the seed the generator is derived from, and the samples
   a record needs to count */
#define CP_MIN_RECORDS 3
#define CP_PERMUTATIONS 999
#define CP_SIG 0.01
#define CP_SEED 20261130UL
#define CP_MIN_SAMPLES 3

/* The change points of chain c (k: its index, for the seed). */
static int changepoints(struct chain *c, size_t k)
{
	size_t j, n = 0, g = 0, *start;
	double *x;
	gsl_rng *rng;
	int ret = 0;

	for (j = 0; j < c->n; j++) {
		size_t nhead = history_head_values(c->l[j].b, NULL);

		if (nhead >= CP_MIN_SAMPLES) {
			n += nhead;
			g++;
		}
	}
	c->cp_records = g;
	if (g < 2 * CP_MIN_RECORDS)
		return 0;
	c->cp_sought = 1;
	x = xmalloc(n * sizeof(*x));
	start = xmalloc((g + 1) * sizeof(*start));
	c->cp_link = xmalloc(g * sizeof(*c->cp_link));
	n = g = 0;
	for (j = 0; j < c->n; j++) {
		size_t i, nhead = history_head_values(c->l[j].b, NULL);

		if (nhead < CP_MIN_SAMPLES)
			continue;
		c->cp_link[g] = j;
		start[g++] = n;
		history_head_values(c->l[j].b, x + n);
		for (i = 0; i < nhead; i++, n++)
			x[n] = log(x[n]);
	}
	start[g] = n;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed_derive(CP_SEED, "trend-changepoint", k));
	if (stats_changepoints(&c->cp, &c->ncp, x, n, start, g,
			       CP_MIN_RECORDS, CP_PERMUTATIONS, CP_SIG, rng) < 0)
		ret = error("cannot look for change points in \"%s\"", c->name);
	gsl_rng_free(rng);
	free(x);
	free(start);
	return ret;
}

/* The link where change point i's new level starts. */
static const struct link *cp_at(const struct chain *c, size_t i)
{
	return &c->l[c->cp_link[c->cp[i].group]];
}

static double step_sd(const struct bench_stats *b)
{
	double level = isfinite(b->level) && b->level > 0.5 && b->level < 1 ?
		       b->level : 0.975;
	double e = log(b->estimate), half;

	if (!(b->low > 0) || !(b->high > 0) || !isfinite(b->low) ||
	    !isfinite(b->high))
		return INFINITY;
	half = fmax(log(b->high) - e, e - log(b->low));
	return half / gsl_cdf_ugaussian_Pinv(level);
}

/* The chain named name in c (nc of them), appended when new. */
static struct chain *chain_of(struct chain **c, size_t *nc, const char *name)
{
	size_t k;

	for (k = 0; k < *nc; k++)
		if (!strcmp((*c)[k].name, name))
			return &(*c)[k];
	*c = xrealloc(*c, (*nc + 1) * sizeof(**c));
	memset(&(*c)[*nc], 0, sizeof(**c));
	(*c)[*nc].name = name;
	return &(*c)[(*nc)++];
}

/* Chain c's cumulative ratios and intervals (z: the quantile), its floor
   (floor_opt when >= 0, else its own, else 0.05), failures and creep. */
static void chain_sum(struct chain *c, double floor_opt, double z)
{
	double sum = 0, var = 0;
	size_t j;

	if (floor_opt >= 0 || !(c->floor > 0))
		c->floor = floor_opt >= 0 ? floor_opt : 0.05;
	for (j = 0; j < c->n; j++) {
		const struct link *l = &c->l[j];
		double sd = step_sd(l->f);

		sum += log(l->f->estimate);
		var += sd * sd;
		c->l[j].cum = exp(sum);
		c->l[j].low = isfinite(var) ? exp(sum - z * sqrt(var)) : NAN;
		c->l[j].high = isfinite(var) ? exp(sum + z * sqrt(var)) : NAN;
		if (!strcmp(l->verdict, "fail"))
			c->failed++;
		else if (!strcmp(l->verdict, "noisy"))
			c->noisy++;
	}
	if (c->n && !c->failed && c->l[c->n - 1].low > 1 + c->floor)
		c->creep = 1;
}

static size_t build_chains(struct chain **out, const struct history *h,
			   double floor_opt, double confidence)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
	struct chain *c = NULL, *ch;
	size_t nc = 0, i, j, k;

	for (i = 0; i < h->n; i++)
		for (j = 0; j < h->s[i].report.n; j++) {
			const struct run_bench *b = &h->s[i].report.b[j];
			const struct bench_stats *f = history_figures(b);
			struct link *l;

			ch = chain_of(&c, &nc, b->run.cfg->name);
			if (!f || !(f->estimate > 0))
				continue;
			ch->l = xrealloc(ch->l, (ch->n + 1) * sizeof(*ch->l));
			l = &ch->l[ch->n++];
			memset(l, 0, sizeof(*l));
			l->st = &h->s[i];
			l->b = b;
			l->f = f;
			l->verdict = history_verdict(b);
			ch->metric = history_metric(&h->s[i], b);
			ch->unit = history_unit(b);
			if (isfinite(b->run.cfg->min_effect))
				ch->floor = b->run.cfg->min_effect;
		}
	for (k = 0; k < nc; k++)
		chain_sum(&c[k], floor_opt, z);
	*out = c;
	return nc;
}

static void pct(char *buf, size_t size, double ratio)
{
	if (isfinite(ratio))
		snprintf(buf, size, "%+.1f%%", (ratio - 1) * 100);
	else
		snprintf(buf, size, "?");
}

static void sparkline(FILE *out, const struct chain *c)
{
	static const char *const bars[] = { "\u2581", "\u2582", "\u2583",
		"\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	double lo = 1, hi = 1;
	size_t j;

	for (j = 0; j < c->n; j++) {
		lo = fmin(lo, c->l[j].cum);
		hi = fmax(hi, c->l[j].cum);
	}
	for (j = 0; j < c->n; j++) {
		int k = hi > lo ? (int)((c->l[j].cum - lo) / (hi - lo) * 7 + 0.5)
				: 0;

		fputs(bars[k < 0 ? 0 : k > 7 ? 7 : k], out);
	}
}

/* The shift at change point i: "+10.0%" (head's medians either side). */
static void cp_shift(char *buf, size_t size, const struct chain *c, size_t i)
{
	pct(buf, size, exp(c->cp[i].after - c->cp[i].before));
}

/*
 * Whether change point i is likely the machine's: head's level moved by
 * more than the floor while the record's own paired step (base and head
 * measured together, so a change of the machine cancels) passed with its
 * interval inside the floor on both sides.
 */
static int cp_machine(const struct chain *c, size_t i)
{
	const struct link *l = cp_at(c, i);

	return !strcmp(l->verdict, "pass") && l->f->low > 1 / (1 + c->floor) &&
	       l->f->high < 1 + c->floor;
}

static void print_changepoints(FILE *out, const struct chain *c)
{
	size_t i;

	if (!c->cp_sought) {
		fprintf(out, "%s: change points not sought: %zu record%s kept "
			"at least %d samples, e-divisive needs %d (record "
			"with gate record --samples)\n", c->name, c->cp_records,
			c->cp_records == 1 ? "" : "s", CP_MIN_SAMPLES,
			2 * CP_MIN_RECORDS);
		return;
	}
	if (!c->ncp)
		fprintf(out, "%s: no change point in %zu records with samples "
			"(e-divisive, p <= %.2f)\n", c->name, c->cp_records,
			CP_SIG);
	for (i = 0; i < c->ncp; i++) {
		const struct link *l = cp_at(c, i);
		char e[32];

		char st[32];

		cp_shift(e, sizeof(e), c, i);
		pct(st, sizeof(st), l->f->estimate);
		fprintf(out, "%s: change point at %.12s (%s): %s, head's median "
			"after against before (e-divisive, p %.3f); its paired "
			"step: %s, %s%s\n", c->name, l->st->commit,
			l->st->subject, e, c->cp[i].p, st, l->verdict,
			cp_machine(c, i) ? ": the paired run saw no such "
			"change, so likely the machine's, not the code's" : "");
	}
}

static void print_term(FILE *out, const struct history *h,
		       const struct chain *c, size_t nc, double confidence,
		       const char *range)
{
	size_t k, j;

	fprintf(out, "trend: %zu record%s for \"%s\" on %zu first-parent "
		"commit%s of %s\n\n", h->n, h->n == 1 ? "" : "s", h->label,
		h->walked, h->walked == 1 ? "" : "s", range ? range : "HEAD");
	fprintf(out, "%-24s %5s  %10s  %-22s %s\n", "benchmark", "steps",
		"cumulative", "interval", "trend");
	for (k = 0; k < nc; k++) {
		char e[32], lo[32], hi[32], iv[80], name[64];
		const struct link *last = c[k].n ? &c[k].l[c[k].n - 1] : NULL;

		snprintf(name, sizeof(name), "%s [%s]", c[k].name,
			 c[k].unit ? c[k].unit : "");
		pct(e, sizeof(e), last ? last->cum : NAN);
		pct(lo, sizeof(lo), last ? last->low : NAN);
		pct(hi, sizeof(hi), last ? last->high : NAN);
		snprintf(iv, sizeof(iv), "%s .. %s", lo, hi);
		fprintf(out, "%-24s %5zu  %10s  %-22s ", name, c[k].n, e, iv);
		sparkline(out, &c[k]);
		fputc('\n', out);
	}
	fprintf(out, "\ninterval: %.0f%%, the steps' log-ratios summed and "
		"their variances added (each from its interval's wider side)\n",
		confidence * 100);
	for (k = 0; k < nc; k++) {
		char fl[32], lo[32];

		pct(fl, sizeof(fl), 1 + c[k].floor);
		if (c[k].creep) {
			pct(lo, sizeof(lo), c[k].l[c[k].n - 1].low);
			fprintf(out, "creep: %s is slower by at least %s since "
				"the range's start, above the %s floor, and no "
				"single step failed\n", c[k].name, lo, fl);
		}
		print_changepoints(out, &c[k]);
		for (j = 0; j < c[k].n; j++) {
			const struct link *l = &c[k].l[j];
			char e[32];

			if (strcmp(l->verdict, "fail") &&
			    strcmp(l->verdict, "noisy"))
				continue;
			pct(e, sizeof(e), l->f->estimate);
			fprintf(out, "%s: %s at %.12s (%s): %s%s\n", c[k].name,
				!strcmp(l->verdict, "fail") ? "failed" : "noisy",
				l->st->commit, l->st->subject, e,
				!strcmp(l->verdict, "fail") ?
				", merged anyway (accepted)" : "");
		}
	}
}

static void add_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static int write_json(const char *path, const struct history *h,
		      const struct chain *c, size_t nc, double confidence,
		      const char *range)
{
	cJSON *root = cJSON_CreateObject(), *bs;
	char *text;
	size_t k, j;
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
	for (k = 0; k < nc; k++) {
		cJSON *b = cJSON_CreateObject(), *steps;
		const struct link *last = c[k].n ? &c[k].l[c[k].n - 1] : NULL;

		cJSON_AddItemToArray(bs, b);
		cJSON_AddStringToObject(b, "name", c[k].name);
		cJSON_AddStringToObject(b, "metric", c[k].metric ? c[k].metric : "");
		cJSON_AddStringToObject(b, "unit", c[k].unit ? c[k].unit : "");
		cJSON_AddNumberToObject(b, "floor", c[k].floor);
		add_num(b, "cumulative", last ? last->cum : NAN);
		add_num(b, "low", last ? last->low : NAN);
		add_num(b, "high", last ? last->high : NAN);
		cJSON_AddBoolToObject(b, "creep", c[k].creep);
		cJSON_AddNumberToObject(b, "failed_steps", c[k].failed);
		cJSON_AddNumberToObject(b, "noisy_steps", c[k].noisy);
		cJSON_AddNumberToObject(b, "change_point_records",
					(double)c[k].cp_records);
		if (c[k].cp_sought) {
			cJSON *cps = cJSON_AddArrayToObject(b, "change_points");

			for (j = 0; j < c[k].ncp; j++) {
				const struct link *l = cp_at(&c[k], j);
				cJSON *o = cJSON_CreateObject();

				cJSON_AddItemToArray(cps, o);
				cJSON_AddStringToObject(o, "commit", l->st->commit);
				cJSON_AddStringToObject(o, "subject", l->st->subject);
				add_num(o, "shift", exp(c[k].cp[j].after -
							c[k].cp[j].before));
				add_num(o, "p", c[k].cp[j].p);
				add_num(o, "q", c[k].cp[j].q);
				add_num(o, "step_ratio", l->f->estimate);
				cJSON_AddStringToObject(o, "step_verdict",
							l->verdict);
				cJSON_AddBoolToObject(o, "likely_machine",
						      cp_machine(&c[k], j));
			}
		} else {
			cJSON_AddNullToObject(b, "change_points");
		}
		steps = cJSON_AddArrayToObject(b, "steps");
		for (j = 0; j < c[k].n; j++) {
			const struct link *l = &c[k].l[j];
			cJSON *s = cJSON_CreateObject();

			cJSON_AddItemToArray(steps, s);
			cJSON_AddStringToObject(s, "commit", l->st->commit);
			cJSON_AddStringToObject(s, "subject", l->st->subject);
			cJSON_AddStringToObject(s, "verdict", l->verdict);
			add_num(s, "ratio", l->f->estimate);
			add_num(s, "ratio_low", l->f->low);
			add_num(s, "ratio_high", l->f->high);
			add_num(s, "level", l->f->level);
			add_num(s, "cumulative", l->cum);
			add_num(s, "low", l->low);
			add_num(s, "high", l->high);
		}
	}
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

/* One SVG chart: x the steps, y the cumulative ratio, the band, the floor. */
static void html_chart(FILE *f, const struct chain *c)
{
	/* more than 10 commits: their labels slant, not to overlap */
	const int slant = c->n > 10;
	const double W = 640, H = slant ? 290 : 260, L = 60, R = 20, T = 20,
		     B = slant ? 70 : 40;
	double lo = 1, hi = 1 + c->floor, x, y, tick[8];
	size_t j, n = c->n, nt;
	char buf[32];

#define X(i) (L + (n > 1 ? (double)(i) / (double)(n - 1) : 0.5) * (W - L - R))
#define Y(v) (T + (hi - (v)) / (hi - lo) * (H - T - B))
	for (j = 0; j < n; j++) {
		lo = fmin(lo, isfinite(c->l[j].low) ? c->l[j].low : c->l[j].cum);
		hi = fmax(hi, isfinite(c->l[j].high) ? c->l[j].high : c->l[j].cum);
	}
	hi += (hi - lo) * 0.05 + 1e-9;
	lo -= (hi - lo) * 0.05 + 1e-9;
	fprintf(f, "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\">\n", W, H);
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#fff\" stroke=\"#ccc\"/>\n", L, T, W - L - R, H - T - B);
	/* the band */
	fputs("<polygon class=\"band\" fill=\"#9ecae1\" opacity=\"0.6\" points=\"", f);
	for (j = 0; j < n; j++)
		if (isfinite(c->l[j].high))
			fprintf(f, "%.1f,%.1f ", X(j), Y(c->l[j].high));
	for (j = n; j-- > 0;)
		if (isfinite(c->l[j].low))
			fprintf(f, "%.1f,%.1f ", X(j), Y(c->l[j].low));
	fputs("\"/>\n", f);
	/* 1 and the floor */
	fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#888\"/>\n", L, W - R, Y(1.0), Y(1.0));
	fprintf(f, "<line class=\"floor\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" "
		"y2=\"%.1f\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n",
		L, W - R, Y(1 + c->floor), Y(1 + c->floor));
	pct(buf, sizeof(buf), 1 + c->floor);
	fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" "
		"fill=\"#d62728\" text-anchor=\"end\">floor %s</text>\n",
		W - R - 4, Y(1 + c->floor) - 4, buf);
	/* ticks at round percentages, as in every report's plots */
	nt = view_ticks(lo, hi, tick, 6);
	for (j = 0; j < nt; j++) {
		y = 1 + tick[j] / 100;
		view_tick_label(tick[j], buf, sizeof(buf));
		fprintf(f, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
			"font-size=\"11\" text-anchor=\"end\">%s</text>\n",
			L - 4, Y(y) + 4, buf);
	}
	/* the cumulative ratio, and each step marked by its verdict */
	fputs("<polyline fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\" "
	      "points=\"", f);
	for (j = 0; j < n; j++)
		fprintf(f, "%.1f,%.1f ", X(j), Y(c->l[j].cum));
	fputs("\"/>\n", f);
	for (j = 0; j < n; j++) {
		const char *v = c->l[j].verdict;
		const char *col = !strcmp(v, "fail") ? "#d62728" :
				  !strcmp(v, "noisy") ? "#ff7f0e" : "#08519c";

		x = X(j);
		fprintf(f, "<circle class=\"step %s\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"5\" fill=\"%s\"><title>%.12s ", v, x,
			Y(c->l[j].cum), col, c->l[j].st->commit);
		html_text(f, c->l[j].st->subject);
		pct(buf, sizeof(buf), c->l[j].f->estimate);
		fprintf(f, ": step %s, %s</title></circle>\n", buf, v);
		if (slant)
			fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" "
				"text-anchor=\"end\" transform=\"rotate(-45 %.1f "
				"%.0f)\">%.7s</text>\n", x, H - B + 14, x,
				H - B + 14, c->l[j].st->commit);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" "
				"text-anchor=\"middle\">%.7s</text>\n", x,
				H - B + 14, c->l[j].st->commit);
	}
	for (j = 0; j < c->ncp; j++) {
		size_t at = c->cp_link[c->cp[j].group];

		/* between the last point of the old level and the first of
		   the new one */
		x = (X(at) + X(at - 1)) / 2;
		cp_shift(buf, sizeof(buf), c, j);
		fprintf(f, "<line class=\"changepoint\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.0f\" y2=\"%.0f\" stroke=\"#6a3d9a\" "
			"stroke-width=\"2\" stroke-dasharray=\"3 3\"><title>change "
			"point at %.12s: %s</title></line>\n", x, x, T, H - B,
			c->l[at].st->commit, buf);
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" "
			"fill=\"#6a3d9a\">%s</text>\n", x + 3, T + 12, buf);
	}
	fputs("</svg>\n", f);
#undef X
#undef Y
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
		cp_shift(e, sizeof(e), c, i);
		fprintf(f, "%schange point at %.12s (", i ? "; " : "",
			cp_at(c, i)->st->commit);
		html_text(f, cp_at(c, i)->st->subject);
		fprintf(f, "): %s (p %.3f)%s", e, c->cp[i].p,
			cp_machine(c, i) ? ", its paired step saw no change: "
			"likely the machine's" : "");
	}
	fputs("</p>\n", f);
}

static int write_html(const char *path, const struct history *h,
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

		pct(e, sizeof(e), last ? last->cum : NAN);
		pct(lo, sizeof(lo), last ? last->low : NAN);
		pct(hi, sizeof(hi), last ? last->high : NAN);
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

static int parse_fraction(double *out, const char *opt, const char *s,
			  double lo, double hi)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !(*out >= lo && *out < hi))
		return error("%s wants a fraction in [%g, %g), not \"%s\"", opt,
			     lo, hi, s);
	return 0;
}

int cmd_trend(int argc, char **argv, struct gate_ctx *ctx)
{
	int ready;
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "floor", required_argument, NULL, 'f' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "json", required_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *label = NULL, *json = NULL, *html = NULL, *range = NULL;
	double floor_opt = -1, confidence = 0.95;
	char *deflabel = NULL;
	struct history h;
	struct chain *c = NULL;
	size_t nc, k;
	int o, code = EXIT_ERROR;

	options_getopt_reset();
	while ((o = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (o) {
		case 'l': label = optarg; break;
		case 'j': json = optarg; break;
		case 'H': html = optarg; break;
		case 'f':
			if (parse_fraction(&floor_opt, "--floor", optarg, 0, 10) < 0)
				return EXIT_ERROR;
			break;
		case 'c':
			if (parse_fraction(&confidence, "--confidence", optarg,
					   0.5, 1) < 0)
				return EXIT_ERROR;
			break;
		case 'h':
			fputs(cmd_trend_usage, stdout);
			return EXIT_PASS;
		default:
			error("unknown or incomplete option \"%s\"",
			      argv[optind - 1]);
			fputs(cmd_trend_usage, stderr);
			return EXIT_ERROR;
		}
	}
	if (optind < argc)
		range = argv[optind++];
	if (optind < argc) {
		error("unexpected argument \"%s\"", argv[optind]);
		fputs(cmd_trend_usage, stderr);
		return EXIT_ERROR;
	}
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	if (!label)
		label = deflabel = history_default_label();
	if (history_load(&h, ctx->repo, range, label) < 0) {
		free(deflabel);
		return EXIT_ERROR;
	}
	if (!h.n) {
		error("no record for label \"%s\" on the first-parent history of "
		      "%s: record runs with gate record (or fetch them: git "
		      "fetch origin +refs/notes/gate:refs/notes/gate)", label,
		      range ? range : "HEAD");
		goto cleanup;
	}
	nc = build_chains(&c, &h, floor_opt, confidence);
	for (k = 0; k < nc; k++)
		if (changepoints(&c[k], k) < 0)
			goto free_chains;
	print_term(json && !strcmp(json, "-") ? stderr : stdout, &h, c, nc,
		   confidence, range);
	code = EXIT_PASS;
	for (k = 0; k < nc; k++)
		if (c[k].creep)
			code = EXIT_FAIL;
	if (json && write_json(json, &h, c, nc, confidence, range) < 0)
		code = EXIT_ERROR;
	if (html && write_html(html, &h, c, nc, confidence) < 0)
		code = EXIT_ERROR;
free_chains:
	for (k = 0; k < nc; k++) {
		free(c[k].l);
		free(c[k].cp);
		free(c[k].cp_link);
	}
	free(c);
cleanup:
	history_release(&h);
	free(deflabel);
	return code;
}
