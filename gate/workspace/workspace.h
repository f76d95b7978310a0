/*
 * The workspace every command that builds revisions measures in: gate's
 * directory under $GIT_DIR and its lock, the arm slots, checkouts, builds,
 * the preflight of "build" and "run", and the measuring layout.
 */
#ifndef GATE_WORKSPACE_H
#define GATE_WORKSPACE_H

#include <stddef.h>

#include "gate/config/config.h"
#include "gate/exec/layout.h"
#include "gate/exec/runner.h"
#include "gate/measure/measure.h"
#include "git/repo.h"

struct gate_err;

/* One checkout: its revision and where it is built and logged (owned). */
struct arm_state {
	struct repo_rev rev;
	char *how;		/* how the base was chosen */
	char *dir, *index, *log;
	double build_seconds;	/* the build's wall time (0: no build) */
	int slot;		/* the cache slot (0: a), or -1 */
	int kept;		/* its build of this tree is kept: no build
				   unless the checkout changed a file */
	char *gitdir;		/* its own git dir (gate/<slot>.git) */
	char **env;		/* the environment of its builds and checks:
				   gate's, git's repository variables out,
				   GIT_DIR, GIT_WORK_TREE and
				   GIT_CEILING_DIRECTORIES its own (owned) */
	char **box_argv[2];	/* its sandbox (bwrap's options) for builds
				   and checks [0] and samples [1], or NULL */
	struct box_run box[2];	/* the same as the runner takes them */
};

struct workspace {
	char *gate_dir;		/* $GIT_DIR/gate */
	char *lock_path;
	int lock_fd;
	const char *workdir;	/* the user's working tree, or NULL */
	struct arm_state arm[2];	/* by enum arm */
	size_t narms;		/* 1: calibrate on one build */
	int swapped;		/* base in slot b, head in a */
	int aa;			/* calibrate: one revision in every arm */
	struct layout layout;	/* padding and scratch per sample */
	const char *pin;	/* --pin CPUS, or NULL */
	char *pin_warning;
	struct repo_files files[2];	/* tracked files after the build */
	char *build_key[2];	/* each arm's build cache key, or NULL */
	struct artifact_memo *hashed;	/* every artifact file hashed in
					   this run, by its path in the arm */
	size_t nhashed;
	struct gate_err *err;	/* NULL: a stage that fails prints why;
				   else it puts why here (error_to) and
				   prints nothing */
	char **writable;	/* extra paths a sandboxed benchmark may
				   write (base's "writable"): relative to its
				   checkout, or absolute; NULL-terminated,
				   owned by the caller; NULL: none */
	struct ws_manifest *manifest[2];	/* every file of each arm, as
						   its build left it */
	int sandbox_abi;	/* Landlock ABI in force while measuring, or
				   0 (then sandbox_why says why) */
	char sandbox_why[160];
	int boxed;		/* 1: each arm in a bubblewrap sandbox of its
				   own; 0: Landlock and manifests (box_why
				   says why); -1: not asked yet */
	char box_why[200];
	const struct config *policy;	/* base's policy (pass_env,
					   build_network), set by
					   workspace_build; borrowed */
	size_t hashed_cap;	/* hashed's capacity (XGROW) */
};
struct artifact_memo {
	char *path;
	char sha256[65];
};
#define ARM_STATE_INIT { .rev = REPO_REV_INIT, .slot = -1 }
#define WORKSPACE_INIT { .lock_fd = -1, \
	.arm = { ARM_STATE_INIT, ARM_STATE_INIT }, .layout = LAYOUT_INIT, \
	.files = { REPO_FILES_INIT, REPO_FILES_INIT }, .boxed = -1 }

/* Create $GIT_DIR/gate (0700) and take its lock; 0 or -1. */
int workspace_open(struct workspace *w, struct repo *repo);
/* name inside gate's directory (malloc'd). */
char *workspace_path(const struct workspace *w, const char *name);
/*
 * narms arm slots of equal path length, a and b: base (arm 0) in b when
 * swapped. w->arm[a].rev must be resolved by the caller.
 */
void workspace_slots(struct workspace *w, size_t narms, int swapped);
/*
 * The build cache: the arms' slots among up to limit directories of equal
 * path length (.git/gate/a, b, c, ...), each holding the tree it last
 * built. An arm whose tree a slot has built with the same build command
 * gets that slot and is not rebuilt; the others get an unused slot or
 * the least recently used one (swapped decides between two fresh slots),
 * so no directory belongs to one arm across runs. Slots past limit are
 * removed. build_key names the build command.
 */
void workspace_slots_cached(struct workspace *w, int swapped,
			    const char *const *build_key, unsigned limit);
/* After a successful build: mark each arm's slot as built. */
void workspace_mark_built(struct workspace *w);
/* A key naming cfg's build command (and its timeout), for the cache. */
char *workspace_build_key(const struct config *cfg);
/*
 * What a stage that runs the user's commands ended with: done, an error
 * it has said, or stopped by a signal (nothing said; signals_pending()
 * names it, signals_exit_code() gives the exit code).
 */
enum ws_result {
	WS_ERROR = -1,
	WS_DONE = 0,
	WS_INTERRUPTED = 1,
};
/* Scan and check out each arm's tree. */
enum ws_result workspace_checkout(struct workspace *w, struct repo *repo,
				  int quiet);
/*
 * Preflight "build", then run it in every arm concurrently, logs in
 * w->arm[a].log: each arm with its own revision's command (def, by enum
 * arm: base's gate.json for base, head's for head), build_timeout and
 * serial_build from policy. WS_ERROR says why, with the log's tail.
 */
enum ws_result workspace_build(struct workspace *w,
			       const struct config *const def[2],
			       const struct config *policy, int quiet);
/*
 * Each benchmark's "check", once in every arm (after the build, before
 * any timing), output in .git/gate/<slot>.check.log. A failure is an
 * error naming the benchmark and the arm with the output's tail.
 */
enum ws_result workspace_check(struct workspace *w,
			       const struct config *const def[2],
			       const struct config *policy, int quiet);
/* Preflight every benchmark's "run" in every arm, each arm's own. */
int workspace_preflight(const struct workspace *w,
			const struct config *const def[2]);
/* The measuring layout (padding, scratch) and --pin; 0 or -1. */
int workspace_layout(struct workspace *w, int env_pad, int scratch,
		     unsigned long seed, const char *pin);
/*
 * Record every arm's tracked files as the build left them (after the
 * build, before measuring); workspace_verify then says whether any has
 * changed since: an error naming the arm and the file. 0 or -1.
 */
int workspace_fingerprint(struct workspace *w, struct repo *repo);
int workspace_verify(struct workspace *w, struct repo *repo);
/*
 * Hash br's "artifacts" (its config's paths and globs) in both arms'
 * checkouts into br->artifacts, sorted by path; a file one arm lacks has
 * "" there. A pattern matching no regular file in either arm is an error
 * naming the benchmark. 0 or -1. Each file is hashed once per run (w
 * keeps the hashes), so a top-level "artifacts" list that every benchmark
 * inherits costs one read of each file, not one per benchmark.
 */
int workspace_artifacts(struct workspace *w, struct bench_run *br);
/* Does path fall under pattern, as "sources" and "artifacts" read it: an
   fnmatch glob ('*' crosses '/'), or a directory named with or without
   its trailing '/'? */
int workspace_path_under(const char *pattern, const char *path);
/* 1: br has artifacts and each is byte-identical in both arms. */
int workspace_artifacts_identical(const struct bench_run *br);
/*
 * 1 when every tracked path that differs between the arms' trees falls
 * under one of sources (globs, '*' crossing '/', or directories); else 0
 * with the first path that does not in *outside (caller frees). -1 after
 * error_to(w->err, ...).
 */
int workspace_sources_only(char **outside, struct workspace *w,
			   struct repo *repo, char *const *sources,
			   size_t nsources);
/*
 * The arms sealed from each other (issue 22):
 *
 * workspace_arm_restore: before each build and check of arm (and, through
 * the layout, each sample), its ".git" file is written again, so git run
 * there finds the arm's own git dir even after a run deleted or replaced
 * it (GIT_DIR in arm->env says the same). 0 or -1.
 */
int workspace_arm_restore(const struct arm_state *arm, struct gate_err *err);
/*
 * The manifests (workspace-manifest.c): workspace_fingerprint takes one
 * of every file of each built arm and checks a kept arm's against the one
 * stored with its slot; workspace_manifest_verify checks both arms'
 * against theirs (between rounds; workspace_verify does it too): a file
 * that changed or went is an error naming the arm and the file. 0 or -1.
 */
int workspace_manifest_verify(struct workspace *w);
/*
 * A slot whose build cannot be trusted (a failed build, a disk that
 * filled up, a manifest that no longer matches): its build output is
 * removed and its state forgotten, so the next run checks it out and
 * builds it afresh. Call it for each arm whose build failed.
 */
void workspace_slot_discard(struct workspace *w, size_t arm);
/* Store each arm's manifest with its slot (after a verified run). */
void workspace_slot_store(struct workspace *w);
/*
 * Whether each arm gets a bubblewrap sandbox of its own (asked once): 1,
 * 0 (Landlock and manifests then; box_why says why), or -1 when
 * GATE_SANDBOX=bwrap demands it and it cannot start (message in w->err).
 */
int workspace_boxed(struct workspace *w);
/*
 * Arm a's sandbox for its builds and checks (sample 0) or its samples
 * (sample 1: its checkout read-only, scratch and base's "writable"
 * writable), made once into w->arm[a].box[sample]. 0 or -1.
 */
int workspace_box(struct workspace *w, size_t a, int sample);
void workspace_box_release(struct arm_state *arm);
/*
 * The isolation in force for the report's protocol, one line: "Landlock
 * ABI 7 and manifests", or "manifests only: Landlock not available (why)".
 */
const char *workspace_isolation(const struct workspace *w, char *buf,
				size_t size);

/* A manifest of every file under a checkout (workspace-manifest.c). */
struct ws_manifest;
struct ws_manifest *ws_manifest_take(const char *dir, struct gate_err *err);
/*
 * The first entry of then that now lacks or holds otherwise (strict: or a
 * file now has and then lacks): 1 with *path and *what ("was removed",
 * "changed ...", "was added"; malloc'd), else 0.
 */
int ws_manifest_diff(const struct ws_manifest *then,
		     const struct ws_manifest *now, int strict,
		     char **path, char **what);
int ws_manifest_save(const struct ws_manifest *m, const char *file);
struct ws_manifest *ws_manifest_load(const char *file);
void ws_manifest_free(struct ws_manifest *m);

/* Unlock and free what w owns. */
void workspace_release(struct workspace *w);

/*
 * The config: the file at path when non-NULL, else gate.json in head's
 * tree. *origin names it in messages (caller frees). 0 or -1.
 */
int workspace_load_config(struct config *cfg, char **origin,
			  struct repo *repo, const char *path,
			  const struct repo_rev *head);
/* The same, its message in *err (error_to) when err is not NULL. */
int workspace_load_config_to(struct config *cfg, char **origin,
			     struct repo *repo, const char *path,
			     const struct repo_rev *head, struct gate_err *err);

#endif
