/*
 * A scanner over raw JSON text: strict syntax checking with actionable
 * messages, offsets of values and keys by path, offset to line:column.
 * Every read is checked against len, so truncated or hostile bytes are safe.
 */
#include "common/jsonpos.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/jsonpos-internal.h"
#include "common/banned.h"

struct scan {
	const unsigned char *s;
	size_t len;
	size_t pos;
	struct jsonpos_error *err;
};

int jsonpos_is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_word(unsigned char c)
{
	return is_alpha(c) || is_digit(c) || c == '_';
}

size_t jsonpos_skip_ws(const unsigned char *s, size_t len, size_t pos)
{
	while (pos < len && jsonpos_is_ws(s[pos]))
		pos++;
	return pos;
}

/*
 * Length of the valid UTF-8 sequence at s (avail bytes readable), or 0 if
 * it is not one: overlong forms, surrogates and code points past U+10FFFF
 * are invalid (RFC 3629).
 */
static size_t utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned long cp;
	size_t n, i;

	if (!avail)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2)
		return 0;
	if (s[0] < 0xe0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] < 0xf0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] < 0xf5) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* The four hex digits at s[pos..pos+3] as a number, or -1. */
long jsonpos_hex4(const unsigned char *s, size_t len, size_t pos)
{
	long v = 0;
	size_t i;

	if (pos > len || len - pos < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		unsigned char c = s[pos + i];

		v <<= 4;
		if (is_digit(c))
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

void jsonpos_linecol(const char *text, size_t len, size_t off,
		     size_t *line, size_t *col)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i, l = 1, c = 1;

	if (off > len)
		off = len;
	for (i = 0; i < off; i++) {
		if (s[i] == '\n') {
			l++;
			c = 1;
		} else if ((s[i] & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* ---- strict checking ---- */

static int fail(struct scan *sc, size_t off, const char *fmt, ...) PRINTF(3, 4);

static int fail(struct scan *sc, size_t off, const char *fmt, ...)
{
	va_list ap;

	sc->err->off = off;
	va_start(ap, fmt);
	vsnprintf(sc->err->msg, sizeof(sc->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Describe what is at off for "got ...": a character, a word, or a byte. */
static void describe(const struct scan *sc, size_t off, char *buf, size_t size)
{
	const unsigned char *s = sc->s;
	size_t n;

	if (off >= sc->len) {
		snprintf(buf, size, "end of input");
		return;
	}
	if (is_alpha(s[off])) {
		n = 0;
		while (off + n < sc->len && is_word(s[off + n]) && n < 24)
			n++;
		snprintf(buf, size, "%.*s%s", (int)n, (const char *)s + off,
			 off + n < sc->len && is_word(s[off + n]) ? "..." : "");
	} else if (s[off] == '\'') {
		snprintf(buf, size, "\"'\"");
	} else if (s[off] > 0x20 && s[off] < 0x7f) {
		snprintf(buf, size, "'%c'", s[off]);
	} else if (s[off] >= 0x80 && (n = utf8_seq(s + off, sc->len - off))) {
		snprintf(buf, size, "'%.*s'", (int)n, (const char *)s + off);
	} else {
		snprintf(buf, size, "byte 0x%02x", s[off]);
	}
}

/* A hint for common slips at off: comments, single or curly quotes. */
static const char *hint(const struct scan *sc, size_t off)
{
	const unsigned char *s = sc->s;

	if (off >= sc->len)
		return "";
	if (s[off] == '/')
		return " (JSON allows no comments)";
	if (s[off] == '\'')
		return " (JSON strings use double quotes)";
	if (sc->len - off >= 3 && s[off] == 0xe2 && s[off + 1] == 0x80 &&
	    (s[off + 2] == 0x9c || s[off + 2] == 0x9d))
		return " (use straight double quotes)";
	return "";
}

static int unclosed(struct scan *sc, size_t open)
{
	size_t line, col;

	jsonpos_linecol((const char *)sc->s, sc->len, open, &line, &col);
	return fail(sc, sc->len, "syntax error: unexpected end of input: the "
		    "'%c' at %zu:%zu is not closed", sc->s[open], line, col);
}

/* An escape at sc->pos (the backslash); advances past it. */
static int check_escape(struct scan *sc, size_t start)
{
	const unsigned char *s = sc->s;
	size_t esc = sc->pos;
	long cp, lo;

	if (esc + 1 >= sc->len)
		return fail(sc, start, "syntax error: string is not closed: "
			    "add '\"'");
	switch (s[esc + 1]) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
	case 't':
		sc->pos += 2;
		return 0;
	case 'u':
		break;
	default:
		if (s[esc + 1] > 0x20 && s[esc + 1] < 0x7f)
			return fail(sc, esc, "syntax error: invalid escape "
				    "'\\%c' in a string: write '\\\\' for a "
				    "backslash", s[esc + 1]);
		return fail(sc, esc, "syntax error: invalid escape in a "
			    "string: write '\\\\' for a backslash");
	}
	cp = jsonpos_hex4(s, sc->len, esc + 2);
	if (cp < 0)
		return fail(sc, esc, "syntax error: '\\u' must be followed by "
			    "4 hex digits");
	if (cp == 0)
		return fail(sc, esc, "\\u0000 (NUL) is not allowed in a "
			    "string: no name, key or command can contain it");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(sc, esc, "syntax error: '\\u%04lx' is the second "
			    "half of a UTF-16 surrogate pair without a first",
			    cp);
	sc->pos += 6;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		lo = -1;
		if (sc->pos + 1 < sc->len && s[sc->pos] == '\\' &&
		    s[sc->pos + 1] == 'u')
			lo = jsonpos_hex4(s, sc->len, sc->pos + 2);
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(sc, esc, "syntax error: '\\u%04lx' must be "
				    "followed by '\\udc00' to '\\udfff' (the "
				    "second half of a UTF-16 surrogate pair)",
				    cp);
		sc->pos += 6;
	}
	return 0;
}

static int check_string(struct scan *sc)
{
	const unsigned char *s = sc->s;
	size_t start = sc->pos, n;

	sc->pos++;
	for (;;) {
		unsigned char c;

		if (sc->pos >= sc->len)
			return fail(sc, start, "syntax error: string is not "
				    "closed: add '\"'");
		c = s[sc->pos];
		if (c == '"') {
			sc->pos++;
			return 0;
		} else if (c == '\\') {
			if (check_escape(sc, start) < 0)
				return -1;
		} else if (c == '\n' || c == '\r') {
			return fail(sc, sc->pos, "syntax error: line break "
				    "inside a string: close the string with "
				    "'\"', or write the break as \\n");
		} else if (c == '\t') {
			return fail(sc, sc->pos, "syntax error: tab inside a "
				    "string: write it as \\t");
		} else if (c < 0x20) {
			return fail(sc, sc->pos, "syntax error: control "
				    "character 0x%02x inside a string: write "
				    "it as \\u%04x", c, c);
		} else if (c < 0x80) {
			sc->pos++;
		} else if ((n = utf8_seq(s + sc->pos, sc->len - sc->pos))) {
			sc->pos += n;
		} else {
			return fail(sc, sc->pos, "invalid UTF-8 (byte 0x%02x): "
				    "save the file as UTF-8", c);
		}
	}
}

static int check_number(struct scan *sc)
{
	const unsigned char *s = sc->s;
	size_t start = sc->pos;

	if (s[sc->pos] == '-')
		sc->pos++;
	if (sc->pos >= sc->len || !is_digit(s[sc->pos]))
		return fail(sc, start, "syntax error: '-' must be followed by "
			    "a digit");
	if (s[sc->pos] == '0') {
		sc->pos++;
		if (sc->pos < sc->len && is_digit(s[sc->pos]))
			return fail(sc, start, "syntax error: a number cannot "
				    "start with 0 followed by digits");
	} else {
		while (sc->pos < sc->len && is_digit(s[sc->pos]))
			sc->pos++;
	}
	if (sc->pos < sc->len && s[sc->pos] == '.') {
		sc->pos++;
		if (sc->pos >= sc->len || !is_digit(s[sc->pos]))
			return fail(sc, sc->pos, "syntax error: expected a "
				    "digit after '.' in a number");
		while (sc->pos < sc->len && is_digit(s[sc->pos]))
			sc->pos++;
	}
	if (sc->pos < sc->len && (s[sc->pos] == 'e' || s[sc->pos] == 'E')) {
		sc->pos++;
		if (sc->pos < sc->len &&
		    (s[sc->pos] == '+' || s[sc->pos] == '-'))
			sc->pos++;
		if (sc->pos >= sc->len || !is_digit(s[sc->pos]))
			return fail(sc, sc->pos, "syntax error: expected a "
				    "digit in the exponent of a number");
		while (sc->pos < sc->len && is_digit(s[sc->pos]))
			sc->pos++;
	}
	/* cJSON copies at most 63 bytes of a number; it would misparse more. */
	if (sc->pos - start > JSONPOS_MAX_NUMBER)
		return fail(sc, start, "number is longer than %d characters: "
			    "write it with fewer digits", JSONPOS_MAX_NUMBER);
	return 0;
}

static int word_is(const unsigned char *w, size_t n, const char *lit,
		   int fold)
{
	size_t i;

	if (strlen(lit) != n)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = w[i];

		if (fold && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (c != (unsigned char)lit[i])
			return 0;
	}
	return 1;
}

/* A bare word where a value belongs: true, false, null, or a mistake. */
static int check_word(struct scan *sc)
{
	const unsigned char *w = sc->s + sc->pos;
	size_t start = sc->pos, n;
	char got[64];

	while (sc->pos < sc->len && is_word(sc->s[sc->pos]))
		sc->pos++;
	n = sc->pos - start;
	if (word_is(w, n, "true", 0) || word_is(w, n, "false", 0) ||
	    word_is(w, n, "null", 0))
		return 0;
	describe(sc, start, got, sizeof(got));
	if (word_is(w, n, "true", 1) || word_is(w, n, "false", 1) ||
	    word_is(w, n, "null", 1))
		return fail(sc, start, "syntax error: expected a value, got %s "
			    "(JSON writes true, false and null in lower "
			    "case)", got);
	if (word_is(w, n, "nan", 1) || word_is(w, n, "infinity", 1) ||
	    word_is(w, n, "inf", 1))
		return fail(sc, start, "syntax error: expected a value, got %s "
			    "(JSON has no NaN or Infinity)", got);
	return fail(sc, start, "syntax error: expected a value, got %s "
		    "(strings need double quotes)", got);
}

static int check_value(struct scan *sc, unsigned depth);

/*
 * After a member of an object or an element of an array: the container's
 * close (returns 1, sc->pos past it) or a comma (returns 0, sc->pos on
 * it); anything else fails (-1) with what was expected.
 */
static int check_separator(struct scan *sc, size_t open, char close)
{
	const unsigned char *s = sc->s;
	char got[64];

	sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos);
	if (sc->pos >= sc->len)
		return unclosed(sc, open);
	if (s[sc->pos] == close) {
		sc->pos++;
		return 1;
	}
	if (s[sc->pos] == ',')
		return 0;
	describe(sc, sc->pos, got, sizeof(got));
	return fail(sc, sc->pos, "syntax error: expected ',' or '%c', got %s%s",
		    close, got, s[sc->pos] == '"' ? " (missing ','?)" :
		    hint(sc, sc->pos));
}

static int check_object(struct scan *sc, unsigned depth)
{
	const unsigned char *s = sc->s;
	size_t open = sc->pos, comma = 0;
	int after_comma = 0, rc;
	char got[64];

	if (depth >= JSONPOS_MAX_DEPTH)
		return fail(sc, open, "nested deeper than %d levels",
			    JSONPOS_MAX_DEPTH);
	sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos + 1);
	if (sc->pos < sc->len && s[sc->pos] == '}') {
		sc->pos++;
		return 0;
	}
	for (;;) {
		if (sc->pos >= sc->len)
			return unclosed(sc, open);
		if (s[sc->pos] != '"') {
			if (after_comma && s[sc->pos] == '}')
				return fail(sc, comma, "syntax error: trailing "
					    "',' before '}': remove it");
			describe(sc, sc->pos, got, sizeof(got));
			return fail(sc, sc->pos, "syntax error: expected a key "
				    "in double quotes, got %s%s", got,
				    hint(sc, sc->pos));
		}
		if (check_string(sc) < 0)
			return -1;
		sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos);
		if (sc->pos >= sc->len)
			return unclosed(sc, open);
		if (s[sc->pos] != ':') {
			describe(sc, sc->pos, got, sizeof(got));
			return fail(sc, sc->pos, "syntax error: expected ':' "
				    "after the key, got %s%s", got,
				    hint(sc, sc->pos));
		}
		sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos + 1);
		if (check_value(sc, depth + 1) < 0)
			return -1;
		rc = check_separator(sc, open, '}');
		if (rc != 0)
			return rc < 0 ? -1 : 0;
		comma = sc->pos;
		after_comma = 1;
		sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos + 1);
	}
}

static int check_array(struct scan *sc, unsigned depth)
{
	const unsigned char *s = sc->s;
	size_t open = sc->pos, comma;
	int rc;

	if (depth >= JSONPOS_MAX_DEPTH)
		return fail(sc, open, "nested deeper than %d levels",
			    JSONPOS_MAX_DEPTH);
	sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos + 1);
	if (sc->pos < sc->len && s[sc->pos] == ']') {
		sc->pos++;
		return 0;
	}
	for (;;) {
		if (sc->pos >= sc->len)
			return unclosed(sc, open);
		if (check_value(sc, depth + 1) < 0)
			return -1;
		rc = check_separator(sc, open, ']');
		if (rc != 0)
			return rc < 0 ? -1 : 0;
		comma = sc->pos;
		sc->pos = jsonpos_skip_ws(s, sc->len, sc->pos + 1);
		if (sc->pos < sc->len && s[sc->pos] == ']')
			return fail(sc, comma, "syntax error: trailing ',' "
				    "before ']': remove it");
	}
}

/* The value at sc->pos, inside depth containers. */
static int check_value(struct scan *sc, unsigned depth)
{
	unsigned char c;
	char got[64];

	if (sc->pos >= sc->len)
		return fail(sc, sc->pos, "syntax error: expected a value, got "
			    "end of input");
	c = sc->s[sc->pos];
	if (c == '{')
		return check_object(sc, depth);
	if (c == '[')
		return check_array(sc, depth);
	if (c == '"')
		return check_string(sc);
	if (c == '-' || is_digit(c))
		return check_number(sc);
	if (is_alpha(c))
		return check_word(sc);
	if (c >= 0x80 && !utf8_seq(sc->s + sc->pos, sc->len - sc->pos))
		return fail(sc, sc->pos, "invalid UTF-8 (byte 0x%02x): save "
			    "the file as UTF-8", c);
	describe(sc, sc->pos, got, sizeof(got));
	return fail(sc, sc->pos, "syntax error: expected a value, got %s%s",
		    got, hint(sc, sc->pos));
}

int jsonpos_check(const char *text, size_t len, struct jsonpos_error *err)
{
	struct scan sc;
	char got[64];

	sc.s = (const unsigned char *)text;
	sc.len = len;
	sc.err = err;
	sc.pos = jsonpos_skip_ws(sc.s, len, 0);
	err->off = 0;
	err->msg[0] = '\0';
	if (check_value(&sc, 0) < 0)
		return -1;
	sc.pos = jsonpos_skip_ws(sc.s, len, sc.pos);
	if (sc.pos < len) {
		if (sc.s[sc.pos] >= 0x80 &&
		    !utf8_seq(sc.s + sc.pos, len - sc.pos))
			return fail(&sc, sc.pos, "invalid UTF-8 (byte 0x%02x): "
				    "save the file as UTF-8", sc.s[sc.pos]);
		describe(&sc, sc.pos, got, sizeof(got));
		return fail(&sc, sc.pos, "syntax error: unexpected %s after "
			    "the end of the document%s", got,
			    hint(&sc, sc.pos));
	}
	return 0;
}

/* ---- lenient navigation ---- */
