/*
 * The one escaping path per medium (terminal, Actions log, Markdown, HTML,
 * CSV): see escape.h for each medium's rules. Printers call these and have
 * no escaping of their own.
 */
#include "common/escape.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "common/banned.h"

/* The terminal escape of the byte at p, or 0 when it prints as it is;
 * *len is how many bytes of p it takes. */
static int term_control(const unsigned char *p, size_t *len)
{
	*len = 1;
	if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
		*len = 2;
		return 1;
	}
	return *p < 0x20 || *p == 0x7f;
}

/* Whether a line starting at p would be a workflow command. */
static int actions_command(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p[0] == ':' && p[1] == ':';
}

static void put_term(FILE *out, const char *s, const char *indent,
		     int actions, int one_line)
{
	const unsigned char *p = (const unsigned char *)s;
	int line_start = 1;
	size_t len;

	for (; *p; p += len) {
		if (line_start && actions && actions_command((const char *)p)) {
			while (*p == ' ' || *p == '\t')
				fputc(' ', out), p++;
			fputs(": ", out);	/* the second ':' follows */
			p++;
		}
		line_start = 0;
		if (*p == '\n' && one_line) {
			len = 1;
			fputs("\\x0a", out);
		} else if (*p == '\n') {
			len = 1;
			fputc('\n', out);
			fputs(indent ? indent : "", out);
			line_start = 1;
		} else if (*p == '\r') {
			len = 1;
		} else if (*p == '\t') {
			len = 1;
			fputc(' ', out);
		} else if (actions && p[0] == '#' && p[1] == '#' &&
			   p[2] == '[') {
			len = 1;
			fputs("# ", out);
		} else if (term_control(p, &len)) {
			if (len == 2)
				fprintf(out, "\\u%04x", p[1]);
			else
				fprintf(out, "\\x%02x", *p);
		} else {
			fputc(*p, out);
		}
	}
}

static void put_md(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len;

	for (; *p; p += len) {
		len = 1;
		switch (*p) {
		case '|': fputs("\\|", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '@':
			fputs(isalnum(p[1]) ? "@&#8203;" : "@", out);
			break;
		case '#':
			fputs(isdigit(p[1]) ? "#&#8203;" : "#", out);
			break;
		case ':':
			/* GitHub links a bare scheme://... */
			fputs(p[1] == '/' && p[2] == '/' ? ":&#8203;" : ":",
			      out);
			break;
		case 'w': case 'W':
			/* ... and a bare www.host */
			if (!strncasecmp((const char *)p, "www.", 4)) {
				fwrite(p, 1, 3, out);
				fputs("&#8203;", out);
				len = 3;
			} else {
				fputc(*p, out);
			}
			break;
		case '`': case '*': case '_': case '[': case ']': case '\\':
		case '~':
			fputc('\\', out);
			fputc(*p, out);
			break;
		default:
			if (term_control(p, &len))
				fputc(' ', out);
			else
				fputc(*p, out);
		}
	}
}

static void put_html(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len;

	for (; *p; p += len) {
		len = 1;
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		case '\n': case '\t': fputc(*p, out); break;
		default:
			if (term_control(p, &len))
				fputs("\xef\xbf\xbd", out);
			else
				fputc(*p, out);
		}
	}
}

/* A plain number ("-1.5", "+3e-4") is data, not a formula. */
static int csv_number(const char *s)
{
	char *end;

	if (!*s)
		return 0;
	(void)strtod(s, &end);
	return *end == '\0' && !strpbrk(s, "xXnN");	/* no hex, inf, nan */
}

static void put_csv(FILE *out, const char *s)
{
	int formula = strchr("=+-@\t\r", *s) && *s && !csv_number(s);
	int quote = formula || strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	if (quote)
		fputc('"', out);
}

void escape_put_indent(FILE *out, enum escape_medium m, const char *s,
		       const char *indent)
{
	if (!s)
		s = "";
	switch (m) {
	case ESCAPE_TERM: put_term(out, s, indent, 0, 0); break;
	case ESCAPE_TERM_LINE: put_term(out, s, indent, 0, 1); break;
	case ESCAPE_ACTIONS: put_term(out, s, indent, 1, 0); break;
	case ESCAPE_MD: put_md(out, s); break;
	case ESCAPE_HTML: put_html(out, s); break;
	case ESCAPE_CSV: put_csv(out, s); break;
	}
}

void escape_put(FILE *out, enum escape_medium m, const char *s)
{
	escape_put_indent(out, m, s, "");
}

static void out_of_memory(void)
{
	fputs("gate: error: out of memory\n", stderr);
	abort();
}

char *escape_str(enum escape_medium m, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		out_of_memory();
	escape_put(f, m, s);
	if (fclose(f) != 0)
		out_of_memory();
	return buf;
}

/* Columns one character at p takes once escaped; *len its bytes. */
static size_t char_width(const unsigned char *p, size_t *len)
{
	if (term_control(p, len))
		return *len == 2 ? 6 : (*p == '\t' ? 1 : 4);
	*len = 1;
	if (*p >= 0xc0)
		while ((p[*len] & 0xc0) == 0x80)
			(*len)++;
	return 1;
}

size_t escape_term_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0, len;

	for (; *p && *p != '\n'; p += len)
		w += char_width(p, &len);
	return w;
}

char *escape_term_cut(const char *s, size_t cols)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0, len, cw, keep = 0;
	char *out;

	if (escape_term_width(s) <= cols && !strchr(s, '\n'))
		return xstrdup(s);
	cols = cols > 3 ? cols - 3 : 0;
	for (; *p; p += len) {
		cw = char_width(p, &len);
		if (*p == '\n' || w + cw > cols)
			break;
		w += cw;
		keep += len;
	}
	out = xmalloc(keep + 4);
	memcpy(out, s, keep);
	memcpy(out + keep, "...", 4);
	return out;
}
