/*
 * Source positions in gate.json. cJSON keeps none, so this scanner walks the
 * raw bytes: a strict syntax check with messages people can act on, the byte
 * offset of a value or key named by a path, and offset to line:column.
 * Only the config reader uses the check and the paths: result files are
 * parsed by cJSON alone (gate/format/format.c), and take only
 * jsonpos_linecol to say where cJSON stopped.
 */
#ifndef GATE_JSONPOS_H
#define GATE_JSONPOS_H

#include <stddef.h>

/*
 * Deepest nesting jsonpos_check accepts. gate.json needs 4 levels; 64 leaves
 * room for extensions and keeps the recursive checker's stack small. cJSON's
 * own limit (CJSON_NESTING_LIMIT, 1000) is never reached: the check runs
 * first and refuses anything deeper than this.
 */
#define JSONPOS_MAX_DEPTH 64

/* Longest number token cJSON reads whole (its buffer is 64 bytes). */
#define JSONPOS_MAX_NUMBER 63

/*
 * One step of a path such as benchmarks[1].pairs. With key set: the member
 * of an object with that key, its index-th occurrence (0 = the first; JSON
 * text may repeat a key). With key NULL: the index-th element of an array or
 * the index-th member of an object, counting from 0 in document order (the
 * order cJSON keeps its children in).
 */
struct jsonpos_step {
	const char *key;
	size_t index;
};

/* Where jsonpos_check stopped, and why, as a message without location. */
struct jsonpos_error {
	size_t off;
	char msg[192];
};

/*
 * Check that text (len bytes) is one JSON value (RFC 8259) surrounded only
 * by JSON whitespace, valid UTF-8, nested at most JSONPOS_MAX_DEPTH levels,
 * no number longer than JSONPOS_MAX_NUMBER bytes and no "\u0000" in a string
 * (cJSON would cut the string there). Stricter than cJSON, which also takes
 * control bytes as whitespace, raw control bytes in strings and leading
 * zeros. Returns 0, or -1 with *err set (msg says "syntax error: ..." for
 * grammar). Never reads past len; text need not be NUL-terminated.
 */
int jsonpos_check(const char *text, size_t len, struct jsonpos_error *err);

/*
 * Byte offset of the first byte of the value at path (n steps; n == 0 is
 * the top-level value). Returns 0, or -1 if the path names nothing or the
 * text is malformed there. Lenient: meant for text jsonpos_check accepted,
 * but safe on any bytes.
 */
int jsonpos_value(const char *text, size_t len,
		  const struct jsonpos_step *path, size_t n, size_t *off);

/*
 * Byte offset of the opening quote of the key of the object member that
 * path names (n >= 1, the last step inside an object). 0, or -1.
 */
int jsonpos_key(const char *text, size_t len,
		const struct jsonpos_step *path, size_t n, size_t *off);

/* *end = offset just past the value starting at off. 0, or -1. */
int jsonpos_skip(const char *text, size_t len, size_t off, size_t *end);

/*
 * 1-based line and column of byte offset off (clamped to len). Lines end at
 * '\n' (so "\r\n" is one break). Columns count UTF-8 characters, not bytes,
 * to match what editors show; a tab counts as one. Invalid UTF-8 is counted
 * one character per byte that is not a continuation byte.
 */
void jsonpos_linecol(const char *text, size_t len, size_t off,
		     size_t *line, size_t *col);

#endif
