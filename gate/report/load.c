/*
 * gate's JSON report read back into the run model: the one reader of gate
 * reports (gate compare reads them through it, gate/report/load-format.c).
 * This file reads one benchmark entry; load-run.c the report around them
 * and the entry points.
 * It reads what json.c writes (the rows of gate/report/load-fields.c, and by
 * hand what json.c computes), so writing a loaded model again gives the
 * same bytes. A report may lack fields an older gate did not write: they
 * take their zero or default; unknown names and schemas are refused.
 */
#include "gate/report/load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/report/load-fields.h"
#include "gate/report/load-internal.h"
#include "common/banned.h"

/* the strings the model borrows, owned with the load */
const char *load_keep(struct report_loaded *L, const char *s)
{
	XGROW(L->str, L->capstr, L->nstr + 1);
	return L->str[L->nstr++] = xstrdup(s);
}

/* size zeroed bytes, owned with the strings */
void *load_keep_mem(struct report_loaded *L, size_t size)
{
	XGROW(L->str, L->capstr, L->nstr + 1);
	return L->str[L->nstr++] = xcalloc(1, size);
}

const cJSON *load_get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* A number; null (JSON's NaN) and absent give def. */
double load_num(const cJSON *o, const char *k, double def)
{
	const cJSON *x = load_get(o, k);

	return cJSON_IsNumber(x) ? x->valuedouble : def;
}

int load_flag(const cJSON *o, const char *k)
{
	return cJSON_IsTrue(load_get(o, k));
}

const char *load_text(const cJSON *o, const char *k)
{
	const cJSON *x = load_get(o, k);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* A whole number within [lo, hi], else def: a forged report's 1e300 must
   not reach an integer conversion (undefined behaviour). */
long load_whole(const cJSON *o, const char *k, long def, long lo, long hi)
{
	double v = load_num(o, k, (double)def);

	return v >= (double)lo && v <= (double)hi ? (long)v : def;
}

size_t load_count(const cJSON *o, const char *k)
{
	double v = load_num(o, k, 0);

	return v > 0 && v < 1e18 ? (size_t)v : 0;
}


/*
 * Look s up among the n names name_of(0..n) gives: its index, def when
 * s is absent, or def after an error naming what when it is unknown.
 */
#define LOOKUP(ld, s, n, name_of, def, what) \
	load_name(ld, s, n, def, what, &(name_of##_at))
int load_name(struct loading *ld, const char *s, int n, int def,
	      const char *what, const char *(*at)(int))
{
	int i;

	if (!s)
		return def;
	for (i = 0; i < n; i++)
		if (!strcmp(at(i), s))
			return i;
	if (!ld->failed)
		error_to(ld->err, "%s: unknown %s \"%s\": not written by "
			 "this gate (read it with the gate that wrote it)",
			 ld->origin, what, s);
	ld->failed = 1;
	return def;
}

const char *metric_at(int i) { return metric_name((enum metric)i); }
const char *verdict_at(int i) { return verdict_name((enum verdict)i); }
const char *stop_at(int i) { return stop_name((enum stop_reason)i); }
const char *counter_at(int i) { return counter_name((enum counter)i); }
const char *format_at(int i) { return format_name((enum format)i); }
const char *rule_at(int i) { return rule_name((enum rule)i); }
const char *interval_at(int i)
{
	return interval_name((enum interval_method)i);
}
const char *statistic_at(int i)
{
	return stats_estimator_name((enum stats_estimator)i);
}

enum verdict load_verdict(struct loading *ld, const char *s, enum verdict def)
{
	return (enum verdict)LOOKUP(ld, s, VERDICT_ACCEPTED + 1, verdict,
				    (int)def, "verdict");
}

/* Where sample_value reads metric m. */
static void set_value(struct sample *s, enum metric m, double v)
{
	if (m == METRIC_WALL)
		s->wall = v;
	else if (m == METRIC_CPU)
		s->cpu = v;
	else
		s->value[m] = v;
}

/* A suite case's further value (slot k > 0) by its label ("B/s"), as
   json.c names it in the samples; -1 when none is. */
static int value_slot_named(const struct bench_cfg *c, const char *label)
{
	size_t k;

	for (k = 1; label && k < METRIC_VALUES; k++)
		if (c->values[k].label && !strcmp(c->values[k].label, label))
			return METRIC_VALUE + (int)k;
	return -1;
}

static void load_arm(struct loading *ld, struct sample *s, const cJSON *o,
		     const char *arm, const struct bench_cfg *c)
{
	enum metric m = c->metric;
	char k[32];
	const cJSON *vals, *v;
	int id;

	for (id = 0; id < METRIC_COUNT; id++)
		s->value[id] = NAN;
	for (id = 0; id < SIM_EVENTS; id++)
		s->sim[id] = NAN;
	snprintf(k, sizeof(k), "%s_cache", arm);
	if ((vals = load_get(o, k)))
		for (id = 0; id < SIM_EVENTS; id++)
			s->sim[id] = load_num(vals,
					      sim_event_name((enum sim_event)id),
					      NAN);
	set_value(s, m, load_num(o, arm, NAN));
	snprintf(k, sizeof(k), "%s_values", arm);
	vals = load_get(o, k);
	cJSON_ArrayForEach(v, vals) {
		id = value_slot_named(c, v->string);
		if (id < 0)
			id = LOOKUP(ld, v->string, METRIC_COUNT, metric, -1,
				    "metric");
		if (id >= 0)
			set_value(s, (enum metric)id, cJSON_IsNumber(v) ?
				  v->valuedouble : NAN);
	}
}

static int load_samples(struct loading *ld, struct bench_run *br,
			const cJSON *list)
{
	const cJSON *s;
	size_t i = 0, n = (size_t)cJSON_GetArraySize(list);

	br->pairs = xcalloc(n ? n : 1, sizeof(*br->pairs));
	br->npairs = n;
	cJSON_ArrayForEach(s, list) {
		const char *first = load_text(s, "first");

		br->pairs[i].head_first = first && !strcmp(first, "head");
		/* time, CPU and RSS first: "base" may be the time again */
		fields_read(s, pair_fields, &br->pairs[i], ld);
		load_arm(ld, &br->pairs[i].s[ARM_BASE], s, "base", br->cfg);
		load_arm(ld, &br->pairs[i].s[ARM_HEAD], s, "head", br->cfg);
		i++;
	}
	return ld->failed ? -1 : 0;
}

/* The figures of stats_fields (absent ones NaN or 0), and the arms'
   spreads "metrics" adds. */
static void load_figures(struct bench_stats *st, const cJSON *o,
			 struct loading *ld)
{
	fields_read(o, stats_fields, st, ld);
	st->base_spread = load_num(load_get(o, "base"), "spread", NAN);
	st->head_spread = load_num(load_get(o, "head"), "spread", NAN);
}

/* One entry of "metrics": its figures, and its line of the config. */
/* The Gate-Accept trailer that named a failing metric, if any. */
static void load_accept(struct loading *ld, struct bench_stats *st,
			const cJSON *a)
{
	struct verdict_accept *va;

	if (!a)
		return;
	va = load_keep_mem(ld->L, sizeof(*va));
	fields_read(a, accept_fields, va, ld);
	va->matched = 1;
	st->accept = va;
}

/*
 * A suite case's value k (its metric METRIC_VALUE + k, in order) is the
 * metric the JSON gives a direction ("higher_is_better"): its unit, label
 * and whether it restates the time, as suite_fanout set them.
 */
static void load_value_slot(struct loading *ld, struct bench_cfg *c,
			    size_t k, const cJSON *m)
{
	struct value_slot *vs;
	const char *u = load_text(m, "unit");

	ld->slot = -1;
	if (k >= METRIC_VALUES || !load_get(m, "higher_is_better"))
		return;
	ld->slot = (int)k;
	vs = &c->values[k];
	vs->unit = vs->label = load_keep(ld->L, u ? u : "");
	vs->higher_better = load_flag(m, "higher_is_better");
	vs->throughput = load_flag(m, "throughput");
	vs->counted = unit_is_count(vs->unit);
}

static void load_metric(struct loading *ld, struct bench_stats *st,
			struct metric_cfg *mc, const struct bench_cfg *c,
			const cJSON *o)
{
	/* a suite value is named by its label ("B/op"): its slot says */
	if (ld->slot >= 0)
		st->metric = (enum metric)(METRIC_VALUE + ld->slot);
	else
		st->metric = LOOKUP(ld, load_text(o, "name"), METRIC_COUNT, metric,
				    c->metric, "metric");
	fields_read(o, metric_verdict_fields, st, ld);
	st->floor = load_num(o, "min_effect", c->min_effect);
	st->statistic = c->statistic;
	st->interval = st->interval_used = c->interval;
	fields_read(o, metric_method_fields, st, ld);
	load_accept(ld, st, load_get(o, "accepted"));
	st->rule = c->rule;
	st->target = c->target_halfwidth;
	st->n = load_count(o, "pairs");
	load_figures(st, o, ld);
	mc->id = st->metric;
	mc->gating = st->gating;
	mc->min_effect = st->floor;
	mc->pass_excludes = isfinite(st->excludes) ? st->excludes :
			    2 * st->floor;
}

/* The metrics of c when the report lists none (new, error): the
 * samples' own, else c->metric. */
static void metrics_from_samples(struct loading *ld, struct bench_cfg *c,
				 const cJSON *samples)
{
	const cJSON *v, *vals = load_get(cJSON_GetArrayItem(samples, 0),
				    "base_values");

	cJSON_ArrayForEach(v, vals) {
		if (c->nmetrics == METRIC_COUNT)
			break;
		c->metrics[c->nmetrics].id = LOOKUP(ld, v->string,
			METRIC_COUNT, metric, c->metric, "metric");
		c->metrics[c->nmetrics].gating = 1;
		c->metrics[c->nmetrics].min_effect = c->min_effect;
		c->metrics[c->nmetrics++].pass_excludes = 2 * c->min_effect;
	}
	if (c->nmetrics)
		return;
	c->metrics[0].id = c->metric;
	c->metrics[0].gating = 1;
	c->metrics[0].min_effect = c->min_effect;
	c->metrics[0].pass_excludes = 2 * c->min_effect;
	c->nmetrics = 1;
}

static void load_result(struct loading *ld, struct run_bench *b,
			struct bench_cfg *c, const cJSON *o)
{
	const cJSON *list = load_get(o, "metrics"), *m;
	struct bench_result *res = &b->result;
	enum stop_reason stop;
	size_t looks = load_count(o, "looks"), i;
	const char *s;

	stop = LOOKUP(ld, load_text(o, "stopped"), STOP_ERROR + 1, stop,
		      STOP_NONE, "stop");
	if (cJSON_IsArray(list) && cJSON_GetArraySize(list) > 0) {
		res->n = (size_t)cJSON_GetArraySize(list);
		if (res->n > METRIC_COUNT)
			res->n = METRIC_COUNT;
		res->m = xcalloc(res->n, sizeof(*res->m));
		i = 0;
		cJSON_ArrayForEach(m, list) {
			if (i == res->n)
				break;
			load_value_slot(ld, c, i, m);
			load_metric(ld, &res->m[i], &c->metrics[i], c, m);
			ld->slot = -1;
			i++;
		}
		c->nmetrics = res->n;
	} else {
		metrics_from_samples(ld, c, load_get(o, "samples"));
		/* the reason or looks of a benchmark not analysed */
		if (load_get(o, "reason") || load_get(o, "looks")) {
			res->n = 1;
			res->m = xcalloc(1, sizeof(*res->m));
			res->m[0].metric = c->metric;
			res->m[0].gating = 1;
			res->m[0].verdict = res->verdict;
			res->m[0].floor = c->min_effect;
			res->m[0].statistic = c->statistic;
			res->m[0].interval = c->interval;
			res->m[0].interval_used = c->interval;
			if ((s = load_text(o, "reason")))
				res->m[0].reason = xstrdup(s);
		}
	}
	for (i = 0; i < res->n; i++)
		res->m[i].stop = stop;
	b->looks = looks;
	b->stop = stop;
}

/*
 * The per-pair ratios of b's metrics, which a report holds as samples
 * only: formed again from the samples as the decision formed them
 * (verdict_pair_ratios), so that every printer of a loaded report draws
 * them. Nothing is decided again: the decision is the one the report
 * holds; a metric gets its ratios when as many pairs measured it as the
 * report says it decided on (the ratios are not written back, so the
 * round trip is unchanged).
 */
void load_ratios(struct run_bench *b, const struct run_report *r)
{
	const struct bench_cfg *c = b->run.cfg;
	size_t j, k, n;

	if (b->run.error || !b->run.npairs || b->run.is_new ||
	    b->run.is_removed || !(r->level > 0 && r->level < 1))
		return;
	for (j = 0; j < b->result.n; j++) {
		struct bench_stats *st = &b->result.m[j];
		double *ratios;

		for (k = 0; k < c->nmetrics; k++)
			if (c->metrics[k].id == st->metric)
				break;
		if (k == c->nmetrics || st->ratios)
			continue;
		ratios = verdict_pair_ratios(&b->run, st->metric, &n);
		if (n == st->n)
			st->ratios = ratios;
		else
			free(ratios);
	}
}

/* The configuration json.c wrote beside the figures. */
static void load_cfg(struct loading *ld, struct bench_cfg *c,
		     struct run_bench *b, const cJSON *o)
{
	struct bench_run *br = &b->run;
	const char *unit = load_text(o, "unit"), *s;

	c->name = (char *)load_keep(ld->L, load_text(o, "name"));
	if ((s = load_text(o, "suite")))
		br->suite_name = load_keep(ld->L, s);
	c->metric = LOOKUP(ld, load_text(o, "metric"), METRIC_COUNT, metric,
			   br->suite_name ? METRIC_VALUE : METRIC_WALL,
			   "metric");
	if (br->suite_name || strcmp(unit, metric_unit(c->metric)))
		c->unit = load_keep(ld->L, unit);
	c->format = LOOKUP(ld, load_text(o, "format"), FORMAT_COUNT, format,
			   FORMAT_TIME, "format");
	c->higher_better = load_flag(o, "higher_is_better");
	c->inner = load_count(o, "repetitions");
	c->suite_metric = LOOKUP(ld, load_text(o, "suite_metric"), METRIC_COUNT,
				 metric, METRIC_WALL, "metric");
	br->cfg = c;
	fields_read(o, bench_protocol_fields, b, ld);
	fields_read(o, bench_taken_fields, b, ld);
	if ((s = load_text(o, "error")))
		br->error = xstrdup(s);
}

/* "artifacts": json.c's digests per arm, and whether they were measured */
static void load_artifacts(struct loading *ld, struct bench_run *br,
			   const cJSON *x)
{
	fields_read(x, artifacts_fields, br, ld);
	if (load_flag(x, "identical"))
		br->identical = load_flag(x, "measured") ? 2 : 1;
}

int load_bench(struct loading *ld, struct run_bench *b,
		      struct bench_cfg *c, const cJSON *o)
{
	const cJSON *samples = load_get(o, "samples");
	const char *v = load_text(o, "verdict"), *s;

	/* gate record drops the samples unless --samples */
	if (!load_text(o, "name") || !load_text(o, "unit") ||
	    !(cJSON_IsArray(samples) ||
	      (!samples && (ld->flags & REPORT_LOAD_SUMMARY))))
		return error_to(ld->err, "%s: a benchmark lacks \"name\", "
				"\"unit\" or \"samples\": not a gate JSON "
				"report", ld->origin);
	load_cfg(ld, c, b, o);
	/* a go case's GOMAXPROCS (json.c writes null for none) */
	b->procs = load_whole(o, "gomaxprocs", 0, 1, 999999);
	if (v && !strcmp(v, "removed")) {
		b->run.is_removed = 1;
		b->result.verdict = VERDICT_NEW;
	} else {
		b->result.verdict = LOOKUP(ld, v, VERDICT_ACCEPTED + 1, verdict,
					   b->run.error ? VERDICT_ERROR :
					   VERDICT_PASS, "verdict");
		b->run.is_new = b->result.verdict == VERDICT_NEW;
	}
	b->run.judged = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o,
								   "judged"));
	load_result(ld, b, c, o);
	fields_read(load_get(o, "parity"), parity_fields, &b->run, ld);
	/* a suite's "checked" is its cases': it never compares stdout */
	c->parity = !b->run.suite_name &&
		    !cJSON_IsFalse(load_get(load_get(o, "parity"), "checked"));
	load_artifacts(ld, &b->run, load_get(o, "artifacts"));
	if ((s = load_text(o, "environment_note")))
		b->note = xstrdup(s);
	if (load_samples(ld, &b->run, samples) < 0)
		return -1;
	return ld->failed ? -1 : 0;
}
