/*
 * Reading a whole file, with a bound: the one file reader gate has, so
 * that no caller reads a /dev/zero or a 1 GB file whole before refusing.
 */
#ifndef COMMON_FILE_H
#define COMMON_FILE_H

#include <stddef.h>

/*
 * Read path into *data (NUL-terminated, caller frees) and its length into
 * *len. More than max bytes (max > 0) is refused without reading further:
 * "\"path\" is larger than N bytes". Returns 0, or -1 after error() (a
 * missing file too: check with access() first where that is not an
 * error). A read or an open interrupted by a signal (gate's SIGINT and
 * SIGTERM handlers do not restart) fails with errno EINTR, so a FIFO
 * that never delivers cannot hold gate past the signal.
 */
int file_read(char **data, size_t *len, const char *path, size_t max);

/* The same with the message in *err instead (error_to), when err is not
   NULL. */
struct gate_err;
int file_read_to(char **data, size_t *len, const char *path, size_t max,
		 struct gate_err *err);
/*
 * The same from an open descriptor, which it takes over (closed on every
 * path); path names it in messages.
 */
int file_read_fd_to(char **data, size_t *len, int fd, const char *path,
		    size_t max, struct gate_err *err);

#endif
