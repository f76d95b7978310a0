/*
 * The workspace gate run and gate calibrate measure in: $GIT_DIR/gate/
 * and its lock, the arm slots a and b, checkouts, builds with their logs,
 * the preflight of "build" and "run", and the measuring layout (padding,
 * scratch, pinning). One module, so every command measures alike.
 */
#include "gate/workspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/tree.h"
#include "common/file.h"
#include "common/sha256.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
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

static int workspace_mkdir(const char *path, struct gate_err *err)
{
	struct stat st;

	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return error_to(err, "cannot create \"%s\":", path);
	if (lstat(path, &st) < 0)
		return error_to(err, "cannot look at \"%s\":", path);
	if (S_ISLNK(st.st_mode))
		return error_to(err, "refusing to use \"%s\": it is a symbolic "
				"link, and gate writes and deletes only in a "
				"directory of its own; remove the link (not "
				"what it points to) and run again", path);
	if (!S_ISDIR(st.st_mode))
		return error_to(err, "\"%s\" is not a directory: gate keeps "
				"its checkouts there; move it away and run "
				"again", path);
	return 0;
}

/*
 * What gate writes or deletes in its directory must be its own: a
 * symbolic link there (put by hand, or by a build) would make a checkout,
 * a log or a removal act on wherever it points.
 */
static const char *const own_names[] = {
	"lock", "a", "b", "a.index", "b.index", "a.index.lock",
	"b.index.lock", "a.build.log", "b.build.log", "calibration.json",
	"objects", "a.git", "b.git", "a.git/index", "b.git/index", NULL
};

static int workspace_check_entries(const char *gate_dir, struct gate_err *err)
{
	static const char *const slot_suffix[] = { "", ".git", ".git/index",
		".state", ".build.log", NULL };
	const char *s;
	size_t i;

	for (s = "abcdefghijklmnopqrstuvwxyz"; *s; s++)
		for (i = 0; slot_suffix[i]; i++) {
			char *path = xasprintf("%s/%c%s", gate_dir, *s,
					       slot_suffix[i]);
			struct stat st;
			int link = !lstat(path, &st) && S_ISLNK(st.st_mode);

			if (link)
				error_to(err, "refusing to use \"%s\": it is a "
					 "symbolic link, and gate writes and "
					 "deletes only its own files there; "
					 "remove the link (not what it points "
					 "to) and run again", path);
			free(path);
			if (link)
				return -1;
		}

	for (i = 0; own_names[i]; i++) {
		char *path = xasprintf("%s/%s", gate_dir, own_names[i]);
		struct stat st;
		int link = !lstat(path, &st) && S_ISLNK(st.st_mode);

		if (link)
			error_to(err, "refusing to use \"%s\": it is a "
				 "symbolic link, and gate writes and deletes "
				 "only its own files there; remove the link "
				 "(not what it points to) and run again", path);
		free(path);
		if (link)
			return -1;
	}
	return 0;
}

/*
 * Scratch directories of runs that died without cleaning up (SIGKILL):
 * the caller holds the lock, so no live run owns one. tree_remove never
 * follows a link.
 */
static void reclaim_scratch(const char *gate_dir)
{
	struct dirent *de;
	DIR *d = opendir(gate_dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path;

		if (strncmp(de->d_name, "scratch-", 8))
			continue;
		path = xasprintf("%s/%s", gate_dir, de->d_name);
		if (tree_remove(path, NULL) < 0)
			warning("cannot remove \"%s\", left by an earlier "
				"run: remove it by hand", path);
		free(path);
	}
	closedir(d);
}

/*
 * --config FILE. A FIFO would block in open() until a writer comes, and a
 * signal that came just before the open would be only a flag nobody looks
 * at: so a FIFO is opened without blocking and waited on in slices of
 * 100 ms, each after a look at the signals (the caller turns the failure
 * into the signal's exit code). Once data or a hang-up is there, the read
 * blocks as usual; a signal then interrupts it (file_read_fd).
 */
static int config_read_file(char **text, size_t *len, const char *path,
			    struct gate_err *err)
{
	struct stat st;
	int fd, flags, n;

	if (signals_pending())
		return -1;
	if (stat(path, &st) < 0 || !S_ISFIFO(st.st_mode))
		return file_read_to(text, len, path, CONFIG_MAX_BYTES,
				    err);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return error_to(err, "cannot read \"%s\":", path);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (signals_pending()) {
			close(fd);
			return -1;
		}
		n = poll(&p, 1, 100);
		if (n > 0)
			break;
		if (n < 0 && errno != EINTR) {
			close(fd);
			return error_to(err, "cannot wait for \"%s\":", path);
		}
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		close(fd);
		return error_to(err, "cannot read \"%s\":", path);
	}
	return file_read_fd_to(text, len, fd, path, CONFIG_MAX_BYTES, err);
}

/* The config gate runs with: --config FILE, or gate.json in head. */
int workspace_load_config(struct config *cfg, char **origin,
			  struct repo *repo, const char *path,
			  const struct repo_rev *head)
{
	return workspace_load_config_to(cfg, origin, repo, path, head, NULL);
}

int workspace_load_config_to(struct config *cfg, char **origin,
			     struct repo *repo, const char *path,
			     const struct repo_rev *head, struct gate_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (path) {
		*origin = xstrdup(path);
		if (config_read_file(&text, &len, path, err) < 0)
			return -1;
	} else {
		*origin = xstrdup("gate.json");
		if (repo_read_file(&text, &len, repo, head->tree,
				   "gate.json", err) < 0)
			return -1;
		if (!text)
			return error_to(err, "head (%s) has no gate.json at "
					"the top of the repository: write one "
					"(see README.md) or pass --config "
					"FILE", head->label);
	}
	rc = config_parse_to(cfg, text, len, *origin, err);
	free(text);
	return rc;
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
	out = xstrdup(start);
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
			fprintf(stderr, "gate: %s (%s) was built in %s by an "
				"earlier run: not building it again\n",
				arm_name((enum arm)k), all[k].rev.label,
				all[k].dir);
	}
	return narms;
}

/* Each arm's build: its log opened (fds[a]) and its spec. 0 or -1. */
static int build_specs(struct run_spec *spec, int *fds,
		       struct arm_state *const *arm, size_t narms,
		       const struct config *cfg, struct gate_err *err)
{
	size_t a;

	for (a = 0; a < narms; a++) {
		fds[a] = open(arm[a]->log, O_WRONLY | O_CREAT | O_TRUNC |
			      O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fds[a] < 0)
			return error_to(err, "cannot write the build log "
					"\"%s\":", arm[a]->log);
		memset(&spec[a], 0, sizeof(spec[a]));
		spec[a].cmd = &cfg->build;
		spec[a].cwd = arm[a]->dir;
		spec[a].timeout = cfg->build_timeout;
		spec[a].grace = 2.0;
		spec[a].log_fd = fds[a];
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
	if (started < narms)
		return WS_ERROR;
	return signals_pending() ? WS_INTERRUPTED : WS_DONE;
}

/*
 * Each failed build, with its log's tail. Both failing: base's is
 * printed, head's (the last, as before) goes to err.
 */
static enum ws_result build_failures(const struct run_result *res,
				     struct arm_state *const *arm,
				     size_t narms, const struct arm_state *all,
				     struct gate_err *err)
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
		ret = WS_ERROR;
	}
	return ret;
}

/* Build the arms, concurrently. */
static enum ws_result build_arms(const struct config *cfg,
				 struct arm_state *all, size_t nall, int quiet,
				 struct gate_err *err)
{
	struct arm_state *arm[2];
	struct run_spec spec[2];
	struct run_result res[2];
	int fds[2] = { -1, -1 };
	size_t a, narms;
	enum ws_result ret = WS_ERROR;

	if (!cfg->build.argv && !cfg->build.shell)
		return WS_DONE;
	narms = arms_to_build(arm, all, nall, quiet);
	if (!narms)
		return WS_DONE;
	if (build_specs(spec, fds, arm, narms, cfg, err) < 0)
		goto cleanup;
	if (!quiet)
		fprintf(stderr, "gate: building %s (log in %s%s%s)\n",
			narms == 2 ? "base and head" : nall == 1 ? "it" :
			arm_name(arm_of(all, arm[0])), arm[0]->log,
			narms == 2 ? " and " : "",
			narms == 2 ? arm[1]->log : "");
	ret = run_builds(res, spec, arm, narms, all, cfg, err);
	if (ret != WS_DONE)
		goto cleanup;
	for (a = 0; a < narms; a++)
		arm[a]->build_seconds = res[a].wall;
	ret = build_failures(res, arm, narms, all, err);
cleanup:
	for (a = 0; a < narms; a++)
		if (fds[a] >= 0)
			close(fds[a]);
	return ret;
}

static void arm_release(struct arm_state *a)
{
	repo_rev_release(&a->rev);
	free(a->how);
	free(a->dir);
	free(a->index);
	free(a->log);
}


/*
 * Snapshots of the working tree go to gate's own object store, emptied
 * at every run (so they never pile up), not to the repository's.
 */
static int workspace_objects(struct workspace *w, struct repo *repo,
			     struct gate_err *err)
{
	char *dir = workspace_path(w, "objects");
	int rc = tree_remove(dir, err) < 0 ? -1 :
		 repo_private_objects(repo, dir, err);

	free(dir);
	return rc;
}

int workspace_open(struct workspace *w, struct repo *repo)
{
	w->gate_dir = xasprintf("%sgate", repo_gitdir(repo));
	w->lock_path = xasprintf("%s/lock", w->gate_dir);
	w->workdir = repo_workdir(repo);
	if (workspace_mkdir(w->gate_dir, w->err) < 0 ||
	    workspace_check_entries(w->gate_dir, w->err) < 0 ||
	    repo_lock(&w->lock_fd, w->lock_path, w->err) < 0)
		return -1;
	reclaim_scratch(w->gate_dir);
	return workspace_objects(w, repo, w->err);
}

char *workspace_path(const struct workspace *w, const char *name)
{
	return xasprintf("%s/%s", w->gate_dir, name);
}

void workspace_slots(struct workspace *w, size_t narms, int swapped)
{
	size_t a;

	w->narms = narms;
	w->swapped = swapped;
	for (a = 0; a < narms; a++) {
		/* base in a unless swapped: a directory owns no arm */
		const char *slot = (a == 0) != swapped ? "a" : "b";

		w->arm[a].dir = xasprintf("%s/%s", w->gate_dir, slot);
		/* the arm's own git dir, for git run in it: its index */
		w->arm[a].index = xasprintf("%s/%s.git/index", w->gate_dir,
					    slot);
		w->arm[a].log = xasprintf("%s/%s.build.log", w->gate_dir, slot);
	}
}

static int check_tree(struct repo *repo, struct arm_state *arm, size_t a,
		      struct gate_err *err)
{
	char *what;
	int rc;

	if (a > 0 && !strcmp(arm[0].rev.tree, arm[a].rev.tree))
		return 0;
	what = xasprintf("%s (%s)", arm_name((enum arm)a), arm[a].rev.label);
	rc = repo_scan_tree(repo, arm[a].rev.tree, what, err);
	free(what);
	return rc;
}

/* The arm's git dir: the directory of its index (gate/a.git). */
static int arm_gitdir(struct repo *repo, const struct arm_state *arm,
		      struct gate_err *err)
{
	char *gitdir = xstrndup(arm->index, strlen(arm->index) -
				strlen("/index"));
	int rc = repo_arm_gitdir(repo, gitdir, arm->rev.commit, arm->dir,
				 err);

	free(gitdir);
	return rc;
}

enum ws_result workspace_checkout(struct workspace *w, struct repo *repo,
				  int quiet)
{
	size_t a, updated;

	for (a = 0; a < w->narms; a++) {
		struct arm_state *arm = &w->arm[a];

		if (!quiet && !w->aa)
			fprintf(stderr, "gate: checking out %s (%s) into %s\n",
				arm_name((enum arm)a), arm->rev.label,
				arm->dir);
		else if (!quiet)
			fprintf(stderr, "gate: checking out %s into %s\n",
				arm->rev.label, arm->dir);
		if (check_tree(repo, w->arm, a, w->err) < 0 ||
		    repo_checkout_count(repo, arm->rev.tree, arm->dir,
					arm->index, &updated, w->err) < 0)
			return WS_ERROR;
		if (arm->kept && updated) {
			arm->kept = 0;	/* something changed it: build again */
			if (!quiet)
				fprintf(stderr, "gate: %zu file%s in %s "
					"differed from the tree it built: "
					"building it again\n", updated,
					updated == 1 ? "" : "s", arm->dir);
		}
		if (arm_gitdir(repo, arm, w->err) < 0)
			return WS_ERROR;
		signals_test_stall("checkout");
		if (signals_pending())
			return WS_INTERRUPTED;
	}
	return WS_DONE;
}

/* The build (before building) or every run (after) in each arm. */
static int preflight(const struct workspace *w, const struct config *cfg,
		     int build, struct gate_err *err)
{
	size_t a, i;
	int ret = 0;

	/* a > 0 skips shell strings: one warning each, not one per arm */
	for (a = 0; a < w->narms && !ret; a++) {
		if (build) {
			if (!a || !cfg->build.shell)
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

enum ws_result workspace_build(struct workspace *w, const struct config *cfg,
			       int quiet)
{
	enum ws_result rc;

	if (preflight(w, cfg, 1, w->err) < 0)
		return WS_ERROR;
	rc = build_arms(cfg, w->arm, w->narms, quiet, w->err);
	if (rc == WS_DONE)
		workspace_mark_built(w);
	return rc;
}

static enum ws_result check_one(struct arm_state *arm, enum arm which,
				const struct bench_cfg *b,
				const struct config *cfg, struct gate_err *err)
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
	memset(&spec, 0, sizeof(spec));
	spec.cmd = &b->check;
	spec.cwd = arm->dir;
	spec.timeout = cfg->build_timeout;
	spec.grace = 2.0;
	spec.log_fd = fd;
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

enum ws_result workspace_check(struct workspace *w, const struct config *cfg,
			       int quiet)
{
	size_t i, a;
	enum ws_result rc;

	for (i = 0; i < cfg->nbench; i++) {
		const struct bench_cfg *b = &cfg->benches[i];

		if (!b->check.argv && !b->check.shell)
			continue;
		if (!quiet)
			fprintf(stderr, "gate: checking benchmark \"%s\" in "
				"each arm\n", b->name);
		for (a = 0; a < w->narms; a++)
			if ((rc = check_one(&w->arm[a], (enum arm)a, b,
					    cfg, w->err)) != WS_DONE)
				return rc;
	}
	return WS_DONE;
}

int workspace_preflight(const struct workspace *w, const struct config *cfg)
{
	return preflight(w, cfg, 0, w->err);
}

int workspace_layout(struct workspace *w, int env_pad, int scratch,
		     unsigned long seed, const char *pin)
{
	if (layout_init(&w->layout, env_pad, scratch, seed, w->gate_dir,
			w->err) < 0)
		return -1;
	if (!pin)
		return 0;
	if (layout_pin(pin, &w->pin_warning, w->err) < 0)
		return -1;
	if (w->pin_warning)
		warning("%s", w->pin_warning);
	w->pin = pin;
	return 0;
}

int workspace_fingerprint(struct workspace *w, struct repo *repo)
{
	size_t a;

	for (a = 0; a < w->narms; a++) {
		repo_files_release(&w->files[a]);
		if (repo_tree_files(&w->files[a], repo, w->arm[a].rev.tree,
				    w->arm[a].dir, w->err) < 0)
			return -1;
	}
	return 0;
}

int workspace_verify(struct workspace *w, struct repo *repo)
{
	size_t a;
	int ret = 0;

	for (a = 0; a < w->narms && !ret; a++) {
		struct repo_files now = REPO_FILES_INIT;
		const struct repo_files *then = &w->files[a];
		long i;

		if (repo_tree_files(&now, repo, w->arm[a].rev.tree,
				    w->arm[a].dir, w->err) < 0)
			return -1;
		i = repo_files_diff(then, &now);
		if (i >= 0 && (size_t)i < then->n && (size_t)i < now.n)
			ret = error_to(w->err, "%s's checkout (%s) changed "
				       "while measuring: \"%s\" was %s after "
				       "the build and is %s now; a build or "
				       "benchmark wrote into an arm's tracked "
				       "files, so what was measured is not %s "
				       "as committed and there is no verdict; "
				       "write only to $GATE_TMPDIR",
				       arm_name((enum arm)a), w->arm[a].dir,
				       then->path[i], then->state[i],
				       now.state[i], arm_name((enum arm)a));
		else if (i >= 0)
			ret = error_to(w->err, "%s's checkout (%s) changed "
				       "while measuring: its tracked files "
				       "differ from the build's; there is no "
				       "verdict", arm_name((enum arm)a),
				       w->arm[a].dir);
		repo_files_release(&now);
	}
	return ret;
}

void workspace_release(struct workspace *w)
{
	size_t a;

	for (a = 0; a < 2; a++)
		repo_files_release(&w->files[a]);
	free(w->build_key);
	for (a = 0; a < w->nhashed; a++)
		free(w->hashed[a].path);
	free(w->hashed);

	layout_release(&w->layout);
	free(w->pin_warning);
	for (a = 0; a < 2; a++)
		arm_release(&w->arm[a]);
	if (w->lock_fd >= 0)
		repo_unlock(w->lock_fd, w->lock_path);
	free(w->lock_path);
	free(w->gate_dir);
}

/* pattern with glob(3)'s special characters escaped: a directory name */
