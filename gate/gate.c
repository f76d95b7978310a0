/*
 * The command table and global options (-C DIR, --help, --version), in
 * git's manner: "gate [-C DIR] COMMAND [ARGS]"; "gate help COMMAND" and
 * "gate COMMAND --help" print the command's usage to stdout.
 */
#include "gate/cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_errno.h>

#include "common/error.h"
#include "gate/config/config-table.h"
#include "gate/config/options.h"
#include "ci/github.h"
#include "gate/exec/box.h"
#include "gate/exec/signals.h"
#include "git/repo.h"
#include "common/banned.h"

static const struct cmd commands[] = {
	{ cmd_run, NEED_REPO,
	  "measure base against head and give a verdict",
	  &cmd_run_opts },
	{ cmd_calibrate, NEED_REPO,
	  "measure a revision against itself; recommend a floor and pairs",
	  &cmd_calibrate_opts },
	{ cmd_doctor, 0,
	  "check the machine's noise sources and say how to fix them",
	  &cmd_doctor_opts },
	{ cmd_compare, 0,
	  "compare two result files offline and give a verdict",
	  &cmd_compare_opts },
	{ cmd_init, NEED_REPO,
	  "write a starter gate.json for this repository", &cmd_init_opts },
	{ cmd_record, NEED_REPO,
	  "store a run's report in git notes (refs/notes/gate)",
	  &cmd_record_opts },
	{ cmd_trend, NEED_REPO,
	  "show each benchmark's cumulative ratio along recorded history",
	  &cmd_trend_opts },
	{ cmd_bisect, NEED_REPO,
	  "find the commit that made a benchmark slower",
	  &cmd_bisect_opts },
	{ cmd_merge, 0,
	  "combine the reports of a run's shards into one verdict",
	  &cmd_merge_opts },
	{ cmd_export, NEED_REPO,
	  "write the recorded history as Bencher's BMF JSON or CSV",
	  &cmd_export_opts },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char synopsis[] =
	"usage: gate [-C DIR] COMMAND [ARGS]\n"
	"       gate --help | gate help COMMAND | gate help gate.json | gate --version\n";

static void print_help(FILE *out)
{
	size_t i;

	fputs(synopsis, out);
	fputs("\ncommands:\n", out);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].opts->name,
			commands[i].summary);
	fputs("\nexit codes: 0 pass, 1 fail (regression shown), 2 noisy "
	      "(inconclusive), 3 error (could not measure)\n"
	      "see README.md, or gate help COMMAND\n", out);
}

static const struct cmd *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].opts->name, name))
			return &commands[i];
	return NULL;
}

static int parse_only;

enum ctx_ready gate_ctx_ready(struct gate_ctx *ctx)
{
	if (ctx->parse_only)
		return CTX_PARSE_ONLY;
	if ((ctx->flags & NEED_REPO) && !ctx->repo &&
	    repo_open(&ctx->repo, ctx->dir) < 0)
		return CTX_FAILED;
	return CTX_READY;
}

int gate_ctx_exit(enum ctx_ready ready)
{
	return ready == CTX_PARSE_ONLY ? EXIT_PASS : EXIT_ERROR;
}

/* The command parses its own options (an option's value is never taken
   for --help), then gate_ctx_ready() opens the repository it needs. */
static int run_command(const struct cmd *c, int argc, char **argv,
		       const char *dir)
{
	struct gate_ctx ctx = { .dir = dir, .flags = c->flags,
				.parse_only = parse_only };
	int code;

	code = c->fn(argc, argv, &ctx);
	repo_free(ctx.repo);
	return code;
}

static cJSON_Hooks json_hooks = { xmalloc, free };
/* in GitHub Actions, nothing an error quotes acts as a workflow command */
static const struct error_guard github_guard = {
	ci_github_stop_commands, ci_github_resume_commands
};

int gate_main(int argc, char **argv)
{
	const char *dir = ".";
	const struct cmd *c;
	int i = 1, code;

	/* inside an arm's sandbox, timing one sample: nothing else */
	if (argc > 1 && !strcmp(argv[1], BOX_SAMPLE_OPTION))
		return box_sample_main(argc - 2, argv + 2);
	gsl_set_error_handler_off();
	/* cJSON allocates as gate does: out of memory stops gate, so a NULL
	   from cJSON means bad input, never a lost allocation */
	cJSON_InitHooks(&json_hooks);
	if (ci_github_active())
		error_set_guard(&github_guard);
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_help(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("gate %s\n", GATE_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "--completion") && i + 1 < argc) {
			/* for the Makefile, which builds completion/ */
			return complete_print(stdout, argv[i + 1], commands,
					      NCOMMANDS) < 0 ? EXIT_ERROR : 0;
		} else if (!strcmp(argv[i], "-C")) {
			if (i + 1 >= argc) {
				error("-C needs a directory");
				fputs(synopsis, stderr);
				return EXIT_ERROR;
			}
			dir = argv[i + 1];
			i += 2;
		} else {
			error("unknown option \"%s\"", argv[i]);
			fputs(synopsis, stderr);
			return EXIT_ERROR;
		}
	}
	if (i >= argc) {
		fputs(synopsis, stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			print_help(stdout);
			return 0;
		}
		if (!strcmp(argv[i + 1], "gate.json")) {
			/* the key table: who decides each key, and why */
			config_keys_print(stdout, i + 2 < argc &&
					  !strcmp(argv[i + 2], "--mdoc"));
			return 0;
		}
		if (!(c = find(argv[i + 1]))) {
			error("unknown command \"%s\": see gate --help",
			      argv[i + 1]);
			return EXIT_ERROR;
		}
		options_usage(c->opts, stdout);
		return 0;
	}
	if (!(c = find(argv[i]))) {
		error("unknown command \"%s\": see gate --help", argv[i]);
		return EXIT_ERROR;
	}
	if (parse_only)
		return run_command(c, argc - i, argv + i, dir);
	if (signals_init() < 0 || repo_global_init() < 0)
		return EXIT_ERROR;
	code = run_command(c, argc - i, argv + i, dir);
	repo_global_shutdown();
	return code;
}

int gate_main_parse_only(int argc, char **argv)
{
	int code;

	parse_only = 1;
	code = gate_main(argc, argv);
	parse_only = 0;
	return code;
}
