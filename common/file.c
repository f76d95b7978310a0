/*
 * The one file reader (common/file.h).
 */
#include "common/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/error.h"
#include "common/banned.h"

int file_read(char **data, size_t *len, const char *path, size_t max)
{
	return file_read_to(data, len, path, max, NULL);
}

int file_read_to(char **data, size_t *len, const char *path, size_t max,
		 struct gate_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno == EINTR)
		return error_to(err, "reading \"%s\" was interrupted", path);
	if (fd < 0)
		return error_to(err, "cannot read \"%s\":", path);
	return file_read_fd_to(data, len, fd, path, max, err);
}

int file_read_fd_to(char **data, size_t *len, int fd, const char *path,
		    size_t max, struct gate_err *err)
{
	FILE *f = fdopen(fd, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	if (!f) {
		close(fd);
		return error_to(err, "cannot read \"%s\":", path);
	}
	buf = xmalloc(cap);
	for (;;) {
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (max && n > max) {
			fclose(f);
			free(buf);
			return error_to(err, "\"%s\" is larger than %zu bytes: "
					"refused without reading it all", path,
					max);
		}
		if (got == 0)
			break;
		/* room for one more byte and the NUL */
		XGROW(buf, cap, n + 2);
	}
	if (ferror(f)) {
		int interrupted = errno == EINTR;

		fclose(f);
		free(buf);
		/* gate's SIGINT/SIGTERM handlers do not restart: the caller
		   sees the signal and stops (a FIFO never blocks it) */
		if (interrupted) {
			errno = EINTR;
			return error_to(err, "reading \"%s\" was interrupted",
					path);
		}
		return error_to(err, "cannot read \"%s\":", path);
	}
	fclose(f);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}
