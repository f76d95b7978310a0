/*
 * One sandbox per arm through bubblewrap (box.h): the options that build
 * an arm's mount, PID, IPC, UTS and user namespaces, the allowlist of its
 * environment, and the record of the sampler (sampler.c) that times a
 * sample inside its sandbox.
 */
#include "gate/exec/box.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/exec/self.h"
#include "gate/os/os.h"
#include "common/banned.h"

extern char **environ;

/* Where gate's own binary is shown, read-only, inside a sample's sandbox
   (in the sandbox's private /tmp, so nothing of the host is touched). */
#define BOX_SAMPLER "/tmp/.gate-sampler"

static int probed = -1;		/* -1: not asked yet */
static char probe_why[200];
static char version[64];

/*
 * Run argv with stdout and stderr into buf (its first line kept, NUL-
 * ended): 1 when it exits 0, 0 when it fails, -1 when it cannot start.
 */
static int first_line(char *const *argv, char *buf, size_t size)
{
	posix_spawn_file_actions_t fa;
	int p[2], status = 0, ret = -1;
	pid_t pid;
	ssize_t n;

	buf[0] = '\0';
	if (pipe(p) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0) {
		close(p[1]);
		p[1] = -1;
		while ((n = read(p[0], buf, size - 1)) < 0 && errno == EINTR)
			;
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ret = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	return ret;
}

/* Run bwrap with the namespaces an arm gets on /bin/true: 1 when it
   starts, else 0 with why in probe_why. */
static int probe(void)
{
	char *argv[] = { (char *)"bwrap", (char *)"--unshare-user",
		(char *)"--unshare-pid", (char *)"--unshare-ipc",
		(char *)"--unshare-uts", (char *)"--unshare-net",
		(char *)"--die-with-parent", (char *)"--new-session",
		(char *)"--cap-drop", (char *)"ALL",
		(char *)"--ro-bind", (char *)"/", (char *)"/",
		(char *)"--dev", (char *)"/dev", (char *)"--proc",
		(char *)"/proc", (char *)"--tmpfs", (char *)"/tmp",
		(char *)"--", (char *)"true", NULL };
	char *vargv[] = { (char *)"bwrap", (char *)"--version", NULL };
	char line[160];
	int ok = first_line(argv, line, sizeof(line));

	if (ok < 0)
		snprintf(probe_why, sizeof(probe_why), "bubblewrap (bwrap) is "
			 "not installed: apt-get install bubblewrap");
	else if (!ok)
		snprintf(probe_why, sizeof(probe_why), "bwrap could not start "
			 "a sandbox%s%s", line[0] ? ": " : "", line);
	else if (first_line(vargv, version, sizeof(version)) < 1)
		snprintf(version, sizeof(version), "bubblewrap");
	return ok > 0;
}

int box_available(char *why, size_t size)
{
	const char *v = getenv("GATE_SANDBOX");
	char exe[4096];

	if (probed < 0) {
		if (v && (!strcmp(v, "off") || !strcmp(v, "landlock"))) {
			snprintf(probe_why, sizeof(probe_why),
				 "turned off by GATE_SANDBOX=%s", v);
			probed = 0;
		} else if (os_self_exe(exe, sizeof(exe)) < 0) {
			/* the sampler is gate itself, started by its path */
			snprintf(probe_why, sizeof(probe_why), "gate cannot "
				 "name its own binary (/proc/self/exe), which "
				 "times a sample inside the sandbox");
			probed = 0;
		} else {
			probed = probe();
		}
	}
	if (why && size)
		snprintf(why, size, "%s", probed ? "" : probe_why);
	return probed;
}

const char *box_version(void)
{
	return version;
}

struct args {
	char **v;
	size_t n, cap;
};

static void add(struct args *a, const char *s)
{
	XGROW(a->v, a->cap, a->n + 2);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void add3(struct args *a, const char *opt, const char *x,
		 const char *y)
{
	add(a, opt);
	add(a, x);
	if (y)
		add(a, y);
}

char **box_argv(const struct box_conf *c)
{
	static const char *const fixed[] = { "bwrap", "--die-with-parent",
		"--new-session", "--unshare-user", "--unshare-pid",
		"--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--cap-drop", "ALL", NULL };
	struct args a = { NULL, 0, 0 };
	struct stat st;
	size_t i;

	for (i = 0; fixed[i]; i++)
		add(&a, fixed[i]);
	if (!c->net)
		add(&a, "--unshare-net");
	/* the system read-only; a /dev, /proc (this PID namespace's) and
	   /tmp of its own */
	add3(&a, "--ro-bind", "/", "/");
	add3(&a, "--dev", "/dev", NULL);
	add3(&a, "--proc", "/proc", NULL);
	add3(&a, "--tmpfs", "/tmp", NULL);
	/* the host's sockets (a Docker or containerd daemon, D-Bus, a user's
	   session bus) live under /run: connecting to one needs no write to
	   a file system, so a read-only /run would still hand an arm the
	   daemon and through it the whole machine. Only the resolver's
	   files come back, for builds base lets use the network. */
	add3(&a, "--tmpfs", "/run", NULL);
	add3(&a, "--ro-bind-try", "/run/systemd/resolve",
	     "/run/systemd/resolve");
	if (lstat("/var/run", &st) == 0 && S_ISDIR(st.st_mode))
		add3(&a, "--tmpfs", "/var/run", NULL);
	if (c->home)
		add3(&a, "--tmpfs", c->home, NULL);
	for (i = 0; c->hide && c->hide[i]; i++)
		add3(&a, "--tmpfs", c->hide[i], NULL);
	for (i = 0; c->ro && c->ro[i]; i++)
		add3(&a, "--ro-bind-try", c->ro[i], c->ro[i]);
	add3(&a, c->tree_rw ? "--bind" : "--ro-bind", c->tree, c->tree);
	if (c->gitdir)
		add3(&a, c->tree_rw ? "--bind" : "--ro-bind", c->gitdir,
		     c->gitdir);
	for (i = 0; c->rw && c->rw[i]; i++)
		add3(&a, "--bind-try", c->rw[i], c->rw[i]);
	for (i = 0; c->cache_src && c->cache_src[i]; i++)
		add3(&a, "--bind", c->cache_src[i], c->cache_dst[i]);
	return a.v;
}

char **box_command(char *const *box, const char *const *extra_ro,
		   const char *const *extra_rw, const char *const *extra_rw_at,
		   const char *cwd, int timed, int count, const char *exe,
		   char *const *argv)
{
	size_t n = 0, k = 0, i;
	char **v;

	for (i = 0; box[i]; i++)
		n++;
	for (i = 0; extra_rw && extra_rw[i]; i++)
		n += 3;
	for (i = 0; extra_ro && extra_ro[i]; i++)
		n += 3;
	for (i = 0; argv[i]; i++)
		n++;
	v = xcalloc(n + 16, sizeof(*v));
	for (i = 0; box[i]; i++)
		v[k++] = box[i];
	for (i = 0; extra_ro && extra_ro[i]; i++) {
		v[k++] = (char *)"--ro-bind-try";
		v[k++] = (char *)extra_ro[i];
		v[k++] = (char *)extra_ro[i];
	}
	for (i = 0; extra_rw && extra_rw[i]; i++) {
		v[k++] = (char *)"--bind-try";
		v[k++] = (char *)extra_rw[i];
		v[k++] = (char *)(extra_rw_at && extra_rw_at[i] ?
				  extra_rw_at[i] : extra_rw[i]);
	}
	v[k++] = (char *)"--chdir";
	v[k++] = (char *)cwd;
	if (timed) {
		v[k++] = (char *)"--ro-bind";
		v[k++] = (char *)exe;
		v[k++] = (char *)BOX_SAMPLER;
	}
	v[k++] = (char *)"--";
	if (timed) {
		v[k++] = (char *)BOX_SAMPLER;
		v[k++] = (char *)BOX_SAMPLE_OPTION;
		if (count)
			v[k++] = (char *)"--count";
		v[k++] = (char *)"--";
	}
	for (i = 0; argv[i]; i++)
		v[k++] = argv[i];
	v[k] = NULL;
	return v;
}

/*
 * What an arm's runs may see of gate's environment: the locale, the
 * search path, the toolchains' own settings and gate's variables; never
 * a CI provider's files or tokens (GITHUB_*, ACTIONS_*, RUNNER_*), which
 * a build could write to or send away.
 */
static const char *const allowed[] = { "PATH", "LANG", "LANGUAGE", "TZ",
	"TERM", "USER", "LOGNAME", "SHELL", "TMPDIR", "SOURCE_DATE_EPOCH",
	"CC", "CXX", "CPP", "FC", "AR", "LD", "CFLAGS", "CXXFLAGS", "CPPFLAGS",
	"LDFLAGS", "LDLIBS", "FFLAGS", "PKG_CONFIG_PATH", "LD_LIBRARY_PATH",
	"LD_PRELOAD", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
	"CPLUS_INCLUDE_PATH", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN",
	"RUSTFLAGS", "GOPATH", "GOROOT", "GOFLAGS", "GOCACHE", "GOMODCACHE",
	"GOMAXPROCS", "GOTOOLCHAIN", "JAVA_HOME", "PYENV_ROOT",
	"PYENV_VERSION", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHASHSEED",
	"PYTHONDONTWRITEBYTECODE", "PYTHONMALLOC", "NODE_PATH",
	"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
	"BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VALGRIND_LIB",
	"LD_BIND_NOW", "PYTEST_ADDOPTS", "BENCHMARK_MIN_TIME", "GIT_DIR",
	"GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG_NOSYSTEM", NULL };
static const char *const allowed_prefix[] = { "LC_", "GATE_", NULL };

static int name_is(const char *var, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(var, name, n) && var[n] == '=';
}

int box_env_allowed(const char *var, const char *const *allow)
{
	size_t i;

	if (name_is(var, "GITHUB_TOKEN") || !strncmp(var, "GITHUB_", 7) ||
	    !strncmp(var, "ACTIONS_", 8) || !strncmp(var, "RUNNER_", 7))
		return 0;
	for (i = 0; allowed[i]; i++)
		if (name_is(var, allowed[i]))
			return 1;
	for (i = 0; allowed_prefix[i]; i++)
		if (!strncmp(var, allowed_prefix[i],
			     strlen(allowed_prefix[i])))
			return 1;
	for (i = 0; allow && allow[i]; i++)
		if (name_is(var, allow[i]))
			return 1;
	return 0;
}

/* The user's rustup directory when rustup's proxies need one named:
   RUSTUP_HOME unset and $HOME/.rustup a directory (malloc'd), else NULL. */
static char *rustup_home(char *const *envp)
{
	const char *home = NULL;
	struct stat st;
	char *dir;
	size_t i;

	for (i = 0; envp[i]; i++) {
		if (name_is(envp[i], "RUSTUP_HOME"))
			return NULL;
		if (name_is(envp[i], "HOME"))
			home = envp[i] + 5;
	}
	if (!home || home[0] != '/')
		return NULL;
	dir = xasprintf("%s/.rustup", home);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return dir;
	free(dir);
	return NULL;
}

char **box_env(char *const *envp, const char *const *allow,
	       const char *home)
{
	size_t n = 0, k = 0, i;
	char **env, *rustup = rustup_home(envp);

	for (i = 0; envp[i]; i++)
		n++;
	env = xcalloc(n + 3, sizeof(*env));
	for (i = 0; envp[i]; i++)
		if (box_env_allowed(envp[i], allow) &&
		    !name_is(envp[i], "HOME"))
			env[k++] = xstrdup(envp[i]);
	/* HOME inside is empty: rustup's proxies (~/.cargo/bin) find their
	   toolchains where the sandbox shows them (workspace-box.c) */
	if (rustup) {
		env[k++] = xasprintf("RUSTUP_HOME=%s", rustup);
		free(rustup);
	}
	env[k++] = xasprintf("HOME=%s", home && *home ? home : "/tmp");
	env[k] = NULL;
	return env;
}

#define HANDED "GATE_BOX_LD_PRELOAD="

void box_env_hand_preload(char **env)
{
	size_t i;

	for (i = 0; env[i]; i++)
		if (!strncmp(env[i], "LD_PRELOAD=", 11)) {
			char *handed = xasprintf(HANDED "%s", env[i] + 11);

			free(env[i]);
			env[i] = handed;
		}
}

int box_sampler(char *buf, size_t size)
{
	char *cand[2], *path = self_file_find("gate-sampler", X_OK, cand);

	free(cand[0]);
	free(cand[1]);
	if (!path)
		return os_self_exe(buf, size);
	snprintf(buf, size, "%s", path);
	free(path);
	return 0;
}

int box_record_parse(const char *text, struct box_record *r)
{
	memset(r, 0, sizeof(*r));
	if (sscanf(text, "%lf %lf %lf %ld %ld %ld %ld %lf %d %d", &r->wall,
		   &r->user, &r->sys, &r->maxrss_kb, &r->minflt, &r->majflt,
		   &r->ctxsw, &r->instructions, &r->exited, &r->code) != 10)
		return -1;
	return 0;
}
