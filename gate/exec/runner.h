/*
 * The runner: starts one command without a shell (argv) or with /bin/sh -c
 * (string), in its own process group, stdin from /dev/null, and waits for it
 * with a timeout, measuring wall time, CPU time, rusage counts and (when
 * asked) user-space instructions, hashing stdout
 * as it streams and keeping the tail of stderr for messages.
 */
#ifndef GATE_RUNNER_H
#define GATE_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gate/config/config.h"

#define RUN_TAIL 2048

enum run_status {
	RUN_OK,			/* exited 0 */
	RUN_EXIT,		/* exited non-zero: code */
	RUN_SIGNAL,		/* killed by signal: code */
	RUN_TIMEOUT,		/* timed out, group killed */
	RUN_STOPPED,		/* stopped by signal code (SIGTTIN...), killed */
	RUN_SPAWN,		/* could not start: code is errno */
	RUN_INTERRUPTED,	/* gate got SIGINT/SIGTERM: group killed */
	RUN_LOST,		/* gate could not wait for it (poll failed:
				   code is errno): group killed */
};

struct run_spec {
	const struct command *cmd;
	const char *cwd;	/* NULL: gate's cwd */
	double timeout;		/* seconds; <= 0 means none */
	double grace;		/* SIGTERM to SIGKILL, seconds */
	int log_fd;		/* >= 0: stdout and stderr go to this file
				   (builds); -1: hash stdout, keep stderr tail */
	char *const *envp;	/* the environment; NULL: gate's own */
	size_t capture;		/* > 0: also keep stdout, up to this many
				   bytes (suite formats); 0: hash only */
	int count_instructions;	/* 1: count with the perf backend */
	const char *const *sandbox_write;	/* NULL: not sandboxed; else
				   the NULL-terminated directories and files
				   the process tree may write (Landlock; see
				   runner_sandbox); it fails to start where
				   the sandbox cannot be applied */
	const struct box_run *box;	/* NULL: no namespaces; else the
				   arm's sandbox (gate/exec/box.h), in which
				   sandbox_write must be NULL */
	const char *const *box_rw;	/* this run's own writable paths in
				   the sandbox (NULL-terminated), or NULL */
	const char *const *box_rw_at;	/* NULL, or beside box_rw: where
				   each is bound inside (NULL: at its own) */
	int box_timed;		/* 1: timed inside the sandbox (samples) */
};

/* An arm's sandbox as the runner starts a run in it (all borrowed). */
struct box_run {
	char *const *argv;	/* box_argv: bwrap and its options */
	const char *const *allow;	/* variables base adds to the
					   allowlist, or NULL */
	const char *home;	/* HOME inside (a private empty directory) */
};

struct run_result {
	enum run_status status;
	int code;
	double wall;		/* seconds, monotonic, spawn to reap */
	double user, sys;	/* seconds, the child and its waited children */
	long maxrss_kb;
	long minflt, majflt;	/* page faults, without and with I/O */
	long ctxsw;		/* voluntary + involuntary switches */
	double instructions;	/* perf count when asked for, else NAN */
	double limit;		/* the timeout that applied, seconds */
	uint64_t out_hash;	/* FNV-1a 64 of stdout */
	uint64_t out_bytes;
	char err_tail[RUN_TAIL + 1];	/* last bytes of stderr, NUL-ended */
	char *out;		/* stdout when spec->capture (caller frees),
				   NUL-ended */
	size_t out_len;		/* bytes held in out */
	int out_overflow;	/* stdout was longer than spec->capture */
};

struct proc;

/* Start spec's command; *out is freed by run_wait. */
int run_start(struct proc **out, const struct run_spec *spec);
/*
 * Wait for every process in procs (n of them), streaming their pipes and
 * enforcing each timeout; results[i] gets procs[i]'s outcome. On SIGINT or
 * SIGTERM (signals_pending) every live group is stopped and its status is
 * RUN_INTERRUPTED. Frees the procs. Returns 0 (inspect the statuses), or
 * -1 after error() when it cannot wait (poll fails): then every group not
 * yet reaped is killed and reaped, its status RUN_LOST.
 */
int run_wait(struct proc **procs, struct run_result *results, size_t n);
/* run_start + run_wait for one command. Returns 0, or -1 if not started. */
int run_one(struct run_result *res, const struct run_spec *spec);
/*
 * The first line argv[0] prints on stdout when run with argv (a tool's
 * "--version"; 10 s at most, 256 bytes read) into buf; 0, or -1 when it
 * fails or prints nothing.
 */
int run_first_line(char **argv, char *buf, size_t size);
/*
 * Become the reaper of orphaned descendants (once; os_subreaper): from
 * then on, whatever a run leaves behind when its process exits (a double
 * fork, setsid, nohup) is killed and reaped as soon as the run is. 1 when
 * in force, 0 when this system cannot (the process group is still
 * killed, as before).
 */
int runner_subreaper(void);
/*
 * Kill and reap every child of gate that is not a run being waited for
 * (done after each run is reaped; callers need not call it).
 */
void runner_reap_orphans(void);
/*
 * The write sandbox's Landlock ABI (>= 1), or 0 with why in why
 * (os_sandbox_abi): the caller then leaves sandbox_write NULL and relies
 * on its other checks.
 */
int runner_sandbox(char *why, size_t size);

/* A one-line description of a non-OK result, e.g. "exited with code 2". */
const char *run_describe(const struct run_result *res, char *buf,
			 size_t size);

#endif
