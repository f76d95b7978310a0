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

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/decide/suite.h"
#include "common/banned.h"

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

static void bench_evidence(struct view_bench *vb, const struct run_bench *b,
			   const struct bench_stats *st)
{
	const struct bench_run *br = &b->run;
	const struct bench_cfg *c = br->cfg;
	char secs[32], of[32] = "";

	if (!st || !st->ratios)
		return;
	if (st->interval_used == INTERVAL_MANN_WHITNEY) {
		/* no test where no interval was sought */
		if (isfinite(st->mann_whitney_p))
			snprintf(of, sizeof(of), "; Mann-Whitney p=%.2g",
				 st->mann_whitney_p);
		vb->evidence[vb->nevidence++] = xasprintf("%zu values in OLD, "
			"%zu in NEW, unpaired%s", br->nsamples[ARM_BASE],
			br->nsamples[ARM_HEAD], of);
		return;
	}
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
			stop_name(b->stop), b->looks,
			b->looks == 1 ? "" : "s");
		return;
	}
	/* a metric counted in fewer pairs says so */
	if (st->n < br->npairs)
		snprintf(of, sizeof(of), " of %zu", br->npairs);
	vb->evidence[vb->nevidence++] = xasprintf("%zu%s pairs (%u..%u) in "
		"%s, stopped: %s after %zu look%s; Wilcoxon p=%.2g, "
		"Mann-Whitney p=%.2g; %zu outlying pair%s (kept); drift "
		"r=%+.2f", st->n, of, c->pairs, c->max_pairs, secs,
		stop_name(b->stop), b->looks, b->looks == 1 ? "" : "s",
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
	view_arm_value(br->cfg, st->metric, st->base_median, b, sizeof(b));
	view_arm_value(br->cfg, st->metric, st->head_median, h, sizeof(h));
	/* one unit for both: "4575M B/s", "4558M B/s" -> "4575M/4558M B/s" */
	bu = strchr(b, ' ');
	hu = strchr(h, ' ');
	if (bu && hu && !strcmp(bu, hu))
		b[bu - b] = '\0';
	n = strlen(row->throughput);
	snprintf(row->throughput + n, sizeof(row->throughput) - n, "%s%s/%s",
		 n ? "; " : "", b, h);
}

/*
 * Entry br's name as reports show it, cut to VIEW_NAME_MAX: a gate compare
 * case's with its unit (go prints three cases of one benchmark, "s/op",
 * "B/op" and "allocs/op"). *owned is what the caller frees.
 */
static const char *bench_name(const struct run_report *r,
			      const struct bench_run *br, char **owned)
{
	char *whole;

	if (!r->command)
		return view_bounded_name(br->cfg->name, owned);
	whole = xasprintf("%s [%s]", br->cfg->name, br->cfg->unit ?
			  br->cfg->unit : metric_unit(br->cfg->metric));
	if (view_bounded_name(whole, owned) != whole) {
		free(whole);
		return *owned;
	}
	return *owned = whole;
}

/* vb's rows named as vb is (bench_name), not by their config alone. */
static void rows_named(struct report_view *v, const struct view_bench *vb)
{
	size_t k;

	for (k = vb->row; k < vb->row + vb->nrows; k++) {
		free(v->rows[k].bench_owned);
		v->rows[k].bench_owned = NULL;
		v->rows[k].bench = vb->name;
	}
}

static void bench_build(struct report_view *v, struct view_bench *vb,
			const struct run_report *r, size_t i, int differ)
{
	const struct bench_run *br = &r->b[i].run;
	const struct bench_result *res = &r->b[i].result;
	const struct bench_stats *st = run_bench_primary(&r->b[i]);
	size_t k;

	vb->name = bench_name(r, br, &vb->name_owned);
	vb->verdict = res->verdict;
	vb->row = v->nrows;
	vb->note = r->b[i].note;
	vb->suite = br->suite_name;
	snprintf(vb->word, sizeof(vb->word), "%s", br->is_removed ?
		 "removed" : verdict_name(res->verdict));
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
	} else if (r->command && (br->is_new || br->is_removed)) {
		vb->why = vb->why_owned = xasprintf("%s: only in %s, not "
			"compared", br->is_new ? "new" : "removed",
			r->rev[br->is_new ? ARM_HEAD : ARM_BASE].label);
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
		view_empty_row(&v->rows[v->nrows], br, vb->word,
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
		view_decide_estimate(row, br, &res->m[k], r->level);
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
	bench_evidence(vb, &r->b[i], st);
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
		view_pct(v->geomean_pct, sizeof(v->geomean_pct), v->geomean, 1);
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
		if (r->command)
			rows_named(v, &v->benches[i]);
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
		 r->interrupted ? "interrupted" : verdict_name(r->suite));
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
