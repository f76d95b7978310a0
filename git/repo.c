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

static int add_private(git_repository *git, const char *dir,
		       struct gate_err *err)
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
		error_to(err, "cannot use the object store \"%s\": %s", dir,
			 repo_errmsg());
	return ret;
}

int repo_private_objects(struct repo *r, const char *dir, struct gate_err *err)
{
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return error_to(err, "cannot create \"%s\":", dir);
	if (add_private(r->git, dir, err) < 0)
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
	return r->objects ? add_private(git, r->objects, NULL) : 0;
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
static int revparse_error(struct repo *r, const char *spec, int code,
			  struct gate_err *err)
{
	if (code == GIT_EAMBIGUOUS)
		return error_to(err, "ambiguous revision \"%s\": %s; give more "
				"hex digits or a full ref name "
				"(refs/heads/...)", spec, repo_errmsg());
	if (strstr(spec, "@{") &&
	    (code == GIT_EINVALIDSPEC || code == GIT_ENOTFOUND))
		return error_to(err, "cannot resolve revision \"%s\": %s; gate "
				"may not read this reflog form (@{-N}, "
				"@{upstream}, @{date}) as git does: pass the "
				"commit, e.g. --base $(git rev-parse '%s')",
				spec, repo_errmsg(), spec);
	if (code == GIT_EINVALIDSPEC && strstr(spec, ".."))
		return error_to(err, "invalid revision \"%s\": a range; pass "
				"one revision such as a branch, tag or commit",
				spec);
	if (code == GIT_EINVALIDSPEC)
		return error_to(err, "invalid revision \"%s\": %s; pass one "
				"revision such as a branch, tag or commit",
				spec, repo_errmsg());
	if (code != GIT_ENOTFOUND && code != GIT_EUNBORNBRANCH)
		return error_to(err, "cannot resolve revision \"%s\": %s", spec,
				repo_errmsg());
	if (git_repository_head_unborn(r->git) == 1)
		return error_to(err, "unknown revision \"%s\": the repository "
				"has no commits yet; commit something first",
				spec);
	if (git_repository_is_shallow(r->git) == 1)
		return error_to(err, "unknown revision \"%s\": this is a "
				"shallow clone and may not have it; run \"git "
				"fetch --unshallow\" (in GitHub Actions, set "
				"fetch-depth: 0 on actions/checkout)", spec);
	return error_to(err, "unknown revision \"%s\": not in this repository; "
			"check the spelling (git branch -a, git tag, git log) "
			"or fetch it", spec);
}

int repo_resolve(struct repo_rev *out, struct repo *r, const char *spec)
{
	return repo_resolve_to(out, r, spec, NULL);
}

int repo_resolve_to(struct repo_rev *out, struct repo *r, const char *spec,
		    struct gate_err *err)
{
	struct repo_rev rev = REPO_REV_INIT;
	git_object *obj = NULL, *commit = NULL;
	int code, ret = -1;

	if (!spec || !*spec)
		return error_to(err, "empty revision: pass a branch, tag, "
				"commit or WORKTREE");
	if (!strcmp(spec, "WORKTREE")) {
		rev.worktree = 1;
		if (repo_snapshot(&rev, r, err) < 0)
			goto cleanup;
	} else {
		code = git_revparse_single(&obj, r->git, spec);
		if (code < 0) {
			revparse_error(r, spec, code, err);
			goto cleanup;
		}
		if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
			error_to(err, "revision \"%s\" names a %s, not a "
				 "commit: pass a branch, tag or commit", spec,
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

/* What a look for a default base ended with. */
enum base_found {
	BASE_ERROR = -1,	/* said through err */
	BASE_FOUND = 0,
	BASE_NONE = 1,		/* not this way: try the next */
};

/*
 * The merge-base of HEAD and the commit at refname into base; BASE_NONE
 * when refname is missing or the two share no history here.
 */
static enum base_found merge_base_with(git_oid *base, struct repo *r,
				       const git_oid *head,
				       const char *refname,
				       struct gate_err *err)
{
	git_oid other;
	int code;

	code = git_reference_name_to_id(&other, r->git, refname);
	if (code == GIT_ENOTFOUND)
		return BASE_NONE;
	if (code < 0)
		return error_to(err, "cannot read \"%s\": %s", refname,
				repo_errmsg());
	code = git_merge_base(base, r->git, head, &other);
	/*
	 * libgit2 1.5 does not know shallow boundaries: in a shallow clone
	 * the walk runs into missing parents and fails. Both mean the
	 * history needed is not here.
	 */
	if (code == GIT_ENOTFOUND ||
	    (code < 0 && git_repository_is_shallow(r->git) == 1))
		return BASE_NONE;
	if (code < 0)
		return error_to(err, "cannot find the merge-base of HEAD and "
				"\"%s\": %s", refname, repo_errmsg());
	return BASE_FOUND;
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
 * upstream's short name into *name; BASE_NONE when HEAD is detached, has
 * no upstream or shares no history with it here.
 */
static enum base_found upstream_base(git_oid *base, char **name,
				     struct repo *r, const git_oid *head_oid,
				     struct gate_err *err)
{
	git_reference *head = NULL;
	git_config *cfg = NULL;
	char *ref = NULL;
	enum base_found ret = BASE_NONE;

	if (git_repository_head(&head, r->git) < 0 ||
	    !git_reference_is_branch(head))
		goto cleanup;
	if (git_repository_config_snapshot(&cfg, r->git) < 0) {
		ret = error_to(err, "cannot read the repository's config: "
			       "%s", repo_errmsg());
		goto cleanup;
	}
	if (upstream_ref(&ref, cfg, git_reference_shorthand(head)))
		goto cleanup;
	ret = merge_base_with(base, r, head_oid, ref, err);
	if (ret == BASE_FOUND) {
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

/* A default base: its commit, how it was chosen and why (malloc'd). */
struct base_choice {
	git_oid id;
	char *how, *why;
};

/* In a GitHub pull-request event: the merge-base with the PR's base. */
static enum base_found pr_base(struct base_choice *c, struct repo *r,
			       const git_oid *head, struct gate_err *err)
{
	const char *branch = getenv("GITHUB_BASE_REF");
	char *ref = xasprintf("refs/remotes/origin/%s", branch);
	enum base_found found = merge_base_with(&c->id, r, head, ref, err);

	free(ref);
	if (found == BASE_ERROR)
		return BASE_ERROR;
	if (found == BASE_NONE)
		return error_to(err, "no base: the pull request's base "
				"\"origin/%s\" or its history is missing from "
				"this clone; set fetch-depth: 0 on "
				"actions/checkout, or pass --base REV", branch);
	c->how = xasprintf("merge-base of HEAD and origin/%s", branch);
	c->why = xasprintf("pull request into %s", branch);
	return BASE_FOUND;
}

/* The merge-base with the branch's upstream, else with origin/HEAD. */
static enum base_found tracking_base(struct base_choice *c, struct repo *r,
				     const git_oid *head,
				     struct gate_err *err)
{
	char *name = NULL;
	enum base_found found = upstream_base(&c->id, &name, r, head, err);

	if (found == BASE_FOUND) {
		c->how = xasprintf("merge-base of HEAD and %s", name);
		c->why = xasprintf("the branch's upstream is %s", name);
		free(name);
		return BASE_FOUND;
	}
	if (found == BASE_ERROR)
		return BASE_ERROR;
	found = merge_base_with(&c->id, r, head, "refs/remotes/origin/HEAD",
				err);
	if (found == BASE_FOUND) {
		c->how = xstrdup("merge-base of HEAD and origin/HEAD");
		c->why = xstrdup("no upstream branch; the remote's default "
				 "branch");
	}
	return found;
}

/*
 * No upstream: with uncommitted changes the question is "what am I about
 * to commit", so the base is HEAD itself; else HEAD~1.
 */
static enum base_found parent_base(struct base_choice *c, struct repo *r,
				   const git_oid *head_oid, int head_dirty,
				   struct gate_err *err)
{
	git_commit *head = NULL;

	if (head_dirty) {
		git_oid_cpy(&c->id, head_oid);
		c->how = xstrdup("HEAD");
		c->why = xstrdup("no upstream branch, working tree has "
				 "changes");
		return BASE_FOUND;
	}
	if (git_commit_lookup(&head, r->git, head_oid) < 0)
		return error_to(err, "cannot read HEAD's commit: %s",
				repo_errmsg());
	if (git_commit_parentcount(head) == 0) {
		git_commit_free(head);
		return error_to(err, "no base: HEAD has no parent and no "
				"upstream branch to compare with, and the "
				"working tree has no changes; pass --base REV");
	}
	git_oid_cpy(&c->id, git_commit_parent_id(head, 0));
	git_commit_free(head);
	/*
	 * A shallow clone's HEAD~1 is listed as a parent but absent from
	 * the object database: say so now rather than at checkout.
	 */
	if (!have_object(r, &c->id))
		return error_to(err, "no base: HEAD~1 is missing from this "
				"shallow clone; run \"git fetch --unshallow\" "
				"(in GitHub Actions, set fetch-depth: 0 on "
				"actions/checkout), or pass --base REV");
	c->how = xstrdup("HEAD~1");
	c->why = xstrdup("no upstream branch, working tree clean");
	return BASE_FOUND;
}

int repo_default_base_why(char **spec_out, char **how_out, char **why_out,
			  struct repo *r, int head_dirty, struct gate_err *err)
{
	struct base_choice c;
	git_oid head;
	char hex[REPO_HEXSZ + 1];
	int code;
	enum base_found found;

	memset(&c, 0, sizeof(c));
	*spec_out = *how_out = NULL;
	if (why_out)
		*why_out = NULL;
	code = git_reference_name_to_id(&head, r->git, "HEAD");
	if (code == GIT_ENOTFOUND || code == GIT_EUNBORNBRANCH)
		return error_to(err, "no base: the repository has no commits "
				"yet; commit something, or pass --base REV");
	if (code < 0)
		return error_to(err, "cannot read HEAD: %s", repo_errmsg());
	if (github_pr_event())
		found = pr_base(&c, r, &head, err);
	else if ((found = tracking_base(&c, r, &head, err)) == BASE_NONE)
		found = parent_base(&c, r, &head, head_dirty, err);
	if (found != BASE_FOUND)
		return -1;
	git_oid_tostr(hex, sizeof(hex), &c.id);
	*spec_out = xstrdup(hex);
	*how_out = c.how;
	if (why_out)
		*why_out = c.why;
	else
		free(c.why);
	return 0;
}

int repo_read_file(char **data, size_t *len, struct repo *r,
		   const char *tree_hex, const char *path,
		   struct gate_err *err)
{
	git_oid id;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	git_object_size_t size;
	int code, ret = -1;

	*data = NULL;
	*len = 0;
	if (git_oid_fromstr(&id, tree_hex) < 0)
		return error_to(err, "invalid tree id \"%s\": %s", tree_hex,
				repo_errmsg());
	if (git_tree_lookup(&tree, r->git, &id) < 0)
		return error_to(err, "cannot read tree %s: %s", tree_hex,
				repo_errmsg());
	code = git_tree_entry_bypath(&entry, tree, path);
	if (code == GIT_ENOTFOUND) {
		ret = 0;	/* *data stays NULL: no such file */
		goto cleanup;
	}
	if (code < 0) {
		error_to(err, "cannot look up \"%s\" in tree %s: %s", path,
			 tree_hex, repo_errmsg());
		goto cleanup;
	}
	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
		error_to(err, "\"%s\" is not a file in tree %s: it is a %s",
			 path, tree_hex,
			 git_object_type2string(git_tree_entry_type(entry)));
		goto cleanup;
	}
	if (git_blob_lookup(&blob, r->git, git_tree_entry_id(entry)) < 0) {
		error_to(err, "cannot read \"%s\" from tree %s: %s", path,
			 tree_hex, repo_errmsg());
		goto cleanup;
	}
	size = git_blob_rawsize(blob);
	if (git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK) {
		error_to(err, "\"%s\" in tree %s is a symlink (to \"%.*s\"): "
			 "gate reads it from the commit and does not follow "
			 "links; commit the file itself, or pass --config FILE",
			 path, tree_hex, size > 200 ? 200 : (int)size,
			 (const char *)git_blob_rawcontent(blob));
		goto cleanup;
	}
	if (size >= (git_object_size_t)SIZE_MAX) {
		error_to(err, "\"%s\" is too large to read", path);
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
