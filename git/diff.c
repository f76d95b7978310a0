/*
 * Which tracked paths differ between two trees: the identical-build
 * shortcut may skip measuring only when every one is a declared build
 * input ("sources"), so a change to a data file a benchmark reads is
 * always measured.
 */
#include "git/repo.h"

#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "common/error.h"
#include "common/banned.h"

struct changes {
	char **paths;
	size_t n, cap;
};

static void add_path(struct changes *c, const char *path)
{
	if (c->n && !strcmp(c->paths[c->n - 1], path))
		return;
	XGROW(c->paths, c->cap, c->n + 1);
	c->paths[c->n++] = xstrdup(path);
}

static int each_file(const git_diff_delta *d, float progress, void *data)
{
	(void)progress;
	/* both sides: a rename is a removal and an addition */
	if (d->old_file.path)
		add_path(data, d->old_file.path);
	if (d->new_file.path)
		add_path(data, d->new_file.path);
	return 0;
}

static int lookup(git_tree **t, git_repository *git, const char *hex)
{
	git_oid id;

	return git_oid_fromstr(&id, hex) < 0 ? -1 :
	       git_tree_lookup(t, git, &id);
}

int repo_tree_changes(char ***paths, size_t *n, struct repo *r,
		      const char *tree_a, const char *tree_b,
		      struct gate_err *err)
{
	git_repository *git = repo_git(r);
	git_diff_options opts;
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	struct changes c = { NULL, 0, 0 };
	int ret = -1;

	*paths = NULL;
	*n = 0;
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) < 0)
		return error_to(err, "cannot set up a diff: %s",
				repo_errmsg());
	/* type changes and mode changes count: a script made executable
	   runs differently */
	opts.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
	if (lookup(&a, git, tree_a) < 0 || lookup(&b, git, tree_b) < 0 ||
	    git_diff_tree_to_tree(&diff, git, a, b, &opts) < 0 ||
	    git_diff_foreach(diff, each_file, NULL, NULL, NULL, &c) < 0) {
		error_to(err, "cannot compare trees %.10s and %.10s: %s",
			 tree_a, tree_b, repo_errmsg());
		repo_list_free(c.paths, c.n);
		goto cleanup;
	}
	*paths = c.paths;
	*n = c.n;
	ret = 0;
cleanup:
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}
