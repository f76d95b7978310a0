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
#include "gate/cmd/cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "common/escape.h"
#include "ci/github.h"
#include "gate/config/options.h"
#include "gate/cmd/trend.h"
#include "gate/report/history.h"
#include "common/seed.h"
#include "stats/changepoint.h"
#include "git/repo.h"
#include "common/banned.h"

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
const struct link *trend_cp_at(const struct chain *c, size_t i)
{
	return &c->l[c->cp_link[c->cp[i].group]];
}

const struct link *trend_cp_first(const struct chain *c, size_t i)
{
	return &c->l[c->cp_link[c->cp[i].lo]];
}

const struct link *trend_cp_last(const struct chain *c, size_t i)
{
	return &c->l[c->cp_link[c->cp[i].hi]];
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

/* The chain named name in c (nc of them, room for *cap), appended when
   new. */
static struct chain *chain_of(struct chain **c, size_t *nc, size_t *cap,
			      const char *name)
{
	size_t k;

	for (k = 0; k < *nc; k++)
		if (!strcmp((*c)[k].name, name))
			return &(*c)[k];
	XGROW(*c, *cap, *nc + 1);
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
}

/*
 * Creep, for each of the nc chains, its false alarms corrected over the
 * benchmarks and the two tests (Bonferroni: one-sided (1 - confidence) /
 * 2 nc each), no step failed (a failed step is the regression's known
 * cause, not creep). Both tests read only the paired steps, each record's
 * log-ratio of head against base measured together, so that the machine
 * cancels: the cumulative interval adds every step's variance (over 20
 * records at 5% noise it flagged a +10% creep 3.5% of the time); where at
 * least TREND_MIN_RECORDS records have a step, the steps' mean is tested
 * against 0 on their own scatter (Student's t, stats_steps), creep when
 * it is significant and the steps sum to more than the floor. The level
 * of head's median, tested before, moves with the machine: on identical
 * code under a 2%-per-record walk of the machine it flagged about a
 * quarter of histories (tests/stats/test-trend.c; an audit: 15 of 60
 * real-binary histories); the steps 5% at most.
 */
static void creep_decide(struct chain *c, size_t nc, double confidence)
{
	double *y = NULL, alpha = (1 - confidence) / (2.0 * (double)nc), z;
	size_t k, j, m, cap = 0;

	if (!nc)
		return;
	for (k = 0; k < nc; k++) {
		for (j = m = 0; j < c[k].n; j++) {
			double v = c[k].l[j].f->estimate;

			if (!(v > 0) || !isfinite(v))
				continue;
			XGROW(y, cap, m + 1);
			y[m++] = log(v);
		}
		if (m >= TREND_MIN_RECORDS &&
		    stats_steps(&c[k].trend, y, m) == 0)
			c[k].trend_tested = 1;
	}
	free(y);
	z = gsl_cdf_ugaussian_Qinv(alpha);
	for (k = 0; k < nc; k++) {
		struct chain *ch = &c[k];
		const struct link *last = ch->n ? &ch->l[ch->n - 1] : NULL;
		double sd;

		ch->trend_alpha = alpha;
		if (!last || ch->failed)
			continue;
		/* the cumulative interval's lower bound, at the corrected
		   one-sided alpha */
		sd = log(last->high / last->cum) /
		     gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
		ch->creep_chain = isfinite(sd) &&
				  last->cum * exp(-z * sd) > 1 + ch->floor;
		ch->creep_trend = ch->trend_tested &&
				  stats_trend_creep(&ch->trend, alpha,
						    ch->floor);
		ch->creep = ch->creep_chain || ch->creep_trend;
	}
}

/*
 * The figures of a step whose build was byte-identical in both arms: the
 * same code, so exactly no change (ratio 1, no spread), not a gap in the
 * chain. It carries no head median: the trend of head's level skips it.
 */
static const struct bench_stats identical_step = {
	.estimate = 1, .low = 1, .high = 1, .median = 1, .geomean = 1,
	.level = 0.975, .head_median = NAN, .base_median = NAN,
};

static size_t build_chains(struct chain **out, const struct history *h,
			   double floor_opt, double confidence)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
	struct chain *c = NULL, *ch;
	size_t nc = 0, cap = 0, i, j, k;

	for (i = 0; i < h->n; i++)
		for (j = 0; j < h->s[i].report.n; j++) {
			const struct run_bench *b = &h->s[i].report.b[j];
			const struct bench_stats *f = history_figures(b);
			int same = history_identical(b);
			struct link *l;

			ch = chain_of(&c, &nc, &cap, b->run.cfg->name);
			if (same)
				f = &identical_step;
			if (!f || !(f->estimate > 0))
				continue;
			XGROW(ch->l, ch->lcap, ch->n + 1);
			l = &ch->l[ch->n++];
			memset(l, 0, sizeof(*l));
			l->st = &h->s[i];
			l->b = b;
			l->f = f;
			l->identical = same;
			l->verdict = history_verdict(b);
			ch->metric = metric_name(b->run.cfg->metric);
			ch->unit = history_unit(b);
			if (isfinite(b->run.cfg->min_effect))
				ch->floor = b->run.cfg->min_effect;
		}
	for (k = 0; k < nc; k++)
		chain_sum(&c[k], floor_opt, z);
	creep_decide(c, nc, confidence);
	*out = c;
	return nc;
}

void trend_pct(char *buf, size_t size, double ratio)
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
void trend_cp_shift(char *buf, size_t size, const struct chain *c, size_t i)
{
	trend_pct(buf, size, exp(c->cp[i].after - c->cp[i].before));
}

/*
 * Whether change point i is likely the machine's: head's level moved by
 * more than the floor while the record's own paired step (base and head
 * measured together, so a change of the machine cancels) passed with its
 * interval inside the floor on both sides.
 */
int trend_cp_machine(const struct chain *c, size_t i)
{
	const struct link *l = trend_cp_at(c, i);

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
		const struct link *l = trend_cp_at(c, i);
		char e[32];

		char st[32];

		trend_cp_shift(e, sizeof(e), c, i);
		trend_pct(st, sizeof(st), l->f->estimate);
		fprintf(out, "%s: change point at %.12s (%s): %s, head's median "
			"after against before (e-divisive, p %.3f); its paired "
			"step: %s, %s%s\n", c->name, l->st->commit,
			l->st->subject, e, c->cp[i].p, st, l->verdict,
			trend_cp_machine(c, i) ? ": the paired run saw no such "
			"change, so likely the machine's, not the code's" : "");
		if (c->cp[i].hi > c->cp[i].lo)
			fprintf(out, "%s: its new level may start anywhere "
				"from %.12s to %.12s (%zu records with "
				"samples; %.0f%% of resamples of its "
				"neighbouring records placed it there)\n",
				c->name, trend_cp_first(c, i)->st->commit,
				trend_cp_last(c, i)->st->commit,
				c->cp[i].hi - c->cp[i].lo + 1,
				CP_LOCATE_LEVEL * 100);
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
		trend_pct(e, sizeof(e), last ? last->cum : NAN);
		trend_pct(lo, sizeof(lo), last ? last->low : NAN);
		trend_pct(hi, sizeof(hi), last ? last->high : NAN);
		snprintf(iv, sizeof(iv), "%s .. %s", lo, hi);
		fprintf(out, "%-24s %5zu  %10s  %-22s ", name, c[k].n, e, iv);
		sparkline(out, &c[k]);
		fputc('\n', out);
	}
	fprintf(out, "\ninterval: %.0f%%, the steps' log-ratios summed and "
		"their variances added (each from its interval's wider side)\n",
		confidence * 100);
	for (k = 0; k < nc; k++) {
		char fl[32], lo[32], up[32];

		trend_pct(fl, sizeof(fl), 1 + c[k].floor);
		if (c[k].creep_trend) {
			const struct stats_trend *t = &c[k].trend;

			trend_pct(lo, sizeof(lo), exp(t->slope * t->span));
			trend_pct(up, sizeof(up), exp(t->slope));
			fprintf(out, "creep: %s: the paired steps of %zu "
				"records rose by %s on average, %s in all "
				"(Student's t on the steps, one-sided p %.2g "
				"<= %.2g, corrected over %zu benchmark%s and 2 "
				"tests), above the %s floor, and no single "
				"step failed\n", c[k].name, t->n, up, lo,
				t->p_up, c[k].trend_alpha, nc,
				nc == 1 ? "" : "s", fl);
		}
		if (c[k].creep_chain) {
			trend_pct(lo, sizeof(lo), c[k].l[c[k].n - 1].low);
			fprintf(out, "creep: %s is slower by at least %s since "
				"the range's start (the cumulative interval; "
				"its test corrected over %zu benchmark%s and 2 "
				"tests), above the %s "
				"floor, and no single step failed\n", c[k].name,
				lo, nc, nc == 1 ? "" : "s", fl);
		}
		print_changepoints(out, &c[k]);
		for (j = 0; j < c[k].n; j++) {
			const struct link *l = &c[k].l[j];
			char e[32];

			if (l->identical) {
				fprintf(out, "%s: identical build at %.12s "
					"(%s): not measured, a step of no "
					"change\n", c[k].name, l->st->commit,
					l->st->subject);
				continue;
			}
			/* the record's own verdict: "accepted" only when
			   it says so (a Gate-Accept trailer) */
			if (strcmp(l->verdict, "fail") &&
			    strcmp(l->verdict, "noisy") &&
			    strcmp(l->verdict, "accepted"))
				continue;
			trend_pct(e, sizeof(e), l->f->estimate);
			fprintf(out, "%s: %s at %.12s (%s): %s%s\n", c[k].name,
				!strcmp(l->verdict, "fail") ? "failed" :
				l->verdict, l->st->commit, l->st->subject, e,
				!strcmp(l->verdict, "accepted") ?
				", merged with a Gate-Accept trailer" : "");
		}
	}
}

/*
 * The terminal report, escaped whole for where it lands: names, labels
 * and commit subjects come from recorded reports and commits, which any
 * author wrote (an ESC sequence, a "::error::" line in an Actions log).
 */
static void print_escaped(FILE *out, const struct history *h,
			  const struct chain *c, size_t nc, double confidence,
			  const char *range)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem) {
		error("cannot hold the trend report in memory:");
		return;
	}
	print_term(mem, h, c, nc, confidence, range);
	if (fclose(mem) == 0 && text)
		escape_put(out, ci_github_active() ? ESCAPE_ACTIONS :
			   ESCAPE_TERM, text);
	free(text);
}

struct trend_opts {
	const char *label, *json, *html, *range;
	double floor, confidence;	/* floor -1: each benchmark's own */
};

#define T struct trend_opts
static const struct opt trend_rows[] = {
	OPT_STRING("label", "NAME", T, label, "the machine whose records to "
		   "read (default as gate record's)", NULL),
	OPT_FLOOR("floor", T, floor, "the floor creep is flagged above, a "
		  "fraction (default: each benchmark's min_effect, else 0.05)"),
	OPT_NUMBER("confidence", "C", T, confidence, 0.5, 1, "the cumulative "
		   "interval's confidence (default 0.95)"),
	OPT_STRING("json", "FILE", T, json,
		   "write the trend as JSON ('-' for stdout)", "<file>"),
	OPT_STRING("html", "FILE", T, html,
		   "write one chart per benchmark as an HTML page", "<file>"),
};
#undef T

const struct opts_cmd cmd_trend_opts = {
	.name = "trend",
	.repo = 1,
	.operands = "[RANGE]",
	.operand_values = "<rev>",
	.operand_help = "A..B or B: the records on B's first-parent history "
			"(after A); default HEAD",
	.rows = trend_rows,
	.n = sizeof(trend_rows) / sizeof(trend_rows[0]),
	.footer = "exit: 0 no creep, 1 creep flagged (the cumulative interval "
		  "is above\nthe floor while no step failed), 3 error\n",
};

static enum opts_result parse_options(struct trend_opts *o, int argc,
				       char **argv)
{
	enum opts_result res;
	int i;

	res = options_parse(&cmd_trend_opts, o, argc, argv, &i);
	if (res != OPTS_GO)
		return res;
	if (i < argc)
		o->range = argv[i++];
	if (i < argc)
		return options_usage_error(&cmd_trend_opts,
					   "unexpected argument", argv[i]);
	return OPTS_GO;
}

/* h's chains, their change points and every report o asks for: the exit
   code (creep: EXIT_FAIL). */
static int trend(const struct history *h, const struct trend_opts *o)
{
	struct chain *c = NULL;
	size_t nc, k;
	int code = EXIT_PASS;

	nc = build_chains(&c, h, o->floor, o->confidence);
	for (k = 0; k < nc && code != EXIT_ERROR; k++)
		if (changepoints(&c[k], k) < 0)
			code = EXIT_ERROR;
	if (code != EXIT_ERROR) {
		print_escaped(o->json && !strcmp(o->json, "-") ? stderr :
			      stdout, h, c, nc, o->confidence, o->range);
		for (k = 0; k < nc; k++)
			if (c[k].creep)
				code = EXIT_FAIL;
		if (o->json && trend_write_json(o->json, h, c, nc, o->confidence,
					  o->range) < 0)
			code = EXIT_ERROR;
		if (o->html && trend_write_html(o->html, h, c, nc,
					  o->confidence) < 0)
			code = EXIT_ERROR;
	}
	for (k = 0; k < nc; k++) {
		free(c[k].l);
		free(c[k].cp);
		free(c[k].cp_link);
	}
	free(c);
	return code;
}

int cmd_trend(int argc, char **argv, struct gate_ctx *ctx)
{
	struct trend_opts o = { .floor = -1, .confidence = 0.95 };
	struct history h;
	int ready, rc, code = EXIT_ERROR;

	rc = parse_options(&o, argc, argv);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	if (history_load_arg(&h, ctx->repo, o.range, o.label,
			     &cmd_trend_opts) < 0)
		return EXIT_ERROR;
	if (!h.n)
		error("no record for label \"%s\" on the first-parent history of "
		      "%s: record runs with gate record (or fetch them: git "
		      "fetch origin +refs/notes/gate:refs/notes/gate)", h.label,
		      o.range ? o.range : "HEAD");
	else
		code = trend(&h, &o);
	history_release(&h);
	return code;
}
