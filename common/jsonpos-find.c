/*
 * Finding a value or key by its path in JSON text that jsonpos_check
 * accepted (jsonpos.h): skipping values, comparing keys with their
 * escapes decoded, and the offsets gate.json's messages point at.
 */
#include "common/jsonpos.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/jsonpos-internal.h"
#include "common/banned.h"

static int skip_string(const unsigned char *s, size_t len, size_t pos,
		       size_t *end)
{
	if (pos >= len || s[pos] != '"')
		return -1;
	for (pos++; pos < len; pos++) {
		if (s[pos] == '\\')
			pos++;	/* may step to len; the loop then ends */
		else if (s[pos] == '"') {
			*end = pos + 1;
			return 0;
		}
	}
	return -1;
}

int jsonpos_skip(const char *text, size_t len, size_t off, size_t *end)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t pos = off, depth = 0;

	if (off >= len)
		return -1;
	switch (s[off]) {
	case '"':
		return skip_string(s, len, off, end);
	case '{': case '[':
		/*
		 * Count brackets rather than recurse: no stack to exhaust, and
		 * the checker has already matched them for text we care about.
		 */
		while (pos < len) {
			unsigned char c = s[pos];

			if (c == '"') {
				if (skip_string(s, len, pos, &pos) < 0)
					return -1;
				continue;
			}
			if (c == '{' || c == '[') {
				depth++;
			} else if (c == '}' || c == ']') {
				if (--depth == 0) {
					*end = pos + 1;
					return 0;
				}
			}
			pos++;
		}
		return -1;
	case '}': case ']': case ',': case ':':
		return -1;
	default:
		while (pos < len && !jsonpos_is_ws(s[pos]) &&
		       !memchr(",:[]{}\"", s[pos], 7))
			pos++;
		if (pos == off)
			return -1;
		*end = pos;
		return 0;
	}
}

/* Append code point cp as UTF-8 to out (at least 4 bytes); its length. */
static size_t utf8_put(unsigned char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | (cp >> 6));
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | (cp >> 12));
		out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | (cp >> 18));
	out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Whether the string token at pos decodes to exactly key. */
static int key_equals(const unsigned char *s, size_t len, size_t pos,
		      const char *key)
{
	const unsigned char *k = (const unsigned char *)key;
	unsigned char buf[4];
	size_t n, i;
	long cp, lo;

	for (pos++; pos < len;) {
		if (s[pos] == '"')
			return *k == '\0';
		if (s[pos] != '\\') {
			if (*k == '\0' || *k != s[pos])
				return 0;
			k++;
			pos++;
			continue;
		}
		if (pos + 1 >= len)
			return 0;
		n = 1;
		switch (s[pos + 1]) {
		case '"': case '\\': case '/':
			buf[0] = s[pos + 1];
			break;
		case 'b': buf[0] = '\b'; break;
		case 'f': buf[0] = '\f'; break;
		case 'n': buf[0] = '\n'; break;
		case 'r': buf[0] = '\r'; break;
		case 't': buf[0] = '\t'; break;
		case 'u':
			cp = jsonpos_hex4(s, len, pos + 2);
			if (cp <= 0)
				return 0;	/* malformed, or NUL */
			if (cp >= 0xd800 && cp <= 0xdbff) {
				lo = pos + 7 < len && s[pos + 6] == '\\' &&
				     s[pos + 7] == 'u' ?
				     jsonpos_hex4(s, len, pos + 8) : -1;
				if (lo < 0xdc00 || lo > 0xdfff)
					return 0;
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				pos += 6;
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				return 0;
			}
			n = utf8_put(buf, (unsigned long)cp);
			pos += 4;
			break;
		default:
			return 0;
		}
		pos += 2;
		for (i = 0; i < n; i++, k++)
			if (*k == '\0' || *k != buf[i])
				return 0;
	}
	return 0;
}

/* Walk path; *val = the value's offset, *key = its key's (or len). */
static int walk(const char *text, size_t len, const struct jsonpos_step *path,
		size_t n, size_t *val, size_t *key)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t pos = jsonpos_skip_ws(s, len, 0), kpos = len, i, k, seen;

	for (i = 0; i < n; i++) {
		const struct jsonpos_step *st = &path[i];

		if (pos >= len)
			return -1;
		if (s[pos] == '[') {
			if (st->key)
				return -1;
			pos = jsonpos_skip_ws(s, len, pos + 1);
			if (pos >= len || s[pos] == ']')
				return -1;
			for (k = 0; k < st->index; k++) {
				if (jsonpos_skip(text, len, pos, &pos) < 0)
					return -1;
				pos = jsonpos_skip_ws(s, len, pos);
				if (pos >= len || s[pos] != ',')
					return -1;
				pos = jsonpos_skip_ws(s, len, pos + 1);
			}
			kpos = len;
		} else if (s[pos] == '{') {
			pos = jsonpos_skip_ws(s, len, pos + 1);
			for (k = 0, seen = 0;; k++) {
				size_t kstart = pos;
				int match;

				if (skip_string(s, len, pos, &pos) < 0)
					return -1;
				pos = jsonpos_skip_ws(s, len, pos);
				if (pos >= len || s[pos] != ':')
					return -1;
				pos = jsonpos_skip_ws(s, len, pos + 1);
				if (st->key) {
					match = key_equals(s, len, kstart,
							   st->key) &&
						seen++ == st->index;
				} else {
					match = k == st->index;
				}
				if (match) {
					kpos = kstart;
					break;
				}
				if (jsonpos_skip(text, len, pos, &pos) < 0)
					return -1;
				pos = jsonpos_skip_ws(s, len, pos);
				if (pos >= len || s[pos] != ',')
					return -1;
				pos = jsonpos_skip_ws(s, len, pos + 1);
			}
		} else {
			return -1;
		}
	}
	if (pos >= len)
		return -1;
	*val = pos;
	*key = kpos;
	return 0;
}

int jsonpos_value(const char *text, size_t len,
		  const struct jsonpos_step *path, size_t n, size_t *off)
{
	size_t key;

	return walk(text, len, path, n, off, &key);
}

int jsonpos_key(const char *text, size_t len,
		const struct jsonpos_step *path, size_t n, size_t *off)
{
	size_t val, key;

	if (!n || walk(text, len, path, n, &val, &key) < 0 || key >= len)
		return -1;
	*off = key;
	return 0;
}
