/*
 * Unit tests for gate/exec/layout.c: remove_tree at any depth, and never
 * through a symbolic link.
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

#include "gate/exec/layout.h"
#include "gate/exec/signals.h"
#include "tests/harness.h"

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
};

int main(int argc, char **argv)
{
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
