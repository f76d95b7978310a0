/*
 * The workspace gate run and gate calibrate measure in: $GIT_DIR/gate/
 * and its lock, the arm slots a and b, checkouts, and the measuring layout
 * (padding, scratch, pinning); building and checking the arms is in
 * workspace-build.c, the build cache's slots in workspace-cache.c, the
 * artifacts' hashes in workspace-artifacts.c. One module, so every
 * command measures alike.
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
