/*
 * Error reporting and checked allocation: the one place that prints the
 * "gate: error:" prefix, and allocation wrappers that die on exhaustion
 * (there is nothing sensible to measure after malloc fails).
 */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* the tests' capture hook (error.h): no production code sets it */
static char *capture_buf;
static size_t capture_size;
static int capture_quiet;

void error_capture(char *buf, size_t size, int quiet)
{
	capture_buf = buf;
	capture_size = size;
	capture_quiet = quiet;
}

static const struct error_guard *guard;

void error_set_guard(const struct error_guard *g)
{
	guard = g;
}

/* Whether msg could be read as a CI command (struct error_guard). */
static int commandlike(const char *msg)
{
	return strstr(msg, "::") || strstr(msg, "##[");
}

/* room for "[... N bytes ...]" with any size_t N */
#define CUT_MARK_MAX 48

/*
 * full (len bytes) into msg (size bytes): whole when it fits, else its
 * head and its tail around "[... N bytes ...]", each cut on a UTF-8
 * character's boundary. The tail is kept because a message ends with what
 * to do and strerror's reason; what is cut is the middle of a long path
 * or a quoted log.
 */
static void shorten(char *msg, size_t size, const char *full, size_t len)
{
	size_t h, t;

	if (len < size || size < 2 * CUT_MARK_MAX) {
		snprintf(msg, size, "%s", full);
		return;
	}
	h = (size - 1 - CUT_MARK_MAX) / 2;
	t = len - (size - 1 - CUT_MARK_MAX - h);
	while (h > 0 && ((unsigned char)full[h] & 0xc0) == 0x80)
		h--;
	while (t < len && ((unsigned char)full[t] & 0xc0) == 0x80)
		t++;
	snprintf(msg, size, "%.*s[... %zu bytes ...]%s", (int)h, full, t - h,
		 full + t);
}

/* fmt's message into msg, with strerror(errno) after a final ':', cut in
   the middle when longer than msg (shorten) */
static void PRINTF(3, 0) format(char *msg, size_t size, const char *fmt,
				va_list ap)
{
	int saved = errno, n;
	size_t len;
	char *full;
	va_list aq;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	/* no memory for the whole message: the start of it, as it comes */
	full = n >= 0 ? malloc((size_t)n + 256) : NULL;
	if (!full) {
		vsnprintf(msg, size, fmt, ap);
		errno = saved;
		return;
	}
	vsnprintf(full, (size_t)n + 1, fmt, ap);
	len = (size_t)n;
	if (len > 0 && full[len - 1] == ':')
		len += (size_t)snprintf(full + len, 256, " %.200s",
					strerror(saved));
	shorten(msg, size, full, len);
	free(full);
	errno = saved;
}

size_t error_columns(int fd)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (env && *env) {
		n = strtol(env, &end, 10);
		if (!*end && n >= 20 && n <= 10000)
			return (size_t)n;
	}
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 0;
}

/*
 * "gate: error: " and msg on stderr, wrapped at spaces to width (0: as
 * it is), the lines it adds indented by four: a config error of 146
 * columns was one line on an 80-column terminal. A word longer than a
 * line (a path) is not broken; msg's own newlines stay as they are.
 */
static void put_wrapped(const char *prefix, const char *msg, size_t width)
{
	size_t used, len, spaces;
	const char *w = msg, *end;

	if (!width) {
		fprintf(stderr, "gate: %s%s\n", prefix, msg);
		return;
	}
	fprintf(stderr, "gate: %s", prefix);
	used = strlen("gate: ") + strlen(prefix);
	while (*w) {
		if (*w == '\n') {	/* a quoted log's own lines */
			fputc('\n', stderr);
			used = 0;
			w++;
			continue;
		}
		for (spaces = 0; *w == ' '; w++)
			spaces++;
		len = strcspn(w, " \n");
		end = w + len;
		if (used > 4 && len && used + spaces + len >= width) {
			fputs("\n    ", stderr);
			used = 4;
		} else {
			for (; spaces; spaces--, used++)
				fputc(' ', stderr);
		}
		fwrite(w, 1, len, stderr);
		used += len;
		w = end;
	}
	fputc('\n', stderr);
}

static void PRINTF(2, 0) report(const char *prefix, const char *fmt,
				va_list ap)
{
	char msg[4096];
	int saved = errno;

	format(msg, sizeof(msg), fmt, ap);
	if (capture_buf && capture_size)
		snprintf(capture_buf, capture_size, "%s", msg);
	if (!capture_quiet && guard && commandlike(msg)) {
		char token[40];

		fflush(stdout);
		guard->open(stderr, token);
		fprintf(stderr, "gate: %s%s\n", prefix, msg);
		guard->close(stderr, token);
	} else if (!capture_quiet) {
		put_wrapped(prefix, msg, error_columns(STDERR_FILENO));
	}
	errno = saved;
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int error_to(struct gate_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (err)
		format(err->msg, sizeof(err->msg), fmt, ap);
	else
		report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

static void *check(void *p)
{
	if (!p) {
		fputs("gate: fatal: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n, bytes;

	if (need <= *cap)
		return p;
	if (size && need > SIZE_MAX / size) {
		fputs("gate: fatal: out of memory (an array of more than "
		      "SIZE_MAX bytes)\n", stderr);
		abort();
	}
	/* double, from 16; where doubling would overflow, exactly need */
	n = *cap ? *cap : 8;
	if (n <= SIZE_MAX / 2 / (size ? size : 1))
		n *= 2;
	if (n < need || (size && n > SIZE_MAX / size))
		n = need;
	bytes = n * size;
	p = check(realloc(p, bytes ? bytes : 1));
	*cap = n;
	return p;
}

void strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char probe[1];
	int n;
	char *p;

	if (!fmt)	/* never; tells gcc's UBSan build fmt is non-null */
		fmt = "";
	va_start(ap, fmt);
	n = vsnprintf(probe, sizeof(probe), fmt, ap);
	va_end(ap);
	if (n < 0)
		check(NULL);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
