/*
 * Notices on stderr fitted to the terminal. The text is escaped whole
 * first (names and paths come from outside), then wrapped: the escaped
 * text has no controls, so a column is a byte, or a UTF-8 character.
 */
#include "gate/exec/notice.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ci/github.h"
#include "common/escape.h"
#include "common/banned.h"

#define PREFIX "gate: "
#define INDENT "      "	/* under the text after "gate: " */

int term_columns(FILE *out)
{
	size_t n = error_columns(fileno(out));

	return n ? (int)n : 80;
}

const char *notice_path(const char *path, const char *top)
{
	size_t n = top ? strlen(top) : 0;

	if (n && top[n - 1] == '/' && !strncmp(path, top, n) && path[n])
		return path + n;
	return path;
}

/* Columns of s's first len bytes: UTF-8 continuation bytes take none. */
static size_t cols(const char *s, size_t len)
{
	size_t i, c = 0;

	for (i = 0; i < len; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The byte where column col of s (len bytes) starts. */
static size_t at_col(const char *s, size_t len, size_t col)
{
	size_t i = 0;

	for (; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && col-- == 0)
			break;
	return i;
}

/* One line of the notice, in Actions with its workflow-command rule. */
static void put_line(const char *lead, const char *s, int actions)
{
	fputs(lead, stderr);
	if (actions)
		escape_put(stderr, ESCAPE_ACTIONS, s);	/* controls gone */
	else
		fputs(s, stderr);	/* escaped by notice() */
	fputc('\n', stderr);
}

/* A word of len bytes at line + *n (used of room columns): whole, or
   its middle cut to fit a line of its own. */
static void put_word(char *line, size_t *n, size_t *used, const char *w,
		     size_t len, size_t room)
{
	size_t wc = cols(w, len), head, tail;

	if (wc <= room) {
		memcpy(line + *n, w, len);
		*n += len;
		*used += wc;
	} else {
		head = room > 3 ? (room - 3) / 2 : 0;
		tail = room > 3 ? room - 3 - head : 0;
		head = at_col(w, len, head);
		tail = at_col(w, len, wc - tail);
		memcpy(line + *n, w, head);
		memcpy(line + *n + head, "...", 3);
		*n += head + 3;
		memcpy(line + *n, w + tail, len - tail);
		*n += len - tail;
		*used += room;
	}
	line[*n] = '\0';
}

void notice(const char *fmt, ...)
{
	const char *columns = getenv("COLUMNS");
	int actions = ci_github_active(), first = 1, size;
	size_t width = (size_t)term_columns(stderr), room, used = 0, n = 0;
	size_t len;
	char *text, *esc, *line, *w, *end;
	va_list ap;

	va_start(ap, fmt);
	size = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	text = xmalloc(size > 0 ? (size_t)size + 1 : 1);
	va_start(ap, fmt);
	vsnprintf(text, size > 0 ? (size_t)size + 1 : 1, fmt, ap);
	va_end(ap);
	esc = escape_str(ESCAPE_TERM_LINE, text);
	if (!isatty(fileno(stderr)) && !(columns && *columns)) {
		put_line(PREFIX, esc, actions);
		goto done;
	}
	room = width > strlen(PREFIX) + 1 ? width - strlen(PREFIX) : 1;
	line = xmalloc(strlen(esc) + 4);
	line[0] = '\0';
	for (w = esc; *w; w = end) {
		while (*w == ' ')
			w++;
		end = w + strcspn(w, " ");
		len = (size_t)(end - w);
		if (!len)
			break;
		if (used && used + 1 + cols(w, len) > room) {
			put_line(first ? PREFIX : INDENT, line, actions);
			first = 0;
			line[n = 0] = '\0';
			used = 0;
		}
		if (used) {
			line[n++] = ' ';
			used++;
		}
		put_word(line, &n, &used, w, len, room);
	}
	put_line(first ? PREFIX : INDENT, line, actions);
	free(line);
done:
	fflush(stderr);
	free(esc);
	free(text);
}
