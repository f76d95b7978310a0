/*
 * One sample of one arm (measure-sample.h): the uninstrumented run (its
 * clock, rusage, perf counts and allocations, output parity, the shared
 * layout before and after) and the run under valgrind for an instruction
 * count, and why a run that failed cannot be used.
 */
#include "gate/measure-sample.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* valgrind runs this much slower: its samples get this much longer */
#define VALGRIND_TIMEOUT_FACTOR 50

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
		      enum arm a, const char *label, int sealed)
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
			"%s%s\n%s", cfg->name, arm_name(a), label,
			run_describe(res, why, sizeof(why)),
			sealed && (res->status == RUN_EXIT ||
				   res->status == RUN_SIGNAL) ?
			" (it ran sealed: a write outside its checkout and "
			"$GATE_TMPDIR fails; base's gate.json may list more "
			"in \"writable\")" : "", tail));
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
	/* each arm runs its own revision's command */
	struct run_spec spec = { bench_arm_run(cfg, a), opt->dir[a],
				 cfg->timeout, opt->grace, -1, NULL, 0, 0, NULL };
	struct run_result res;
	char *alloc_out = NULL, **aenv = NULL;
	int rc = -1;

	if (layout_in(br, opt, a, label, &spec.envp) < 0)
		return -1;
	/* the arm's git variables, .git file and write sandbox */
	if (opt->layout && layout_arm_before(opt->layout, a, tmp, &spec.envp,
					     &spec.sandbox_write) < 0)
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
		rc = run_failed(br, &res, a, label, spec.sandbox_write != NULL);
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
	const struct command *run = bench_arm_run(cfg, a);
	struct command cmd = { NULL, NULL };
	struct run_spec spec = { &cmd, opt->dir[a],
				 cfg->timeout * VALGRIND_TIMEOUT_FACTOR,
				 opt->grace, -1, NULL, 0, 0, NULL };
	struct run_result res;
	char *sh_argv[4] = { (char *)"/bin/sh", (char *)"-c", run->shell,
			     NULL };
	char *clabel = xasprintf("%s, counted under valgrind", label);
	char why[256];
	double n, sim[SIM_EVENTS];
	int rc = -1, k;

	char *const *lenv;
	char **env = NULL;

	if (layout_in(br, opt, a, clabel, &lenv) < 0 ||
	    (opt->layout && layout_arm_before(opt->layout, a, tmp, &lenv,
					      &spec.sandbox_write) < 0)) {
		free(clabel);
		return -1;
	}
	env = without_padding(lenv);
	spec.envp = env;
	cmd.argv = counter_valgrind_argv(br->valgrind, tmp, run->argv ?
					 run->argv : sh_argv, br->simulate);
	run_one(&res, &spec);
	if (layout_out(br, opt, a, clabel) < 0) {
		counter_valgrind_collect(tmp, &n, sim, why, sizeof(why));
		goto cleanup;
	}
	if (res.status != RUN_OK) {
		counter_valgrind_collect(tmp, &n, sim, why, sizeof(why));
		rc = run_failed(br, &res, a, clabel,
				spec.sandbox_write != NULL);
		goto cleanup;
	}
	if (check_parity(br, &res, a, clabel) < 0) {
		counter_valgrind_collect(tmp, &n, sim, why, sizeof(why));
		goto cleanup;
	}
	if (counter_valgrind_collect(tmp, &n, sim, why, sizeof(why)) < 0) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): %s",
				   cfg->name, arm_name(a), clabel, why));
		goto cleanup;
	}
	if (br->counter == COUNTER_VALGRIND)
		out->value[METRIC_INSTRUCTIONS] = n;
	if (br->simulate) {
		for (k = 0; k < SIM_EVENTS; k++)
			out->sim[k] = sim[k];
		out->value[METRIC_CYCLES] = metric_cycles(sim);
	}
	rc = 0;
cleanup:
	counter_valgrind_argv_free(cmd.argv);
	free(env);
	free(clabel);
	return rc;
}

int measure_sample(struct bench_run *br, const struct measure_opts *opt,
		   enum arm a, const char *label, const char *tmp, int counted,
		   struct sample *out, long pair)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < METRIC_COUNT; i++)
		out->value[i] = NAN;
	for (i = 0; i < SIM_EVENTS; i++)
		out->sim[i] = NAN;
	out->wall = out->cpu = NAN;
	out->maxrss_kb = 0;
	if (br->plain_runs)
		rc = plain_run(br, opt, a, label, tmp, out, pair);
	if (rc == 0 && counted && measure_valgrind(br))
		rc = counted_run(br, opt, a, label, tmp, out);
	return rc;
}
