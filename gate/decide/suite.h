/*
 * Suites in gate run: after measuring, each suite benchmark fans out into
 * one compared benchmark per case ("suite/case"), keeping the pairing (one
 * process per sample gives each case one value per arm per pair).
 */
#ifndef GATE_SUITE_H
#define GATE_SUITE_H

#include <regex.h>
#include <stddef.h>

#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/measure/measure.h"
#include "gate/measure/suite-filter.h"
#include "gate/measure/measure-suite.h"
#include "gate/decide/model.h"


struct suite_shard_owned;

/* The per-case configurations fan-out creates, and what they own. */
struct suite_owned {
	struct suite_derived **d;
	size_t n, cap;
	struct bench_run *suites;	/* the fanned-out suites, kept for
					   their rounds of more pairs */
	size_t nsuites, suites_cap;
	/* gate run --shard: each split suite's cases dealt to this shard,
	   the only ones fan-out keeps (borrowed), or NULL */
	const struct suite_shard_owned *shard;
};
#define SUITE_OWNED_INIT { 0 }

/*
 * Replace every measured suite in the entries runs[0..*n) by its cases: those in both
 * arms compared, those only in head new, only in base removed; in a shard
 * (own->shard) only the cases dealt to it, whatever the harness printed. filter
 * (POSIX ERE, or NULL) keeps matching cases; each "expect" pattern must
 * match a case head printed. A suite that fails these stays one row with
 * its error set. *runs is reallocated; released runs are freed; own keeps
 * the new configurations alive. Returns 0, or -1 when filter is invalid.
 */
int suite_fanout(struct run_bench **runs, size_t *n, struct suite_owned *own,
		 const char *filter);
struct measure_opts;
struct gate_err;
/*
 * A round of more pairs for suite case i of r, to total: the suite re-runs
 * with its harness's filter on the unresolved cases of the suite at case
 * i's look (they share its schedule), and each gets the new pairs:
 * MEASURED, MEASURE_ERROR (the cases' error set) or MEASURE_INTERRUPTED.
 */
enum measured suite_grow(struct run_report *r, size_t i, unsigned total,
			 struct suite_owned *own,
			 const struct measure_opts *opt);
/*
 * Raise suite case br's pairs to need (its first look then re-runs the
 * suite through its filter for the missing pairs): 1 when raised, 0 when
 * its harness cannot filter.
 */
int suite_raise_pairs(struct bench_run *br, unsigned need);
/* Compile --filter into rx (regfree it); 0, or -1 after error_to(err). */
int suite_filter_compile(regex_t *rx, const char *filter,
			 struct gate_err *err);
void suite_owned_release(struct suite_owned *own);

#endif
