/*
 * A suite's sample parsed (suite.h): the harness's output read by its
 * format, each case admitted against the arm's first sample (the
 * manifest), its value for the pair kept (the median of a process's
 * repetitions), and a case gone missing refused.
 */
#include "gate/measure/measure-suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "gate/measure/measure-counted.h"
#include "stats/stats.h"
#include "common/banned.h"

static void suite_fail(struct bench_run *br, char *msg)
{
	free(br->error);
	br->error = msg;
}

int suite_wanted(const struct suite_data *sd, const char *name)
{
	size_t i;

	if (!sd->want)
		return 1;
	for (i = 0; i < sd->nwant; i++)
		if (!strcmp(sd->want[i], name))
			return 1;
	return 0;
}

/*
 * The case of sd that c (a case of arm a's sample) is, or NULL after
 * suite_fail: arm a's first sample adds its cases, a later one may bring
 * none its first sample lacked.
 */
static struct suite_case *admit_case(struct bench_run *br,
				     struct suite_data *sd,
				     struct suite_case *sc,
				     const struct fmt_case *c, enum arm a,
				     const char *origin)
{
	if (sc && sc->in[a])
		return sc;
	if (sd->samples[a] != 0) {
		suite_fail(br, xasprintf("benchmark \"%s\": case \"%s\" "
			"(%s) appears in %s but not in %s's first "
			"sample: a suite must report the same cases "
			"every run", br->cfg->name, c->name, c->unit,
			origin, arm_name(a)));
		return NULL;
	}
	if (!sc) {
		XGROW(sd->cases, sd->cap, sd->n + 1);
		sc = &sd->cases[sd->n++];
		memset(sc, 0, sizeof(*sc));
		sc->name = xstrdup(c->name);
		sc->unit = xstrdup(c->unit);
		sc->higher_better = c->higher_better;
	}
	sc->in[a] = 1;
	return sc;
}

/* The case's value in pair (its values reduced to one), the array grown
   (zeroed) to at least the configured pairs. */
static void keep_value(struct suite_case *sc, enum arm a, size_t pair,
		       const struct fmt_case *c, size_t pairs)
{
	if (pair >= sc->vcap[a]) {
		size_t old = sc->vcap[a];

		XGROW(sc->v[a], sc->vcap[a], pair + 1 > pairs ? pair + 1 :
		      pairs);
		memset(sc->v[a] + old, 0,
		       (sc->vcap[a] - old) * sizeof(double));
	}
	sc->v[a][pair] = stats_median_inplace(c->values, c->n);
}

/* Every case arm a's first sample had (and this one was asked for) is in
   t: 0, or -1 after suite_fail. */
static int check_complete(struct bench_run *br, const struct suite_data *sd,
			  const struct fmt_table *t, enum arm a,
			  const char *origin)
{
	size_t i;

	/* a case's counts come from the counted runs, not stdout
	   (gate/measure/measure-counted.c) */
	for (i = 0; i < sd->n; i++)
		if (sd->cases[i].in[a] && suite_wanted(sd, sd->cases[i].name) &&
		    !suite_counted_unit(sd->cases[i].unit) &&
		    !fmt_table_find(t, sd->cases[i].name,
				    sd->cases[i].unit)) {
			suite_fail(br, xasprintf("benchmark \"%s\": case \"%s\" "
				"(%s) is missing from %s though %s's first "
				"sample had it: a crashed or filtered case?",
				br->cfg->name, sd->cases[i].name,
				sd->cases[i].unit, origin, arm_name(a)));
			return -1;
		}
	return 0;
}

/* A sample's stdout as the suite's format into t: 0, or -1 after
   suite_fail (too much output, or the format's own message). */
static int parse_output(struct bench_run *br, const struct run_result *res,
			const char *origin, struct fmt_table *t)
{
	const struct bench_cfg *cfg = br->cfg;
	struct gate_err err = { "" };
	struct fmt_opts fo = { .cpu_time = cfg->metric == METRIC_CPU,
			      .allow_zero = 1, .err = &err };

	if (res->out_overflow) {
		suite_fail(br, xasprintf("benchmark \"%s\": %s printed more than "
			"the %u MiB gate reads from a suite: print less (a "
			"suite format needs only its results)", cfg->name,
			origin, FORMAT_MAX_BYTES >> 20));
		return -1;
	}
	/* the message goes into the benchmark's error, not on stderr */
	if (format_parse(t, cfg->format, res->out ? res->out : "",
			 res->out_len, origin, &fo) < 0) {
		suite_fail(br, xasprintf("benchmark \"%s\" (format %s): %s",
			cfg->name, format_name(cfg->format), err.msg));
		return -1;
	}
	return 0;
}

int suite_parse_sample(struct bench_run *br, enum arm a, const char *label,
		       const struct run_result *res, long pair)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct suite_data *sd;
	char origin[256];
	size_t i;
	int ret = -1;

	snprintf(origin, sizeof(origin), "%s's stdout in %s", arm_name(a),
		 label);
	if (parse_output(br, res, origin, &t) < 0)
		return -1;
	if (!br->suite)
		br->suite = xcalloc(1, sizeof(*br->suite));
	sd = br->suite;
	for (i = 0; i < t.n; i++) {
		struct fmt_case *c = &t.cases[i];
		struct suite_case *sc = suite_case_find(sd, c->name, c->unit);

		if (sd->want && !(sc && sc->in[a]))
			continue;	/* no case of the manifest: not asked */
		sc = admit_case(br, sd, sc, c, a, origin);
		if (!sc)
			goto cleanup;
		if (c->n > sc->inner)
			sc->inner = c->n;
		if (pair >= 0)
			keep_value(sc, a, (size_t)pair, c, br->cfg->pairs);
	}
	if (check_complete(br, sd, &t, a, origin) < 0)
		goto cleanup;
	sd->procs[a] = t.procs;
	sd->samples[a]++;
	ret = 0;
cleanup:
	fmt_table_release(&t);
	return ret;
}

int suite_restates_time(enum format f, const char *unit)
{
	const struct format_reader *r = format_reader(f);
	size_t i;

	for (i = 0; i < sizeof(r->restates) / sizeof(r->restates[0]) &&
		    r->restates[i]; i++)
		if (!strcmp(unit, r->restates[i]))
			return 1;
	return 0;
}

const char *suite_time(const struct bench_run *br)
{
	const struct format_reader *r = format_reader(br->cfg->format);

	if (!r->times[0])
		return "as printed";
	return r->times[br->cfg->suite_metric == METRIC_CPU];
}

const char *suite_reduction(const struct bench_run *br, char *buf,
			    size_t size)
{
	if (!br->suite_name)
		snprintf(buf, size, "-");
	else if (br->cfg->inner > 1)
		snprintf(buf, size, "median of %zu repetitions per process",
			 br->cfg->inner);
	else
		snprintf(buf, size, "1 value per process");
	return buf;
}

struct suite_case *suite_case_find(struct suite_data *sd, const char *name,
				   const char *unit)
{
	size_t i;

	for (i = 0; i < sd->n; i++)
		if (!strcmp(sd->cases[i].name, name) &&
		    !strcmp(sd->cases[i].unit, unit))
			return &sd->cases[i];
	return NULL;
}
