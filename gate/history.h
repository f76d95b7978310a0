/*
 * gate's recorded history: each record is one line of JSON in the git note
 * (refs/notes/gate) on the commit a run measured as head,
 *   {"gate_record": 1, "label": L, "recorded_at": T, "report": {...}}
 * (the report as gate run --json wrote it, samples dropped unless asked).
 * One line per record, so a commit recorded twice keeps both, and notes
 * from two clones merge with "git notes merge -s cat_sort_uniq".
 */
#ifndef GATE_HISTORY_H
#define GATE_HISTORY_H

#include <stddef.h>

struct repo;
struct cJSON;

#define HISTORY_REF "refs/notes/gate"

/* One benchmark's step as a record gives it (its gating metric). */
struct history_bench {
	char *name, *metric, *unit, *verdict;
	double estimate, low, high, level;	/* ratio head/base; NAN unknown */
	double floor;				/* min_effect */
	double pairs;
	double head_median;			/* head's (new's) median, NAN */
	double *head;		/* head's samples when the record kept them
				   (gate record --samples), else NULL */
	size_t nhead;
};

/* One commit's record (the newest for the label), oldest first in a list. */
struct history_step {
	char commit[41];
	char *subject;
	char *base;		/* the report's base commit ("" unknown) */
	char *suite_verdict;
	char *recorded_at;
	struct history_bench *b;
	size_t n;
	size_t runs;		/* records for the label on this commit */
};

struct history {
	struct history_step *s;	/* oldest first */
	size_t n;
	char *label;
	size_t walked;		/* commits walked, recorded or not */
};

/* The label when --label is not given: "$RUNNER_OS-$RUNNER_ARCH" in
   GitHub Actions, else the host's name (malloc'd). */
char *history_default_label(void);

/*
 * The records for label along the first-parent chain of RANGE ("A..B", or
 * "B" for all of B's chain; NULL: HEAD). 0 or -1 after error().
 */
int history_load(struct history *h, struct repo *r, const char *range,
		 const char *label);
void history_release(struct history *h);

/* Parse one record line's report into st's fields (not commit). 0 or -1. */
int history_parse_report(struct history_step *st, const struct cJSON *rep);

#endif
