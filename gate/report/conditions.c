/*
 * Parts of the protocol disclosure written once, as plain text (measuring
 * conditions, the output-parity statement, the decision rule and the
 * promise), and printed by the terminal, Markdown and HTML reports with
 * their own escaping (the JSON report carries the same strings).
 */
#include "gate/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "stats/stats.h"
#include "common/banned.h"

size_t report_conditions(const struct run_report *r,
			 char *lines[REPORT_CONDITIONS_MAX])
{
	const struct layout *l = r->layout;
	size_t n = 0;

	if (r->arm_dir[0])
		lines[n++] = xasprintf("arms: base in %s, head in %s (%s)",
			r->arm_dir[ARM_BASE], r->arm_dir[ARM_HEAD],
			r->arms_random == 2 ? "directories that built these "
			"trees in an earlier run, kept with their builds" :
			r->arms_random ? "drawn at random for this run"
				       : "fixed by --fixed-arms");
	if (l && l->env_pad)
		lines[n++] = xasprintf("layout: GATE_PAD of 0 to %d random "
			"bytes in the environment of each timed sample (mean "
			"%.0f), drawn independently of the arm", LAYOUT_PAD_MAX,
			l->samples ? (double)l->pad_total / l->samples : 0.0);
	else if (l)
		lines[n++] = xstrdup("layout: no environment padding "
				     "(--no-env-pad)");
	if (l && l->scratch)
		lines[n++] = xasprintf("scratch: a fresh, empty $GATE_TMPDIR=%s "
				       "for every sample of both arms",
				       l->scratch);
	if (r->pin)
		lines[n++] = xasprintf("pinned to CPUs %s%s", r->pin,
				       r->pin_warning ? ": not isolated, may "
				       "add variation" : "");
	return n;
}

const char *report_parity(const struct bench_run *br, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!br->cfg->parity)
		snprintf(buf, size, ", stdout not checked (parity: false)");
	else if (br->parity_failed)
		snprintf(buf, size, ", stdout NOT identical within %s: a sample "
			 "differed from its first (after %zu base, %zu head "
			 "samples)", br->parity_failed == 2 ? "head" : "base",
			 br->nsamples[0], br->nsamples[1]);
	else if (br->nsamples[0] && br->nsamples[1])
		snprintf(buf, size, ", stdout identical within each arm (%zu "
			 "base, %zu head samples)%s", br->nsamples[0],
			 br->nsamples[1], br->parity_differs ? "; base and "
			 "head print different output" : "");
	return buf;
}

/* gate compare's floor and pass_excludes, every case's (NaN: none) */
static const struct bench_stats *compare_policy(const struct run_report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->b[i].result.n)
			return &r->b[i].result.m[0];
	return NULL;
}

/* gate compare's rule: unpaired values, one comparison per case */
static char *compare_rule(const struct run_report *r)
{
	const struct bench_stats *st = compare_policy(r);

	return xasprintf("one-sided bounds, each at %.4g%% per case (%.4g%% "
		"for the suite, Bonferroni over %zu cases compared); a bound "
		"needs at least %zu values per side at this level: fail when "
		"the lower bound is above the %+.1f%% floor; pass when the "
		"estimate is within it and the upper bound below %+.1f%% "
		"(%s); noisy otherwise, including too few values for a "
		"bound%s. A count with a 0 in either file is compared as "
		"(new + 1) / (old + 1)", r->level * 100, r->confidence * 100,
		r->compared, stats_shift_min_n(1 - r->level),
		st ? st->floor * 100 : NAN, st ? st->excludes * 100 : NAN,
		r->strict ? "--strict" : "pass_excludes", r->one_process ?
		" and times whose values are repetitions inside one process" :
		"");
}

char *report_rule_text(const struct run_report *r)
{
	double two = 1 - 2 * (1 - r->level);

	if (r->command)
		return compare_rule(r);
	return xasprintf("one-sided bounds, each at %.4g%% per comparison "
		"(an interval at %.4g%%; %.4g%% for the suite, Bonferroni "
		"over %zu, spent across the looks; counts take no share "
		"beside a timed metric, and a benchmark of counts alone one, "
		"used only should its counts vary): fail when the lower bound is above 1 + "
		"floor; pass when the estimate is within the floor and the "
		"upper bound is below 1 + pass_excludes (%s); noisy "
		"otherwise, including too few pairs for an interval. Exact "
		"counts (every sample of each arm within %.1f%%) fail when "
		"the ratio is at least 1 + floor, else pass, never noisy; a "
		"count of 0 is compared as (head + 1) / (base + 1). Load and "
		"calibration checks are notes, never verdicts",
		r->level * 100, two * 100, r->confidence * 100, r->compared,
		r->strict ? "--strict: pass_excludes is the floor" :
		"twice the floor unless gate.json sets it",
		METRIC_EXACT_TOLERANCE * 100);
}

char *report_promise_text(const struct run_report *r)
{
	double a = (1 - r->confidence) * 100;
	const struct bench_stats *st = compare_policy(r);
	size_t kept = r->compared - r->one_process;

	/* gate compare's promise holds only where values are processes' */
	if (r->command && !kept)
		return xstrdup("none: every case compared is a time whose "
			       "values are repetitions inside one process");
	if (r->command)
		return xasprintf("over %s%zu cases, identical code fails with "
			"probability \xe2\x89\xa4 %.4g%%, and a regression of "
			"%+.1f%% or more passes with probability \xe2\x89\xa4 "
			"%.4g%%%s", r->one_process ? "the " : "all ", kept, a,
			st ? st->excludes * 100 : NAN, a, r->one_process ?
			" (none for the times whose values come from one "
			"process: not decided)" : "");

	/* "\xe2\x89\xa4" is U+2264, less-than or equal to */
	return xasprintf("over the whole suite, identical code fails with "
		"probability \xe2\x89\xa4 %.4g%%, and a regression of "
		"pass_excludes or more passes with probability "
		"\xe2\x89\xa4 %.4g%%", a, a);
}

const char *report_interval_name(const struct bench_cfg *c, char *buf,
				 size_t size)
{
	const char *m = c->interval == INTERVAL_PERCENTILE ?
			"bootstrap percentile" :
			c->interval == INTERVAL_BCA ? "bootstrap BCa" :
			c->interval == INTERVAL_MANN_WHITNEY ? "exact "
			"Mann-Whitney bounds of the unpaired Hodges-Lehmann "
			"shift of the log values (a conservative normal "
			"approximation for many values)" :
			c->statistic == STATS_HL ? "exact signed-rank" :
			c->statistic == STATS_MEDIAN ? "exact sign-test" :
			"Student t";

	snprintf(buf, size, "%s (one-sided bounds)", m);
	return buf;
}

const char *report_run_interval(const struct run_report *r, char *buf,
				size_t size)
{
	char one[REPORT_METHOD_MAX];
	size_t i;
	int seen = 0;

	for (i = 0; i < r->n; i++) {
		if (r->b[i].run.is_new || r->b[i].run.is_removed)
			continue;
		report_interval_name(r->b[i].run.cfg, one, sizeof(one));
		if (!seen)
			snprintf(buf, size, "%s", one);
		else if (strcmp(buf, one))
			break;
		seen = 1;
	}
	if (!seen || i < r->n)
		snprintf(buf, size, "per benchmark (one-sided bounds; see "
			 "benchmarks[])");
	return buf;
}

