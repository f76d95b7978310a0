/*
 * gate run's command line: its option rows (gate/config/options.h), which
 * fill struct run_opts (gate/cmd/run.h). Overrides of the plan (pairs,
 * warm-ups, budget, strict, filter) go into o->ov, applied by plan_make.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "ci/github.h"
#include "gate/config/options.h"
#include "gate/report/report.h"
#include "common/banned.h"

static int run_policy(void *opts, const char *arg)
{
	struct run_opts *o = opts;

	if (!strcmp(arg, "head")) {
		/* a required check must not be loosened by its own workflow
		   file either */
		if (ci_github_active()) {
			error("--policy head is for local experiments: in "
			      "GitHub Actions base's gate.json always decides; "
			      "drop the option");
			return -1;
		}
		o->ov.policy_head = 1;
	} else if (strcmp(arg, "base")) {
		error("--policy takes \"base\" or \"head\", not \"%s\"", arg);
		return -1;
	}
	return 0;
}

static int run_shard(void *opts, const char *arg)
{
	struct run_opts *o = opts;

	return plan_parse_shard(&o->ov.shard, &o->ov.nshards, arg);
}

#define R struct run_opts
static const struct opt run_rows[] = {
	OPT_STRING("base", "REV", R, base, "base revision (default: the "
		   "merge-base of HEAD with its upstream, or with "
		   "origin/$GITHUB_BASE_REF in a pull request, else HEAD with "
		   "uncommitted changes, else HEAD~1)", "<rev>"),
	OPT_STRING("head", "REV", R, head, "head revision (default: the "
		   "working tree as it is, uncommitted changes included; also "
		   "WORKTREE)", "<head>"),
	OPT_STRING("config", "FILE", R, config,
		   "read this gate.json instead of head's", "<file>"),
	OPT_STRING("json", "FILE", R, json,
		   "write the JSON report to FILE ('-' for stdout)", "<file>"),
	OPT_SEED("seed", R, seed, have_seed,
		 "seed for the pair order and the bootstrap (replays a run)"),
	OPT_COUNT("pairs", "N", R, ov.pairs, 2, 10000,
		  "pairs per benchmark, overriding gate.json"),
	OPT_COUNT("warmup", "N", R, ov.warmup, 0, 1000,
		  "warm-up runs per arm, overriding gate.json"),
	OPT_STRING("filter", "REGEX", R, ov.filter, "compare only the suite "
		   "cases whose name matches (POSIX extended regex; plain "
		   "benchmarks unaffected)", NULL),
	OPT_DURATION("budget", "TIME", R, ov.budget, "measuring time for the "
		     "whole run (90s, 10m, 1h; default \"budget\" in "
		     "gate.json, else 5m)"),
	OPT_FLAG(0, "strict", R, ov.strict, "pass only when the interval "
		 "excludes regressions above the floor"),
	OPT_FLAG(0, "advisory", R, advisory, "report the verdict but exit 0"),
	OPT_FLAG('q', "quiet", R, quiet, "no progress messages on stderr"),
	OPT_FLAG('v', "verbose", R, verbose, "every column, the evidence and "
		 "the protocol in the report; one line per pair on stderr"),
	OPT_STRING("pin", "CPUS", R, pin, "run the benchmarks on these CPUs "
		   "only (e.g. 1 or 2-3)", NULL),
	OPT_FLAG(0, "fixed-arms", R, fixed_arms, "base always in .git/gate/a, "
		 "head in b (default: drawn at random per run, so a directory "
		 "cannot own a bias); no build is kept between runs"),
	OPT_FLAG(0, "no-env-pad", R, no_env_pad,
		 "no random environment padding per sample"),
	OPT_FLAG(0, "no-scratch", R, no_scratch,
		 "no fresh $GATE_TMPDIR per sample"),
	OPT_STRING("markdown", "FILE", R, markdown,
		   "write the Markdown report (a PR comment body)", "<file>"),
	OPT_STRING("html", "FILE", R, html,
		   "write a self-contained HTML report with plots", "<file>"),
	OPT_STRING("color", "WHEN", R, color, "auto (default: on a terminal, "
		   "unless NO_COLOR is set), always or never",
		   "auto always never"),
	OPT_STRING("colour", "WHEN", R, color, NULL, "auto always never"),
	OPT_CALL("policy", "WHOSE", run_policy, "base (default): every policy "
		 "key comes from base's gate.json and each arm runs its own; "
		 "head: head's keys and commands in both arms (a local "
		 "experiment, refused in CI; the report says so)", "base head"),
	OPT_FLAG(0, "list", R, list, "print the plan (benchmarks, metrics, "
		 "pairs, floors, level, a suite's cases after a listing run of "
		 "its harness) and run no benchmark"),
	OPT_CALL("shard", "I/N", run_shard, "measure shard I of N only (1 <= "
		 "I <= N <= 256): the benchmarks' names sorted and dealt in "
		 "turn, a suite's cases likewise (listed by its harness); "
		 "levels as for the whole run; combine the shards' --json "
		 "reports with gate merge", NULL),
	OPT_FLAG(0, "measure-identical", R, measure_identical, "measure "
		 "benchmarks whose \"artifacts\" are byte-identical in both "
		 "arms (default: they pass unmeasured)"),
};
#undef R

const struct opts_cmd cmd_run_opts = {
	.name = "run",
	.repo = 1,
	.rows = run_rows,
	.n = sizeof(run_rows) / sizeof(run_rows[0]),
	.footer = "exit: 0 pass (or accepted), 1 fail, 2 noisy, 3 error, "
		  "130/143 interrupted\n",
};

enum opts_result run_parse_options(struct run_opts *o, int argc,
				   char **argv)
{
	enum opts_result res;

	o->ov.pairs = o->ov.warmup = -1;
	res = options_parse(&cmd_run_opts, o, argc, argv, NULL);
	if (res == OPTS_GO &&
	    report_check_options(o->json, o->markdown, o->html, o->color) < 0) {
		options_usage(&cmd_run_opts, stderr);
		return OPTS_ERROR;
	}
	return res;
}
