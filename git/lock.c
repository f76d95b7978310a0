/*
 * One gate run per repository at a time: an flock(2) on a file under
 * $GIT_DIR/gate/, released by the kernel when the process dies, holding
 * the holder's pid and start time for the message the next run prints.
 */
#include "git/repo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/banned.h"

/* Say who holds the lock on fd, from what it wrote there. */
static int held_error(int fd, const char *path, struct gate_err *err)
{
	char buf[256], started[64];
	long pid;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	const char *s;

	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "pid %ld", &pid) == 1 &&
	    (s = strstr(buf, "\nstarted ")) &&
	    sscanf(s, "\nstarted %63s", started) == 1)
		return error_to(err, "another gate run holds \"%s\" (pid %ld, "
				"started %s): wait for it to finish", path, pid,
				started);
	/* Between its flock and its write: nothing to quote yet. */
	return error_to(err, "another gate run holds \"%s\": wait for it to "
			"finish", path);
}

static int write_holder(int fd, const char *path, struct gate_err *err)
{
	char stamp[32], buf[96];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	if (!gmtime_r(&now, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return error_to(err, "cannot format the time for \"%s\"", path);
	n = snprintf(buf, sizeof(buf), "pid %ld\nstarted %s\n",
		     (long)getpid(), stamp);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n)
		return error_to(err, "cannot write \"%s\":", path);
	return 0;
}

/* Make the lock file's directory ($GIT_DIR/gate/ on a first run). */
static int make_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ret = 0;

	if (!slash || slash == path)
		return -1;
	dir = xstrndup(path, (size_t)(slash - path));
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		ret = -1;
	free(dir);
	errno = ENOENT;
	return ret;
}

int repo_lock(int *fdp, const char *path, struct gate_err *err)
{
	struct stat held, named;
	int fd = -1, tries;

	*fdp = -1;
	/*
	 * repo_unlock removes the file while still holding it, so we may
	 * lock a file that was just unlinked while another run creates and
	 * locks a new one under the same name. After locking, check that the
	 * name still leads to our file, and start over if not.
	 */
	for (tries = 0; tries < 100; tries++) {
		/* O_CLOEXEC: benchmarks we spawn must not inherit the lock. */
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0 && errno == ENOENT && make_parent(path) == 0)
			fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return error_to(err, "cannot open lock file \"%s\":",
					path);
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int ret = errno == EWOULDBLOCK
				? held_error(fd, path, err)
				: error_to(err, "cannot lock \"%s\":", path);

			close(fd);
			return ret;
		}
		if (fstat(fd, &held) == 0 && stat(path, &named) == 0 &&
		    held.st_dev == named.st_dev && held.st_ino == named.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return error_to(err, "cannot lock \"%s\": it keeps being "
				"replaced", path);
	if (write_holder(fd, path, err) < 0) {
		close(fd);
		return -1;
	}
	*fdp = fd;
	return 0;
}

/*
 * Remove the file while we still hold the lock, so no one can be holding
 * it on our behalf, then release. repo_lock copes with the race this opens
 * (see there); a file left by a crash is harmless, since only flock says
 * who holds the lock.
 */
void repo_unlock(int fd, const char *path)
{
	if (fd < 0)
		return;
	if (path)
		unlink(path);
	close(fd);
}
