/*
 * Unit tests for gate/exec/box.c: the environment's allowlist, the
 * sampler's record, the argv of a sandboxed run, and (where bubblewrap
 * can start here) what a run in an arm's sandbox can and cannot reach.
 * This binary is its own sampler (main hands --box-sample over), as gate
 * is.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/file.h"
#include "gate/exec/box.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "tests/harness.h"

static int has(char **env, const char *var)
{
	size_t i;

	for (i = 0; env[i]; i++)
		if (!strcmp(env[i], var))
			return 1;
	return 0;
}

static void test_box__env_allowlist(void)
{
	char *envp[] = { (char *)"PATH=/usr/bin", (char *)"LC_ALL=C",
		(char *)"GATE_PAD=xx", (char *)"GITHUB_TOKEN=secret",
		(char *)"GITHUB_OUTPUT=/tmp/o", (char *)"RUNNER_TEMP=/r",
		(char *)"ACTIONS_RUNTIME_TOKEN=t", (char *)"HOME=/home/u",
		(char *)"STATE=/s", (char *)"SSH_AUTH_SOCK=/a", NULL };
	const char *allow[] = { "STATE", NULL };
	char **env = box_env(envp, NULL, "/home/u");

	CHECK(has(env, "PATH=/usr/bin"));
	CHECK(has(env, "LC_ALL=C"));
	CHECK(has(env, "GATE_PAD=xx"));
	CHECK(has(env, "HOME=/home/u"));
	CHECK(!has(env, "GITHUB_TOKEN=secret"));
	CHECK(!has(env, "GITHUB_OUTPUT=/tmp/o"));
	CHECK(!has(env, "RUNNER_TEMP=/r"));
	CHECK(!has(env, "ACTIONS_RUNTIME_TOKEN=t"));
	CHECK(!has(env, "STATE=/s"));
	CHECK(!has(env, "SSH_AUTH_SOCK=/a"));
	strv_free(env);
	/* HOME inside is empty: rustup's proxies are told where the
	   user's toolchains are, unless RUSTUP_HOME already says */
	{
		char dir[] = "/tmp/gate-test-rustup.XXXXXX";
		char *rustup, *homevar, *want;

		CHECK(mkdtemp(dir) != NULL);
		rustup = xasprintf("%s/.rustup", dir);
		homevar = xasprintf("HOME=%s", dir);
		want = xasprintf("RUSTUP_HOME=%s", rustup);
		envp[7] = homevar;
		env = box_env(envp, NULL, "/inside");
		CHECK(!has(env, want));
		strv_free(env);
		CHECK(mkdir(rustup, 0700) == 0);
		env = box_env(envp, NULL, "/inside");
		CHECK(has(env, want) && has(env, "HOME=/inside"));
		strv_free(env);
		envp[8] = (char *)"RUSTUP_HOME=/opt/r";
		env = box_env(envp, NULL, "/inside");
		CHECK(!has(env, want) && has(env, "RUSTUP_HOME=/opt/r"));
		strv_free(env);
		CHECK(rmdir(rustup) == 0 && rmdir(dir) == 0);
		free(rustup);
		free(homevar);
		free(want);
	}
	/* base's pass_env adds a name, never a CI provider's */
	CHECK(box_env_allowed("STATE=/s", allow));
	CHECK(!box_env_allowed("STATEX=/s", allow));
	CHECK(!box_env_allowed("GITHUB_TOKEN=x", (const char *[]){
		"GITHUB_TOKEN", NULL }));
}

static void test_box__record(void)
{
	struct box_record r;

	CHECK(box_record_parse("0.125000000 0.1 0.02 2048 10 1 3 -1 1 7\n",
			       &r) == 0);
	CHECK(r.wall == 0.125 && r.maxrss_kb == 2048 && r.ctxsw == 3);
	CHECK(r.exited == 1 && r.code == 7);
	CHECK(box_record_parse("0.1 0.1", &r) < 0);
	CHECK(box_record_parse("", &r) < 0);
}

static void test_box__command(void)
{
	char *box[] = { (char *)"bwrap", (char *)"--ro-bind", (char *)"/",
			(char *)"/", NULL };
	char *argv[] = { (char *)"./bench", (char *)"x", NULL };
	const char *rw[] = { "/s", "/u", NULL };
	const char *at[] = { BOX_RUN_DIR, NULL, NULL };
	char **v = box_command(box, NULL, rw, at, "/w", 1, 0, "/gate", argv);
	size_t n = 0, i, dash = 0, binds = 0;

	while (v[n])
		n++;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], "--") && !dash)
			dash = i;
	CHECK(!strcmp(v[0], "bwrap"));
	CHECK(dash > 0 && !strcmp(v[dash + 1], "/tmp/.gate-sampler"));
	CHECK(!strcmp(v[dash + 2], BOX_SAMPLE_OPTION));
	CHECK(!strcmp(v[n - 2], "./bench") && !strcmp(v[n - 1], "x"));
	/* /s bound at the fixed path, /u at its own */
	for (i = 0; i + 2 < dash; i++)
		if (!strcmp(v[i], "--bind-try")) {
			binds++;
			CHECK(!strcmp(v[i + 1], "/s") ?
			      !strcmp(v[i + 2], BOX_RUN_DIR) :
			      !strcmp(v[i + 1], "/u") &&
			      !strcmp(v[i + 2], "/u"));
		}
	CHECK(binds == 2);
	free(v);
	/* untimed (a build): the command itself after "--" */
	v = box_command(box, NULL, NULL, NULL, "/w", 0, 0, NULL, argv);
	for (n = 0; v[n]; n++)
		if (!strcmp(v[n], "--"))
			break;
	CHECK(v[n] && !strcmp(v[n + 1], "./bench"));
	free(v);
}

/* A sandbox like an arm's: tree writable or not, other hidden. */
static struct run_result boxed(const char *tree, const char *other,
			       int tree_rw, int timed, const char *script)
{
	const char *hide[] = { other, NULL };
	struct box_conf c = { .tree = tree, .tree_rw = tree_rw,
			      .hide = hide };
	char **argv = box_argv(&c);
	struct box_run br = { .argv = argv };
	struct command cmd = { NULL, (char *)script };
	struct run_spec spec = { .cmd = &cmd, .cwd = tree, .timeout = 30,
				 .grace = 0.3, .log_fd = -1, .box = &br,
				 .box_timed = timed };
	struct run_result r;

	run_one(&r, &spec);
	strv_free(argv);
	free(r.out);
	return r;
}

static void test_box__arm_sees_only_itself(void)
{
	char dir[] = "/tmp/gate-test-box.XXXXXX", why[256];
	char *tree, *other, *secret, *mine, *cmd, *sock;
	struct sockaddr_un sa;
	struct run_result r;
	struct stat st;
	int fd;

	if (!box_available(why, sizeof(why))) {
		printf("  (skipped: %s)\n", why);
		return;
	}
	CHECK(mkdtemp(dir) != NULL);
	tree = xasprintf("%s/tree", dir);
	other = xasprintf("%s/other", dir);
	secret = xasprintf("%s/secret", other);
	mine = xasprintf("%s/mine", tree);
	CHECK(mkdir(tree, 0700) == 0 && mkdir(other, 0700) == 0);
	CHECK(fclose(fopen(secret, "w")) == 0);
	/* the other arm is an empty directory; a build writes its tree */
	cmd = xasprintf("test ! -e %s && test -d %s && echo x >mine", secret,
			other);
	r = boxed(tree, other, 1, 0, cmd);
	CHECK(r.status == RUN_OK);
	CHECK(stat(mine, &st) == 0);
	free(cmd);
	/* a sample's tree is read-only; the system too */
	r = boxed(tree, other, 0, 1, "echo y >mine || exit 4");
	CHECK(r.status == RUN_EXIT && r.code == 4);
	r = boxed(tree, other, 0, 1, "touch /usr/gate-test 2>/dev/null || "
		  "exit 5");
	CHECK(r.status == RUN_EXIT && r.code == 5);
	/* its own PID namespace: gate (this process) is not there */
	cmd = xasprintf("kill -0 %ld 2>/dev/null && exit 6; exit 0",
			(long)getpid());
	r = boxed(tree, other, 0, 1, cmd);
	CHECK(r.status == RUN_OK);
	free(cmd);
	/* the host's sockets under /run (a Docker daemon's, D-Bus) are not
	   there: connecting needs no write, so read-only is not enough */
	sock = xasprintf("/run/gate-test-box-%ld.sock", (long)getpid());
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		cmd = xasprintf("test -e %s && exit 7; exit 0", sock);
		r = boxed(tree, other, 1, 0, cmd);
		CHECK(r.status == RUN_OK);
		free(cmd);
		unlink(sock);
	} else {
		printf("  (a socket under /run: not tried, /run is not "
		       "writable here)\n");
	}
	if (fd >= 0)
		close(fd);
	free(sock);
	/* timed inside: a sleep's time is the sample's, an exit code
	   passes through the sampler */
	r = boxed(tree, other, 0, 1, "sleep 0.2; exit 3");
	CHECK(r.status == RUN_EXIT && r.code == 3);
	CHECK(r.wall >= 0.19 && r.wall < 20);
	CHECK(unlink(mine) == 0 && unlink(secret) == 0);
	CHECK(rmdir(tree) == 0 && rmdir(other) == 0 && rmdir(dir) == 0);
	free(tree);
	free(other);
	free(secret);
	free(mine);
}

/*
 * A sandbox whose leader exits while something it started, in a session
 * of its own, still holds the record's pipe (bwrap's set-up killed
 * half-way by an interrupt once left its child waiting for ever): the
 * run ends when the leader does, without the record, never waiting for
 * the pipe's end. The stand-in for bwrap is a shell that leaves a
 * 60-second sleep behind.
 */
static void test_box__leftover_holds_no_run(void)
{
	char pidfile[] = "/tmp/gate-test-box-pid.XXXXXX";
	char *script, *text;
	char *argv[4] = { (char *)"/bin/sh", (char *)"-c", NULL, NULL };
	struct box_run br = { .argv = argv };
	struct command cmd = { NULL, (char *)"exit 0" };
	struct run_spec spec = { .cmd = &cmd, .timeout = 120, .grace = 0.3,
				 .log_fd = -1, .box = &br, .box_timed = 1 };
	struct run_result r;
	double t0;
	int fd = mkstemp(pidfile);
	long pid = 0;
	size_t tlen = 0;

	CHECK(fd >= 0);
	close(fd);
	script = xasprintf("setsid sleep 60 </dev/null >/dev/null 2>&1 & "
			   "echo $! >%s; exit 0", pidfile);
	argv[2] = script;
	t0 = clock_seconds();
	if (run_one(&r, &spec) < 0) {
		printf("  (skipped: gate cannot name its own binary here)\n");
	} else {
		CHECK(r.status == RUN_OK);
		CHECK(clock_seconds() - t0 < 30);
		free(r.out);
	}
	text = NULL;
	if (file_read(&text, &tlen, pidfile, 64) == 0 && text && sscanf(text, "%ld", &pid) == 1 && pid > 0)
		kill((pid_t)pid, SIGKILL);
	free(text);
	unlink(pidfile);
	free(script);
}

static const struct harness_test tests[] = {
	TEST(test_box__env_allowlist),
	TEST(test_box__record),
	TEST(test_box__command),
	TEST(test_box__arm_sees_only_itself),
	TEST(test_box__leftover_holds_no_run),
};

int main(int argc, char **argv)
{
	/* this binary is the sampler of the sandboxed runs it starts */
	if (argc > 1 && !strcmp(argv[1], BOX_SAMPLE_OPTION))
		return box_sample_main(argc - 2, argv + 2);
	if (signals_init() < 0)
		return 1;
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
