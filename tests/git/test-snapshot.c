/*
 * Unit tests for git/snapshot.c: the working tree as a tree object, in
 * every state a working tree can be in, on fixture repositories
 * (fixture.h): results against git's own, and the user's index, refs,
 * stash, config and files untouched.
 */
#include "git/repo.h"

#include <stdlib.h>

#include "tests/git/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_git__snapshot_captures_working_tree(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct user_state before;
	struct repo *r = NULL;
	char *dir, *head, *want, *s;

	begin();
	dir = make_repo("w");
	/* One stash entry, so a change to the stash would show. */
	write_file(dir, "keep.txt", "stashed\n");
	sh("cd '%s' && " GIT " stash -q", dir);
	/* staged, then changed again: the snapshot has what is on disk */
	write_file(dir, "a.txt", "a3 staged\n");
	sh("cd '%s' && git add a.txt", dir);
	write_file(dir, "a.txt", "a4 on disk\n");
	write_file(dir, "b.txt", "b unstaged\n");
	sh("cd '%s' && rm c.txt && mkdir -p new/deep && git rm -q --cached "
	   "keep.txt", dir);
	write_file(dir, "new/deep/e.txt", "e\n");
	write_file(dir, "debug.log", "ignored\n");
	write_file(dir, "new/deep/trace.log", "ignored\n");
	write_file(dir, "run.sh", "#!/bin/sh\n");
	sh("cd '%s' && chmod 755 run.sh && ln -s a.txt link", dir);
	head = out("cd '%s' && git rev-parse HEAD", dir);

	user_state_read(&before, dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		check_user_state(&before, dir);
		CHECK_STR(rev.label, "WORKTREE");
		CHECK(rev.worktree == 1);
		CHECK(rev.dirty == 1);
		CHECK_STR(rev.commit, head);
		want = reference_tree(dir);
		CHECK_STR(rev.tree, want);
		free(want);

		s = out("git -C '%s' cat-file -p %s:a.txt", dir, rev.tree);
		CHECK_STR(s, "a4 on disk");
		free(s);
		s = out("git -C '%s' cat-file -p %s:b.txt", dir, rev.tree);
		CHECK_STR(s, "b unstaged");
		free(s);
		s = out("git -C '%s' cat-file -p %s:new/deep/e.txt", dir,
			rev.tree);
		CHECK_STR(s, "e");
		free(s);
		/* keep.txt: unstaged from the index but on disk, so present */
		s = out("git -C '%s' cat-file -p %s:keep.txt", dir, rev.tree);
		CHECK_STR(s, "keep");
		free(s);
		CHECK(sh("git -C '%s' cat-file -e %s:c.txt 2>/dev/null", dir,
			 rev.tree) != 0);
		CHECK(sh("git -C '%s' cat-file -e %s:debug.log 2>/dev/null",
			 dir, rev.tree) != 0);
		CHECK(sh("git -C '%s' cat-file -e %s:new/deep/trace.log "
			 "2>/dev/null", dir, rev.tree) != 0);
		s = out("git -C '%s' ls-tree %s run.sh link", dir, rev.tree);
		CHECK_CONTAINS(s, "100755 blob");
		CHECK_CONTAINS(s, "120000 blob");
		free(s);
		s = out("git -C '%s' cat-file -p %s:link", dir, rev.tree);
		CHECK_STR(s, "a.txt");
		free(s);
		repo_rev_release(&rev);
	}
	repo_free(r);
	user_state_release(&before);
	free(head);
	free(dir);
	end();
}

static void test_git__snapshot_of_clean_tree_is_head(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir, *tree, *head;

	begin();
	dir = make_repo("c");
	tree = out("cd '%s' && git rev-parse 'HEAD^{tree}'", dir);
	head = out("cd '%s' && git rev-parse HEAD", dir);
	write_file(dir, "ignored.log", "x\n");
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		CHECK(rev.dirty == 0);
		CHECK_STR(rev.tree, tree);
		CHECK_STR(rev.commit, head);
		repo_rev_release(&rev);
	}
	repo_free(r);
	free(tree);
	free(head);
	free(dir);
	end();
}

static void test_git__snapshot_in_unborn_repository(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct user_state before;
	struct repo *r = NULL;
	char *dir, *want;

	begin();
	dir = at("u");
	sh("git init -q -b main '%s'", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		CHECK_STR(rev.commit, "");
		CHECK_STR(rev.tree, EMPTY_TREE);
		CHECK(rev.dirty == 0);
		repo_rev_release(&rev);

		write_file(dir, "staged.txt", "s\n");
		sh("cd '%s' && git add staged.txt && mkdir d", dir);
		write_file(dir, "d/untracked.txt", "u\n");
		user_state_read(&before, dir);
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		check_user_state(&before, dir);
		CHECK_STR(rev.commit, "");
		CHECK(rev.dirty == 1);
		want = reference_tree(dir);
		CHECK_STR(rev.tree, want);
		free(want);
		repo_rev_release(&rev);
		user_state_release(&before);
	}
	repo_free(r);
	free(dir);
	end();
}

/*
 * Git's racy case: a file changed after "git add" without a change of size
 * or mtime, and the index written in that same instant. Only hashing the
 * file shows the change.
 */
static void test_git__snapshot_sees_racily_clean_change(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir, *s;

	begin();
	dir = make_repo("racy");
	write_file(dir, "racy.txt", "r1\n");
	sh("cd '%s' && touch -t 202001010000 racy.txt && git add racy.txt",
	   dir);
	write_file(dir, "racy.txt", "r2\n");
	sh("cd '%s' && touch -t 202001010000 racy.txt .git/index", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		s = out("git -C '%s' cat-file -p %s:racy.txt", dir, rev.tree);
		CHECK_STR(s, "r2");
		free(s);
		repo_rev_release(&rev);
	}
	repo_free(r);
	free(dir);
	end();
}

/* A merge stopped on a conflict, and an intent-to-add entry: as git add -A. */
static void test_git__snapshot_with_conflict_and_intent_to_add(void)
{
	struct repo_rev rev = REPO_REV_INIT;
	struct user_state before;
	struct repo *r = NULL;
	char *dir, *want;

	begin();
	dir = make_repo("m");
	sh("cd '%s' && git checkout -q -b side HEAD~1", dir);
	write_file(dir, "a.txt", "side\n");
	sh("cd '%s' && " GIT " commit -qam side && git checkout -q main && "
	   "! " GIT " merge -q side >/dev/null 2>&1", dir);
	write_file(dir, "ita.txt", "intent\n");
	sh("cd '%s' && git add -N ita.txt", dir);
	user_state_read(&before, dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		check_user_state(&before, dir);
		CHECK(rev.dirty == 1);
		want = reference_tree(dir);
		CHECK_STR(rev.tree, want);
		free(want);
		repo_rev_release(&rev);
	}
	repo_free(r);
	user_state_release(&before);
	free(dir);
	end();
}

/*
 * A submodule with changes of its own, and a nested repository nobody
 * added: the snapshot keeps the submodule's gitlink as the index has it
 * and leaves the nested repository out. Checkout of such a tree works.
 */
static void test_git__snapshot_skips_submodules(void)
{
	size_t updated;
	struct repo_rev rev = REPO_REV_INIT;
	struct repo *r = NULL;
	char *dir, *lib, *want, *s, *co, *idx;

	begin();
	lib = make_repo("lib");
	dir = make_repo("app");
	sh("cd '%s' && git -c protocol.file.allow=always submodule add -q "
	   "'%s' lib >/dev/null 2>&1 && " GIT " commit -qm sub", dir, lib);
	write_file(dir, "lib/a.txt", "changed inside the submodule\n");
	write_file(dir, "lib/untracked.txt", "x\n");
	sh("git init -q '%s/nested'", dir);
	write_file(dir, "nested/n.txt", "n\n");
	write_file(dir, "top.txt", "top\n");
	want = out("git -C '%s' rev-parse HEAD:lib", dir);
	co = at("co");
	idx = at("co.index");
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		CHECK(rev.dirty == 1);
		s = out("git -C '%s' ls-tree %s lib", dir, rev.tree);
		CHECK_CONTAINS(s, "160000 commit");
		CHECK_CONTAINS(s, want);
		free(s);
		CHECK(sh("git -C '%s' cat-file -e %s:top.txt", dir,
			 rev.tree) == 0);
		s = out("git -C '%s' ls-tree -r --name-only %s", dir, rev.tree);
		CHECK(!strstr(s, "nested"));
		free(s);
		CHECK(repo_checkout(r, rev.tree, co, idx, &updated, NULL) == 0);
		CHECK(exists(co, "top.txt"));
		CHECK(exists(co, ".gitmodules"));
		repo_rev_release(&rev);
	}
	repo_free(r);
	free(co);
	free(idx);
	free(want);
	free(lib);
	free(dir);
	end();
}

/* A linked worktree has a git dir of its own (.git/worktrees/NAME/). */
static void test_git__linked_worktree(void)
{
	size_t updated;
	struct repo_rev rev = REPO_REV_INIT;
	struct user_state before;
	struct repo *r = NULL;
	char *dir, *wt, *co, *idx, *s, *want;
	size_t len;

	begin();
	dir = make_repo("main");
	wt = at("wt");
	sh("cd '%s' && git worktree add -q -b topic '%s'", dir, wt);
	write_file(wt, "a.txt", "in the linked worktree\n");
	sh("mkdir '%s/.git/worktrees/wt/gate'", dir);
	user_state_read(&before, dir);
	CHECK(repo_open(&r, wt) == 0);
	if (r) {
		want = xasprintf("%s/.git/worktrees/wt/", dir);
		CHECK_STR(repo_gitdir(r), want);
		free(want);
		CHECK(repo_resolve(&rev, r, "WORKTREE") == 0);
		CHECK(rev.dirty == 1);
		co = xasprintf("%sgate/head", repo_gitdir(r));
		idx = xasprintf("%sgate/head.index", repo_gitdir(r));
		CHECK(repo_checkout(r, rev.tree, co, idx, &updated, NULL) == 0);
		s = read_whole(co, "a.txt", &len);
		CHECK_STR(s, "in the linked worktree\n");
		free(s);
		check_user_state(&before, dir);
		s = out("git -C '%s' --no-optional-locks status --porcelain",
			wt);
		CHECK_STR(s, " M a.txt");
		free(s);
		repo_rev_release(&rev);
		free(co);
		free(idx);
	}
	repo_free(r);
	user_state_release(&before);
	free(wt);
	free(dir);
	end();
}

static const struct harness_test tests[] = {
	TEST(test_git__snapshot_captures_working_tree),
	TEST(test_git__snapshot_of_clean_tree_is_head),
	TEST(test_git__snapshot_in_unborn_repository),
	TEST(test_git__snapshot_sees_racily_clean_change),
	TEST(test_git__snapshot_with_conflict_and_intent_to_add),
	TEST(test_git__snapshot_skips_submodules),
	TEST(test_git__linked_worktree),
};

HARNESS_MAIN(tests)
