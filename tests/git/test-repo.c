/*
 * Unit tests for git/repo.c: opening, resolving revisions, the default
 * base and reading a file, on fixture repositories (fixture.h): results
 * against git's own.
 */
#include "git/repo.h"

#include <stdlib.h>

#include "common/error.h"

#include "tests/git/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_git__open_from_subdirectory(void)
{
	struct repo *r = NULL;
	char *dir, *deep, *want;

	begin();
	dir = make_repo("r");
	deep = at("r/sub/x/y");
	sh("mkdir -p '%s'", deep);
	CHECK(repo_open(&r, deep) == 0);
	if (r) {
		want = xasprintf("%s/", dir);
		CHECK_STR(repo_workdir(r), want);
		free(want);
		want = xasprintf("%s/.git/", dir);
		CHECK_STR(repo_gitdir(r), want);
		free(want);
	}
	repo_free(r);
	free(deep);
	free(dir);
	end();
}

static void test_git__open_refuses_bare_repository(void)
{
	struct repo *r = NULL;
	char *dir;

	begin();
	dir = at("bare.git");
	sh("git init -q --bare '%s'", dir);
	CHECK(repo_open(&r, dir) == -1);
	CHECK(r == NULL);
	CHECK_CONTAINS(msg, "bare repository");
	CHECK_CONTAINS(msg, "working tree");
	free(dir);
	end();
}

static void test_git__open_outside_repository(void)
{
	struct repo *r = NULL;
	char *dir;

	begin();
	dir = at("plain");
	sh("mkdir -p '%s'", dir);
	/* Meaningful only when no directory above scratch is a repository. */
	if (sh("git -C '%s' rev-parse --git-dir >/dev/null 2>&1", dir) != 0) {
		CHECK(repo_open(&r, dir) == -1);
		CHECK_CONTAINS(msg, "not a git repository");
		CHECK_CONTAINS(msg, "-C DIR");
	}
	CHECK(repo_open(&r, "/nonexistent/gate-test") == -1);
	CHECK_CONTAINS(msg, "\"/nonexistent/gate-test\"");
	free(dir);
	end();
}

static void check_resolves(struct repo *r, const char *dir, const char *spec)
{
	struct repo_rev rev = REPO_REV_INIT;
	char *commit = out("cd '%s' && git rev-parse '%s^{commit}'", dir, spec);
	char *tree = out("cd '%s' && git rev-parse '%s^{tree}'", dir, spec);

	CHECK(repo_resolve(&rev, r, spec) == 0);
	CHECK_STR(rev.label, spec);
	CHECK_STR(rev.commit, commit);
	CHECK_STR(rev.tree, tree);
	CHECK(rev.worktree == 0 && rev.dirty == 0);
	repo_rev_release(&rev);
	free(commit);
	free(tree);
}

static void test_git__resolve_head_branch_tag_parent(void)
{
	struct repo *r = NULL;
	char *dir;

	begin();
	dir = make_repo("r");
	sh("cd '%s' && git branch feature HEAD~1 && " GIT
	   " tag -a v1 -m v1 HEAD~1 && git tag light HEAD", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		check_resolves(r, dir, "HEAD");
		check_resolves(r, dir, "main");
		check_resolves(r, dir, "feature");
		check_resolves(r, dir, "v1");
		check_resolves(r, dir, "light");
		check_resolves(r, dir, "HEAD~1");
	}
	repo_free(r);
	free(dir);
	end();
}

static void test_git__resolve_unknown_revision(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir;

	begin();
	dir = make_repo("r");
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "nosuch") == -1);
		CHECK_CONTAINS(msg, "unknown revision \"nosuch\"");
		CHECK_CONTAINS(msg, "fetch");
		CHECK(rev.label == NULL);
		CHECK(repo_resolve(&rev, r, "HEAD~7") == -1);
		CHECK_CONTAINS(msg, "\"HEAD~7\"");
		CHECK(repo_resolve(&rev, r, "HEAD^{tree}") == -1);
		CHECK_CONTAINS(msg, "not a commit");
		CHECK(repo_resolve(&rev, r, "") == -1);
	}
	repo_free(r);
	free(dir);
	end();
}

static void test_git__resolve_in_shallow_clone_suggests_unshallow(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *src, *dir;
	char *base = NULL, *how = NULL;

	begin();
	src = make_repo("src");
	dir = at("shallow");
	sh("git clone -q --depth 1 'file://%s' '%s'", src, dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		check_resolves(r, dir, "HEAD");
		CHECK(repo_resolve(&rev, r, "HEAD~1") == -1);
		CHECK_CONTAINS(msg, "\"HEAD~1\"");
		CHECK_CONTAINS(msg, "git fetch --unshallow");
		CHECK_CONTAINS(msg, "fetch-depth: 0");
		/* Default base in a PR event whose base was not fetched. */
		setenv("GITHUB_EVENT_NAME", "pull_request", 1);
		setenv("GITHUB_BASE_REF", "release", 1);
		CHECK(repo_default_base_why(&base, &how, NULL, r, 0,
					    NULL) == -1);
		CHECK_CONTAINS(msg, "fetch-depth: 0");
		/* No PR, detached: HEAD~1 is not in the clone. */
		unsetenv("GITHUB_EVENT_NAME");
		sh("cd '%s' && git checkout -q --detach && "
		   "git update-ref -d refs/remotes/origin/HEAD && "
		   "git update-ref -d refs/remotes/origin/main", dir);
		CHECK(repo_default_base_why(&base, &how, NULL, r, 0,
					    NULL) == -1);
		CHECK_CONTAINS(msg, "fetch --unshallow");
	}
	repo_free(r);
	free(src);
	free(dir);
	end();
}

static void test_git__resolve_unborn_head(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir;

	begin();
	dir = at("empty");
	sh("git init -q -b main '%s'", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "HEAD") == -1);
		CHECK_CONTAINS(msg, "no commits yet");
	}
	repo_free(r);
	free(dir);
	end();
}

static void test_git__read_file(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir, *data = NULL;
	size_t len = 0;

	begin();
	dir = make_repo("f");
	CHECK(repo_open(&r, dir) == 0);
	if (r && repo_resolve(&rev, r, "HEAD") == 0) {
		CHECK(repo_read_file(&data, &len, r, rev.tree, "sub/d.txt", NULL)
		      == 0);
		CHECK_STR(data, "d\n");
		CHECK(len == 2);
		free(data);
		CHECK(repo_read_file(&data, &len, r, rev.tree, "a.txt", NULL) == 0);
		CHECK_STR(data, "a2\n");
		free(data);
		msg[0] = '\0';
		/* missing: 0 with no data, nothing said */
		CHECK(repo_read_file(&data, &len, r, rev.tree, "gate.json", NULL)
		      == 0);
		CHECK(data == NULL && len == 0);
		CHECK(repo_read_file(&data, &len, r, rev.tree, "no/such", NULL) == 0);
		CHECK(data == NULL);
		CHECK_STR(msg, "");
		CHECK(repo_read_file(&data, &len, r, rev.tree, "sub", NULL) == -1);
		CHECK_CONTAINS(msg, "\"sub\"");
		CHECK(repo_read_file(&data, &len, r, "zz", "a.txt", NULL) == -1);
		repo_rev_release(&rev);
	}
	repo_free(r);
	free(dir);
	end();
}

static void test_git__default_base(void)
{
	struct repo *r = NULL;
	char *dst, *c1, *c2, *base = NULL, *how = NULL;

	begin();
	dst = make_clone();
	c1 = out("git -C '%s' rev-parse origin/other", dst);
	c2 = out("git -C '%s' rev-parse origin/main", dst);
	CHECK(repo_open(&r, dst) == 0);
	if (!r)
		goto done;

	/* upstream of the current branch */
	CHECK(repo_default_base_why(&base, &how, NULL, r, 0, NULL) == 0);
	CHECK_STR(base, c2);
	CHECK_STR(how, "merge-base of HEAD and origin/main");
	free(base);
	free(how);

	/* a pull-request event wins over the upstream */
	setenv("GITHUB_EVENT_NAME", "pull_request", 1);
	setenv("GITHUB_BASE_REF", "other", 1);
	CHECK(repo_default_base_why(&base, &how, NULL, r, 0, NULL) == 0);
	CHECK_STR(base, c1);
	CHECK_STR(how, "merge-base of HEAD and origin/other");
	free(base);
	free(how);

	/* pull_request_target too; a base that was not fetched is an error */
	setenv("GITHUB_EVENT_NAME", "pull_request_target", 1);
	setenv("GITHUB_BASE_REF", "release", 1);
	CHECK(repo_default_base_why(&base, &how, NULL, r, 0, NULL) == -1);
	CHECK(base == NULL && how == NULL);
	CHECK_CONTAINS(msg, "\"origin/release\"");
	CHECK_CONTAINS(msg, "fetch-depth: 0");

	/* other events do not count */
	setenv("GITHUB_EVENT_NAME", "push", 1);
	CHECK(repo_default_base_why(&base, &how, NULL, r, 0, NULL) == 0);
	CHECK_STR(base, c2);
	free(base);
	free(how);
	unsetenv("GITHUB_EVENT_NAME");
	unsetenv("GITHUB_BASE_REF");

	/* detached: the remote's default branch */
	sh("cd '%s' && git checkout -q --detach", dst);
	CHECK(repo_default_base_why(&base, &how, NULL, r, 0, NULL) == 0);
	CHECK_STR(base, c2);
	CHECK_STR(how, "merge-base of HEAD and origin/HEAD");
	free(base);
	free(how);
done:
	repo_free(r);
	free(c1);
	free(c2);
	free(dst);
	end();
}

static void test_git__default_base_falls_back_to_parent(void)
{
	struct repo *r = NULL;
	char *dir, *want, *base = NULL, *how = NULL;

	begin();
	dir = make_repo("p");
	want = out("git -C '%s' rev-parse HEAD~1", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_default_base_why(&base, &how, NULL, r, 0,
					    NULL) == 0);
		CHECK_STR(base, want);
		CHECK_STR(how, "HEAD~1");
		free(base);
		free(how);
	}
	repo_free(r);
	free(want);
	free(dir);
	end();
}

static void test_git__default_base_is_head_with_changes(void)
{
	struct repo *r = NULL;
	char *dir, *head, *parent, *base = NULL, *how = NULL, *why = NULL;

	begin();
	dir = make_repo("d");
	head = out("git -C '%s' rev-parse HEAD", dir);
	parent = out("git -C '%s' rev-parse HEAD~1", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		/* uncommitted changes, no upstream: "what am I about to commit" */
		CHECK(repo_default_base_why(&base, &how, &why, r, 1, NULL) == 0);
		CHECK_STR(base, head);
		CHECK_STR(how, "HEAD");
		CHECK_STR(why, "no upstream branch, working tree has changes");
		free(base);
		free(how);
		free(why);
		/* clean: the parent, and why */
		CHECK(repo_default_base_why(&base, &how, &why, r, 0, NULL) == 0);
		CHECK_STR(base, parent);
		CHECK_STR(how, "HEAD~1");
		CHECK_STR(why, "no upstream branch, working tree clean");
		free(base);
		free(how);
		free(why);
	}
	repo_free(r);
	free(head);
	free(parent);
	free(dir);
	end();
}

static void test_git__default_base_none_for_single_commit(void)
{
	struct repo *r = NULL;
	char *dir, *base = NULL, *how = NULL;

	begin();
	dir = at("one");
	sh("git init -q -b main '%s'", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_default_base_why(&base, &how, NULL, r, 0,
					    NULL) == -1);
		CHECK_CONTAINS(msg, "no base");
		CHECK_CONTAINS(msg, "no commits yet");
		write_file(dir, "f", "1\n");
		sh("cd '%s' && git add f && " GIT " commit -qm one", dir);
		CHECK(repo_default_base_why(&base, &how, NULL, r, 0,
					    NULL) == -1);
		CHECK_CONTAINS(msg, "no base");
		CHECK_CONTAINS(msg, "pass --base REV");
		CHECK(base == NULL && how == NULL);
	}
	repo_free(r);
	free(dir);
	end();
}

/*
 * With a struct gate_err, a failure's message goes into it, word for word
 * what error() would have printed, and nothing is printed (msg, the
 * fixture's capture of error(), stays empty): gate run quotes it in its
 * report.
 */
static void test_git__errors_go_to_the_callers_record(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	struct gate_err err = { "" };
	char *dir, *base = NULL, *how = NULL, *data = NULL;
	size_t len = 0;

	begin();
	dir = at("one");
	sh("git init -q -b main '%s'", dir);
	write_file(dir, "f", "1\n");
	sh("cd '%s' && ln -s f link && git add f link && " GIT " commit -qm one",
	   dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve_to(&rev, r, "nosuch", &err) == -1);
		CHECK_CONTAINS(err.msg, "unknown revision \"nosuch\"");
		CHECK_STR(msg, "");
		/* the same words error() prints */
		CHECK(repo_resolve(&rev, r, "nosuch") == -1);
		CHECK_STR(msg, err.msg);
		msg[0] = '\0';
		CHECK(repo_default_base_why(&base, &how, NULL, r, 0, &err) ==
		      -1);
		CHECK_CONTAINS(err.msg, "no base: HEAD has no parent");
		CHECK(base == NULL && how == NULL);
		CHECK(repo_resolve_to(&rev, r, "HEAD", &err) == 0);
		CHECK(repo_read_file(&data, &len, r, rev.tree, "link", &err) ==
		      -1);
		CHECK_CONTAINS(err.msg, "is a symlink (to \"f\")");
		CHECK(data == NULL);
		CHECK_STR(msg, "");
		repo_rev_release(&rev);
	}
	repo_free(r);
	free(dir);
	end();
}

static const struct harness_test tests[] = {
	TEST(test_git__errors_go_to_the_callers_record),
	TEST(test_git__open_from_subdirectory),
	TEST(test_git__open_refuses_bare_repository),
	TEST(test_git__open_outside_repository),
	TEST(test_git__resolve_head_branch_tag_parent),
	TEST(test_git__resolve_unknown_revision),
	TEST(test_git__resolve_in_shallow_clone_suggests_unshallow),
	TEST(test_git__resolve_unborn_head),
	TEST(test_git__read_file),
	TEST(test_git__default_base),
	TEST(test_git__default_base_falls_back_to_parent),
	TEST(test_git__default_base_none_for_single_commit),
	TEST(test_git__default_base_is_head_with_changes),
};

HARNESS_MAIN(tests)
