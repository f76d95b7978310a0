/*
 * The measurement loop. Order is drawn per pair, not per run, so that
 * drift in machine speed cancels within each pair; balanced so neither arm
 * owns the "runs second, caches warm" position more often than the other.
 */
#include "gate/measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>

#include "common/clock.h"
#include "common/error.h"
#include "gate/exec/alloc.h"
#include "gate/exec/counter.h"
#include "gate/format/format.h"
#include "gate/exec/layout.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/suite.h"
#include "common/banned.h"

const char *arm_name(enum arm a)
{
	return a == ARM_BASE ? "base" : "head";
}

/* valgrind runs this much slower: its samples get this much longer */
#define VALGRIND_TIMEOUT_FACTOR 50

double sample_value(const struct sample *s, enum metric m)
{
	switch (m) {
	case METRIC_WALL:
		return s->wall;
	case METRIC_CPU:
		return s->cpu;
	default:
		return (unsigned)m < METRIC_COUNT ? s->value[m] : NAN;
	}
}

static int has_source(const struct bench_cfg *cfg, enum metric_source src)
{
	size_t i;

	for (i = 0; i < cfg->nmetrics; i++)
		if (metric_desc(cfg->metrics[i].id)->source == src)
			return 1;
	return 0;
}

int measure_prepare(struct bench_run *br)
{
	return measure_prepare_to(br, NULL);
}

int measure_prepare_to(struct bench_run *br, struct gate_err *err)
{
	const struct bench_cfg *cfg = br->cfg;
	char *who = xasprintf("benchmark \"%s\"", cfg->name);
	int ret = -1;
	size_t i;

	br->counter = COUNTER_AUTO;
	br->plain_runs = 0;
	if (has_source(cfg, SOURCE_COUNTER) &&
	    counter_select(&br->counter, &br->valgrind, cfg->counter, who,
			   err) < 0)
		goto cleanup;
	if (has_source(cfg, SOURCE_ALLOC) &&
	    alloc_lib_find(&br->alloc_lib, err) < 0)
		goto cleanup;
	/* everything but a valgrind count needs a plain run */
	for (i = 0; i < cfg->nmetrics; i++)
		if (cfg->metrics[i].id != METRIC_INSTRUCTIONS ||
		    br->counter != COUNTER_VALGRIND)
			br->plain_runs = 1;
	br->counted_pairs = 0;
	if (br->counter == COUNTER_VALGRIND)
		br->counted_pairs = br->plain_runs &&
				    cfg->pairs > METRIC_COUNTED_PAIRS ?
				    METRIC_COUNTED_PAIRS : cfg->pairs;
	ret = 0;
cleanup:
	free(who);
	return ret;
}

const char *measure_scheme(const struct bench_run *br, char *buf,
			   size_t size)
{
	const char *extra = br->alloc_lib ? ", allocations counted by "
			    "libgate-alloc.so (LD_PRELOAD)" : "";

	if (br->counter == COUNTER_VALGRIND && !br->plain_runs)
		snprintf(buf, size, "each sample one run under valgrind "
			 "(cachegrind, cache simulation off) for the "
			 "instruction count");
	else if (br->counter == COUNTER_VALGRIND)
		snprintf(buf, size, "each sample one plain run%s; in the first "
			 "%u pairs, and in every pair of later rounds when "
			 "the counts vary, also one run under valgrind "
			 "(cachegrind) for the instruction count, which a "
			 "timed run cannot give", extra,
			 br->cfg->pairs > METRIC_COUNTED_PAIRS ?
			 (unsigned)METRIC_COUNTED_PAIRS : br->cfg->pairs);
	else if (br->counter == COUNTER_PERF)
		snprintf(buf, size, "each sample one run, instructions counted "
			 "by perf_event_open from exec, children included%s",
			 extra);
	else
		snprintf(buf, size, "each sample one run%s", extra);
	return buf;
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

/* Why run_one's result cannot be used, as br's error; returns -1 or the
   signal when gate was interrupted. */
static int run_failed(struct bench_run *br, const struct run_result *res,
		      enum arm a, const char *label)
{
	const struct bench_cfg *cfg = br->cfg;
	char why[256];
	char *tail;

	if (res->status == RUN_INTERRUPTED)
		return res->code ? res->code : signals_pending();
	tail = indent_tail(res->err_tail);
	if (res->status == RUN_SPAWN)
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s) "
			"%s: check \"run\" in gate.json (the command "
			"runs in the %s checkout)\n%s", cfg->name,
			arm_name(a), label,
			run_describe(res, why, sizeof(why)),
			arm_name(a), tail));
	else if (res->status == RUN_TIMEOUT)
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s) "
			"%s: raise \"timeout\" in gate.json if it "
			"needs longer\n%s", cfg->name, arm_name(a),
			label, run_describe(res, why, sizeof(why)),
			tail));
	else
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s) "
			"%s\n%s", cfg->name, arm_name(a), label,
			run_describe(res, why, sizeof(why)), tail));
	free(tail);
	return -1;
}

/* Output parity: every sample of an arm prints what its first printed. */
static int check_parity(struct bench_run *br, const struct run_result *res,
			enum arm a, const char *label)
{
	const struct bench_cfg *cfg = br->cfg;

	if (br->nsamples[a] == 0) {
		br->out_hash[a] = res->out_hash;
		br->out_bytes[a] = res->out_bytes;
	} else if (cfg->parity && (res->out_hash != br->out_hash[a] ||
				   res->out_bytes != br->out_bytes[a])) {
		fail(br, xasprintf("benchmark \"%s\": %s's stdout in %s "
			"(%llu bytes) differs from its first sample (%llu "
			"bytes): the output is not deterministic, so the two "
			"runs may not do the same work; make it deterministic "
			"or set \"parity\": false for this benchmark",
			cfg->name, arm_name(a), label,
			(unsigned long long)res->out_bytes,
			(unsigned long long)br->out_bytes[a]));
		br->parity_failed = (int)a + 1;
		return -1;
	}
	br->nsamples[a]++;
	return 0;
}

/* The shared conditions (layout) before a run: *envp gets the sample's
   environment, or NULL for gate's own when there is no layout. */
static int layout_in(struct bench_run *br, const struct measure_opts *opt,
		     enum arm a, const char *label, char *const **envp)
{
	*envp = NULL;
	if (opt->layout && layout_before(opt->layout, envp) < 0) {
		fail(br, xasprintf("benchmark \"%s\": cannot prepare the %s "
				   "sample (%s): see the error above",
				   br->cfg->name, arm_name(a), label));
		return -1;
	}
	return 0;
}

static int layout_out(struct bench_run *br, const struct measure_opts *opt,
		      enum arm a, const char *label)
{
	if (opt->layout && layout_after(opt->layout) < 0) {
		fail(br, xasprintf("benchmark \"%s\": cannot clean $GATE_TMPDIR "
				   "after the %s sample (%s)", br->cfg->name,
				   arm_name(a), label));
		return -1;
	}
	return 0;
}

/*
 * env without GATE_PAD (a new array of the same strings; free the array
 * only). A counted run is not a timing, so padding has nothing to spread
 * there, and it would make a count vary with the padding's length.
 */
static char **without_padding(char *const *env)
{
	extern char **environ;
	char *const *e = env ? env : environ;
	size_t n, i, o = 0;
	char **out;

	for (n = 0; e[n]; n++)
		;
	out = xcalloc(n + 1, sizeof(*out));
	for (i = 0; i < n; i++)
		if (strncmp(e[i], "GATE_PAD=", 9))
			out[o++] = e[i];
	out[o] = NULL;
	return out;
}

/* The uninstrumented run of a sample: times, rusage, perf, allocations. */
/* A finished run's clock, rusage and counter values into out; 0 or -1. */
static int sample_from_result(struct bench_run *br, struct sample *out,
			      const struct run_result *res, enum arm a,
			      const char *label)
{
	out->wall = res->wall;
	out->cpu = res->user + res->sys;
	out->maxrss_kb = res->maxrss_kb;
	out->value[METRIC_WALL] = out->wall;
	out->value[METRIC_CPU] = out->cpu;
	out->value[METRIC_MAX_RSS] = (double)res->maxrss_kb;
	out->value[METRIC_MINOR_FAULTS] = (double)res->minflt;
	out->value[METRIC_MAJOR_FAULTS] = (double)res->majflt;
	out->value[METRIC_CTX_SWITCHES] = (double)res->ctxsw;
	if (br->counter != COUNTER_PERF)
		return 0;
	if (!isfinite(res->instructions)) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): the "
			"perf instruction counter could not be read; set "
			"\"counter\": \"valgrind\"", br->cfg->name,
			arm_name(a), label));
		return -1;
	}
	out->value[METRIC_INSTRUCTIONS] = res->instructions;
	return 0;
}

/* The allocation counts the preload library left in path; 0 or -1. */
static int sample_allocs(struct bench_run *br, struct sample *out,
			 const char *path, enum arm a, const char *label)
{
	struct alloc_counts ac;
	enum alloc_collected got = alloc_collect(path, &ac);

	if (got != ALLOC_COUNTED) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): %s; "
			"allocation metrics need a dynamically linked program "
			"that exits normally (not by a signal or _exit): a "
			"statically linked one cannot be counted",
			br->cfg->name, arm_name(a), label,
			got == ALLOC_NO_RECORD ?
			"no process reported its allocations" :
			"an allocation record was unreadable"));
		return -1;
	}
	out->value[METRIC_ALLOCS] = ac.allocs;
	out->value[METRIC_ALLOC_BYTES] = ac.bytes;
	out->value[METRIC_FREES] = ac.frees;
	return 0;
}

/* Every clock metric of out resolvable by its clock; 0 or -1. */
static int check_resolution(struct bench_run *br, const struct sample *out,
			    enum arm a, const char *label)
{
	const struct bench_cfg *cfg = br->cfg;
	size_t i;

	for (i = 0; i < cfg->nmetrics; i++) {
		enum metric m = cfg->metrics[i].id;
		double v = sample_value(out, m);

		if (metric_desc(m)->source != SOURCE_CLOCK ||
		    measure_resolvable(v, measure_resolution(m)))
			continue;
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s) measured "
			"%s = %g s, which cannot be compared: the benchmark is "
			"too short for this clock (resolution %g s; gate needs "
			"100 times that); make it do more work per run (at "
			"least a few milliseconds)", cfg->name,
			arm_name(a), label, metric_name(m), v,
			measure_resolution(m)));
		return -1;
	}
	return 0;
}

static int plain_run(struct bench_run *br, const struct measure_opts *opt,
		     enum arm a, const char *label, const char *tmp,
		     struct sample *out, long pair)
{
	const struct bench_cfg *cfg = br->cfg;
	struct run_spec spec = { &cfg->run, opt->dir[a], cfg->timeout,
				 opt->grace, -1, NULL, 0, 0 };
	struct run_result res;
	char *alloc_out = NULL, **aenv = NULL;
	int rc = -1;

	if (layout_in(br, opt, a, label, &spec.envp) < 0)
		return -1;
	if (br->alloc_lib) {
		alloc_out = xasprintf("%s/allocs", tmp);
		unlink(alloc_out);
		aenv = alloc_env(br->alloc_lib, alloc_out, spec.envp);
		spec.envp = aenv;
	}
	spec.count_instructions = br->counter == COUNTER_PERF;
	if (cfg->format != FORMAT_TIME)
		spec.capture = FORMAT_MAX_BYTES;
	run_one(&res, &spec);
	if (layout_out(br, opt, a, label) < 0) {
		free(res.out);
		goto cleanup;
	}
	if (res.status == RUN_OK && cfg->format != FORMAT_TIME) {
		int r = suite_parse_sample(br, a, label, &res, pair);

		free(res.out);
		if (r < 0)
			goto cleanup;
	} else {
		free(res.out);
	}
	if (res.status != RUN_OK) {
		rc = run_failed(br, &res, a, label);
		goto cleanup;
	}
	if (sample_from_result(br, out, &res, a, label) < 0 ||
	    check_parity(br, &res, a, label) < 0 ||
	    (alloc_out && sample_allocs(br, out, alloc_out, a, label) < 0) ||
	    check_resolution(br, out, a, label) < 0)
		goto cleanup;
	rc = 0;
cleanup:
	if (alloc_out)
		unlink(alloc_out);
	free(alloc_out);
	alloc_env_free(aenv);
	return rc;
}

/* The run under valgrind that gives a sample its instruction count. */
static int counted_run(struct bench_run *br, const struct measure_opts *opt,
		       enum arm a, const char *label, const char *tmp,
		       struct sample *out)
{
	const struct bench_cfg *cfg = br->cfg;
	struct command cmd = { NULL, NULL };
	struct run_spec spec = { &cmd, opt->dir[a],
				 cfg->timeout * VALGRIND_TIMEOUT_FACTOR,
				 opt->grace, -1, NULL, 0, 0 };
	struct run_result res;
	char *sh_argv[4] = { (char *)"/bin/sh", (char *)"-c", cfg->run.shell,
			     NULL };
	char *clabel = xasprintf("%s, counted under valgrind", label);
	char why[256];
	double n;
	int rc = -1;

	char *const *lenv;
	char **env = NULL;

	if (layout_in(br, opt, a, clabel, &lenv) < 0) {
		free(clabel);
		return -1;
	}
	env = without_padding(lenv);
	spec.envp = env;
	cmd.argv = counter_valgrind_argv(br->valgrind, tmp, cfg->run.argv ?
					 cfg->run.argv : sh_argv);
	run_one(&res, &spec);
	if (layout_out(br, opt, a, clabel) < 0) {
		counter_valgrind_collect(tmp, &n, why, sizeof(why));
		goto cleanup;
	}
	if (res.status != RUN_OK) {
		counter_valgrind_collect(tmp, &n, why, sizeof(why));
		rc = run_failed(br, &res, a, clabel);
		goto cleanup;
	}
	if (check_parity(br, &res, a, clabel) < 0) {
		counter_valgrind_collect(tmp, &n, why, sizeof(why));
		goto cleanup;
	}
	if (counter_valgrind_collect(tmp, &n, why, sizeof(why)) < 0) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): %s",
				   cfg->name, arm_name(a), clabel, why));
		goto cleanup;
	}
	out->value[METRIC_INSTRUCTIONS] = n;
	rc = 0;
cleanup:
	counter_valgrind_argv_free(cmd.argv);
	free(env);
	free(clabel);
	return rc;
}

/*
 * One sample of arm a; label is "warm-up 1" or "pair 3". counted: take the
 * valgrind run too (when the benchmark counts with valgrind).
 */
static int one_sample(struct bench_run *br, const struct measure_opts *opt,
		      enum arm a, const char *label, const char *tmp,
		      int counted, struct sample *out, long pair)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < METRIC_COUNT; i++)
		out->value[i] = NAN;
	out->wall = out->cpu = NAN;
	out->maxrss_kb = 0;
	if (br->plain_runs)
		rc = plain_run(br, opt, a, label, tmp, out, pair);
	if (rc == 0 && counted && br->counter == COUNTER_VALGRIND)
		rc = counted_run(br, opt, a, label, tmp, out);
	return rc;
}

/* A program the preload library cannot reach is refused before running. */
static int check_static(struct bench_run *br, const struct measure_opts *opt)
{
	const struct bench_cfg *cfg = br->cfg;
	int a;

	if (!br->alloc_lib || !cfg->run.argv)
		return 0;
	for (a = 0; a < 2; a++)
		if (alloc_is_static(cfg->run.argv[0], opt->dir[a])) {
			fail(br, xasprintf("benchmark \"%s\": %s in %s is "
				"statically linked, so the allocation metrics "
				"are unsupported for it (they count through "
				"LD_PRELOAD, which a static program ignores): "
				"link it dynamically or remove the allocation "
				"metrics", cfg->name, cfg->run.argv[0],
				arm_name((enum arm)a)));
			return -1;
		}
	return 0;
}

/*
 * 1 when br's instruction counts so far vary within an arm beyond the
 * exactness tolerance: the count is then decided by an interval, which
 * needs it in every pair.
 */
static int counts_vary(const struct bench_run *br)
{
	size_t a, i;

	for (a = 0; a < 2; a++) {
		double lo = INFINITY, hi = -INFINITY;

		for (i = 0; i < br->npairs; i++) {
			double v = br->pairs[i].s[a].value[METRIC_INSTRUCTIONS];

			if (!isfinite(v))
				continue;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (hi > 0 && (hi - lo) / hi > METRIC_EXACT_TOLERANCE)
			return 1;
	}
	return 0;
}

/* Whether the pairs measure_bench adds after the first call are counted. */
static int count_added(const struct bench_run *br)
{
	const struct bench_cfg *cfg = br->cfg;
	size_t i;

	if (br->counter != COUNTER_VALGRIND)
		return 0;
	if (!br->plain_runs)
		return 1;	/* the valgrind run is the sample */
	for (i = 0; i < cfg->nmetrics; i++)
		if (cfg->metrics[i].id == METRIC_INSTRUCTIONS)
			return cfg->metrics[i].gating && counts_vary(br);
	return 0;
}

/* The line saying what measure_bench is about to measure. */
static void measure_announce(const struct bench_run *br, size_t first_new,
			     unsigned total)
{
	const struct bench_cfg *cfg = br->cfg;

	if (first_new == 0)
		fprintf(stderr, "gate: measuring \"%s\": %u warm-up, %u pairs%s"
			"\n", cfg->name, cfg->warmup, total,
			br->counter == COUNTER_VALGRIND ? " (counting under "
			"valgrind: slow)" : "");
	else
		fprintf(stderr, "gate: measuring \"%s\": pairs %zu to %u\n",
			cfg->name, first_new + 1, total);
}

/* The samples' temporary directory (malloc'd), or NULL with br->error. */
static char *sample_dir(struct bench_run *br)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmp = xasprintf("%s/gate-sample.XXXXXX",
			      tmpdir && *tmpdir ? tmpdir : "/tmp");

	if (mkdtemp(tmp))
		return tmp;
	fail(br, xasprintf("cannot create a temporary directory \"%s\": %s: "
			   "set TMPDIR to a writable directory", tmp,
			   strerror(errno)));
	free(tmp);
	return NULL;
}

/*
 * The warm-ups, alternating arms so both see caches in the same state:
 * 0, -1 or the interrupting signal (as one_sample).
 */
static int warm_up(struct bench_run *br, const struct measure_opts *opt,
		   const char *tmp)
{
	struct sample scratch;
	char label[64];
	size_t i;
	int rc = 0;

	for (i = 0; i < br->cfg->warmup && rc == 0; i++) {
		snprintf(label, sizeof(label), "warm-up %zu", i + 1);
		rc = one_sample(br, opt, ARM_BASE, label, tmp, !br->plain_runs,
				&scratch, -1);
		if (rc == 0)
			rc = one_sample(br, opt, ARM_HEAD, label, tmp,
					!br->plain_runs, &scratch, -1);
	}
	return rc;
}

/*
 * The pairs from br->npairs to total, each in the arm order of order[]
 * (1: head first): 0, -1 or the interrupting signal (as one_sample).
 */
static int take_pairs(struct bench_run *br, const struct measure_opts *opt,
		      const int *order, unsigned total, const char *tmp)
{
	size_t first_new = br->npairs, more = total - first_new, i;
	char label[64];
	int rc = 0;

	for (i = 0; i < more && rc == 0; i++) {
		size_t at = first_new + i;
		struct pair_result *pr = &br->pairs[at];
		enum arm first = order[i] ? ARM_HEAD : ARM_BASE;
		int counted = at < br->counted_pairs;

		pr->head_first = order[i];
		snprintf(label, sizeof(label), "pair %zu", at + 1);
		rc = one_sample(br, opt, first, label, tmp, counted,
				&pr->s[first], (long)at);
		if (rc == 0)
			rc = one_sample(br, opt, !first, label, tmp, counted,
					&pr->s[!first], (long)at);
		if (rc == 0)
			br->npairs++;
		if (rc == 0 && opt->on_pair)
			opt->on_pair(opt->on_pair_arg, br, br->npairs, total);
	}
	return rc;
}

/* take_pairs' 0, -1 or signal number as what it came to */
static enum measured measured_as(int rc)
{
	return rc > 0 ? MEASURE_INTERRUPTED : rc < 0 ? MEASURE_ERROR : MEASURED;
}

enum measured measure_bench(struct bench_run *br,
			    const struct measure_opts *opt, unsigned total)
{
	double t0 = clock_seconds();
	size_t first_new = br->npairs, more;
	int *order;
	char *tmp;
	int rc = 0;

	if (total <= br->npairs)
		return MEASURED;
	if ((first_new > 0 || !br->plain_runs) && count_added(br))
		br->counted_pairs = total;
	more = total - br->npairs;
	order = xcalloc(more, sizeof(*order));
	br->pairs = xrealloc(br->pairs, total * sizeof(*br->pairs));
	memset(br->pairs + first_new, 0, more * sizeof(*br->pairs));
	/* each batch balanced on its own, so every look is balanced */
	measure_order(order, more, opt->order_rng);
	if (!opt->quiet)
		measure_announce(br, first_new, total);
	if ((first_new == 0 && check_static(br, opt) < 0) ||
	    !(tmp = sample_dir(br))) {
		free(order);
		return MEASURE_ERROR;
	}
	if (first_new == 0) {
		rc = warm_up(br, opt, tmp);
		br->warmup_seconds += clock_seconds() - t0;
	}
	if (rc == 0)
		rc = take_pairs(br, opt, order, total, tmp);
	if (rmdir(tmp) < 0)
		warning("cannot remove the temporary directory \"%s\": %s",
			tmp, strerror(errno));
	free(tmp);
	br->seconds += clock_seconds() - t0;
	if (rc == 0 && (br->out_hash[ARM_BASE] != br->out_hash[ARM_HEAD] ||
			br->out_bytes[ARM_BASE] != br->out_bytes[ARM_HEAD]))
		br->parity_differs = 1;
	free(order);
	return measured_as(rc);
}

int measure_pending(const struct bench_run *br, unsigned total)
{
	/* suite cases were measured with their suite, before the fan-out */
	return !br->error && !br->suite_name && br->npairs < total;
}

enum measured measure_grow(struct bench_run *br,
			   const struct measure_opts *opt, unsigned total)
{
	if (br->error)
		return MEASURE_ERROR;
	if (!measure_pending(br, total))
		return br->npairs >= 2 ? MEASURED : MEASURE_ERROR;
	return measure_bench(br, opt, total);
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
	free(br->valgrind);
	free(br->alloc_lib);
	for (i = 0; i < br->nartifacts; i++)
		free(br->artifacts[i].path);
	free(br->artifacts);
	br->artifacts = NULL;
	br->nartifacts = 0;
	br->pairs = NULL;
	br->error = NULL;
	br->valgrind = NULL;
	br->alloc_lib = NULL;
}
