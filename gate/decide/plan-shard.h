/*
 * A plan's suites split by their cases over the shards of gate run
 * --shard I/N, and gate run --list's account of them (plan-shard.c); the
 * cases a shard keeps are the suite's own (gate/decide/suite-shard.h).
 */
#ifndef GATE_PLAN_SHARD_H
#define GATE_PLAN_SHARD_H

#include <stdio.h>

#include "gate/decide/plan.h"
#include "gate/decide/model.h"
#include "gate/decide/suite-shard.h"

/*
 * In a sharded run (r->nshards), every suite entry of r that plan_shard
 * kept in every shard (p->split; call before measuring, while r's entries
 * are p's benchmarks in order) is split: listed in both arms (r->arm_dir), its
 * cases in both arms that --filter (p->filter) keeps and "ignore" does not
 * are the suite's compared cases; this shard keeps its own (an entry
 * measuring nothing here is dropped) and counts the others' in
 * r->elsewhere. "expect" is checked against head's listing. r->split
 * records each split suite's compared cases for gate merge. 0, or -1
 * after error_to(err, ...) (several failing: all but the last printed).
 */
int suite_shard(struct run_report *r, const struct plan *p,
		struct suite_shard_owned *own, int quiet,
		struct gate_err *err);
/*
 * gate run --list, once both arms are built: every listable suite of p
 * listed in both arms of r, the level with their compared cases added to
 * compared (the plan's other comparisons), and each suite's cases (new,
 * removed, filtered, ignored; the shard of each under --shard), pairs
 * and floors, on out. 0, or -1 after error_to(err, ...) (as suite_shard).
 */
int suite_list_plan(FILE *out, const struct run_report *r,
		    const struct plan *p, size_t compared,
		    struct gate_err *err);

#endif
