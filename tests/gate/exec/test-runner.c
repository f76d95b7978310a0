/*
 * Unit tests for gate/exec/runner.c: exit statuses, signals, timeouts with
 * escalation, stdout hashing, the stderr tail, cwd and stdin, and the
 * process group being cleaned up. Every check is structural, never timed
 * tightly: timeouts are checked against generous bounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/exec/counter.h"
#include "gate/exec/layout.h"
#include "gate/measure.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "tests/harness.h"

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static struct run_result run_sh(const char *script, double timeout,
				const char *cwd)
{
	struct command cmd = { NULL, (char *)script };
	struct run_spec spec = { &cmd, cwd, timeout, 0.3, -1, NULL, 0, 0 };
	struct run_result res;

	run_one(&res, &spec);
	return res;
}

static void test_runner__exit_codes(void)
{
	struct run_result r = run_sh("exit 0", 10, NULL);

	CHECK(r.status == RUN_OK);
	r = run_sh("exit 7", 10, NULL);
	CHECK(r.status == RUN_EXIT);
	CHECK(r.code == 7);
	r = run_sh("kill -SEGV $$", 10, NULL);
	CHECK(r.status == RUN_SIGNAL);
	CHECK(r.code == SIGSEGV);
}

/* a child stopped by SIGTTIN is killed at once and named, not timed out */
static void test_runner__stopped_child(void)
{
	char why[256];
	struct run_result r = run_sh("kill -TTIN $$; echo after", 30, NULL);

	CHECK(r.status == RUN_STOPPED);
	CHECK(r.code == SIGTTIN);
	CHECK(r.wall < 20);	/* 30 s would mean the timeout fired */
	CHECK(r.out_bytes == 0);	/* never continued */
	run_describe(&r, why, sizeof(why));
	CHECK(strstr(why, "stopped by SIGTTIN: it read the terminal") != NULL);
	r = run_sh("kill -STOP $$", 30, NULL);
	CHECK(r.status == RUN_STOPPED);
	CHECK(r.code == SIGSTOP);
}

static void test_runner__argv_without_shell(void)
{
	/* "$HOME" must reach echo literally: no shell expands it */
	char *argv[] = { (char *)"echo", (char *)"$HOME", (char *)"a b", NULL };
	struct command cmd = { argv, NULL };
	struct run_spec spec = { &cmd, NULL, 10, 0.3, -1, NULL, 0, 0 };
	struct run_result r;

	CHECK(run_one(&r, &spec) == 0);
	CHECK(r.status == RUN_OK);
	CHECK(r.out_hash == fnv("$HOME a b\n", 10));
	CHECK(r.out_bytes == 10);
}

/* Suites need their stdout: kept whole up to the cap, refused beyond. */
static void test_runner__captures_stdout_with_a_cap(void)
{
	struct command cmd = { NULL,
		(char *)"head -c 100000 /dev/zero | tr '\\0' x; echo" };
	struct run_spec spec = { &cmd, NULL, 10, 0.3, -1, NULL, 200000, 0 };
	struct run_result r;

	CHECK(run_one(&r, &spec) == 0);
	CHECK(r.status == RUN_OK && r.out && r.out_len == 100001);
	CHECK(r.out && r.out[0] == 'x' && r.out[100000] == '\n' &&
	      r.out[100001] == '\0' && !r.out_overflow);
	free(r.out);
	spec.capture = 4096;
	CHECK(run_one(&r, &spec) == 0);
	CHECK(r.out_overflow && r.out == NULL && r.out_len == 0);
	CHECK(r.out_bytes == 100001);	/* still drained and hashed */
	free(r.out);
	spec.capture = 0;
	CHECK(run_one(&r, &spec) == 0);
	CHECK(r.out == NULL && !r.out_overflow);
}

static void test_runner__spawn_failure(void)
{
	char *argv[] = { (char *)"./definitely-not-here", NULL };
	struct command cmd = { argv, NULL };
	struct run_spec spec = { &cmd, "/", 10, 0.3, -1, NULL, 0, 0 };
	struct run_result r;
	char buf[256];

	CHECK(run_one(&r, &spec) < 0);
	CHECK(r.status == RUN_SPAWN);
	CHECK_CONTAINS(run_describe(&r, buf, sizeof(buf)),
		       "could not be started");
}

static void test_runner__cwd_and_stdin(void)
{
	struct run_result r = run_sh("pwd", 10, "/usr");

	CHECK(r.out_hash == fnv("/usr\n", 5));
	/* stdin is /dev/null: cat sees end of file at once */
	r = run_sh("cat", 10, NULL);
	CHECK(r.status == RUN_OK);
	CHECK(r.out_bytes == 0);
}

static void test_runner__large_output_streams(void)
{
	/* 64 MiB of stdout is hashed as it streams, never buffered */
	struct run_result r = run_sh("head -c 67108864 /dev/zero", 60, NULL);

	CHECK(r.status == RUN_OK);
	CHECK(r.out_bytes == 67108864ULL);
}

static void test_runner__stderr_tail(void)
{
	struct run_result r = run_sh(
		"i=0; while [ $i -lt 500 ]; do echo \"line $i\" >&2; "
		"i=$((i+1)); done; echo LAST >&2; exit 1", 10, NULL);
	size_t len = strlen(r.err_tail);

	CHECK(r.status == RUN_EXIT);
	CHECK(len == RUN_TAIL);
	CHECK_CONTAINS(r.err_tail, "line 499\nLAST\n");
	CHECK(!strstr(r.err_tail, "line 1\n"));
}

static void test_runner__timeout_escalates(void)
{
	/* ignores SIGTERM: only the SIGKILL after the grace period stops it */
	struct run_result r = run_sh("trap '' TERM; sleep 30; sleep 30",
				     0.3, NULL);
	char buf[256];

	CHECK(r.status == RUN_TIMEOUT);
	CHECK(r.wall < 20);	/* far below the 60 s it would take */
	CHECK_CONTAINS(run_describe(&r, buf, sizeof(buf)), "timed out");
}

static void test_runner__group_killed_after_exit(void)
{
	/* a background child that keeps stdout open must not hold gate up */
	struct run_result r = run_sh("sleep 29.123 & echo started", 60, NULL);

	CHECK(r.status == RUN_OK);
	CHECK(r.wall < 20);
	CHECK(r.out_hash == fnv("started\n", 8));
	sleep(1);
	CHECK(system("pgrep -f '^sleep 29.123$' >/dev/null") != 0);
}

static void test_runner__measures_time_and_rss(void)
{
	struct run_result r = run_sh(
		"i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", 60, NULL);

	CHECK(r.status == RUN_OK);
	CHECK(r.wall > 0);
	CHECK(r.user + r.sys > 0);
	CHECK(r.maxrss_kb > 0);
	CHECK(r.wall >= (r.user + r.sys) * 0.5);
}

static void test_runner__concurrent_wait(void)
{
	struct command a = { NULL, (char *)"echo one" };
	struct command b = { NULL, (char *)"exit 3" };
	struct run_spec sa = { &a, NULL, 10, 0.3, -1, NULL, 0, 0 };
	struct run_spec sb = { &b, NULL, 10, 0.3, -1, NULL, 0, 0 };
	struct proc *p[2];
	struct run_result r[2];

	CHECK(run_start(&p[0], &sa) == 0);
	CHECK(run_start(&p[1], &sb) == 0);
	CHECK(run_wait(p, r, 2) == 0);
	CHECK(r[0].status == RUN_OK);
	CHECK(r[0].out_hash == fnv("one\n", 4));
	CHECK(r[1].status == RUN_EXIT && r[1].code == 3);
}

/* Faster than the clock can resolve: below 100 x its resolution. */
static void test_runner__too_fast_for_the_clock(void)
{
	static const struct {
		double v, res;
		int want;
	} rows[] = {
		{ 0, 1e-9, 0 },			/* nothing measured */
		{ -1e-3, 1e-9, 0 },		/* a clock going back */
		{ NAN, 1e-9, 0 },
		{ INFINITY, 1e-9, 0 },
		{ 99e-9, 1e-9, 0 },		/* under 100 ticks */
		{ 100e-9, 1e-9, 1 },
		{ 5e-3, 1e-9, 1 },		/* a typical sample */
		{ 50e-6, 1e-6, 0 },		/* cpu: 50 us of 1 us ticks */
		{ 4e-3, 4e-3, 0 },		/* one jiffy of a coarse clock */
		{ 0.4, 4e-3, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CHECK(measure_resolvable(rows[i].v, rows[i].res) ==
		      rows[i].want);
		if (measure_resolvable(rows[i].v, rows[i].res) != rows[i].want)
			fprintf(stderr, "  row %zu\n", i);
	}
	CHECK(measure_resolution(METRIC_CPU) == 1e-6);
	CHECK(measure_resolution(METRIC_WALL) > 0);
	CHECK(measure_resolution(METRIC_WALL) <= 1e-3);
}

/* Counted runs: a count where the machine has counters, else a clean
   spawn failure naming why (this machine: a VM without a PMU). */
static void test_runner__perf_count_or_clean_failure(void)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"i=0; while [ $i -lt 2000 ]; do i=$((i+1)); "
			 "done; echo x", NULL };
	struct command cmd = { argv, NULL };
	struct run_spec spec = { &cmd, NULL, 10, 0.3, -1, NULL, 0, 1 };
	struct run_result r;
	char why[512];
	int usable = counter_perf_probe(why, sizeof(why)) == 0;

	run_one(&r, &spec);
	if (usable) {
		CHECK(r.status == RUN_OK);
		CHECK(r.instructions > 1e5);	/* 2000 shell loop rounds */
		CHECK(r.out_bytes == 2);
	} else {
		CHECK(r.status == RUN_SPAWN);
		CHECK(r.code != 0);
		CHECK(isnan(r.instructions));
		CHECK(strlen(why) > 10);
	}
}

static void test_runner__env_and_rusage(void)
{
	char *env[] = { (char *)"GATE_TEST_VAR=hello", (char *)"PATH=/usr/bin:/bin",
			NULL };
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"printf %s \"$GATE_TEST_VAR\"; sleep 0.05",
			 NULL };
	struct command cmd = { argv, NULL };
	struct run_spec spec = { &cmd, NULL, 10, 0.3, -1, env, 0, 0 };
	struct run_result r;

	run_one(&r, &spec);
	CHECK(r.status == RUN_OK);
	CHECK(r.out_hash == fnv("hello", 5));
	CHECK(r.minflt > 0);	/* exec alone faults pages in */
	CHECK(r.ctxsw > 0);	/* sleeping is a voluntary switch */
	CHECK(r.majflt >= 0);
	CHECK(isnan(r.instructions));
}

/* A tree nested deeper than PATH_MAX (nftw could not name its leaves). */
static void test_runner__remove_tree_any_depth(void)
{
	char root[] = "/tmp/gate-test-rm-XXXXXX";
	size_t levels = PATH_MAX / 4 + 64, i;
	struct stat st;
	int fd;

	CHECK(mkdtemp(root) != NULL);
	fd = open(root, O_RDONLY | O_DIRECTORY);
	for (i = 0; fd >= 0 && i < levels; i++) {
		int child;

		CHECK(mkdirat(fd, "ddd", 0700) == 0);
		if (i % 100 == 0)
			close(openat(fd, "f", O_WRONLY | O_CREAT, 0600));
		child = openat(fd, "ddd", O_RDONLY | O_DIRECTORY);
		close(fd);
		fd = child;
	}
	CHECK(fd >= 0 && i == levels);	/* 4 * levels bytes > PATH_MAX */
	if (fd >= 0) {
		/* a read-only directory at the bottom must go too */
		CHECK(mkdirat(fd, "ro", 0700) == 0);
		close(openat(fd, "ro/f", O_WRONLY | O_CREAT, 0600));
		CHECK(fchmodat(fd, "ro", 0500, 0) == 0);
		close(fd);
	}
	CHECK(remove_tree(root) == 0);
	CHECK(lstat(root, &st) < 0 && errno == ENOENT);
	CHECK(remove_tree(root) == 0);	/* already gone: fine */
}

/* A symlink is removed as a link: what it points to is never touched. */
static void test_runner__remove_tree_keeps_link_targets(void)
{
	char root[] = "/tmp/gate-test-rm-XXXXXX";
	char out[] = "/tmp/gate-test-out-XXXXXX";
	char path[256], inside[256];
	struct stat st;

	CHECK(mkdtemp(root) != NULL && mkdtemp(out) != NULL);
	snprintf(inside, sizeof(inside), "%s/keep", out);
	close(open(inside, O_WRONLY | O_CREAT, 0600));
	snprintf(path, sizeof(path), "%s/sub", root);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/sub/link", root);
	CHECK(symlink(out, path) == 0);
	snprintf(path, sizeof(path), "%s/top-link", root);
	CHECK(symlink(out, path) == 0);
	/* a link given as the tree itself is removed as a link too */
	CHECK(remove_tree(path) == 0);
	CHECK(lstat(path, &st) < 0 && stat(inside, &st) == 0);
	CHECK(remove_tree(root) == 0);
	CHECK(lstat(root, &st) < 0 && errno == ENOENT);
	CHECK(stat(out, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(stat(inside, &st) == 0 && S_ISREG(st.st_mode));
	unlink(inside);
	rmdir(out);
}

static const struct harness_test tests[] = {
	TEST(test_runner__remove_tree_any_depth),
	TEST(test_runner__remove_tree_keeps_link_targets),
	TEST(test_runner__too_fast_for_the_clock),
	TEST(test_runner__perf_count_or_clean_failure),
	TEST(test_runner__env_and_rusage),
	TEST(test_runner__exit_codes),
	TEST(test_runner__stopped_child),
	TEST(test_runner__argv_without_shell),
	TEST(test_runner__spawn_failure),
	TEST(test_runner__captures_stdout_with_a_cap),
	TEST(test_runner__cwd_and_stdin),
	TEST(test_runner__large_output_streams),
	TEST(test_runner__stderr_tail),
	TEST(test_runner__timeout_escalates),
	TEST(test_runner__group_killed_after_exit),
	TEST(test_runner__measures_time_and_rss),
	TEST(test_runner__concurrent_wait),
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
