/*
 * The runner: posix_spawn into a fresh process group, then one poll() loop
 * over the children's pipes and the signal self-pipe that enforces
 * timeouts with SIGTERM-then-SIGKILL to the whole group.
 */
#define _GNU_SOURCE	/* posix_spawn_file_actions_addchdir_np */
#include "gate/exec/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "gate/exec/counter.h"
#include "gate/exec/signals.h"
#include "common/banned.h"

extern char **environ;

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
/* after the main child is reaped, how long its leftovers may hold a pipe */
#define DRAIN_SECONDS 1.0

struct proc {
	pid_t pid;
	int out_fd, err_fd;	/* -1 when closed or not captured */
	int perf_fd;		/* instruction counter, or -1 */
	double start, deadline, kill_at;	/* monotonic seconds */
	double grace, limit;
	size_t capture, out_cap;	/* bytes to keep; buffer size */
	int reaped, timed_out, interrupted;
	int stopped;		/* the signal that stopped it (then killed) */
	struct run_result *res;
	size_t tail_len;	/* bytes held in res->err_tail */
};

static int cloexec_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/*
 * Can argv0 be executed (from cwd, or on PATH when it has no '/')? 0, or
 * -1 with errno. posix_spawn reports a failed exec as an error only in
 * some C libraries (glibc 2.24+ natively, not under valgrind, not older
 * ones): elsewhere the child exits 127. Checking first gives every system
 * the same clear "could not be started".
 */
static int executable(const char *argv0, const char *cwd)
{
	const char *path = getenv("PATH"), *p, *end;
	char *full;
	int ok, err = ENOENT;

	if (strchr(argv0, '/')) {
		full = argv0[0] == '/' || !cwd ? xstrdup(argv0)
			: xasprintf("%s/%s", cwd, argv0);
		ok = access(full, X_OK);
		free(full);
		return ok;
	}
	for (p = path && *path ? path : "/usr/bin:/bin"; ; p = end + 1) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)	/* an empty entry is the child's cwd */
			full = xasprintf("%s/%s", cwd ? cwd : ".", argv0);
		else
			full = xasprintf("%.*s/%s", (int)(end - p), p, argv0);
		ok = access(full, X_OK);
		if (ok < 0 && errno != ENOENT)
			err = errno;
		free(full);
		if (ok == 0)
			return 0;
		if (!*end)
			break;
	}
	errno = err;
	return -1;
}

static const int default_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD,
				       SIGPIPE, SIGQUIT };

/*
 * The child side of fork_counted: what posix_spawn's attributes and file
 * actions do, by hand, then wait for the parent to attach the counter.
 * Only async-signal-safe calls until exec; failures go back as an errno.
 */
static void counted_child(const struct run_spec *spec, char **argv,
			  int out_w, int err_w, int go_r, int report_w)
{
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int e, fd;
	char c;

	setpgid(0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof(default_signals) / sizeof(default_signals[0]);
	     i++)
		sigaction(default_signals[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (spec->cwd && chdir(spec->cwd) < 0)
		goto fail;
	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, 0) < 0)
		goto fail;
	if (fd > 2)
		close(fd);
	if (dup2(spec->log_fd >= 0 ? spec->log_fd : out_w, 1) < 0 ||
	    dup2(spec->log_fd >= 0 ? spec->log_fd : err_w, 2) < 0)
		goto fail;
	/* the counter is opened on this pid while it waits here */
	if (read(go_r, &c, 1) != 1)
		_exit(127);
	execvpe(argv[0], argv,
		(char *const *)(spec->envp ? spec->envp : environ));
fail:
	e = errno;
	if (write(report_w, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * fork + exec with a handshake, for counted samples: posix_spawn cannot
 * stop the child between fork and exec, and the counter must be attached
 * before exec so that enable_on_exec starts it at the program's first
 * instruction. Returns the pid, or -1 with errno set.
 */
static pid_t fork_counted(const struct run_spec *spec, char **argv,
			  int out_w, int err_w, int *perf_fd)
{
	int go[2] = { -1, -1 }, report[2] = { -1, -1 };
	pid_t pid = -1;
	int e = 0;
	ssize_t n;

	*perf_fd = -1;
	if (cloexec_pipe(go) < 0)
		return -1;
	if (cloexec_pipe(report) < 0)
		goto done;
	pid = fork();
	if (pid < 0)
		goto done;
	if (pid == 0)
		counted_child(spec, argv, out_w, err_w, go[0], report[1]);
	setpgid(pid, pid);	/* either side may win the race */
	close_fd(&go[0]);
	close_fd(&report[1]);
	*perf_fd = counter_perf_open(pid);
	if (*perf_fd < 0) {
		e = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
		goto done;
	}
	if (write(go[1], "g", 1) != 1)
		e = errno;
	close_fd(&go[1]);
	/* EOF: exec succeeded (the pipe is close-on-exec); else its errno */
	while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(e) || e) {
		waitpid(pid, NULL, 0);
		close_fd(perf_fd);
		pid = -1;
	}
done:
	close_fd(&go[0]);
	close_fd(&go[1]);
	close_fd(&report[0]);
	close_fd(&report[1]);
	if (pid < 0)
		errno = e ? e : errno;
	return pid;
}

/* The argv to start: spec's own (NULL, errno set, when it cannot be
   run), or /bin/sh -c with its string in sh_argv. */
static char **spawn_argv(const struct run_spec *spec, char *sh_argv[4])
{
	if (spec->cmd->argv)
		return executable(spec->cmd->argv[0], spec->cwd) < 0 ? NULL :
		       spec->cmd->argv;
	sh_argv[0] = (char *)"/bin/sh";
	sh_argv[1] = (char *)"-c";
	sh_argv[2] = spec->cmd->shell;
	sh_argv[3] = NULL;
	return sh_argv;
}

/*
 * What posix_spawn does in the child: cwd, stdin from /dev/null, stdout
 * and stderr to the log or the pipes' write ends; its own process group
 * (a timeout or Ctrl-C can stop the whole tree at once), gate's handled
 * signals back to their defaults and none blocked.
 */
static void spawn_setup(posix_spawn_file_actions_t *fa,
			posix_spawnattr_t *attr, const struct run_spec *spec,
			int out_w, int err_w)
{
	static const int *defaults = default_signals;
	sigset_t sigs;
	size_t i;

	posix_spawn_file_actions_init(fa);
	posix_spawnattr_init(attr);
	if (spec->cwd)
		posix_spawn_file_actions_addchdir_np(fa, spec->cwd);
	posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (spec->log_fd >= 0) {
		posix_spawn_file_actions_adddup2(fa, spec->log_fd, 1);
		posix_spawn_file_actions_adddup2(fa, spec->log_fd, 2);
	} else {
		posix_spawn_file_actions_adddup2(fa, out_w, 1);
		posix_spawn_file_actions_adddup2(fa, err_w, 2);
	}
	posix_spawnattr_setpgroup(attr, 0);
	sigemptyset(&sigs);
	for (i = 0; i < sizeof(default_signals) / sizeof(default_signals[0]);
	     i++)
		sigaddset(&sigs, defaults[i]);
	posix_spawnattr_setsigdefault(attr, &sigs);
	sigemptyset(&sigs);
	posix_spawnattr_setsigmask(attr, &sigs);
	posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGDEF |
				 POSIX_SPAWN_SETSIGMASK);
}

int run_start(struct proc **out, const struct run_spec *spec)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char *sh_argv[4];
	char **argv;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	struct proc *p;
	int rc;

	*out = NULL;
	argv = spawn_argv(spec, sh_argv);
	if (!argv)
		return -1;
	if (spec->log_fd < 0 && (cloexec_pipe(outp) < 0 ||
				 cloexec_pipe(errp) < 0)) {
		close_fd(&outp[0]);
		close_fd(&outp[1]);
		return error("cannot create a pipe:");
	}
	spawn_setup(&fa, &attr, spec, outp[1], errp[1]);
	p = xcalloc(1, sizeof(*p));
	p->out_fd = p->err_fd = p->perf_fd = -1;
	p->grace = spec->grace > 0 ? spec->grace : 1.0;
	p->res = NULL;
	p->start = clock_seconds();
	if (spec->count_instructions) {
		p->pid = fork_counted(spec, argv, outp[1], errp[1],
				      &p->perf_fd);
		rc = p->pid < 0 ? errno : 0;
	} else {
		rc = posix_spawnp(&p->pid, argv[0], &fa, &attr, argv,
				  (char *const *)(spec->envp ? spec->envp : environ));
	}
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close_fd(&outp[1]);
	close_fd(&errp[1]);
	if (rc != 0) {
		close_fd(&outp[0]);
		close_fd(&errp[0]);
		free(p);
		errno = rc;
		return -1;
	}
	p->out_fd = outp[0];
	p->err_fd = errp[0];
	p->capture = spec->capture;
	p->deadline = spec->timeout > 0 ? p->start + spec->timeout : 0;
	p->limit = spec->timeout;
	*out = p;
	return 0;
}

static void feed_out(struct proc *p, const char *buf, size_t n)
{
	uint64_t h = p->res->out_hash;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)buf[i];
		h *= FNV_PRIME;
	}
	p->res->out_hash = h;
	p->res->out_bytes += n;
	if (!p->capture || p->res->out_overflow)
		return;
	if (p->res->out_len + n > p->capture) {
		/* bounded memory: the caller reports it, keeps nothing */
		p->res->out_overflow = 1;
		free(p->res->out);
		p->res->out = NULL;
		p->res->out_len = 0;
		return;
	}
	if (p->res->out_len + n + 1 > p->out_cap) {
		p->out_cap = 2 * (p->res->out_len + n + 1);
		p->res->out = xrealloc(p->res->out, p->out_cap);
	}
	memcpy(p->res->out + p->res->out_len, buf, n);
	p->res->out_len += n;
	p->res->out[p->res->out_len] = '\0';
}

/*
 * Keep the last RUN_TAIL bytes of stderr without unbounded buffering. NUL
 * bytes become '?': the tail is a C string, and a binary flood must not
 * hide the message at its end.
 */
static void feed_err(struct proc *p, const char *buf, size_t n)
{
	char *t = p->res->err_tail;
	size_t i, from = 0;

	if (n >= RUN_TAIL) {
		memcpy(t, buf + n - RUN_TAIL, RUN_TAIL);
		p->tail_len = RUN_TAIL;
	} else {
		if (p->tail_len + n > RUN_TAIL) {
			size_t drop = p->tail_len + n - RUN_TAIL;

			memmove(t, t + drop, p->tail_len - drop);
			p->tail_len -= drop;
		}
		from = p->tail_len;
		memcpy(t + p->tail_len, buf, n);
		p->tail_len += n;
	}
	for (i = from; i < p->tail_len; i++)
		if (t[i] == '\0')
			t[i] = '?';
	t[p->tail_len] = '\0';
}

static void pump(struct proc *p, int *fd, int is_out)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n > 0) {
		if (is_out)
			feed_out(p, buf, (size_t)n);
		else
			feed_err(p, buf, (size_t)n);
	} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
		close_fd(fd);
	}
}

static void try_reap(struct proc *p)
{
	struct rusage ru;
	int status;
	pid_t r = wait4(p->pid, &status, WNOHANG | WUNTRACED, &ru);
	struct run_result *res = p->res;

	if (r != p->pid)
		return;
	if (WIFSTOPPED(status)) {
		/* stopped (SIGTTIN: it read the terminal) waits forever:
		   kill it now and say why, not "timed out" later */
		if (!p->stopped)
			p->stopped = WSTOPSIG(status);
		kill(-p->pid, SIGKILL);
		return;
	}
	res->wall = clock_seconds() - p->start;
	res->limit = p->limit;
	p->reaped = 1;
	res->user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
	res->sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
#ifdef __APPLE__
	res->maxrss_kb = ru.ru_maxrss / 1024;	/* bytes on macOS */
#else
	res->maxrss_kb = ru.ru_maxrss;
#endif
	res->minflt = ru.ru_minflt;
	res->majflt = ru.ru_majflt;
	res->ctxsw = ru.ru_nvcsw + ru.ru_nivcsw;
	if (p->interrupted) {
		res->status = RUN_INTERRUPTED;
		res->code = signals_pending();
	} else if (p->stopped) {
		res->status = RUN_STOPPED;
		res->code = p->stopped;
	} else if (p->timed_out) {
		res->status = RUN_TIMEOUT;
	} else if (WIFEXITED(status)) {
		res->code = WEXITSTATUS(status);
		res->status = res->code ? RUN_EXIT : RUN_OK;
	} else {
		res->code = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		res->status = RUN_SIGNAL;
	}
	/* whatever the child left behind in its group (daemons) goes too */
	kill(-p->pid, SIGKILL);
	p->deadline = clock_seconds() + DRAIN_SECONDS;
	p->kill_at = 0;
}

/* Escalate: SIGTERM to the group, then SIGKILL after the grace period. */
static void stop_group(struct proc *p, double t)
{
	if (p->kill_at == 0) {
		kill(-p->pid, SIGTERM);
		p->kill_at = t + p->grace;
	} else if (t >= p->kill_at) {
		kill(-p->pid, SIGKILL);
		p->kill_at = t + 3600;	/* sent; wait for the reap */
	}
}

static int proc_done(const struct proc *p)
{
	return p->reaped && p->out_fd < 0 && p->err_fd < 0;
}

/* Before the first look: each result empty, its stdout hash begun. */
static void results_begin(struct proc **procs, struct run_result *results,
			  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&results[i], 0, sizeof(results[i]));
		results[i].out_hash = FNV_OFFSET;
		results[i].instructions = NAN;
		procs[i]->res = &results[i];
		if (procs[i]->capture)
			results[i].out = xcalloc(1, procs[i]->out_cap = 1);
	}
}

static void wake_by(double *wake, double t)
{
	if (*wake < 0 || t < *wake)
		*wake = t;
}

/*
 * One process's clock at time t: an interrupt (sig) or its deadline stops
 * its group; once reaped, leftovers that outstay the drain are no longer
 * read. Brings *wake forward to when p next needs attention. Returns 1
 * while its pipes are still to be watched.
 */
static int proc_tend(struct proc *p, double t, int sig, double *wake)
{
	if (p->reaped) {
		if (t >= p->deadline) {
			/* leftovers escaped the group: stop reading */
			close_fd(&p->out_fd);
			close_fd(&p->err_fd);
			return 0;
		}
		wake_by(wake, p->deadline);
		return 1;
	}
	if (sig && !p->interrupted) {
		p->interrupted = 1;
		p->grace = p->grace < 0.5 ? p->grace : 0.5;
		p->kill_at = 0;
	}
	if (p->interrupted || (p->deadline && t >= p->deadline)) {
		if (!p->interrupted)
			p->timed_out = 1;
		stop_group(p, t);
		wake_by(wake, p->kill_at);
	} else if (p->deadline) {
		wake_by(wake, p->deadline);
	}
	return 1;
}

/* p's open pipes appended to pfd[np...]; returns the new count. */
static size_t watch_pipes(struct pollfd *pfd, size_t np, const struct proc *p)
{
	if (p->out_fd >= 0) {
		pfd[np].fd = p->out_fd;
		pfd[np++].events = POLLIN;
	}
	if (p->err_fd >= 0) {
		pfd[np].fd = p->err_fd;
		pfd[np++].events = POLLIN;
	}
	return np;
}

/* After a poll: read the pipes it found ready (all of pfd but the last,
   the signal pipe), then reap whoever has exited. */
static void serve(struct proc **procs, size_t n, const struct pollfd *pfd,
		  size_t np)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct proc *p = procs[i];

		for (k = 0; k < np - 1; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (pfd[k].fd == p->out_fd)
				pump(p, &p->out_fd, 1);
			else if (pfd[k].fd == p->err_fd)
				pump(p, &p->err_fd, 0);
		}
		if (!p->reaped)
			try_reap(p);
	}
}

static size_t procs_left(struct proc **procs, size_t n)
{
	size_t i, left = 0;

	for (i = 0; i < n; i++)
		if (!proc_done(procs[i]))
			left++;
	return left;
}

/* The instruction counts, read last (exited children have added theirs
   now), then each proc freed. */
static void procs_end(struct proc **procs, struct run_result *results,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (procs[i]->perf_fd >= 0 &&
		    counter_perf_read(procs[i]->perf_fd,
				      &results[i].instructions) < 0)
			results[i].instructions = NAN;
		close_fd(&procs[i]->perf_fd);
		free(procs[i]);
	}
}

/*
 * poll() failed (errno e): gate can no longer watch its children. Each one
 * not yet reaped is killed with its group and reaped, its result RUN_LOST
 * (never a success with no time); every pipe is closed.
 */
static void procs_abandon(struct proc **procs, size_t n, int e)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct proc *p = procs[i];

		if (!p->reaped) {
			kill(-p->pid, SIGKILL);
			while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
				;
			p->reaped = 1;
			p->res->status = RUN_LOST;
			p->res->code = e;
			p->res->wall = clock_seconds() - p->start;
			p->res->limit = p->limit;
		}
		close_fd(&p->out_fd);
		close_fd(&p->err_fd);
	}
}

int run_wait(struct proc **procs, struct run_result *results, size_t n)
{
	struct pollfd *pfd = xcalloc(2 * n + 1, sizeof(*pfd));
	size_t i, left = n;

	results_begin(procs, results, n);
	while (left > 0) {
		double t = clock_seconds(), wake = -1;
		size_t np = 0;
		int sig = signals_pending();
		int ms;

		for (i = 0; i < n; i++)
			if (!proc_done(procs[i]) &&
			    proc_tend(procs[i], t, sig, &wake))
				np = watch_pipes(pfd, np, procs[i]);
		pfd[np].fd = signals_fd();
		pfd[np++].events = POLLIN;
		ms = wake < 0 ? -1 : (int)((wake - t) * 1000.0) + 1;
		if (poll(pfd, np, ms) < 0 && errno != EINTR) {
			int e = errno;

			error("poll failed:");
			procs_abandon(procs, n, e);
			procs_end(procs, results, n);
			free(pfd);
			return -1;
		}
		signals_drain();
		serve(procs, n, pfd, np);
		left = procs_left(procs, n);
	}
	procs_end(procs, results, n);
	free(pfd);
	return 0;
}

int run_one(struct run_result *res, const struct run_spec *spec)
{
	struct proc *p;

	if (run_start(&p, spec) < 0) {
		memset(res, 0, sizeof(*res));
		res->status = RUN_SPAWN;
		res->code = errno;
		res->instructions = NAN;
		return -1;
	}
	return run_wait(&p, res, 1);
}

/* Why a stopped child was killed: the terminal signals name their cause. */
static void run_describe_stop(int sig, char *buf, size_t size)
{
	if (sig == SIGTTIN)
		snprintf(buf, size, "was stopped by SIGTTIN: it read the "
			 "terminal; gate gives benchmarks no terminal, stdin "
			 "is /dev/null");
	else if (sig == SIGTTOU)
		snprintf(buf, size, "was stopped by SIGTTOU: it wrote to the "
			 "terminal or changed its settings; gate gives "
			 "benchmarks no terminal");
	else
		snprintf(buf, size, "was stopped by signal %d (%s) and killed",
			 sig, strsignal(sig));
}

const char *run_describe(const struct run_result *res, char *buf,
			 size_t size)
{
	switch (res->status) {
	case RUN_OK:
		snprintf(buf, size, "succeeded");
		break;
	case RUN_EXIT:
		snprintf(buf, size, "exited with code %d", res->code);
		break;
	case RUN_SIGNAL:
		snprintf(buf, size, "was killed by signal %d (%s)", res->code,
			 strsignal(res->code));
		break;
	case RUN_STOPPED:
		run_describe_stop(res->code, buf, size);
		break;
	case RUN_TIMEOUT:
		snprintf(buf, size, "timed out after %g s and was killed",
			 res->limit);
		break;
	case RUN_SPAWN:
		snprintf(buf, size, "could not be started: %s",
			 strerror(res->code));
		break;
	case RUN_INTERRUPTED:
		snprintf(buf, size, "was stopped because gate was interrupted");
		break;
	case RUN_LOST:
		snprintf(buf, size, "was killed: gate could not wait for it "
			 "(%s)", strerror(res->code));
		break;
	}
	return buf;
}
