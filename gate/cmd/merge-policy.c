/*
 * gate merge decides by base's plan, not by the shards' word (merge.h):
 * base's and head's gate.json and the Gate-Accept trailers read from the
 * revisions in the merging job's repository; every entry of every shard
 * decided from its samples, and every benchmark base declares required.
 */
#include "gate/cmd/merge.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/file.h"
#include "common/seed.h"
#include "gate/config/metrics.h"
#include "gate/decide/adaptive.h"
#include "gate/decide/arms.h"
#include "gate/measure/measure.h"
#include "gate/workspace/workspace.h"
#include "common/banned.h"

#define CONFIG_MAX ((size_t)16 << 20)

/* Arm k's commit of the shards' run in repo into out. 0 or -1. */
static int resolve_arm(struct repo_rev *out, struct repo *repo,
		       const struct report_rev *rv, const char *arm)
{
	struct gate_err err = { "" };

	if (rv->dirty || !rv->commit || !*rv->commit)
		return error("the shards measured %s with uncommitted changes "
			     "(or no commit): gate merge reads gate.json from "
			     "each arm's commit; shard committed revisions",
			     arm);
	if (repo_resolve_to(out, repo, rv->commit, &err) < 0)
		return error("the shards' %s commit %.12s is not in this "
			     "repository (%s): gate merge reads base's "
			     "gate.json and the Gate-Accept trailers from it; "
			     "check out with fetch-depth: 0, or run git fetch",
			     arm, rv->commit, err.msg);
	return 0;
}

/* gate.json of tree into *cfg: 1 read, 0 none there or not valid (why
   in *why), -1 after error(). */
static int read_config(struct config *cfg, struct repo *repo,
		       const char *tree, const char *arm, const char **why)
{
	char *text = NULL, origin[64];
	size_t len = 0;
	struct gate_err invalid = { "" };

	if (repo_read_file(&text, &len, repo, tree, "gate.json", NULL) < 0)
		return error("%s's gate.json cannot be read", arm);
	if (!text) {
		*why = "has no gate.json";
		return 0;
	}
	snprintf(origin, sizeof(origin), "%s's gate.json", arm);
	if (config_parse_to(cfg, text, len, origin, &invalid) < 0) {
		warning("%s's gate.json is not valid (%s)", arm, invalid.msg);
		*why = "has no valid gate.json";
		free(text);
		return 0;
	}
	free(text);
	return 1;
}

/* The trailers' "+X%" bounds, as gate run hands them to the decision. */
static void bounds(struct merge_plan *mp)
{
	size_t i;

	mp->bounds = xcalloc(mp->nacc ? mp->nacc : 1, sizeof(*mp->bounds));
	for (i = 0; i < mp->nacc; i++) {
		if (mp->acc[i].kind != ACCEPT_BOUND)
			continue;
		mp->bounds[mp->nbounds].pattern = mp->acc[i].pattern;
		mp->bounds[mp->nbounds].bound = mp->acc[i].bound;
		mp->bounds[mp->nbounds].reason = mp->acc[i].reason;
		mp->bounds[mp->nbounds++].commit = mp->acc[i].commit;
	}
}

int merge_plan_load(struct merge_plan *mp, struct repo *repo,
		    const struct run_report *first, const char *config)
{
	struct plan_overrides ov = PLAN_OVERRIDES_INIT;
	struct repo_rev rev[2];
	const char *why = NULL, *no_base = NULL;
	struct gate_err err = { "" };
	int ret = -1, rc;

	memset(rev, 0, sizeof(rev));
	mp->repo = repo;
	if (resolve_arm(&rev[0], repo, &first->rev[0], "base") < 0 ||
	    resolve_arm(&rev[1], repo, &first->rev[1], "head") < 0)
		goto cleanup;
	memcpy(mp->base_tree, rev[0].tree, sizeof(mp->base_tree));
	memcpy(mp->head_tree, rev[1].tree, sizeof(mp->head_tree));
	if (config) {
		char *text = NULL;
		size_t len = 0;

		if (file_read(&text, &len, config, CONFIG_MAX) < 0)
			goto cleanup;
		rc = config_parse_to(&mp->head, text, len, config, &err);
		free(text);
		if (rc < 0) {
			error("%s", err.msg);
			goto cleanup;
		}
		no_base = "the --config file decides: base's gate.json is not "
			  "read";
	} else {
		if ((rc = read_config(&mp->base, repo, rev[0].tree, "base",
				      &why)) < 0)
			goto cleanup;
		mp->have_base = rc;
		if (!rc)
			no_base = "head's gate.json decides: base has none";
		if ((rc = read_config(&mp->head, repo, rev[1].tree, "head",
				      &why)) <= 0) {
			if (rc == 0)
				error("head (%.12s) %s: nothing to merge the "
				      "shards by; pass --config FILE",
				      rev[1].commit, why);
			goto cleanup;
		}
	}
	if (plan_make(&mp->plan, &mp->head, mp->have_base ? &mp->base : NULL,
		      no_base, &ov, &err) < 0) {
		error("%s", err.msg);
		goto cleanup;
	}
	if (repo_accepts(&mp->acc, &mp->nacc, repo, rev[0].commit,
			 rev[1].commit, NULL) < 0)
		goto cleanup;
	bounds(mp);
	ret = 0;
cleanup:
	repo_rev_release(&rev[0]);
	repo_rev_release(&rev[1]);
	return ret;
}

void merge_plan_release(struct merge_plan *mp)
{
	plan_release(&mp->plan);
	config_release(&mp->head);
	config_release(&mp->base);
	repo_accepts_release(mp->acc, mp->nacc);
	free(mp->bounds);
	free(mp->sources_outside);
	mp->acc = NULL;
	mp->bounds = NULL;
	mp->sources_outside = NULL;
}

/* The plan's benchmark an entry belongs to (a case: its suite), or NULL. */
static const struct bench_cfg *planned(const struct merge_plan *mp,
				       const struct bench_run *br)
{
	const char *name = br->suite_name ? br->suite_name : br->cfg->name;
	size_t i;

	for (i = 0; i < mp->plan.n; i++)
		if (!strcmp(mp->plan.bench[i].name, name))
			return &mp->plan.bench[i];
	return NULL;
}

/* Does base's gate.json declare the entry (a case: its suite)? */
static int base_declares(const struct merge_plan *mp,
			 const struct bench_run *br)
{
	const char *name = br->suite_name ? br->suite_name : br->cfg->name;

	return mp->have_base ? config_find(&mp->base, name) != NULL :
	       config_find(&mp->head, name) != NULL;
}

static int close_to(double a, double b)
{
	return a == b || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/*
 * The policy a plain benchmark was decided by (as its report says) is
 * the plan's (base's): the rule, estimate, interval, and each metric
 * with its floor and whether it gates. NULL, or what differs (static).
 */
static const char *policy_differs(const struct bench_cfg *got,
				  const struct bench_cfg *want)
{
	size_t k;

	if (got->rule != want->rule)
		return "\"rule\"";
	if (got->statistic != want->statistic)
		return "\"statistic\"";
	if (got->interval != want->interval)
		return "\"interval\"";
	if (got->nmetrics != want->nmetrics)
		return "\"metrics\"";
	for (k = 0; k < want->nmetrics; k++) {
		if (got->metrics[k].id != want->metrics[k].id)
			return "\"metrics\"";
		if (!got->metrics[k].gating != !want->metrics[k].gating)
			return "\"gate\"";
		if (!close_to(got->metrics[k].min_effect,
			      want->metrics[k].min_effect))
			return "\"min_effect\"";
	}
	return NULL;
}

/* Every pair of br has no value for arm a (the primary metric): one arm
   printed the case alone. */
static int arm_absent(const struct bench_run *br, int a)
{
	size_t i;

	for (i = 0; i < br->npairs; i++)
		if (isfinite(sample_value(&br->pairs[i].s[a], br->cfg->metric)))
			return 0;
	return 1;
}

/* A tracked path base..head changes outside base's "sources", cached in
   mp->sources_outside (NULL: none). 0 or -1. */
static int sources_outside(struct merge_plan *mp)
{
	char **paths;
	size_t n, i, k;

	if (mp->sources_asked)
		return 0;
	if (repo_tree_changes(&paths, &n, mp->repo, mp->base_tree,
			      mp->head_tree, NULL) < 0)
		return -1;
	mp->sources_asked = 1;
	for (i = 0; i < n && !mp->sources_outside; i++) {
		for (k = 0; k < mp->plan.eff.nsources &&
		     !workspace_path_under(mp->plan.eff.sources[k], paths[i]); k++)
			;
		if (k == mp->plan.eff.nsources)
			mp->sources_outside = xstrdup(paths[i]);
	}
	repo_list_free(paths, n);
	return 0;
}

/*
 * An entry passed as identical without samples: as gate run would have
 * it, base declares artifacts for it, each recorded file is one of them
 * with the same digest in both arms, and base..head changes nothing
 * outside base's "sources". NULL when it holds, else why not (owned).
 */
static char *identical_fails(struct merge_plan *mp,
			     const struct bench_cfg *pb,
			     const struct bench_run *br)
{
	size_t i, k;

	if (!pb || !pb->nartifacts)
		return xstrdup("base declares no \"artifacts\" for it");
	if (!br->nartifacts)
		return xstrdup("it records no artifacts");
	for (i = 0; i < br->nartifacts; i++) {
		const struct artifact_hash *h = &br->artifacts[i];

		for (k = 0; k < pb->nartifacts &&
		     !workspace_path_under(pb->artifacts[k], h->path); k++)
			;
		if (k == pb->nartifacts)
			return xasprintf("\"%s\" is not among base's "
					 "\"artifacts\"", h->path);
		if (!h->sha256[0][0] || strcmp(h->sha256[0], h->sha256[1]))
			return xasprintf("\"%s\" differs between the arms",
					 h->path);
	}
	if (sources_outside(mp) < 0)
		return xstrdup("the trees' differences cannot be read");
	if (mp->sources_outside)
		return xasprintf("head changes %s, which is not among base's "
				 "\"sources\"", mp->sources_outside);
	return NULL;
}

/*
 * Benchmark b of shard report r decided again into out from its samples,
 * with the analysis of the look it stopped at (gate/decide/adaptive.c's
 * look: the look's share of the run's per-comparison alpha, its seed),
 * the trailers' accepted bounds applied. Returns the verdict.
 */
static enum verdict redecide(struct bench_result *out,
			     const struct run_report *r,
			     const struct run_bench *b,
			     const struct merge_plan *mp)
{
	const struct bench_cfg *cfg = b->run.cfg;
	struct verdict_opts vo;
	size_t look = b->looks ? b->looks - 1 : 0;

	memset(out, 0, sizeof(*out));
	if (!(r->level > 0 && r->level < 1))
		return VERDICT_ERROR;
	vo.alpha = 1 - adaptive_look_level(cfg, 1 - r->level, look);
	vo.resamples = r->resamples;
	vo.seed = seed_derive(r->seed, cfg->name, look);
	vo.strict = r->strict;
	verdict_bench(out, &b->run, &vo);
	verdict_accept_bench(out, cfg->name, mp->bounds, mp->nbounds);
	return out->verdict;
}

/* One entry without samples: 0 when it may stand as stored. */
static int unmeasured(struct merge_plan *mp, const char *who,
		      struct run_bench *b, const struct bench_cfg *pb)
{
	const struct bench_run *br = &b->run;
	const char *name = br->cfg->name;
	char *why;

	if (br->error)
		return b->result.verdict == VERDICT_ERROR ? 0 :
		       error("%s says \"%s\" is %s, but it could not be "
			     "measured (%s): the report was altered; run the "
			     "shard again", who, name,
			     verdict_name(b->result.verdict), br->error);
	if (br->is_removed && br->suite_name)
		return 0;	/* a case only base printed: judged by merge */
	if (br->is_new && (br->suite_name || !base_declares(mp, br)))
		return 0;
	if (br->is_new || br->is_removed)
		return error("%s says \"%s\" is %s, but base's gate.json "
			     "declares it and head's measures it: the report "
			     "was altered; run the shard again", who, name,
			     br->is_new ? "new" : "removed");
	if (br->identical == 1) {
		if (!(why = identical_fails(mp, pb, br)))
			return b->result.verdict == VERDICT_PASS ? 0 :
			       error("%s says identical \"%s\" is %s: the "
				     "report was altered; run the shard again",
				     who, name,
				     verdict_name(b->result.verdict));
		error("%s says \"%s\" passed as an identical build, but %s: "
		      "gate run would have measured it; run the shard again",
		      who, name, why);
		free(why);
		return -1;
	}
	return error("%s says \"%s\" is %s, but holds no samples to decide "
		     "it from (gate merge takes no stored verdict or interval "
		     "on trust): the report was altered; run the shard again",
		     who, name, verdict_name(b->result.verdict));
}

int merge_check_shard(struct run_report *r, const char *who,
		      struct merge_plan *mp)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_bench *b = &r->b[i];
		struct bench_run *br = &b->run;
		const struct bench_cfg *pb = planned(mp, br);
		const char *name = br->cfg->name, *what;
		struct bench_result again;
		enum verdict v;

		if (br->judged && !br->npairs) {
			if (br->suite_name) {
				/* a case base's suite printed and head's did
				   not: merge judges it (arms_judge) */
				br->judged = 0;
				br->is_removed = 1;
			} else {
				br->judged = 2;	/* merge judges it again */
			}
			continue;
		}
		if (!br->npairs) {
			if (unmeasured(mp, who, b, pb) < 0)
				return -1;
			continue;
		}
		/* one arm alone printed a suite case: not compared */
		if (br->suite_name && ((br->is_removed && arm_absent(br, 1)) ||
				       (br->is_new && arm_absent(br, 0))))
			continue;
		if (!pb)
			return error("%s holds \"%s\", which head's gate.json "
				     "does not declare: the report was altered, "
				     "or another head's; run the shard again",
				     who, name);
		if (pb && !br->suite_name && base_declares(mp, br) &&
		    (what = policy_differs(br->cfg, pb)))
			return error("%s decided \"%s\" with another %s than "
				     "base's gate.json sets: the report was "
				     "altered, or written under another policy; "
				     "run the shard again", who, name, what);
		v = redecide(&again, r, b, mp);
		if (v != b->result.verdict) {
			error("%s says \"%s\" is %s, but its own samples give "
			      "%s: the report was altered, or written by "
			      "another gate; run the shard again", who, name,
			      verdict_name(b->result.verdict),
			      verdict_name(v));
			bench_result_release(&again);
			return -1;
		}
		bench_result_release(&b->result);
		b->result = again;
		br->is_new = br->is_removed = 0;
		br->judged = 0;
	}
	return 0;
}

/* Is there an entry of m named name, or a case of suite name? */
static int present(const struct run_report *m, const char *name, int suite)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct bench_run *br = &m->b[i].run;

		if (br->judged == 2)
			continue;
		if (!br->suite_name && !strcmp(br->cfg->name, name))
			return 1;
		if (suite && br->suite_name && !strcmp(br->suite_name, name))
			return 1;
	}
	return 0;
}

/* Suite pb's "expect" patterns (base's), each matched by one of m's cases;
   NULL, or the first pattern none matches. */
static const char *expect_missing(const struct run_report *m,
				  const struct bench_cfg *pb)
{
	size_t e, i, len = strlen(pb->name);

	for (e = 0; e < pb->nexpect; e++) {
		regex_t rx;
		int found = 0;

		if (regcomp(&rx, pb->expect[e], REG_EXTENDED | REG_NOSUB))
			return pb->expect[e];
		for (i = 0; i < m->n && !found; i++) {
			const struct bench_run *br = &m->b[i].run;

			/* the suite's row: it failed, or was not run */
			if (!br->suite_name && !strcmp(br->cfg->name, pb->name))
				found = 1;
			else if (br->suite_name &&
				 !strcmp(br->suite_name, pb->name) &&
				 !strncmp(br->cfg->name, pb->name, len) &&
				 br->cfg->name[len] == '/')
				found = !regexec(&rx, br->cfg->name + len + 1,
						 0, NULL, 0);
		}
		regfree(&rx);
		if (!found)
			return pb->expect[e];
	}
	return NULL;
}

int merge_check_complete(const struct run_report *m,
			 const struct merge_plan *mp)
{
	const struct plan *p = &mp->plan;
	size_t i;
	const char *pat;

	for (i = 0; i < p->n; i++) {
		const struct bench_cfg *pb = &p->bench[i];
		int suite = pb->format != FORMAT_TIME;

		if (mp->have_base && !config_find(&mp->base, pb->name))
			continue;	/* new in head */
		if (pb->redefined && !arms_measured(pb, mp->acc, mp->nacc))
			continue;	/* judged by merge */
		if (!present(m, pb->name, suite))
			return error("base's gate.json declares \"%s\", but no "
				     "shard's report holds it: a shard's report "
				     "was altered, or a shard ran another "
				     "plan; run the shards again", pb->name);
		if (suite && (pat = expect_missing(m, pb)))
			return error("suite \"%s\": no shard's report holds a "
				     "case matching base's \"expect\" pattern "
				     "\"%s\": a shard's report was altered; run "
				     "the shards again", pb->name, pat);
	}
	return 0;
}
