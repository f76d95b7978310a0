/*
 * Unit tests for git/trailers.c: Gate-Accept trailers. Each test builds its fixture
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

static void test_git__accept_trailer_parsing(void)
{
	struct repo_accept a;
	const char *why = NULL;

	CHECK(repo_accept_parse(&a, "parse +15% new parser, slower", &why) ==
	      0);
	CHECK(!strcmp(a.pattern, "parse"));
	CHECK_NEAR(a.bound, 0.15, 1e-12);
	CHECK(!strcmp(a.reason, "new parser, slower"));
	free(a.pattern);
	free(a.reason);
	/* a glob, no '+', a fraction, no reason, blanks around */
	CHECK(repo_accept_parse(&a, "  gb/BM_* 2.5%  ", &why) == 0);
	CHECK(!strcmp(a.pattern, "gb/BM_*"));
	CHECK_NEAR(a.bound, 0.025, 1e-12);
	CHECK(!strcmp(a.reason, ""));
	free(a.pattern);
	free(a.reason);
	CHECK(repo_accept_parse(&a, "", &why) == -1);
	CHECK_CONTAINS(why, "names no benchmark");
	CHECK(repo_accept_parse(&a, "parse", &why) == -1);
	CHECK_CONTAINS(why, "no bound");
	CHECK(repo_accept_parse(&a, "parse lots", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +15", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +0%", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse -5%", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +15%x", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +inf%", &why) == -1);
}

/* Only the commits of base..head count, and only Gate-Accept trailers. */
static void test_git__accepts_from_base_to_head_only(void)
{
	struct repo *r = NULL;
	struct repo_accept *a = NULL;
	size_t n = 0;
	char *dir, *base, *head, *mid;

	begin();
	dir = at("acc");
	sh("git init -q -b main '%s'", dir);
	sh("cd '%s' && " GIT " commit -q --allow-empty -m one "
	   "-m 'Gate-Accept: old +50%% in base'", dir);
	base = out("git -C '%s' rev-parse HEAD", dir);
	write_file(scratch, "msg2", "two\n\nGate-Accept: parse +15% new "
		   "parser\nSigned-off-by: x <x@x>\n");
	sh("cd '%s' && " GIT " commit -q --allow-empty -F '%s/msg2'", dir,
	   scratch);
	mid = out("git -C '%s' rev-parse HEAD", dir);
	write_file(scratch, "msg3", "three\n\ngate-accept: enc* +5%\n"
		   "Gate-Accept: bad bound\n");
	sh("cd '%s' && " GIT " commit -q --allow-empty -F '%s/msg3'", dir,
	   scratch);
	head = out("git -C '%s' rev-parse HEAD", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_accepts(&a, &n, r, base, head) == 0);
		CHECK(n == 2);
		if (n == 2) {
			/* newest first; the malformed one was a warning */
			CHECK(!strcmp(a[0].pattern, "enc*"));
			CHECK(!strcmp(a[0].commit, head));
			CHECK(!strcmp(a[1].pattern, "parse"));
			CHECK(!strcmp(a[1].reason, "new parser"));
			CHECK(!strcmp(a[1].commit, mid));
		}
		CHECK_CONTAINS(msg, "bad bound");
		CHECK_CONTAINS(msg, "gives no bound");
		repo_accepts_release(a, n);
		/* base == head: nothing between them */
		CHECK(repo_accepts(&a, &n, r, head, head) == 0);
		CHECK(n == 0);
		repo_accepts_release(a, n);
		/* no base: every commit of head */
		CHECK(repo_accepts(&a, &n, r, "", head) == 0);
		CHECK(n == 3);
		repo_accepts_release(a, n);
	}
	repo_free(r);
	free(dir);
	free(base);
	free(mid);
	free(head);
	end();
}

static const struct harness_test tests[] = {
	TEST(test_git__accept_trailer_parsing),
	TEST(test_git__accepts_from_base_to_head_only),
};

HARNESS_MAIN(tests)
