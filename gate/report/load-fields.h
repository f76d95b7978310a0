/*
 * The JSON report's fields, declared once: for each struct of the run
 * model a table of rows { JSON name, kind, offset }, which json.c walks
 * to write the struct and load*.c to read it back, so every field written
 * is read under the same name into the same member. A field whose value
 * is computed (a sentence, a label) is a FIELD_SAID row naming the function
 * that computes it: written for readers, never read back.
 *
 * Adding a field: add a row to its struct's table (fields.c), in the place
 * it is to be written; tests/gate/report/test-load-fields.c checks that every
 * row round-trips.
 */
#ifndef GATE_REPORT_LOAD_FIELDS_H
#define GATE_REPORT_LOAD_FIELDS_H

#include <stddef.h>

struct cJSON;
struct loading;

enum field_kind {
	FIELD_TEXT,	/* char[size]; absent: "unknown" */
	FIELD_STR,	/* const char *: NULL written as "", absent read as "" */
	FIELD_STR_OR_NULL,	/* const char *: NULL written and read as null */
	FIELD_NUM,	/* double: not finite written as null; absent: NaN */
	FIELD_NUM0,	/* FIELD_NUM, but absent or null reads 0 */
	FIELD_COUNT,	/* size_t; absent: 0 */
	FIELD_UNSIGNED,	/* unsigned within [lo, hi], written at least lo;
			   absent: lo */
	FIELD_LONG,	/* long within [lo, hi]; absent: lo */
	FIELD_INT,	/* int within [lo, hi]: lo means unknown, written null */
	FIELD_BOOL,	/* int, 0 or 1 */
	FIELD_ENUM,	/* an enum of hi values written by name_of's names;
			   absent: lo; an unknown name is an error */
	FIELD_NUMS,	/* double[size]: absent items read -1 */
	FIELD_OBJECT,	/* an object of sub's rows, of the struct at off */
	FIELD_TRUE,	/* always true (a constant of the schema); not read */
	FIELD_SAID,	/* said(base), NULL: omitted; without said the text
			   what (a constant of the schema); not read */
	FIELD_STRS,	/* const char *[count]: a list of strings */
	FIELD_LIST,	/* count structs of size bytes, each an object of sub's
			   rows (FIELD_OWN: xcalloc'd, else the load's) */
};

#define FIELD_IF_SET 1u	/* omitted when NULL, 0 or empty, and read back so */
#define FIELD_UNREAD 2u	/* written (again) for readers, not read back */
#define FIELD_KEEP 4u	/* absent: the member keeps what the loader set */
#define FIELD_OWN 8u	/* a string the struct owns (xstrdup), not the load */
#define FIELD_VIA 16u	/* a member of the struct the pointer at via points to */
#define FIELD_NULL0 32u	/* FIELD_NUM0, _TEXT: 0 or "" written as null */
#define FIELD_RUN 64u	/* a FIELD_SAID of struct run_report's that only
			   gate run's reports say (omitted when command) */

struct field {
	const char *name;	/* NULL ends a table */
	enum field_kind kind;
	size_t off;		/* offsetof the member in its struct */
	unsigned flags;		/* FIELD_IF_SET, ... */
	size_t size;		/* FIELD_TEXT: the buffer's; FIELD_NUMS: items;
				   FIELD_LIST: an item's */
	const struct field *sub;	/* FIELD_OBJECT, FIELD_LIST */
	long lo, hi;		/* FIELD_UNSIGNED, _LONG, _INT, _ENUM */
	const char *(*name_of)(int);	/* FIELD_ENUM */
	const char *what;	/* FIELD_ENUM: what it is, for messages;
				   FIELD_SAID: the constant text */
	size_t via;		/* FIELD_VIA: offsetof that pointer */
	struct cJSON *(*said)(const void *base);	/* FIELD_SAID */
	size_t count;		/* FIELD_STRS, _LIST: offsetof its size_t count */
};

/* struct machine ("environment") */
extern const struct field machine_fields[];
/* struct bench_stats: the figures of one metric (and of a benchmark's
   first gating metric, repeated at its top) */
extern const struct field stats_fields[];
/* struct bench_stats: an entry of "metrics": its verdict (after its
   name, unit and direction), and the facts of its method (after its
   floor and the method's sentence) */
extern const struct field metric_verdict_fields[];
extern const struct field metric_method_fields[];
/* struct run_report's "shard" */
extern const struct field shard_fields[];
/* struct report_rev ("base", "head") */
extern const struct field rev_fields[];
/* struct verdict_accept ("accepted"), but for "within" */
extern const struct field accept_fields[];
/* struct pair_result: a sample's time, CPU time and RSS per arm (its
   metric's values and cache events are written by hand) */
extern const struct field pair_fields[];
/* struct run_bench: a benchmark's protocol (floor, pairs, rule), but for
   its looks and how it stopped */
extern const struct field bench_protocol_fields[];
/* struct run_bench: how its samples were taken, but for the sentence */
extern const struct field bench_taken_fields[];
/* struct run_report's "time" */
extern const struct field time_fields[];
/* struct run_report: the report's root, but for "schema", "gate_version",
   "verdict", "signal" and "benchmarks"; its
   "protocol", but for "shard", "exact_tolerance" and "conditions" */
extern const struct field report_fields[];
extern const struct field protocol_fields[];
/* struct bench_run's "parity", and "artifacts" (but for reading back
   "identical" and "measured") */
extern const struct field parity_fields[];
extern const struct field artifacts_fields[];

/* v under k in o, or null when it is not finite (JSON has no NaN). */
void fields_num(struct cJSON *o, const char *k, double v);
/* The rows of f from the struct at base into object o. */
void fields_write(struct cJSON *o, const struct field *f, const void *base);
/* The rows of f from object o (NULL: all absent) into the struct at base;
   strings are kept by the load, an unknown name fails it. */
void fields_read(const struct cJSON *o, const struct field *f, void *base,
		 struct loading *ld);

#endif
