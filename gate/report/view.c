/*
 * The report view, built once from the run model: the only code in
 * gate/report/ that reads struct run_report's runs and results. Printers
 * take the figures and sentences chosen here and lay them out.
 */
#include "gate/report/view.h"
#include "gate/report/view-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "gate/decide/calibration.h"
#include "stats/stats.h"
#include "gate/format/format.h"
#include "gate/decide/suite.h"
#include "common/banned.h"

static const char *word_of(enum verdict v)
{
	return verdict_name(v);
}

/* A median for the table: in the metric's unit, or a suite case's. */
static const char *arm_value(const struct bench_cfg *c, enum metric m,
			     double v, char *buf, size_t size)
{
	const struct value_slot *vs = bench_value_slot(c, m);

	if (vs)
		return format_value(v, vs->unit, buf, size);
	if (m == METRIC_VALUE && c->unit)
		return format_value(v, c->unit, buf, size);
	return metric_format(m, v, buf, size);
}

const char *view_metric_label(const struct bench_cfg *c, enum metric m)
{
	const struct value_slot *vs = bench_value_slot(c, m);

	if (vs && m != METRIC_VALUE)
		return vs->label;
	return metric_name(m);
}

const char *view_method(const struct bench_stats *st,
			const struct bench_cfg *c, char *buf, size_t size)
{
	char used[96];
	struct bench_cfg u;

	if (st->exact) {
		snprintf(buf, size, "exact");
		return buf;
	}
	/* name what gave the bounds, which the configured method may not */
	u = *c;
	u.statistic = st->statistic;
	u.interval = st->interval_used;
	report_interval_name(&u, used, sizeof(used));
	if (st->interval_why && st->interval_used != st->interval)
		snprintf(buf, size, "%s; %s configured, but %s", used,
			 interval_name(st->interval), st->interval_why);
	else
		snprintf(buf, size, "%s", used);
	return buf;
}

static void pct(char *buf, size_t size, double ratio, int decimals)
{
	snprintf(buf, size, "%+.*f%%", decimals, ratio_pct(ratio));
}

/*
 * A rate (MB/s, items/s: higher is better) reads backwards as an oriented
 * ratio: "+24.0%" beside 234.9 -> 194.4 MB/s looks like a speed-up. Show
 * the rate's own change and say which way it is: "throughput -17.2%
 * (worse)". ratio is oriented (base/head, > 1 worse).
 */
static void rate_change(char *buf, size_t size, double ratio, int decimals)
{
	double value = ratio > 0 ? (1 / ratio - 1) * 100 : 0;

	snprintf(buf, size, "throughput %+.*f%% (%s)", decimals, value,
		 ratio > 1 ? "worse" : ratio < 1 ? "better" : "same");
}

static const char *row_word(const struct bench_stats *st)
{
	int timed;

	if (st->verdict != VERDICT_PASS || !st->improved)
		return word_of(st->verdict);
	timed = metric_desc(st->metric)->source == SOURCE_CLOCK ||
		metric_desc(st->metric)->source == SOURCE_SUITE;
	return timed ? "pass (faster)" : "pass (fewer)";
}

/* The pairs st's ratios came from: those where both arms measured it. */
static void row_points(struct view_row *row, const struct bench_run *br,
		       const struct bench_stats *st)
{
	size_t i, k = 0;

	row->points = xcalloc(st->n ? st->n : 1, sizeof(*row->points));
	for (i = 0; i < br->npairs && k < st->n; i++) {
		const struct pair_result *pr = &br->pairs[i];
		double b = sample_value(&pr->s[ARM_BASE], st->metric);
		double h = sample_value(&pr->s[ARM_HEAD], st->metric);

		if (!isfinite(b) || !isfinite(h))
			continue;
		row->points[k].ratio = st->ratios[k];
		row->points[k].head_first = pr->head_first;
		arm_value(br->cfg, st->metric, b, row->points[k].base,
			  sizeof(row->points[k].base));
		arm_value(br->cfg, st->metric, h, row->points[k].head,
			  sizeof(row->points[k].head));
		k++;
	}
	row->npoints = k;
}

/* name, or a copy cut to VIEW_NAME_MAX bytes between UTF-8 characters
 * and ending in "..." into *owned (the caller frees it). */
static const char *bounded_name(const char *name, char **owned)
{
	size_t n = VIEW_NAME_MAX - 3;

	*owned = NULL;
	if (!name || strlen(name) <= VIEW_NAME_MAX)
		return name;
	while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
		n--;
	*owned = xmalloc(n + 4);
	memcpy(*owned, name, n);
	memcpy(*owned + n, "...", 4);
	return *owned;
}

/* Bytes of the UTF-8 character starting at p (1 for a stray byte). */
static size_t char_len(const char *p)
{
	size_t n = 1;

	if ((unsigned char)*p >= 0xc0)
		while (n < 4 && ((unsigned char)p[n] & 0xc0) == 0x80)
			n++;
	return n;
}

char *view_cut_middle(const char *s, size_t cols)
{
	size_t chars = 0, i, head, tail, keep, start, end, k;
	char *out;

	for (i = 0; s[i]; i += char_len(s + i))
		chars++;
	if (chars <= cols)
		return xstrdup(s);
	keep = cols > 3 ? cols - 3 : 0;
	head = keep / 3;
	tail = keep - head;
	/* the byte where the head ends and where the tail starts */
	for (end = 0, k = 0; k < head; k++)
		end += char_len(s + end);
	for (start = end, k = head; k < chars - tail; k++)
		start += char_len(s + start);
	out = xmalloc(end + 3 + strlen(s + start) + 1);
	memcpy(out, s, end);
	memcpy(out + end, "...", 3);
	memcpy(out + end + 3, s + start, strlen(s + start) + 1);
	return out;
}

int view_severity(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL: return 0;
	case VERDICT_ERROR: return 1;
	case VERDICT_NOISY: return 2;
	case VERDICT_ACCEPTED: return 3;
	case VERDICT_NEW: return 4;
	case VERDICT_PASS: return 5;
	}
	return 5;
}

#define NSEVERITY 6

/* What "worse" means for metric m of c, in the words a headline uses. */
static void worse_words(char *buf, size_t size, const struct bench_cfg *c,
			enum metric m)
{
	static const struct { enum metric m; const char *words; } kinds[] = {
		{ METRIC_WALL, "slower" },
		{ METRIC_CPU, "slower (CPU time)" },
		{ METRIC_INSTRUCTIONS, "more instructions" },
		{ METRIC_CYCLES, "more cycles (simulated)" },
		{ METRIC_ALLOCS, "more allocations" },
		{ METRIC_ALLOC_BYTES, "more bytes allocated" },
		{ METRIC_FREES, "more frees" },
		{ METRIC_MAX_RSS, "more memory (max RSS)" },
		{ METRIC_MINOR_FAULTS, "more minor page faults" },
		{ METRIC_MAJOR_FAULTS, "more major page faults" },
		{ METRIC_CTX_SWITCHES, "more context switches" },
	};
	const char *unit = c->unit ? c->unit : metric_unit(m);
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].m == m) {
			snprintf(buf, size, "%s", kinds[i].words);
			return;
		}
	/* a suite's value: its time, a rate, or a counter by its label */
	if (c->higher_better)
		snprintf(buf, size, "lower throughput");
	else if (m == METRIC_VALUE && unit && (!strcmp(unit, "s") ||
		 !strcmp(unit, "ms") || !strcmp(unit, "us") ||
		 !strcmp(unit, "ns")))
		snprintf(buf, size, "slower");
	else
		snprintf(buf, size, "higher %s", view_metric_label(c, m));
}

/*
 * The change is the paired estimate (of the per-pair ratios), the medians
 * each arm's own: they can point different ways, and a reader seeing
 * "-3%" beside a head median above base's deserves the one line why.
 */
static void direction_note(struct view_row *row, const struct bench_cfg *c,
			   const struct bench_stats *st)
{
	double med;

	if (!(st->base_median > 0) || !(st->head_median > 0) ||
	    !isfinite(st->base_median) || !isfinite(st->head_median))
		return;
	/* oriented as the estimate: > 1 is worse */
	med = c->higher_better ? st->base_median / st->head_median :
	      st->head_median / st->base_median;
	if ((med - 1) * (st->estimate - 1) >= 0 || fabs(med - 1) < 1e-3 ||
	    fabs(st->estimate - 1) < 1e-3)
		return;
	snprintf(row->direction, sizeof(row->direction), "the change is the "
		 "estimate of the pairs' ratios; the arms' own medians (%s, "
		 "%s) point the other way, as they can when the pairs' "
		 "conditions vary", row->base, row->head);
}

/*
 * What would decide a noisy row, as a number, by the power calculation
 * gate calibrate and the metric advice's note use (calibration_pairs_
 * needed: the pairs at which a regression of twice the floor fails 80%
 * of the time) at the run's level, from the spread as the advice
 * measures it: the robust sd of the log-ratios, or what their exact
 * two-sided interval implies when wider (a two-state benchmark's MAD is
 * small while its interval stays wide), so that a note beside it names
 * the same figure; their time at this run's pace. An estimate (the
 * spread is itself estimated): said so.
 */
static void decide_estimate(struct view_row *row, const struct bench_run *br,
			    const struct bench_stats *st, double level)
{
	struct stats_interval ci;
	double spread, z, per, *l;
	size_t need, i;
	char time[48] = "";

	if (st->verdict != VERDICT_NOISY || st->exact || st->n < 4 ||
	    !st->ratios || !(st->floor > 0) || !(level > 0 && level < 1))
		return;
	spread = calibration_spread(st->ratios, st->n);
	l = xmalloc(st->n * sizeof(*l));
	for (i = 0; i < st->n; i++)
		l[i] = log(st->ratios[i]);
	z = gsl_cdf_ugaussian_Pinv((1 + level) / 2);
	if (stats_interval_exact(&ci, STATS_HL, l, st->n, level) == 0 &&
	    isfinite(ci.low) && isfinite(ci.high) && z > 0 &&
	    sqrt((double)st->n) * (ci.high - ci.low) / (2 * z * 1.023) >
	    spread)
		spread = sqrt((double)st->n) * (ci.high - ci.low) /
			 (2 * z * 1.023);
	need = calibration_pairs_needed(spread, st->floor, level);
	/*
	 * The pairs so far did not decide it: a figure at or below them
	 * (most pairs alike, a few far off, so the robust sd is near 0 and
	 * no interval is exact at this level) would be a contradiction.
	 * The log-ratios' ordinary sd counts the pairs far off.
	 */
	if (need != SIZE_MAX && need <= st->n && st->n > 1) {
		double mean = 0, ss = 0;

		for (i = 0; i < st->n; i++)
			mean += l[i] / (double)st->n;
		for (i = 0; i < st->n; i++)
			ss += (l[i] - mean) * (l[i] - mean);
		need = calibration_pairs_needed(sqrt(ss / (double)(st->n - 1)),
						st->floor, level);
	}
	if (need != SIZE_MAX && need <= st->n)
		need = st->n + 1;
	free(l);
	if (need == SIZE_MAX) {
		snprintf(row->decide, sizeof(row->decide), "to decide (an "
			 "estimate from its spread): more than %d pairs at "
			 "this floor: a quieter machine or a count "
			 "(instructions) would, more pairs would not",
			 CALIBRATION_PAIRS_MAX);
		return;
	}
	/* a pair's time, warm-ups aside, as the advice counts it */
	per = br->npairs && br->seconds > br->warmup_seconds ?
	      (br->seconds - br->warmup_seconds) / (double)br->npairs : 0;
	if (per > 0 && (double)need * per < 90)
		snprintf(time, sizeof(time), ", about %.0f s",
			 (double)need * per);
	else if (per > 0)
		snprintf(time, sizeof(time), ", about %.0f min",
			 (double)need * per / 60);
	snprintf(row->decide, sizeof(row->decide), "to decide (an estimate "
		 "from its spread): about %zu pairs%s at this floor, where a "
		 "regression of twice it fails 80%% of the time (%zu so far, "
		 "max_pairs %u)", need, time, st->n, br->cfg->max_pairs);
}

void view_row_build(struct view_row *row, const struct bench_run *br,
		    const struct bench_stats *st, int level_differs)
{
	const struct bench_cfg *c = br->cfg;
	char lo[16], hi[16];
	int d = st->exact ? 2 : 1;

	memset(row, 0, sizeof(*row));
	row->bench = bounded_name(c->name, &row->bench_owned);
	row->metric = view_metric_label(c, st->metric);
	row->gating = st->gating;
	row->verdict = st->verdict;
	row->exact = st->exact;
	row->reason = st->reason;
	snprintf(row->word, sizeof(row->word), "%s", row_word(st));
	snprintf(row->floor_pct, sizeof(row->floor_pct), "%+.3g%%",
		 st->floor * 100);
	row->floor = st->floor;
	worse_words(row->worse, sizeof(row->worse), c, st->metric);
	if (br->error || !st->ratios || !st->n ||
	    !isfinite(st->estimate) || st->verdict == VERDICT_NEW)
		return;
	row->measured = 1;
	row->estimate = st->estimate;
	row->low = st->low;
	row->high = st->high;
	arm_value(c, st->metric, st->base_median, row->base, sizeof(row->base));
	arm_value(c, st->metric, st->head_median, row->head, sizeof(row->head));
	if (c->higher_better)
		rate_change(row->change, sizeof(row->change), st->estimate, d);
	else
		pct(row->change, sizeof(row->change), st->estimate, d);
	if (!st->exact)
		snprintf(row->level, sizeof(row->level), "%.4g%%",
			 st->level * 100);
	if (st->exact) {
		snprintf(row->interval, sizeof(row->interval), "exact");
	} else if (!isfinite(st->low) || !isfinite(st->high)) {
		snprintf(row->interval, sizeof(row->interval),
			 "none (too few pairs)");
	} else {
		/* a rate's interval in its own direction, low to high */
		pct(lo, sizeof(lo), c->higher_better ? 1 / st->high : st->low,
		    1);
		pct(hi, sizeof(hi), c->higher_better ? 1 / st->low : st->high,
		    1);
		snprintf(row->interval, sizeof(row->interval), "%s .. %s%s%s",
			 lo, hi, level_differs ? " at " : "",
			 level_differs ? row->level : "");
	}
	row->head_slower = st->head_slower;
	row->of = st->of;
	snprintf(row->sign_p, sizeof(row->sign_p), "%.2g", st->sign_p);
	/* a CV of counts that are all 0 is undefined: show 0 spread */
	snprintf(row->cv, sizeof(row->cv), "%.1f/%.1f%%",
		 isfinite(st->base_cv) ? st->base_cv * 100 : 0.0,
		 isfinite(st->head_cv) ? st->head_cv * 100 : 0.0);
	view_method(st, c, row->method, sizeof(row->method));
	direction_note(row, c, st);
	row_points(row, br, st);
}

void view_row_release(struct view_row *row)
{
	free(row->points);
	row->points = NULL;
	row->npoints = 0;
	free(row->bench_owned);
	row->bench_owned = NULL;
}

/* A placeholder row for a benchmark with nothing measured. */
static void empty_row(struct view_row *row, const struct bench_run *br,
		      const char *word, enum verdict v)
{
	memset(row, 0, sizeof(*row));
	row->bench = bounded_name(br->cfg->name, &row->bench_owned);
	row->metric = "-";
	row->gating = 1;
	row->verdict = v;
	snprintf(row->word, sizeof(row->word), "%s", word);
	snprintf(row->worse, sizeof(row->worse), "slower");
}

/* 1 when the interval rows of r are not all at one level. */
static int levels_differ(const struct run_report *r, double *level)
{
	size_t i, k;
	int seen = 0;

	*level = r->level;
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->b[i].result.n; k++) {
			const struct bench_stats *st = &r->b[i].result.m[k];

			if (st->exact || !st->n || !st->ratios ||
			    r->b[i].run.error)
				continue;
			if (seen && fabs(st->level - *level) > 1e-12)
				return 1;
			*level = st->level;
			seen = 1;
		}
	return 0;
}

static void bench_evidence(struct view_bench *vb, const struct bench_run *br,
			   const struct bench_stats *st)
{
	const struct bench_cfg *c = br->cfg;
	char secs[32], of[32] = "";

	if (!st || !st->ratios)
		return;
	format_seconds(br->seconds, secs, sizeof(secs));
	if (br->pairs_raised_from)
		vb->evidence[vb->nevidence++] = xasprintf("pairs raised from "
			"%u to %u: fewer give no interval at this level",
			br->pairs_raised_from, br->pairs_needed);
	else if (br->pairs_needed)
		vb->evidence[vb->nevidence++] = xasprintf("too few pairs for "
			"this level: set \"pairs\" to %u or more",
			br->pairs_needed);
	if (st->exact) {
		vb->evidence[vb->nevidence++] = xasprintf("%zu pairs in %s, "
			"stopped: %s after %zu look%s", br->npairs, secs,
			stop_name(st->stop), st->looks,
			st->looks == 1 ? "" : "s");
		return;
	}
	/* a metric counted in fewer pairs says so */
	if (st->n < br->npairs)
		snprintf(of, sizeof(of), " of %zu", br->npairs);
	vb->evidence[vb->nevidence++] = xasprintf("%zu%s pairs (%u..%u) in "
		"%s, stopped: %s after %zu look%s; Wilcoxon p=%.2g, "
		"Mann-Whitney p=%.2g; %zu outlying pair%s (kept); drift "
		"r=%+.2f", st->n, of, c->pairs, c->max_pairs, secs,
		stop_name(st->stop), st->looks, st->looks == 1 ? "" : "s",
		st->wilcoxon_p, st->mann_whitney_p, st->outliers,
		st->outliers == 1 ? "" : "s", st->drift);
}

/*
 * A suite case's throughput (gbench's B/s and items/s, go's MB/s) beside
 * its time, in a column of its own: "4575M/4558M B/s", base's and head's
 * medians. It restates the time, so it is shown, never decided.
 */
static void throughput_beside(struct view_row *row, const struct bench_run *br,
			      const struct bench_stats *st)
{
	char b[32], h[32];
	const char *bu, *hu;
	size_t n;

	if (!row->measured || !st->n)
		return;
	arm_value(br->cfg, st->metric, st->base_median, b, sizeof(b));
	arm_value(br->cfg, st->metric, st->head_median, h, sizeof(h));
	/* one unit for both: "4575M B/s", "4558M B/s" -> "4575M/4558M B/s" */
	bu = strchr(b, ' ');
	hu = strchr(h, ' ');
	if (bu && hu && !strcmp(bu, hu))
		b[bu - b] = '\0';
	n = strlen(row->throughput);
	snprintf(row->throughput + n, sizeof(row->throughput) - n, "%s%s/%s",
		 n ? "; " : "", b, h);
}

static void bench_build(struct report_view *v, struct view_bench *vb,
			const struct run_report *r, size_t i, int differ)
{
	const struct bench_run *br = &r->b[i].run;
	const struct bench_result *res = &r->b[i].result;
	const struct bench_stats *st = &r->b[i].primary;
	size_t k;

	vb->name = bounded_name(br->cfg->name, &vb->name_owned);
	vb->verdict = res->verdict;
	vb->row = v->nrows;
	vb->note = st->note;
	vb->suite = br->suite_name;
	snprintf(vb->word, sizeof(vb->word), "%s", br->is_removed ?
		 "removed" : word_of(res->verdict));
	if (br->error && r->interrupted && br->npairs && !res->m) {
		/* stopped before its first look: its pairs so far, not "not
		   measured" */
		vb->why = vb->why_owned = xasprintf("interrupted by signal %d "
			"after %zu pair%s of base and head (its first look is "
			"at %u): not decided", r->interrupted, br->npairs,
			br->npairs == 1 ? "" : "s", br->cfg->pairs);
		vb->why_is_error = 1;
	} else if (br->error) {
		vb->why = br->error;
		vb->why_is_error = 1;
	} else if (br->is_removed) {
		vb->why = "removed: only base's suite printed this case: not "
			  "compared";
	} else if (br->is_new && br->suite_name) {
		vb->why = "new: only head's suite printed this case: not "
			  "compared";
	} else if (res->verdict == VERDICT_NEW) {
		vb->why = "new in head (base's gate.json does not declare "
			  "it): not compared";
	}
	if (res->verdict == VERDICT_NEW || br->error || !res->m) {
		empty_row(&v->rows[v->nrows], br, vb->word,
			  res->verdict == VERDICT_NEW && !br->error ?
			  VERDICT_NEW : VERDICT_ERROR);
		v->rows[v->nrows].first = 1;
		vb->decisive = v->nrows++;
		vb->nrows = 1;
		return;
	}
	vb->decisive = (size_t)-1;
	for (k = 0; k < res->n; k++) {
		struct view_row *row = &v->rows[v->nrows];
		const struct value_slot *vs = bench_value_slot(br->cfg,
							       res->m[k].metric);

		/* a throughput restating the time: beside it, no row */
		if (vs && vs->throughput) {
			if (v->nrows > vb->row) {
				throughput_beside(&v->rows[vb->row], br,
						  &res->m[k]);
				v->throughput |= !!*v->rows[vb->row].throughput;
			}
			continue;
		}
		view_row_build(row, br, &res->m[k], differ);
		decide_estimate(row, br, &res->m[k], r->level);
		row->first = v->nrows == vb->row;
		/* the first gating metric that gave the benchmark's verdict */
		if (vb->decisive == (size_t)-1 && row->gating &&
		    row->verdict == res->verdict)
			vb->decisive = v->nrows;
		v->nrows++;
	}
	vb->nrows = v->nrows - vb->row;
	if (vb->decisive == (size_t)-1)
		vb->decisive = vb->row;
	vb->has_change = v->rows[vb->decisive].measured;
	bench_evidence(vb, br, st);
}

/*
 * The geometric mean of the ratios each benchmark was decided on (its
 * decisive row, oriented so > 1 is worse), over the measured ones: one
 * figure across the suite, beside how many it covers.
 */
static void summary_build(struct report_view *v)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < v->nbenches; i++) {
		const struct view_row *row = &v->rows[v->benches[i].decisive];

		if (!v->benches[i].has_change || !(row->estimate > 0) ||
		    !isfinite(row->estimate))
			continue;
		sum += log(row->estimate);
		n++;
	}
	v->ngeomean = n;
	v->geomean = n ? exp(sum / (double)n) : NAN;
	if (n)
		pct(v->geomean_pct, sizeof(v->geomean_pct), v->geomean, 1);
}

/* GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID, when
 * all three are set (in Actions), else NULL. */
static char *run_url(void)
{
	const char *server = getenv("GITHUB_SERVER_URL");
	const char *repo = getenv("GITHUB_REPOSITORY");
	const char *id = getenv("GITHUB_RUN_ID");

	if (!server || !*server || !repo || !*repo || !id || !*id)
		return NULL;
	return xasprintf("%s/%s/actions/runs/%s", server, repo, id);
}

/*
 * A suite-wide note (the looks planned, the host slowing whole processes)
 * is the same on every compared case of the suite (run_suite_cases): said
 * once, on the first case that has it, its label saying how many cases
 * share it (printers may order the cases otherwise: the label names no
 * order); a case whose note differs keeps its own.
 */
static void notes_once(struct report_view *v, const struct run_report *r)
{
	size_t *idx = xcalloc(r->n ? r->n : 1, sizeof(*idx));
	size_t i, n, a, b;

	for (i = 0; i < v->nbenches; i++)
		snprintf(v->benches[i].note_label,
			 sizeof(v->benches[i].note_label), "note");
	for (i = 0; i < r->n; i++) {
		n = run_suite_cases(r, i, idx);
		for (a = 0; a < n; a++) {
			struct view_bench *vb = &v->benches[idx[a]];

			if (!vb->note)
				continue;
			for (b = a + 1; b < n; b++) {
				struct view_bench *o = &v->benches[idx[b]];

				if (o->note && !strcmp(o->note, vb->note)) {
					o->note = NULL;
					vb->note_shared++;
				}
			}
			if (vb->note_shared + 1 == n)
				snprintf(vb->note_label,
					 sizeof(vb->note_label), "note (the "
					 "same for all %zu cases of suite "
					 "\"%s\")", n, vb->suite);
			else if (vb->note_shared)
				snprintf(vb->note_label,
					 sizeof(vb->note_label), "note (the "
					 "same for %zu of the %zu cases of "
					 "suite \"%s\")", vb->note_shared + 1,
					 n, vb->suite);
		}
	}
	free(idx);
}

/*
 * The order every printer shows: worst first (a noisy case declared
 * before a failing one is shown after it), each group in the config's
 * order; the counts that are not zero in the same order; the headline's
 * names: the benchmarks of the suite's own verdict, at most three.
 */
static void order_build(struct report_view *v)
{
	static const enum verdict by_rank[NSEVERITY] = {
		VERDICT_FAIL, VERDICT_ERROR, VERDICT_NOISY, VERDICT_ACCEPTED,
		VERDICT_NEW, VERDICT_PASS
	};
	size_t i, k = 0, len = 0, n;
	int rank;

	v->order = xcalloc(v->nbenches ? v->nbenches : 1, sizeof(*v->order));
	for (rank = 0; rank < NSEVERITY; rank++) {
		for (i = n = 0; i < v->nbenches; i++) {
			if (view_severity(v->benches[i].verdict) != rank)
				continue;
			v->order[k++] = i;
			n++;
		}
		if (n && len < sizeof(v->counts_short))
			len += (size_t)snprintf(v->counts_short + len,
						sizeof(v->counts_short) - len,
						"%s%zu %s", len ? ", " : "", n,
						verdict_name(by_rank[rank]));
	}
	if (!v->nbenches)
		snprintf(v->counts_short, sizeof(v->counts_short),
			 "no benchmarks");
	for (k = 0; k < v->nbenches; k++) {
		const struct view_bench *vb = &v->benches[v->order[k]];

		if (vb->verdict != v->suite || v->suite == VERDICT_PASS)
			continue;
		if (v->nheadline == VIEW_HEADLINE_NAMES) {
			v->headline_more++;
			continue;
		}
		v->headline_name[v->nheadline] =
			view_cut_middle(vb->name, VIEW_HEADLINE_NAME_MAX);
		v->headline[v->nheadline++] = v->order[k];
	}
}

void report_view_build(struct report_view *v, const struct run_report *r)
{
	size_t i, rows = 0, count[VERDICT_ACCEPTED + 1] = { 0 };
	double level;
	int differ = levels_differ(r, &level);

	memset(v, 0, sizeof(*v));
	for (i = 0; i < r->n; i++)
		rows += r->b[i].result.n ? r->b[i].result.n : 1;
	v->rows = xcalloc(rows ? rows : 1, sizeof(*v->rows));
	v->benches = xcalloc(r->n ? r->n : 1, sizeof(*v->benches));
	for (i = 0; i < r->n; i++) {
		bench_build(v, &v->benches[i], r, i, differ);
		count[r->b[i].result.verdict]++;
	}
	v->nbenches = r->n;
	notes_once(v, r);
	v->suite = r->suite;
	v->interrupted = r->interrupted;
	v->exit_code = r->exit_code;
	v->advisory = r->advisory && r->suite != VERDICT_PASS;
	v->advisory_code = verdict_exit_code(r->suite);
	v->error = r->error;
	v->base_label = r->rev[ARM_BASE].label ? r->rev[ARM_BASE].label : "?";
	v->head_label = r->rev[ARM_HEAD].label ? r->rev[ARM_HEAD].label : "?";
	v->config_origin = r->config_origin;
	snprintf(v->verdict_word, sizeof(v->verdict_word), "%s",
		 r->interrupted ? "interrupted" : word_of(r->suite));
	/* nothing measured is not a pass of something */
	if (!r->n && !r->error && !r->interrupted && r->nshards)
		snprintf(v->empty, sizeof(v->empty), "shard %u of %u has no "
			 "benchmarks: the other shards' reports hold the "
			 "verdict", r->shard, r->nshards);
	else if (!r->n && !r->error && !r->interrupted)
		snprintf(v->empty, sizeof(v->empty), "no benchmarks were "
			 "compared");
	snprintf(v->counts, sizeof(v->counts), "%zu pass, %zu fail, %zu "
		 "noisy, %zu error, %zu new", count[VERDICT_PASS],
		 count[VERDICT_FAIL], count[VERDICT_NOISY],
		 count[VERDICT_ERROR], count[VERDICT_NEW]);
	if (count[VERDICT_ACCEPTED])
		snprintf(v->counts + strlen(v->counts), sizeof(v->counts) -
			 strlen(v->counts), ", %zu accepted",
			 count[VERDICT_ACCEPTED]);
	/* the level the reasons state; per row when rows differ */
	if (differ)
		snprintf(v->bounds, sizeof(v->bounds), "one-sided bounds");
	else
		snprintf(v->bounds, sizeof(v->bounds), "one-sided %.4g%% "
			 "bounds", level * 100);
	view_protocol_build(v, r);
	summary_build(v);
	order_build(v);
	v->run_url = run_url();
}

void report_view_release(struct report_view *v)
{
	size_t i, k;

	for (i = 0; i < v->nrows; i++)
		view_row_release(&v->rows[i]);
	for (i = 0; i < v->nbenches; i++) {
		for (k = 0; k < v->benches[i].nevidence; k++)
			free(v->benches[i].evidence[k]);
		free(v->benches[i].name_owned);
		free(v->benches[i].why_owned);
	}
	for (i = 0; i < v->nprotocol; i++)
		free(v->protocol[i]);
	for (i = 0; i < v->nwarnings; i++)
		free(v->warnings[i]);
	free(v->warnings);
	free(v->run_url);
	for (i = 0; i < v->nheadline; i++)
		free(v->headline_name[i]);
	free(v->order);
	free(v->rows);
	free(v->benches);
	memset(v, 0, sizeof(*v));
}

size_t view_ticks(double lo, double hi, double *pct, size_t max)
{
	static const double mult[] = { 1, 2, 5 };
	double a = (lo - 1) * 100, b = (hi - 1) * 100, step = 0, t;
	size_t n = 0;
	int e, k;

	if (!(b > a) || !isfinite(a) || !isfinite(b) || max < 2)
		return 0;
	/* the smallest round step giving at most max ticks */
	for (e = (int)floor(log10(b - a)) - 2; !step; e++)
		for (k = 0; k < 3 && !step; k++) {
			double s = mult[k] * pow(10, e);

			if (floor(b / s) - ceil(a / s) + 1 <= (double)max)
				step = s;
		}
	for (t = ceil(a / step); t * step <= b + 1e-9 * step && n < max; t++)
		pct[n++] = fabs(t) < 0.5 ? 0 : t * step;
	return n;
}

const char *view_tick_label(double p, char *buf, size_t size)
{
	if (p == 0)
		snprintf(buf, size, "0");
	else
		snprintf(buf, size, "%+.4g%%", p);
	return buf;
}
