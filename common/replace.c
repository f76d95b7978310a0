/*
 * Reports written through a temporary file and a rename (see replace.h).
 */
#include "common/replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/banned.h"

static int write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int to_stdout(const char *data, size_t len, const char *what)
{
	if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0 ||
	    ferror(stdout))
		return error("cannot write %s to stdout: %s (gate exits 3)",
			     what, strerror(errno ? errno : EIO));
	return 0;
}

int file_replace(const char *path, const char *data, size_t len,
		 const char *what)
{
	struct stat st;
	char *tmp = NULL;
	mode_t mask;
	int fd = -1, ret = -1, saved;

	if (!strcmp(path, "-"))
		return to_stdout(data, len, what);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd < 0 || write_all(fd, data, len) < 0 || close(fd) < 0) {
			saved = errno;
			if (fd >= 0)
				close(fd);
			return error("cannot write %s \"%s\": %s (gate exits 3)",
				     what, path, strerror(saved));
		}
		return 0;
	}
	tmp = xasprintf("%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		error("cannot write %s \"%s\": cannot create \"%s\": %s (gate "
		      "exits 3)", what, path, tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	/* the mode a plain fopen would give: the old file's, else umask's */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777 :
		   0666 & ~mask) < 0 || write_all(fd, data, len) < 0 ||
	    fsync(fd) < 0) {
		saved = errno;
		close(fd);
		fd = -1;
		errno = saved;
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto fail;
	ret = 0;
	goto cleanup;
fail:
	saved = errno;
	unlink(tmp);
	error("cannot write %s \"%s\": %s; %s (gate exits 3)", what, path,
	      strerror(saved), access(path, F_OK) == 0 ?
	      "the file is left as it was" : "no file was left");
cleanup:
	free(tmp);
	return ret;
}
