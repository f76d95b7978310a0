/*
 * Splitting a suite by its cases over the shards of gate run --shard: the
 * listing run of each harness, the dealing of the cases by name, and each
 * shard's filtered command (gate/suite-shard.h).
 */
#include "gate/suite-shard.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/adaptive.h"
#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/plan.h"
#include "gate/suite.h"
#include "stats/stats.h"
#include "common/banned.h"

#define LIST_MAX ((size_t)16 << 20)

int suite_can_list(const struct bench_cfg *cfg)
{
	return cfg->format == FORMAT_GBENCH || cfg->format == FORMAT_GOTEST ||
	       cfg->format == FORMAT_LINES;
}

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

/* s appended to out (realloc'd). */
static char *str_append(char *out, const char *s)
{
	size_t len = out ? strlen(out) : 0, n = strlen(s);

	out = xrealloc(out, len + n + 1);
	memcpy(out + len, s, n + 1);
	return out;
}

/* s in single quotes for sh, appended to out (realloc'd). */
static char *sh_append(char *out, const char *s)
{
	size_t len = out ? strlen(out) : 0, extra = 3, i;
	char *p;

	for (i = 0; s[i]; i++)
		extra += s[i] == '\'' ? 4 : 1;
	out = xrealloc(out, len + extra + 1);
	p = out + len;
	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

/*
 * The listing command of cfg's harness into out (run.argv or run.shell):
 * gbench and go one iteration of each benchmark (--benchmark_min_time=0,
 * -test.benchtime=1x), the lines protocol GATE_LIST=1 in the environment.
 */
static void list_cmd(struct command *out, const struct bench_cfg *cfg)
{
	char *flag = NULL, *sh = NULL;
	size_t i, argc = 0;
	int test_binary = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; cfg->run.argv && cfg->run.argv[i]; i++) {
		argc++;
		test_binary |= !strncmp(cfg->run.argv[i], "-test.", 6);
	}
	if (cfg->format == FORMAT_GBENCH) {
		/* one iteration of each: the names and every counter
		   (--benchmark_list_tests names no counter) */
		flag = xstrdup("--benchmark_min_time=0");
	} else if (cfg->format == FORMAT_GOTEST) {
		/* one iteration of each: the cases as they print them, with
		   their sub-benchmarks and units (-test.list names only the
		   top-level ones) */
		flag = xstrdup(test_binary ? "-test.benchtime=1x" :
			       "-benchtime=1x");
	}
	if (flag && cfg->run.argv) {
		out->argv = xcalloc(argc + 2, sizeof(char *));
		for (i = 0; i < argc; i++)
			out->argv[i] = xstrdup(cfg->run.argv[i]);
		out->argv[argc] = flag;
		return;
	}
	/* a shell, or the lines protocol: GATE_LIST=1 in the environment */
	sh = xstrdup("GATE_LIST=1; export GATE_LIST; ");
	if (cfg->run.shell) {
		sh = str_append(sh, cfg->run.shell);
	} else {
		sh = str_append(sh, "exec");
		for (i = 0; i < argc; i++)
			sh = sh_append(str_append(sh, " "), cfg->run.argv[i]);
	}
	if (flag)
		sh = sh_append(str_append(sh, " "), flag);
	free(flag);
	out->shell = sh;
}

static int have(char *const *names, size_t n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return 1;
	return 0;
}

/* Append name (len bytes) with weight w to *names, *weights (*n). */
static void add_name(char ***names, unsigned **weights, size_t *n,
		     const char *name, size_t len, unsigned w)
{
	if (have(*names, *n, name, len))
		return;
	*names = xrealloc(*names, (*n + 1) * sizeof(**names));
	*weights = xrealloc(*weights, (*n + 1) * sizeof(**weights));
	(*names)[*n] = xasprintf("%.*s", (int)len, name);
	(*weights)[(*n)++] = w;
}

/* The first word of each line of out (len bytes): the lines protocol's
   names. */
static void parse_names(char ***names, unsigned **weights, size_t *n,
			const char *out, size_t len)
{
	const char *p = out, *end = out + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *e;

		if (!eol)
			eol = end;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		e = q;
		while (e < eol && *e != ' ' && *e != '\t' && *e != '\r')
			e++;
		p = eol + 1;
		if (e == q || *q == '#')
			continue;
		add_name(names, weights, n, q, (size_t)(e - q), 1);
	}
}

/*
 * The comparisons a case of format f with units u[0..k) adds, as
 * verdict_comparisons counts them once it is a case: its time and every
 * further unit decided by an interval, one in all when only counts (exact)
 * gate; a throughput restating the time adds none.
 */
static unsigned case_weight(enum format f, const char *const *u, size_t k)
{
	size_t i, t = 0, c = 0;

	for (i = 0; i < k && i < METRIC_VALUES; i++) {
		if (i > 0 && suite_restates_time(f, u[i]))
			continue;
		if (unit_is_count(u[i]))
			c++;
		else
			t++;
	}
	return (unsigned)(t ? t : c ? 1 : 0);
}

/* A listing that printed results (go's one iteration, lines): the cases
   and their weights. 0, or -1 with why in *err when out does not parse. */
static int parse_results(char ***names, unsigned **weights, size_t *n,
			 enum format f, const char *out, size_t len,
			 struct gate_err *err)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_opts o = { 0, 1, NULL };
	const char *u[METRIC_VALUES];
	size_t i, j, k;

	o.err = err;
	if (format_parse(&t, f, out, len, "listing", &o) < 0)
		return -1;
	for (i = 0; i < t.n; i++) {
		if (have(*names, *n, t.cases[i].name,
			 strlen(t.cases[i].name)))
			continue;
		for (j = i, k = 0; j < t.n && k < METRIC_VALUES; j++)
			if (!strcmp(t.cases[j].name, t.cases[i].name))
				u[k++] = t.cases[j].unit;
		add_name(names, weights, n, t.cases[i].name,
			 strlen(t.cases[i].name), case_weight(f, u, k));
	}
	fmt_table_release(&t);
	return 0;
}

int suite_list_cases(char ***names, unsigned **weights, size_t *n,
		     const struct bench_cfg *cfg, const char *dir,
		     const char *arm, struct gate_err *err)
{
	struct command cmd;
	struct run_spec spec;
	struct run_result res;
	struct gate_err bad;
	char how[128];

	*names = NULL;
	*weights = NULL;
	*n = 0;
	list_cmd(&cmd, cfg);
	memset(&spec, 0, sizeof(spec));
	spec.cmd = &cmd;
	spec.cwd = dir;
	spec.timeout = cfg->timeout;
	spec.grace = 2;
	spec.log_fd = -1;
	spec.capture = LIST_MAX;
	memset(&res, 0, sizeof(res));
	if (run_one(&res, &spec) < 0) {
		command_release(&cmd);
		return error_to(err, "benchmark \"%s\": could not start its "
				"listing run in %s", cfg->name, arm);
	}
	command_release(&cmd);
	if (res.status != RUN_OK || res.out_overflow) {
		int rc = error_to(err, "benchmark \"%s\": the listing run of "
				  "its cases in %s %s%s%s: --shard splits a "
				  "suite by the cases its harness lists (%s)",
				  cfg->name, arm,
				  res.out_overflow ? "printed more than 16 MiB" : run_describe(&res, how, sizeof(how)),
				  *res.err_tail ? ": " : "", res.err_tail,
				  cfg->format == FORMAT_GBENCH ? "gbench: one iteration of each, " "--benchmark_min_time=0" : cfg->format == FORMAT_GOTEST ? "go: one iteration of each, -test.benchtime=1x" : "the lines protocol: each case's name when " "GATE_LIST=1 is set");
		free(res.out);
		return rc;
	}
	/* gbench, go: one iteration's results; lines: names, or results */
	if (parse_results(names, weights, n, cfg->format,
			  res.out ? res.out : "", res.out_len, &bad) < 0) {
		if (cfg->format != FORMAT_LINES) {
			free(res.out);
			return error_to(err, "benchmark \"%s\": its listing "
					"run in %s (one iteration of each "
					"benchmark, %s) did not read as %s "
					"output: %s", cfg->name, arm,
					cfg->format == FORMAT_GBENCH ? "--benchmark_min_time=0" : "-test.benchtime=1x",
					format_name(cfg->format), bad.msg);
		}
		parse_names(names, weights, n, res.out ? res.out : "",
			    res.out_len);
	}
	free(res.out);
	if (!*n)
		return error_to(err, "benchmark \"%s\": its listing run in %s "
				"printed no case: --shard splits a suite by "
				"the cases its harness lists (the lines "
				"protocol prints each case's name, one a line, "
				"when GATE_LIST=1 is set)", cfg->name, arm);
	return 0;
}

void suite_names_release(char **names, unsigned *weights, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(weights);
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
	size_t len = cfg->format == FORMAT_GOTEST ? suite_go_top(name) :
		     strlen(name);

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
			int both = have(ls->l[!a], ls->n[!a], c, strlen(c));
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
static int split_one(struct bench_cfg *cfg_out, size_t *compared,
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
	for (i = k = 0; i < r->n; i++) {
		struct run_bench *b = &r->b[i];
		const struct bench_cfg *cfg = b->run.cfg;
		size_t compared = 0, all = 0, mine = 0;
		int rc;

		/* entries are the plan's benchmarks, in order, still */
		if (!p->split[i] || b->run.cfg != &p->bench[i]) {
			r->b[k++] = *b;
			continue;
		}
		if (!quiet)
			fprintf(stderr, "gate: listing the cases of \"%s\" in "
				"each arm (shard %u/%u measures its share)\n",
				cfg->name, r->shard, r->nshards);
		rc = split_one(&own->cfg[own->n], &compared, &all, &mine, r,
			       cfg, have_rx ? &rx : NULL, &one);
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
		r->b[k++] = *b;
	}
	r->n = k;
	r->split = own->split;
	r->nsplit = own->nsplit;
	if (have_rx)
		regfree(&rx);
	return ret < 0 ? failed_last(&last, err) : 0;
}

void suite_shard_release(struct suite_shard_owned *own)
{
	size_t i;

	for (i = 0; i < own->n; i++)
		suite_filter_release(&own->cfg[i]);
	free(own->cfg);
	free(own->split);
	memset(own, 0, sizeof(*own));
}
