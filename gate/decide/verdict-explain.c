/*
 * The reason under every verdict (verdict-explain.h): what the interval,
 * the exact counts or the missing pairs say, in the words every printer
 * shows.
 */
#include "gate/decide/verdict-explain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "stats/stats.h"
#include "common/banned.h"

const char *verdict_stat_label(enum stats_estimator e)
{
	return e == STATS_MEDIAN ? "median" : e == STATS_HL ?
	       "Hodges-Lehmann" : "mean-log";
}

/* "one-sided 97.5%": the level of each bound st decides with. */
static const char *bound_level(const struct bench_stats *st, char *buf,
			       size_t size)
{
	snprintf(buf, size, "one-sided %.4g%%", st->level * 100);
	return buf;
}

/*
 * What would resolve a noisy st: more pairs where they can come from,
 * never a setting that cannot change the outcome. A suite case whose
 * harness cannot re-run some cases gets one look, so only "pairs" (the
 * first look's) can add any. A benchmark stopped by the budget gets more
 * pairs from more time alone, not from "max_pairs" (pylint's suite, 20
 * pairs in 500 s against 300, was told "max_pairs" too); one stopped at
 * max_pairs, from "max_pairs" alone. Before it stops (a look's reason,
 * gate compare), both.
 */
static const char *more_pairs(const struct bench_stats *st)
{
	if (st->one_look)
		return "more pairs in the first look (\"pairs\" in gate.json "
		       "or --pairs: this suite's harness cannot re-run only "
		       "some cases, so \"max_pairs\" and --budget add none) "
		       "or a quieter machine would resolve it";
	if (st->stop == STOP_BUDGET)
		return "more time (\"budget\" in gate.json or --budget: it "
		       "ran out before \"max_pairs\") or a quieter machine "
		       "would resolve it";
	if (st->stop == STOP_MAX_PAIRS)
		return "more pairs (\"max_pairs\": its looks up to it all "
		       "fitted the budget) or a quieter machine would "
		       "resolve it";
	return "more pairs (\"max_pairs\", --budget) or a quieter machine "
	       "would resolve it";
}

static char *explain_interval(const struct bench_stats *st)
{
	double f = st->floor * 100.0, m = st->excludes * 100.0;
	char lv[48];

	bound_level(st, lv, sizeof(lv));
	switch (st->verdict) {
	case VERDICT_FAIL:
		if (st->rule == RULE_SIGNIFICANT)
			return xasprintf("slower by %+.1f%% (%s bounds "
				"%+.1f%% to %+.1f%%): above the %+.1f%% floor "
				"and the lower bound excludes no change",
				ratio_pct(st->estimate), lv,
				ratio_pct(st->low), ratio_pct(st->high), f);
		return xasprintf("slower by %+.1f%% (%s bounds %+.1f%% "
			"to %+.1f%%): the lower bound is above the %+.1f%% "
			"floor", ratio_pct(st->estimate), lv,
			ratio_pct(st->low), ratio_pct(st->high), f);
	case VERDICT_NOISY:
		if (st->tail)
			return xasprintf("the typical run is unchanged "
				"(%s %+.1f%%, upper bound %+.1f%%) but the "
				"slow tail grew by %+.1f%%: the ratio of the "
				"arms' mean values is %+.1f%% and its upper "
				"bound (%s) "
				"%+.1f%% does not exclude a regression of "
				"%+.1f%% (pass_excludes); %s",
				verdict_stat_label(st->statistic),
				ratio_pct(st->estimate), ratio_pct(st->high),
				ratio_pct(st->tail_mean / st->estimate),
				ratio_pct(st->tail_mean), lv,
				ratio_pct(st->tail_high), m, more_pairs(st));
		if (!isfinite(st->low) || !isfinite(st->high))
			return xasprintf("estimate %+.1f%%, but too few pairs: "
				"at least %zu needed for %s bounds (%zu "
				"measured), so no regression is shown or "
				"excluded: raise \"pairs\" in gate.json to "
				"%zu or more", ratio_pct(st->estimate),
				st->min_n, lv, st->n, st->min_n);
		if (st->estimate <= 1.0 + st->floor)
			return xasprintf("estimate %+.1f%% is within the "
				"%+.1f%% floor, but a regression of %+.1f%% "
				"(pass_excludes%s) is not excluded: the upper "
				"bound (%s) is %+.1f%%; %s",
				ratio_pct(st->estimate), f, m,
				st->strict ? ", --strict" : "", lv,
				ratio_pct(st->high), more_pairs(st));
		return xasprintf("estimate %+.1f%% is above the %+.1f%% "
			"floor, but the lower bound (%s) is %+.1f%%: a "
			"regression of the floor is not shown, and none up "
			"to %+.1f%% is excluded; %s",
			ratio_pct(st->estimate), f, lv, ratio_pct(st->low),
			ratio_pct(st->high), more_pairs(st));
	case VERDICT_PASS:
		if (st->improved)
			return xasprintf("faster by %.1f%% (%s bounds %+.1f%% "
				"to %+.1f%%)", -ratio_pct(st->estimate), lv,
				ratio_pct(st->low), ratio_pct(st->high));
		/* below the floor is unmeasured, not absent: say the bound */
		return xasprintf("estimate %+.1f%% is within the %+.1f%% "
			"floor, and a regression of %+.1f%% (pass_excludes) "
			"or more is excluded: the upper bound (%s) is %+.1f%%",
			ratio_pct(st->estimate), f, m, lv, ratio_pct(st->high));
	default:
		return xstrdup("could not be measured");
	}
}

static char *explain_exact(const struct bench_stats *st)
{
	double f = st->floor * 100.0;

	if (st->low == 1.0 && st->high == 1.0)
		return xasprintf("exact: head counts exactly what base counts "
			"in all %zu pairs (ratio 1), within the %+.1f%% floor",
			st->n, f);
	if (st->verdict == VERDICT_FAIL)
		return xasprintf("exact: head counts %+.2f%% more than base "
			"(every pair %+.2f%% to %+.2f%%), at or above the "
			"%+.1f%% floor", ratio_pct(st->median),
			ratio_pct(st->low), ratio_pct(st->high), f);
	return xasprintf("exact: head counts %+.2f%% against base (every "
		"pair %+.2f%% to %+.2f%%), within the %+.1f%% floor%s",
		ratio_pct(st->median), ratio_pct(st->low), ratio_pct(st->high), f,
		st->improved ? ": fewer" : "");
}

char *verdict_explain(const struct bench_stats *st)
{
	char *why, *out;

	if (st->exact)
		return explain_exact(st);
	why = explain_interval(st);
	if (st->aside_low || st->aside_high) {
		size_t k = st->aside_low + st->aside_high;

		out = xasprintf("%s (%zu extreme pair%s, over 3 robust sd "
				"from the median, left out of the %s bound%s "
				"%s would push)", why, k, k == 1 ? "" : "s",
				st->aside_low && st->aside_high ? "lower and "
				"upper" : st->aside_low ? "lower" : "upper",
				st->aside_low && st->aside_high ? "s" : "",
				k == 1 ? "it" : "they");
		free(why);
		why = out;
	}
	if (!st->varies)
		return why;
	if (st->straddles)
		out = xasprintf("counts agree within the %.1f%% exact "
				"tolerance but jitter, and their pair ratios "
				"(%zu) do not settle the %+.2f%% floor alone, "
				"so the interval decides: %s",
				METRIC_EXACT_TOLERANCE * 100, st->n,
				st->floor * 100, why);
	else
		out = xasprintf("counts vary between samples (base spread %.2f%%, "
			"head %.2f%%, more than the %.1f%% exact tolerance), so "
			"the interval decides: %s", st->base_spread * 100,
			st->head_spread * 100, METRIC_EXACT_TOLERANCE * 100,
			why);
	free(why);
	return out;
}
