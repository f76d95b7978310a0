/*
 * Tests of common/replace.c: a report is written whole or not at all. A
 * full disk is made with RLIMIT_FSIZE (SIGXFSZ ignored, so write() fails
 * with EFBIG as it would with ENOSPC), in a child so the limit does not
 * outlive the test; /dev/full stands for a full stdout.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.h"
#include "common/replace.h"
#include "tests/harness.h"

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* In a child limited to 4 KB files: file_replace of 64 KB; its result. */
static int replace_when_full(const char *path, const char *data, size_t len)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct rlimit rl = { 4096, 4096 };

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		error_capture(NULL, 0, 1);
		_exit(file_replace(path, data, len, "the test report") < 0 ?
		      1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -2;
	return WEXITSTATUS(status) ? -1 : 0;
}

static void test_replace__full_disk_leaves_no_partial_report(void)
{
	char dir[] = "/tmp/gate-test-replace-XXXXXX", path[128], *big;
	size_t len = 64 * 1024;
	FILE *f;
	char buf[16] = "";

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	big = malloc(len);
	memset(big, 'x', len);
	/* a new report: none is left, not a 0-byte or cut one */
	CHECK(replace_when_full(path, big, len) == -1);
	CHECK(access(path, F_OK) != 0);
	CHECK(entries(dir) == 0);	/* the temporary file is gone */
	/* an old report stays as it was */
	f = fopen(path, "w");
	fputs("old report", f);
	fclose(f);
	CHECK(replace_when_full(path, big, len) == -1);
	f = fopen(path, "r");
	CHECK(f && fgets(buf, sizeof(buf), f));
	if (f)
		fclose(f);
	CHECK_STR(buf, "old report");
	CHECK(entries(dir) == 1);
	/* with room it is replaced whole */
	CHECK(file_replace(path, big, len, "the test report") == 0);
	{
		struct stat st;

		CHECK(stat(path, &st) == 0 && (size_t)st.st_size == len);
	}
	unlink(path);
	rmdir(dir);
	free(big);
}

static void test_replace__dev_full_is_an_error(void)
{
	error_capture(NULL, 0, 1);
	CHECK(file_replace("/dev/full", "data", 4, "the test report") < 0);
	error_capture(NULL, 0, 0);
}

static const struct harness_test tests[] = {
	TEST(test_replace__full_disk_leaves_no_partial_report),
	TEST(test_replace__dev_full_is_an_error),
};

HARNESS_MAIN(tests)
