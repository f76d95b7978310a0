/*
 * gate bisect: find the commit that made a benchmark slower. Confirms the
 * regression with a paired run of --good against --bad, then binary-
 * searches the first-parent commits between them, each step a paired run
 * (gate run's pipeline, in process, with its adaptive pairs and --budget)
 * of the current good endpoint against the middle commit. Every run, the
 * confirming one too, is bad only when it shows a regression of the floor
 * and good only when it excludes one (verdict_bisect_call); in between it
 * runs again with more pairs, then says it could not confirm or separate.
 * A commit that cannot be built or measured is skipped, as git bisect
 * skip does.
 */
#include "gate/cmd/cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/escape.h"
#include "gate/exec/signals.h"
#include "gate/config/options.h"
#include "gate/decide/model.h"
#include "gate/decide/verdict.h"
#include "git/repo.h"
#include "common/banned.h"


/* In the order a step of several benchmarks takes the worst of them. */
enum outcome { OUT_GOOD, OUT_UNSURE, OUT_SKIP, OUT_BAD };

/* What one step's run said about the benchmark(s) bisect decides on. */
struct step {
	const char *benchmark;	/* --benchmark, or the one the confirming
				   run failed on; NULL in that run */
	int found;		/* the benchmark was in the run */
	enum outcome out;	/* verdict_bisect_call's, the worst of the
				   benchmarks decided on */
	char name[128];		/* the deciding benchmark */
	int identical;		/* its build was byte-identical in both arms */
	int exact;		/* its counts decided exactly (no interval) */
	unsigned pairs;		/* pairs measured */
	double estimate, low, high;
	double floor;		/* its floor: bad shows, good excludes
				   1 + floor */
};

struct bisect_opts {
	const char *good, *bad, *benchmark, *budget, *pairs, *config, *seed;
	int quiet;
	char decide[128];	/* the benchmark the search decides on */
};

/* The figures quoted for b: its primary metric's, or none (zeroed). */
static const struct bench_stats *quoted(const struct run_bench *b)
{
	static const struct bench_stats none;
	const struct bench_stats *p = run_bench_primary(b);

	return p ? p : &none;
}

static void take(struct step *s, const struct run_bench *b,
		 const char *name)
{
	const struct bench_stats *p = quoted(b);

	snprintf(s->name, sizeof(s->name), "%s", name);
	s->identical = b->run.identical == 1;
	s->exact = p->exact;
	s->pairs = (unsigned)b->run.npairs;
	s->estimate = p->estimate;
	s->low = p->low;
	s->high = p->high;
	s->floor = p->floor;
}

/*
 * run_inspect_fn: each benchmark decided on read by verdict_bisect_call,
 * and the step the worst of them: bad when any shows the regression, good
 * only when every one excludes it. Its figures are the first of the worst.
 */
static void inspect(const struct run_report *r, void *arg)
{
	static const enum outcome of[] = {
		[BISECT_GOOD] = OUT_GOOD, [BISECT_BAD] = OUT_BAD,
		[BISECT_UNSURE] = OUT_UNSURE, [BISECT_SKIP] = OUT_SKIP,
	};
	struct step *s = arg;
	size_t i;

	/* nothing compared is nothing shown nor excluded */
	s->out = OUT_SKIP;
	for (i = 0; i < r->n; i++) {
		const struct run_bench *b = &r->b[i];
		const struct bench_stats *p = quoted(b);
		const char *name = b->run.cfg ? b->run.cfg->name : "";
		enum outcome out;

		if (s->benchmark && strcmp(name, s->benchmark))
			continue;
		if (b->result.verdict == VERDICT_NEW)
			continue;
		out = of[verdict_bisect_call(b->result.verdict, p->low, p->high,
					     b->run.identical == 1,
					     p->floor)];
		if (!s->found || out > s->out) {
			take(s, b, name);
			s->out = out;
		}
		s->found = 1;
	}
}

/* One paired run of base against head. 0, -1 when the run failed on
   something other than head (the --benchmark missing), or the exit code
   (128 + signal, > 0) when a signal stopped it: gate run has stopped its
   children and released the workspace by then. */
static int step_run(struct step *s, struct gate_ctx *ctx,
		    const struct bisect_opts *o, const char *base,
		    const char *head, unsigned more_pairs)
{
	char *argv[20], npairs[16];
	int argc = 0, code;

	argv[argc++] = (char *)"run";
	argv[argc++] = (char *)"--base";
	argv[argc++] = (char *)base;
	argv[argc++] = (char *)"--head";
	argv[argc++] = (char *)head;
	argv[argc++] = (char *)"-q";
	if (o->budget) {
		argv[argc++] = (char *)"--budget";
		argv[argc++] = (char *)o->budget;
	}
	if (more_pairs) {
		snprintf(npairs, sizeof(npairs), "%u", more_pairs);
		argv[argc++] = (char *)"--pairs";
		argv[argc++] = npairs;
	} else if (o->pairs) {
		argv[argc++] = (char *)"--pairs";
		argv[argc++] = (char *)o->pairs;
	}
	if (o->config) {
		argv[argc++] = (char *)"--config";
		argv[argc++] = (char *)o->config;
	}
	if (o->seed) {
		argv[argc++] = (char *)"--seed";
		argv[argc++] = (char *)o->seed;
	}
	argv[argc] = NULL;
	memset(s, 0, sizeof(*s));
	s->benchmark = o->decide[0] ? o->decide : o->benchmark;
	s->estimate = s->low = s->high = NAN;
	s->out = OUT_SKIP;
	if (signals_pending())
		return signals_exit_code(signals_pending());
	code = cmd_run_inspect(argc, argv, ctx, inspect, s);
	if (code > EXIT_ERROR || signals_pending())
		return signals_pending() ?
		       signals_exit_code(signals_pending()) : code;
	if (code == EXIT_ERROR) {
		s->out = OUT_SKIP;
		return 0;
	}
	if (s->benchmark && !s->found)
		return error("no benchmark \"%s\" in the run of %.12s against "
			     "%.12s: name one gate.json declares (or a suite "
			     "case)", s->benchmark, head, base), -1;
	return 0;
}

static void pct(char *buf, size_t size, double ratio)
{
	if (isfinite(ratio))
		snprintf(buf, size, "%+.1f%%", (ratio - 1) * 100);
	else
		snprintf(buf, size, "?");
}

static const char *outcome_name(enum outcome o)
{
	static const char *const names[] = {
		[OUT_GOOD] = "good", [OUT_BAD] = "bad",
		[OUT_SKIP] = "skipped (cannot build or measure)",
		[OUT_UNSURE] = ("unsure (neither excludes nor shows a "
				"regression of the floor)") };

	return names[o];
}

/* "roundtrip +4.7% (+1.3% .. +8.6%, 20 pairs)" */
static void figures(char *buf, size_t size, const struct step *s)
{
	char e[32], lo[32], hi[32];

	pct(e, sizeof(e), s->estimate);
	pct(lo, sizeof(lo), s->low);
	pct(hi, sizeof(hi), s->high);
	snprintf(buf, size, "%s %s (%s .. %s, %u pairs)", s->name, e, lo, hi,
		 s->pairs);
}

/*
 * A commit's subject and author are whatever its author wrote: an ESC
 * sequence (a title, a cleared screen) or a newline forging a line of
 * gate's own must reach the terminal escaped, on one line.
 */
static int commit_info(struct repo *repo, const char *commit, char **subject,
		       char **author, char **parent)
{
	char *t;

	if (repo_commit_info(repo, commit, subject, author, parent) < 0)
		return -1;
	t = escape_str(ESCAPE_TERM_LINE, *subject);
	free(*subject);
	*subject = t;
	t = escape_str(ESCAPE_TERM_LINE, *author);
	free(*author);
	*author = t;
	return 0;
}

static void say_step(const struct bisect_opts *o, struct repo *repo,
		     unsigned n, const char *base, const char *head,
		     const struct step *s)
{
	char *subject = NULL, *author = NULL, f[256];

	if (o->quiet)
		return;
	if (commit_info(repo, head, &subject, &author, NULL) < 0)
		return;
	figures(f, sizeof(f), s);
	fprintf(stderr, "gate: step %u: %.12s (%s) against %.12s: %s", n, head,
		subject, base, outcome_name(s->out));
	if (s->identical)
		fprintf(stderr, ", %s identical build (nothing measured)",
			s->name);
	else if (s->name[0] && s->out != OUT_SKIP)
		fprintf(stderr, ", %s", f);
	fputc('\n', stderr);
	free(subject);
	free(author);
}

#define B struct bisect_opts
static const struct opt bisect_rows[] = {
	OPT_NEEDED("good", "REV", B, good, "a revision without the "
		   "regression", "<rev>"),
	OPT_NEEDED("bad", "REV", B, bad, "a later revision with it "
		   "(first-parent descendant)", "<rev>"),
	OPT_STRING("benchmark", "NAME", B, benchmark, "decide on this "
		   "benchmark (or suite case) only (default: a step is bad "
		   "when any benchmark fails)", NULL),
	OPT_STRING("budget", "TIME", B, budget, "measuring time per step (as "
		   "gate run's); a noisy step takes more pairs within it",
		   NULL),
	OPT_STRING("pairs", "N", B, pairs,
		   "pairs per benchmark and step, overriding gate.json", NULL),
	OPT_STRING("config", "FILE", B, config,
		   "read this gate.json instead of each commit's", "<file>"),
	OPT_STRING("seed", "N", B, seed, "seed of every step's pair order",
		   NULL),
	OPT_FLAG('q', "quiet", B, quiet, "no line per step on stderr"),
};
#undef B

const struct opts_cmd cmd_bisect_opts = {
	.name = "bisect",
	.repo = 1,
	.rows = bisect_rows,
	.n = sizeof(bisect_rows) / sizeof(bisect_rows[0]),
	.footer = "exit: 1 culprit found, 2 only a range (an unsure step, or "
		  "skipped\ncommits) or the regression neither confirmed nor "
		  "excluded at the\nbad end, 0 the regression does not "
		  "reproduce (excluded), 3 error,\n128 + the signal when "
		  "interrupted (130 for Ctrl-C)\n",
};

static int resolve(char *out, struct repo *repo, const char *spec)
{
	struct repo_rev rev = REPO_REV_INIT;

	if (repo_resolve(&rev, repo, spec) < 0)
		return -1;
	memcpy(out, rev.commit, REPO_HEXSZ + 1);
	repo_rev_release(&rev);
	return 0;
}

/* The untested, unskipped commit nearest the middle of (lo, hi), or -1. */
static long pick_mid(long lo, long hi, const char *skipped)
{
	long mid = lo + (hi - lo) / 2, d;

	for (d = 0; d < hi - lo; d++) {
		if (mid + d < hi && mid + d > lo && !skipped[mid + d])
			return mid + d;
		if (mid - d > lo && mid - d < hi && !skipped[mid - d])
			return mid - d;
	}
	return -1;
}

/* Stopped by a signal (exit code rc) during step steps + 1: what is
   proven so far, on stderr, as gate run and gate compare say it. */
static int interrupted(int rc, unsigned steps, const char *lo,
		       const char *hi, double start)
{
	if (!steps)
		error("interrupted by signal %d during step 1, the run that "
		      "confirms %.12s is slower than %.12s: nothing proven "
		      "(%.1f s)", rc - 128, hi, lo, clock_seconds() - start);
	else
		error("interrupted by signal %d during step %u: no culprit; "
		      "so far the regression came in after %.12s, at or "
		      "before %.12s (%.1f s)", rc - 128, steps + 1, lo, hi,
		      clock_seconds() - start);
	return rc;
}

/* One search: the commits, what is proven so far, and the last step. */
struct search {
	char **c;		/* c[0] good, c[1..n] its first-parent
				   descendants up to bad */
	size_t n;
	char *skipped;		/* skipped[i]: c[i] cannot be built or
				   measured */
	long lo, hi, nskipped;	/* the regression came in in (lo, hi] */
	unsigned steps;
	int runs;		/* the last step's runs (its tries) */
	double start;
	struct step s, culprit_step;	/* the last step; the last bad one */
	char culprit_base[REPO_HEXSZ + 1];	/* its base */
};

/*
 * One run of the search (the confirming one or a step): base against
 * head, read by verdict_bisect_call; a run that neither shows nor
 * excludes a regression of the floor runs again with twice the pairs,
 * VERDICT_BISECT_TRIES runs at most. The confirming run's good ends the
 * whole search against what the user said, so it is taken only from the
 * last run, the most pairs bisect measures (or at once from an identical
 * build or an exact count, which more pairs cannot change). 0 with
 * se->s.out set, or the exit code of a signal (> 0) or -1 on an error.
 */
static int step_decide(struct search *se, struct gate_ctx *ctx,
		       const struct bisect_opts *o, const char *base,
		       const char *head, int confirming)
{
	unsigned more = 0;
	int k, rc, again;
	char f[256];

	for (k = 0; k < VERDICT_BISECT_TRIES; k++) {
		se->runs = k + 1;
		if ((rc = step_run(&se->s, ctx, o, base, head, more)) != 0)
			return rc;
		again = se->s.out == OUT_UNSURE ||
			(se->s.out == OUT_GOOD && confirming &&
			 !se->s.identical && !se->s.exact);
		more = 2 * se->s.pairs;
		if (!again || more > 10000 || k + 1 == VERDICT_BISECT_TRIES)
			break;
		if (o->quiet)
			continue;
		figures(f, sizeof(f), &se->s);
		if (se->s.out == OUT_UNSURE)
			fprintf(stderr, "gate: step %u: %.12s against %.12s is "
				"unsure (%s: neither shows nor excludes a "
				"regression of %+.1f%%): again with %s%u "
				"pairs\n", se->steps + 1, head, base, f,
				se->s.floor * 100, o->budget ? "up to " : "",
				more);
		else
			fprintf(stderr, "gate: step %u: %.12s against %.12s "
				"excludes a regression of %+.1f%% (%s): again "
				"with %s%u pairs before saying it does not "
				"reproduce\n", se->steps + 1, head, base,
				se->s.floor * 100, f,
				o->budget ? "up to " : "", more);
	}
	return 0;
}

/*
 * Step 1: does bad reproduce the regression against good? The user says
 * it does, so "it does not" needs the interval to exclude a regression of
 * the floor, as any step's good does: a pass (which only excludes twice
 * the floor) is not enough, nor an exclusion before the last run. 0 when
 * it does (the search goes on), else -1 with the exit code in *code:
 * excluded (0), neither confirmed nor excluded after the runs allowed
 * (2), an error, or a signal.
 */
static int confirm(struct search *se, struct gate_ctx *ctx,
		   struct bisect_opts *o, int *code)
{
	const char *good = se->c[0], *bad = se->c[se->n];
	const struct step *s = &se->s;
	char f[256];
	int rc;

	if ((rc = step_decide(se, ctx, o, good, bad, 1)) != 0) {
		*code = rc > 0 ? interrupted(rc, se->steps, good, bad,
					     se->start) : EXIT_ERROR;
		return -1;
	}
	say_step(o, ctx->repo, ++se->steps, good, bad, s);
	figures(f, sizeof(f), s);
	switch (s->out) {
	case OUT_BAD:
		break;
	case OUT_GOOD:
		if (s->identical)
			printf("the regression does not reproduce: %.12s "
			       "against %.12s is an identical build of %s; "
			       "nothing to bisect\n", bad, good, s->name);
		else
			printf("the regression does not reproduce: %.12s "
			       "against %.12s is good, %s excludes a "
			       "regression of %+.1f%%; nothing to bisect\n",
			       bad, good, f, s->floor * 100);
		*code = EXIT_PASS;
		break;
	case OUT_UNSURE:
		printf("could not confirm the regression at the bad end: "
		       "%.12s against %.12s, %s neither shows nor excludes a "
		       "regression of %+.1f%% after %d run%s (more --budget "
		       "or --pairs may decide it)\n", bad, good, f,
		       s->floor * 100, se->runs, se->runs == 1 ? "" : "s");
		*code = EXIT_NOISY;
		break;
	case OUT_SKIP:
		error("could not confirm the regression at the bad end: the "
		      "run of %.12s against %.12s measured %s%s%s (an error, "
		      "said above, or a benchmark redefined or removed "
		      "between them: --config FILE compares both with one "
		      "definition)", bad, good, s->name[0] ? "nothing of \"" :
		      "nothing", s->name, s->name[0] ? "\"" : "");
		*code = EXIT_ERROR;
		break;
	}
	if (s->out == OUT_BAD) {
		se->culprit_step = se->s;
		memcpy(se->culprit_base, good, sizeof(se->culprit_base));
		/* every later step decides on the benchmark that failed
		   here */
		snprintf(o->decide, sizeof(o->decide), "%s", s->name);
		return 0;
	}
	if (s->out != OUT_SKIP)
		printf("steps: %u, time: %.1f s\n", se->steps,
		       clock_seconds() - se->start);
	return -1;
}

/* Step 2: binary search on (lo, hi] until one commit is left, every
   other is skipped, or a step stays noisy. 0, or -1 with the exit code
   of an error or a signal in *code. */
static int narrow(struct search *se, struct gate_ctx *ctx,
		  const struct bisect_opts *o, int *code)
{
	long mid;
	int rc;

	se->lo = 0;
	se->hi = (long)se->n;
	while (se->hi - se->lo > 1 &&
	       (mid = pick_mid(se->lo, se->hi, se->skipped)) >= 0) {
		const char *base = se->c[se->lo];

		if ((rc = step_decide(se, ctx, o, base, se->c[mid], 0)) != 0) {
			*code = rc > 0 ? interrupted(rc, se->steps, base,
						     se->c[se->hi],
						     se->start) : EXIT_ERROR;
			return -1;
		}
		say_step(o, ctx->repo, ++se->steps, base, se->c[mid], &se->s);
		if (se->s.out == OUT_BAD) {
			se->hi = mid;
			se->culprit_step = se->s;
			memcpy(se->culprit_base, base,
			       sizeof(se->culprit_base));
		} else if (se->s.out == OUT_GOOD) {
			se->lo = mid;
		} else if (se->s.out == OUT_SKIP) {
			se->skipped[mid] = 1;
			se->nskipped++;
		} else {
			break;	/* unsure after its tries: a range */
		}
	}
	return 0;
}

/* The one commit left: the culprit, with its step's figures. */
static int say_culprit(const struct search *se, struct repo *repo)
{
	const struct step *cs = &se->culprit_step;
	char e[32], l[32], h[32], *subject, *author, *parent = NULL;
	const char *culprit = se->c[se->hi];

	if (commit_info(repo, culprit, &subject, &author, &parent) < 0)
		return EXIT_ERROR;
	pct(e, sizeof(e), cs->estimate);
	pct(l, sizeof(l), cs->low);
	pct(h, sizeof(h), cs->high);
	printf("culprit: %s\n  subject: %s\n  author: %s\n", culprit,
	       subject, author);
	printf("  %s: %s against %s%.12s (interval %s .. %s)\n", cs->name, e,
	       parent && !strcmp(parent, se->culprit_base) ? "its parent " : "",
	       se->culprit_base, l, h);
	free(parent);
	free(subject);
	free(author);
	return EXIT_FAIL;
}

/* More than one commit left: the range, and why it is not narrower. */
static int say_range(const struct search *se, struct repo *repo)
{
	long i;

	printf("range: the regression came in after %.12s, at or before "
	       "%.12s (%ld commits)", se->c[se->lo], se->c[se->hi],
	       se->hi - se->lo);
	if (se->nskipped)
		printf("; %ld could not be built or measured", se->nskipped);
	if (se->s.out == OUT_UNSURE)
		printf("; could not separate: a step neither excluded nor "
		       "showed a regression of %+.1f%% after %d run%s (more "
		       "--budget or --pairs may narrow it)",
		       se->s.floor * 100, se->runs, se->runs == 1 ? "" : "s");
	printf("\n");
	for (i = se->lo + 1; i <= se->hi; i++) {
		char *subject, *author;

		if (commit_info(repo, se->c[i], &subject, &author, NULL) < 0)
			return EXIT_ERROR;
		printf("  %.12s %s%s\n", se->c[i], subject,
		       se->skipped[i] ? " (skipped)" : "");
		free(subject);
		free(author);
	}
	return EXIT_NOISY;
}

int cmd_bisect(int argc, char **argv, struct gate_ctx *ctx)
{
	struct bisect_opts o = { 0 };
	struct search se;
	char good[REPO_HEXSZ + 1], bad[REPO_HEXSZ + 1], **list = NULL;
	size_t n = 0, i;
	int ready, rc, code = EXIT_ERROR;

	memset(&se, 0, sizeof(se));
	se.start = clock_seconds();
	rc = options_parse(&cmd_bisect_opts, &o, argc, argv, NULL);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	/* the repository is opened once the options are understood */
	if ((ready = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(ready);
	if (resolve(good, ctx->repo, o.good) < 0 ||
	    resolve(bad, ctx->repo, o.bad) < 0)
		return EXIT_ERROR;
	if (repo_first_parents(&list, &n, ctx->repo, bad, good) < 0)
		return EXIT_ERROR;
	if (!n) {
		error("--good and --bad name the same commit: give an older "
		      "--good");
		goto cleanup;
	}
	se.c = xcalloc(n + 1, sizeof(*se.c));
	se.c[0] = good;
	for (i = 0; i < n; i++)
		se.c[n - i] = list[i];
	se.n = n;
	se.skipped = xcalloc(n + 1, 1);
	if (confirm(&se, ctx, &o, &code) < 0 ||
	    narrow(&se, ctx, &o, &code) < 0)
		goto cleanup;
	code = se.hi - se.lo == 1 ? say_culprit(&se, ctx->repo) :
	       say_range(&se, ctx->repo);
	if (code != EXIT_ERROR)
		printf("steps: %u (%ld skipped), time: %.1f s\n", se.steps,
		       se.nskipped, clock_seconds() - se.start);
cleanup:
	free(se.skipped);
	free(se.c);
	repo_list_free(list, n);
	return code;
}
