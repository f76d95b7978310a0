/*
 * The JSON report (schema 1): the run model serialised, every sample
 * included, so any figure can be recomputed from the file alone and
 * report_load (load.c) reads it back into the model. Every sentence
 * written here is derived from facts the file also holds, so writing,
 * loading and writing again gives the same bytes. Stable: fields are
 * added, never renamed or removed, without a schema bump. A field that
 * is a member of the model, or a sentence said from members, is a row of
 * gate/report/load-fields.c, which the loader reads from too; what is
 * written by hand here is computed from the config or a benchmark's
 * metrics, or named by them (a sample's values).
 */
#include "gate/report/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/replace.h"
#include "gate/format/format.h"
#include "gate/decide/suite.h"
#include "gate/report/load-fields.h"
#include "common/banned.h"

/* The Gate-Accept trailer that named a failing metric, and whether the
   regression lies within it ("accepted") or beyond ("exceeded"). */
static void accept_json(cJSON *o, const struct bench_stats *st)
{
	cJSON *a;

	if (!st->accept)
		return;
	a = cJSON_AddObjectToObject(o, "accepted");
	fields_write(a, accept_fields, st->accept);
	cJSON_AddBoolToObject(a, "within", st->verdict == VERDICT_ACCEPTED);
}

static cJSON *metric_json(const struct bench_run *br,
			  const struct bench_stats *st)
{
	cJSON *o = cJSON_CreateObject();
	char iv[160];

	const struct value_slot *vs = bench_value_slot(br->cfg, st->metric);

	cJSON_AddStringToObject(o, "name", view_metric_label(br->cfg,
							     st->metric));
	cJSON_AddStringToObject(o, "unit", vs ? vs->unit :
				st->metric == METRIC_VALUE &&
				br->cfg->unit ? br->cfg->unit :
				metric_unit(st->metric));
	if (vs)
		cJSON_AddBoolToObject(o, "higher_is_better",
				      vs->higher_better);
	if (vs && vs->throughput)
		cJSON_AddBoolToObject(o, "throughput", 1);
	fields_write(o, metric_verdict_fields, st);
	accept_json(o, st);
	cJSON_AddNumberToObject(o, "min_effect", st->floor);
	/* the view's words, so no report names another method */
	cJSON_AddStringToObject(o, "method", view_method(st, br->cfg, iv,
							 sizeof(iv)));
	/* the facts the method says, for report_load */
	fields_write(o, metric_method_fields, st);
	if (st->metric == METRIC_INSTRUCTIONS)
		cJSON_AddStringToObject(o, "counter", counter_name(br->counter));
	cJSON_AddNumberToObject(o, "pairs", (double)st->n);
	if (st->n) {
		fields_write(o, stats_fields, st);
		fields_num(cJSON_GetObjectItem(o, "base"), "spread",
			st->base_spread);
		fields_num(cJSON_GetObjectItem(o, "head"), "spread",
			st->head_spread);
	}
	return o;
}

static cJSON *values_json(const struct bench_cfg *c, const struct sample *s)
{
	cJSON *o = cJSON_CreateObject();
	size_t k;

	for (k = 0; k < c->nmetrics; k++)
		fields_num(o, view_metric_label(c, c->metrics[k].id),
			sample_value(s, c->metrics[k].id));
	return o;
}

/*
 * A suite case's throughput figures (each a metric restating the time,
 * decided with it): "throughput": [{ "unit", "base", "head" }], medians.
 */
static void throughput_json(cJSON *o, const struct bench_run *br,
			    const struct bench_result *res)
{
	cJSON *list = NULL;
	size_t k;

	for (k = 0; k < res->n; k++) {
		const struct value_slot *vs = bench_value_slot(br->cfg,
							       res->m[k].metric);
		cJSON *x;

		if (!vs || !vs->throughput)
			continue;
		if (!list)
			list = cJSON_AddArrayToObject(o, "throughput");
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "unit", vs->unit);
		fields_num(x, "base", res->m[k].base_median);
		fields_num(x, "head", res->m[k].head_median);
		cJSON_AddItemToArray(list, x);
	}
}

/* A suite case's suite, format, direction, reduction and throughput;
 * a go case's GOMAXPROCS, the "-N" dropped from its name (null: none). */
static void bench_suite_json(cJSON *o, const struct run_bench *b)
{
	const struct bench_run *br = &b->run;
	const struct bench_result *res = &b->result;
	const struct bench_cfg *c = br->cfg;
	char red[64];
	int procs = (format_reader(c->format)->flags & FMT_NAME_PROCS) != 0;

	cJSON_AddStringToObject(o, "suite", br->suite_name);
	cJSON_AddStringToObject(o, "format", format_name(c->format));
	if (procs && b->procs > 0)
		cJSON_AddNumberToObject(o, "gomaxprocs", (double)b->procs);
	else if (procs)
		cJSON_AddNullToObject(o, "gomaxprocs");
	cJSON_AddBoolToObject(o, "higher_is_better", c->higher_better);
	cJSON_AddStringToObject(o, "reduction",
				suite_reduction(br, red, sizeof(red)));
	cJSON_AddNumberToObject(o, "repetitions", (double)c->inner);
	cJSON_AddStringToObject(o, "suite_metric",
				metric_name(c->suite_metric));
	throughput_json(o, br, res);
}

/* The benchmark's protocol, and how it stopped. */
static void bench_protocol_json(cJSON *o, const struct run_bench *b,
				const struct bench_stats *primary)
{
	fields_write(o, bench_protocol_fields, b);
	if (b->result.verdict != VERDICT_NEW && primary) {
		cJSON_AddNumberToObject(o, "looks", (double)b->looks);
		cJSON_AddStringToObject(o, "stopped", stop_name(b->stop));
	}
}

/* How the samples were taken: counter, plain runs, allocation library. */
static void bench_taken_json(cJSON *o, const struct run_bench *b)
{
	char scheme[512];

	cJSON_AddStringToObject(o, "samples_taken", measure_scheme(&b->run,
				scheme, sizeof(scheme)));
	/* the facts samples_taken says, for report_load */
	fields_write(o, bench_taken_fields, b);
}

/*
 * The raw events behind a sample's cycles estimate (cachegrind's names),
 * under key, when the sample ran the cache simulation (a simulated run
 * reads at least one instruction).
 */
static void cache_json(cJSON *s, const char *key, const struct sample *x)
{
	cJSON *o;
	int k;

	if (!(x->sim[SIM_IR] > 0))	/* NAN: not simulated */
		return;
	o = cJSON_AddObjectToObject(s, key);
	for (k = 0; k < SIM_EVENTS; k++)
		fields_num(o, sim_event_name((enum sim_event)k), x->sim[k]);
}

/* Pair i (from 0): its order, the metric's values, time, RSS, values. */
static cJSON *sample_json(const struct pair_result *pr, size_t i,
			  const struct bench_cfg *c)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddNumberToObject(s, "pair", (double)(i + 1));
	cJSON_AddStringToObject(s, "first", pr->head_first ? "head" : "base");
	fields_num(s, "base", sample_value(&pr->s[ARM_BASE], c->metric));
	fields_num(s, "head", sample_value(&pr->s[ARM_HEAD], c->metric));
	fields_write(s, pair_fields, pr);
	cJSON_AddItemToObject(s, "base_values",
			      values_json(c, &pr->s[ARM_BASE]));
	cJSON_AddItemToObject(s, "head_values",
			      values_json(c, &pr->s[ARM_HEAD]));
	cache_json(s, "base_cache", &pr->s[ARM_BASE]);
	cache_json(s, "head_cache", &pr->s[ARM_HEAD]);
	return s;
}

static cJSON *bench_json(const struct run_bench *b)
{
	const struct bench_run *br = &b->run;
	const struct bench_result *res = &b->result;
	const struct bench_cfg *c = br->cfg;
	const struct bench_stats *primary = run_bench_primary(b);
	const struct bench_stats *decider = NULL;
	cJSON *o = cJSON_CreateObject(), *samples, *list;
	size_t i;

	/* the reason is the deciding metric's (the first gating one with
	 * the benchmark's verdict), as every headline's: a fail in
	 * instructions is not explained by wall time's pass */
	for (i = 0; i < res->n && !decider; i++)
		if (res->m[i].gating && res->m[i].verdict == res->verdict)
			decider = &res->m[i];
	if (!decider)
		decider = primary;
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "metric", metric_name(c->metric));
	cJSON_AddStringToObject(o, "unit", c->unit ? c->unit :
				metric_unit(c->metric));
	cJSON_AddStringToObject(o, "verdict", br->is_removed ? "removed" :
				verdict_name(res->verdict));
	if (br->suite_name)
		bench_suite_json(o, b);
	/* removed or redefined: decided by the arms' rules, not measured
	   (absent otherwise, as in reports from before it existed) */
	if (br->judged)
		cJSON_AddTrueToObject(o, "judged");
	if (decider && decider->reason)
		cJSON_AddStringToObject(o, "reason", decider->reason);
	for (i = 0; i < res->n; i++)
		if (res->m[i].gating && res->m[i].accept) {
			accept_json(o, &res->m[i]);
			break;
		}
	bench_protocol_json(o, b, primary);
	/* heuristics (load, calibration): notes, never the verdict */
	if (b->note)
		cJSON_AddStringToObject(o, "environment_note", b->note);
	else
		cJSON_AddNullToObject(o, "environment_note");
	if (res->verdict != VERDICT_NEW)
		bench_taken_json(o, b);
	/* the first gating metric's figures, repeated from "metrics" (as
	   schema 1 had them before it) */
	if (res->verdict != VERDICT_NEW && primary && primary->n && !br->error)
		fields_write(o, stats_fields, primary);
	if (br->nartifacts)
		fields_write(cJSON_AddObjectToObject(o, "artifacts"),
			     artifacts_fields, br);
	/* an identical build: its reason and looks, no metrics analysed */
	if (res->verdict != VERDICT_NEW && !br->error && br->identical != 1) {
		list = cJSON_AddArrayToObject(o, "metrics");
		for (i = 0; i < res->n; i++)
			cJSON_AddItemToArray(list, metric_json(br, &res->m[i]));
	}
	if (res->verdict != VERDICT_NEW)
		fields_write(cJSON_AddObjectToObject(o, "parity"),
			     parity_fields, br);
	samples = cJSON_AddArrayToObject(o, "samples");
	for (i = 0; i < br->npairs; i++)
		cJSON_AddItemToArray(samples, sample_json(&br->pairs[i], i, c));
	if (br->error)
		cJSON_AddStringToObject(o, "error", br->error);
	else
		cJSON_AddNullToObject(o, "error");
	return o;
}

static void add_layout(cJSON *protocol, const struct run_report *r)
{
	const struct layout *l = r->layout;
	cJSON *o = cJSON_AddObjectToObject(protocol, "conditions");

	if (r->arm_dir[0]) {
		cJSON_AddStringToObject(o, "base_dir", r->arm_dir[ARM_BASE]);
		cJSON_AddStringToObject(o, "head_dir", r->arm_dir[ARM_HEAD]);
	}
	cJSON_AddStringToObject(o, "arm_dirs", r->arms_random == 2 ? "kept" :
				r->arms_random ? "random" : "fixed");
	cJSON_AddNumberToObject(o, "env_pad_max", l && l->env_pad ?
				LAYOUT_PAD_MAX : 0);
	if (l && l->env_pad && l->samples) {
		cJSON_AddNumberToObject(o, "env_pad_mean",
					(double)l->pad_total / l->samples);
		cJSON_AddNumberToObject(o, "env_pad_samples",
					(double)l->samples);
	}
	if (l && l->scratch)
		cJSON_AddStringToObject(o, "scratch", l->scratch);
	else
		cJSON_AddNullToObject(o, "scratch");
	if (r->pin)
		cJSON_AddStringToObject(o, "pin", r->pin);
	else
		cJSON_AddNullToObject(o, "pin");
}

static cJSON *build_json(const struct run_report *r)
{
	cJSON *root = cJSON_CreateObject(), *p, *list;
	size_t i;

	cJSON_AddNumberToObject(root, "schema", REPORT_SCHEMA);
	cJSON_AddStringToObject(root, "gate_version", r->gate_version ?
				r->gate_version : GATE_VERSION);
	cJSON_AddStringToObject(root, "verdict", r->interrupted ?
				"interrupted" : verdict_name(r->suite));
	if (r->interrupted)
		cJSON_AddNumberToObject(root, "signal", r->interrupted);
	fields_write(root, report_fields, r);
	/* the protocol's computed tail, after its rows */
	p = cJSON_GetObjectItemCaseSensitive(root, "protocol");
	if (r->nshards)
		fields_write(cJSON_AddObjectToObject(p, "shard"),
			     shard_fields, r);
	cJSON_AddNumberToObject(p, "exact_tolerance", METRIC_EXACT_TOLERANCE);
	add_layout(p, r);
	list = cJSON_AddArrayToObject(root, "benchmarks");
	for (i = 0; i < r->n; i++)
		cJSON_AddItemToArray(list, bench_json(&r->b[i]));
	return root;
}

int report_json(const char *path, const struct run_report *r)
{
	cJSON *root = build_json(r);
	char *text = cJSON_Print(root);
	char *whole;
	int ret;

	cJSON_Delete(root);
	if (!text)
		return error("cannot format the JSON report: out of memory");
	whole = xasprintf("%s\n", text);
	free(text);
	ret = file_replace(path, whole, strlen(whole), "the JSON report");
	free(whole);
	return ret;
}
