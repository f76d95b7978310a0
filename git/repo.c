/*
 * Opening the repository, resolving revisions and the default base, and
 * reading a file from a tree: the read-only half of our libgit2 wrapper.
 */
#include "git/repo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>
#include <git2/sys/odb_backend.h>

#include "common/error.h"
#include "common/banned.h"

struct repo {
	git_repository *git;
	char *gitdir;	/* absolute, trailing '/' */
	char *workdir;	/* absolute, trailing '/' */
	char *objects;	/* private object store, or NULL */
};

/* Above the repository's own stores (loose 1, packed 2): written first. */
#define PRIVATE_PRIORITY 100

static int add_private(git_repository *git, const char *dir)
{
	git_odb_backend *b = NULL;
	git_odb *odb = NULL;
	int ret = -1;

	if (git_repository_odb(&odb, git) < 0 ||
	    git_odb_backend_loose(&b, dir, -1, 0, 0700, 0400) < 0)
		goto cleanup;
	if (git_odb_add_backend(odb, b, PRIVATE_PRIORITY) < 0) {
		b->free(b);
		goto cleanup;
	}
	ret = 0;
cleanup:
	git_odb_free(odb);
	if (ret < 0)
		error("cannot use the object store \"%s\": %s", dir,
		      repo_errmsg());
	return ret;
}

int repo_private_objects(struct repo *r, const char *dir)
{
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return error("cannot create \"%s\":", dir);
	if (add_private(r->git, dir) < 0)
		return -1;
	free(r->objects);
	r->objects = xstrdup(dir);
	return 0;
}

const char *repo_private_dir(const struct repo *r)
{
	return r->objects;
}

int repo_attach_private(struct git_repository *git, const struct repo *r)
{
	return r->objects ? add_private(git, r->objects) : 0;
}

int repo_global_init(void)
{
	if (git_libgit2_init() < 0)
		return error("cannot initialise libgit2: %s", repo_errmsg());
	return 0;
}

void repo_global_shutdown(void)
{
	git_libgit2_shutdown();
}

const char *repo_errmsg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

struct git_repository *repo_git(const struct repo *r)
{
	return r->git;
}

static char *with_slash(const char *path)
{
	size_t len = strlen(path);

	if (len && path[len - 1] == '/')
		return xstrdup(path);
	return xasprintf("%s/", path);
}

int repo_open(struct repo **out, const char *dir)
{
	git_repository *git = NULL;
	struct repo *r;
	struct stat st;
	int err;

	*out = NULL;
	if (stat(dir, &st) < 0)
		return error("cannot open \"%s\":", dir);
	if (!S_ISDIR(st.st_mode))
		return error("\"%s\" is not a directory: pass the repository's "
			     "directory", dir);
	/*
	 * Flags 0: search upwards from dir like git does. We do not pass
	 * GIT_REPOSITORY_OPEN_FROM_ENV, so GIT_DIR and friends are ignored:
	 * gate finds its repository from the directory alone (or -C DIR).
	 */
	err = git_repository_open_ext(&git, dir, 0, NULL);
	if (err == GIT_ENOTFOUND)
		return error("not a git repository: \"%s\" (or any parent "
			     "directory); run gate inside a clone or pass -C DIR",
			     dir);
	if (err < 0)
		return error("cannot open the repository at \"%s\": %s", dir,
			     repo_errmsg());
	if (git_repository_is_bare(git) || !git_repository_workdir(git)) {
		error("\"%s\" is a bare repository: gate needs a working tree; "
		      "run it in a clone with a working tree",
		      git_repository_path(git));
		git_repository_free(git);
		return -1;
	}

	r = xcalloc(1, sizeof(*r));
	r->git = git;
	/* libgit2 keeps both paths absolute (it resolves them on open). */
	r->gitdir = with_slash(git_repository_path(git));
	r->workdir = with_slash(git_repository_workdir(git));
	*out = r;
	return 0;
}

void repo_free(struct repo *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r->gitdir);
	free(r->workdir);
	free(r->objects);
	free(r);
}

const char *repo_gitdir(const struct repo *r)
{
	return r->gitdir;
}

const char *repo_workdir(const struct repo *r)
{
	return r->workdir;
}

/* Explain why git_revparse_single failed on spec, with what to do. */
static int revparse_error(struct repo *r, const char *spec, int err)
{
	if (err == GIT_EAMBIGUOUS)
		return error("ambiguous revision \"%s\": %s; give more hex "
			     "digits or a full ref name (refs/heads/...)",
			     spec, repo_errmsg());
	if (strstr(spec, "@{") &&
	    (err == GIT_EINVALIDSPEC || err == GIT_ENOTFOUND))
		return error("cannot resolve revision \"%s\": %s; gate may "
			     "not read this reflog form (@{-N}, @{upstream}, "
			     "@{date}) as git does: pass the commit, e.g. "
			     "--base $(git rev-parse '%s')", spec,
			     repo_errmsg(), spec);
	if (err == GIT_EINVALIDSPEC && strstr(spec, ".."))
		return error("invalid revision \"%s\": a range; pass one "
			     "revision such as a branch, tag or commit", spec);
	if (err == GIT_EINVALIDSPEC)
		return error("invalid revision \"%s\": %s; pass one revision "
			     "such as a branch, tag or commit", spec,
			     repo_errmsg());
	if (err != GIT_ENOTFOUND && err != GIT_EUNBORNBRANCH)
		return error("cannot resolve revision \"%s\": %s", spec,
			     repo_errmsg());
	if (git_repository_head_unborn(r->git) == 1)
		return error("unknown revision \"%s\": the repository has no "
			     "commits yet; commit something first", spec);
	if (git_repository_is_shallow(r->git) == 1)
		return error("unknown revision \"%s\": this is a shallow clone "
			     "and may not have it; run \"git fetch --unshallow\" "
			     "(in GitHub Actions, set fetch-depth: 0 on "
			     "actions/checkout)", spec);
	return error("unknown revision \"%s\": not in this repository; "
		     "check the spelling (git branch -a, git tag, git log) or "
		     "fetch it", spec);
}

int repo_resolve(struct repo_rev *out, struct repo *r, const char *spec)
{
	struct repo_rev rev = REPO_REV_INIT;
	git_object *obj = NULL, *commit = NULL;
	int err, ret = -1;

	if (!spec || !*spec)
		return error("empty revision: pass a branch, tag, commit or "
			     "WORKTREE");
	if (!strcmp(spec, "WORKTREE")) {
		rev.worktree = 1;
		if (repo_snapshot(&rev, r) < 0)
			goto cleanup;
	} else {
		err = git_revparse_single(&obj, r->git, spec);
		if (err < 0) {
			revparse_error(r, spec, err);
			goto cleanup;
		}
		if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
			error("revision \"%s\" names a %s, not a commit: pass a "
			      "branch, tag or commit", spec,
			      git_object_type2string(git_object_type(obj)));
			goto cleanup;
		}
		git_oid_tostr(rev.commit, sizeof(rev.commit),
			      git_object_id(commit));
		git_oid_tostr(rev.tree, sizeof(rev.tree),
			      git_commit_tree_id((git_commit *)commit));
	}
	rev.label = xstrdup(spec);
	*out = rev;
	ret = 0;
cleanup:
	git_object_free(commit);
	git_object_free(obj);
	return ret;
}

void repo_rev_release(struct repo_rev *rev)
{
	free(rev->label);
	rev->label = NULL;
}

/*
 * The merge-base of HEAD and the commit at refname into base. Returns 0,
 * 1 when refname is missing or the two share no history here, or -1 with
 * a message.
 */
static int merge_base_with(git_oid *base, struct repo *r, const git_oid *head,
			   const char *refname)
{
	git_oid other;
	int err;

	err = git_reference_name_to_id(&other, r->git, refname);
	if (err == GIT_ENOTFOUND)
		return 1;
	if (err < 0)
		return error("cannot read \"%s\": %s", refname, repo_errmsg());
	err = git_merge_base(base, r->git, head, &other);
	/*
	 * libgit2 1.5 does not know shallow boundaries: in a shallow clone
	 * the walk runs into missing parents and fails. Both mean the
	 * history needed is not here.
	 */
	if (err == GIT_ENOTFOUND ||
	    (err < 0 && git_repository_is_shallow(r->git) == 1))
		return 1;
	if (err < 0)
		return error("cannot find the merge-base of HEAD and "
			     "\"%s\": %s", refname, repo_errmsg());
	return 0;
}

static int github_pr_event(void)
{
	const char *event = getenv("GITHUB_EVENT_NAME");
	const char *base = getenv("GITHUB_BASE_REF");

	return event && base && *base &&
	       (!strcmp(event, "pull_request") ||
		!strcmp(event, "pull_request_target"));
}

/* The value of branch.<branch>.<var> into *out (malloc'd), or NULL. */
static int branch_config(char **out, git_config *cfg, const char *branch,
			 const char *var)
{
	git_buf buf = GIT_BUF_INIT;
	char *key = xasprintf("branch.%s.%s", branch, var);
	int err = git_config_get_string_buf(&buf, cfg, key);

	free(key);
	*out = err < 0 ? NULL : xstrdup(buf.ptr);
	git_buf_dispose(&buf);
	return err;
}

/*
 * The remote-tracking ref that branch (a short name) follows, from
 * branch.<name>.remote and .merge mapped through remote.<remote>.fetch,
 * into *refname. Returns 0, 1 when there is none, or -1.
 *
 * Not git_branch_upstream: in libgit2 1.5 it goes through
 * git_remote_lookup, whose scan for url.*.insteadOf leaks a pcre2 match
 * block per config entry (fixed upstream by libgit2 PR #6382, 1.6).
 */
static int upstream_ref(char **refname, git_config *cfg, const char *branch)
{
	git_config_iterator *it = NULL;
	git_config_entry *entry;
	char *remote = NULL, *merge = NULL, *key = NULL;
	int ret = 1;

	*refname = NULL;
	if (branch_config(&remote, cfg, branch, "remote") < 0 ||
	    branch_config(&merge, cfg, branch, "merge") < 0)
		goto cleanup;
	if (!strcmp(remote, ".")) {	/* a local branch upstream */
		*refname = xstrdup(merge);
		ret = 0;
		goto cleanup;
	}
	key = xasprintf("remote.%s.fetch", remote);
	if (git_config_multivar_iterator_new(&it, cfg, key, NULL) < 0)
		goto cleanup;
	while (!*refname && git_config_next(&entry, it) == 0) {
		git_refspec *spec = NULL;
		git_buf buf = GIT_BUF_INIT;

		if (entry->value[0] != '^' &&
		    git_refspec_parse(&spec, entry->value, 1) == 0 &&
		    git_refspec_src_matches(spec, merge) &&
		    git_refspec_transform(&buf, spec, merge) == 0)
			*refname = xstrdup(buf.ptr);
		git_buf_dispose(&buf);
		git_refspec_free(spec);
	}
	ret = *refname ? 0 : 1;
cleanup:
	git_error_clear();
	git_config_iterator_free(it);
	free(key);
	free(remote);
	free(merge);
	return ret;
}

/*
 * The merge-base of HEAD with its branch's upstream into base and the
 * upstream's short name into *name. Returns 0, 1 when HEAD is detached,
 * has no upstream or shares no history with it here, or -1.
 */
static int upstream_base(git_oid *base, char **name, struct repo *r,
			 const git_oid *head_oid)
{
	git_reference *head = NULL;
	git_config *cfg = NULL;
	char *ref = NULL;
	int ret = 1;

	if (git_repository_head(&head, r->git) < 0 ||
	    !git_reference_is_branch(head))
		goto cleanup;
	if (git_repository_config_snapshot(&cfg, r->git) < 0) {
		ret = error("cannot read the repository's config: %s",
			    repo_errmsg());
		goto cleanup;
	}
	if (upstream_ref(&ref, cfg, git_reference_shorthand(head)))
		goto cleanup;
	ret = merge_base_with(base, r, head_oid, ref);
	if (!ret) {
		const char *prefix = !strncmp(ref, "refs/remotes/", 13)
			? "refs/remotes/" : "refs/heads/";
		size_t n = strlen(prefix);

		*name = xstrdup(strncmp(ref, prefix, n) ? ref : ref + n);
	}
cleanup:
	free(ref);
	git_config_free(cfg);
	git_reference_free(head);
	git_error_clear();
	return ret;
}

static int have_object(struct repo *r, const git_oid *id)
{
	git_odb *odb = NULL;
	int have = 0;

	if (git_repository_odb(&odb, r->git) == 0)
		have = git_odb_exists(odb, id);
	git_odb_free(odb);
	return have;
}

int repo_default_base(char **spec_out, char **how_out, struct repo *r)
{
	return repo_default_base_why(spec_out, how_out, NULL, r, 0);
}

int repo_default_base_why(char **spec_out, char **how_out, char **why_out,
			  struct repo *r, int head_dirty)
{
	git_oid head_oid, base;
	git_commit *head = NULL;
	char *name = NULL, *why = NULL, hex[REPO_HEXSZ + 1];
	int err;

	*spec_out = *how_out = NULL;
	if (why_out)
		*why_out = NULL;
	err = git_reference_name_to_id(&head_oid, r->git, "HEAD");
	if (err == GIT_ENOTFOUND || err == GIT_EUNBORNBRANCH)
		return error("no base: the repository has no commits yet; "
			     "commit something, or pass --base REV");
	if (err < 0)
		return error("cannot read HEAD: %s", repo_errmsg());

	if (github_pr_event()) {
		const char *branch = getenv("GITHUB_BASE_REF");
		char *ref = xasprintf("refs/remotes/origin/%s", branch);

		err = merge_base_with(&base, r, &head_oid, ref);
		free(ref);
		if (err < 0)
			return -1;
		if (err > 0)
			return error("no base: the pull request's base "
				     "\"origin/%s\" or its history is missing "
				     "from this clone; set fetch-depth: 0 on "
				     "actions/checkout, or pass --base REV",
				     branch);
		*how_out = xasprintf("merge-base of HEAD and origin/%s",
				     branch);
		why = xasprintf("pull request into %s", branch);
		goto found;
	}

	err = upstream_base(&base, &name, r, &head_oid);
	if (err < 0)
		return -1;
	if (!err) {
		*how_out = xasprintf("merge-base of HEAD and %s", name);
		why = xasprintf("the branch's upstream is %s", name);
		free(name);
		goto found;
	}

	err = merge_base_with(&base, r, &head_oid, "refs/remotes/origin/HEAD");
	if (err < 0)
		return -1;
	if (!err) {
		*how_out = xstrdup("merge-base of HEAD and origin/HEAD");
		why = xstrdup("no upstream branch; the remote's default "
			      "branch");
		goto found;
	}

	/*
	 * No upstream: with uncommitted changes the question is "what am I
	 * about to commit", so the base is HEAD itself.
	 */
	if (head_dirty) {
		git_oid_cpy(&base, &head_oid);
		*how_out = xstrdup("HEAD");
		why = xstrdup("no upstream branch, working tree has changes");
		goto found;
	}

	if (git_commit_lookup(&head, r->git, &head_oid) < 0)
		return error("cannot read HEAD's commit: %s", repo_errmsg());
	if (git_commit_parentcount(head) == 0) {
		git_commit_free(head);
		return error("no base: HEAD has no parent and no upstream "
			     "branch to compare with, and the working tree "
			     "has no changes; pass --base REV");
	}
	git_oid_cpy(&base, git_commit_parent_id(head, 0));
	git_commit_free(head);
	/*
	 * A shallow clone's HEAD~1 is listed as a parent but absent from
	 * the object database: say so now rather than at checkout.
	 */
	if (!have_object(r, &base))
		return error("no base: HEAD~1 is missing from this shallow "
			     "clone; run \"git fetch --unshallow\" (in GitHub "
			     "Actions, set fetch-depth: 0 on actions/checkout), "
			     "or pass --base REV");
	*how_out = xstrdup("HEAD~1");
	why = xstrdup("no upstream branch, working tree clean");
found:
	git_oid_tostr(hex, sizeof(hex), &base);
	*spec_out = xstrdup(hex);
	if (why_out)
		*why_out = why;
	else
		free(why);
	return 0;
}

int repo_read_file(char **data, size_t *len, struct repo *r,
		   const char *tree_hex, const char *path)
{
	git_oid id;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	git_object_size_t size;
	int err, ret = -1;

	*data = NULL;
	*len = 0;
	if (git_oid_fromstr(&id, tree_hex) < 0)
		return error("invalid tree id \"%s\": %s", tree_hex,
			     repo_errmsg());
	if (git_tree_lookup(&tree, r->git, &id) < 0)
		return error("cannot read tree %s: %s", tree_hex,
			     repo_errmsg());
	err = git_tree_entry_bypath(&entry, tree, path);
	if (err == GIT_ENOTFOUND) {
		ret = 0;	/* *data stays NULL: no such file */
		goto cleanup;
	}
	if (err < 0) {
		error("cannot look up \"%s\" in tree %s: %s", path, tree_hex,
		      repo_errmsg());
		goto cleanup;
	}
	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
		error("\"%s\" is not a file in tree %s: it is a %s", path,
		      tree_hex,
		      git_object_type2string(git_tree_entry_type(entry)));
		goto cleanup;
	}
	if (git_blob_lookup(&blob, r->git, git_tree_entry_id(entry)) < 0) {
		error("cannot read \"%s\" from tree %s: %s", path, tree_hex,
		      repo_errmsg());
		goto cleanup;
	}
	size = git_blob_rawsize(blob);
	if (git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK) {
		error("\"%s\" in tree %s is a symlink (to \"%.*s\"): gate "
		      "reads it from the commit and does not follow links; "
		      "commit the file itself, or pass --config FILE", path,
		      tree_hex, size > 200 ? 200 : (int)size,
		      (const char *)git_blob_rawcontent(blob));
		goto cleanup;
	}
	if (size >= (git_object_size_t)SIZE_MAX) {
		error("\"%s\" is too large to read", path);
		goto cleanup;
	}
	*len = (size_t)size;
	*data = xmalloc(*len + 1);
	memcpy(*data, git_blob_rawcontent(blob), *len);
	(*data)[*len] = '\0';
	ret = 0;
cleanup:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	return ret;
}
