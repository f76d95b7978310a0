/*
 * The sampler (box.h): inside an arm's sandbox, start one sample, wait for
 * it and write its time, rusage and status to BOX_RECORD_FD. It is its
 * own small program, gate-sampler (sampler-main.c), linked without gate's
 * libraries: started as gate, a sample's sandbox loaded 23 shared
 * libraries first, 14 ms of CPU a sample (perf stat, 2026-12-07).
 */
#define _GNU_SOURCE	/* wait4 */
#include "gate/exec/box.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "gate/exec/counter.h"
#include "common/banned.h"

extern char **environ;

/* The sampler's child: started as the runner would, timed from here. */
static pid_t sample_start(char **argv, int count, int *perf_fd)
{
	int go[2];
	pid_t pid;
	char c;

	*perf_fd = -1;
	if (!count) {
		if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
			return -1;
		return pid;
	}
	if (pipe(go) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	if (pid > 0) {
		*perf_fd = counter_perf_open(pid);
		if (write(go[1], "g", 1) != 1)
			*perf_fd = -1;
	}
	close(go[1]);
	return pid;
}

int box_sample_main(int argc, char **argv)
{
	struct rusage ru;
	double t0, t1, instr = -1;
	int i = 0, count = 0, status = 0, perf_fd;
	pid_t pid;

	if (i < argc && !strcmp(argv[i], "--count")) {
		count = 1;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		fprintf(stderr, "gate: %s: no command\n", BOX_SAMPLE_OPTION);
		return 127;
	}
	/* what gate preloads is the sample's, not this timer's */
	if (getenv("GATE_BOX_LD_PRELOAD")) {
		if (setenv("LD_PRELOAD", getenv("GATE_BOX_LD_PRELOAD"), 1) < 0)
			return 127;
		unsetenv("GATE_BOX_LD_PRELOAD");
	}
	t0 = clock_seconds();
	pid = sample_start(argv + i, count, &perf_fd);
	if (pid < 0) {
		fprintf(stderr, "gate: \"%s\" cannot be started in the "
			"arm's sandbox: %s\n", argv[i], strerror(errno));
		return 127;
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "gate: cannot wait for \"%s\": %s\n",
				argv[i], strerror(errno));
			return 127;
		}
	t1 = clock_seconds();
	if (perf_fd >= 0 && counter_perf_read(perf_fd, &instr) < 0)
		instr = -1;
	dprintf(BOX_RECORD_FD, "%.9f %.6f %.6f %ld %ld %ld %ld %.0f %d %d\n",
		t1 - t0,
		(double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
		(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6,
		ru.ru_maxrss, ru.ru_minflt, ru.ru_majflt,
		ru.ru_nvcsw + ru.ru_nivcsw, instr,
		WIFEXITED(status) ? 1 : 0,
		WIFEXITED(status) ? WEXITSTATUS(status) :
		WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	close(BOX_RECORD_FD);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
