/*
 * gate's JSON report read back into the run model (gate/decide/model.h): the one
 * reader of gate reports, for gate compare, gate merge (shards) and the
 * history gate record keeps (gate/report/history.c). Writing a loaded model with
 * report_json gives the bytes it was loaded from.
 */
#ifndef GATE_REPORT_LOAD_H
#define GATE_REPORT_LOAD_H

#include <stddef.h>

#include "gate/report/report.h"

/*
 * Read the report text (len bytes, need not be NUL-terminated) into r,
 * which is overwritten. origin names the file in messages. Only schema
 * REPORT_SCHEMA is read: any other, or none, is refused. Returns 0, or -1
 * after one error() (r is then empty). r owns everything it points to,
 * configurations included: free it with report_load_release, never
 * run_release.
 */
int report_load(struct run_report *r, const char *text, size_t len,
		const char *origin);
/* report_load with the message in *err, not printed, when err is set. */
struct gate_err;
int report_load_to(struct run_report *r, const char *text, size_t len,
		   const char *origin, struct gate_err *err);
void report_load_release(struct run_report *r);

/*
 * What a load reads beyond a report with every sample (flags; 0: only
 * that, as gate compare and gate merge need it).
 * REPORT_LOAD_SUMMARY: benchmarks may lack "samples" (gate record drops
 *   them unless --samples); the figures stand as written and no per-pair
 *   ratio is computed again, so a printer draws no plot of them. What
 *   gate record stores, of gate run or gate compare ("command").
 */
#define REPORT_LOAD_SUMMARY 1u

/* report_load_to on a parsed report (root is only read), with flags. */
struct cJSON;
int report_load_tree(struct run_report *r, const struct cJSON *root,
		     const char *origin, unsigned flags,
		     struct gate_err *err);

/*
 * gate's own report as gate compare reads it (fmt_opts.gate_report): each
 * benchmark a case, the head arm's samples its values. 0, or -1 after
 * error_to(o->err).
 */
struct fmt_table;
struct fmt_opts;
int report_format_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o);

#endif
