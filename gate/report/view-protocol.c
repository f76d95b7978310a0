/*
 * The report view's protocol lines (the run's revisions, policy and
 * isolation, each benchmark's method, suite and artifacts, the machine),
 * split from view.c: the figures a report discloses beside its verdicts.
 */
#include "gate/report/view.h"
#include "gate/report/view-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/decide/suite.h"
#include "gate/measure/measure-counted.h"
#include "common/banned.h"

static const char *short_id(const char *id, char *buf, size_t size)
{
	if (!id || !id[0])
		return "(none)";
	snprintf(buf, size, "%.10s", id);
	return buf;
}

char *report_rev_line(const char *arm, const struct report_rev *rv)
{
	char a[16], b[16];

	if (rv->worktree)
		return xasprintf("%s: working tree (%s) on %s, tree %s", arm,
				 rv->dirty ? "with uncommitted changes" :
				 "clean", short_id(rv->commit, a, sizeof(a)),
				 short_id(rv->tree, b, sizeof(b)));
	/* "base: HEAD (3f2c1a0; no upstream branch, working tree has
	 * changes)": which revision, and why gate chose it */
	return xasprintf("%s: %s (%s%s%s)", arm, rv->label ? rv->label : "?",
			 short_id(rv->commit, a, sizeof(a)),
			 rv->how ? "; " : "", rv->how ? rv->how : "");
}

#define PROCS_MAX 4	/* distinct GOMAXPROCS counts a protocol line names */

/*
 * A go suite's CPU count, as "; GOMAXPROCS 2 (...)": the "-N" its case
 * names carried (dropped from them, so a case keeps its name on runners
 * of any core count), from every case of the suite in r. One count for a
 * run; a report merged from shards on different machines can hold
 * several, each named with its cases. "" for other formats.
 */
static void suite_procs(const struct run_report *r, const struct bench_run *br,
			char *buf, size_t size)
{
	long val[PROCS_MAX];
	size_t cnt[PROCS_MAX], nval = 0, more = 0, i, k, len;

	buf[0] = '\0';
	if (!(format_reader(br->cfg->format)->flags & FMT_NAME_PROCS))
		return;
	for (i = 0; i < r->n; i++) {
		const struct run_bench *b = &r->b[i];

		if (!b->run.suite_name ||
		    strcmp(b->run.suite_name, br->suite_name))
			continue;
		for (k = 0; k < nval && val[k] != b->procs; k++)
			;
		if (k == nval && nval == PROCS_MAX) {
			more++;
			continue;
		}
		if (k == nval) {
			val[nval] = b->procs;
			cnt[nval++] = 0;
		}
		cnt[k]++;
	}
	if (nval == 1 && val[0] == 0) {
		snprintf(buf, size, "; GOMAXPROCS not in its case names (no "
			 "\"-N\" suffix: GOMAXPROCS 1, or go test -cpu with "
			 "several counts, each kept in its names)");
		return;
	}
	if (nval == 1) {
		snprintf(buf, size, "; GOMAXPROCS %ld (the \"-%ld\" suffix "
			 "dropped from its case names)", val[0], val[0]);
		return;
	}
	/* "GOMAXPROCS 2 (3 cases) and 4 (1 case)" */
	len = (size_t)snprintf(buf, size, "; GOMAXPROCS");
	for (k = 0; k < nval && len < size; k++) {
		char v[32];

		if (val[k])
			snprintf(v, sizeof(v), "%ld", val[k]);
		else
			snprintf(v, sizeof(v), "none");
		len += (size_t)snprintf(buf + len, size - len, "%s %s (%zu "
					"case%s)", k == 0 ? "" : k + 1 < nval ||
					more ? "," : " and", v, cnt[k],
					cnt[k] == 1 ? "" : "s");
	}
	if (more && len < size)
		len += (size_t)snprintf(buf + len, size - len,
					" and others (%zu case%s)", more,
					more == 1 ? "" : "s");
	if (len < size)
		snprintf(buf + len, size - len, " in its case names (\"-N\" "
			 "dropped; cases measured on different machines, as "
			 "gate merge allows)");
}

/* A suite's protocol line (once per suite, before its first case). */
static char *suite_line(const struct run_report *r, const struct bench_run *br)
{
	char red[64], procs[384], counted[768];
	const char *how = suite_counted_case(br, counted, sizeof(counted));
	double floor = METRIC_EXACT_FLOOR;
	size_t k;

	/* a case's counts have the suite's floor for them (decide/suite.c) */
	for (k = 0; k < br->cfg->nmetrics; k++)
		if (br->cfg->values[k].counted) {
			floor = br->cfg->metrics[k].min_effect;
			break;
		}

	suite_procs(r, br, procs, sizeof(procs));
	return xasprintf("%s: suite (format %s, times %s), %zu pairs + %u "
		"warm-up, floor per case (counts %+.1f%%), each case's value: "
		"%s; every sample printed the same cases (%zu base, %zu head "
		"samples)%s%s%s", br->suite_name, format_name(br->cfg->format),
		suite_time(br), br->npairs, br->cfg->warmup, floor * 100,
		suite_reduction(br, red, sizeof(red)), br->nsamples[0],
		br->nsamples[1], procs, how ? "; counts: " : "",
		how ? how : "");
}

static char *bench_line(const struct run_report *r, const struct bench_run *br)
{
	const struct bench_cfg *c = br->cfg;
	char *s = xasprintf("%.*s: ", VIEW_NAME_MAX, c->name), *t, buf[512], par[192];
	size_t k;

	for (k = 0; k < c->nmetrics; k++) {
		const struct metric_cfg *mc = &c->metrics[k];
		int ins = mc->id == METRIC_INSTRUCTIONS;

		t = xasprintf("%s%s%s (%s, floor %+.1f%%, pass_excludes "
			      "%+.1f%%%s%s)", s, k ? ", " : "metrics ",
			      metric_name(mc->id), mc->gating ? "gating" :
			      "informational", mc->min_effect * 100,
			      (r->strict ? mc->min_effect :
			       mc->pass_excludes) * 100,
			      ins ? ", counter " : "",
			      ins ? counter_name(br->counter) : "");
		free(s);
		s = t;
	}
	t = xasprintf("%s; %zu pairs + %u warm-up; %s", s, br->npairs,
		      c->warmup, measure_scheme(br, buf, sizeof(buf)));
	free(s);
	s = t;
	t = xasprintf("%s; %s of log-ratios, %s interval, %s rule%s", s,
		      stats_estimator_name(c->statistic),
		      report_interval_name(c, buf, sizeof(buf)),
		      rule_name(c->rule), report_parity(br, par, sizeof(par)));
	free(s);
	return t;
}

/*
 * A benchmark's "artifacts" in the protocol: identical (passed unmeasured,
 * or measured anyway), or which files differ, so a user sees a build that
 * embeds paths or timestamps. NULL when it declares none.
 */
static char *artifacts_line(const struct bench_run *br)
{
	char list[512] = "";
	size_t i, ndiff = 0, used = 0;

	if (!br->nartifacts)
		return NULL;
	if (br->identical)
		return xasprintf("%.*s: artifacts: %zu file%s byte-identical in "
				 "both arms: %s", VIEW_NAME_MAX, br->cfg->name,
				 br->nartifacts, br->nartifacts == 1 ? "" : "s",
				 br->identical == 1 ? "passed, not measured" :
				 "measured anyway (--measure-identical)");
	for (i = 0; i < br->nartifacts; i++) {
		const struct artifact_hash *h = &br->artifacts[i];
		int n;

		if (!strcmp(h->sha256[0], h->sha256[1]))
			continue;
		if (ndiff++ < 8 && used < sizeof(list)) {
			n = snprintf(list + used, sizeof(list) - used,
				     "%s%s%s", used ? ", " : "", h->path,
				     !h->sha256[0][0] ? " (head only)" :
				     !h->sha256[1][0] ? " (base only)" : "");
			if (n > 0)
				used += (size_t)n;
		}
	}
	return xasprintf("%.*s: artifacts differ: %s%s (%zu of %zu file%s; "
			 "a build that embeds paths or timestamps differs "
			 "every time, a reproducible one lets identical "
			 "builds pass unmeasured)", VIEW_NAME_MAX, br->cfg->name, list,
			 ndiff > 8 ? ", ..." : "", ndiff, br->nartifacts,
			 br->nartifacts == 1 ? "" : "s");
}

static void add_line(struct report_view *v, char *line)
{
	if (v->nprotocol < VIEW_PROTOCOL_MAX)
		v->protocol[v->nprotocol++] = line;
	else
		free(line);
}

static void add_warning(struct report_view *v, const char *line)
{
	XGROW(v->warnings, v->capwarnings, v->nwarnings + 1);
	v->warnings[v->nwarnings++] = xstrdup(line);
}

/* Which config decided, and every way head's differs from base's. */
static void policy_build(struct report_view *v, const struct run_report *r)
{
	size_t i;

	if (r->policy)
		add_line(v, xasprintf("policy: %s", r->policy));
	if (r->isolation)
		add_line(v, xasprintf("isolation: %s", r->isolation));
	for (i = 0; i < r->npolicy_diff; i++) {
		add_line(v, xasprintf("policy: %s", r->policy_diff[i]));
		add_warning(v, r->policy_diff[i]);
	}
	for (i = 0; i < r->naccept; i++) {
		const struct verdict_accept *a = &r->accept[i];
		char *line = xasprintf("Gate-Accept of commit %.10s: `%s` "
				       "%+g%%%s%s%s", a->commit, a->pattern,
				       a->bound * 100, a->reason[0] ? " (" : "",
				       a->reason, a->reason[0] ? ")" : "");

		if (a->matched) {
			add_line(v, xasprintf("accepts: %s", line));
		} else {
			char *w = xasprintf("%s names no benchmark: ignored",
					    line);

			add_line(v, xasprintf("accepts: %s", w));
			add_warning(v, w);
			free(w);
		}
		free(line);
	}
}

/*
 * gate compare's protocol: its two files and how their values were taken
 * and decided; no revisions, order, looks nor machine: it ran nothing.
 */
static void compare_protocol(struct report_view *v, const struct run_report *r)
{
	char iv[REPORT_METHOD_MAX], *s;
	int a;

	for (a = 0; a < 2; a++)
		add_line(v, xasprintf("%s: %s (%s)", a ? "new" : "old",
				      r->rev[a].label, r->rev[a].how ?
				      r->rev[a].how : "format unknown"));
	add_line(v, xstrdup("values: every value in a file is one sample "
		"(unpaired: nothing matches a run of OLD with one of NEW); "
		"where a file holds several processes' repetitions, the "
		"median of each process"));
	if (r->note)
		add_line(v, xasprintf("note: %s", r->note));
	add_line(v, xasprintf("interval: %s, NEW against OLD (OLD against "
			      "NEW for rates)",
			      report_run_interval(r, iv, sizeof(iv))));
	s = report_rule_text(r);
	add_line(v, xasprintf("decision: %s", s));
	free(s);
	s = report_promise_text(r);
	add_line(v, xasprintf("promise: %s", s));
	free(s);
	add_line(v, xstrdup("p: two-sided Mann-Whitney U (exact when a side "
			    "has at most 8 values and no ties), for reading "
			    "only"));
	add_line(v, xasprintf("gate %s", r->gate_version ? r->gate_version :
			      GATE_VERSION));
}

void view_protocol_build(struct report_view *v, const struct run_report *r)
{
	const struct machine *m = &r->machine;
	char *lines[REPORT_CONDITIONS_MAX], iv[REPORT_METHOD_MAX];
	size_t i, n;

	if (r->command) {
		compare_protocol(v, r);
		return;
	}
	add_line(v, report_rev_line("base", &r->rev[ARM_BASE]));
	add_line(v, report_rev_line("head", &r->rev[ARM_HEAD]));
	add_line(v, xasprintf("config: %s%s%s%s", r->config_origin ?
			      r->config_origin : "gate.json",
			      r->config_note ? " (" : "",
			      r->config_note ? r->config_note : "",
			      r->config_note ? ")" : ""));
	if (r->total_seconds > 0) {
		char b[32], h[32], ms[32], t[32];

		/* where the time went; no build this run (both kept, or
		   none configured) is said, not timed as "0 us" */
		if (r->build_seconds[ARM_BASE] > 0 ||
		    r->build_seconds[ARM_HEAD] > 0)
			add_line(v, xasprintf("time: build %s base, %s head "
				"(at once); measuring %s; total %s",
				format_seconds(r->build_seconds[ARM_BASE], b,
					       sizeof(b)),
				format_seconds(r->build_seconds[ARM_HEAD], h,
					       sizeof(h)),
				format_seconds(r->measure_seconds, ms,
					       sizeof(ms)),
				format_seconds(r->total_seconds, t,
					       sizeof(t))));
		else
			add_line(v, xasprintf("time: build none this run (kept "
				"from an earlier run, or none configured); "
				"measuring %s; total %s",
				format_seconds(r->measure_seconds, ms,
					       sizeof(ms)),
				format_seconds(r->total_seconds, t,
					       sizeof(t))));
	}
	policy_build(v, r);
	add_line(v, xasprintf("order: pairs of base and head back to back, "
		"which runs first drawn at random (balanced), seed %lu "
		"(--seed %lu replays it)", r->seed, r->seed));
	add_line(v, xasprintf("interval: %s",
			      report_run_interval(r, iv, sizeof(iv))));
	lines[0] = report_rule_text(r);
	add_line(v, xasprintf("decision: %s", lines[0]));
	free(lines[0]);
	lines[0] = report_promise_text(r);
	add_line(v, xasprintf("promise: %s", lines[0]));
	free(lines[0]);
	add_line(v, xasprintf("looks: half of each comparison's alpha spent "
		"at the first look, the rest in equal shares over the looks "
		"up to max_pairs (under a budget, up to the pairs it can "
		"reach at the first look's pace); bootstrap intervals use %u resamples%s; "
		"budget %g s of measuring", r->resamples,
		r->strict ? "; --strict" : "", r->budget));
	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run;

		if (r->b[i].result.verdict == VERDICT_NEW)
			continue;
		if (br->suite_name) {
			if (i > 0 && r->b[i - 1].run.suite_name &&
			    !strcmp(r->b[i - 1].run.suite_name, br->suite_name))
				continue;
			add_line(v, suite_line(r, br));
		} else if (br->cfg->format != FORMAT_TIME) {
			add_line(v, xasprintf("%.*s: suite (format %s), not "
					      "measured to the end",
					      VIEW_NAME_MAX, br->cfg->name,
					      format_name(br->cfg->format)));
		} else {
			char *art = artifacts_line(br);

			add_line(v, bench_line(r, br));
			if (art)
				add_line(v, art);
		}
	}
	n = report_conditions(r, lines);
	for (i = 0; i < n; i++)
		add_line(v, lines[i]);
	add_line(v, xasprintf("machine: %s, %ld cores, SMT %s, governor %s, "
		"turbo %s, virtualisation %s, %s", m->cpu, m->cores, m->smt,
		m->governor, m->turbo, m->virt, m->kernel));
	add_line(v, xasprintf("ASLR %s, isolated CPUs %s, hardware counters "
			      "%s, container %s, CPU quota %s", m->aslr,
			      m->isolated, m->counters, m->container,
			      m->cpu_quota));
	add_line(v, xasprintf("load: %.2f before, %.2f after; gate %s",
			      m->load_before[0], m->load_after[0],
			      GATE_VERSION));
}
