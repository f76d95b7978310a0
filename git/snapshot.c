/*
 * The WORKTREE revision: the working tree as the user sees it (HEAD, staged
 * and unstaged changes, deletions, untracked files) written as a tree
 * object, without touching the user's index, refs, stash or files.
 */
#include "git/repo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "common/error.h"
#include "git/hash.h"
#include "common/banned.h"

/* git hash-object -t tree /dev/null: what an unborn HEAD is compared with. */
#define EMPTY_TREE "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

struct snapshot {
	git_repository *git;
	const char *workdir;	/* trailing '/' */
	git_index *index;	/* private copy of the user's; never written */
	int filemode;	/* core.filemode: trust the executable bit */
	struct gate_err *err;	/* NULL: errors are printed */
};

/*
 * Put path as it is on disk into the private index, as "git add" would:
 * the blob goes through the repository's filters (.gitattributes), a
 * symlink becomes a blob of its target with mode 120000, an executable
 * file mode 100755. A path that vanished meanwhile is dropped.
 */
static int add_from_disk(struct snapshot *s, const char *path)
{
	const git_index_entry *old = git_index_get_bypath(s->index, path, 0);
	git_index_entry entry;
	struct stat st;
	char *full = xasprintf("%s%s", s->workdir, path);
	int err;

	memset(&entry, 0, sizeof(entry));
	err = lstat(full, &st);
	free(full);
	if (err < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			return error_to(s->err, "cannot read \"%s\":", path);
		if (old && git_index_remove(s->index, path, 0) < 0)
			return error_to(s->err, "cannot drop \"%s\" from the "
					"snapshot: %s", path, repo_errmsg());
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		entry.mode = GIT_FILEMODE_LINK;
	} else if (S_ISREG(st.st_mode)) {
		entry.mode = (st.st_mode & S_IXUSR)
			? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
		/* With core.filemode off git keeps the recorded bit. */
		if (!s->filemode && old &&
		    (old->mode == GIT_FILEMODE_BLOB ||
		     old->mode == GIT_FILEMODE_BLOB_EXECUTABLE))
			entry.mode = old->mode;
	} else {
		/* A directory (nested repository), fifo or socket: not ours. */
		return 0;
	}
	if (git_blob_create_from_workdir(&entry.id, s->git, path) < 0)
		return error_to(s->err, "cannot read \"%s\" into the snapshot: "
				"%s", path, repo_errmsg());
	entry.path = path;
	if (git_index_add(s->index, &entry) < 0)
		return error_to(s->err, "cannot add \"%s\" to the snapshot: %s",
				path, repo_errmsg());
	return 0;
}

/*
 * A merge in progress leaves conflict stages that cannot be written as a
 * tree. Resolve each conflicted path to what is on disk (as "git add -A"
 * would), or to nothing when it is gone.
 */
static int resolve_conflicts(struct snapshot *s)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *ours, *theirs;
	char **paths = NULL;
	size_t n = 0, alloc = 0, i;
	int err, ret = -1;

	if (!git_index_has_conflicts(s->index))
		return 0;
	if (git_index_conflict_iterator_new(&it, s->index) < 0) {
		error_to(s->err, "cannot read the index's conflicts: %s",
			 repo_errmsg());
		goto cleanup;
	}
	while ((err = git_index_conflict_next(&anc, &ours, &theirs, it)) == 0) {
		const git_index_entry *e = ours ? ours : theirs ? theirs : anc;

		XGROW(paths, alloc, n + 1);
		paths[n++] = xstrdup(e->path);
	}
	if (err != GIT_ITEROVER) {
		error_to(s->err, "cannot read the index's conflicts: %s",
			 repo_errmsg());
		goto cleanup;
	}
	if (git_index_conflict_cleanup(s->index) < 0) {
		error_to(s->err, "cannot resolve the index's conflicts: %s",
			 repo_errmsg());
		goto cleanup;
	}
	for (i = 0; i < n; i++)
		if (add_from_disk(s, paths[i]) < 0)
			goto cleanup;
	ret = 0;
cleanup:
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	git_index_conflict_iterator_free(it);
	return ret;
}

/* Apply one difference between the private index and the working tree. */
static int apply_delta(struct snapshot *s, const git_diff_delta *d)
{
	const git_index_entry *e;

	switch (d->status) {
	case GIT_DELTA_DELETED:
		/*
		 * A sparse checkout's skip-worktree entries are absent from
		 * disk on purpose; git status does not call them deleted.
		 */
		e = git_index_get_bypath(s->index, d->old_file.path, 0);
		if (e && (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE))
			return 0;
		if (git_index_remove(s->index, d->old_file.path, 0) < 0)
			return error_to(s->err, "cannot drop \"%s\" from the "
					"snapshot: %s", d->old_file.path,
					repo_errmsg());
		return 0;
	case GIT_DELTA_ADDED:
	case GIT_DELTA_MODIFIED:
	case GIT_DELTA_TYPECHANGE:
	case GIT_DELTA_UNTRACKED:
		/*
		 * An untracked directory that libgit2 did not recurse into
		 * is a nested repository ("sub/"): git add would record a
		 * gitlink with a warning; the snapshot leaves it out.
		 */
		if (d->new_file.mode == GIT_FILEMODE_TREE ||
		    d->new_file.mode == GIT_FILEMODE_COMMIT)
			return 0;
		return add_from_disk(s, d->new_file.path);
	case GIT_DELTA_UNREADABLE:
		return error_to(s->err, "cannot read \"%s\" for the "
				"working-tree snapshot: check its permissions",
				d->new_file.path);
	default:
		return 0;
	}
}

/* HEAD's commit and tree into commit/tree; "" and the empty tree if unborn. */
static int head_ids(char *commit, git_oid *tree, git_repository *git,
		    struct gate_err *err)
{
	git_object *obj = NULL;
	int code = git_revparse_single(&obj, git, "HEAD^{commit}");

	if ((code == GIT_ENOTFOUND || code == GIT_EUNBORNBRANCH) &&
	    git_repository_head_unborn(git) == 1) {
		commit[0] = '\0';
		return git_oid_fromstr(tree, EMPTY_TREE);
	}
	if (code < 0)
		return error_to(err, "cannot read HEAD: %s", repo_errmsg());
	git_oid_tostr(commit, REPO_HEXSZ + 1, git_object_id(obj));
	git_oid_cpy(tree, git_commit_tree_id((git_commit *)obj));
	git_object_free(obj);
	return 0;
}

int repo_snapshot(struct repo_rev *out, struct repo *r, struct gate_err *err)
{
	struct snapshot s = { .git = repo_git(r), .workdir = repo_workdir(r),
			      .filemode = 1, .err = err };
	git_diff_options opts;
	git_buf index_path = GIT_BUF_INIT;
	git_config *cfg = NULL;
	git_diff *diff = NULL;
	git_oid head_tree, tree;
	size_t i, n;
	int ret = -1;

	if (head_ids(out->commit, &head_tree, s.git, err) < 0)
		return -1;
	if (git_repository_config_snapshot(&cfg, s.git) < 0 ||
	    git_config_get_bool(&s.filemode, cfg, "core.filemode") < 0)
		s.filemode = 1;
	git_error_clear();

	/*
	 * A private copy of the user's index: git_index_open reads the file
	 * into an object of our own (not the repository's cached index).
	 * Its path is the user's index file, so it must never be written:
	 * nothing below calls git_index_write, and the diff is made without
	 * GIT_DIFF_UPDATE_INDEX. Opened from the file (not copied into a new
	 * in-memory index) so libgit2 keeps the file's timestamp and still
	 * detects racily-clean entries.
	 */
	if (git_repository_item_path(&index_path, s.git,
				     GIT_REPOSITORY_ITEM_INDEX) < 0 ||
	    git_index_open(&s.index, index_path.ptr) < 0) {
		error_to(err, "cannot read the index: %s", repo_errmsg());
		goto cleanup;
	}
	if (resolve_conflicts(&s) < 0)
		goto cleanup;

	/*
	 * Index against working tree, as "git status" sees it. Submodules
	 * are skipped: their gitlink entries stay as the index has them (the
	 * snapshot records which commit is staged, not a submodule's own
	 * uncommitted changes). Ignored files are not asked for.
	 */
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_INCLUDE_UNTRACKED |
		     GIT_DIFF_RECURSE_UNTRACKED_DIRS |
		     GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_INCLUDE_UNREADABLE |
		     GIT_DIFF_IGNORE_SUBMODULES | GIT_DIFF_SKIP_BINARY_CHECK;
	opts.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
	if (git_diff_index_to_workdir(&diff, s.git, s.index, &opts) < 0) {
		error_to(err, "cannot compare the index with the working tree: "
			 "%s", repo_errmsg());
		goto cleanup;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++)
		if (apply_delta(&s, git_diff_get_delta(diff, i)) < 0)
			goto cleanup;

	if (git_index_write_tree_to(&tree, s.index, s.git) < 0) {
		error_to(err, "cannot write the working-tree snapshot: %s",
			 repo_errmsg());
		goto cleanup;
	}
	git_oid_tostr(out->tree, sizeof(out->tree), &tree);
	out->dirty = !git_oid_equal(&tree, &head_tree);
	ret = 0;
cleanup:
	git_diff_free(diff);
	git_index_free(s.index);
	git_buf_dispose(&index_path);
	git_config_free(cfg);
	return ret;
}

/*
 * For the arms' manifests (git/hash.h): the file mapped, not read, so a
 * build output of hundreds of MB costs no copy; O_NONBLOCK so that a FIFO
 * swapped in after the caller's lstat is refused, not waited on.
 */
int repo_hash_file(const char *path, char hex[41])
{
	static char small[65536];	/* most files: one read, no mapping */
	struct stat st;
	git_oid id;
	void *map = NULL;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		      O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	if (st.st_size < (off_t)sizeof(small)) {
		/* one byte more than the size: a file that grew is seen */
		while ((n = read(fd, small, sizeof(small))) < 0 &&
		       errno == EINTR)
			;
		map = n >= 0 && n < (ssize_t)sizeof(small) ? small : NULL;
		if (!map)
			n = -1;
	} else {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			   fd, 0);
		n = map == MAP_FAILED ? -1 : (ssize_t)st.st_size;
	}
	close(fd);
	if (n < 0)
		return -1;
	rc = git_odb_hash(&id, map, (size_t)n, GIT_OBJECT_BLOB);
	if (map != small)
		munmap(map, (size_t)st.st_size);
	if (rc < 0) {
		git_error_clear();
		return -1;
	}
	git_oid_tostr(hex, 41, &id);
	return 0;
}
