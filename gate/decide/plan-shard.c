/*
 * A plan's suites split by their cases over the shards of gate run
 * --shard: the dealing of the cases (listed by suite-shard.c in both arms)
 * by name, each shard's filtered command, and --list's account
 * (gate/decide/plan-shard.h).
 */
#include "gate/decide/plan-shard.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/decide/adaptive.h"
#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/decide/plan.h"
#include "gate/decide/suite.h"
#include "gate/decide/suite-shard.h"
#include "gate/decide/verdict.h"
#include "stats/stats.h"
#include "common/banned.h"

/* FNV-1a 64 of s. */
static uint64_t fnv1a(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* Does name match one of the n patterns? (compiled by the config loader) */
static int any_match(char *const *pat, size_t n, const char *name)
{
	size_t e;
	int hit = 0;

	for (e = 0; e < n && !hit; e++) {
		regex_t rx;

		if (regcomp(&rx, pat[e], REG_EXTENDED | REG_NOSUB))
			continue;
		hit = !regexec(&rx, name, 0, NULL, 0);
		regfree(&rx);
	}
	return hit;
}

/* Each "expect" pattern of cfg matches a name head listed. 0 or -1. */
static int check_expect(const struct bench_cfg *cfg, char *const *names,
			size_t n, struct gate_err *err)
{
	size_t e, i;

	for (e = 0; e < cfg->nexpect; e++) {
		int found = 0;

		for (i = 0; i < n && !found; i++)
			found = any_match(&cfg->expect[e], 1, names[i]);
		if (!found)
			return error_to(err, "benchmark \"%s\": no case head's "
					"harness lists matches \"expect\" "
					"pattern \"%s\": a case was dropped or "
					"renamed (head listed %zu cases)",
					cfg->name, cfg->expect[e], n);
	}
	return 0;
}

/* Where a listed case stands. */
enum listed {
	LISTED_BOTH,		/* compared */
	LISTED_NEW,		/* head only */
	LISTED_REMOVED,		/* base only */
	LISTED_FILTERED,	/* not matching --filter */
	LISTED_IGNORED		/* "ignore" sets it aside */
};

/* The cases both arms' harnesses list, each with where it stands. */
struct listing {
	char **l[2];		/* by enum arm */
	unsigned *w[2];		/* each case's comparisons */
	size_t n[2];
	const char **name;	/* every case once: base's, then head's own */
	enum listed *how;
	unsigned *weight;	/* each case's comparisons */
	unsigned *shard;	/* --shard: each case's (1-based), 0 for one
				   not compared nor shown */
	size_t count;
	size_t compared;	/* LISTED_BOTH */
	size_t comparisons;	/* their weights' sum */
};

static void listing_release(struct listing *ls)
{
	size_t a;

	for (a = 0; a < 2; a++)
		suite_names_release(ls->l[a], ls->w[a], ls->n[a]);
	free(ls->name);
	free(ls->how);
	free(ls->weight);
	free(ls->shard);
	memset(ls, 0, sizeof(*ls));
}

static int by_string(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* What the harness's filter selects a case by: go's top-level name. */
static char *group_of(const struct bench_cfg *cfg, const char *name)
{
	const struct format_reader *r = format_reader(cfg->format);
	size_t len = r->group ? r->group(name) : strlen(name);

	return xasprintf("%.*s", (int)len, name);
}

/*
 * Deal ls's cases (all but filtered and ignored ones) over n shards by
 * what the harness's filter selects (a go benchmark with its
 * sub-benchmarks goes whole): in byte order, in turn, from the shard a
 * hash of the suite's name picks (so small suites do not all start at
 * shard 1). Balanced within one per suite; a case keeps its shard while
 * the set of listed names does.
 */
static void deal(struct listing *ls, const struct bench_cfg *cfg, unsigned n)
{
	char **group = xcalloc(ls->count + 1, sizeof(*group));
	char **sorted = xcalloc(ls->count + 1, sizeof(*sorted));
	size_t i, k, m = 0, distinct = 0;
	unsigned first = (unsigned)(fnv1a(cfg->name) % n);

	ls->shard = xcalloc(ls->count + 1, sizeof(*ls->shard));
	for (i = 0; i < ls->count; i++) {
		group[i] = group_of(cfg, ls->name[i]);
		if (ls->how[i] != LISTED_FILTERED &&
		    ls->how[i] != LISTED_IGNORED)
			sorted[m++] = group[i];
	}
	qsort(sorted, m, sizeof(*sorted), by_string);
	for (i = 0; i < m; i++)		/* each group once */
		if (!distinct || strcmp(sorted[distinct - 1], sorted[i]))
			sorted[distinct++] = sorted[i];
	for (i = 0; i < ls->count; i++) {
		if (ls->how[i] == LISTED_FILTERED ||
		    ls->how[i] == LISTED_IGNORED)
			continue;
		for (k = 0; k < distinct && strcmp(sorted[k], group[i]); k++)
			;
		ls->shard[i] = (unsigned)((first + k) % n) + 1;
	}
	for (i = 0; i < ls->count; i++)
		free(group[i]);
	free(group);
	free(sorted);
}

/* The weight of case c in arm a of ls (0 when a does not list it). */
static unsigned weight_in(const struct listing *ls, size_t a, const char *c)
{
	size_t i;

	for (i = 0; i < ls->n[a]; i++)
		if (!strcmp(ls->l[a][i], c))
			return ls->w[a][i];
	return 0;
}

/*
 * List cfg's cases in both arms of r, classify them, and (r sharded) deal
 * them over the shards. 0 or -1.
 */
static int listing_make(struct listing *ls, const struct run_report *r,
			const struct bench_cfg *cfg, const regex_t *filter,
			struct gate_err *err)
{
	size_t a, i;

	memset(ls, 0, sizeof(*ls));
	for (a = 0; a < 2; a++)
		if (suite_list_cases(&ls->l[a], &ls->w[a], &ls->n[a], cfg,
				     r->arm_dir[a],
				     arm_name((enum arm)a), err) < 0)
			return -1;
	ls->name = xcalloc(ls->n[0] + ls->n[1] + 1, sizeof(*ls->name));
	ls->how = xcalloc(ls->n[0] + ls->n[1] + 1, sizeof(*ls->how));
	ls->weight = xcalloc(ls->n[0] + ls->n[1] + 1, sizeof(*ls->weight));
	/* every case either arm lists (new and removed ones are shown) */
	for (a = 0; a < 2; a++) {
		for (i = 0; i < ls->n[a]; i++) {
			const char *c = ls->l[a][i];
			int both = suite_names_have(ls->l[!a], ls->n[!a], c,
						    strlen(c));
			enum listed how;

			if (a == ARM_HEAD && both)
				continue;	/* counted with base's */
			if (filter && regexec(filter, c, 0, NULL, 0))
				how = LISTED_FILTERED;
			else if (any_match(cfg->ignore, cfg->nignore, c))
				how = LISTED_IGNORED;
			else if (both)
				how = LISTED_BOTH;
			else
				how = a == ARM_HEAD ? LISTED_NEW :
				      LISTED_REMOVED;
			if (how == LISTED_BOTH) {
				/* its units in either arm, as fan-out joins
				   them */
				unsigned wb = weight_in(ls, ARM_BASE, c);
				unsigned wh = weight_in(ls, ARM_HEAD, c);

				ls->weight[ls->count] = wb > wh ? wb : wh;
				ls->compared++;
				ls->comparisons += ls->weight[ls->count];
			}
			ls->name[ls->count] = c;
			ls->how[ls->count++] = how;
		}
	}
	if (r->nshards)
		deal(ls, cfg, r->nshards);
	return 0;
}

/*
 * Split entry i of r: its own cases into *cfg_out (0), or 1 when this
 * shard has none of them; *compared the suite's compared cases, *all and
 * *mine their comparisons in all shards and in this one. -1 after
 * error().
 */
static int split_one(struct bench_cfg *cfg_out,
		     struct suite_shard_cases *keep, size_t *compared,
		     size_t *all, size_t *mine_compared,
		     const struct run_report *r, const struct bench_cfg *cfg,
		     const regex_t *filter, struct gate_err *err)
{
	struct listing ls;
	const char **mine = NULL;
	size_t nmine = 0, i;
	int ret = -1;

	if (listing_make(&ls, r, cfg, filter, err) < 0 ||
	    check_expect(cfg, ls.l[ARM_HEAD], ls.n[ARM_HEAD], err) < 0)
		goto out;
	*compared = ls.compared;
	*all = ls.comparisons;
	*mine_compared = 0;
	mine = xcalloc(ls.count + 1, sizeof(*mine));
	for (i = 0; i < ls.count; i++) {
		if (ls.shard[i] != r->shard)
			continue;
		*mine_compared += ls.weight[i];
		mine[nmine++] = ls.name[i];
	}
	ret = 1;
	if (nmine) {
		suite_shard_cmd(cfg_out, cfg, mine, nmine);
		keep->suite = cfg->name;
		keep->group = format_reader(cfg->format)->group;
		keep->names = xcalloc(nmine, sizeof(*keep->names));
		for (keep->n = 0; keep->n < nmine; keep->n++)
			keep->names[keep->n] = xstrdup(mine[keep->n]);
		/* head's listing answered "expect" for every shard */
		cfg_out->expect = NULL;
		cfg_out->nexpect = 0;
		ret = 0;
	}
out:
	free(mine);
	listing_release(&ls);
	return ret;
}

/* One listed suite of --list: its comparisons, pairs and cases. */
static void listing_print(FILE *out, const struct run_report *r,
			  const struct plan *p, const struct bench_cfg *cfg,
			  const struct listing *ls, double level)
{
	static const char *const how_name[] = {
		"", " (new: head only)", " (removed: base only)",
		" (not matching --filter)", " (set aside by \"ignore\")"
	};
	unsigned need = adaptive_min_pairs(cfg, 1 - level);
	size_t k;

	fprintf(out, "%s: %zu case%s compared (%zu comparison%s), "
		"pairs %u..%u", cfg->name, ls->compared,
		ls->compared == 1 ? "" : "s", ls->comparisons,
		ls->comparisons == 1 ? "" : "s", cfg->pairs, cfg->max_pairs);
	if (need > cfg->pairs)
		fprintf(out, ", at least %u pairs for an interval at "
			"this level (raised)", need);
	fputc('\n', out);
	for (k = 0; k < ls->count; k++) {
		fprintf(out, "  %s/%s%s", cfg->name, ls->name[k],
			how_name[ls->how[k]]);
		if (r->nshards && ls->how[k] != LISTED_FILTERED &&
		    ls->how[k] != LISTED_IGNORED)
			fprintf(out, ", shard %u/%u", ls->shard[k],
				r->nshards);
		fputc('\n', out);
	}
	if (cfg->nmetrics)
		fprintf(out, "  each case: value %s, floor %+.1f%%, "
			"pass_excludes %+.1f%%; its further units "
			"(counters) as its harness prints them\n",
			cfg->metrics[0].gating ? "gating" : "informational",
			cfg->metrics[0].min_effect * 100,
			(p->strict ? cfg->metrics[0].min_effect :
			 cfg->metrics[0].pass_excludes) * 100);
}

/*
 * One suite's failure among several: the one before is printed now, in
 * order, and the last is kept for the caller (failed_last).
 */
static void failed_next(struct gate_err *last, const struct gate_err *now)
{
	if (last->msg[0])
		error("%s", last->msg);
	*last = *now;
}

/* The last failure: into err, or printed when err is NULL. -1. */
static int failed_last(const struct gate_err *last, struct gate_err *err)
{
	if (err)
		*err = *last;
	else
		error("%s", last->msg);
	return -1;
}

int suite_list_plan(FILE *out, const struct run_report *r,
		    const struct plan *p, size_t compared,
		    struct gate_err *err)
{
	struct listing *ls;
	struct gate_err last = { "" }, one;
	regex_t rx;
	int have_rx = 0, ret = 0;
	size_t i;
	double level;

	if (p->filter) {
		if (suite_filter_compile(&rx, p->filter, NULL) < 0)
			return -1;
		have_rx = 1;
	}
	ls = xcalloc(p->n + 1, sizeof(*ls));
	for (i = 0; i < p->n; i++) {
		const struct bench_cfg *cfg = &p->bench[i];

		if (cfg->format == FORMAT_TIME || !suite_can_list(cfg))
			continue;
		if (listing_make(&ls[i], r, cfg, have_rx ? &rx : NULL,
				 &one) < 0) {
			failed_next(&last, &one);
			ret = -1;
			continue;
		}
		compared += ls[i].comparisons;
	}
	if (ret < 0) {
		failed_last(&last, err);
		goto out;
	}
	level = stats_bonferroni(p->confidence, compared ? compared : 1);
	fprintf(out, "with the suites' cases (listed in the built arms): %zu "
		"comparison%s; one-sided level %.4g%% per comparison\n",
		compared, compared == 1 ? "" : "s", level * 100);
	for (i = 0; i < p->n; i++)
		if (ls[i].name)
			listing_print(out, r, p, &p->bench[i], &ls[i], level);
out:
	for (i = 0; i < p->n; i++)
		listing_release(&ls[i]);
	free(ls);
	if (have_rx)
		regfree(&rx);
	return ret;
}

int suite_shard(struct run_report *r, const struct plan *p,
		struct suite_shard_owned *own, int quiet, struct gate_err *err)
{
	struct gate_err last = { "" }, one;
	regex_t rx;
	int have_rx = 0, ret = 0;
	size_t i, k;

	if (!r->nshards || !p->split)
		return 0;
	for (i = 0; i < r->n && !p->split[i]; i++)
		;
	if (i == r->n)
		return 0;
	if (p->filter) {
		if (suite_filter_compile(&rx, p->filter, NULL) < 0)
			return -1;
		have_rx = 1;
	}
	own->cfg = xcalloc(r->n, sizeof(*own->cfg));
	own->split = xcalloc(r->n, sizeof(*own->split));
	own->mine = xcalloc(r->n, sizeof(*own->mine));
	for (i = k = 0; i < r->n; i++) {
		struct run_bench *b = &r->b[i];
		const struct bench_cfg *cfg = b->run.cfg;
		size_t compared = 0, all = 0, mine = 0;
		int rc;

		/* an identical build: one row (gate/cmd/run.c), in the one
		   shard a hash of its name picks, counted in the others */
		if (p->split[i] && b->run.identical == 1 &&
		    fnv1a(cfg->name) % r->nshards + 1 != r->shard) {
			r->elsewhere += verdict_comparisons(cfg);
			bench_run_release(&b->run);
			free(b->note);
			continue;
		}
		/* entries are the plan's benchmarks, in order, still */
		if (!p->split[i] || b->run.cfg != &p->bench[i]) {
			r->b[k++] = *b;
			continue;
		}
		if (!quiet)
			fprintf(stderr, "gate: listing the cases of \"%s\" in "
				"each arm (shard %u/%u measures its share)\n",
				cfg->name, r->shard, r->nshards);
		rc = split_one(&own->cfg[own->n], &own->mine[own->nmine],
			       &compared, &all, &mine, r, cfg,
			       have_rx ? &rx : NULL, &one);
		if (rc < 0) {
			failed_next(&last, &one);
			ret = -1;
			r->b[k++] = *b;
			continue;
		}
		own->split[own->nsplit].suite = cfg->name;
		own->split[own->nsplit++].cases = compared;
		r->elsewhere += all - mine;
		if (rc == 1) {
			/* none of its cases here: not measured, not shown */
			bench_run_release(&b->run);
			free(b->note);
			continue;
		}
		b->run.cfg = &own->cfg[own->n++];
		own->nmine++;
		r->b[k++] = *b;
	}
	r->n = k;
	r->split = own->split;
	r->nsplit = own->nsplit;
	if (have_rx)
		regfree(&rx);
	return ret < 0 ? failed_last(&last, err) : 0;
}
