/*
 * The runner: a run started in a fresh process group (runner-spawn.c),
 * then one poll() loop over the children's pipes and the signal self-pipe
 * that enforces timeouts with SIGTERM-then-SIGKILL to the whole group.
 */
#define _GNU_SOURCE	/* wait4, strsignal */
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
#include "gate/exec/box.h"
#include "gate/exec/counter.h"
#include "gate/exec/signals.h"
#include "gate/exec/runner-internal.h"
#include "gate/os/os.h"
#include "common/banned.h"

extern char **environ;

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
/* after the main child is reaped, how long its leftovers may hold a pipe */
#define DRAIN_SECONDS 1.0

/*
 * The runs started and not yet reaped: every other child of gate is
 * something a run left behind (gate starts nothing else).
 */
static pid_t *live;
static size_t nlive, live_alloc;
static int reaper = -1;		/* -1: not asked yet */

void runner_track(pid_t pid)
{
	XGROW(live, live_alloc, nlive + 1);
	live[nlive++] = pid;
}

void runner_untrack(pid_t pid)
{
	size_t i;

	for (i = 0; i < nlive; i++)
		if (live[i] == pid) {
			live[i] = live[--nlive];
			break;
		}
	if (!nlive) {
		free(live);
		live = NULL;
		live_alloc = 0;
	}
}

int runner_subreaper(void)
{
	if (reaper < 0)
		reaper = os_subreaper() == 0;
	return reaper;
}

int runner_sandbox(char *why, size_t size)
{
	return os_sandbox_abi(why, size);
}

static int is_live(pid_t pid)
{
	size_t i;

	for (i = 0; i < nlive; i++)
		if (live[i] == pid)
			return 1;
	return 0;
}

/*
 * Orphans come to gate (the subreaper) when their parent exits: kill each
 * child that is not a live run, reap it, and look again, as its own
 * children now come to gate in turn. Bounded: a tree that forks faster
 * than it is killed is still cut 64 generations deep, then its process
 * group goes with the run's.
 */
void runner_reap_orphans(void)
{
	pid_t pids[256];
	int round;

	if (reaper != 1)
		return;
	for (round = 0; round < 64; round++) {
		siginfo_t si;
		long n, i, killed = 0;

		/* the common case, no child at all, costs one system call */
		memset(&si, 0, sizeof(si));
		if (!nlive && waitid(P_ALL, 0, &si, WEXITED | WNOHANG |
				     WNOWAIT) < 0 && errno == ECHILD)
			return;
		n = os_children(pids, sizeof(pids) / sizeof(*pids));
		if (n > (long)(sizeof(pids) / sizeof(*pids)))
			n = (long)(sizeof(pids) / sizeof(*pids));
		for (i = 0; i < n; i++) {
			if (is_live(pids[i]))
				continue;
			kill(pids[i], SIGKILL);
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
			killed++;
		}
		if (!killed)
			return;
	}
}

void runner_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
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
	XGROW(p->res->out, p->out_cap, p->res->out_len + n + 1);
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
		runner_close_fd(fd);
	}
}

/*
 * A run timed inside its sandbox: the sampler's record replaces what gate
 * saw from outside (which includes the sandbox's set-up), unless the run
 * was stopped, interrupted or timed out, or wrote no record (the sampler
 * was killed with it).
 */
static void take_record(struct proc *p)
{
	struct run_result *res = p->res;
	struct box_record r;
	char buf[256];
	ssize_t n;
	size_t len = 0;
	int fl = fcntl(p->rec_fd, F_GETFL);

	/* the sampler wrote its record before it exited, and the sandbox
	   exits after it: what is not in the pipe now never comes. Never
	   wait for its end: a process the sandbox left behind (its set-up
	   killed half-way by an interrupt) may hold it open for ever. */
	if (fl >= 0)
		(void)fcntl(p->rec_fd, F_SETFL, fl | O_NONBLOCK);
	while (len < sizeof(buf) - 1 &&
	       ((n = read(p->rec_fd, buf + len, sizeof(buf) - 1 - len)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	buf[len] = '\0';
	runner_close_fd(&p->rec_fd);
	if (box_record_parse(buf, &r) < 0 || res->status == RUN_TIMEOUT ||
	    res->status == RUN_INTERRUPTED || res->status == RUN_STOPPED)
		return;
	res->wall = r.wall;
	res->user = r.user;
	res->sys = r.sys;
	res->maxrss_kb = r.maxrss_kb;
	res->minflt = r.minflt;
	res->majflt = r.majflt;
	res->ctxsw = r.ctxsw;
	res->instructions = r.instructions >= 0 ? r.instructions : NAN;
	res->code = r.code;
	res->status = r.exited ? (r.code ? RUN_EXIT : RUN_OK) : RUN_SIGNAL;
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
	/* whatever the child left behind in its group (daemons) goes too,
	   and what left the group (setsid) came to gate, the subreaper */
	kill(-p->pid, SIGKILL);
	if (p->rec_fd >= 0)
		take_record(p);
	runner_untrack(p->pid);
	runner_reap_orphans();
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
			runner_close_fd(&p->out_fd);
			runner_close_fd(&p->err_fd);
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
		runner_close_fd(&procs[i]->perf_fd);
		runner_close_fd(&procs[i]->rec_fd);
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
			runner_untrack(p->pid);
			p->reaped = 1;
			p->res->status = RUN_LOST;
			p->res->code = e;
			p->res->wall = clock_seconds() - p->start;
			p->res->limit = p->limit;
		}
		runner_close_fd(&p->out_fd);
		runner_close_fd(&p->err_fd);
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
	runner_reap_orphans();
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

int run_first_line(char **argv, char *buf, size_t size)
{
	struct command cmd = { argv, NULL };
	struct run_spec spec = { .cmd = &cmd, .timeout = 10, .grace = 0.5,
				 .log_fd = -1, .capture = 256 };
	struct run_result res;
	int ret = -1;

	if (run_one(&res, &spec) == 0 && res.status == RUN_OK && res.out &&
	    res.out_len > 0) {
		res.out[strcspn(res.out, "\r\n")] = '\0';
		snprintf(buf, size, "%s", res.out);
		ret = 0;
	}
	free(res.out);
	return ret;
}
