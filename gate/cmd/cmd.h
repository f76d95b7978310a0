/*
 * The subcommands. Adding a subcommand: write gate/cmd/foo.c defining
 * cmd_foo() and cmd_foo_opts (its option rows: parsing, --help and the
 * shell completions come from them), declare both here, add a row to
 * commands[] in gate/gate.c, add gate/cmd/foo.o to CMD_OBJ in the
 * Makefile, a CLI test under tests/cli/ and the man page gate-foo.1.
 */
#ifndef GATE_CMD_H
#define GATE_CMD_H

#include <stdio.h>

struct repo;
struct opts_cmd;

/* What gate.c sets up before a command runs. */
struct gate_ctx {
	const char *dir;	/* -C DIR, or "." */
	struct repo *repo;	/* opened by gate_ctx_ready() with NEED_REPO */
	unsigned flags;		/* the command's flags */
	int parse_only;		/* stop after the options (the CLI fuzzer) */
};

#define NEED_REPO 1

/* What gate_ctx_ready() found. */
enum ctx_ready {
	CTX_FAILED = -1,	/* the repository cannot be opened (said) */
	CTX_READY = 0,		/* go on */
	CTX_PARSE_ONLY = 1,	/* options parsed, nothing more: exit 0 */
};
/*
 * Every command calls this once its options are parsed and before doing
 * anything else: opens the repository when the command needs one (so
 * --help, and a bad option, need none). Anything but CTX_READY: return
 * gate_ctx_exit() of it.
 */
enum ctx_ready gate_ctx_ready(struct gate_ctx *ctx);
int gate_ctx_exit(enum ctx_ready ready);

struct cmd {
	int (*fn)(int argc, char **argv, struct gate_ctx *ctx);
	unsigned flags;
	const char *summary;
	const struct opts_cmd *opts;	/* its name and options */
};

/* Exit codes, as gate(1) documents them under EXIT STATUS. */
#define EXIT_PASS 0
#define EXIT_FAIL 1
#define EXIT_NOISY 2
#define EXIT_ERROR 3

/* Each returns the process exit code. */
int cmd_run(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_run_opts;
/*
 * gate run with a hook for commands built on it (gate bisect): inspect,
 * when not NULL, sees the decided model in place of the terminal report.
 * argv as cmd_run's; returns its exit code.
 */
struct run_report;
typedef void run_inspect_fn(const struct run_report *r, void *arg);
int cmd_run_inspect(int argc, char **argv, struct gate_ctx *ctx,
		    run_inspect_fn *inspect, void *arg);
int cmd_calibrate(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_calibrate_opts;
int cmd_doctor(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_doctor_opts;
int cmd_compare(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_compare_opts;
int cmd_init(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_init_opts;
int cmd_record(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_record_opts;
int cmd_trend(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_trend_opts;
int cmd_bisect(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_bisect_opts;
int cmd_merge(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_merge_opts;
int cmd_export(int argc, char **argv, struct gate_ctx *ctx);
extern const struct opts_cmd cmd_export_opts;

/*
 * The completions' part that comes from cmds and their option rows, for
 * shell "bash" or "zsh" (gate/cmd/complete.c): 0, or -1 said.
 */
int complete_print(FILE *out, const char *shell, const struct cmd *cmds,
		   size_t n);

/* The whole program; main() only calls this. */
int gate_main(int argc, char **argv);
/* gate_main() that stops after option parsing: nothing is opened, run or
   written (tests/fuzz/fuzz-cli.c). */
int gate_main_parse_only(int argc, char **argv);

#endif
