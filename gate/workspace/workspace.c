/*
 * The workspace gate run and gate calibrate measure in: $GIT_DIR/gate/
 * and its lock, the arm slots a and b, checkouts, and the measuring layout
 * (padding, scratch, pinning); building and checking the arms is in
 * workspace-build.c, the build cache's slots in workspace-cache.c, the
 * artifacts' hashes in workspace-artifacts.c. One module, so every
 * command measures alike.
 */
#include "gate/workspace/workspace.h"

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
#include "gate/exec/box.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/exec/notice.h"
#include "git/interrupt.h"
#include "common/banned.h"

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
	"objects", "a.git", "b.git", "a.git/index", "b.git/index",
	"cache-base", "cache-head", NULL
};

static int workspace_check_entries(const char *gate_dir, struct gate_err *err)
{
	static const char *const slot_suffix[] = { "", ".git", ".git/index",
		".state", ".build.log", ".manifest", ".manifest.tmp", NULL };
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
	struct gate_err err;
	struct dirent *de;
	DIR *d = opendir(gate_dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path;

		if (strncmp(de->d_name, "scratch-", 8))
			continue;
		path = xasprintf("%s/%s", gate_dir, de->d_name);
		if (tree_remove(path, &err) < 0)
			warning("%s, left by an earlier run: remove it by "
				"hand", err.msg);
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
 * blocks as usual; a signal then interrupts it (file_read_fd_to).
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

static void arm_release(struct arm_state *a)
{
	size_t i;

	for (i = 0; a->env && a->env[i]; i++)
		if (layout_git_var(a->env[i]))
			free(a->env[i]);	/* ours; the rest is environ's */
	free(a->env);
	workspace_box_release(a);
	free(a->gitdir);
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
	repo_set_interrupt(signals_pending);	/* git/'s long loops */
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

extern char **environ;

/*
 * git's variables for a run in arm: its own git dir and work tree, and a
 * ceiling at gate's directory, so that even with GIT_DIR unset and the
 * ".git" file deleted, git's search stops before the user's repository.
 */
static void arm_git_vars(const struct workspace *w,
			 const struct arm_state *arm, char **vars)
{
	vars[0] = xasprintf("GIT_DIR=%s", arm->gitdir);
	vars[1] = xasprintf("GIT_WORK_TREE=%s", arm->dir);
	vars[2] = xasprintf("GIT_CEILING_DIRECTORIES=%s", w->gate_dir);
	vars[3] = NULL;
}

/* The environment of the arm's builds and checks (arm->env). */
static void arm_env(const struct workspace *w, struct arm_state *arm)
{
	size_t n = 0, k = 0, i;

	while (environ[n])
		n++;
	arm->env = xcalloc(n + 4, sizeof(*arm->env));
	for (i = 0; i < n; i++)
		if (!layout_git_var(environ[i]))
			arm->env[k++] = environ[i];
	arm_git_vars(w, arm, arm->env + k);
}

/* The arm's git dir: the directory of its index (gate/a.git). */
static int arm_gitdir(struct workspace *w, struct repo *repo,
		      struct arm_state *arm, struct gate_err *err)
{
	free(arm->gitdir);
	arm->gitdir = xstrndup(arm->index, strlen(arm->index) -
			       strlen("/index"));
	if (!arm->env)
		arm_env(w, arm);
	return repo_arm_gitdir(repo, arm->gitdir, arm->rev.commit, arm->dir,
			       err);
}

int workspace_arm_restore(const struct arm_state *arm, struct gate_err *err)
{
	char *path, *text;
	size_t len;
	int fd, ret = 0;

	if (!arm->gitdir)
		return 0;
	path = xasprintf("%s/.git", arm->dir);
	text = xasprintf("gitdir: %s\n", arm->gitdir);
	len = strlen(text);
	/* whatever stands there now: a link, a directory, another file */
	if (unlink(path) < 0 && errno != ENOENT && tree_remove(path, err) < 0)
		ret = -1;
	else if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
			    O_NOFOLLOW, 0644)) < 0)
		ret = error_to(err, "cannot restore \"%s\":", path);
	else {
		int ok = write(fd, text, len) == (ssize_t)len;

		if (close(fd) < 0 || !ok)
			ret = error_to(err, "cannot restore \"%s\":", path);
	}
	free(path);
	free(text);
	return ret;
}

enum ws_result workspace_checkout(struct workspace *w, struct repo *repo,
				  int quiet)
{
	size_t a, updated;

	for (a = 0; a < w->narms; a++) {
		struct arm_state *arm = &w->arm[a];

		if (!quiet && !w->aa)
			notice("checking out %s (%s) into %s",
			       arm_name((enum arm)a), arm->rev.label,
			       notice_path(arm->dir, w->workdir));
		else if (!quiet)
			notice("checking out %s into %s", arm->rev.label,
			       notice_path(arm->dir, w->workdir));
		if (check_tree(repo, w->arm, a, w->err) < 0 ||
		    repo_checkout(repo, arm->rev.tree, arm->dir,
					arm->index, &updated, w->err) < 0)
			return WS_ERROR;
		if (arm->kept && updated) {
			arm->kept = 0;	/* something changed it: build again */
			if (!quiet)
				notice("%zu file%s differed from the build "
				       "kept in %s: building it again",
				       updated, updated == 1 ? "" : "s",
				       notice_path(arm->dir, w->workdir));
		}
		if (arm_gitdir(w, repo, arm, w->err) < 0)
			return signals_pending() ? WS_INTERRUPTED : WS_ERROR;
		signals_test_stall("checkout");
		if (signals_pending())
			return WS_INTERRUPTED;
	}
	return WS_DONE;
}

/*
 * What a sandboxed benchmark needs to write beyond its checkout and
 * scratch: the devices a program writes to as a sink or a source, and
 * /dev/shm (POSIX shared memory and semaphores: Python's multiprocessing
 * locks, for one). Not /dev/tty: gate gives benchmarks no terminal, and
 * a write there would bypass the output gate keeps. Not /tmp: a checkout
 * may lie under it ($TMPDIR points at the scratch directory instead).
 */
static const char *const system_writable[] = { "/dev/null", "/dev/zero",
	"/dev/full", "/dev/random", "/dev/urandom", "/dev/shm", NULL };

/* 1 when a is b or above it (by path; b need not exist). */
static int path_covers(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	size_t n;

	if (!realpath(a, ra) || !realpath(b, rb))
		return 0;
	n = strlen(ra);
	while (n > 1 && ra[n - 1] == '/')
		n--;
	return !strncmp(ra, rb, n) && (rb[n] == '\0' || rb[n] == '/' ||
				       n == 1);
}

/* One extra path of "writable" for arm a: absolute, "~/..." under $HOME,
   else relative to the checkout; malloc'd. */
static char *writable_path(const struct workspace *w, size_t a,
			   const char *p)
{
	const char *home = getenv("HOME");

	if (p[0] == '/')
		return xstrdup(p);
	if (p[0] == '~' && (p[1] == '/' || !p[1]) && home && *home)
		return xasprintf("%s%s", home, p + 1);
	return xasprintf("%s/%s", w->arm[a].dir, p);
}

/* Does path reach gate's directory or another arm's checkout? */
static int reaches_other(const struct workspace *w, size_t a,
			 const char *path)
{
	size_t o;

	if (path_covers(path, w->gate_dir) ||
	    (path_covers(w->gate_dir, path) &&
	     !path_covers(w->arm[a].dir, path)))
		return 1;
	for (o = 0; o < w->narms; o++)
		if (o != a && strcmp(w->arm[o].dir, w->arm[a].dir) &&
		    (path_covers(path, w->arm[o].dir) ||
		     path_covers(w->arm[o].dir, path)))
			return 1;
	return 0;
}

/*
 * "writable"'s i-th path for arm a (malloc'd), or NULL with w->err when it
 * holds gate's directory or the other arm's checkout: a bind of it in the
 * arm's sandbox would bring back what the sandbox hides.
 */
static char *writable_refused(const struct workspace *w, size_t a, size_t i)
{
	char *p = writable_path(w, a, w->writable[i]);

	if (!reaches_other(w, a, p))
		return p;
	error_to(w->err, "\"writable\" lists \"%s\" (%s for %s), which "
		 "holds gate's directory or the other arm's checkout: a "
		 "benchmark could then change what the other arm measures; "
		 "list only directories outside the repository's .git",
		 w->writable[i], p, arm_name((enum arm)a));
	free(p);
	return NULL;
}

/* The paths arm a's benchmark may write; slot 0 is the layout's. */
static int sandbox_list(const struct workspace *w, size_t a, char ***out)
{
	size_t n = 0, k = 0, i;
	char **list;

	for (i = 0; w->writable && w->writable[i]; i++)
		n++;
	list = xcalloc(n + 12, sizeof(*list));
	list[k++] = NULL;	/* the sample's own files, per run */
	list[k++] = xstrdup(w->arm[a].dir);
	/* $GATE_TMPDIR, made before each sample (so there when the sandbox
	   is applied), not the root both arms' samples share */
	if (w->layout.scratch)
		list[k++] = xstrdup(w->layout.scratch);
	for (i = 0; system_writable[i]; i++)
		if (!reaches_other(w, a, system_writable[i]) &&
		    !path_covers(system_writable[i], w->arm[a].dir))
			list[k++] = xstrdup(system_writable[i]);
	for (i = 0; w->writable && w->writable[i]; i++) {
		char *p = writable_refused(w, a, i);

		if (!p) {
			for (i = 1; i < k; i++)
				free(list[i]);
			free(list);
			return -1;
		}
		list[k++] = p;
	}
	list[k] = NULL;
	*out = list;
	return 0;
}

/* Every "writable" path of arm a allowed, whichever isolation binds it. */
static int writable_allowed(const struct workspace *w, size_t a)
{
	size_t i;

	for (i = 0; w->writable && w->writable[i]; i++) {
		char *p = writable_refused(w, a, i);

		if (!p)
			return -1;
		free(p);
	}
	return 0;
}

/* Whether benchmarks run sandboxed: GATE_SANDBOX=off turns it off (to
   measure its cost, or where a benchmark must write elsewhere). */
static int sandbox_wanted(struct workspace *w)
{
	const char *v = getenv("GATE_SANDBOX");

	if (v && !strcmp(v, "off")) {
		snprintf(w->sandbox_why, sizeof(w->sandbox_why),
			 "turned off by GATE_SANDBOX=off");
		return 0;
	}
	w->sandbox_abi = runner_sandbox(w->sandbox_why,
					sizeof(w->sandbox_why));
	return w->sandbox_abi > 0;
}

/* Each arm's own conditions in the layout: git's variables, its .git
   file, and (when the sandbox is in force) what it may write. */
static int layout_arms(struct workspace *w)
{
	int boxed = workspace_boxed(w);
	int sandbox = !boxed && sandbox_wanted(w);
	size_t a;

	if (boxed < 0)
		return -1;
	for (a = 0; a < w->narms; a++) {
		struct layout_arm la = { .vars = NULL };

		if (sandbox && sandbox_list(w, a, &la.sandbox) < 0)
			return -1;
		if (boxed) {
			if (writable_allowed(w, a) < 0 ||
			    workspace_box(w, a, 1) < 0)
				return -1;
			la.box = &w->arm[a].box[1];
		}
		if (w->arm[a].gitdir) {
			la.vars = xcalloc(4, sizeof(*la.vars));
			arm_git_vars(w, &w->arm[a], la.vars);
			la.restore_path = xasprintf("%s/.git", w->arm[a].dir);
			la.restore_text = xasprintf("gitdir: %s\n",
						    w->arm[a].gitdir);
		}
		layout_arm_set(&w->layout, a, &la);
	}
	return 0;
}

const char *workspace_isolation(const struct workspace *w, char *buf,
				size_t size)
{
	if (w->boxed > 0)
		snprintf(buf, size, "a sandbox per arm (%s: namespaces of "
			 "mount, PID, IPC, UTS, user and network; the system "
			 "read-only) and manifests", box_version()[0] ?
			 box_version() : "bubblewrap");
	else if (w->sandbox_abi > 0)
		snprintf(buf, size, "Landlock ABI %d and manifests "
			 "(no sandbox per arm: %s)", w->sandbox_abi,
			 w->box_why);
	else
		snprintf(buf, size, "manifests only: Landlock not available "
			 "(%s)", w->sandbox_why[0] ? w->sandbox_why :
			 "not asked");
	return buf;
}

int workspace_layout(struct workspace *w, int env_pad, int scratch,
		     unsigned long seed, const char *pin)
{
	if (layout_init(&w->layout, env_pad, scratch, seed, w->gate_dir,
			w->err) < 0 || layout_arms(w) < 0)
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

/* The error for a manifest that no longer matches: arm, file, when. */
static int manifest_error(struct workspace *w, size_t a, const char *path,
			  const char *what, const char *when)
{
	return error_to(w->err, "%s's checkout (%s) changed %s: \"%s\" %s "
			"since %s was built; a build or benchmark wrote into "
			"an arm's files, so what would be measured is not "
			"%s as built and there is no verdict; benchmarks may "
			"write only to their own checkout and $GATE_TMPDIR",
			arm_name((enum arm)a), w->arm[a].dir, when, path, what,
			arm_name((enum arm)a), arm_name((enum arm)a));
}

/* Arm a's files now against its manifest (strict: none added either). */
static int manifest_check(struct workspace *w, size_t a, int strict,
			  const char *when, struct ws_manifest **now_out)
{
	struct ws_manifest *now;
	char *path, *what;
	int ret = 0;

	if (!w->manifest[a])
		return 0;
	now = ws_manifest_take(w->arm[a].dir, w->err);
	if (!now)
		return -1;
	if (ws_manifest_diff(w->manifest[a], now, strict, &path, &what)) {
		ret = manifest_error(w, a, path, what, when);
		free(path);
		free(what);
	}
	if (now_out && !ret)
		*now_out = now;
	else
		ws_manifest_free(now);
	return ret;
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
	for (a = 0; a < w->narms; a++) {
		/*
		 * A kept arm was not built now: its files must still be
		 * what its slot recorded (the other arm's build may have
		 * written into them); a built one is recorded as it is.
		 */
		if (w->arm[a].kept && w->manifest[a]) {
			if (manifest_check(w, a, 1, "during the other arm's "
					   "build", NULL) < 0)
				return -1;
			continue;
		}
		ws_manifest_free(w->manifest[a]);
		w->manifest[a] = ws_manifest_take(w->arm[a].dir, w->err);
		if (!w->manifest[a])
			return -1;
	}
	workspace_slot_store(w);
	return 0;
}

int workspace_manifest_verify(struct workspace *w)
{
	size_t a;

	/* files added in a checkout pass: a benchmark may write its own
	   (Landlock, where in force, keeps it from the other's) */
	for (a = 0; a < w->narms; a++)
		if (manifest_check(w, a, 0, "while measuring", NULL) < 0)
			return -1;
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
	for (a = 0; a < w->narms && !ret; a++) {
		struct ws_manifest *now = NULL;

		ret = manifest_check(w, a, 0, "while measuring", &now);
		if (now) {
			/* the slot keeps the arm as this run left it */
			ws_manifest_free(w->manifest[a]);
			w->manifest[a] = now;
		}
	}
	if (ret < 0) {
		for (a = 0; a < w->narms; a++)
			workspace_slot_discard(w, a);
	} else {
		workspace_slot_store(w);
	}
	return ret;
}

void workspace_release(struct workspace *w)
{
	size_t a;

	for (a = 0; a < 2; a++) {
		repo_files_release(&w->files[a]);
		ws_manifest_free(w->manifest[a]);
	}
	free(w->build_key[0]);
	free(w->build_key[1]);
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
