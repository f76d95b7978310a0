/*
 * Unit tests for git/checkout.c: incremental checkouts into gate's own
 * directories, on fixture repositories (fixture.h): results against
 * git's own, and the user's index, refs, stash, config and files
 * untouched.
 */
#include "git/repo.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/git/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_git__checkout_is_incremental(void)
{
	size_t updated;
	struct repo_rev t1 = REPO_REV_INIT, t2 = REPO_REV_INIT;
	struct timespec old = { 1000000000, 0 }, times[2];
	struct user_state before;
	struct repo *r = NULL;
	char *dir, *co, *idx, *s;
	size_t len;

	begin();
	dir = make_repo("k");
	/* second commit: modify a.txt, delete b.txt, add new.txt */
	write_file(dir, "a.txt", "a-two\n");
	write_file(dir, "new.txt", "new\n");
	sh("cd '%s' && git rm -q b.txt && git add -A && " GIT
	   " commit -qm three", dir);
	/* some uncommitted work of the user's, which must stay as it is */
	write_file(dir, "b.txt", "user's own\n");
	write_file(dir, "c.txt", "user edit\n");
	co = xasprintf("%s/.git/gate/base", dir);
	idx = xasprintf("%s/.git/gate/base.index", dir);
	/* made first, or .git's own mtime would change (as it should) */
	sh("mkdir '%s/.git/gate'", dir);
	user_state_read(&before, dir);
	CHECK(repo_open(&r, dir) == 0);
	if (!r || repo_resolve(&t1, r, "HEAD~1") < 0 ||
	    repo_resolve(&t2, r, "HEAD") < 0)
		goto done;

	CHECK(repo_checkout(r, t1.tree, co, idx, &updated, NULL) == 0);
	s = read_whole(co, "a.txt", &len);
	CHECK_STR(s, "a2\n");
	free(s);
	CHECK(exists(co, "b.txt"));
	CHECK(!exists(co, "new.txt"));
	CHECK(!exists(co, ".git"));
	/* a build's outputs, and an old time on a file that will not change */
	sh("mkdir -p '%s/build'", co);
	write_file(co, "out.o", "object\n");
	write_file(co, "build/x.o", "object\n");
	times[0] = times[1] = old;
	s = xasprintf("%s/keep.txt", co);
	CHECK(utimensat(AT_FDCWD, s, times, 0) == 0);
	free(s);

	CHECK(repo_checkout(r, t2.tree, co, idx, &updated, NULL) == 0);
	s = read_whole(co, "a.txt", &len);
	CHECK_STR(s, "a-two\n");
	free(s);
	CHECK(!exists(co, "b.txt"));
	s = read_whole(co, "new.txt", &len);
	CHECK_STR(s, "new\n");
	free(s);
	CHECK(same_time(mtime_of(co, "keep.txt"), old));
	CHECK(exists(co, "out.o"));
	CHECK(exists(co, "build/x.o"));
	/* the private index records exactly the tree, with fresh stat data */
	s = out("GIT_INDEX_FILE='%s' git --git-dir='%s/.git' write-tree", idx,
		dir);
	CHECK_STR(s, t2.tree);
	free(s);
	s = out("cd '%s' && GIT_INDEX_FILE='%s' git --git-dir='%s/.git' "
		"--work-tree=. --no-optional-locks status --porcelain", co,
		idx, dir);
	CHECK_STR(s, "?? build/\n?? out.o");
	free(s);

	/* and back: the deleted file returns, the added one goes */
	CHECK(repo_checkout(r, t1.tree, co, idx, &updated, NULL) == 0);
	CHECK(exists(co, "b.txt"));
	CHECK(!exists(co, "new.txt"));
	CHECK(same_time(mtime_of(co, "keep.txt"), old));
	CHECK(exists(co, "out.o"));

	check_user_state(&before, dir);
	s = read_whole(dir, "b.txt", &len);
	CHECK_STR(s, "user's own\n");
	free(s);
	s = read_whole(dir, "c.txt", &len);
	CHECK_STR(s, "user edit\n");
	free(s);
	s = read_whole(dir, "a.txt", &len);
	CHECK_STR(s, "a-two\n");
	free(s);
	CHECK(sh("grep -q worktree '%s/.git/config'", dir) != 0);
done:
	repo_rev_release(&t1);
	repo_rev_release(&t2);
	repo_free(r);
	user_state_release(&before);
	free(co);
	free(idx);
	free(dir);
	end();
}

static void test_git__checkout_recovers_from_lost_index(void)
{
	size_t updated;
	struct repo_rev t1 = REPO_REV_INIT, t2 = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir, *co, *idx, *s;
	size_t len;

	begin();
	dir = make_repo("x");
	sh("cd '%s' && git rm -q b.txt && " GIT " commit -qm three", dir);
	co = at("co");
	idx = at("co.index");
	CHECK(repo_open(&r, dir) == 0);
	if (!r || repo_resolve(&t1, r, "HEAD~1") < 0 ||
	    repo_resolve(&t2, r, "HEAD") < 0)
		goto done;

	/* index missing: b.txt is a leftover nobody knows about */
	CHECK(repo_checkout(r, t1.tree, co, idx, &updated, NULL) == 0);
	CHECK(unlink(idx) == 0);
	CHECK(repo_checkout(r, t2.tree, co, idx, &updated, NULL) == 0);
	CHECK(!exists(co, "b.txt"));
	s = read_whole(co, "a.txt", &len);
	CHECK_STR(s, "a2\n");
	free(s);

	/* index corrupt: a warning, then a fresh checkout */
	write_file(scratch, "co.index", "DIRC garbage");
	write_file(co, "stale.txt", "stale\n");
	CHECK(repo_checkout(r, t1.tree, co, idx, &updated, NULL) == 0);
	CHECK(!exists(co, "stale.txt"));
	CHECK(exists(co, "b.txt"));
	s = out("GIT_INDEX_FILE='%s' git --git-dir='%s/.git' write-tree", idx,
		dir);
	CHECK_STR(s, t1.tree);
	free(s);

	/* a stale lock file from a run that died */
	write_file(scratch, "co.index.lock", "");
	CHECK(repo_checkout(r, t2.tree, co, idx, &updated, NULL) == 0);
	CHECK(!exists(co, "b.txt"));
done:
	repo_rev_release(&t1);
	repo_rev_release(&t2);
	repo_free(r);
	free(co);
	free(idx);
	free(dir);
	end();
}

static void test_git__checkout_refuses_user_working_tree(void)
{
	size_t updated;
	struct repo_rev t = REPO_REV_INIT;
	struct user_state before;
	struct repo *r = NULL;
	char *dir, *idx, *sub;

	begin();
	dir = make_repo("y");
	idx = at("y.index");
	sub = xasprintf("%s/sub", dir);
	write_file(dir, "a.txt", "precious\n");
	user_state_read(&before, dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r && repo_resolve(&t, r, "HEAD") == 0) {
		CHECK(repo_checkout(r, t.tree, dir, idx, &updated, NULL) == -1);
		CHECK_CONTAINS(msg, "refusing");
		CHECK(repo_checkout(r, t.tree, scratch, idx,
				    &updated, NULL) == -1);
		CHECK(repo_checkout(r, "nonsense", sub, idx,
				    &updated, NULL) == -1);
		check_user_state(&before, dir);
		repo_rev_release(&t);
	}
	repo_free(r);
	user_state_release(&before);
	free(sub);
	free(idx);
	free(dir);
	end();
}

static const struct harness_test tests[] = {
	TEST(test_git__checkout_is_incremental),
	TEST(test_git__checkout_recovers_from_lost_index),
	TEST(test_git__checkout_refuses_user_working_tree),
};

HARNESS_MAIN(tests)
