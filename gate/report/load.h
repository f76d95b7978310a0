/*
 * gate's JSON report read back into the run model (gate/run.h): the one
 * reader of gate reports, for gate compare today and for merging shards,
 * history and bisecting tomorrow. Writing a loaded model with report_json
 * gives the bytes it was loaded from.
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

#endif
