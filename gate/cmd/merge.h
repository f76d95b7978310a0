/*
 * gate merge's private parts (merge.c, merge-policy.c): the plan merge
 * decides by, made as gate run makes it from base's and head's gate.json
 * read from the revisions in the merging job's repository, with the
 * Gate-Accept trailers of base..head; never from what a shard's report
 * says about itself.
 */
#ifndef GATE_CMD_MERGE_H
#define GATE_CMD_MERGE_H

#include <stddef.h>

#include "gate/config/config.h"
#include "gate/decide/plan.h"
#include "gate/decide/model.h"
#include "gate/decide/verdict.h"
#include "git/repo.h"

struct merge_plan {
	struct config head, base;	/* head's gate.json (or --config) and
					   base's (when have_base) */
	int have_base;		/* base's gate.json decides the policy */
	struct plan plan;	/* plan_make(head, base): policy, removed,
				   redefined */
	struct repo_accept *acc;	/* Gate-Accept trailers of base..head */
	size_t nacc;
	struct verdict_accept *bounds;	/* acc's "+X%" ones, for deciding */
	size_t nbounds;
	char *sources_outside;	/* a tracked path base..head changes
				   outside base's "sources" (owned), or NULL;
				   valid once sources_asked */
	int sources_asked;
	struct repo *repo;	/* borrowed */
	char base_tree[REPO_HEXSZ + 1], head_tree[REPO_HEXSZ + 1];
};
#define MERGE_PLAN_INIT { .head = CONFIG_INIT, .base = CONFIG_INIT, \
			  .plan = PLAN_INIT }

/*
 * The plan of the shards' run (first: the first shard's report): base's
 * and head's gate.json read from their commits in repo (config: --config
 * FILE instead, deciding both arms as gate run's does), the trailers of
 * base..head. 0, or -1 after error() saying what to fetch or pass.
 */
int merge_plan_load(struct merge_plan *mp, struct repo *repo,
		    const struct run_report *first, const char *config);
void merge_plan_release(struct merge_plan *mp);

/*
 * Every entry of shard report r (named by who) checked against mp and
 * decided from its samples only: an entry with samples is decided again
 * (base's policy must be the one it was measured under, mp's trailers
 * give the accepted bounds) and its stored verdict must agree; one
 * without samples must be an error, new in head (base does not declare
 * it), a suite case only one arm printed, or identical as mp can check
 * (base declares artifacts, their digests agree, and base..head changes
 * nothing outside base's "sources"). A judged entry (removed, redefined)
 * is marked to be judged again by merge (run.judged 2). 0, or -1 after
 * error() naming the entry.
 */
int merge_check_shard(struct run_report *r, const char *who,
		      struct merge_plan *mp);
/*
 * The merged report m holds every benchmark and suite case base declares
 * (its "expect" patterns each matched by a case), but those mp judges
 * (removed, redefined and not measured). 0, or -1 after error().
 */
int merge_check_complete(const struct run_report *m,
			 const struct merge_plan *mp);

#endif
