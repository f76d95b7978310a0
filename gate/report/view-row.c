/*
 * One row of the report view: a benchmark's or case's figures for one
 * metric, as every printer shows them (the change, the bounds, the arms'
 * medians, the word, what would decide a noisy row), and the names and
 * words the rows share with the rest of the view (gate/report/view.c).
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
#include "common/banned.h"

/* A median for the table: in the metric's unit, or a suite case's. */
const char *view_arm_value(const struct bench_cfg *c, enum metric m,
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
	char used[REPORT_METHOD_MAX];
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

void view_pct(char *buf, size_t size, double ratio, int decimals)
{
	double p = ratio_pct(ratio);

	/* a ratio of 1e300 prints as +1e+302%, not 300 digits */
	if (isfinite(p) && fabs(p) >= 1e6)
		snprintf(buf, size, "%+.2g%%", p);
	else
		snprintf(buf, size, "%+.*f%%", decimals, p);
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
		return verdict_name(st->verdict);
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
		view_arm_value(br->cfg, st->metric, b, row->points[k].base,
			  sizeof(row->points[k].base));
		view_arm_value(br->cfg, st->metric, h, row->points[k].head,
			  sizeof(row->points[k].head));
		k++;
	}
	row->npoints = k;
}

/* name, or a copy cut to VIEW_NAME_MAX bytes between UTF-8 characters
 * and ending in "..." into *owned (the caller frees it). */
const char *view_bounded_name(const char *name, char **owned)
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
void view_decide_estimate(struct view_row *row, const struct bench_run *br,
			  const struct bench_stats *st, double level)
{
	struct stats_interval ci;
	double spread, z, per, *l;
	size_t need, i;
	char time[48] = "";

	if (st->verdict != VERDICT_NOISY || st->exact || st->n < 4 ||
	    st->interval_used == INTERVAL_MANN_WHITNEY ||
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
	/* nor below the pairs any interval needs at this look's level
	   (the explanation's "at least N needed") */
	if (need != SIZE_MAX && need < st->min_n)
		need = st->min_n;
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
	row->bench = view_bounded_name(c->name, &row->bench_owned);
	row->metric = view_metric_label(c, st->metric);
	row->gating = st->gating;
	row->verdict = st->verdict;
	row->exact = st->exact;
	row->unpaired = st->interval_used == INTERVAL_MANN_WHITNEY;
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
	view_arm_value(c, st->metric, st->base_median, row->base, sizeof(row->base));
	view_arm_value(c, st->metric, st->head_median, row->head, sizeof(row->head));
	if (c->higher_better)
		rate_change(row->change, sizeof(row->change), st->estimate, d);
	else
		view_pct(row->change, sizeof(row->change), st->estimate, d);
	if (!st->exact)
		snprintf(row->level, sizeof(row->level), "%.4g%%",
			 st->level * 100);
	if (st->exact) {
		snprintf(row->interval, sizeof(row->interval), "exact");
	} else if (!isfinite(st->low) || !isfinite(st->high)) {
		snprintf(row->interval, sizeof(row->interval), "none (%s)",
			 row->unpaired && st->interval_why ? st->interval_why :
			 "too few pairs");
	} else {
		/* a rate's interval in its own direction, low to high */
		view_pct(lo, sizeof(lo), c->higher_better ? 1 / st->high : st->low,
		    1);
		view_pct(hi, sizeof(hi), c->higher_better ? 1 / st->low : st->high,
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
	if (row->unpaired)
		return;
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
void view_empty_row(struct view_row *row, const struct bench_run *br,
		    const char *word, enum verdict v)
{
	memset(row, 0, sizeof(*row));
	row->bench = view_bounded_name(br->cfg->name, &row->bench_owned);
	row->metric = "-";
	row->gating = 1;
	row->verdict = v;
	snprintf(row->word, sizeof(row->word), "%s", word);
	snprintf(row->worse, sizeof(row->worse), "slower");
}
