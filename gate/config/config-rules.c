/*
 * gate.json's rules across keys, checked once a benchmark or the file is
 * read whole: the built-in defaults, floors against pass_excludes,
 * max_pairs against pairs, which metrics gate, what a suite may measure,
 * unique names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "gate/config/config-internal.h"
#include "common/banned.h"

int config_rules_metric_pair(struct parser *p, const cJSON *obj)
{
	const cJSON *m;
	size_t j;

	if (!cJSON_GetObjectItemCaseSensitive(obj, "metric") ||
	    !cJSON_GetObjectItemCaseSensitive(obj, "metrics"))
		return 0;
	for (m = obj->child, j = 0; strcmp(m->string, "metrics");
	     m = m->next, j++)
		;
	config_enter(p, NULL, j);
	return config_fail_key(p, "both \"metric\" and \"metrics\" %s: keep "
			"\"metrics\", a list such as [\"wall\"]", p->where);
}

/* The "max_pairs" rule, once a benchmark's settings are all known. */
static int check_max_pairs(struct parser *p, struct knobs *k, size_t i)
{
	char g[64];
	size_t line, col;

	if (k->max_src == SRC_BUILTIN) {
		k->b.max_pairs = k->b.pairs > CONFIG_DEFAULT_MAX_PAIRS ?
				 k->b.pairs : CONFIG_DEFAULT_MAX_PAIRS;
		return 0;
	}
	if (k->b.max_pairs >= k->b.pairs)
		return 0;
	p->depth = 0;
	if (k->max_src == SRC_DEFAULTS && k->pairs_src == SRC_BENCH) {
		/* Point at this benchmark's "pairs": it is what clashes. */
		config_enter(p, "defaults", 0);
		config_enter(p, "max_pairs", 0);
		if (config_position(p, p->path, p->depth, 0, &line, &col) < 0)
			line = col = 0;
		p->depth = 0;
		config_enter(p, "benchmarks", 0);
		config_enter(p, NULL, i);
		config_enter(p, "pairs", 0);
		return config_fail(p, "\"pairs\" %u %s is above \"max_pairs\" "
				   "%u from \"defaults\" (at %zu:%zu): set "
				   "\"max_pairs\" in this benchmark too",
				   k->b.pairs, p->where, k->b.max_pairs, line,
				   col);
	}
	if (k->max_src == SRC_DEFAULTS) {
		config_enter(p, "defaults", 0);
	} else {
		config_enter(p, "benchmarks", 0);
		config_enter(p, NULL, i);
	}
	config_enter(p, "max_pairs", 0);
	return config_fail(p, "\"max_pairs\" must be a whole number from %u to "
			   "100000 (not below \"pairs\"), got %s", k->b.pairs,
			   config_got(p, g, sizeof(g)));
}

/* Point p at key where knob src gave it (p is at the benchmark). */
static void point_at(struct parser *p, enum source src, const char *key)
{
	if (src == SRC_DEFAULTS) {
		p->depth = 0;
		config_enter(p, "defaults", 0);
	}
	config_enter(p, key, 0);
}

/*
 * A metric's floor f and pass_excludes m together: m below f would let a
 * pass accept a regression a fail needs less to show; a count decided
 * exactly needs a floor above what its exactness tolerance lets identical
 * code show.
 */
static int check_metric_floors(struct parser *p, const struct knobs *k,
			       const struct metric_cfg *mc)
{
	const char *name = metric_name(mc->id);

	if (mc->pass_excludes < mc->min_effect) {
		point_at(p, k->excl_src, "pass_excludes");
		return config_fail(p, "\"pass_excludes\" of \"%s\" (%g) is "
				   "below its \"min_effect\" (%g) %s: a pass "
				   "must exclude at least the floor; set it to "
				   "%g or more (the default is twice the "
				   "floor)", name, mc->pass_excludes,
				   mc->min_effect, p->where, mc->min_effect);
	}
	if (mc->gating && metric_desc(mc->id)->exact &&
	    mc->min_effect < METRIC_EXACT_MIN_FLOOR) {
		point_at(p, k->floor_src, "min_effect");
		return config_fail(p, "\"min_effect\" of \"%s\" is %g %s, but "
				   "counts that agree within %g%% are decided "
				   "exactly, so identical code could fail: "
				   "give \"%s\" a floor of at least %g, such "
				   "as {\"%s\": %g}", name, mc->min_effect,
				   p->where, METRIC_EXACT_TOLERANCE * 100,
				   name, METRIC_EXACT_MIN_FLOOR, name,
				   METRIC_EXACT_FLOOR);
	}
	return 0;
}

/*
 * A benchmark's metrics once all its settings are known: floors, which
 * gate, the primary metric; and fewer pairs by default when every metric
 * is an exact count (no interval is needed when the counts agree).
 */
static int resolve_metrics(struct parser *p, struct knobs *k,
			   struct bench_cfg *out)
{
	size_t i, ngate = 0;
	int all_exact = 1;
	double count_floor = format_reader(out->format)->count_floor;

	out->nmetrics = k->b.nmetrics;
	for (i = 0; i < k->b.nmetrics; i++) {
		struct metric_cfg *mc = &out->metrics[i];
		const struct metric_desc *d;

		mc->id = k->b.metrics[i].id;
		d = metric_desc(mc->id);
		mc->min_effect = !isnan(k->floor[mc->id]) ? k->floor[mc->id] :
				 !isnan(k->floor_all) ? k->floor_all :
				 d->exact && count_floor > 0 ? count_floor :
				 d->floor;
		mc->pass_excludes = !isnan(k->excl[mc->id]) ?
				    k->excl[mc->id] : !isnan(k->excl_all) ?
				    k->excl_all : 2 * mc->min_effect;
		mc->gating = !k->gate_set || k->gating[mc->id];
		if (check_metric_floors(p, k, mc) < 0)
			return -1;
		all_exact &= d->exact;
		if (mc->gating && ngate++ == 0) {
			out->metric = mc->id;
			out->min_effect = mc->min_effect;
		}
	}
	if (k->gate_set) {
		int m;

		for (m = 0; m < METRIC_COUNT; m++)
			if (k->gating[m] && !bench_has_metric(out,
							      (enum metric)m))
				return config_fail(p, "\"gate\" names \"%s\", "
						   "which is not among the "
						   "metrics %s: add it to "
						   "\"metrics\" or remove it "
						   "from \"gate\"",
						   metric_name((enum metric)m),
						   p->where);
	}
	if (ngate == 0)
		return config_fail(p, "no metric %s gates: name at least one "
				   "in \"gate\"", p->where);
	/*
	 * "defaults" size the timed benchmarks: an exact-only one keeps its
	 * own 3 pairs and no warm-up unless it sets them itself (20 pairs
	 * under valgrind would cost minutes for what 3 decide).
	 */
	if (all_exact) {
		if (k->pairs_src != SRC_BENCH)
			k->b.pairs = METRIC_EXACT_PAIRS;
		if (k->warmup_src != SRC_BENCH)
			k->b.warmup = METRIC_EXACT_WARMUP;
	}
	return 0;
}

struct named {
	const char *name;
	size_t index;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Names key files and reports, so they must be unique. Sorting finds
 * repeats in O(n log n); we report the repeat that comes first in the file.
 */
int config_rules_unique_names(struct parser *p, const struct config *cfg)
{
	struct named *v;
	size_t i, start = 0, first = 0, dup = (size_t)-1, line, col;
	char q[128];

	if (cfg->nbench < 2)
		return 0;
	v = xcalloc(cfg->nbench, sizeof(*v));
	for (i = 0; i < cfg->nbench; i++) {
		v[i].name = cfg->benches[i].name;
		v[i].index = i;
	}
	qsort(v, cfg->nbench, sizeof(*v), cmp_named);
	for (i = 1; i < cfg->nbench; i++) {
		if (strcmp(v[i - 1].name, v[i].name)) {
			start = i;
			continue;
		}
		if (i == start + 1 && v[i].index < dup) {
			dup = v[i].index;
			first = v[start].index;
		}
	}
	free(v);
	if (dup == (size_t)-1)
		return 0;
	p->depth = 0;
	config_enter(p, "benchmarks", 0);
	config_enter(p, NULL, first);
	config_enter(p, "name", 0);
	if (config_position(p, p->path, p->depth, 0, &line, &col) < 0)
		line = col = 0;
	p->path[1].index = dup;
	return config_fail(p, "duplicate benchmark name %s (first at "
			   "%zu:%zu)", config_quote(q, sizeof(q),
			   cfg->benches[dup].name), line, col);
}

void config_rules_init(struct knobs *k, struct config *cfg)
{
	size_t i;

	(void)cfg;
	memset(k, 0, sizeof(*k));
	/* the values given nowhere; the table's defaults come next */
	k->floor_all = k->excl_all = NAN;
	for (i = 0; i < METRIC_COUNT; i++)
		k->floor[i] = k->excl[i] = NAN;
	k->floor_src = k->excl_src = SRC_BUILTIN;
	k->b.max_pairs = CONFIG_DEFAULT_MAX_PAIRS;
	k->b.target_halfwidth = 0;
}

/*
 * The i-th benchmark once all its keys are read: metrics and floors, pairs,
 * what a suite may measure, and its settings into out.
 */
int config_rules_bench(struct parser *p, struct knobs *k, size_t i,
		       struct bench_cfg *out)
{
	char g[64];
	size_t q;

	if (resolve_metrics(p, k, out) < 0 || check_max_pairs(p, k, i) < 0)
		return -1;
	out->pairs = k->b.pairs;
	out->max_pairs = k->b.max_pairs;
	out->warmup = k->b.warmup;
	out->counter = k->b.counter;
	out->timeout = k->b.timeout;
	out->parity = k->b.parity;
	out->statistic = k->b.statistic;
	out->interval = k->b.interval;
	out->rule = k->b.rule;
	/* unset: resolved once the interval is as narrow as the floor */
	out->target_halfwidth = k->b.target_halfwidth > 0 ?
				k->b.target_halfwidth : out->min_effect;
	if (out->format != FORMAT_TIME)
		out->parity = 0;	/* a suite prints its timings */
	/* a suite's cases are values it prints, or counts of each case
	   apart (gate/measure/measure-counted.c), not process counts */
	for (q = 0; out->format != FORMAT_TIME && q < out->nmetrics; q++)
		if (metric_desc(out->metrics[q].id)->source != SOURCE_CLOCK &&
		    metric_desc(out->metrics[q].id)->source != SOURCE_COUNTER &&
		    metric_desc(out->metrics[q].id)->source != SOURCE_CACHESIM)
			return config_fail(p, "benchmark %s has a suite "
					   "\"format\": its metric can be "
					   "\"wall\" or \"cpu\" (the time each "
					   "case reports), or \"instructions\" "
					   "and \"cycles\" (each case counted "
					   "on its own), not \"%s\"",
					   config_quote(g, sizeof(g),
							out->name),
					   metric_name(out->metrics[q].id));
	if (out->nignore && out->format == FORMAT_TIME) {
		config_enter(p, "ignore", 0);
		return config_fail(p, "\"ignore\" lists cases of a suite not "
				   "to compare, but benchmark %s has no suite "
				   "\"format\" (one of %s)",
				   config_quote(g, sizeof(g), out->name),
				   format_names());
	}
	if (out->nexpect && out->format == FORMAT_TIME) {
		config_enter(p, "expect", 0);
		return config_fail(p, "\"expect\" lists the cases of a "
				   "suite, but benchmark %s has no suite "
				   "\"format\" (one of %s)",
				   config_quote(g, sizeof(g), out->name),
				   format_names());
	}
	return 0;
}

void config_rules_artifacts(struct config *cfg)
{
	size_t i;

	/* the top level's list, borrowed, by every benchmark without one */
	for (i = 0; i < cfg->nbench; i++)
		if (!cfg->benches[i].artifacts_own) {
			cfg->benches[i].artifacts = cfg->artifacts;
			cfg->benches[i].nartifacts = cfg->nartifacts;
		}
}
