/*
 * Error reporting and checked allocation shared by every module.
 * error() prints "gate: error: ..." to stderr and returns -1 so callers can
 * "return error(...)"; a format ending in ':' appends strerror(errno).
 */
#ifndef COMMON_ERROR_H
#define COMMON_ERROR_H

#include <stddef.h>

#if defined(__GNUC__)
#define PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF(f, a)
#endif

/* Print "gate: error: MSG" to stderr; returns -1. */
int error(const char *fmt, ...) PRINTF(1, 2);
/* Print "gate: warning: MSG" to stderr. */
void warning(const char *fmt, ...) PRINTF(1, 2);

/*
 * Tests: while a buffer is set, every error() message (without the prefix)
 * is also copied into it, the last one winning. Pass NULL to stop. When
 * quiet is non-zero nothing is printed to stderr.
 */
void error_capture(char *buf, size_t size, int quiet);
/* The current capture settings, to restore after a nested capture. */
void error_capture_get(char **buf, size_t *size, int *quiet);

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Allocating printf; never returns NULL. */
char *xasprintf(const char *fmt, ...) PRINTF(1, 2);

#endif
