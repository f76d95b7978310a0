/*
 * Signal plumbing for gate/: handlers only record the signal and write one
 * byte to a non-blocking self-pipe (async-signal-safe), so long waits in the
 * runner are woken at once and cleanup happens in ordinary code.
 */
#include "gate/exec/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/banned.h"

static volatile sig_atomic_t pending;
static int self_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;
	char c = 0;

	if (sig != SIGCHLD && !pending)
		pending = sig;
	if (self_pipe[1] >= 0 && write(self_pipe[1], &c, 1) < 0) {
		/* the pipe is full: poll() will wake anyway */
	}
	errno = saved;
}

static int set_flags(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

int signals_init(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	if (pipe(self_pipe) < 0)
		return error("cannot create a pipe:");
	if (set_flags(self_pipe[0]) < 0 || set_flags(self_pipe[1]) < 0)
		return error("cannot configure a pipe:");

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	/* no SA_RESTART: a blocking wait returns EINTR and sees the flag */
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (sigaction(stops[i], &sa, NULL) < 0)
			return error("cannot install a signal handler:");
	/* no SA_NOCLDSTOP: a child stopped by SIGTTIN wakes the runner */
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGCHLD, &sa, NULL) < 0)
		return error("cannot install a signal handler:");
	/* a benchmark closing its stdout must not kill gate */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int signals_pending(void)
{
	return pending;
}

int signals_fd(void)
{
	return self_pipe[0];
}

void signals_drain(void)
{
	char buf[64];

	while (self_pipe[0] >= 0 && read(self_pipe[0], buf, sizeof(buf)) > 0)
		;
}

int signals_exit_code(int sig)
{
	return 128 + sig;
}

void signals_test_stall(const char *phase)
{
	const char *want = getenv("GATE_TEST_STALL");
	struct pollfd pfd;
	int waited;

	if (!want || strcmp(want, phase))
		return;
	fprintf(stderr, "gate: test stall: %s\n", phase);
	pfd.fd = self_pipe[0];
	pfd.events = POLLIN;
	for (waited = 0; !pending && waited < 300; waited++) {
		if (poll(&pfd, 1, 100) > 0)
			signals_drain();
	}
}
