/*
 * The measurement loop. Order is drawn per pair, not per run, so that
 * drift in machine speed cancels within each pair; balanced so neither arm
 * owns the "runs second, caches warm" position more often than the other.
 */
#include "gate/measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>

#include "common/error.h"
#include "gate/format.h"
#include "gate/layout.h"
#include "gate/runner.h"
#include "gate/signals.h"
#include "common/banned.h"

const char *arm_name(enum arm a)
{
	return a == ARM_BASE ? "base" : "head";
}

double sample_value(const struct sample *s, enum metric m)
{
	return m == METRIC_VALUE ? s->value : m == METRIC_CPU ? s->cpu :
	       s->wall;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double suite_reduce(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double measure_resolution(enum metric m)
{
	struct timespec ts;

	if (m == METRIC_CPU)
		return 1e-6;
	if (clock_getres(CLOCK_MONOTONIC, &ts) < 0)
		return 1e-6;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int measure_resolvable(double v, double resolution)
{
	/* a ratio with a little slack: 100e-9 / 1e-9 is not exactly 100 */
	return isfinite(v) && v > 0 && v / resolution >= 100.0 - 1e-9;
}

void measure_order(int *order, size_t n, gsl_rng *rng)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i < n / 2;
	if (n % 2)
		order[n - 1] = (int)gsl_rng_uniform_int(rng, 2);
	gsl_ran_shuffle(rng, order, n, sizeof(*order));
}

/* The last few lines of a stderr tail, indented, for an error message. */
static char *indent_tail(const char *tail)
{
	const char *start = tail + strlen(tail);
	size_t lines = 0, len, i, o = 0;
	char *out;

	while (start > tail && (start[-1] == '\n' || start[-1] == ' '))
		start--;
	len = (size_t)(start - tail);
	while (start > tail && lines < 8) {
		start--;
		if (*start == '\n' && ++lines == 8) {
			start++;
			break;
		}
	}
	len -= (size_t)(start - tail);
	if (len == 0)
		return xstrdup("  (stderr was empty)");
	for (lines = 0, i = 0; i < len; i++)
		lines += start[i] == '\n';
	out = xmalloc(len + lines * 10 + 16);
	o += (size_t)snprintf(out, 16, "  stderr: ");
	for (i = 0; i < len; i++) {
		out[o++] = start[i];
		if (start[i] == '\n' && i + 1 < len) {
			memcpy(out + o, "          ", 10);
			o += 10;
		}
	}
	out[o] = '\0';
	return out;
}

static void fail(struct bench_run *br, char *msg)
{
	free(br->error);
	br->error = msg;
}

static struct suite_case *suite_find(struct suite_data *sd, const char *name,
				     const char *unit)
{
	size_t i;

	for (i = 0; i < sd->n; i++)
		if (!strcmp(sd->cases[i].name, name) &&
		    !strcmp(sd->cases[i].unit, unit))
			return &sd->cases[i];
	return NULL;
}

/*
 * Parse a suite sample's stdout and check it against the arm's manifest
 * (the case list of its first sample): every case in every sample, no case
 * added. pair is the pair index, or -1 for a warm-up (values not kept).
 */
static int suite_sample(struct bench_run *br, enum arm a, const char *label,
			struct run_result *res, long pair)
{
	const struct bench_cfg *cfg = br->cfg;
	struct fmt_opts fo = { cfg->metric == METRIC_CPU };
	struct fmt_table t = FMT_TABLE_INIT;
	struct suite_data *sd = br->suite;
	char origin[256], msg[1024], *obuf;
	size_t osize, i;
	int oquiet, rc, ret = -1;

	snprintf(origin, sizeof(origin), "%s's stdout in %s", arm_name(a),
		 label);
	if (res->out_overflow) {
		fail(br, xasprintf("benchmark \"%s\": %s printed more than "
			"the %u MiB gate reads from a suite: print less (a "
			"suite format needs only its results)", cfg->name,
			origin, FORMAT_MAX_BYTES >> 20));
		return -1;
	}
	error_capture_get(&obuf, &osize, &oquiet);
	error_capture(msg, sizeof(msg), 1);
	msg[0] = '\0';
	rc = format_parse(&t, cfg->format, res->out ? res->out : "",
			  res->out_len, origin, &fo);
	error_capture(obuf, osize, oquiet);
	if (rc < 0) {
		fail(br, xasprintf("benchmark \"%s\" (format %s): %s",
			cfg->name, format_name(cfg->format), msg));
		return -1;
	}
	if (!sd)
		sd = br->suite = xcalloc(1, sizeof(*sd));
	for (i = 0; i < t.n; i++) {
		struct fmt_case *c = &t.cases[i];
		struct suite_case *sc = suite_find(sd, c->name, c->unit);

		if (sd->samples[a] == 0 && (!sc || !sc->in[a])) {
			if (!sc) {
				if (sd->n == sd->cap) {
					sd->cap = sd->cap ? 2 * sd->cap : 16;
					sd->cases = xrealloc(sd->cases,
						sd->cap * sizeof(*sd->cases));
				}
				sc = &sd->cases[sd->n++];
				memset(sc, 0, sizeof(*sc));
				sc->name = xstrdup(c->name);
				sc->unit = xstrdup(c->unit);
				sc->higher_better = c->higher_better;
			}
			sc->in[a] = 1;
		} else if (!sc || !sc->in[a]) {
			fail(br, xasprintf("benchmark \"%s\": case \"%s\" "
				"(%s) appears in %s but not in %s's first "
				"sample: a suite must report the same cases "
				"every run", cfg->name, c->name, c->unit,
				origin, arm_name(a)));
			goto cleanup;
		}
		if (c->n > sc->inner)
			sc->inner = c->n;
		if (pair >= 0) {
			if (!sc->v[a])
				sc->v[a] = xcalloc(cfg->pairs,
						   sizeof(double));
			sc->v[a][pair] = suite_reduce(c->values, c->n);
		}
	}
	for (i = 0; i < sd->n; i++)
		if (sd->cases[i].in[a] &&
		    !fmt_table_find(&t, sd->cases[i].name,
				    sd->cases[i].unit)) {
			fail(br, xasprintf("benchmark \"%s\": case \"%s\" "
				"(%s) is missing from %s though %s's first "
				"sample had it: a crashed or filtered case?",
				cfg->name, sd->cases[i].name,
				sd->cases[i].unit, origin, arm_name(a)));
			goto cleanup;
		}
	sd->samples[a]++;
	ret = 0;
cleanup:
	fmt_table_release(&t);
	return ret;
}

/* Run one sample of arm a; label is "warm-up 1" or "pair 3". */
static int one_sample(struct bench_run *br, const struct measure_opts *opt,
		      enum arm a, const char *label, struct sample *out,
		      long pair)
{
	const struct bench_cfg *cfg = br->cfg;
	struct run_spec spec = { &cfg->run, opt->dir[a], cfg->timeout,
				 opt->grace, -1, NULL, 0 };
	struct run_result res;
	char why[256];
	char *tail;
	double v;

	if (opt->layout && layout_before(opt->layout, &spec.envp) < 0) {
		fail(br, xasprintf("benchmark \"%s\": cannot prepare the %s "
				   "sample (%s): see the error above",
				   cfg->name, arm_name(a), label));
		return -1;
	}
	if (cfg->format != FORMAT_TIME)
		spec.capture = FORMAT_MAX_BYTES;
	run_one(&res, &spec);
	if (opt->layout && layout_after(opt->layout) < 0) {
		free(res.out);
		fail(br, xasprintf("benchmark \"%s\": cannot clean $GATE_TMPDIR "
				   "after the %s sample (%s)", cfg->name,
				   arm_name(a), label));
		return -1;
	}
	if (res.status == RUN_OK && cfg->format != FORMAT_TIME) {
		int rc = suite_sample(br, a, label, &res, pair);

		free(res.out);
		if (rc < 0)
			return -1;
	} else {
		free(res.out);
	}
	if (res.status == RUN_INTERRUPTED)
		return res.code ? res.code : signals_pending();
	if (res.status != RUN_OK) {
		tail = indent_tail(res.err_tail);
		if (res.status == RUN_SPAWN)
			fail(br, xasprintf("benchmark \"%s\": %s sample (%s) "
				"%s: check \"run\" in gate.json (the command "
				"runs in the %s checkout)\n%s", cfg->name,
				arm_name(a), label,
				run_describe(&res, why, sizeof(why)),
				arm_name(a), tail));
		else if (res.status == RUN_TIMEOUT)
			fail(br, xasprintf("benchmark \"%s\": %s sample (%s) "
				"%s: raise \"timeout\" in gate.json if it "
				"needs longer\n%s", cfg->name, arm_name(a),
				label, run_describe(&res, why, sizeof(why)),
				tail));
		else
			fail(br, xasprintf("benchmark \"%s\": %s sample (%s) "
				"%s\n%s", cfg->name, arm_name(a), label,
				run_describe(&res, why, sizeof(why)), tail));
		free(tail);
		return -1;
	}
	out->wall = res.wall;
	out->cpu = res.user + res.sys;
	out->maxrss_kb = res.maxrss_kb;

	if (br->nsamples[a] == 0) {
		br->out_hash[a] = res.out_hash;
		br->out_bytes[a] = res.out_bytes;
	} else if (cfg->parity && (res.out_hash != br->out_hash[a] ||
				   res.out_bytes != br->out_bytes[a])) {
		fail(br, xasprintf("benchmark \"%s\": %s's stdout in %s "
			"(%llu bytes) differs from its first sample (%llu "
			"bytes): the output is not deterministic, so the two "
			"runs may not do the same work; make it deterministic "
			"or set \"parity\": false for this benchmark",
			cfg->name, arm_name(a), label,
			(unsigned long long)res.out_bytes,
			(unsigned long long)br->out_bytes[a]));
		return -1;
	}
	br->nsamples[a]++;

	v = sample_value(out, cfg->metric);
	if (!measure_resolvable(v, measure_resolution(cfg->metric))) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s) measured "
			"%s = %g s, which cannot be compared: the benchmark is "
			"too short for this clock (resolution %g s; gate needs "
			"100 times that); make it do more work per run (at "
			"least a few milliseconds)", cfg->name,
			arm_name(a), label, metric_name(cfg->metric), v,
			measure_resolution(cfg->metric)));
		return -1;
	}
	return 0;
}

int measure_bench(struct bench_run *br, const struct measure_opts *opt)
{
	const struct bench_cfg *cfg = br->cfg;
	int *order = xcalloc(cfg->pairs, sizeof(*order));
	struct sample scratch;
	char label[64];
	unsigned i;
	int rc = 0;

	br->pairs = xcalloc(cfg->pairs, sizeof(*br->pairs));
	measure_order(order, cfg->pairs, opt->order_rng);
	if (!opt->quiet)
		fprintf(stderr, "gate: measuring \"%s\": %u warm-up, %u pairs\n",
			cfg->name, cfg->warmup, cfg->pairs);

	/* warm-ups alternate arms so both see caches in the same state */
	for (i = 0; i < cfg->warmup && rc == 0; i++) {
		snprintf(label, sizeof(label), "warm-up %u", i + 1);
		rc = one_sample(br, opt, ARM_BASE, label, &scratch, -1);
		if (rc == 0)
			rc = one_sample(br, opt, ARM_HEAD, label, &scratch,
					-1);
	}
	for (i = 0; i < cfg->pairs && rc == 0; i++) {
		struct pair_result *pr = &br->pairs[i];
		enum arm first = order[i] ? ARM_HEAD : ARM_BASE;

		pr->head_first = order[i];
		snprintf(label, sizeof(label), "pair %u", i + 1);
		rc = one_sample(br, opt, first, label, &pr->s[first],
				(long)i);
		if (rc == 0)
			rc = one_sample(br, opt, !first, label,
					&pr->s[!first], (long)i);
		if (rc == 0)
			br->npairs++;
		if (rc == 0 && opt->on_pair)
			opt->on_pair(opt->on_pair_arg, br, br->npairs,
				     cfg->pairs);
	}
	if (rc == 0 && (br->out_hash[ARM_BASE] != br->out_hash[ARM_HEAD] ||
			br->out_bytes[ARM_BASE] != br->out_bytes[ARM_HEAD]))
		br->parity_differs = 1;
	free(order);
	return rc;
}

void bench_run_release(struct bench_run *br)
{
	size_t i;

	if (br->suite) {
		for (i = 0; i < br->suite->n; i++) {
			free(br->suite->cases[i].name);
			free(br->suite->cases[i].unit);
			free(br->suite->cases[i].v[0]);
			free(br->suite->cases[i].v[1]);
		}
		free(br->suite->cases);
		free(br->suite);
		br->suite = NULL;
	}
	free(br->pairs);
	free(br->error);
	br->pairs = NULL;
	br->error = NULL;
}
