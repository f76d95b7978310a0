/*
 * The arms' own rules, applied once the decision is made: a benchmark
 * head builds, checks or measures with another command than base
 * ("redefined": "build", "check", "run" or "format") or no longer
 * measures ("removed": a benchmark, or a suite case base's suite printed)
 * is a fail that names it, unless a Gate-Accept trailer of base..head
 * accepts it. A pull request cannot pass a regression by changing what
 * is measured.
 */
#ifndef GATE_ARMS_H
#define GATE_ARMS_H

#include <stddef.h>

#include "gate/decide/plan.h"
#include "gate/decide/model.h"
#include "git/repo.h"

/*
 * The trailer of kind accepting the benchmark name (fnmatch), or NULL;
 * marks it as used in used[] (n of them, parallel to acc) when not NULL.
 */
const struct repo_accept *arms_accepted(const struct repo_accept *acc,
					size_t n, int *used,
					enum accept_kind kind,
					const char *name);
/*
 * 1 when plan benchmark b is measured: not redefined, or its
 * redefinition accepted (then each arm is built, checked and run by its
 * own). A benchmark whose "format" changed, or a suite whose "run" did,
 * is never measured across the change: its arms' outputs are read
 * differently, or its filters derive from one command.
 */
int arms_measured(const struct bench_cfg *b, const struct repo_accept *acc,
		  size_t n);
/*
 * After the decision (run_measure_all): every redefinition not accepted
 * (plan benchmarks that were never measured), every benchmark of base
 * head removed, and every suite case only base printed, added to or
 * judged in r as a fail with its reason, or accepted; an accepted
 * redefinition is labelled in its note. r->suite is decided again. A
 * redefined or removed trailer that names nothing is a warning.
 */
void arms_judge(struct run_report *r, const struct plan *p,
		const struct repo_accept *acc, size_t n);

#endif
