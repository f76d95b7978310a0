/*
 * Unit tests for git/lock.c: one gate run at a time, on fixture
 * repositories (fixture.h).
 */
#include "git/repo.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/git/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_git__lock_excludes_second_holder(void)
{
	char *path, *s, pid[32], stamp[32];
	int fd1 = -1, fd2 = -1, fd3 = -1;
	struct gate_err err = { "" };
	char *err_printed;
	long got = 0;
	size_t len;

	begin();
	path = at("gate/lock");	/* gate/ does not exist yet */
	snprintf(pid, sizeof(pid), "pid %ld,", (long)getpid());
	CHECK(repo_lock(&fd1, path, NULL) == 0);
	CHECK(fd1 >= 0);
	s = read_whole(scratch, "gate/lock", &len);
	CHECK(s && sscanf(s, "pid %ld\nstarted %31s\n", &got, stamp) == 2);
	CHECK(got == (long)getpid());
	CHECK(strlen(stamp) == 20 && stamp[4] == '-' && stamp[10] == 'T' &&
	      stamp[19] == 'Z');
	free(s);
	/* flock belongs to an open file description: a second open conflicts */
	CHECK(repo_lock(&fd2, path, NULL) == -1);
	CHECK(fd2 == -1);
	CHECK_CONTAINS(msg, "another gate run holds");
	CHECK_CONTAINS(msg, pid);
	CHECK_CONTAINS(msg, "wait for it to finish");
	/* with a record: the same words there, nothing printed */
	err_printed = xstrdup(msg);
	msg[0] = '\0';
	CHECK(repo_lock(&fd2, path, &err) == -1);
	CHECK_STR(err.msg, err_printed);
	CHECK_STR(msg, "");
	free(err_printed);
	repo_unlock(fd1, path);
	CHECK(!exists(scratch, "gate/lock"));
	CHECK(repo_lock(&fd3, path, NULL) == 0);
	repo_unlock(fd3, path);
	free(path);
	end();
}

static void test_git__lock_held_by_other_process(void)
{
	int ready[2], quit[2], fd = -1, status;
	char *path, pid[32], c;
	pid_t child;

	begin();
	path = at("lock");
	if (pipe(ready) < 0 || pipe(quit) < 0) {
		CHECK(0);
		goto done;
	}
	child = fork();
	if (child == 0) {
		int cfd;

		c = repo_lock(&cfd, path, NULL) == 0 ? 'y' : 'n';
		free(path);
		if (write(ready[1], &c, 1) != 1 || read(quit[0], &c, 1) < 0)
			_exit(2);
		_exit(0);	/* dies holding it: the kernel releases it */
	}
	CHECK(read(ready[0], &c, 1) == 1 && c == 'y');
	snprintf(pid, sizeof(pid), "pid %ld,", (long)child);
	CHECK(repo_lock(&fd, path, NULL) == -1);
	CHECK_CONTAINS(msg, pid);
	CHECK_CONTAINS(msg, "started ");
	CHECK(write(quit[1], "q", 1) == 1);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	CHECK(repo_lock(&fd, path, NULL) == 0);
	repo_unlock(fd, path);
	close(ready[0]);
	close(ready[1]);
	close(quit[0]);
	close(quit[1]);
done:
	free(path);
	end();
}

static const struct harness_test tests[] = {
	TEST(test_git__lock_excludes_second_holder),
	TEST(test_git__lock_held_by_other_process),
};

HARNESS_MAIN(tests)
