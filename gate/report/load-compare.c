/*
 * gate compare's JSON report (gate/cmd/compare-report.c) read into the run
 * model, for the history gate record keeps (REPORT_LOAD_COMPARE in
 * gate/report/load.h says how a case maps onto a benchmark). Its figures
 * stand as written: nothing is decided again.
 */
#include "gate/report/load.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/report/load-internal.h"
#include "common/banned.h"

/* The case's "old" (base) and "new" (head) values as pairs, index by
   index, NaN where one side has fewer. */
static void compare_values(struct bench_run *br, const cJSON *o)
{
	static const char *const sides[2] = { "old", "new" };
	const cJSON *v[2];
	size_t n = 0, i;
	int a;

	for (a = 0; a < 2; a++) {
		v[a] = load_get(load_get(o, sides[a]), "values");
		if ((size_t)cJSON_GetArraySize(v[a]) > n)
			n = (size_t)cJSON_GetArraySize(v[a]);
	}
	br->pairs = xcalloc(n ? n : 1, sizeof(*br->pairs));
	br->npairs = n;
	for (i = 0; i < n; i++)
		for (a = 0; a < 2; a++) {
			struct sample *s = &br->pairs[i].s[a];
			const cJSON *x = cJSON_GetArrayItem(v[a], (int)i);
			int k;

			s->wall = s->cpu = NAN;
			for (k = 0; k < METRIC_COUNT; k++)
				s->value[k] = NAN;
			s->value[METRIC_VALUE] = cJSON_IsNumber(x) ?
						 x->valuedouble : NAN;
		}
}

/* The case's one metric: its verdict, ratio, bounds and medians. */
static void compare_figures(struct bench_stats *st, const cJSON *o,
			    const struct bench_cfg *c)
{
	const cJSON *ratio = load_get(o, "ratio");
	const char *s;
	size_t n[2];

	st->metric = METRIC_VALUE;
	st->gating = 1;
	st->floor = c->metrics[0].min_effect;
	st->excludes = c->metrics[0].pass_excludes;
	st->statistic = STATS_HL;
	st->interval = st->interval_used = INTERVAL_EXACT;
	if ((s = load_text(o, "reason")))
		st->reason = xstrdup(s);
	st->estimate = load_num(ratio, "estimate", NAN);
	st->median = load_num(ratio, "median", NAN);
	st->low = load_num(ratio, "low", NAN);
	st->high = load_num(ratio, "high", NAN);
	st->level = load_num(ratio, "level", NAN);
	st->geomean = NAN;
	st->exact = load_flag(ratio, "exact");
	st->wilcoxon_p = st->sign_p = st->drift = NAN;
	st->mann_whitney_p = load_num(load_get(o, "mann_whitney"), "p", NAN);
	st->base_median = load_num(load_get(o, "old"), "median", NAN);
	st->head_median = load_num(load_get(o, "new"), "median", NAN);
	st->base_cv = st->head_cv = NAN;
	st->base_spread = st->head_spread = NAN;
	/* compared: the values of the smaller side */
	n[0] = (size_t)cJSON_GetArraySize(load_get(load_get(o, "old"),
						   "values"));
	n[1] = (size_t)cJSON_GetArraySize(load_get(load_get(o, "new"),
						   "values"));
	st->n = ratio ? (n[0] < n[1] ? n[0] : n[1]) : 0;
}

/* One case o into b, with its config c; the run's floor and pass_excludes
   (the protocol's: gate compare has one for every case). */
static int compare_bench(struct loading *ld, struct run_bench *b,
			 struct bench_cfg *c, const cJSON *o,
			 const double policy[2])
{
	const char *name = load_text(o, "name"), *unit = load_text(o, "unit");
	const char *v = load_text(o, "verdict");

	if (!name || !unit)
		return error_to(ld->err, "%s: a case lacks \"name\" or "
				"\"unit\": not a gate compare report",
				ld->origin);
	c->name = (char *)load_keep(ld->L, name);
	c->unit = load_keep(ld->L, unit);
	c->metric = METRIC_VALUE;
	c->higher_better = load_flag(o, "higher_is_better");
	c->min_effect = policy[0];
	c->statistic = STATS_HL;
	c->interval = INTERVAL_EXACT;
	c->parity = 1;
	c->metrics[0].id = METRIC_VALUE;
	c->metrics[0].gating = 1;
	c->metrics[0].min_effect = policy[0];
	c->metrics[0].pass_excludes = policy[1];
	c->nmetrics = 1;
	b->run.cfg = c;
	b->run.is_new = v && !strcmp(v, "new");
	b->run.is_removed = v && !strcmp(v, "removed");
	b->result.verdict = b->run.is_new || b->run.is_removed ? VERDICT_NEW :
			    load_verdict(ld, v, VERDICT_ERROR);
	b->result.n = 1;
	b->result.m = xcalloc(1, sizeof(*b->result.m));
	compare_figures(&b->result.m[0], o, c);
	b->result.m[0].verdict = b->result.verdict;
	compare_values(&b->run, o);
	run_bench_view(b);
	return ld->failed ? -1 : 0;
}

int load_compare(struct loading *ld, struct run_report *r, const cJSON *root)
{
	const cJSON *list = load_get(root, "benchmarks"), *o;
	const cJSON *p = load_get(root, "protocol");
	double policy[2];
	const char *s;
	size_t i = 0;

	ld->L->compare = 1;
	if ((s = load_text(root, "gate_version")))
		r->gate_version = load_keep(ld->L, s);
	r->suite = load_verdict(ld, load_text(root, "verdict"), VERDICT_PASS);
	r->exit_code = (int)load_whole(root, "exit_code", 0, 0, 255);
	r->advisory = load_flag(root, "advisory");
	r->rev[ARM_BASE].label = r->rev[ARM_BASE].commit =
		r->rev[ARM_BASE].tree = "";
	r->rev[ARM_HEAD] = r->rev[ARM_BASE];
	load_protocol(ld, r, p);
	policy[0] = load_num(p, "min_effect", NAN);
	policy[1] = load_num(p, "pass_excludes", NAN);
	ld->L->ncfg = (size_t)cJSON_GetArraySize(list);
	ld->L->cfg = xcalloc(ld->L->ncfg ? ld->L->ncfg : 1,
			     sizeof(*ld->L->cfg));
	run_alloc(r, ld->L->ncfg);
	cJSON_ArrayForEach(o, list) {
		if (compare_bench(ld, &r->b[i], &ld->L->cfg[i], o, policy) < 0)
			return -1;
		i++;
	}
	return ld->failed ? -1 : 0;
}
