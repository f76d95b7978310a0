/*
 * Our wrapper over libgit2: open a repository, resolve revisions and the
 * default base, snapshot the working tree as a tree object, read a file
 * from a tree, and check a tree out into a private directory. Never writes
 * the user's working tree, index, refs or stash. Errors return -1 with a
 * message saying what, where and what to do: printed with error(), or,
 * where a function takes a struct gate_err, put there when it is not NULL
 * (error_to; common/error.h).
 */
#ifndef GIT_REPO_H
#define GIT_REPO_H

#include <stddef.h>

#define REPO_HEXSZ 40

struct repo;
struct gate_err;

/* A resolved revision: what the user asked for and what it names. */
struct repo_rev {
	char *label;	/* as given ("main", "HEAD~1", "WORKTREE"); owned */
	char commit[REPO_HEXSZ + 1];	/* commit id; for WORKTREE, HEAD's
					   commit ("" in an unborn repo) */
	char tree[REPO_HEXSZ + 1];	/* the tree to check out */
	int worktree;	/* 1 when the tree is a working-tree snapshot */
	int dirty;	/* WORKTREE only: 1 when it differs from HEAD */
};
#define REPO_REV_INIT { 0 }

/* Calls git_libgit2_init; pair with repo_global_shutdown. */
int repo_global_init(void);
void repo_global_shutdown(void);

/*
 * Open the repository containing dir (searching upwards like git). Bare
 * repositories are refused (gate needs a working tree for WORKTREE).
 * Caller frees with repo_free.
 */
int repo_open(struct repo **out, const char *dir);
void repo_free(struct repo *r);
/* Absolute path of the git dir, with trailing '/'. */
const char *repo_gitdir(const struct repo *r);
/* Absolute path of the working tree, with trailing '/'. */
const char *repo_workdir(const struct repo *r);
/*
 * Write every object gate makes (working-tree snapshots) into the loose
 * object store at dir (created) instead of the repository's own, which
 * is then only read. Objects there are found like the repository's. 0/-1.
 */
int repo_private_objects(struct repo *r, const char *dir,
			 struct gate_err *err);
/* The private object store's directory, or NULL. */
const char *repo_private_dir(const struct repo *r);

/*
 * Resolve spec into out. "WORKTREE" snapshots the working tree (tracked
 * changes, deletions and untracked non-ignored files) into a tree object
 * without touching the index, refs, stash or files. Anything else is a
 * revision git understands (peeled to a commit). On failure: a message
 * naming spec and suggesting what to do (e.g. "git fetch --unshallow" or
 * "fetch-depth: 0" when the repository is shallow). Release with
 * repo_rev_release.
 */
int repo_resolve(struct repo_rev *out, struct repo *r, const char *spec);
/* The same, its message in *err (error_to) when err is not NULL. */
int repo_resolve_to(struct repo_rev *out, struct repo *r, const char *spec,
		    struct gate_err *err);
void repo_rev_release(struct repo_rev *rev);

/*
 * The default base, as a commit id in spec_out (malloc'd) and a human
 * description in how_out (malloc'd, e.g. "merge-base of HEAD and
 * origin/main"): in a GitHub pull-request event (GITHUB_EVENT_NAME is
 * pull_request or pull_request_target and GITHUB_BASE_REF is set), the
 * merge-base of HEAD with origin/$GITHUB_BASE_REF; else the merge-base of
 * HEAD with its branch's upstream; else with the remote's default branch
 * (refs/remotes/origin/HEAD); else HEAD~1 (or, when head_dirty is set:
 * the head is the working tree and it differs from HEAD, HEAD itself,
 * "what am I about to commit"). Environment read via getenv. why_out
 * (malloc'd; may be NULL) says why this base was chosen, e.g. "no
 * upstream branch, working tree has changes".
 */
int repo_default_base_why(char **spec_out, char **how_out, char **why_out,
			  struct repo *r, int head_dirty, struct gate_err *err);

/*
 * Read path (e.g. "gate.json") from the tree with hex id tree into a
 * malloc'd, NUL-terminated buffer. Returns 0 (*data NULL when the path
 * does not exist in that tree: nothing printed), or -1 on error.
 */
int repo_read_file(char **data, size_t *len, struct repo *r,
		   const char *tree, const char *path, struct gate_err *err);

/*
 * Check the tree out into dir (created if missing), using index_path as
 * that directory's private index so a later checkout into the same dir
 * rewrites only files that changed (others keep their mtimes, builds stay
 * incremental) and removes files the new tree no longer has. Files the
 * build created and git does not track are left alone. Never touches the
 * user's working tree or index. When index_path is missing or unreadable
 * while dir has content, dir is emptied and checked out afresh. Callers
 * hold repo_lock (a stale "index_path.lock" is removed as left by a crash).
 * dir may not be, or contain, the repository's working tree or git dir.
 * *updated counts the files it wrote or removed; a message goes to *err
 * (NULL: printed).
 */
int repo_checkout(struct repo *r, const char *tree, const char *dir,
		  const char *index_path, size_t *updated,
		  struct gate_err *err);

/*
 * Make dir (a checkout of commit) a repository of its own for git
 * commands run in it: a ".git" file in dir pointing at gitdir, a private
 * git dir with HEAD detached at commit ("" in an unborn repository: no
 * HEAD to give), the repository's objects and gate's private ones as
 * alternates (read only), a copy of its tags, and no hooks. The checkout
 * index is gitdir/index. Git run in dir then sees dir's commit and can
 * initialise submodules, and its refs, config and hooks are gitdir's,
 * never the user's. 0 or -1.
 */
int repo_arm_gitdir(struct repo *r, const char *gitdir, const char *commit,
		    const char *dir, struct gate_err *err);

/*
 * The state of every file the tree tracks as it is now in dir (a checkout
 * of it): one line per path, in the tree's order, "path" and a hash of the
 * content (git's blob hash; a link's target; "missing", "not a file").
 * Two calls on the same tree compare line by line. 0 or -1.
 */
struct repo_files {
	char **path;
	char **state;
	size_t n;
};
#define REPO_FILES_INIT { NULL, NULL, 0 }
int repo_tree_files(struct repo_files *out, struct repo *r,
		    const char *tree, const char *dir, struct gate_err *err);
/* The first index where a and b (of one tree) differ, or -1. */
long repo_files_diff(const struct repo_files *a, const struct repo_files *b);
void repo_files_release(struct repo_files *f);

/*
 * Every tracked path that differs between trees a and b (hex ids: added,
 * removed, changed in content, mode or type; a rename gives both paths),
 * into a malloc'd *paths of *n (free with repo_list_free). 0, or -1 after
 * error_to(err, ...).
 */
int repo_tree_changes(char ***paths, size_t *n, struct repo *r,
		      const char *a, const char *b, struct gate_err *err);

/*
 * Warn (on stderr, through warning()) about what a checkout of the tree
 * cannot give a benchmark: submodules (gitlinks check out as empty
 * directories) and Git LFS pointer files (looked for when a .gitattributes
 * in the tree names filter=lfs). what names the tree in the messages,
 * e.g. "head (WORKTREE)". Returns 0, or -1 when the tree cannot be read.
 */
int repo_scan_tree(struct repo *r, const char *tree, const char *what,
		   struct gate_err *err);

/*
 * Take an exclusive lock on path (created if needed) without waiting; the
 * lock is released by repo_unlock or when the process dies (so a crashed
 * run never leaves a stale lock). When another process holds it, fails
 * with a message naming that process's pid and start time, read from the
 * file. On success *fd is the open descriptor.
 */
int repo_lock(int *fd, const char *path, struct gate_err *err);
void repo_unlock(int fd, const char *path);

/*
 * A Gate-Accept trailer ("Gate-Accept: parse +15% new parser, slower on
 * purpose"): the benchmark name or glob, the regression accepted (a
 * fraction: +15% -> 0.15), the reason, and the commit that carries it.
 */
/* What a Gate-Accept trailer accepts. */
enum accept_kind {
	ACCEPT_BOUND,		/* "NAME +15%": a regression up to a bound */
	ACCEPT_REDEFINED,	/* "NAME redefined": head measures NAME with
				   another command */
	ACCEPT_REMOVED,		/* "NAME removed": head no longer measures
				   NAME (a benchmark, case or expect) */
};

struct repo_accept {
	char *pattern;	/* owned */
	enum accept_kind kind;
	double bound;	/* > 0 for ACCEPT_BOUND, else 0 */
	char *reason;	/* owned; "" when none was given */
	char commit[REPO_HEXSZ + 1];
};

/*
 * One trailer's value ("parse +15% reason", "parse redefined reason",
 * "parse removed reason") into out (commit not set). Returns 0, or -1
 * with *why saying what is wrong (static text; nothing allocated). The
 * bound is a decimal percentage with an optional '+', above 0 (no hex,
 * no exponent).
 */
int repo_accept_parse(struct repo_accept *out, const char *value,
		      const char **why);
/*
 * Every Gate-Accept trailer (the key in any case) of the commits in
 * base..head, that is, reachable from head and not from base (hex ids;
 * an empty base: every commit of head), newest first, into a malloc'd
 * *out of *n. A malformed trailer is a warning naming its commit, and
 * skipped. Returns 0, or -1 after error(). Release with
 * repo_accepts_release.
 */
int repo_accepts(struct repo_accept **out, size_t *n, struct repo *r,
		 const char *base, const char *head, struct gate_err *err);
void repo_accepts_release(struct repo_accept *a, size_t n);

/*
 * For the files of git/ only: the libgit2 handle behind r (owned by r, do
 * not free), and the working-tree snapshot behind repo_resolve(...,
 * "WORKTREE"), which fills out's commit, tree and dirty (not label or
 * worktree).
 */
struct git_repository;
struct git_repository *repo_git(const struct repo *r);
/* libgit2's last error message, or a placeholder when it set none. */
const char *repo_errmsg(void);
int repo_snapshot(struct repo_rev *out, struct repo *r,
		  struct gate_err *err);
/* Give another handle on r's git dir r's private object store too. */
int repo_attach_private(struct git_repository *git, const struct repo *r);

/*
 * gate's history (git/notes.c). repo_note_read: the note on commit (hex
 * id) in ref (e.g. "refs/notes/gate") into a malloc'd string; 0 (*text
 * NULL when the commit has none), -1 on error. repo_note_append: add line (and a
 * newline) to that note, creating it when missing; the notes ref moves
 * only if no other writer moved it meanwhile (else it tries again), so
 * concurrent appends on any commits all survive.
 */
int repo_note_read(char **text, struct repo *r, const char *ref,
		   const char *commit);
int repo_note_append(struct repo *r, const char *ref, const char *commit,
		     const char *line);
/*
 * The first-parent chain from commit from (included) back to commit until
 * (excluded; NULL: to the root), newest first, as malloc'd hex ids; an
 * error when until is not on that chain. Free with repo_list_free.
 */
int repo_first_parents(char ***out, size_t *n, struct repo *r,
		       const char *from, const char *until);
void repo_list_free(char **list, size_t n);
/* commit's subject line, author ("Name <email>") and first parent (hex,
   NULL for a root commit; parent may be NULL), all malloc'd. */
int repo_commit_info(struct repo *r, const char *commit, char **subject,
		     char **author, char **parent);

#endif
