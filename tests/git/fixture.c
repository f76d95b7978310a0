/*
 * Fixture repositories for the tests of git/ (fixture.h).
 */
#include "tests/git/fixture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "git/repo.h"
#include "gate/exec/layout.h"
#include "common/tree.h"
#include "tests/harness.h"
#include "common/banned.h"

char scratch[PATH_MAX];
char msg[4096];

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
int sh(const char *fmt, ...)
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
char *out(const char *fmt, ...)
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
char *at(const char *rel)
{
	return xasprintf("%s/%s", scratch, rel);
}

void write_file(const char *dir, const char *rel, const char *text)
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

char *read_whole(const char *dir, const char *rel, size_t *len)
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

int exists(const char *dir, const char *rel)
{
	char *p = xasprintf("%s/%s", dir, rel);
	struct stat st;
	int ret = lstat(p, &st) == 0;

	free(p);
	return ret;
}

struct timespec mtime_of(const char *dir, const char *rel)
{
	char *p = xasprintf("%s/%s", dir, rel);
	struct stat st;
	struct timespec zero = { 0, 0 };

	if (stat(p, &st) < 0)
		st.st_mtim = zero;
	free(p);
	return st.st_mtim;
}

int same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Each test: fresh scratch directory, hermetic environment, libgit2 up. */
void begin(void)
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

void end(void)
{
	error_capture(NULL, 0, 0);
	repo_global_shutdown();
	unsetenv("GITHUB_EVENT_NAME");
	unsetenv("GITHUB_BASE_REF");
	CHECK(tree_remove(scratch, NULL) == 0);
}

/*
 * scratch/name: a repository on branch main with two commits. The first
 * has a.txt b.txt c.txt keep.txt sub/d.txt and a .gitignore of *.log; the
 * second changes a.txt. Returns the path; caller frees.
 */
char *make_repo(const char *name)
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
char *reference_tree(const char *dir)
{
	return out("cd '%s' && rm -f ../ref-index && "
		   "{ cp -p .git/index ../ref-index 2>/dev/null || :; } && "
		   "GIT_INDEX_FILE=../ref-index git add -A 2>/dev/null && "
		   "GIT_INDEX_FILE=../ref-index git write-tree", dir);
}

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

void user_state_read(struct user_state *s, const char *dir)
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

void user_state_release(struct user_state *s)
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

void check_user_state(const struct user_state *a, const char *dir)
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

/*
 * src: c1 (branch other), c2 on main. dst: a clone of it with two commits
 * of its own, c3 and c4; src then gets c5, which dst has not fetched.
 */
char *make_clone(void)
{
	char *src = at("src"), *dst = at("dst");

	sh("git init -q -b main '%s'", src);
	write_file(src, "f", "1\n");
	sh("cd '%s' && git add f && " GIT " commit -qm c1 && git branch other",
	   src);
	write_file(src, "f", "2\n");
	sh("cd '%s' && " GIT " commit -qam c2 && git clone -q . '%s'", src,
	   dst);
	write_file(dst, "g", "3\n");
	sh("cd '%s' && git add g && " GIT " commit -qm c3", dst);
	write_file(dst, "g", "4\n");
	sh("cd '%s' && " GIT " commit -qam c4", dst);
	write_file(src, "f", "5\n");
	sh("cd '%s' && " GIT " commit -qam c5", src);
	free(src);
	return dst;
}
