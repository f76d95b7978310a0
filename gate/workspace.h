/*
 * The workspace every command that builds revisions measures in: gate's
 * directory under $GIT_DIR and its lock, the arm slots, checkouts, builds,
 * the preflight of "build" and "run", and the measuring layout.
 */
#ifndef GATE_WORKSPACE_H
#define GATE_WORKSPACE_H

#include <stddef.h>

#include "gate/config.h"
#include "gate/exec/layout.h"
#include "gate/measure.h"
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
	char *build_key;	/* the build cache's key, or NULL */
	struct artifact_memo *hashed;	/* every artifact file hashed in
					   this run, by its path in the arm */
	size_t nhashed;
	struct gate_err *err;	/* NULL: a stage that fails prints why;
				   else it puts why here (error_to) and
				   prints nothing */
};
struct artifact_memo {
	char *path;
	char sha256[65];
};
#define WORKSPACE_INIT { NULL, NULL, -1, NULL, \
	{ { REPO_REV_INIT, NULL, NULL, NULL, NULL, 0, -1, 0 }, \
	  { REPO_REV_INIT, NULL, NULL, NULL, NULL, 0, -1, 0 } }, 0, 0, 0, \
	LAYOUT_INIT, \
	NULL, NULL, { REPO_FILES_INIT, REPO_FILES_INIT }, NULL, NULL, 0, NULL }

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
			    const char *build_key, unsigned limit);
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
