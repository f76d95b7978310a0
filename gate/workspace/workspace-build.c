/*
 * Building the arms: the preflight of "build" and every "run" (a command
 * must stay inside its checkout and exist there), then both builds side by
 * side with their logs, what a failed build says, and each benchmark's
 * "check" in both arms after the build. Part of the
 * workspace (workspace.h); see ARCHITECTURE.md.
 */
#include "gate/workspace/workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/escape.h"
#include "ci/github.h"
#include "common/file.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/exec/notice.h"
#include "common/banned.h"

/* Is path at or below dir? Both canonical; dir without a trailing '/'. */
static int within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(dir, path, n) && (path[n] == '\0' || path[n] == '/');
}

/*
 * Walk relative path p from depth levels below the checkout's top: the
 * depth it ends at, or -1 when it climbs above the top on the way
 * ("../configure" from "bld" stays inside).
 */
static long walk_depth(const char *p, long depth)
{
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return -1;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += *p == '/';
	}
	return depth;
}

/*
 * A shell string reaches above the checkout with ".." only when more of
 * them climb than the "cd"s before went down: "cd bld && ../configure"
 * stays inside. A sketch of the shell, not the shell: words split at
 * blanks and at ; & | ( ), a word's path taken after its last '=', and a
 * "cd" to an absolute path, $VAR or ~ ends the check (not ours to judge).
 * 1: may reach out.
 */
static int shell_reaches_out(const char *sh)
{
	const char *sep = " \t\n;&|()";
	long depth = 0;
	int after_cd = 0, out = 0;

	while (*sh && !out) {
		size_t n = strcspn(sh, sep);
		char *word, *path, *eq;

		if (!n) {
			sh++;
			continue;
		}
		word = xstrndup(sh, n);
		sh += n;
		eq = strrchr(word, '=');
		path = eq ? eq + 1 : word;
		if (after_cd) {
			after_cd = 0;
			if (path[0] == '/' || strpbrk(path, "$~`")) {
				free(word);
				return 0;
			}
			depth = walk_depth(path, depth);
			out = depth < 0;
		} else if (!strcmp(word, "cd")) {
			after_cd = 1;
		} else if (path[0] != '/' && strstr(path, "..")) {
			out = walk_depth(path, depth) < 0;
		}
		free(word);
	}
	return out;
}

/*
 * cmd is what ("\"run\" of benchmark \"x\"", "\"build\"") about to run in
 * checkout dir of the user's repository with working tree workdir. An argv
 * whose program is a path (has a '/') that resolves outside dir, and is
 * relative or points into workdir, is an error: base and head would run
 * the same file. A shell string is the config author's: only warned about
 * when a "../" climbs above the checkout (shell_reaches_out) or it names
 * workdir. A program that does not exist yet
 * passes (the runner says so when it cannot start it).
 */
static int preflight_command(const struct command *cmd, const char *what,
			     const char *dir, const char *workdir,
			     struct gate_err *err)
{
	char real_dir[PATH_MAX], real_prog[PATH_MAX], real_wt[PATH_MAX];
	const char *prog;
	char *path;
	int ret = 0;

	if (!realpath(workdir, real_wt))
		real_wt[0] = '\0';
	if (cmd->shell) {
		if (shell_reaches_out(cmd->shell) ||
		    (real_wt[0] && strstr(cmd->shell, real_wt)))
			warning("%s (\"%s\") may reach outside the checkout "
				"it runs in: base and head would then share "
				"those files", what, cmd->shell);
		return 0;
	}
	prog = cmd->argv ? cmd->argv[0] : NULL;
	if (!prog || !strchr(prog, '/'))
		return 0;	/* found on PATH: a tool, not the code */
	path = prog[0] == '/' ? xstrdup(prog) : xasprintf("%s/%s", dir, prog);
	if (!realpath(dir, real_dir) || !realpath(path, real_prog))
		goto cleanup;	/* not there (yet): the runner will say */
	if (within(real_dir, real_prog))
		goto cleanup;
	if (prog[0] != '/' || (real_wt[0] && within(real_wt, real_prog)))
		ret = error_to(err, "%s runs \"%s\", which resolves to \"%s\", "
			       "outside the checkout it runs in (%s): base and "
			       "head would run the same file, so the "
			       "comparison would measure nothing of the "
			       "change; point it at a file in the repository, "
			       "relative to its top", what, prog, real_prog,
			       dir);
cleanup:
	free(path);
	return ret;
}

/* The last lines of a build log, for a build error message. */
static char *log_tail(const char *path)
{
	char *text = NULL, *start, *out;
	size_t len = 0;
	int lines = 0;

	if (file_read(&text, &len, path, 0) < 0)
		return xstrdup("");
	start = text + len;
	while (start > text && lines <= 15)
		if (*--start == '\n' && start + 1 < text + len)
			lines++;
	if (*start == '\n')
		start++;
	/* a log is the build's own bytes: an ESC sequence or a forged
	   workflow command in it must reach no terminal or Actions log
	   raw (common/escape.h; its lines kept) */
	out = escape_str(ci_github_active() ? ESCAPE_ACTIONS : ESCAPE_TERM,
			 start);
	free(text);
	return out;
}

static enum arm arm_of(const struct arm_state *all,
			   const struct arm_state *arm)
{
	return (enum arm)(arm - all);
}

/* The arms one build serves: those without a kept build of their tree. */
static size_t arms_to_build(struct arm_state **arm, struct arm_state *all,
			    size_t nall, int quiet)
{
	size_t k, narms = 0;

	for (k = 0; k < nall; k++) {
		if (!all[k].kept) {
			arm[narms++] = &all[k];
			continue;
		}
		if (!quiet)
			/* where: the checkout's line just said */
			notice("%s (%s) was built by an earlier run: not "
			       "building it again", arm_name((enum arm)k),
			       all[k].rev.label);
	}
	return narms;
}

/* Each arm's build: its log opened (fds[a]) and its spec. 0 or -1. */
static int build_specs(struct run_spec *spec, int *fds,
		       struct arm_state *const *arm, size_t narms,
		       const struct arm_state *all,
		       const struct config *const *def,
		       const struct config *policy, struct gate_err *err)
{
	size_t a;

	for (a = 0; a < narms; a++) {
		fds[a] = open(arm[a]->log, O_WRONLY | O_CREAT | O_TRUNC |
			      O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fds[a] < 0)
			return error_to(err, "cannot write the build log "
					"\"%s\":", arm[a]->log);
		spec[a] = (struct run_spec){
			/* each arm is built by its own revision's command */
			.cmd = &def[arm_of(all, arm[a])]->build,
			.cwd = arm[a]->dir, .timeout = policy->build_timeout,
			.grace = 2.0, .log_fd = fds[a],
			/* the arm's own git dir, even with its .git file
			   deleted */
			.envp = arm[a]->env,
			.box = arm[a]->box_argv[0] ? &arm[a]->box[0] : NULL,
		};
		if (workspace_arm_restore(arm[a], err) < 0)
			return -1;
	}
	return 0;
}

/*
 * Run the builds: both at once unless "serial_build"; never while
 * measuring. WS_ERROR when one could not be started or waited for.
 */
static enum ws_result run_builds(struct run_result *res,
				 const struct run_spec *spec,
				 struct arm_state *const *arm, size_t narms,
				 const struct arm_state *all,
				 const struct config *cfg, struct gate_err *err)
{
	struct proc *procs[2];
	size_t a, started = 0;

	for (a = 0; a < narms; a++) {
		if (run_start(&procs[a], &spec[a]) < 0) {
			error_to(err, "the build could not be started in %s: "
				 "%s: check \"build\" in gate.json",
				 arm_name(arm_of(all, arm[a])),
				 strerror(errno));
			break;
		}
		started++;
		if (cfg->serial_build &&
		    (run_wait(&procs[a], &res[a], 1) < 0 ||
		     signals_pending()))
			break;
	}
	if (!cfg->serial_build && started &&
	    run_wait(procs, res, started) < 0)
		return WS_ERROR;
	/* a signal during a serial build stops before the next one starts */
	if (signals_pending())
		return WS_INTERRUPTED;
	return started < narms ? WS_ERROR : WS_DONE;
}

/*
 * Each failed build, with its log's tail. Both failing: base's is
 * printed, head's (the last, as before) goes to err.
 */
static enum ws_result build_failures(const struct run_result *res,
				     struct arm_state *const *arm,
				     size_t narms, const struct arm_state *all,
				     int *failed, struct gate_err *err)
{
	enum ws_result ret = WS_DONE;
	char why[256], *tail;
	size_t a, last = narms;

	for (a = 0; a < narms; a++)
		if (res[a].status != RUN_OK)
			last = a;
	for (a = 0; a < narms; a++) {
		if (res[a].status == RUN_OK)
			continue;
		tail = log_tail(arm[a]->log);
		error_to(a == last ? err : NULL, "the build of %s (%s) %s; the "
			 "end of its log (%s):\n%s",
			 arm_name(arm_of(all, arm[a])), arm[a]->rev.label,
			 run_describe(&res[a], why, sizeof(why)), arm[a]->log,
			 tail);
		free(tail);
		failed[arm_of(all, arm[a])] = 1;
		ret = WS_ERROR;
	}
	return ret;
}

/*
 * "building base and head (logs in .git/gate: a.build.log, b.build.log)":
 * the logs' directory once, so the line fits 80 columns as a log's line
 * too (the two whole paths made it 85 or more).
 */
static void say_building(struct arm_state *const *arm, size_t narms,
			 const struct arm_state *all, size_t nall,
			 const char *top)
{
	const char *what = narms == 2 ? "base and head" : nall == 1 ? "it" :
			   arm_name(arm_of(all, arm[0]));
	const char *log0 = notice_path(arm[0]->log, top);
	const char *slash = strrchr(log0, '/');
	size_t dir = slash ? (size_t)(slash - log0) : 0;
	const char *log1 = narms == 2 ? notice_path(arm[1]->log, top) : NULL;

	if (log1 && dir && !strncmp(log0, log1, dir + 1) &&
	    !strchr(log1 + dir + 1, '/'))
		notice("building %s (logs in %.*s: %s, %s)", what, (int)dir,
		       log0, log0 + dir + 1, log1 + dir + 1);
	else if (log1)
		notice("building %s (logs %s and %s)", what, log0, log1);
	else
		notice("building %s (log in %s)", what, log0);
}

/* Build the arms, concurrently. */
static enum ws_result build_arms(const struct config *const *def,
				 const struct config *policy,
				 struct arm_state *all, size_t nall, int quiet,
				 const char *top, int *failed,
				 struct gate_err *err)
{
	struct arm_state *arm[2];
	struct run_spec spec[2];
	struct run_result res[2];
	int fds[2] = { -1, -1 };
	size_t a, k, narms;
	enum ws_result ret = WS_ERROR;

	narms = arms_to_build(arm, all, nall, quiet);
	/* an arm whose gate.json has nothing to build is not built */
	for (a = k = 0; a < narms; a++) {
		const struct command *cmd = &def[arm_of(all, arm[a])]->build;

		if (cmd->argv || cmd->shell)
			arm[k++] = arm[a];
	}
	narms = k;
	if (!narms)
		return WS_DONE;
	if (build_specs(spec, fds, arm, narms, all, def, policy, err) < 0)
		goto cleanup;
	if (!quiet)
		say_building(arm, narms, all, nall, top);
	ret = run_builds(res, spec, arm, narms, all, policy, err);
	if (ret != WS_DONE)
		goto cleanup;
	for (a = 0; a < narms; a++)
		arm[a]->build_seconds = res[a].wall;
	ret = build_failures(res, arm, narms, all, failed, err);
cleanup:
	for (a = 0; a < narms; a++)
		if (fds[a] >= 0)
			close(fds[a]);
	return ret;
}

/* Each arm's sandbox for builds (sample 0) or samples, where bubblewrap
   can start one. 0 or -1. */
static int arm_boxes(struct workspace *w, int sample)
{
	size_t a;
	int boxed = workspace_boxed(w);

	if (boxed < 0)
		return -1;
	for (a = 0; boxed && a < w->narms; a++)
		if (workspace_box(w, a, sample) < 0)
			return -1;
	return 0;
}

/* The build (before building) or every run (after) in each arm. */
static int preflight(const struct workspace *w,
		     const struct config *const *def, int build,
		     struct gate_err *err)
{
	size_t a, i;
	int ret = 0;

	/* each arm's own commands; a shell string of the same text in both
	   arms is said once, not once per arm */
	for (a = 0; a < w->narms && !ret; a++) {
		const struct config *cfg = def[a];

		if (build) {
			if ((cfg->build.argv || cfg->build.shell) &&
			    (!a || !cfg->build.shell || def[0] != def[1]))
				ret = preflight_command(&cfg->build,
							"\"build\"",
							w->arm[a].dir,
							w->workdir, err);
			continue;
		}
		for (i = 0; i < cfg->nbench && !ret; i++) {
			char *what;

			if (a && cfg->benches[i].run.shell)
				continue;
			what = xasprintf("\"run\" of benchmark \"%s\"",
					 cfg->benches[i].name);
			ret = preflight_command(&cfg->benches[i].run, what,
						w->arm[a].dir, w->workdir, err);
			free(what);
		}
	}
	return ret;
}

enum ws_result workspace_build(struct workspace *w,
			       const struct config *const def[2],
			       const struct config *policy, int quiet)
{
	int failed[2] = { 0, 0 };
	enum ws_result rc;
	size_t a;

	w->policy = policy;
	if (preflight(w, def, 1, w->err) < 0 || arm_boxes(w, 0) < 0)
		return WS_ERROR;
	rc = build_arms(def, policy, w->arm, w->narms, quiet, w->workdir,
			failed, w->err);
	if (rc == WS_DONE)
		workspace_mark_built(w);
	/* a failed build's output (a full disk's too) leaves the slot: the
	   next run builds it afresh and finds room for its lock */
	for (a = 0; a < w->narms; a++)
		if (failed[a])
			workspace_slot_discard(w, a);
	return rc;
}

int workspace_preflight(const struct workspace *w,
			const struct config *const def[2])
{
	return preflight(w, def, 0, w->err);
}

static enum ws_result check_one(struct arm_state *arm, enum arm which,
				const struct bench_cfg *b,
				const struct config *policy,
				struct gate_err *err)
{
	struct run_spec spec;
	struct run_result res;
	struct proc *proc;
	char *log = xasprintf("%.*s.check.log",
			      (int)(strlen(arm->log) - strlen(".build.log")),
			      arm->log);
	char why[256], *tail;
	enum ws_result ret = WS_ERROR;
	int fd;

	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0) {
		error_to(err, "cannot write the check log \"%s\":", log);
		free(log);
		return WS_ERROR;
	}
	spec = (struct run_spec){
		.cmd = &b->check, .cwd = arm->dir,
		.timeout = policy->build_timeout, .grace = 2.0, .log_fd = fd,
		.envp = arm->env,
		.box = arm->box_argv[0] ? &arm->box[0] : NULL,
	};
	if (workspace_arm_restore(arm, err) < 0) {
		close(fd);
		free(log);
		return WS_ERROR;
	}
	if (run_start(&proc, &spec) < 0) {
		error_to(err, "the check of benchmark \"%s\" could not be "
			 "started in %s: %s: check \"check\" in gate.json",
			 b->name, arm_name(which), strerror(errno));
	} else if (run_wait(&proc, &res, 1) == 0) {
		if (signals_pending()) {
			ret = WS_INTERRUPTED;
		} else if (res.status == RUN_OK) {
			ret = WS_DONE;
		} else {
			tail = log_tail(log);
			error_to(err, "the check of benchmark \"%s\" failed in "
				 "%s (%s): it %s, so %s is not measured: a "
				 "faster wrong program is no improvement; the "
				 "end of its output (%s):\n%s", b->name,
				 arm_name(which), arm->rev.label,
				 run_describe(&res, why, sizeof(why)),
				 arm_name(which), log, tail);
			free(tail);
		}
	}
	close(fd);
	free(log);
	return ret;
}

enum ws_result workspace_check(struct workspace *w,
			       const struct config *const def[2],
			       const struct config *policy, int quiet)
{
	size_t i, a;
	enum ws_result rc;

	w->policy = policy;
	if (arm_boxes(w, 0) < 0)
		return WS_ERROR;
	/* each arm's own checks, of the benchmarks head declares (base's
	   check of one head no longer has is not needed: it is removed) */
	for (i = 0; i < def[ARM_HEAD]->nbench; i++) {
		const char *name = def[ARM_HEAD]->benches[i].name;
		int said = 0;

		for (a = 0; a < w->narms; a++) {
			const struct bench_cfg *b = config_find(def[a], name);

			if (!b || (!b->check.argv && !b->check.shell))
				continue;
			if (!quiet && !said++)
				notice("checking benchmark \"%s\" in each arm",
				       name);
			if ((rc = check_one(&w->arm[a], (enum arm)a, b,
					    policy, w->err)) != WS_DONE)
				return rc;
		}
	}
	return WS_DONE;
}
