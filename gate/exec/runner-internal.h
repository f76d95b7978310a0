/*
 * The runner's parts (private to gate/exec/runner.c, which waits, and
 * runner-spawn.c, which starts): one running process.
 */
#ifndef GATE_EXEC_RUNNER_INTERNAL_H
#define GATE_EXEC_RUNNER_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "gate/exec/runner.h"

struct proc {
	pid_t pid;
	int out_fd, err_fd;	/* -1 when closed or not captured */
	int perf_fd;		/* instruction counter, or -1 */
	int rec_fd;		/* the sandbox's sampler record, or -1 */
	double start, deadline, kill_at;	/* monotonic seconds */
	double grace, limit;
	size_t capture, out_cap;	/* bytes to keep; buffer size */
	int reaped, timed_out, interrupted;
	int stopped;		/* the signal that stopped it (then killed) */
	struct run_result *res;
	size_t tail_len;	/* bytes held in res->err_tail */
};

/* A run started (its pid is not an orphan to kill) or reaped. */
void runner_track(pid_t pid);
void runner_untrack(pid_t pid);

/* Close *fd when open, and mark it closed (-1). */
void runner_close_fd(int *fd);

#endif
