/*
 * Starting a run (runner.h): posix_spawn into a fresh process group with
 * the run's directory, environment and pipes, or a fork that opens the
 * instruction counter on the child or applies the write sandbox before it
 * execs; a command that cannot be executed is refused first, the same on
 * every C library.
 */
#include "gate/exec/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "gate/exec/box.h"
#include "gate/exec/counter.h"
#include "gate/exec/runner-internal.h"
#include "gate/exec/signals.h"
#include "gate/os/os.h"
#include "common/banned.h"

extern char **environ;

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
 * The child side of fork_run: what posix_spawn's attributes and file
 * actions do, by hand, then the write sandbox, then (counted samples)
 * wait for the parent to attach the counter. Only async-signal-safe
 * calls until exec; failures go back as an errno.
 */
static void forked_child(const struct run_spec *spec, char **argv,
			 int out_w, int err_w, int go_r, int report_w)
	__attribute__((noreturn));
static void forked_child(const struct run_spec *spec, char **argv,
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
	/* a sandbox that cannot be applied is no reason to run unsealed */
	if (spec->sandbox_write && os_sandbox_apply(spec->sandbox_write) < 0)
		goto fail;
	/* the counter is opened on this pid while it waits here */
	if (go_r >= 0 && read(go_r, &c, 1) != 1)
		_exit(127);
	os_execvpe(argv[0], argv,
		   (char *const *)(spec->envp ? spec->envp : environ));
fail:
	e = errno;
	if (write(report_w, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * vfork, where the child need not wait for the parent (no counter): a
 * fork copies gate's page tables and lets both run, which on a loaded
 * 2-core machine cost ~9 ms per sample more than posix_spawn (make
 * bench-seal); vfork suspends gate until the child has exec'd, as
 * posix_spawn does. Every signal is blocked across it, so no handler of
 * gate's runs in the child while they share memory (the child sets its
 * own dispositions and mask before exec). The child only makes system
 * calls before exec or _exit.
 */
static pid_t start_vfork(const struct run_spec *spec, char **argv,
			 int out_w, int err_w, int report_w)
{
	sigset_t all, old;
	pid_t pid;
	int e;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = vfork();
	if (pid == 0)
		forked_child(spec, argv, out_w, err_w, -1, report_w);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

/*
 * fork + exec with a handshake, where posix_spawn cannot do the work:
 * counted samples (the counter must be attached before exec, so that
 * enable_on_exec starts it at the program's first instruction), sandboxed
 * ones (Landlock is applied in the child, between fork and exec), and
 * systems without posix_spawn's chdir action. *perf_fd is the counter
 * when count, else -1. Returns the pid, or -1 with errno set.
 */
static pid_t fork_run(const struct run_spec *spec, char **argv,
		      int out_w, int err_w, int count, int *perf_fd)
{
	int go[2] = { -1, -1 }, report[2] = { -1, -1 };
	pid_t pid = -1;
	int e = 0;
	ssize_t n;

	*perf_fd = -1;
	if (count && cloexec_pipe(go) < 0)
		return -1;
	if (cloexec_pipe(report) < 0)
		goto done;
	if (spec->sandbox_write)
		os_sandbox_abi(NULL, 0);	/* asked before the fork */
	pid = count ? fork() : start_vfork(spec, argv, out_w, err_w,
					   report[1]);
	if (pid < 0)
		goto done;
	if (pid == 0)
		forked_child(spec, argv, out_w, err_w, go[0], report[1]);
	setpgid(pid, pid);	/* either side may win the race */
	runner_close_fd(&go[0]);
	runner_close_fd(&report[1]);
	if (count) {
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
		runner_close_fd(&go[1]);
	}
	/* EOF: exec succeeded (the pipe is close-on-exec); else its errno */
	while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(e) || e) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		runner_close_fd(perf_fd);
		pid = -1;
	}
done:
	runner_close_fd(&go[0]);
	runner_close_fd(&go[1]);
	runner_close_fd(&report[0]);
	runner_close_fd(&report[1]);
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
 * signals back to their defaults and none blocked. 0, or an errno value:
 * a set-up call that failed would start the child in the wrong directory
 * or with the wrong files, so nothing is started (ENOSYS from the chdir
 * action: the caller forks instead). Initialised in every case: the
 * caller destroys both.
 */
static int spawn_setup(posix_spawn_file_actions_t *fa,
		       posix_spawnattr_t *attr, const struct run_spec *spec,
		       int out_w, int err_w, int rec_w)
{
	static const int *defaults = default_signals;
	sigset_t sigs;
	size_t i;
	int rc = 0;

#define TRY(call) do { if (!rc) rc = (call); } while (0)
	if (posix_spawn_file_actions_init(fa))
		abort();	/* ENOMEM only, as xmalloc */
	if (posix_spawnattr_init(attr))
		abort();
	if (spec->cwd)
		TRY(os_spawn_addchdir(fa, spec->cwd));
	TRY(posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY,
					     0));
	TRY(posix_spawn_file_actions_adddup2(fa, spec->log_fd >= 0 ?
					     spec->log_fd : out_w, 1));
	TRY(posix_spawn_file_actions_adddup2(fa, spec->log_fd >= 0 ?
					     spec->log_fd : err_w, 2));
	if (rec_w >= 0)
		TRY(posix_spawn_file_actions_adddup2(fa, rec_w,
						     BOX_RECORD_FD));
	TRY(posix_spawnattr_setpgroup(attr, 0));
	sigemptyset(&sigs);
	for (i = 0; i < sizeof(default_signals) / sizeof(default_signals[0]);
	     i++)
		sigaddset(&sigs, defaults[i]);
	TRY(posix_spawnattr_setsigdefault(attr, &sigs));
	sigemptyset(&sigs);
	TRY(posix_spawnattr_setsigmask(attr, &sigs));
	TRY(posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP |
				     POSIX_SPAWN_SETSIGDEF |
				     POSIX_SPAWN_SETSIGMASK));
#undef TRY
	return rc;
}

/*
 * A pipe for the sampler's record, both ends above the descriptors a
 * child is given (the write end is moved to BOX_RECORD_FD in the child).
 */
static int record_pipe(int fds[2])
{
	int raw[2], i;

	if (cloexec_pipe(raw) < 0)
		return -1;
	for (i = 0; i < 2; i++) {
		fds[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
		close(raw[i]);
	}
	if (fds[0] < 0 || fds[1] < 0) {
		runner_close_fd(&fds[0]);
		runner_close_fd(&fds[1]);
		return -1;
	}
	return 0;
}

/* The argv of a run in its arm's sandbox, its environment, and in *keep
   what the argv borrows (free both after the spawn); NULL with errno when
   gate cannot name its own binary (the sampler). */
static char **box_spawn_argv(const struct run_spec *spec, char **argv,
			     char ***env_out, char **keep)
{
	static char exe[4096];	/* the sampler's path: the argv borrows it */
	char *preload = NULL;
	char *const *envp = spec->envp ? spec->envp : environ;
	const char *ro[16];
	char **env, **v, *p, *save = NULL;
	size_t i, k = 0;

	if (spec->box_timed && !exe[0] && box_sampler(exe, sizeof(exe)) < 0)
		return NULL;
	env = box_env(envp, spec->box->allow, spec->box->home);
	/* a preloaded library (gate's allocation counter), gate's probe and
	   the Python path (gate's pytest plugin) are shown, read-only,
	   wherever they lie: the paths in one ':'-separated string */
	for (i = 0; env[i]; i++) {
		static const char *const shown[] = { "LD_PRELOAD=",
			"GATE_PROBE=", "PYTHONPATH=", NULL };
		size_t s;

		for (s = 0; shown[s]; s++)
			if (!strncmp(env[i], shown[s], strlen(shown[s]))) {
				char *t = xasprintf("%s%s%s",
					preload ? preload : "",
					preload ? ":" : "",
					env[i] + strlen(shown[s]));

				free(preload);
				preload = t;
			}
	}
	/* the sampler (gate) must not load it: it hands it to the sample */
	if (spec->box_timed)
		box_env_hand_preload(env);
	for (p = preload ? strtok_r(preload, ":", &save) : NULL; p && k < 15;
	     p = strtok_r(NULL, ":", &save))
		if (p[0] == '/')
			ro[k++] = p;
	ro[k] = NULL;
	v = box_command(spec->box->argv, ro, spec->box_rw, spec->box_rw_at,
			spec->cwd ? spec->cwd : ".", spec->box_timed,
			spec->count_instructions, exe, argv);
	*keep = preload;
	*env_out = env;
	return v;
}

int run_start(struct proc **out, const struct run_spec *spec)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char *sh_argv[4];
	char **argv, **boxed = NULL, **boxed_env = NULL, *boxed_keep = NULL;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int rec[2] = { -1, -1 };
	struct proc *p;
	int rc, setup;

	*out = NULL;
	runner_subreaper();	/* before the first child: none escapes */
	argv = spawn_argv(spec, sh_argv);
	if (!argv)
		return -1;
	if (spec->box) {
		boxed = box_spawn_argv(spec, argv, &boxed_env, &boxed_keep);
		if (!boxed)
			return -1;
		argv = boxed;
		if (spec->box_timed && record_pipe(rec) < 0) {
			free(boxed);
			free(boxed_keep);
			strv_free(boxed_env);
			return error("cannot create a pipe:");
		}
	}
	if (spec->log_fd < 0 && (cloexec_pipe(outp) < 0 ||
				 cloexec_pipe(errp) < 0)) {
		runner_close_fd(&outp[0]);
		runner_close_fd(&outp[1]);
		runner_close_fd(&rec[0]);
		runner_close_fd(&rec[1]);
		free(boxed);
		free(boxed_keep);
		strv_free(boxed_env);
		return error("cannot create a pipe:");
	}
	setup = spawn_setup(&fa, &attr, spec, outp[1], errp[1], rec[1]);
	p = xcalloc(1, sizeof(*p));
	p->out_fd = p->err_fd = p->perf_fd = p->rec_fd = -1;
	p->grace = spec->grace > 0 ? spec->grace : 1.0;
	p->res = NULL;
	p->start = clock_seconds();
	if (!spec->box && (spec->count_instructions || spec->sandbox_write ||
			   setup == ENOSYS)) {
		p->pid = fork_run(spec, argv, outp[1], errp[1],
				  spec->count_instructions, &p->perf_fd);
		rc = p->pid < 0 ? errno : 0;
	} else if (setup) {
		rc = setup;
	} else {
		rc = posix_spawnp(&p->pid, argv[0], &fa, &attr, argv,
				  boxed_env ? boxed_env :
				  (char *const *)(spec->envp ? spec->envp :
						  environ));
	}
	free(boxed);
	free(boxed_keep);
	strv_free(boxed_env);
	runner_close_fd(&rec[1]);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	runner_close_fd(&outp[1]);
	runner_close_fd(&errp[1]);
	if (rc != 0) {
		runner_close_fd(&outp[0]);
		runner_close_fd(&errp[0]);
		runner_close_fd(&rec[0]);
		free(p);
		errno = rc;
		return -1;
	}
	p->out_fd = outp[0];
	p->err_fd = errp[0];
	p->rec_fd = rec[0];
	p->capture = spec->capture;
	p->deadline = spec->timeout > 0 ? p->start + spec->timeout : 0;
	p->limit = spec->timeout;
	runner_track(p->pid);
	*out = p;
	return 0;
}
