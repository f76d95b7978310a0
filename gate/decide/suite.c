/*
 * Suite fan-out. Cases compare as benchmarks of their own, named
 * "suite/case" (and "suite/case (unit)" for a case's further units), so the
 * verdict, interval and reports are exactly those of any benchmark.
 */
#include "gate/decide/suite.h"

#include <math.h>
#include <stdint.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/decide/suite-shard.h"
#include "gate/measure/measure-counted.h"
#include "common/banned.h"

struct suite_derived {
	struct bench_cfg cfg;
	char *unit[METRIC_VALUES];	/* each slot's unit, owned */
	char *case_name;	/* as the suite printed it, owned */
};

static int matches(const regex_t *rx, const char *s)
{
	return regexec(rx, s, 0, NULL, 0) == 0;
}

/* Is sc the first unit its case printed? */
static int primary_unit(const struct suite_data *sd, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(sd->cases[j].name, sd->cases[i].name))
			return 0;
	return 1;
}

/* Check "expect"; NULL when every pattern matches a head case. */
static char *check_expect(const struct bench_run *br)
{
	const struct bench_cfg *cfg = br->cfg;
	const struct suite_data *sd = br->suite;
	size_t e, i;

	for (e = 0; e < cfg->nexpect; e++) {
		regex_t rx;
		int found = 0;

		if (regcomp(&rx, cfg->expect[e], REG_EXTENDED | REG_NOSUB))
			return xasprintf("\"expect\" pattern \"%s\" does not "
					 "compile", cfg->expect[e]);
		for (i = 0; i < sd->n && !found; i++)
			found = sd->cases[i].in[ARM_HEAD] &&
				matches(&rx, sd->cases[i].name);
		/* base printed it and base's rules judge head's removals:
		   the removed case fails unless accepted (gate/decide/arms.c) */
		for (i = 0; i < sd->n && !found && cfg->judged; i++)
			found = sd->cases[i].in[ARM_BASE] &&
				!sd->cases[i].in[ARM_HEAD] &&
				matches(&rx, sd->cases[i].name);
		regfree(&rx);
		if (!found)
			return xasprintf("benchmark \"%s\": no case in head's "
					 "output matches \"expect\" pattern "
					 "\"%s\": a case was dropped or renamed "
					 "(head printed %zu cases)", cfg->name,
					 cfg->expect[e], sd->n);
	}
	return NULL;
}

static void push_owned(struct suite_owned *own, struct suite_derived *d)
{
	XGROW(own->d, own->cap, own->n + 1);
	own->d[own->n++] = d;
}

/* The suite's pass_excludes: that of its (time) metric. */
static double suite_excludes(const struct bench_cfg *c)
{
	size_t q;

	for (q = 0; q < c->nmetrics; q++)
		if (c->metrics[q].id == c->metric)
			return c->metrics[q].pass_excludes;
	return 2 * c->min_effect;
}

/* 1 when case sc matches one of the benchmark's "ignore" patterns. */
static int ignored(const struct bench_cfg *cfg, const char *name)
{
	size_t e;
	int hit = 0;

	for (e = 0; e < cfg->nignore && !hit; e++) {
		regex_t rx;

		if (regcomp(&rx, cfg->ignore[e], REG_EXTENDED | REG_NOSUB))
			continue;	/* checked when gate.json was read */
		hit = matches(&rx, name);
		regfree(&rx);
	}
	return hit;
}

/*
 * A case below the resolution of the benchmark's own timer (a 1 ms timer
 * gives 0 s) has no ratio: it is unmeasurable, with the reason, and the
 * suite's other cases are still decided. NULL when every value is above 0
 * (or the unit counts, faults or allocs/op: 0 is a value, compared as
 * (head + 1) / (base + 1)).
 */
static char *unmeasurable(const struct bench_run *br,
			  const struct suite_case *sc)
{
	size_t p, a, zeros = 0;

	if (unit_may_be_zero(sc->unit))
		return NULL;
	for (p = 0; p < br->npairs; p++)
		for (a = 0; a < 2; a++)
			zeros += sc->v[a] && sc->v[a][p] == 0;
	if (!zeros)
		return NULL;
	return xasprintf("unmeasurable: case \"%s\" is 0 %s in %zu of %zu "
			 "samples, below the resolution of the benchmark's "
			 "own timer, so no ratio can be formed (the suite's "
			 "other cases are still decided); make the case do "
			 "more work, or accept it with \"ignore\": "
			 "[\"^%s$\"] in benchmark \"%s\" in gate.json",
			 sc->name, sc->unit, zeros, 2 * br->npairs, sc->name,
			 br->cfg->name);
}

/*
 * A case's count of a counted suite (gate/measure/measure-counted.c) takes
 * the suite's own floors for that metric ("instructions", "cycles").
 */
static void counted_floor(struct metric_cfg *mc, const struct bench_cfg *c,
			  const char *unit)
{
	size_t q;

	for (q = 0; suite_counted_unit(unit) && q < c->nmetrics; q++)
		if (!strcmp(metric_name(c->metrics[q].id), unit)) {
			mc->min_effect = c->metrics[q].min_effect;
			mc->pass_excludes = c->metrics[q].pass_excludes;
			mc->gating = c->metrics[q].gating;
		}
}

/*
 * Slot k of d: case sc's unit as the metric METRIC_VALUE + k. A unit that
 * counts (go's B/op and allocs/op) is decided like any count: exactly when
 * it repeats, at the count floor. A throughput that restates the time
 * (gbench's bytes and items per second, go's MB/s) is shown beside the
 * case, never decided: the time already is.
 */
static void add_slot(struct suite_derived *d, const struct bench_run *br,
		     const struct suite_case *sc, size_t k)
{
	struct metric_cfg *mc = &d->cfg.metrics[k];
	struct value_slot *vs = &d->cfg.values[k];

	d->unit[k] = xstrdup(sc->unit);
	vs->label = vs->unit = d->unit[k];
	vs->higher_better = sc->higher_better;
	vs->counted = unit_is_count(sc->unit) || suite_counted_unit(sc->unit);
	vs->throughput = k > 0 && suite_restates_time(br->cfg->format,
						      sc->unit);
	mc->id = (enum metric)(METRIC_VALUE + k);
	mc->min_effect = vs->counted ? METRIC_EXACT_FLOOR : br->cfg->min_effect;
	mc->pass_excludes = vs->counted ? 2 * METRIC_EXACT_FLOOR :
			    suite_excludes(br->cfg);
	mc->gating = !vs->throughput;
	counted_floor(mc, br->cfg, sc->unit);
}

/* The values of slot k in pair p of arm a (NAN when the arm lacks it). */
static void put(struct pair_result *pr, const struct suite_case *sc,
		size_t k, size_t p)
{
	int a;

	/* a count kept in the counted pairs only: NAN past them */
	for (a = 0; a < 2; a++)
		pr->s[a].value[METRIC_VALUE + k] = sc && sc->in[a] && sc->v[a] &&
			p < sc->vcap[a] ? sc->v[a][p] : NAN;
}

/*
 * The derived config of case i of br's suite, one case one row: its first
 * unit, then its other units as further value slots (slot[k] is slot k's
 * case, *nslots how many).
 */
static struct suite_derived *derive_case(const struct bench_run *br,
					 size_t i,
					 const struct suite_case **slot,
					 size_t *nslots)
{
	const struct suite_data *sd = br->suite;
	const struct suite_case *sc = &sd->cases[i];
	struct suite_derived *d = xcalloc(1, sizeof(*d));
	size_t j;

	d->cfg = *br->cfg;
	d->cfg.expect = NULL;
	d->cfg.nexpect = 0;
	d->cfg.ignore = NULL;
	d->cfg.nignore = 0;
	d->cfg.metric = METRIC_VALUE;
	slot[0] = sc;
	add_slot(d, br, sc, 0);
	*nslots = 1;
	for (j = i + 1; j < sd->n; j++) {
		if (strcmp(sd->cases[j].name, sc->name))
			continue;
		if (*nslots == METRIC_VALUES) {
			warning("benchmark \"%s\": case \"%s\" printed "
				"more than %d values: \"%s\" and later "
				"ones are not compared", br->cfg->name,
				sc->name, METRIC_VALUES, sd->cases[j].unit);
			break;
		}
		slot[*nslots] = &sd->cases[j];
		add_slot(d, br, &sd->cases[j], (*nslots)++);
	}
	d->cfg.nmetrics = *nslots;
	d->cfg.counted = d->cfg.values[0].counted;
	d->cfg.min_effect = d->cfg.metrics[0].min_effect;
	d->cfg.name = xasprintf("%s/%s", br->cfg->name, sc->name);
	d->cfg.unit = d->unit[0];
	d->cfg.higher_better = sc->higher_better;
	/*
	 * A case is measured with its suite, at the suite's pairs; when the
	 * harness can filter, unresolved cases get rounds of more pairs
	 * (suite_grow), else one look, which spends the case's whole alpha.
	 */
	if (!suite_can_filter(br->cfg))
		d->cfg.max_pairs = d->cfg.pairs;
	d->case_name = xstrdup(sc->name);
	d->cfg.inner = sc->inner;
	d->cfg.suite_metric = br->cfg->metric;
	return d;
}

/* A new, zeroed run at the end of out (*m of them, room for *cap). */
static struct bench_run *append_run(struct run_bench **out, size_t *m,
				    size_t *cap)
{
	XGROW(*out, *cap, *m + 1);
	memset(&(*out)[*m], 0, sizeof((*out)[*m]));
	return &(*out)[(*m)++].run;
}

/* A case's pairs: br's, each with the case's values in the value slots. */
static void case_pairs(struct bench_run *nr, const struct bench_run *br,
		       const struct suite_case *const *slot, size_t nslots)
{
	size_t k, p;

	nr->npairs = br->npairs;
	nr->pairs = xcalloc(br->npairs ? br->npairs : 1, sizeof(*nr->pairs));
	for (p = 0; p < br->npairs; p++) {
		nr->pairs[p].head_first = br->pairs[p].head_first;
		nr->pairs[p].s[ARM_BASE] = br->pairs[p].s[ARM_BASE];
		nr->pairs[p].s[ARM_HEAD] = br->pairs[p].s[ARM_HEAD];
		for (k = 0; k < METRIC_VALUES; k++)
			put(&nr->pairs[p], k < nslots ? slot[k] : NULL, k, p);
	}
}

/* Append one run per kept case of br to out (*m of them). */
static void expand(struct run_bench **out, size_t *m, size_t *cap,
		   struct bench_run *br, struct suite_owned *own,
		   const regex_t *rx)
{
	const struct suite_data *sd = br->suite;
	size_t i;

	for (i = 0; i < sd->n; i++) {
		const struct suite_case *sc = &sd->cases[i];
		const struct suite_case *slot[METRIC_VALUES] = { NULL };
		struct suite_derived *d;
		struct bench_run *nr;
		size_t nslots;

		if (!primary_unit(sd, i) || (rx && !matches(rx, sc->name)))
			continue;
		/* another shard's case, printed by a harness that ignores
		   its filter: that shard compares it */
		if (!suite_shard_keeps(own->shard, br->cfg->name, sc->name))
			continue;
		if (ignored(br->cfg, sc->name)) {
			warning("benchmark \"%s\": case \"%s\" not compared: "
				"gate.json's \"ignore\" accepts it",
				br->cfg->name, sc->name);
			continue;
		}
		d = derive_case(br, i, slot, &nslots);
		push_owned(own, d);
		nr = append_run(out, m, cap);
		(*out)[*m - 1].procs = sd->procs[ARM_HEAD] ?
				       sd->procs[ARM_HEAD] : sd->procs[ARM_BASE];
		nr->cfg = &d->cfg;
		nr->suite_name = br->cfg->name;
		nr->nsamples[0] = sd->samples[0];
		nr->nsamples[1] = sd->samples[1];
		/* an arm that printed nothing (the run stopped before its
		   first sample) says nothing of what its suite prints */
		if (!sc->in[ARM_BASE] || !sc->in[ARM_HEAD]) {
			enum arm none = sc->in[ARM_BASE] ? ARM_HEAD : ARM_BASE;

			if (!sd->samples[none]) {
				nr->error = xasprintf("not compared: %s's "
					"suite had printed no cases when "
					"measuring stopped", arm_name(none));
				continue;
			}
		}
		if (!sc->in[ARM_BASE]) {
			nr->is_new = 1;
			continue;
		}
		if (!sc->in[ARM_HEAD]) {
			nr->is_removed = 1;
			continue;
		}
		nr->error = unmeasurable(br, sc);
		case_pairs(nr, br, slot, nslots);
	}
}

int suite_filter_compile(regex_t *rx, const char *filter,
			 struct gate_err *err)
{
	char msg[256];
	int rc = regcomp(rx, filter, REG_EXTENDED | REG_NOSUB);

	if (!rc)
		return 0;
	regerror(rc, rx, msg, sizeof(msg));
	return error_to(err, "--filter \"%s\" is not a valid POSIX extended "
			"regular expression: %s", filter, msg);
}

int suite_fanout(struct run_bench **runs, size_t *n, struct suite_owned *own,
		 const char *filter)
{
	struct run_bench *out = NULL;
	size_t m = 0, cap = 0, i, k, before;
	regex_t rx;
	int have_rx = 0;

	if (filter) {
		if (suite_filter_compile(&rx, filter, NULL) < 0)
			return -1;
		have_rx = 1;
	}
	for (i = 0; i < *n; i++) {
		struct bench_run *br = &(*runs)[i].run;
		char *why = NULL;

		if (br->suite && !br->error && !br->is_new) {
			why = check_expect(br);
			before = m;
			if (!why)
				expand(&out, &m, &cap, br, own,
				       have_rx ? &rx : NULL);
			if (!why && m == before)
				why = filter ? xasprintf("benchmark \"%s\": "
						"no case matches --filter "
						"\"%s\" (the suite printed "
						"%zu; \"ignore\" set aside "
						"%zu)", br->cfg->name, filter,
						br->suite->n,
						br->cfg->nignore) :
					xasprintf("benchmark \"%s\": "
						"\"ignore\" sets aside every "
						"case the suite printed (%zu): "
						"nothing is left to compare",
						br->cfg->name, br->suite->n);
			if (!why) {
				/* kept for its rounds of more pairs; its
				   entry goes, and a note set before fan-out
				   (the artifacts': "measured, because ...")
				   goes to each of its cases */
				XGROW(own->suites, own->suites_cap,
				      own->nsuites + 1);
				own->suites[own->nsuites++] = *br;
				for (k = before; (*runs)[i].note && k < m; k++)
					run_bench_note(&out[k],
						       (*runs)[i].note);
				free((*runs)[i].note);
				(*runs)[i].note = NULL;
				continue;
			}
			free(br->error);
			br->error = why;
		}
		XGROW(out, cap, m + 1);
		out[m++] = (*runs)[i];
	}
	if (have_rx)
		regfree(&rx);
	free(*runs);
	*runs = out;
	*n = m;
	return 0;
}

void suite_owned_release(struct suite_owned *own)
{
	size_t i;

	for (i = 0; i < own->n; i++) {
		size_t k;

		free(own->d[i]->cfg.name);
		free(own->d[i]->case_name);
		for (k = 0; k < METRIC_VALUES; k++)
			free(own->d[i]->unit[k]);
		free(own->d[i]);
	}
	free(own->d);
	own->d = NULL;
	own->n = own->cap = 0;
	for (i = 0; i < own->nsuites; i++)
		bench_run_release(&own->suites[i]);
	free(own->suites);
	own->suites = NULL;
	own->nsuites = own->suites_cap = 0;
}

static const struct suite_derived *derived(const struct bench_run *br)
{
	/* a case's cfg is its suite_derived's first member */
	return (const struct suite_derived *)(const void *)br->cfg;
}

/* Append the suite's pairs [from, to) to case run cr. */
static void append_pairs(struct bench_run *cr, const struct bench_run *s,
			 size_t from, size_t to)
{
	const struct suite_derived *d = derived(cr);
	const struct suite_case *slot[METRIC_VALUES] = { NULL };
	size_t k, p;

	for (k = 0; k < cr->cfg->nmetrics && k < METRIC_VALUES; k++)
		slot[k] = suite_case_find(s->suite, d->case_name, d->unit[k]);
	cr->pairs = xrealloc(cr->pairs, (cr->npairs + to - from) *
			     sizeof(*cr->pairs));
	for (p = from; p < to; p++) {
		struct pair_result *pr = &cr->pairs[cr->npairs++];

		*pr = s->pairs[p];
		for (k = 0; k < METRIC_VALUES; k++)
			put(pr, slot[k], k, p);
	}
}

enum measured suite_grow(struct run_report *r, size_t i, unsigned total,
			 struct suite_owned *own,
			 const struct measure_opts *opt)
{
	struct bench_run *cr = &r->b[i].run, *s = NULL;
	const char **names;
	size_t *group, ng = 0, j, from;
	const struct bench_cfg *keep;
	struct bench_cfg fcfg;
	enum measured rc;
	double t0;
	int whole;

	if (cr->error)
		return MEASURE_ERROR;
	if (cr->npairs >= total)
		return MEASURED;
	for (j = 0; j < own->nsuites && !s; j++)
		if (!strcmp(own->suites[j].cfg->name, cr->suite_name))
			s = &own->suites[j];
	if (!s || !s->suite || !suite_can_filter(s->cfg))
		return cr->npairs >= 2 ? MEASURED : MEASURE_ERROR;
	/* the suite's unresolved cases at this look share the round */
	names = xcalloc(r->n, sizeof(*names));
	group = xcalloc(r->n, sizeof(*group));
	for (j = 0; j < r->n; j++) {
		struct run_bench *b = &r->b[j];

		if (j != i && (!b->run.suite_name || b->run.error ||
			       strcmp(b->run.suite_name, cr->suite_name) ||
			       b->run.is_new || b->run.is_removed ||
			       b->stop != STOP_NONE ||
			       b->run.npairs != cr->npairs))
			continue;
		group[ng] = j;
		names[ng++] = derived(&b->run)->case_name;
	}
	/*
	 * A round of counted runs runs the whole suite and keeps the
	 * group's values: a case's count follows what ran before it in its
	 * process (what it is the first to import or fill), so each of its
	 * samples is taken after the same cases. Through the filter, one of
	 * numpy's cases counted 3 times its first look's count in every
	 * round, where a change to its own work read a third of its size.
	 */
	whole = suite_counted_alone(s->cfg);
	if (!whole)
		suite_filter_cmd(&fcfg, s->cfg, names, ng);
	s->suite->want = names;
	s->suite->nwant = ng;
	keep = s->cfg;
	if (!whole)
		s->cfg = &fcfg;
	from = s->npairs;
	t0 = s->seconds;
	rc = measure_bench(s, opt, (unsigned)(from + total - cr->npairs));
	s->cfg = keep;
	s->suite->want = NULL;
	s->suite->nwant = 0;
	if (!whole)
		suite_filter_release(&fcfg);
	for (j = 0; j < ng; j++) {
		struct bench_run *g = &r->b[group[j]].run;

		append_pairs(g, s, from, s->npairs);
		/* each case of the round is charged the round's time */
		g->seconds += s->seconds - t0;
		if (rc == MEASURE_ERROR && !g->error)
			g->error = xstrdup(s->error ? s->error :
					   "the suite's round failed");
	}
	free(names);
	free(group);
	if (rc == MEASURE_INTERRUPTED)
		return rc;
	return cr->npairs >= total ? MEASURED : MEASURE_ERROR;
}

int suite_raise_pairs(struct bench_run *br, unsigned need)
{
	struct suite_derived *d = (struct suite_derived *)(void *)
		(uintptr_t)(const void *)br->cfg;

	if (!br->suite_name || !suite_can_filter(br->cfg))
		return 0;
	d->cfg.pairs = need;
	if (d->cfg.max_pairs < need)
		d->cfg.max_pairs = need;
	return 1;
}
