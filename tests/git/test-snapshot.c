/*
 * Unit tests for git/snapshot.c: the working tree as a tree object,
 * in every state a working tree can be in. Each test builds its fixture
 * repositories with the git CLI in a scratch directory, and checks our
 * results against git's own and that the user's index, refs, stash, config
 * and files are untouched.
 */
#include "git/repo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/exec/layout.h"
#include "tests/harness.h"
#include "common/banned.h"

/* No signing, no user config: commits work the same on every machine. */
#define GIT "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false " \
	    "-c core.autocrlf=false"
#define EMPTY_TREE "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

static char scratch[PATH_MAX];
static char msg[4096];

static char *vfmt(const char *fmt, va_list ap) PRINTF(1, 0);
static char *vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *p;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

/* Run a shell command; returns its exit status (0 on success). */
static int sh(const char *fmt, ...) PRINTF(1, 2);
static int sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int st;

	va_start(ap, fmt);
	cmd = vfmt(fmt, ap);
	va_end(ap);
	st = system(cmd);
	if (st != 0 && getenv("TEST_VERBOSE"))
		fprintf(stderr, "command failed (%d): %s\n", st, cmd);
	free(cmd);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* A command's stdout without its trailing newline; caller frees. */
static char *out(const char *fmt, ...) PRINTF(1, 2);
static char *out(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	va_start(ap, fmt);
	cmd = vfmt(fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return xstrdup("");
	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 8192;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	pclose(f);
	while (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return buf;
}

/* scratch/rel; caller frees. */
static char *at(const char *rel)
{
	return xasprintf("%s/%s", scratch, rel);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", dir, rel);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	} else {
		fprintf(stderr, "cannot write %s\n", p);
	}
	free(p);
}

static char *read_whole(const char *dir, const char *rel, size_t *len)
{
	char *p = xasprintf("%s/%s", dir, rel);
	char *buf = NULL;
	FILE *f = fopen(p, "rb");
	long n;

	*len = 0;
	free(p);
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static int exists(const char *dir, const char *rel)
{
	char *p = xasprintf("%s/%s", dir, rel);
	struct stat st;
	int ret = lstat(p, &st) == 0;

	free(p);
	return ret;
}

static struct timespec mtime_of(const char *dir, const char *rel)
{
	char *p = xasprintf("%s/%s", dir, rel);
	struct stat st;
	struct timespec zero = { 0, 0 };

	if (stat(p, &st) < 0)
		st.st_mtim = zero;
	free(p);
	return st.st_mtim;
}

static int same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Each test: fresh scratch directory, hermetic environment, libgit2 up. */
static void begin(void)
{
	const char *tmp = getenv("TMPDIR");
	char raw[PATH_MAX];

	snprintf(raw, sizeof(raw), "%s/gate-test-git-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(raw) || !realpath(raw, scratch)) {
		perror("mkdtemp");
		abort();
	}
	setenv("HOME", scratch, 1);
	setenv("XDG_CONFIG_HOME", scratch, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GITHUB_EVENT_NAME");
	unsetenv("GITHUB_BASE_REF");
	msg[0] = '\0';
	error_capture(msg, sizeof(msg), !getenv("TEST_VERBOSE"));
	repo_global_init();
}

static void end(void)
{
	error_capture(NULL, 0, 0);
	repo_global_shutdown();
	unsetenv("GITHUB_EVENT_NAME");
	unsetenv("GITHUB_BASE_REF");
	CHECK(remove_tree(scratch) == 0);
}

/*
 * scratch/name: a repository on branch main with two commits. The first
 * has a.txt b.txt c.txt keep.txt sub/d.txt and a .gitignore of *.log; the
 * second changes a.txt. Returns the path; caller frees.
 */
static char *make_repo(const char *name)
{
	char *dir = at(name);

	sh("git init -q -b main '%s' && mkdir -p '%s/sub'", dir, dir);
	write_file(dir, "a.txt", "a1\n");
	write_file(dir, "b.txt", "b\n");
	write_file(dir, "c.txt", "c\n");
	write_file(dir, "keep.txt", "keep\n");
	write_file(dir, "sub/d.txt", "d\n");
	write_file(dir, ".gitignore", "*.log\n");
	sh("cd '%s' && git add -A && " GIT " commit -qm one", dir);
	write_file(dir, "a.txt", "a2\n");
	sh("cd '%s' && " GIT " commit -qam two", dir);
	return dir;
}

/* What "git add -A" would make of the working tree, on a copy of the index. */
static char *reference_tree(const char *dir)
{
	return out("cd '%s' && rm -f ../ref-index && "
		   "{ cp -p .git/index ../ref-index 2>/dev/null || :; } && "
		   "GIT_INDEX_FILE=../ref-index git add -A 2>/dev/null && "
		   "GIT_INDEX_FILE=../ref-index git write-tree", dir);
}

/* Everything of the user's that gate must leave alone. */
struct user_state {
	char *index, *status, *refs, *stash, *head, *config, *files, *tree;
	size_t index_len;
	struct timespec index_mtime;
};

static void append(char **buf, size_t *len, const char *text)
{
	size_t n = strlen(text);

	*buf = xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, text, n + 1);
	*len += n;
}

/* FNV-1a of a file's bytes: enough to see that a file was rewritten. */
static unsigned long long content_hash(const char *path)
{
	unsigned long long h = 14695981039346656037ULL;
	FILE *f = fopen(path, "rb");
	int c;

	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		h = (h ^ (unsigned char)c) * 1099511628211ULL;
	fclose(f);
	return h;
}

/*
 * One line per entry under path (named rel), sorted, with size, mtime to
 * the nanosecond and, for files, a hash of the content; skips the object
 * store, gate's own directories and the working tree's .git.
 */
static void listing(char **buf, size_t *len, const char *path,
		    const char *rel)
{
	struct dirent **names = NULL;
	struct stat st;
	char *line;
	int i, n;

	if (lstat(path, &st) < 0)
		return;
	line = xasprintf("%s %lld %lld.%09ld %llx\n", rel,
			 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec,
			 S_ISREG(st.st_mode) ? content_hash(path) : 0ULL);
	append(buf, len, line);
	free(line);
	if (!S_ISDIR(st.st_mode))
		return;
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (strcmp(name, ".") && strcmp(name, "..") &&
		    strcmp(name, "objects") && strcmp(name, "gate") &&
		    !(!strcmp(rel, ".") && !strcmp(name, ".git"))) {
			char *p = xasprintf("%s/%s", path, name);
			char *r = xasprintf("%s/%s", rel, name);

			listing(buf, len, p, r);
			free(p);
			free(r);
		}
		free(names[i]);
	}
	free(names);
}

static void user_state_read(struct user_state *s, const char *dir)
{
	size_t len = 0;
	char *p;

	s->index_mtime = mtime_of(dir, ".git/index");
	s->index = read_whole(dir, ".git/index", &s->index_len);
	/* --no-optional-locks: git status must not refresh the index itself. */
	s->status = out("cd '%s' && git --no-optional-locks status "
			"--porcelain --untracked-files=all", dir);
	s->refs = out("cd '%s' && git for-each-ref && cat .git/HEAD", dir);
	s->stash = out("cd '%s' && git stash list", dir);
	s->head = out("cd '%s' && git rev-parse HEAD 2>/dev/null", dir);
	s->config = out("cat '%s/.git/config'", dir);
	/*
	 * Every file and directory in .git but the object store and gate's
	 * own directory, with size and mtime: anything written or created
	 * and removed there (a lock file, say) changes this.
	 */
	s->files = NULL;
	s->tree = NULL;
	p = xasprintf("%s/.git", dir);
	listing(&s->files, &len, p, ".git");
	free(p);
	/* and every file of the working tree: size, mtime and content */
	len = 0;
	listing(&s->tree, &len, dir, ".");
}

static void user_state_release(struct user_state *s)
{
	free(s->index);
	free(s->status);
	free(s->refs);
	free(s->stash);
	free(s->head);
	free(s->config);
	free(s->files);
	free(s->tree);
}

static void check_user_state(const struct user_state *a, const char *dir)
{
	struct user_state b;

	user_state_read(&b, dir);
	CHECK(a->index_len == b.index_len);
	CHECK((!a->index && !b.index) ||
	      (a->index && b.index &&
	       !memcmp(a->index, b.index, a->index_len)));
	CHECK(same_time(a->index_mtime, b.index_mtime));
	CHECK_STR(b.status, a->status);
	CHECK_STR(b.refs, a->refs);
	CHECK_STR(b.stash, a->stash);
	CHECK_STR(b.head, a->head);
	CHECK_STR(b.config, a->config);
	CHECK_STR(b.files, a->files);
	CHECK_STR(b.tree, a->tree);
	user_state_release(&b);
}

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
		CHECK(repo_checkout(r, rev.tree, co, idx) == 0);
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
		CHECK(repo_checkout(r, rev.tree, co, idx) == 0);
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
