/*
 * gate run's command line: the usage text and the option parser that
 * fills struct run_opts (gate/cmd/run.h). Overrides of the plan (pairs,
 * warm-ups, budget, strict, filter) go into o->ov, applied by plan_make.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/run.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "ci/github.h"
#include "gate/config/options.h"
#include "gate/report/report.h"
#include "common/banned.h"

const char cmd_run_usage[] =
	"usage: gate [-C DIR] run [--base REV] [--head REV] [--config FILE]\n"
	"                        [--json FILE] [--seed N] [--pairs N] "
	"[--warmup N]\n"
	"                        [--filter REGEX] [--budget TIME] [--strict]\n"
	"                        [--advisory] [-q | -v]\n"
	"                        [--pin CPUS] [--fixed-arms] [--no-env-pad]\n"
	"                        [--no-scratch] [--markdown FILE] [--html FILE]\n"
	"                        [--color WHEN] [--policy WHOSE] [--list]\n"
	"                        [--shard I/N] [--measure-identical]\n"
	"\n"
	"  --base REV     base revision (default: merge-base of HEAD with its\n"
	"                 upstream, or with origin/$GITHUB_BASE_REF in a pull\n"
	"                 request, else HEAD with uncommitted changes,\n"
	"                 else HEAD~1)\n"
	"  --head REV     head revision (default: the working tree as it is,\n"
	"                 uncommitted changes included; also WORKTREE)\n"
	"  --config FILE  read this gate.json instead of head's\n"
	"  --json FILE    write the JSON report to FILE ('-' for stdout)\n"
	"  --seed N       seed for the pair order and the bootstrap (replays "
	"a run)\n"
	"  --pairs N      pairs per benchmark, overriding gate.json\n"
	"  --warmup N     warm-up runs per arm, overriding gate.json\n"
	"  --budget TIME  measuring time for the whole run (90s, 10m, 1h;\n"
	"                 default \"budget\" in gate.json, else 5m)\n"
	"  --strict       pass only when the interval excludes regressions\n"
	"                 above the floor\n"
	"  --filter REGEX compare only the suite cases whose name matches\n"
	"                 (POSIX extended regex; plain benchmarks unaffected)\n"
	"  --advisory     report the verdict but exit 0\n"
	"  --policy WHOSE base (default): every policy key comes from\n"
	"                 base's gate.json and each arm runs its own;\n"
	"                 head: head's keys and commands in both arms (a\n"
	"                 local experiment, refused in CI; the report says so)\n"
	"  --list         print the plan (benchmarks, metrics, pairs, floors,\n"
	"                 level, a suite's cases after a listing run of its\n"
	"                 harness) and run no benchmark\n"
	"  --shard I/N    measure shard I of N only (1 <= I <= N <= 256):\n"
	"                 the benchmarks' names sorted and dealt in turn, a\n"
	"                 suite's cases likewise (listed by its harness);\n"
	"                 levels as for the whole run; combine\n"
	"                 the shards' --json reports with gate merge\n"
	"  --measure-identical  measure benchmarks whose \"artifacts\" are\n"
	"                 byte-identical in both arms (default: they pass\n"
	"                 unmeasured)\n"
	"  --markdown FILE  write the Markdown report (a PR comment body)\n"
	"  --html FILE    write a self-contained HTML report with plots\n"
	"  --color WHEN   auto (default: on a terminal, unless NO_COLOR is "
	"set),\n"
	"                 always or never\n"
	"  -q, --quiet    no progress messages on stderr\n"
	"  -v, --verbose  every column, the evidence and the protocol in the\n"
	"                 report; one line per pair on stderr\n"
	"  --pin CPUS     run the benchmarks on these CPUs only (e.g. 1 or "
	"2-3)\n"
	"  --fixed-arms   base always in .git/gate/a, head in b (default: "
	"drawn\n"
	"                 at random per run, so a directory cannot own a "
	"bias);\n"
	"                 no build is kept between runs\n"
	"  --no-env-pad   no random environment padding per sample\n"
	"  --no-scratch   no fresh $GATE_TMPDIR per sample\n"
	"\n"
	"exit: 0 pass (or accepted), 1 fail, 2 noisy, 3 error, 130/143 "
	"interrupted\n";



static void usage_error(const char *what, const char *arg)
{
	error("%s \"%s\"", what, arg);
	fputs(cmd_run_usage, stderr);
}

static const struct option run_longopts[] = {
	{ "base", required_argument, NULL, 'b' },
	{ "head", required_argument, NULL, 'H' },
	{ "config", required_argument, NULL, 'c' },
	{ "json", required_argument, NULL, 'j' },
	{ "seed", required_argument, NULL, 's' },
	{ "pairs", required_argument, NULL, 'p' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "advisory", no_argument, NULL, 'a' },
	{ "strict", no_argument, NULL, 'T' },
	{ "budget", required_argument, NULL, 'B' },
	{ "filter", required_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "markdown", required_argument, NULL, 'm' },
	{ "html", required_argument, NULL, 'M' },
	{ "color", required_argument, NULL, 'K' },
	{ "colour", required_argument, NULL, 'K' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "pin", required_argument, NULL, 'P' },
	{ "fixed-arms", no_argument, NULL, 'F' },
	{ "no-env-pad", no_argument, NULL, 'E' },
	{ "no-scratch", no_argument, NULL, 'S' },
	{ "policy", required_argument, NULL, 'Y' },
	{ "list", no_argument, NULL, 'L' },
	{ "shard", required_argument, NULL, 'D' },
	{ "measure-identical", no_argument, NULL, 'I' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* An option that sets a flag or keeps its argument as given (checked
   later, if at all); 0 when c is not one of them. */
static int run_option_taken_as_is(struct run_opts *o, int c)
{
	switch (c) {
	case 'b': o->base = optarg; break;
	case 'H': o->head = optarg; break;
	case 'c': o->config = optarg; break;
	case 'j': o->json = optarg; break;
	case 'a': o->advisory = 1; break;
	case 'T': o->ov.strict = 1; break;
	case 'f': o->ov.filter = optarg; break;
	case 'q': o->quiet = 1; break;
	case 'v': o->verbose = 1; break;
	case 'm': o->markdown = optarg; break;
	case 'M': o->html = optarg; break;
	case 'K': o->color = optarg; break;
	case 'P': o->pin = optarg; break;
	case 'F': o->fixed_arms = 1; break;
	case 'E': o->no_env_pad = 1; break;
	case 'S': o->no_scratch = 1; break;
	case 'L': o->list = 1; break;
	case 'I': o->measure_identical = 1; break;
	default: return 0;
	}
	return 1;
}

/* An option whose argument is parsed and checked here, or an unknown
   one: 0, or -1 after saying why. */
static int run_option_parsed(struct run_opts *o, int c, char **argv)
{
	long v;

	switch (c) {
	case 'B':
		return options_parse_duration(&o->ov.budget, "--budget", optarg);
	case 'Y':
		if (!strcmp(optarg, "head")) {
			/* a required check must not be loosened by its own
			   workflow file either */
			if (ci_github_active()) {
				error("--policy head is for local experiments: "
				      "in GitHub Actions base's gate.json "
				      "always decides; drop the option");
				return -1;
			}
			o->ov.policy_head = 1;
		} else if (strcmp(optarg, "base")) {
			error("--policy takes \"base\" or \"head\", not "
			      "\"%s\"", optarg);
			return -1;
		}
		return 0;
	case 'D':
		return plan_parse_shard(&o->ov.shard, &o->ov.nshards, optarg);
	case 's':
		if (options_parse_count(&v, "--seed", optarg, 0,
				4294967295L) < 0)
			return -1;
		o->seed = (unsigned long)v;
		o->have_seed = 1;
		return 0;
	case 'p':
		return options_parse_count(&o->ov.pairs, "--pairs", optarg, 2,
					   10000);
	case 'w':
		return options_parse_count(&o->ov.warmup, "--warmup", optarg, 0,
					   1000);
	default:
		usage_error("unknown or incomplete option", argv[optind - 1]);
		return -1;
	}
}

enum opts_result run_parse_options(struct run_opts *o, int argc,
				   char **argv)
{
	int c;

	o->ov.pairs = o->ov.warmup = -1;
	options_getopt_reset();
	while ((c = getopt_long(argc, argv, "qvh", run_longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(cmd_run_usage, stdout);
			return OPTS_HELP;
		}
		if (!run_option_taken_as_is(o, c) &&
		    run_option_parsed(o, c, argv) < 0)
			return -1;
	}
	if (optind < argc) {
		usage_error("unexpected argument", argv[optind]);
		return -1;
	}
	if (report_check_options(o->json, o->markdown, o->html, o->color) < 0) {
		fputs(cmd_run_usage, stderr);
		return -1;
	}
	return OPTS_GO;
}
