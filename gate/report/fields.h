/*
 * The JSON report's fields, declared once: for each struct of the run
 * model a table of rows { JSON name, kind, offset }, which json.c walks
 * to write the struct and load*.c to read it back, so every field written
 * is read under the same name into the same member. A field whose value
 * is computed (a sentence, a name looked up) stays written by hand.
 *
 * Adding a field: add a row to its struct's table (fields.c), in the place
 * it is to be written; tests/gate/report/test-fields.c checks it round-trips.
 */
#ifndef GATE_REPORT_FIELDS_H
#define GATE_REPORT_FIELDS_H

#include <stddef.h>

struct cJSON;
struct report_loaded;

enum field_kind {
	FIELD_TEXT,	/* char[size]; absent: "unknown" */
	FIELD_STR,	/* const char *: NULL written as "", absent read as "" */
	FIELD_STR_OR_NULL,	/* const char *: NULL written and read as null */
	FIELD_NUM,	/* double: not finite written as null; absent: NaN */
	FIELD_NUM0,	/* FIELD_NUM, but absent or null reads 0 */
	FIELD_COUNT,	/* size_t; absent: 0 */
	FIELD_LONG,	/* long within [lo, hi]; absent: lo */
	FIELD_INT,	/* int within [lo, hi]: lo means unknown, written null */
	FIELD_BOOL,	/* int, 0 or 1 */
	FIELD_NUMS,	/* double[size]: absent items read -1 */
	FIELD_OBJECT,	/* an object of sub's rows, members of the same struct */
	FIELD_AGAIN,	/* a double written again under another name; not read */
	FIELD_TRUE,	/* always true (a constant of the schema); not read */
};

/* FIELD_STR, FIELD_COUNT: omitted when NULL or 0 (and read back so) */
#define FIELD_IF_SET 1u

struct field {
	const char *name;	/* NULL ends a table */
	enum field_kind kind;
	size_t off;		/* offsetof the member in its struct */
	size_t size;		/* FIELD_TEXT: the buffer's; FIELD_NUMS: items */
	const struct field *sub;	/* FIELD_OBJECT */
	unsigned flags;		/* FIELD_IF_SET */
	long lo, hi;		/* FIELD_LONG, FIELD_INT */
};

/* struct machine ("environment") */
extern const struct field machine_fields[];
/* struct bench_stats: the figures of one metric (and of a benchmark's
   first gating metric, repeated at its top) */
extern const struct field stats_fields[];
/* struct report_rev ("base", "head"), but for "uncommitted_changes" */
extern const struct field rev_fields[];
/* struct verdict_accept ("accepted"), but for "within" */
extern const struct field accept_fields[];
/* struct run_report's "time" */
extern const struct field time_fields[];

/* The rows of f from the struct at base into object o. */
void fields_write(struct cJSON *o, const struct field *f, const void *base);
/* The rows of f from object o (NULL: all absent) into the struct at base;
   strings are kept in L. */
void fields_read(const struct cJSON *o, const struct field *f, void *base,
		 struct report_loaded *L);

#endif
