/*
 * gate's JSON report read back into the run model: the one reader of gate
 * reports (gate compare reads them through it, gate/format/gatereport.c).
 * It reads what json.c writes, so writing a loaded model again gives the
 * same bytes. A report may lack fields an older gate did not write: they
 * take their zero or default; unknown names and schemas are refused.
 */
#include "gate/report/load.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "common/banned.h"

/* What the model borrows, owned here: configs, strings, the layout. */
struct report_loaded {
	struct bench_cfg *cfg;	/* one per entry of the report */
	size_t ncfg;
	char **str;
	size_t nstr, capstr;
	struct layout layout;
};

static const char *keep(struct report_loaded *L, const char *s)
{
	if (L->nstr == L->capstr) {
		L->capstr = 2 * L->capstr + 16;
		L->str = xrealloc(L->str, L->capstr * sizeof(*L->str));
	}
	return L->str[L->nstr++] = xstrdup(s);
}

/* size zeroed bytes, owned with the strings */
static void *keep_mem(struct report_loaded *L, size_t size)
{
	if (L->nstr == L->capstr) {
		L->capstr = 2 * L->capstr + 16;
		L->str = xrealloc(L->str, L->capstr * sizeof(*L->str));
	}
	return L->str[L->nstr++] = xcalloc(1, size);
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* A number; null (JSON's NaN) and absent give def. */
static double num(const cJSON *o, const char *k, double def)
{
	const cJSON *x = get(o, k);

	return cJSON_IsNumber(x) ? x->valuedouble : def;
}

static int flag(const cJSON *o, const char *k)
{
	return cJSON_IsTrue(get(o, k));
}

static const char *text(const cJSON *o, const char *k)
{
	const cJSON *x = get(o, k);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* A whole number within [lo, hi], else def: a forged report's 1e300 must
   not reach an integer conversion (undefined behaviour). */
static long whole(const cJSON *o, const char *k, long def, long lo, long hi)
{
	double v = num(o, k, (double)def);

	return v >= (double)lo && v <= (double)hi ? (long)v : def;
}

static size_t count(const cJSON *o, const char *k)
{
	double v = num(o, k, 0);

	return v > 0 && v < 1e18 ? (size_t)v : 0;
}

/* The context of one load, for messages. */
struct loading {
	const char *origin;
	struct gate_err *err;	/* NULL: messages are printed */
	struct report_loaded *L;
	int failed;
	int slot;		/* the suite value the metric read is, or -1 */
};

/*
 * Look s up among the n names name_of(0..n) gives: its index, def when
 * s is absent, or def after an error naming what when it is unknown.
 */
#define LOOKUP(ld, s, n, name_of, def, what) \
	lookup_name(ld, s, n, def, what, &(name_of##_at))
static int lookup_name(struct loading *ld, const char *s, int n, int def,
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

static const char *metric_at(int i) { return metric_name((enum metric)i); }
static const char *verdict_at(int i) { return verdict_name((enum verdict)i); }
static const char *stop_at(int i) { return stop_name((enum stop_reason)i); }
static const char *counter_at(int i) { return counter_name((enum counter)i); }
static const char *format_at(int i) { return format_name((enum format)i); }
static const char *rule_at(int i) { return rule_name((enum rule)i); }
static const char *interval_at(int i)
{
	return interval_name((enum interval_method)i);
}
static const char *statistic_at(int i)
{
	return stats_estimator_name((enum stats_estimator)i);
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

	s->wall = s->cpu = NAN;
	for (id = 0; id < METRIC_COUNT; id++)
		s->value[id] = NAN;
	set_value(s, m, num(o, arm, NAN));
	snprintf(k, sizeof(k), "%s_wall", arm);
	if (get(o, k))
		s->wall = num(o, k, NAN);
	snprintf(k, sizeof(k), "%s_cpu", arm);
	if (get(o, k))
		s->cpu = num(o, k, NAN);
	snprintf(k, sizeof(k), "%s_maxrss_kb", arm);
	s->maxrss_kb = whole(o, k, 0, 0, LONG_MAX / 2);
	snprintf(k, sizeof(k), "%s_values", arm);
	vals = get(o, k);
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
		const char *first = text(s, "first");

		br->pairs[i].head_first = first && !strcmp(first, "head");
		load_arm(ld, &br->pairs[i].s[ARM_BASE], s, "base", br->cfg);
		load_arm(ld, &br->pairs[i].s[ARM_HEAD], s, "head", br->cfg);
		i++;
	}
	return ld->failed ? -1 : 0;
}

/* The figures stats_json wrote (absent ones NaN or 0). */
static void load_figures(struct bench_stats *st, const cJSON *o)
{
	const cJSON *x;

	x = get(o, "ratio");
	st->estimate = num(x, "estimate", NAN);
	st->median = num(x, "median", NAN);
	st->low = num(x, "low", NAN);
	st->high = num(x, "high", NAN);
	st->level = num(x, "level", NAN);
	st->geomean = num(x, "geomean", NAN);
	st->excludes = num(o, "pass_excludes", NAN);
	st->strict = flag(o, "strict");
	st->min_n = count(o, "min_pairs_for_interval");
	x = get(o, "tests");
	st->wilcoxon_p = num(x, "wilcoxon_p", NAN);
	st->mann_whitney_p = num(x, "mann_whitney_p", NAN);
	st->outliers = count(o, "outliers");
	st->drift = num(o, "drift", NAN);
	x = get(o, "wins");
	st->head_slower = count(x, "head_slower");
	st->of = count(x, "of");
	st->sign_p = num(x, "p", NAN);
	x = get(o, "base");
	st->base_median = num(x, "median", NAN);
	st->base_cv = num(x, "cv", NAN);
	st->base_spread = num(x, "spread", NAN);
	x = get(o, "head");
	st->head_median = num(x, "median", NAN);
	st->head_cv = num(x, "cv", NAN);
	st->head_spread = num(x, "spread", NAN);
}

/* One entry of "metrics": its figures, and its line of the config. */
/* The Gate-Accept trailer that named a failing metric, if any. */
static void load_accept(struct loading *ld, struct bench_stats *st,
			const cJSON *a)
{
	struct verdict_accept *va;
	const char *s;

	if (!a)
		return;
	va = keep_mem(ld->L, sizeof(*va));
	va->pattern = keep(ld->L, (s = text(a, "pattern")) ? s : "");
	va->bound = num(a, "bound", 0);
	va->commit = keep(ld->L, (s = text(a, "commit")) ? s : "");
	va->reason = keep(ld->L, (s = text(a, "reason")) ? s : "");
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
	const char *u = text(m, "unit");

	ld->slot = -1;
	if (k >= METRIC_VALUES || !get(m, "higher_is_better"))
		return;
	ld->slot = (int)k;
	vs = &c->values[k];
	vs->unit = vs->label = keep(ld->L, u ? u : "");
	vs->higher_better = flag(m, "higher_is_better");
	vs->throughput = flag(m, "throughput");
	vs->counted = unit_is_count(vs->unit);
}

static void load_metric(struct loading *ld, struct bench_stats *st,
			struct metric_cfg *mc, const struct bench_cfg *c,
			const cJSON *o)
{
	const char *s;

	/* a suite value is named by its label ("B/op"): its slot says */
	if (ld->slot >= 0)
		st->metric = (enum metric)(METRIC_VALUE + ld->slot);
	else
		st->metric = LOOKUP(ld, text(o, "name"), METRIC_COUNT, metric,
				    c->metric, "metric");
	st->gating = flag(o, "gating");
	st->verdict = LOOKUP(ld, text(o, "verdict"), VERDICT_ACCEPTED + 1,
			     verdict, VERDICT_ERROR, "verdict");
	if ((s = text(o, "reason")))
		st->reason = xstrdup(s);
	st->floor = num(o, "min_effect", c->min_effect);
	st->varies = flag(o, "counts_vary");
	st->exact = flag(o, "exact");
	st->statistic = c->statistic;
	st->interval = c->interval;
	st->interval_used = LOOKUP(ld, text(o, "interval_used"),
				   INTERVAL_BCA + 1, interval, c->interval,
				   "interval");
	if ((s = text(o, "interval_why")))
		st->interval_why = keep(ld->L, s);
	load_accept(ld, st, get(o, "accepted"));
	st->improved = flag(o, "improved");
	st->rule = c->rule;
	st->target = c->target_halfwidth;
	st->n = count(o, "pairs");
	load_figures(st, o);
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
	const cJSON *v, *vals = get(cJSON_GetArrayItem(samples, 0),
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
	const cJSON *list = get(o, "metrics"), *m;
	struct bench_result *res = &b->result;
	enum stop_reason stop;
	size_t looks = count(o, "looks"), i;
	const char *s;

	stop = LOOKUP(ld, text(o, "stopped"), STOP_ERROR + 1, stop,
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
		metrics_from_samples(ld, c, get(o, "samples"));
		/* the reason or looks of a benchmark not analysed */
		if (get(o, "reason") || get(o, "looks")) {
			res->n = 1;
			res->m = xcalloc(1, sizeof(*res->m));
			res->m[0].metric = c->metric;
			res->m[0].gating = 1;
			res->m[0].verdict = res->verdict;
			res->m[0].floor = c->min_effect;
			res->m[0].statistic = c->statistic;
			res->m[0].interval = c->interval;
			res->m[0].interval_used = c->interval;
			if ((s = text(o, "reason")))
				res->m[0].reason = xstrdup(s);
		}
	}
	for (i = 0; i < res->n; i++) {
		res->m[i].looks = looks;
		res->m[i].stop = stop;
	}
	b->primary.looks = looks;
	b->primary.stop = stop;
}

/*
 * The per-pair ratios of b's metrics, which a report holds as samples
 * only: computed again from the samples, so that every printer of a loaded
 * report draws them (the decision is the one the report holds and stays;
 * the ratios are not written back, so the round trip is unchanged).
 */
static void load_ratios(struct run_bench *b, const struct run_report *r)
{
	struct bench_result tmp;
	struct verdict_opts vo = { 1 - r->level, 200, r->seed, r->strict };
	size_t j, k;

	if (b->run.error || !b->run.npairs || b->run.is_new ||
	    b->run.is_removed || !(r->level > 0 && r->level < 1))
		return;
	memset(&tmp, 0, sizeof(tmp));
	verdict_bench(&tmp, &b->run, &vo);
	for (j = 0; j < b->result.n; j++)
		for (k = 0; k < tmp.n; k++)
			if (!b->result.m[j].ratios &&
			    tmp.m[k].metric == b->result.m[j].metric &&
			    tmp.m[k].ratios && tmp.m[k].n == b->result.m[j].n) {
				b->result.m[j].ratios = tmp.m[k].ratios;
				tmp.m[k].ratios = NULL;
			}
	bench_result_release(&tmp);
}

/* "identical in 12 samples", "same cases in 12 samples", "not checked". */
static void load_parity(struct bench_run *br, struct bench_cfg *c,
			const cJSON *p)
{
	static const char *const arms[2] = { "base", "head" };
	int a;

	for (a = 0; a < 2; a++) {
		const char *s = text(p, arms[a]);
		size_t n;

		if (!s)
			continue;
		if (!strcmp(s, "not checked (parity: false)"))
			c->parity = 0;
		else if (sscanf(s, "identical in %zu samples", &n) == 1 ||
			 sscanf(s, "same cases in %zu samples", &n) == 1)
			br->nsamples[a] = n;
	}
	br->parity_differs = flag(p, "arms_differ");
}

/* The configuration json.c wrote beside the figures. */
static void load_cfg(struct loading *ld, struct bench_cfg *c,
		     struct bench_run *br, const cJSON *o)
{
	const char *unit = text(o, "unit"), *s;

	c->name = (char *)keep(ld->L, text(o, "name"));
	if ((s = text(o, "suite")))
		br->suite_name = keep(ld->L, s);
	c->metric = LOOKUP(ld, text(o, "metric"), METRIC_COUNT, metric,
			   br->suite_name ? METRIC_VALUE : METRIC_WALL,
			   "metric");
	if (br->suite_name || strcmp(unit, metric_unit(c->metric)))
		c->unit = keep(ld->L, unit);
	c->format = LOOKUP(ld, text(o, "format"), FORMAT_GATE + 1, format,
			   FORMAT_TIME, "format");
	c->higher_better = flag(o, "higher_is_better");
	c->inner = count(o, "repetitions");
	c->suite_metric = LOOKUP(ld, text(o, "suite_metric"), METRIC_COUNT,
				 metric, METRIC_WALL, "metric");
	c->min_effect = num(o, "min_effect", 0);
	c->warmup = (unsigned)count(o, "warmup");
	c->pairs = (unsigned)count(o, "min_pairs");
	c->max_pairs = (unsigned)count(o, "max_pairs");
	c->target_halfwidth = num(o, "target_halfwidth", 0);
	c->rule = LOOKUP(ld, text(o, "rule"), RULE_SIGNIFICANT + 1, rule,
			 RULE_FLOOR, "rule");
	c->statistic = LOOKUP(ld, text(o, "statistic"), STATS_MEAN + 1,
			      statistic, STATS_HL, "statistic");
	c->interval = LOOKUP(ld, text(o, "interval"), INTERVAL_BCA + 1,
			     interval, INTERVAL_EXACT, "interval");
	c->parity = 1;
	br->cfg = c;
	br->seconds = num(o, "seconds", 0);
	br->pairs_raised_from = (unsigned)count(o, "pairs_raised_from");
	br->pairs_needed = (unsigned)count(o, "pairs_needed");
	br->counter = LOOKUP(ld, text(o, "counter"), COUNTER_VALGRIND + 1,
			     counter, COUNTER_AUTO, "counter");
	br->plain_runs = flag(o, "plain_runs");
	if ((s = text(o, "alloc_lib")))
		br->alloc_lib = xstrdup(s);
	if ((s = text(o, "error")))
		br->error = xstrdup(s);
}

/* "artifacts": json.c's digests per arm, back into br. */
static void load_artifacts(struct bench_run *br, const cJSON *x)
{
	static const char *const arms[2] = { "base", "head" };
	const cJSON *files = get(x, "files"), *f;
	size_t n = 0;
	int a;

	if (!cJSON_IsArray(files) || !cJSON_GetArraySize(files))
		return;
	br->artifacts = xcalloc((size_t)cJSON_GetArraySize(files),
				sizeof(*br->artifacts));
	cJSON_ArrayForEach(f, files) {
		const char *path = text(f, "path");

		if (!path)
			continue;
		br->artifacts[n].path = xstrdup(path);
		for (a = 0; a < 2; a++) {
			const char *h = text(f, arms[a]);

			snprintf(br->artifacts[n].sha256[a],
				 sizeof(br->artifacts[n].sha256[a]), "%s",
				 h ? h : "");
		}
		n++;
	}
	br->nartifacts = n;
	if (flag(x, "identical"))
		br->identical = flag(x, "measured") ? 2 : 1;
}

static int load_bench(struct loading *ld, struct run_bench *b,
		      struct bench_cfg *c, const cJSON *o)
{
	const cJSON *samples = get(o, "samples");
	const char *v = text(o, "verdict"), *s;

	if (!text(o, "name") || !text(o, "unit") || !cJSON_IsArray(samples))
		return error_to(ld->err, "%s: a benchmark lacks \"name\", "
				"\"unit\" or \"samples\": not a gate JSON "
				"report", ld->origin);
	load_cfg(ld, c, &b->run, o);
	if (v && !strcmp(v, "removed")) {
		b->run.is_removed = 1;
		b->result.verdict = VERDICT_NEW;
	} else {
		b->result.verdict = LOOKUP(ld, v, VERDICT_ACCEPTED + 1, verdict,
					   b->run.error ? VERDICT_ERROR :
					   VERDICT_PASS, "verdict");
		b->run.is_new = b->result.verdict == VERDICT_NEW;
	}
	load_result(ld, b, c, o);
	load_parity(&b->run, c, get(o, "parity"));
	load_artifacts(&b->run, get(o, "artifacts"));
	if ((s = text(o, "environment_note")))
		b->note = xstrdup(s);
	if (load_samples(ld, &b->run, samples) < 0)
		return -1;
	run_bench_view(b);
	return ld->failed ? -1 : 0;
}

static void load_rev(struct loading *ld, struct report_rev *v,
		     const cJSON *o)
{
	const char *s;

	v->label = keep(ld->L, (s = text(o, "rev")) ? s : "");
	v->commit = keep(ld->L, (s = text(o, "commit")) ? s : "");
	v->tree = keep(ld->L, (s = text(o, "tree")) ? s : "");
	if ((s = text(o, "chosen_as")))
		v->how = keep(ld->L, s);
	v->worktree = get(o, "uncommitted_changes") != NULL;
	v->dirty = flag(o, "uncommitted_changes");
}

static void load_string(char *dst, size_t size, const cJSON *o,
			const char *k)
{
	const char *s = text(o, k);

	snprintf(dst, size, "%s", s ? s : "unknown");
}

static void load_machine(struct machine *m, const cJSON *o)
{
	const cJSON *lb = get(o, "load_before"), *la = get(o, "load_after");
	int i;

	load_string(m->cpu, sizeof(m->cpu), o, "cpu");
	m->cores = whole(o, "cores", 0, 0, 1L << 30);
	load_string(m->smt, sizeof(m->smt), o, "smt");
	load_string(m->governor, sizeof(m->governor), o, "governor");
	load_string(m->turbo, sizeof(m->turbo), o, "turbo");
	load_string(m->virt, sizeof(m->virt), o, "virtualisation");
	load_string(m->kernel, sizeof(m->kernel), o, "kernel");
	load_string(m->aslr, sizeof(m->aslr), o, "aslr");
	load_string(m->isolated, sizeof(m->isolated), o, "isolated_cpus");
	load_string(m->counters, sizeof(m->counters), o, "hardware_counters");
	m->perf_paranoid = (int)whole(o, "perf_event_paranoid", -99, -99, 99);
	for (i = 0; i < 3; i++) {
		const cJSON *b = cJSON_GetArrayItem(lb, i);
		const cJSON *a = cJSON_GetArrayItem(la, i);

		m->load_before[i] = cJSON_IsNumber(b) ? b->valuedouble : -1;
		m->load_after[i] = cJSON_IsNumber(a) ? a->valuedouble : -1;
	}
}

static void load_conditions(struct loading *ld, struct run_report *r,
			    const cJSON *o)
{
	struct layout *l = &ld->L->layout;
	const char *s, *arms = text(o, "arm_dirs");
	double mean = num(o, "env_pad_mean", 0);

	if ((s = text(o, "base_dir")))
		r->arm_dir[ARM_BASE] = keep(ld->L, s);
	if ((s = text(o, "head_dir")))
		r->arm_dir[ARM_HEAD] = keep(ld->L, s);
	r->arms_random = !arms ? 0 : !strcmp(arms, "kept") ? 2 :
			  !strcmp(arms, "random");
	l->env_pad = num(o, "env_pad_max", 0) > 0;
	l->samples = (unsigned long)count(o, "env_pad_samples");
	l->pad_total = (unsigned long)llround(mean * (double)l->samples);
	if ((s = text(o, "scratch")))
		l->scratch = (char *)keep(ld->L, s);
	if ((s = text(o, "pin")))
		r->pin = keep(ld->L, s);
	r->layout = l;
}

/* Which config decided, and how head's differed from base's. */
static void load_policy(struct loading *ld, struct run_report *r,
			const cJSON *p)
{
	const cJSON *list = get(p, "policy_differences"), *it;
	const char **diff;
	const char *s;
	size_t n = 0;

	if ((s = text(p, "policy")))
		r->policy = keep(ld->L, s);
	if (!cJSON_IsArray(list) || !cJSON_GetArraySize(list))
		return;
	diff = keep_mem(ld->L, (size_t)cJSON_GetArraySize(list) *
			sizeof(*diff));
	cJSON_ArrayForEach(it, list)
		if (cJSON_IsString(it))
			diff[n++] = keep(ld->L, it->valuestring);
	r->policy_diff = diff;
	r->npolicy_diff = n;
}

/* "time": where the run's time went */
static void load_time(struct run_report *r, const cJSON *t)
{
	const cJSON *b = get(t, "build");

	r->build_seconds[ARM_BASE] = num(b, "base", 0);
	r->build_seconds[ARM_HEAD] = num(b, "head", 0);
	r->measure_seconds = num(t, "measuring", 0);
	r->total_seconds = num(t, "total", 0);
}

/* "shard.split": the suites split by case over the shards */
static void load_split(struct loading *ld, struct run_report *r,
		       const cJSON *list)
{
	struct run_split *sp;
	const cJSON *o;
	size_t k = 0;

	if (!cJSON_IsArray(list) || !cJSON_GetArraySize(list))
		return;
	sp = keep_mem(ld->L, (size_t)cJSON_GetArraySize(list) * sizeof(*sp));
	cJSON_ArrayForEach(o, list) {
		const char *s = text(o, "suite");

		sp[k].suite = keep(ld->L, s ? s : "");
		sp[k++].cases = count(o, "cases");
	}
	r->split = sp;
	r->nsplit = k;
}

static void load_protocol(struct loading *ld, struct run_report *r,
			  const cJSON *p)
{
	const cJSON *sh;
	const char *s;

	r->config_origin = keep(ld->L, (s = text(p, "config")) ? s : "");
	if ((s = text(p, "config_note")))
		r->config_note = keep(ld->L, s);
	load_policy(ld, r, p);
	r->seed = (unsigned long)whole(p, "seed", 0, 0, 4294967295L);
	r->level = num(p, "one_sided_level", num(p, "adjusted_confidence",
						  0));
	r->strict = flag(p, "strict");
	r->budget = num(p, "budget_seconds", 0);
	r->resamples = (unsigned)whole(p, "resamples", 0, 0, 1L << 30);
	r->confidence = num(p, "confidence", 0);
	r->compared = count(p, "compared");
	if ((s = text(p, "config_hash")))
		r->config_hash = keep(ld->L, s);
	if ((sh = get(p, "shard"))) {
		r->shard = (unsigned)count(sh, "index");
		r->nshards = (unsigned)count(sh, "count");
		r->elsewhere = count(sh, "compared_elsewhere");
		load_split(ld, r, get(sh, "split"));
	}
	load_conditions(ld, r, get(p, "conditions"));
}

/* Refuse a report this gate cannot read: only schema REPORT_SCHEMA. */
static int check_schema(const cJSON *root, const char *origin,
			struct gate_err *err)
{
	const cJSON *v = get(root, "schema");
	const char *by = text(root, "gate_version");

	if (!cJSON_IsNumber(v))
		return error_to(err, "%s: no numeric \"schema\": not a gate "
				"JSON report this gate reads (it reads schema "
				"%d)", origin, REPORT_SCHEMA);
	if (v->valuedouble != REPORT_SCHEMA)
		return error_to(err, "%s: report schema %g is not one this "
				"gate reads (it reads schema %d); read it with "
				"the gate that wrote it%s%s", origin,
				v->valuedouble, REPORT_SCHEMA,
				by ? ", version " : "", by ? by : "");
	return 0;
}

static int load_root(struct loading *ld, struct run_report *r,
		     const cJSON *root)
{
	const cJSON *list = get(root, "benchmarks"), *o;
	const char *s = text(root, "verdict");
	size_t i = 0;

	if (check_schema(root, ld->origin, ld->err) < 0)
		return -1;
	if (!cJSON_IsArray(list))
		return error_to(ld->err, "%s: no \"benchmarks\" list: not a "
				"gate JSON report", ld->origin);
	if ((s = text(root, "gate_version")))
		r->gate_version = keep(ld->L, s);
	s = text(root, "verdict");
	if (s && !strcmp(s, "interrupted"))
		r->interrupted = (int)whole(root, "signal", SIGINT, 1, 64);
	else
		r->suite = LOOKUP(ld, s, VERDICT_ACCEPTED + 1, verdict,
				  VERDICT_PASS, "verdict");
	r->exit_code = (int)whole(root, "exit_code", 0, 0, 255);
	r->advisory = flag(root, "advisory");
	load_rev(ld, &r->rev[ARM_BASE], get(root, "base"));
	load_rev(ld, &r->rev[ARM_HEAD], get(root, "head"));
	load_protocol(ld, r, get(root, "protocol"));
	load_time(r, get(root, "time"));
	load_machine(&r->machine, get(root, "environment"));
	if ((s = text(root, "error")))
		r->error = keep(ld->L, s);
	ld->L->ncfg = (size_t)cJSON_GetArraySize(list);
	ld->L->cfg = xcalloc(ld->L->ncfg ? ld->L->ncfg : 1,
			     sizeof(*ld->L->cfg));
	run_alloc(r, ld->L->ncfg);
	cJSON_ArrayForEach(o, list) {
		if (load_bench(ld, &r->b[i], &ld->L->cfg[i], o) < 0)
			return -1;
		i++;
	}
	for (i = 0; i < r->n; i++)
		load_ratios(&r->b[i], r);
	if (r->interrupted) {
		enum verdict *v = xcalloc(r->n + 1, sizeof(*v));

		for (i = 0; i < r->n; i++)
			v[i] = r->b[i].result.verdict;
		r->suite = verdict_suite(v, r->n);
		free(v);
	}
	return ld->failed ? -1 : 0;
}

int report_load_to(struct run_report *r, const char *text, size_t len,
		   const char *origin, struct gate_err *err)
{
	cJSON *root;
	struct loading ld = { origin, err, NULL, 0, -1 };
	int ret;

	memset(r, 0, sizeof(*r));
	if (!(root = format_json_to(text, len, origin, "gate report", err)))
		return -1;
	ld.L = xcalloc(1, sizeof(*ld.L));
	r->loaded = ld.L;
	ret = load_root(&ld, r, root);
	cJSON_Delete(root);
	if (ret < 0)
		report_load_release(r);
	return ret;
}

int report_load(struct run_report *r, const char *text, size_t len,
		const char *origin)
{
	return report_load_to(r, text, len, origin, NULL);
}

void report_load_release(struct run_report *r)
{
	struct report_loaded *L = r->loaded;
	size_t i;

	run_release(r);
	if (L) {
		for (i = 0; i < L->nstr; i++)
			free(L->str[i]);
		free(L->str);
		free(L->cfg);
		free(L);
	}
	memset(r, 0, sizeof(*r));
}
