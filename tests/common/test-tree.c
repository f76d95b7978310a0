/*
 * Unit tests for common/tree.c: tree_remove at any depth, never through a
 * symbolic link, and its message handed back.
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
#include "common/tree.h"
#include "gate/exec/signals.h"
#include "tests/harness.h"

/* A tree nested deeper than PATH_MAX (nftw could not name its leaves). */
static void test_tree__remove_any_depth(void)
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
	CHECK(tree_remove(root, NULL) == 0);
	CHECK(lstat(root, &st) < 0 && errno == ENOENT);
	CHECK(tree_remove(root, NULL) == 0);	/* already gone: fine */
}

/* A symlink is removed as a link: what it points to is never touched. */
static void test_tree__remove_keeps_link_targets(void)
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
	CHECK(tree_remove(path, NULL) == 0);
	CHECK(lstat(path, &st) < 0 && stat(inside, &st) == 0);
	CHECK(tree_remove(root, NULL) == 0);
	CHECK(lstat(root, &st) < 0 && errno == ENOENT);
	CHECK(stat(out, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(stat(inside, &st) == 0 && S_ISREG(st.st_mode));
	unlink(inside);
	rmdir(out);
}

/* What cannot be removed is said in the caller's record, not printed; a
   read-only directory (a build's) is made writable and goes. */
static void test_tree__remove_hands_its_message_back(void)
{
	char root[] = "/tmp/gate-test-rm-XXXXXX";
	char path[256], bad[300];
	struct gate_err err = { "" };
	struct stat st;

	CHECK(mkdtemp(root) != NULL);
	snprintf(path, sizeof(path), "%s/file", root);
	close(open(path, O_WRONLY | O_CREAT, 0600));
	/* below a plain file: lstat fails with ENOTDIR */
	snprintf(bad, sizeof(bad), "%s/below", path);
	CHECK(tree_remove(bad, &err) == -1);
	CHECK(strstr(err.msg, "cannot remove \"") != NULL);
	CHECK(strstr(err.msg, "/file/below\": Not a directory") != NULL);
	snprintf(path, sizeof(path), "%s/ro", root);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(bad, sizeof(bad), "%s/ro/f", root);
	close(open(bad, O_WRONLY | O_CREAT, 0600));
	CHECK(chmod(path, 0500) == 0);
	err.msg[0] = '\0';
	CHECK(tree_remove(root, &err) == 0);
	CHECK(err.msg[0] == '\0');
	CHECK(lstat(root, &st) < 0 && errno == ENOENT);
}

static const struct harness_test tests[] = {
	TEST(test_tree__remove_any_depth),
	TEST(test_tree__remove_keeps_link_targets),
	TEST(test_tree__remove_hands_its_message_back),
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
