/*
 * gate's recorded history: each record is one line of JSON in the git note
 * (refs/notes/gate) on the commit a run measured as head,
 *   {"gate_record": 1, "label": L, "recorded_at": T, "report": {...}}
 * (the report as gate run --json or gate compare --json wrote it, gate
 * run's samples dropped unless asked). One line per record, so a commit
 * recorded twice keeps both, and notes from two clones merge with
 * "git notes merge -s cat_sort_uniq". A record's report is read by the one
 * loader (gate/report/load.h, REPORT_LOAD_SUMMARY) into the run model.
 */
#ifndef GATE_HISTORY_H
#define GATE_HISTORY_H

#include <stddef.h>

#include "gate/decide/model.h"

struct repo;
struct opts_cmd;

#define HISTORY_REF "refs/notes/gate"

/* One commit's record (the newest for the label), oldest first in a list. */
struct history_step {
	char commit[41];
	char *subject;
	char *recorded_at;
	struct run_report report;	/* the record's report, loaded */
	size_t runs;		/* records for the label on this commit */
	size_t older, nolder;	/* the other records of the commit (the
				   ones this one superseded), oldest first:
				   history.older[older .. older + nolder) */
};

struct history {
	struct history_step *s;	/* oldest first */
	size_t n, cap;
	char *label;
	size_t walked;		/* commits walked, recorded or not */
	/* every record, not only each commit's newest: gate export keeps
	   them all (owned; see history_step.older) */
	struct history_step *older;
	size_t nolder, oldercap;
	/* what the notes held that is not a readable record: lines that
	   are not a gate record (not JSON, or no "gate_record"), and records
	   of the label the loader refused (each warned about) */
	size_t not_records, unreadable;
};

/* The label when --label is not given: "$RUNNER_OS-$RUNNER_ARCH" in
   GitHub Actions, else the host's name (malloc'd). */
char *history_default_label(void);
/*
 * The label a command reads or records: --label's value arg, or when not
 * given (NULL) history_default_label(); malloc'd. NULL after an error (an
 * empty name), with usage printed to stderr.
 */
char *history_label_arg(const char *arg, const struct opts_cmd *usage);

/*
 * The records for label along the first-parent chain of RANGE ("A..B", or
 * "B" for all of B's chain; NULL: HEAD). 0 or -1 after error(). A record
 * the loader cannot read is skipped with a warning.
 */
int history_load(struct history *h, struct repo *r, const char *range,
		 const char *label);
/* history_load for --label's value label_arg (history_label_arg's rule;
   usage printed when it is empty). */
int history_load_arg(struct history *h, struct repo *r, const char *range,
		     const char *label_arg, const struct opts_cmd *usage);
void history_release(struct history *h);

/* A recorded benchmark's verdict as its report names it ("removed"). */
const char *history_verdict(const struct run_bench *b);
/* Its unit. */
const char *history_unit(const struct run_bench *b);
/* Its ratio, interval and head's median: the primary metric's figures
   when the run compared it, else NULL (an identical build: see
   history_identical). */
const struct bench_stats *history_figures(const struct run_bench *b);
/* 1 when the benchmark passed unmeasured as an identical build (every
   artifact byte-identical in both arms): no change, by construction. */
int history_identical(const struct run_bench *b);
/* Head's finite positive values the record kept (gate record --samples;
   gate compare's "new" values) into out when not NULL: their number. */
size_t history_head_values(const struct run_bench *b, double *out);

#endif
