/*
 * The terminal report: one row per benchmark that can be read at a glance
 * (name, medians, change, interval, wins, CV, a compact plot, verdict), the
 * reason for each verdict, the suite verdict, and the protocol underneath.
 */
#include "gate/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/suite.h"
#include "common/banned.h"

const char *format_seconds(double s, char *buf, size_t size)
{
	if (!isfinite(s))
		snprintf(buf, size, "-");
	else if (s >= 1.0)
		snprintf(buf, size, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, size, "%.1f ms", s * 1e3);
	else
		snprintf(buf, size, "%.0f us", s * 1e6);
	return buf;
}

#define STRIP_W 21

char *report_strip(char *buf, int width, const struct bench_stats *st)
{
	double lo = fmin(1.0, st->low), hi = fmax(1.0 + st->floor, st->high);
	double span;
	size_t i;
	int c, a, b;

	for (i = 0; i < st->n; i++)
		if (isfinite(st->ratios[i]) && st->ratios[i] > 0) {
			lo = fmin(lo, st->ratios[i]);
			hi = fmax(hi, st->ratios[i]);
		}
	memset(buf, ' ', (size_t)width);
	buf[width] = '\0';
	if (!(lo > 0) || !isfinite(hi) || width < 3)
		return buf;
	if (hi / lo < 1.01)
		hi = lo * 1.01;
	span = log(hi) - log(lo);
#define CELL(v) ((int)lround((log(v) - log(lo)) / span * (width - 1)))
	for (i = 0; i < st->n; i++) {
		if (!(st->ratios[i] > 0))
			continue;
		c = CELL(st->ratios[i]);
		buf[c] = buf[c] == ' ' ? '.' : ':';
	}
	a = CELL(st->low);
	b = CELL(st->high);
	for (c = a; c <= b; c++)
		buf[c] = '=';
	buf[a] = '[';
	buf[b] = ']';
	buf[CELL(1.0)] = '|';
	buf[CELL(1.0 + st->floor)] = '!';
	buf[CELL(st->median)] = '*';
#undef CELL
	return buf;
}

/* ANSI colour for a verdict word, or "" without colour. */
static const char *paint(int color, enum verdict v)
{
	if (!color)
		return "";
	switch (v) {
	case VERDICT_PASS: return "\033[32m";
	case VERDICT_FAIL: return "\033[1;31m";
	case VERDICT_NOISY: return "\033[1;33m";
	case VERDICT_ERROR: return "\033[1;35m";
	case VERDICT_NEW: return "\033[36m";
	}
	return "";
}

static const char *reset(int color)
{
	return color ? "\033[0m" : "";
}

static const char *short_id(const char *id)
{
	static char buf[2][16];
	static int which;

	which = !which;
	if (!id || !id[0])
		return "(none)";
	snprintf(buf[which], sizeof(buf[which]), "%.10s", id);
	return buf[which];
}

static void print_rev(FILE *out, const char *arm, const struct report_rev *v)
{
	if (v->worktree)
		fprintf(out, "%s: working tree (%s) on %s, tree %s\n", arm,
			v->dirty ? "with uncommitted changes" : "clean",
			short_id(v->commit), short_id(v->tree));
	else
		fprintf(out, "%s: %s = %s%s%s%s\n", arm, v->label,
			short_id(v->commit), v->how ? " (" : "",
			v->how ? v->how : "", v->how ? ")" : "");
}

static const char *verdict_label(const struct bench_stats *st)
{
	switch (st->verdict) {
	case VERDICT_PASS:
		if (!st->improved)
			return "pass";
		return metric_desc(st->metric)->source == SOURCE_CLOCK ||
		       metric_desc(st->metric)->source == SOURCE_SUITE ?
		       "pass (faster)" : "pass (fewer)";
	case VERDICT_FAIL:
		return "FAIL";
	case VERDICT_NOISY:
		return "NOISY";
	default:
		return "ERROR";
	}
}

/* A median for the table: in the metric's unit, or a suite case's. */
static const char *arm_value(const struct bench_run *br,
			     const struct bench_stats *st, double v,
			     char *buf, size_t size)
{
	if (st->metric == METRIC_VALUE && br->cfg->unit)
		return format_value(v, br->cfg->unit, buf, size);
	return metric_format(st->metric, v, buf, size);
}

static int vw = 10;	/* width of the base and head columns */

/* One row per metric; the benchmark's name on its first row only. */
static void print_rows(FILE *out, int w, const struct bench_run *br,
		       const struct bench_result *res, int color)
{
	char b[48], h[48], iv[48], wins[32], cv[32], verdict[40];
	char strip[STRIP_W + 1];
	size_t i;

	if (res->verdict == VERDICT_NEW) {
		fprintf(out, "%-*s  %-12s  %*s  %*s  %8s  %-19s  %-16s  "
			"%-11s  %-*s  %s%s%s\n", w, br->cfg->name, "-", vw, "-",
			vw, "-", "-", "not compared", "-", "-", STRIP_W, "",
			paint(color, res->verdict),
			br->is_removed ? "removed" : "new", reset(color));
		return;
	}
	if (br->error || !res->m) {
		fprintf(out, "%-*s  %-12s  %*s  %*s  %8s  %-19s  %-16s  "
			"%-11s  %-*s  %sERROR%s\n", w, br->cfg->name, "-", vw,
			"-", vw, "-", "-", "-", "-", "-", STRIP_W, "",
			paint(color, VERDICT_ERROR), reset(color));
		return;
	}
	for (i = 0; i < res->n; i++) {
		const struct bench_stats *st = &res->m[i];

		if (st->verdict == VERDICT_ERROR && !st->n) {
			fprintf(out, "%-*s  %-12s  %*s  %*s  %8s  %-19s  "
				"%-16s  %-11s  %-*s  %s%s%s\n", w,
				i ? "" : br->cfg->name, metric_name(st->metric),
				vw, "-", vw, "-", "-", "-", "-", "-", STRIP_W,
				"", paint(color, VERDICT_ERROR),
				st->gating ? "ERROR" : "(info) error",
				reset(color));
			continue;
		}
		if (st->exact)
			snprintf(iv, sizeof(iv), "exact");
		else
			snprintf(iv, sizeof(iv), "%+.1f%% .. %+.1f%%",
				 ratio_pct(st->low), ratio_pct(st->high));
		snprintf(wins, sizeof(wins), "%zu/%zu p=%.2g",
			 st->head_slower, st->of, st->sign_p);
		/* a CV of counts that are all 0 is undefined: show 0 spread */
		snprintf(cv, sizeof(cv), "%.1f/%.1f%%",
			 isfinite(st->base_cv) ? st->base_cv * 100 : 0.0,
			 isfinite(st->head_cv) ? st->head_cv * 100 : 0.0);
		snprintf(verdict, sizeof(verdict), "%s%s",
			 st->gating ? "" : "(info) ", verdict_label(st));
		fprintf(out, "%-*s  %-12s  %*s  %*s  %+7.*f%%  %-19s  %-16s  "
			"%-11s  %s  %s%s%s\n", w, i ? "" : br->cfg->name,
			metric_name(st->metric),
			vw, arm_value(br, st, st->base_median, b, sizeof(b)),
			vw, arm_value(br, st, st->head_median, h, sizeof(h)),
			st->exact ? 2 : 1, ratio_pct(st->estimate), iv, wins, cv,
			report_strip(strip, STRIP_W, st),
			st->gating ? paint(color, st->verdict) : "", verdict,
			st->gating ? reset(color) : "");
	}
}

/* The evidence beside a benchmark's reasons (its first gating metric). */
static void print_evidence(FILE *out, const struct bench_run *br,
			   const struct bench_stats *st)
{
	const struct bench_cfg *c = br->cfg;
	char secs[32], of[32] = "";

	/* a heuristic's note (load, calibration): never the verdict */
	if (st->note)
		fprintf(out, "  note: %s\n", st->note);
	if (!st->ratios)
		return;
	format_seconds(br->seconds, secs, sizeof(secs));
	if (br->pairs_raised_from)
		fprintf(out, "  pairs raised from %u to %u: fewer give no "
			"interval at this level\n", br->pairs_raised_from,
			br->pairs_needed);
	else if (br->pairs_needed)
		fprintf(out, "  too few pairs for this level: set \"pairs\" "
			"to %u or more\n", br->pairs_needed);
	if (st->exact) {
		fprintf(out, "  %zu pairs in %s, stopped: %s after %zu "
			"look%s\n", br->npairs, secs, stop_name(st->stop),
			st->looks, st->looks == 1 ? "" : "s");
		return;
	}
	/* a metric counted in fewer pairs says so */
	if (st->n < br->npairs)
		snprintf(of, sizeof(of), " of %zu", br->npairs);
	fprintf(out, "  %zu%s pairs (%u..%u) in %s, stopped: %s after %zu "
		"look%s; Wilcoxon p=%.2g, Mann-Whitney p=%.2g; %zu outlying "
		"pair%s (kept); drift r=%+.2f\n", st->n, of, c->pairs,
		c->max_pairs, secs, stop_name(st->stop), st->looks,
		st->looks == 1 ? "" : "s", st->wilcoxon_p, st->mann_whitney_p,
		st->outliers, st->outliers == 1 ? "" : "s", st->drift);
}

static void print_suite(FILE *out, const struct run_report *r)
{
	size_t i, count[VERDICT_NEW + 1] = { 0 };

	for (i = 0; i < r->n; i++)
		count[r->b[i].result.verdict]++;
	if (r->interrupted) {
		fprintf(out, "verdict: interrupted by signal %d before a "
			"verdict (exit %d)\n", r->interrupted, r->exit_code);
		return;
	}
	fprintf(out, "verdict: %s%s%s", paint(r->color, r->suite),
		r->suite == VERDICT_PASS ? "PASS" :
		r->suite == VERDICT_FAIL ? "FAIL" :
		r->suite == VERDICT_NOISY ? "NOISY" : "ERROR", reset(r->color));
	if (r->error)
		fprintf(out, ": %s", r->error);
	else
		fprintf(out, ": %zu pass, %zu fail, %zu noisy, %zu error, "
			"%zu new", count[VERDICT_PASS], count[VERDICT_FAIL],
			count[VERDICT_NOISY], count[VERDICT_ERROR],
			count[VERDICT_NEW]);
	if (r->advisory && r->suite != VERDICT_PASS)
		fprintf(out, " (advisory: exit 0 instead of %d)\n",
			verdict_exit_code(r->suite));
	else
		fprintf(out, " (exit %d)\n", r->exit_code);
}

static void print_layout(FILE *out, const struct run_report *r)
{
	char *lines[REPORT_CONDITIONS_MAX];
	size_t i, n = report_conditions(r, lines);

	for (i = 0; i < n; i++)
		fprintf(out, "  %s\n", lines[i]);
	report_conditions_free(lines, n);
}

static void print_protocol(FILE *out, const struct run_report *r)
{
	const struct machine *m = &r->machine;
	char par[192], *text;
	size_t i;

	fprintf(out, "\nprotocol:\n");
	print_rev(out, "  base", &r->rev[ARM_BASE]);
	print_rev(out, "  head", &r->rev[ARM_HEAD]);
	fprintf(out, "  config: %s\n", r->config_origin);
	fprintf(out, "  order: pairs of base and head back to back, which "
		"runs first drawn at random (balanced), seed %lu "
		"(--seed %lu replays it)\n", r->seed, r->seed);
	text = report_rule_text(r);
	fprintf(out, "  decision: %s\n", text);
	free(text);
	text = report_promise_text(r);
	fprintf(out, "  promise: %s\n", text);
	free(text);
	fprintf(out, "  looks: half of each comparison's alpha spent at the "
		"first look, the rest in equal shares over the looks up to "
		"max_pairs; bootstrap intervals use %u resamples%s; budget "
		"%g s of measuring\n", r->resamples,
		r->strict ? "; --strict" : "", r->budget);
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;
		const struct bench_cfg *c = br->cfg;
		char scheme[512];
		size_t k;

		if (r->b[i].result.verdict == VERDICT_NEW)
			continue;
		if (br->suite_name) {
			char red[64];

			if (i > 0 && r->b[i - 1].run.suite_name &&
			    !strcmp(r->b[i - 1].run.suite_name, br->suite_name))
				continue;
			fprintf(out, "  %s: suite (format %s, times %s), %zu "
				"pairs + %u warm-up, floor per case (counts "
				"%+.1f%%), each "
				"case's value: %s; every sample printed the "
				"same cases (%zu base, %zu head samples)\n",
				br->suite_name, format_name(c->format),
				suite_time(br),
				br->npairs, c->warmup,
				METRIC_EXACT_FLOOR * 100,
				suite_reduction(br, red, sizeof(red)),
				br->nsamples[0], br->nsamples[1]);
			continue;
		}
		if (c->format != FORMAT_TIME) {
			fprintf(out, "  %s: suite (format %s), not measured "
				"to the end\n", c->name,
				format_name(c->format));
			continue;
		}
		fprintf(out, "  %s: ", c->name);
		for (k = 0; k < c->nmetrics; k++)
			fprintf(out, "%s%s (%s, floor %+.1f%%, "
				"pass_excludes %+.1f%%%s%s)",
				k ? ", " : "metrics ",
				metric_name(c->metrics[k].id),
				c->metrics[k].gating ? "gating" :
				"informational", c->metrics[k].min_effect * 100,
				(r->strict ? c->metrics[k].min_effect :
				 c->metrics[k].pass_excludes) * 100,
				c->metrics[k].id == METRIC_INSTRUCTIONS ?
				", counter " : "",
				c->metrics[k].id == METRIC_INSTRUCTIONS ?
				counter_name(br->counter) : "");
		fprintf(out, "; %zu pairs + %u warm-up; %s", br->npairs,
			c->warmup, measure_scheme(br, scheme, sizeof(scheme)));
		fprintf(out, "; %s of log-ratios, %s interval, %s rule",
			stats_estimator_name(c->statistic),
			report_interval_name(c, scheme, sizeof(scheme)),
			rule_name(c->rule));
		fputs(report_parity(br, par, sizeof(par)), out);
		fputc('\n', out);
	}
	print_layout(out, r);
	fprintf(out, "  machine: %s, %ld cores, SMT %s, governor %s, turbo "
		"%s, virtualisation %s, %s\n", m->cpu, m->cores, m->smt,
		m->governor, m->turbo, m->virt, m->kernel);
	fprintf(out, "  ASLR %s, isolated CPUs %s, hardware counters %s\n",
		m->aslr, m->isolated, m->counters);
	fprintf(out, "  load: %.2f before, %.2f after; gate %s\n",
		m->load_before[0], m->load_after[0], GATE_VERSION);
}

void report_term(FILE *out, const struct run_report *r)
{
	size_t i;
	int w = 9;
	char ivh[32];

	for (i = 0; i < r->n; i++) {
		int len = (int)strlen(r->b[i].run.cfg->name);

		if (len > w)
			w = len;
	}
	vw = 10;
	for (i = 0; i < r->n; i++) {
		const struct bench_result *res = &r->b[i].result;
		char b[48];
		size_t k;
		int len;

		for (k = 0; k < res->n; k++) {
			len = (int)strlen(arm_value(&r->b[i].run, &res->m[k],
						    res->m[k].base_median, b,
						    sizeof(b)));
			vw = len > vw ? len : vw;
			len = (int)strlen(arm_value(&r->b[i].run, &res->m[k],
						    res->m[k].head_median, b,
						    sizeof(b)));
			vw = len > vw ? len : vw;
		}
	}
	snprintf(ivh, sizeof(ivh), "interval");
	fprintf(out, "\n%-*s  %-12s  %*s  %*s  %8s  %-19s  %-16s  %-11s  "
		"%-*s  %s\n", w, "benchmark", "metric", vw, "base", vw, "head",
		"change", ivh, "head worse", "CV b/h", STRIP_W,
		"plot (log scale)", "verdict");
	for (i = 0; i < r->n; i++)
		print_rows(out, w, &r->b[i].run, &r->b[i].result, r->color);
	if (r->n)
		fprintf(out, "plot: . pair ratios  [=*=] interval and median  "
			"| no change  ! floor\n");
	fputc('\n', out);
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;
		const struct bench_result *res = &r->b[i].result;
		size_t k;

		if (br->error) {
			fprintf(out, "%s: error: %s\n", br->cfg->name,
				br->error);
			continue;
		}
		if (br->is_removed) {
			fprintf(out, "%s: removed: only base's suite printed "
				"this case: not compared\n", br->cfg->name);
			continue;
		}
		if (br->is_new && br->suite_name) {
			fprintf(out, "%s: new: only head's suite printed this "
				"case: not compared\n", br->cfg->name);
			continue;
		}
		if (res->verdict == VERDICT_NEW) {
			fprintf(out, "%s: new in head (base's gate.json does "
				"not declare it): not compared\n",
				br->cfg->name);
			continue;
		}
		for (k = 0; k < res->n; k++) {
			const struct bench_stats *st = &res->m[k];

			if (!st->reason)
				continue;
			if (res->n == 1)
				fprintf(out, "%s: %s\n", br->cfg->name,
					st->reason);
			else
				fprintf(out, "%s %s%s: %s\n", br->cfg->name,
					metric_name(st->metric),
					st->gating ? "" : " (informational)",
					st->reason);
		}
		print_evidence(out, br, &r->b[i].primary);
	}
	print_suite(out, r);
	print_protocol(out, r);
}
