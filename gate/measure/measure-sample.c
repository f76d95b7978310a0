/*
 * One sample of one arm (measure-sample.h): the uninstrumented run (its
 * clock, rusage, perf counts and allocations, output parity, the shared
 * layout before and after) and the run under valgrind for an instruction
 * count, and why a run that failed cannot be used.
 */
#include "gate/measure/measure-sample.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/tree.h"
#include "gate/exec/alloc.h"
#include "gate/exec/box.h"
#include "gate/exec/counter.h"
#include "gate/format/format.h"
#include "gate/exec/layout.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/measure/measure-suite.h"
#include "gate/measure/measure-counted.h"
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

/*
 * Whether a sealed sample that failed may have failed on the seal: its
 * stderr says a write was refused, or says nothing. A failure that names
 * another cause ("No module named pytest") gets no hint about the seal.
 */
static int may_be_sealed_write(const struct run_result *res)
{
	static const char *const refused[] = { "ermission denied",
		"ead-only file system", "peration not permitted", "EACCES",
		"EPERM", "EROFS" };
	size_t i;

	if (res->status != RUN_EXIT && res->status != RUN_SIGNAL)
		return 0;
	if (!res->err_tail[strspn(res->err_tail, " \t\r\n")])
		return 1;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strstr(res->err_tail, refused[i]))
			return 1;
	return 0;
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
			sealed && may_be_sealed_write(res) ?
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
	struct run_spec spec = { .cmd = bench_arm_run(cfg, a),
				 .cwd = opt->dir[a], .timeout = cfg->timeout,
				 .grace = opt->grace, .log_fd = -1 };
	struct run_result res;
	char *alloc_out = NULL, **aenv = NULL;
	const char *box_rw[3] = { NULL, NULL, NULL };
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
	/* in the arm's own sandbox, timed inside it: its set-up is never in
	   the sample */
	if (opt->layout && (spec.box = layout_arm_box(opt->layout, a))) {
		box_rw[0] = tmp;
		box_rw[1] = opt->layout->scratch;	/* its $GATE_TMPDIR */
		spec.box_rw = box_rw;
		spec.box_timed = 1;
	}
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
		rc = run_failed(br, &res, a, label,
				spec.sandbox_write || spec.box);
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
	strv_free(aenv);
	return rc;
}

/* Every value of out "not measured". */
static void sample_clear(struct sample *out)
{
	size_t i;

	for (i = 0; i < METRIC_COUNT; i++)
		out->value[i] = NAN;
	for (i = 0; i < SIM_EVENTS; i++)
		out->sim[i] = NAN;
	out->wall = out->cpu = NAN;
	out->maxrss_kb = 0;
}

/* One run of measure_counted's batch, in flight. */
struct counted_slot {
	char *dir;		/* its own: valgrind's files, its scratch */
	char *in;		/* dir as the run sees it: BOX_RUN_DIR in a
				   sandbox, else dir */
	char *scratch;		/* in/t: its $GATE_TMPDIR */
	char *label;		/* "pair 3, counted under valgrind" */
	char **env;		/* its environment (strings of the layout's
				   but the two it replaces, which it owns) */
	char *vars[2];		/* those two: GATE_TMPDIR=, TMPDIR= */
	char **aenv;		/* a plain run's environment with the
				   preload, or NULL */
	char **cenv;		/* a counted suite's environment (owned),
				   or NULL */
	char *alloc_out;	/* where its preload records, or NULL */
	struct command cmd;
	const char *box_rw[2];	/* dir, writable in its sandbox */
	const char *box_at[2];	/* in: where dir is bound there */
	int sealed;
	int state;		/* 0 not started, 1 running, 2 could not
				   start (res says why) */
	struct run_result res;	/* a run that could not start */
};

/*
 * env (the layout's array) without GATE_PAD and with the shared scratch
 * replaced by slot's own: the runs of a batch run at once, so each gets a
 * $GATE_TMPDIR (and a sealed run's TMPDIR) of its own.
 */
static void slot_env(struct counted_slot *slot, const struct measure_opts *opt,
		     char *const *env)
{
	const char *shared = opt->layout ? opt->layout->scratch : NULL;
	size_t i;

	slot->env = without_padding(env);
	if (!shared)
		return;
	for (i = 0; slot->env[i]; i++) {
		const char *e = slot->env[i], *eq = strchr(e, '=');

		if (!eq || strcmp(eq + 1, shared))
			continue;
		if (!strncmp(e, "GATE_TMPDIR=", 12) && !slot->vars[0])
			slot->env[i] = slot->vars[0] =
				xasprintf("GATE_TMPDIR=%s", slot->scratch);
		else if (!strncmp(e, "TMPDIR=", 7) && !slot->vars[1])
			slot->env[i] = slot->vars[1] =
				xasprintf("TMPDIR=%s", slot->scratch);
	}
}

/* Start job's run (plain, or under valgrind) into *proc; 0, or -1 with
   br->error. */
static int counted_start(struct bench_run *br, const struct measure_opts *opt,
			 const struct counted_job *job, const char *tmp,
			 size_t k, struct counted_slot *slot,
			 struct proc **proc)
{
	const struct bench_cfg *cfg = br->cfg;
	const struct command *run = bench_arm_run(cfg, job->a);
	char *sh_argv[4] = { (char *)"/bin/sh", (char *)"-c", run->shell,
			     NULL };
	struct run_spec spec = { .cmd = &slot->cmd, .cwd = opt->dir[job->a],
				 .timeout = cfg->timeout * VALGRIND_TIMEOUT_FACTOR,
				 .grace = opt->grace, .log_fd = -1 };
	char *const *lenv, *outer, *in_allocs;
	int made;

	slot->label = job->plain ? xstrdup(job->label) :
		      xasprintf("%s, counted under valgrind", job->label);
	slot->dir = xasprintf("%s/p%03zu", tmp, k % 1000);
	outer = xasprintf("%s/t", slot->dir);
	made = mkdir(slot->dir, 0700) == 0 && mkdir(outer, 0700) == 0;
	if (!made)
		fail(br, xasprintf("benchmark \"%s\": cannot create \"%s\": "
				   "%s: set TMPDIR to a writable directory",
				   cfg->name, outer, strerror(errno)));
	free(outer);
	if (!made)
		return -1;
	spec.box = opt->layout ? layout_arm_box(opt->layout, job->a) : NULL;
	/*
	 * In a sandbox the slot is bound at one fixed path, so that every
	 * counted process sees the same paths and environment whichever
	 * slot it ran in: with pNNN in $GATE_TMPDIR and valgrind's options,
	 * one numpy process in six counted nearly every case differently.
	 */
	slot->in = xstrdup(spec.box ? BOX_RUN_DIR : slot->dir);
	slot->scratch = xasprintf("%s/t", slot->in);
	if (layout_in(br, opt, job->a, slot->label, &lenv) < 0 ||
	    (opt->layout && layout_arm_before(opt->layout, job->a, slot->dir,
					      &lenv, &spec.sandbox_write) < 0))
		return -1;
	slot_env(slot, opt, lenv);
	spec.envp = slot->env;
	if (spec.box) {
		slot->box_rw[0] = slot->dir;
		slot->box_at[0] = slot->in;
		spec.box_rw = slot->box_rw;
		spec.box_rw_at = slot->box_at;
		spec.box_timed = job->plain;
	}
	slot->sealed = spec.sandbox_write || spec.box;
	if (job->plain) {
		/* the benchmark's own command, as plain_run starts it */
		sample_clear(job->out);
		spec.cmd = run;
		spec.timeout = cfg->timeout;
		spec.count_instructions = br->counter == COUNTER_PERF;
		if (br->alloc_lib) {
			slot->alloc_out = xasprintf("%s/allocs", slot->dir);
			in_allocs = xasprintf("%s/allocs", slot->in);
			slot->aenv = alloc_env(br->alloc_lib, in_allocs,
					       slot->env);
			free(in_allocs);
			spec.envp = slot->aenv;
		}
	} else if (br->probe) {
		/* a suite counted per case (gate/measure/measure-counted.c) */
		slot->cmd.argv = suite_counted_argv(br, slot->in,
					run->argv ? run->argv : sh_argv,
					!run->argv);
		slot->cenv = suite_counted_env(br, slot->env);
		spec.envp = slot->cenv;
		spec.capture = FORMAT_MAX_BYTES;
	} else {
		slot->cmd.argv = counter_valgrind_argv(br->valgrind, slot->in,
					run->argv ? run->argv : sh_argv,
					br->simulate);
	}
	if (run_start(proc, &spec) < 0) {
		memset(&slot->res, 0, sizeof(slot->res));
		slot->res.status = RUN_SPAWN;
		slot->res.code = errno;
		slot->res.instructions = NAN;
		slot->state = 2;
	} else {
		slot->state = 1;
	}
	/* the run has its own scratch: the shared one is emptied for the
	   next (the sandbox and environment are the child's from here) */
	return layout_out(br, opt, job->a, slot->label);
}

/* A finished run's counts into job->out; 0, -1 or the signal. */
static int counted_finish(struct bench_run *br, const struct counted_job *job,
			  struct counted_slot *slot,
			  const struct run_result *res)
{
	char why[256];
	double n, sim[SIM_EVENTS];
	int got, k;

	if (res->status != RUN_OK)
		return run_failed(br, res, job->a, slot->label, slot->sealed);
	if (check_parity(br, res, job->a, slot->label) < 0)
		return -1;
	if (job->plain)
		return sample_from_result(br, job->out, res, job->a,
					  slot->label) < 0 ||
		       (slot->alloc_out &&
			sample_allocs(br, job->out, slot->alloc_out, job->a,
				      slot->label) < 0) ||
		       check_resolution(br, job->out, job->a,
					slot->label) < 0 ? -1 : 0;
	if (br->probe)
		return suite_counted_collect(br, job->a, slot->label, slot->dir,
					     res, job->pair);
	got = counter_valgrind_collect(slot->dir, &n, br->simulate ? sim :
				       NULL, why, sizeof(why));
	if (got < 0) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): %s",
				   br->cfg->name, arm_name(job->a),
				   slot->label, why));
		return -1;
	}
	if (br->counter == COUNTER_VALGRIND)
		job->out->value[METRIC_INSTRUCTIONS] = n;
	if (br->simulate) {
		for (k = 0; k < SIM_EVENTS; k++)
			job->out->sim[k] = sim[k];
		job->out->value[METRIC_CYCLES] = metric_cycles(sim);
	}
	return 0;
}

int measure_counted(struct bench_run *br, const struct measure_opts *opt,
		    const struct counted_job *jobs, size_t n, const char *tmp)
{
	struct counted_slot *slot = xcalloc(n ? n : 1, sizeof(*slot));
	struct proc **procs = xcalloc(n ? n : 1, sizeof(*procs));
	struct run_result *res = xcalloc(n ? n : 1, sizeof(*res));
	double t0 = clock_seconds();
	size_t i, started = 0;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		rc = counted_start(br, opt, &jobs[i], tmp, i, &slot[i],
				   &procs[started]);
		started += slot[i].state == 1;
	}
	/* every run started is waited for, even when a later one failed;
	   a wait that failed leaves them RUN_LOST, which says so */
	if (started)
		run_wait(procs, res, started);
	for (i = 0, started = 0; i < n; i++) {
		const struct run_result *got = slot[i].state == 1 ?
					       &res[started++] : &slot[i].res;

		/* the first error is the one said */
		if (slot[i].state && rc == 0)
			rc = counted_finish(br, &jobs[i], &slot[i], got);
		free(res[i].out);
	}
	for (i = 0; i < n; i++) {
		if (slot[i].dir && tree_remove(slot[i].dir, NULL) < 0 &&
		    rc == 0)
			rc = -1;
		counter_valgrind_argv_free(slot[i].cmd.argv);
		strv_free(slot[i].aenv);
		strv_free(slot[i].cenv);
		free(slot[i].alloc_out);
		free(slot[i].env);
		free(slot[i].vars[0]);
		free(slot[i].vars[1]);
		free(slot[i].dir);
		free(slot[i].in);
		free(slot[i].scratch);
		free(slot[i].label);
	}
	free(slot);
	free(procs);
	free(res);
	/* the valgrind runs' time, which the round's cost prices apart */
	if (n && !jobs[0].plain)
		br->counted_seconds += clock_seconds() - t0;
	return rc;
}

int measure_sample(struct bench_run *br, const struct measure_opts *opt,
		   enum arm a, const char *label, const char *tmp, int counted,
		   struct sample *out, long pair)
{
	int rc = 0;

	sample_clear(out);
	if (br->plain_runs)
		rc = plain_run(br, opt, a, label, tmp, out, pair);
	if (rc == 0 && counted && measure_valgrind(br)) {
		struct counted_job job = { .a = a, .label = label, .out = out,
					   .pair = pair };

		rc = measure_counted(br, opt, &job, 1, tmp);
	}
	return rc;
}
