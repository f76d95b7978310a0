/*
 * Writing a report file whole or not at all: the text goes to a temporary
 * file beside it, which is renamed over the path only once every byte is
 * on disk, so a full disk leaves the old file (or none), never a 0-byte or
 * half report.
 */
#ifndef COMMON_REPLACE_H
#define COMMON_REPLACE_H

#include <stddef.h>

/*
 * Write len bytes of data to path ("-": stdout, flushed and checked) as
 * described above; what names it in messages ("the JSON report"). A path
 * that exists and is not a regular file (a FIFO, /dev/stdout) is written
 * in place. Returns 0, or -1 after error() saying what, where, why and
 * that gate exits 3 for it; the temporary file is removed on every path.
 */
int file_replace(const char *path, const char *data, size_t len,
		 const char *what);

#endif
