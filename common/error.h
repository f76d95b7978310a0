/*
 * Error reporting and checked allocation shared by every module.
 * error() prints "gate: error: ..." to stderr and returns -1 so callers can
 * "return error(...)"; a format ending in ':' appends strerror(errno).
 *
 * Errors (ARCHITECTURE.md, "Errors"): a function returns 0 on success and
 * -1 on error, after saying what went wrong. It says it with error(), or,
 * when its caller passes a struct gate_err (the *_to variants), with
 * error_to(): the message goes into the caller's record and nothing is
 * printed, so the caller decides to print it, quote it in a longer message
 * or drop it. No return value above 0 means "an error": an outcome that is
 * neither success nor error (a file missing, --help asked, a signal) is
 * an enum or an out-parameter named for it.
 */
#ifndef COMMON_ERROR_H
#define COMMON_ERROR_H

#include <stddef.h>
#include <stdio.h>

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
 * A message may quote text from outside (a file name, a benchmark's
 * stderr) that a CI system would take for one of its commands: GitHub
 * Actions reads "::name::" at a line's start and "##[name]" anywhere.
 * gate.c sets a guard once, in GitHub Actions: open() is printed before
 * such a message and close() after (token: 40 bytes, open's to fill), so
 * that nothing in it acts. Without a guard messages print as they are.
 */
struct error_guard {
	void (*open)(FILE *out, char *token);
	void (*close)(FILE *out, const char *token);
};
void error_set_guard(const struct error_guard *guard);

/* A message handed back to the caller instead of printed. */
struct gate_err {
	char msg[4096];		/* without the "gate: error: " prefix; as
				   long as error() prints (a build error
				   quotes its log's last lines) */
};

/*
 * With err: record the message in *err (as error() would print it, without
 * the prefix) and print nothing. Without (NULL): error(). Returns -1.
 */
int error_to(struct gate_err *err, const char *fmt, ...) PRINTF(2, 3);

/*
 * For tests only (it is global state, and no production code sets it):
 * while a buffer is set, every error() and warning() message (without
 * the prefix) is also copied into it, the last one winning. Pass NULL to
 * stop. When quiet is non-zero nothing is printed to stderr.
 */
void error_capture(char *buf, size_t size, int quiet);
/*
 * The columns a message on fd wraps at: $COLUMNS (20..10000), else fd's
 * width when it is a terminal; 0 when neither (a log keeps each message
 * on one line, for grep and for its reader to wrap).
 */
size_t error_columns(int fd);

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/*
 * Room for need elements of size bytes in p, whose capacity (in elements)
 * is *cap: returns p, or p reallocated with *cap raised geometrically (at
 * least doubled, so n appends one by one cost O(n) copying). Aborts as
 * xmalloc does when need * size would overflow size_t, rather than
 * allocating a wrapped, too small, block. Use it through XGROW.
 */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
/* XGROW(arr, cap, need): arr (a T *) holds at least need elements after;
   cap is arr's size_t capacity in elements. */
#define XGROW(arr, cap, need) \
	((arr) = xgrow((arr), &(cap), (need), sizeof(*(arr))))
char *xstrdup(const char *s);
/* Free every string of the NULL-terminated v, then v (v may be NULL). */
void strv_free(char **v);
char *xstrndup(const char *s, size_t n);
/* Allocating printf; never returns NULL. */
char *xasprintf(const char *fmt, ...) PRINTF(1, 2);

#endif
