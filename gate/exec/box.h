/*
 * One sandbox per arm: the kernel's namespaces through bubblewrap (bwrap).
 * An arm's builds, checks and samples see a read-only system, their own
 * checkout, a private HOME and /tmp, a PID namespace of their own, and
 * nothing of the other arm, the user's repository or gate's files.
 */
#ifndef GATE_BOX_H
#define GATE_BOX_H

#include <stddef.h>

/* The option gate is re-executed with inside a sample's sandbox. */
#define BOX_SAMPLE_OPTION "--box-sample"
/* The descriptor the sampler writes its record to. */
#define BOX_RECORD_FD 3
/*
 * Where a counted run's own directory is bound inside its sandbox: one
 * path for every run, so that no counted process sees a path or an
 * environment another does not (doc/counted.md).
 */
#define BOX_RUN_DIR "/tmp/gate-run"

/* What one arm's sandbox holds; every path absolute. */
struct box_conf {
	const char *tree;	/* the arm's checkout */
	const char *gitdir;	/* the arm's own git dir, or NULL */
	int tree_rw;		/* 1: builds may write the checkout; 0:
				   samples see it read-only */
	int net;		/* 1: keep the network (base allows it for
				   builds); 0: none */
	const char *const *hide;	/* NULL-terminated: each replaced by
					   an empty directory */
	const char *const *ro;	/* NULL-terminated: shown read-only again
				   (inside a hidden one: git's objects) */
	const char *const *rw;	/* NULL-terminated: writable (scratch,
				   base's "writable", declared caches) */
	const char *home;	/* the user's HOME: hidden, and HOME inside
				   is an empty private directory at its path */
	const char *const *cache_src;	/* NULL-terminated: the arm's own
					   directory bound writable at ... */
	const char *const *cache_dst;	/* ... the same index here */
};

/*
 * Can bubblewrap start a sandbox here? 1, or 0 with why in why (no bwrap
 * on PATH, user namespaces refused, GATE_SANDBOX=landlock or off). Asked
 * once per process.
 */
int box_available(char *why, size_t size);
/* bwrap's version line ("bubblewrap 0.8.0"), or "" when not asked. */
const char *box_version(void);
/*
 * The argv prefix (bwrap and its options, up to but without "--" and the
 * command) for c; NULL-terminated, every string malloc'd; free with
 * strv_free.
 */
char **box_argv(const struct box_conf *c);
/*
 * The full argv of one run in the sandbox box: box, extra read-only and
 * writable paths (each NULL-terminated, or NULL; extra_rw_at, NULL or
 * beside extra_rw, the path each is bound at inside, NULL for its own),
 * the working directory, then "--" and argv;
 * with timed, gate itself (exe, shown read-only inside) starts argv and
 * takes its time inside the sandbox, so that the sandbox's set-up is never
 * in a sample (count: it also counts its instructions). The strings are
 * borrowed; free the array only.
 */
char **box_command(char *const *box, const char *const *extra_ro,
		   const char *const *extra_rw, const char *const *extra_rw_at,
		   const char *cwd, int timed, int count, const char *exe,
		   char *const *argv);
/*
 * The environment an arm's runs get: only the allowlist's variables of
 * envp (and those base names in allow, NULL-terminated or NULL), HOME
 * set to home, and RUSTUP_HOME naming the user's ~/.rustup when it is
 * unset and that exists; malloc'd, every string its own (free with
 * strv_free).
 */
char **box_env(char *const *envp, const char *const *allow,
	       const char *home);
/*
 * Rename LD_PRELOAD in env (from box_env) to the sampler's own variable,
 * which the sampler turns back into LD_PRELOAD for the sample alone.
 */
void box_env_hand_preload(char **env);
/* Is this variable one an arm's runs get (the allowlist)? */
int box_env_allowed(const char *var, const char *const *allow);

/*
 * The sampler's path into buf: gate-sampler beside gate's binary or in
 * ../lib/gate/ (gate/exec/self.h), else gate itself, which takes the same
 * arguments. 0, or -1 with errno when gate cannot name its own binary.
 */
int box_sampler(char *buf, size_t size);
/*
 * The sampler, inside the sandbox (gate-sampler, or gate --box-sample): start argv, wait for it, and write its
 * wall time, rusage and status to BOX_RECORD_FD. Returns the exit code.
 */
int box_sample_main(int argc, char **argv);

/* The record a sampler wrote, parsed; 0, or -1 when there is none. */
struct box_record {
	double wall, user, sys, instructions;
	long maxrss_kb, minflt, majflt, ctxsw;
	int exited, code;	/* exited 1: exit code; 0: killed by code */
};
int box_record_parse(const char *text, struct box_record *r);

#endif
