/*
 * Checking a tree out into gate's private directory (under $GIT_DIR/gate/)
 * with a private index, incrementally, so builds there stay incremental
 * and the user's working tree and index are never written.
 */
#include "git/repo.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/repository.h>

#include "common/error.h"
#include "common/tree.h"
#include "git/interrupt.h"
#include "common/banned.h"

/* mkdir -p path (mode 0777 less umask). */
static int mkdirs(const char *path, struct gate_err *err)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			ret = error_to(err, "cannot create directory \"%s\":",
				       p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

/* Empty dir: remove it with everything in it, and make it again. */
static int empty_dir(const char *dir, struct gate_err *err)
{
	if (tree_remove(dir, err) < 0)
		return -1;
	return mkdirs(dir, err);
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
static int check_dir(struct repo *r, const char *dir, struct gate_err *err)
{
	char *d = canonical(dir), *wt = canonical(repo_workdir(r));
	char *gd = canonical(repo_gitdir(r));
	struct stat st;
	int ret = 0;

	if (!lstat(dir, &st) && !S_ISDIR(st.st_mode))
		ret = error_to(err, "refusing to check out into \"%s\": it is "
			       "not a directory of its own (a symbolic link?); "
			       "remove it and run again", dir);
	else if (!d || !wt || !gd)
		ret = error_to(err, "cannot resolve the checkout directory "
			       "\"%s\":", dir);
	else if (is_at_or_above(d, wt) || is_at_or_above(d, gd))
		ret = error_to(err, "refusing to check out into \"%s\": it "
			       "holds the repository's own working tree or git "
			       "dir; pass a directory of its own", dir);
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
			      const char *index_path, struct gate_err *err)
{
	struct stat st;
	char *lock = xasprintf("%s.lock", index_path);

	/*
	 * A lock file left by a run that died mid-write. Callers hold
	 * repo_lock on gate's directory, so no live run owns it.
	 */
	if (unlink(lock) < 0 && errno != ENOENT) {
		error_to(err, "cannot remove stale \"%s\":", lock);
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
			return error_to(err, "cannot remove \"%s\":",
					index_path);
	} else if (errno != ENOENT) {
		return error_to(err, "cannot read \"%s\":", index_path);
	}
	if (empty_dir(dir, err) < 0)
		return -1;
	if (git_index_open(idx, index_path) < 0)
		return error_to(err, "cannot create the checkout index \"%s\": "
				"%s", index_path, repo_errmsg());
	return 0;
}

struct unlink_walk {
	const char *dir;
	int ret;
	struct gate_err *err;
};

/*
 * A symlink where the tree has a directory or a file (a build may have
 * put one there): remove the link itself, so the checkout writes into the
 * checkout and never through the link to wherever it points. Pre-order,
 * so a linked directory goes before anything below it is looked at.
 */
static int unlink_cb(const char *root, const git_tree_entry *e, void *data)
{
	struct unlink_walk *w = data;
	char *path;
	struct stat st;

	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK ||
	    git_tree_entry_filemode(e) == GIT_FILEMODE_COMMIT)
		return 0;
	path = xasprintf("%s/%s%s", w->dir, root, git_tree_entry_name(e));
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			w->ret = error_to(w->err, "cannot look at \"%s\":",
					  path);
	} else if (S_ISLNK(st.st_mode) && unlink(path) < 0) {
		w->ret = error_to(w->err, "cannot remove the symbolic link "
				  "\"%s\":", path);
	}
	free(path);
	if (w->ret < 0)
		return -1;
	/* a tree entry that is now gone has nothing below to look at */
	return 0;
}

static int unlink_symlinks(git_tree *tree, const char *dir,
			   struct gate_err *err)
{
	struct unlink_walk w = { dir, 0, err };

	if (git_tree_walk(tree, GIT_TREEWALK_PRE, unlink_cb, &w) < 0 &&
	    !w.ret)
		return error_to(err, "cannot walk the tree to check out into "
				"\"%s\": %s", dir, repo_errmsg());
	return w.ret;
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

/*
 * One checkout. When afresh is 0 and the incremental checkout fails (say
 * a build left directories nested deeper than libgit2 walks), *retry is
 * set and nothing is said: the caller starts afresh.
 */
static int count_cb(git_checkout_notify_t why, const char *path,
		    const git_diff_file *baseline, const git_diff_file *target,
		    const git_diff_file *workdir, void *payload)
{
	(void)why;
	(void)path;
	(void)baseline;
	(void)target;
	(void)workdir;
	++*(size_t *)payload;
	return 0;
}

/*
 * A second handle on the same git dir, pointed at dir (and later at the
 * private index). update_gitlink 0: libgit2 writes no .git file into dir
 * and no core.worktree into the config; the handle lives in memory only,
 * so the user's repository keeps its own working tree and index.
 */
static int checkout_handle(git_repository **git, struct repo *r,
			   const char *dir, struct gate_err *err)
{
	if (git_repository_open_ext(git, repo_gitdir(r),
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    repo_attach_private(*git, r) < 0 ||
	    git_repository_set_workdir(*git, dir, 0) < 0)
		return error_to(err, "cannot open the repository for checkout "
				"into \"%s\": %s", dir, repo_errmsg());
	return 0;
}

static int checkout_once(struct repo *r, const char *tree_hex,
			 const char *dir, const char *index_path, int afresh,
			 int *retry, size_t *updated, struct gate_err *err)
{
	git_checkout_options opts;
	git_repository *git = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL;
	git_oid id;
	char *parent = parent_dir(index_path);
	int ret = -1;

	if (git_oid_fromstr(&id, tree_hex) < 0) {
		error_to(err, "invalid tree id \"%s\": %s", tree_hex,
			 repo_errmsg());
		goto cleanup;
	}
	if (mkdirs(dir, err) < 0 || mkdirs(parent, err) < 0 ||
	    check_dir(r, dir, err) < 0)
		goto cleanup;

	if (checkout_handle(&git, r, dir, err) < 0 ||
	    open_private_index(&idx, dir, index_path, err) < 0)
		goto cleanup;
	if (git_repository_set_index(git, idx) < 0 ||
	    git_tree_lookup(&tree, git, &id) < 0) {
		error_to(err, "cannot check out tree %s: %s", tree_hex,
			 repo_errmsg());
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
	if (unlink_symlinks(tree, dir, err) < 0)
		goto cleanup;
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = GIT_CHECKOUT_FORCE;
	opts.baseline_index = idx;
	opts.notify_flags = GIT_CHECKOUT_NOTIFY_UPDATED |
			    GIT_CHECKOUT_NOTIFY_DIRTY;
	opts.notify_cb = count_cb;
	opts.notify_payload = updated;
	if (git_checkout_tree(git, (const git_object *)tree, &opts) < 0) {
		if (!afresh) {
			warning("cannot check out tree %s into \"%s\" over "
				"what is there (%s): checking it out afresh",
				tree_hex, dir, repo_errmsg());
			*retry = 1;
			goto cleanup;
		}
		error_to(err, "cannot check out tree %s into \"%s\": %s",
			 tree_hex, dir, repo_errmsg());
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

int repo_checkout(struct repo *r, const char *tree_hex,
			const char *dir, const char *index_path,
			size_t *updated, struct gate_err *err)
{
	int retry = 0;

	*updated = 0;
	if (checkout_once(r, tree_hex, dir, index_path, 0, &retry,
			  updated, err) == 0)
		return 0;
	if (!retry)
		return -1;
	/* without its index, the directory is emptied and checked out anew */
	if (unlink(index_path) < 0 && errno != ENOENT)
		return error_to(err, "cannot remove \"%s\":", index_path);
	*updated = 1;
	return checkout_once(r, tree_hex, dir, index_path, 1, &retry,
			     updated, err);
}

struct files_walk {
	struct repo_files *out;
	const char *dir;
	size_t alloc;
};

static char *file_state(const char *path)
{
	char target[PATH_MAX];
	char hex[GIT_OID_HEXSZ + 1];
	struct stat st;
	git_oid oid;
	ssize_t n;

	if (lstat(path, &st) < 0)
		return xstrdup(errno == ENOENT || errno == ENOTDIR ?
			       "missing" : "unreadable");
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, target, sizeof(target));
		if (n < 0)
			return xstrdup("unreadable link");
		return xasprintf("link to %.*s", (int)n, target);
	}
	if (!S_ISREG(st.st_mode))
		return xstrdup("not a file");
	if (git_odb_hashfile(&oid, path, GIT_OBJECT_BLOB) < 0)
		return xstrdup("unreadable");
	git_oid_tostr(hex, sizeof(hex), &oid);
	return xasprintf("%s%s", hex, st.st_mode & 0100 ? " x" : "");
}

static int files_cb(const char *root, const git_tree_entry *e, void *data)
{
	struct files_walk *w = data;
	struct repo_files *f = w->out;
	char *path;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	if (f->n == w->alloc) {
		size_t cap = w->alloc;	/* both arrays grow alike */

		XGROW(f->path, cap, f->n + 1);
		XGROW(f->state, w->alloc, f->n + 1);
	}
	f->path[f->n] = xasprintf("%s%s", root, git_tree_entry_name(e));
	path = xasprintf("%s/%s", w->dir, f->path[f->n]);
	f->state[f->n++] = file_state(path);
	free(path);
	return 0;
}

int repo_tree_files(struct repo_files *out, struct repo *r, const char *tree,
		    const char *dir, struct gate_err *err)
{
	struct files_walk w = { out, dir, 0 };
	git_repository *git = NULL;
	git_tree *t = NULL;
	git_oid id;
	int ret = -1;

	if (git_oid_fromstr(&id, tree) < 0 ||
	    git_repository_open_ext(&git, repo_gitdir(r),
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    repo_attach_private(git, r) < 0 ||
	    git_tree_lookup(&t, git, &id) < 0 ||
	    git_tree_walk(t, GIT_TREEWALK_PRE, files_cb, &w) < 0)
		error_to(err, "cannot list the files of tree %s: %s", tree,
			 repo_errmsg());
	else
		ret = 0;
	git_tree_free(t);
	git_repository_free(git);
	return ret;
}

long repo_files_diff(const struct repo_files *a, const struct repo_files *b)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (strcmp(a->path[i], b->path[i]) ||
		    strcmp(a->state[i], b->state[i]))
			return (long)i;
	return a->n == b->n ? -1 : (long)i;
}

void repo_files_release(struct repo_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->path[i]);
		free(f->state[i]);
	}
	free(f->path);
	free(f->state);
	f->path = f->state = NULL;
	f->n = 0;
}

static int write_text(const char *path, const char *text, struct gate_err *err)
{
	FILE *f;
	int ok;

	unlink(path);	/* never write through a link */
	f = fopen(path, "wx");
	if (!f)
		return error_to(err, "cannot write \"%s\":", path);
	ok = fputs(text, f) >= 0;
	if (fclose(f) != 0 || !ok)
		return error_to(err, "cannot write \"%s\":", path);
	return 0;
}

static int (*interrupt_hook)(void);

void repo_set_interrupt(int (*pending)(void))
{
	interrupt_hook = pending;
}

int repo_interrupted(void)
{
	return interrupt_hook && interrupt_hook();
}

/* The arm's packed-refs, grown by doubling: linear in the tags. */
struct tags_walk {
	char *text;
	size_t len, alloc;
};

static int tag_cb(git_reference *ref, void *data)
{
	struct tags_walk *t = data;
	const char *name = git_reference_name(ref);
	const git_oid *id = git_reference_target(ref);
	char hex[GIT_OID_HEXSZ + 1];
	size_t need;

	if (repo_interrupted()) {
		git_reference_free(ref);
		return GIT_EUSER;	/* SIGTERM does not wait for 20,000 */
	}
	if (strncmp(name, "refs/tags/", 10) || !id) {
		git_reference_free(ref);	/* symbolic: not packed */
		return 0;
	}
	git_oid_tostr(hex, sizeof(hex), id);
	need = strlen(hex) + 1 + strlen(name) + 2;
	if (t->len + need > t->alloc) {
		while (t->len + need > t->alloc) {
			if (t->alloc > ((size_t)-1) / 4)
				abort();
			t->alloc = t->alloc ? 2 * t->alloc : 4096;
		}
		t->text = xrealloc(t->text, t->alloc);
	}
	t->len += (size_t)snprintf(t->text + t->len, t->alloc - t->len,
				   "%s %s\n", hex, name);
	git_reference_free(ref);
	return 0;
}

int repo_arm_gitdir(struct repo *r, const char *gitdir, const char *commit,
		    const char *dir, struct gate_err *err)
{
	struct tags_walk t = { NULL, 0, 0 };
	git_repository *git = NULL;
	const char *objects = repo_private_dir(r);
	char *path = NULL, *text = NULL;
	int ret = -1, rc;

	if (git_repository_open_ext(&git, repo_gitdir(r),
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		error_to(err, "cannot open the repository: %s", repo_errmsg());
		return -1;
	}
	if (mkdirs(gitdir, err) < 0)
		goto cleanup;
#define SUB(name) (free(path), path = xasprintf("%s/%s", gitdir, name))
	if (mkdirs(SUB("refs/heads"), err) < 0 ||
	    mkdirs(SUB("refs/tags"), err) < 0 ||
	    mkdirs(SUB("objects/info"), err) < 0)
		goto cleanup;
	text = xasprintf("%s\n", *commit ? commit :
			 "ref: refs/heads/unborn");
	if (write_text(SUB("HEAD"), text, err) < 0)
		goto cleanup;
	free(text);
	text = xasprintf("%sobjects\n%s%s", git_repository_commondir(git),
			 objects ? objects : "", objects ? "\n" : "");
	if (write_text(SUB("objects/info/alternates"), text, err) < 0 ||
	    write_text(SUB("config"), "[core]\n\trepositoryformatversion = 0\n"
		       "\tbare = false\n\tfilemode = true\n", err) < 0)
		goto cleanup;
	rc = git_reference_foreach(git, tag_cb, &t);
	if (rc == GIT_EUSER)
		goto cleanup;	/* interrupted: the caller names the signal */
	if (rc < 0)
		git_error_clear();
	if (write_text(SUB("packed-refs"), t.text ? t.text : "", err) < 0)
		goto cleanup;
	free(text);
	text = xasprintf("gitdir: %s\n", gitdir);
	free(path);
	path = xasprintf("%s/.git", dir);
	if (lstat(path, &(struct stat){ 0 }) == 0 && tree_remove(path, err) < 0)
		goto cleanup;
	if (write_text(path, text, err) < 0)
		goto cleanup;
#undef SUB
	ret = 0;
cleanup:
	free(path);
	free(text);
	free(t.text);
	git_repository_free(git);
	return ret;
}
