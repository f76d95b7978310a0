/*
 * Checking a tree out into gate's private directory (under $GIT_DIR/gate/)
 * with a private index, incrementally, so builds there stay incremental
 * and the user's working tree and index are never written.
 */
#include "git/repo.h"

#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/repository.h>

#include "common/error.h"
#include "common/banned.h"

/* mkdir -p path (mode 0777 less umask). */
static int mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			ret = error("cannot create directory \"%s\":", p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

/* rm -rf path, never following symlinks out of it. */
static int remove_all(const char *path)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return error("cannot remove \"%s\":", path);
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0 && errno != ENOENT)
			return error("cannot remove \"%s\":", path);
		return 0;
	}
	if (!(d = opendir(path)))
		return error("cannot open directory \"%s\":", path);
	while (!ret && (de = readdir(d))) {
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child = xasprintf("%s/%s", path, de->d_name);
		ret = remove_all(child);
		free(child);
	}
	closedir(d);
	if (!ret && rmdir(path) < 0 && errno != ENOENT)
		ret = error("cannot remove \"%s\":", path);
	return ret;
}

/* Empty dir: remove it with everything in it, and make it again. */
static int empty_dir(const char *dir)
{
	if (remove_all(dir) < 0)
		return -1;
	return mkdirs(dir);
}

/* Is dir the same as, or above, path? Both canonical, without trailing '/'. */
static int is_at_or_above(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return !strncmp(dir, path, n) && (path[n] == '\0' || path[n] == '/' ||
					  n == 1);
}

static char *canonical(const char *path)
{
	char buf[PATH_MAX];
	size_t n;

	if (!realpath(path, buf))
		return NULL;
	n = strlen(buf);
	if (n > 1 && buf[n - 1] == '/')
		buf[n - 1] = '\0';
	return xstrdup(buf);
}

/*
 * Refuse a directory that is the user's working tree or git dir or holds
 * either: the recovery below empties the directory, and a checkout there
 * would overwrite the user's files.
 */
static int check_dir(struct repo *r, const char *dir)
{
	char *d = canonical(dir), *wt = canonical(repo_workdir(r));
	char *gd = canonical(repo_gitdir(r));
	int ret = 0;

	if (!d || !wt || !gd)
		ret = error("cannot resolve the checkout directory \"%s\":",
			    dir);
	else if (is_at_or_above(d, wt) || is_at_or_above(d, gd))
		ret = error("refusing to check out into \"%s\": it holds the "
			    "repository's own working tree or git dir; pass a "
			    "directory of its own", dir);
	free(d);
	free(wt);
	free(gd);
	return ret;
}

/*
 * The private index, or a fresh start. When the directory has content but
 * its index is missing or unreadable (an interrupted or older run), we do
 * not know which files there are tracked: a checkout over them would keep
 * files that the tree no longer has, and a build could pick them up. So
 * the directory is emptied (build outputs included) and checked out from
 * scratch: one slow build instead of a wrong one.
 */
static int open_private_index(git_index **idx, const char *dir,
			      const char *index_path)
{
	struct stat st;
	char *lock = xasprintf("%s.lock", index_path);

	/*
	 * A lock file left by a run that died mid-write. Callers hold
	 * repo_lock on gate's directory, so no live run owns it.
	 */
	if (unlink(lock) < 0 && errno != ENOENT) {
		error("cannot remove stale \"%s\":", lock);
		free(lock);
		return -1;
	}
	free(lock);

	*idx = NULL;
	if (stat(index_path, &st) == 0) {
		if (git_index_open(idx, index_path) == 0)
			return 0;
		warning("checkout index \"%s\" is unreadable (%s): checking "
			"out \"%s\" afresh", index_path, repo_errmsg(), dir);
		if (unlink(index_path) < 0)
			return error("cannot remove \"%s\":", index_path);
	} else if (errno != ENOENT) {
		return error("cannot read \"%s\":", index_path);
	}
	if (empty_dir(dir) < 0)
		return -1;
	if (git_index_open(idx, index_path) < 0)
		return error("cannot create the checkout index \"%s\": %s",
			     index_path, repo_errmsg());
	return 0;
}

static char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int repo_checkout(struct repo *r, const char *tree_hex, const char *dir,
		  const char *index_path)
{
	git_checkout_options opts;
	git_repository *git = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL;
	git_oid id;
	char *parent = parent_dir(index_path);
	int ret = -1;

	if (git_oid_fromstr(&id, tree_hex) < 0) {
		error("invalid tree id \"%s\": %s", tree_hex, repo_errmsg());
		goto cleanup;
	}
	if (mkdirs(dir) < 0 || mkdirs(parent) < 0 || check_dir(r, dir) < 0)
		goto cleanup;

	/*
	 * A second handle on the same git dir, pointed at dir and at the
	 * private index. update_gitlink 0: libgit2 writes no .git file into
	 * dir and no core.worktree into the config; the handle lives in
	 * memory only, so the user's repository keeps its own working tree
	 * and index.
	 */
	if (git_repository_open_ext(&git, repo_gitdir(r),
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_repository_set_workdir(git, dir, 0) < 0) {
		error("cannot open the repository for checkout into \"%s\": %s",
		      dir, repo_errmsg());
		goto cleanup;
	}
	if (open_private_index(&idx, dir, index_path) < 0)
		goto cleanup;
	if (git_repository_set_index(git, idx) < 0 ||
	    git_tree_lookup(&tree, git, &id) < 0) {
		error("cannot check out tree %s: %s", tree_hex, repo_errmsg());
		goto cleanup;
	}

	/*
	 * FORCE: make dir look like the tree even where a build touched
	 * tracked files. Not REMOVE_UNTRACKED: build outputs stay. The
	 * baseline is the private index (what we last checked out), not
	 * HEAD, so files the old tree had and the new one lacks are removed
	 * and unchanged files are not rewritten (their mtimes survive).
	 * Checkout then writes the private index to index_path.
	 */
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = GIT_CHECKOUT_FORCE;
	opts.baseline_index = idx;
	if (git_checkout_tree(git, (const git_object *)tree, &opts) < 0) {
		error("cannot check out tree %s into \"%s\": %s", tree_hex, dir,
		      repo_errmsg());
		goto cleanup;
	}
	ret = 0;
cleanup:
	git_tree_free(tree);
	git_index_free(idx);
	git_repository_free(git);
	free(parent);
	return ret;
}
