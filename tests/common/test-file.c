/*
 * Unit tests for common/file.c, the one file reader: a file read whole,
 * one over the limit refused, and the error paths that close what they
 * were given.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "tests/harness.h"

static void make_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
}

static void test_file__reads_whole_and_refuses_over_max(void)
{
	char path[] = "/tmp/gate-file-XXXXXX", msg[256] = "";
	char *data = NULL;
	size_t len = 0;

	make_file(path, "abc\ndef");
	CHECK(file_read(&data, &len, path, 0) == 0);
	CHECK(len == 7);
	CHECK_STR(data, "abc\ndef");
	free(data);
	data = NULL;
	error_capture(msg, sizeof(msg), 1);
	CHECK(file_read(&data, &len, path, 6) < 0);
	error_capture(NULL, 0, 0);
	CHECK(data == NULL);
	CHECK_CONTAINS(msg, "larger than 6 bytes");
	unlink(path);
}

/*
 * fdopen refusing the descriptor (here: "rb" on a write-only one, which
 * glibc and the BSDs reject with EINVAL) is an error naming the file, and
 * the descriptor, handed over to file_read_fd_to, is closed all the same.
 */
static void test_file__fdopen_failure_closes_the_fd(void)
{
	char path[] = "/tmp/gate-file-XXXXXX", msg[256] = "";
	char *data = NULL;
	size_t len = 0;
	int fd;

	make_file(path, "abc");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	error_capture(msg, sizeof(msg), 1);
	CHECK(file_read_fd_to(&data, &len, fd, path, 0, NULL) < 0);
	error_capture(NULL, 0, 0);
	CHECK(data == NULL);
	CHECK_CONTAINS(msg, "cannot read \"");
	CHECK_CONTAINS(msg, path);
	errno = 0;
	CHECK(fcntl(fd, F_GETFD) < 0 && errno == EBADF);
	unlink(path);
}

static const struct harness_test tests[] = {
	TEST(test_file__reads_whole_and_refuses_over_max),
	TEST(test_file__fdopen_failure_closes_the_fd),
};

HARNESS_MAIN(tests)
