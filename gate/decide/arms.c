/*
 * The arms' rules (arms.h): redefined and removed benchmarks and suite
 * cases are fails unless a Gate-Accept trailer accepts them. They are
 * judged here, after the decision, with no statistics: they take no
 * share of the correction.
 */
#include "gate/decide/arms.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/config/config-table.h"
#include "gate/decide/verdict.h"
#include "common/banned.h"

const struct repo_accept *arms_accepted(const struct repo_accept *acc,
					size_t n, int *used,
					enum accept_kind kind,
					const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (acc[i].kind == kind && !fnmatch(acc[i].pattern, name, 0)) {
			if (used)
				used[i] = 1;
			return &acc[i];
		}
	return NULL;
}

/* A change of "format" reads the arms' outputs differently. */
static int format_changed(const struct bench_cfg *b)
{
	return b->base_def && b->base_def->format != b->format;
}

/* A change of "run": what a sample runs. */
static int run_changed(const struct bench_cfg *b)
{
	return b->base_def &&
	       config_key_differs(config_key_find("run"), NULL, b->base_def,
				  NULL, b, NULL, NULL);
}

int arms_measured(const struct bench_cfg *b, const struct repo_accept *acc,
		  size_t n)
{
	if (!b->redefined)
		return 1;
	if (format_changed(b) ||
	    !arms_accepted(acc, n, NULL, ACCEPT_REDEFINED, b->name))
		return 0;
	/* a suite's filters and shards derive from one "run": measured
	   across a change of how it is built or checked only */
	return b->format == FORMAT_TIME || !run_changed(b);
}

/* res as one decided metric (cfg's first gating one) with verdict v. */
static void judged(struct bench_result *res, const struct bench_cfg *cfg,
		   enum verdict v, char *reason)
{
	struct bench_stats *st;

	bench_result_release(res);
	res->m = xcalloc(1, sizeof(*res->m));
	res->n = 1;
	res->verdict = v;
	st = &res->m[0];
	st->metric = cfg->metric;
	st->gating = 1;
	st->verdict = v;
	st->floor = cfg->min_effect;
	st->excludes = cfg->min_effect * 2;
	st->statistic = cfg->statistic;
	st->interval = cfg->interval;
	st->interval_used = cfg->interval;
	st->estimate = st->low = st->high = st->median = st->geomean = NAN;
	st->base_median = st->head_median = NAN;
	st->reason = reason;
}

/*
 * A new entry of r for cfg, judged v for reason: room for it was made by
 * arms_judge (one entry at most per benchmark the plan declares or lost).
 */
static struct run_bench *add_entry(struct run_report *r,
				   const struct bench_cfg *cfg, enum verdict v,
				   char *reason)
{
	struct run_bench *b;

	b = &r->b[r->n++];
	memset(b, 0, sizeof(*b));
	b->run.cfg = cfg;
	b->run.judged = 1;
	judged(&b->result, cfg, v, reason);
	return b;
}

/* "accepted by commit 1a2b3c4d5e (reason)" */
static char *accepted_by(const struct repo_accept *a)
{
	return xasprintf("accepted by the Gate-Accept trailer of commit "
			 "%.10s%s%s%s", a->commit, *a->reason ? " (" : "",
			 a->reason, *a->reason ? ")" : "");
}

/* A benchmark head measures with another command. */
static void judge_redefined(struct run_report *r, const struct plan *p,
			    const struct repo_accept *acc, size_t n,
			    int *used)
{
	size_t i, j;

	for (j = 0; j < p->n; j++) {
		const struct bench_cfg *b = &p->bench[j];
		const struct repo_accept *a;

		if (!b->redefined)
			continue;
		a = arms_accepted(acc, n, used, ACCEPT_REDEFINED, b->name);
		if (a && arms_measured(b, acc, n)) {
			/* measured, each arm with its own: labelled, a
			   suite's cases too */
			for (i = 0; i < r->n; i++)
				if (r->b[i].run.cfg == b ||
				    (r->b[i].run.suite_name &&
				     !strcmp(r->b[i].run.suite_name,
					     b->name))) {
					char *why = accepted_by(a);
					char *note = xasprintf("redefined (%s), "
						"%s: each arm ran its own",
						b->redefined, why);

					/* a merged shard's entry says it
					   already */
					if (!r->b[i].note ||
					    !strstr(r->b[i].note, note))
						run_bench_note(&r->b[i], note);
					free(note);
					free(why);
				}
			continue;
		}
		if (a) {
			char *why = accepted_by(a);

			add_entry(r, b, VERDICT_ACCEPTED, xasprintf(
				"redefined (%s), %s: not compared, a change "
				"of a suite's \"run\" or of a \"format\" is "
				"not measured across",
				b->redefined, why));
			free(why);
			continue;
		}
		add_entry(r, b, VERDICT_FAIL, xasprintf(
			"head %s `%s` with another command (%s): not "
			"compared; accept it with a `Gate-Accept: %s "
			"redefined <reason>` trailer", run_changed(b) ||
			format_changed(b) ? "measures" : "builds or checks",
			b->name, b->redefined, b->name));
	}
}

/* A benchmark base declares that head no longer does. */
static void judge_removed(struct run_report *r, const struct plan *p,
			  const struct repo_accept *acc, size_t n, int *used)
{
	size_t j;

	/* one shard says it: the others would list it again */
	if (p->nshards && p->shard != 1)
		return;
	for (j = 0; j < p->nremoved; j++) {
		const struct bench_cfg *b = p->removed[j];
		const struct repo_accept *a = arms_accepted(acc, n, used,
							    ACCEPT_REMOVED,
							    b->name);
		char *why = a ? accepted_by(a) : NULL;

		if (a)
			add_entry(r, b, VERDICT_ACCEPTED, xasprintf(
				"removed: base declares `%s`, head does not; "
				"%s", b->name, why));
		else
			add_entry(r, b, VERDICT_FAIL, xasprintf(
				"removed: base declares `%s`, head no longer "
				"does (a rename is a removal and a new "
				"benchmark): accept it with a `Gate-Accept: "
				"%s removed <reason>` trailer", b->name,
				b->name));
		free(why);
	}
}

/* A suite case base's suite printed and head's no longer does. */
static void judge_cases(struct run_report *r, const struct repo_accept *acc,
			size_t n, int *used)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_bench *b = &r->b[i];
		const struct repo_accept *a;
		char *why;

		if (!b->run.is_removed || !b->run.suite_name)
			continue;
		a = arms_accepted(acc, n, used, ACCEPT_REMOVED,
				  b->run.cfg->name);
		why = a ? accepted_by(a) : NULL;
		/* judged: no longer "not compared" */
		b->run.is_removed = 0;
		b->run.judged = 1;
		if (a)
			judged(&b->result, b->run.cfg, VERDICT_ACCEPTED,
			       xasprintf("removed: only base's suite printed "
					 "this case; %s", why));
		else
			judged(&b->result, b->run.cfg, VERDICT_FAIL, xasprintf(
				"removed: base's suite printed case `%s`, "
				"head's does not (a rename is a removal and a "
				"new case; base's \"ignore\" sets cases "
				"aside): accept it with a `Gate-Accept: %s "
				"removed <reason>` trailer", b->run.cfg->name,
				b->run.cfg->name));
		free(why);
	}
}

void arms_judge(struct run_report *r, const struct plan *p,
		const struct repo_accept *acc, size_t n)
{
	int *used = xcalloc(n ? n : 1, sizeof(*used));
	enum verdict *v;
	size_t i, cap = r->n;

	/* add_entry's room: at most one per redefined or removed benchmark */
	XGROW(r->b, cap, r->n + p->n + p->nremoved);
	judge_cases(r, acc, n, used);
	judge_redefined(r, p, acc, n, used);
	judge_removed(r, p, acc, n, used);
	for (i = 0; i < n; i++)
		if (acc[i].kind != ACCEPT_BOUND && !used[i])
			warning("the Gate-Accept trailer of commit %.10s "
				"accepts \"%s\" as %s, but nothing of that "
				"name is %s in this run", acc[i].commit,
				acc[i].pattern, acc[i].kind == ACCEPT_REMOVED ?
				"removed" : "redefined",
				acc[i].kind == ACCEPT_REMOVED ? "removed" :
				"redefined");
	free(used);
	v = xcalloc(r->n ? r->n : 1, sizeof(*v));
	for (i = 0; i < r->n; i++)
		v[i] = r->b[i].result.verdict;
	r->suite = verdict_suite(v, r->n);
	free(v);
}
