/*
 * The build cache of the workspace: slots a..z under $GIT_DIR/gate/, each
 * keeping the tree it last built, so a run never rebuilds a tree already
 * built with the same command and environment (least recently used slot
 * reused first). Part of the workspace (gate/workspace/workspace.h).
 */
#include "gate/workspace/workspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/tree.h"
#include "common/file.h"
#include "common/sha256.h"
#include "gate/exec/box.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/exec/notice.h"
#include "common/banned.h"

#define SLOT_NAMES "abcdefghijklmnopqrstuvwxyz"
#define SLOT_MAX 26

struct slot_state {
	char tree[REPO_HEXSZ + 1];
	char build[64];		/* build key, "" until built */
	unsigned long used;	/* use counter: larger is more recent */
	int exists;
};

static char *slot_file(const char *gate_dir, int s, const char *suffix)
{
	return xasprintf("%s/%c%s", gate_dir, SLOT_NAMES[s], suffix);
}

static void slot_read(const char *gate_dir, int s, struct slot_state *st)
{
	char *path = slot_file(gate_dir, s, ".state"), line[128];
	char *dir = slot_file(gate_dir, s, "");
	struct stat sb;
	FILE *f;

	memset(st, 0, sizeof(*st));
	st->exists = !lstat(dir, &sb);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "tree ", 5))
			snprintf(st->tree, sizeof(st->tree), "%.*s",
				 REPO_HEXSZ, line + 5);
		else if (!strncmp(line, "build ", 6))
			snprintf(st->build, sizeof(st->build), "%.*s",
				 (int)sizeof(st->build) - 1, line + 6);
		else if (!strncmp(line, "used ", 5))
			st->used = strtoul(line + 5, NULL, 10);
	}
	if (f)
		fclose(f);
	free(path);
	free(dir);
}

static void slot_write(const char *gate_dir, int s,
		       const struct slot_state *st)
{
	char *path = slot_file(gate_dir, s, ".state");
	char *tmp = slot_file(gate_dir, s, ".state.tmp");
	FILE *f;

	unlink(tmp);
	f = fopen(tmp, "wx");
	if (f) {
		fprintf(f, "tree %s\nbuild %s\nused %lu\n", st->tree,
			st->build, st->used);
		if (fclose(f) == 0 && rename(tmp, path) == 0)
			goto done;
	}
	warning("cannot record the build cache in \"%s\":", path);
	unlink(tmp);
done:
	free(path);
	free(tmp);
}

static void slot_evict(const char *gate_dir, int s)
{
	static const char *const suffix[] = { "", ".git", ".state",
					      ".build.log", ".index",
					      ".manifest", ".env", NULL };
	size_t i;

	for (i = 0; suffix[i]; i++) {
		char *path = slot_file(gate_dir, s, suffix[i]);

		tree_remove(path, NULL);
		free(path);
	}
}

extern char **environ;

/* Variables that change from run to run and never change a build. */
static int volatile_var(const char *v)
{
	static const char *const prefix[] = { "GITHUB_", "RUNNER_",
		"ACTIONS_", "GATE_PAD=", "GATE_TMPDIR=", "PWD=", "OLDPWD=",
		"SHLVL=", "_=", "INVOCATION_ID=", "JOURNAL_STREAM=", "SSH_",
		"TERM", "COLUMNS=", "LINES=", "DISPLAY=", "XDG_SESSION",
		"WINDOWID=", "CI_JOB", NULL };
	size_t i;

	for (i = 0; prefix[i]; i++)
		if (!strncmp(v, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define FNV_START 1469598103934665603ULL
#define MIX(h, c) ((h) = ((h) ^ (unsigned char)(c)) * 1099511628211ULL)

/* Does the build see this variable? In a sandbox only the allowlist's. */
static int build_sees(const char *v)
{
	return !volatile_var(v) &&
	       (!box_available(NULL, 0) || box_env_allowed(v, NULL));
}

/* The variables a build sees, sorted (borrowed strings; free the array). */
static char **build_env(size_t *n_out)
{
	char **env;
	size_t i, n = 0, k = 0;

	while (environ[n])
		n++;
	env = xcalloc(n + 1, sizeof(*env));
	for (i = 0; i < n; i++)
		if (build_sees(environ[i]))
			env[k++] = environ[i];
	qsort(env, k, sizeof(*env), cmp_str);
	*n_out = k;
	return env;
}

char *workspace_build_key(const struct config *cfg)
{
	unsigned long long h = FNV_START, e = FNV_START;
	const char *p;
	char **env;
	size_t i, n;

	if (cfg->build.shell)
		for (p = cfg->build.shell, MIX(h, 's'); *p; p++)
			MIX(h, *p);
	for (i = 0; cfg->build.argv && cfg->build.argv[i]; i++)
		for (p = cfg->build.argv[i], MIX(h, 0); *p; p++)
			MIX(h, *p);
	/* the build inherits gate's environment: a different one rebuilds
	   (the key's second half, so that a miss can say which) */
	env = build_env(&n);
	for (i = 0; i < n; i++)
		for (p = env[i], MIX(e, '\n'); *p; p++)
			MIX(e, *p);
	free(env);
	return xasprintf("%016llx%016llx", h, e);
}

/* "NAME hash" a line for each variable the build sees, for saying later
   which one differs (malloc'd). */
static char *env_lines(void)
{
	char **env, *text = xstrdup(""), *t;
	size_t i, n;

	env = build_env(&n);
	for (i = 0; i < n; i++) {
		unsigned long long h = FNV_START;
		const char *eq = strchr(env[i], '=');

		for (t = (char *)eq + 1; *t; t++)
			MIX(h, *t);
		t = xasprintf("%s%.*s %016llx\n", text, (int)(eq - env[i]),
			      env[i], h);
		free(text);
		text = t;
	}
	free(env);
	return text;
}

/* The variables (up to three) whose values differ between two env_lines
   texts, as "A, B" (malloc'd; "" when none differs). */
static char *env_differs(const char *then, const char *now)
{
	char *hay = xasprintf("\n%s", then), *out = xstrdup(""), *t;
	const char *p, *nl;
	int k = 0;

	for (p = now; (nl = strchr(p, '\n')) && k < 3; p = nl + 1) {
		char *line = xasprintf("\n%.*s", (int)(nl + 1 - p), p);

		if (!strstr(hay, line)) {
			t = xasprintf("%s%s%.*s", out, k++ ? ", " : "",
				      (int)strcspn(p, " "), p);
			free(out);
			out = t;
		}
		free(line);
	}
	free(hay);
	return out;
}

static void arm_set_slot(struct workspace *w, size_t a, int s)
{
	struct arm_state *arm = &w->arm[a];

	arm->slot = s;
	arm->dir = slot_file(w->gate_dir, s, "");
	arm->index = slot_file(w->gate_dir, s, ".git/index");
	arm->log = slot_file(w->gate_dir, s, ".build.log");
}

/*
 * A kept build is trusted only when every file of its slot, tracked or
 * not, is what the manifest stored with it says: a build output a
 * benchmark rewrote in an earlier run is not reused. The manifest (or
 * NULL: build again, saying why unless quiet).
 */
static struct ws_manifest *slot_trusted(const char *gate_dir, int s)
{
	char *file = slot_file(gate_dir, s, ".manifest");
	char *dir = slot_file(gate_dir, s, "");
	struct ws_manifest *then = ws_manifest_load(file), *now = NULL;
	char *path = NULL, *what = NULL;

	if (!then) {
		notice("the build kept in %s has no manifest of its files: "
		       "building it again", dir);
	} else if (!(now = ws_manifest_take(dir, NULL)) ||
		   ws_manifest_diff(then, now, 1, &path, &what)) {
		notice("the build kept in %s changed since it was built "
		       "(\"%s\" %s): building it again", dir,
		       path ? path : "?", what ? what : "cannot be read");
		ws_manifest_free(then);
		then = NULL;
		slot_evict(gate_dir, s);	/* no later run takes it */
	}
	ws_manifest_free(now);
	free(path);
	free(what);
	free(file);
	free(dir);
	return then;
}

/*
 * Why arm a's tree, kept in slot s, is built again: another build command
 * or another environment (naming the variables that differ), said once.
 */
static void say_not_reused(const struct workspace *w, size_t a, int s,
			   const char *kept, const char *key)
{
	char *file = slot_file(w->gate_dir, s, ".env"), *then = NULL;
	char *now, *names;
	struct gate_err quiet;	/* none kept: every variable differs */
	size_t len;

	if (strncmp(kept, key, 16)) {
		notice("%s's tree was built before in %s with another build "
		       "command (%s's \"build\" changed): building it again",
		       arm_name((enum arm)a), notice_path(file, w->workdir),
		       arm_name((enum arm)a));
		free(file);
		return;
	}
	if (file_read_to(&then, &len, file, 1 << 20, &quiet) < 0 || !then)
		then = xstrdup("");
	now = env_lines();
	names = env_differs(then, now);
	notice("%s's tree was built before, in another environment (%s): "
	       "building it again; a build sees gate's environment, so "
	       "run gate with the same one to reuse a build",
	       arm_name((enum arm)a), names[0] ? names : "a variable is "
	       "no longer set");
	free(names);
	free(now);
	free(then);
	free(file);
}

/* Hits: for each arm, a slot that built its tree with its own build
   command in this environment. */
static void cache_hits(struct workspace *w, const struct slot_state *st,
		       int limit, const char *const *build_key, int *chosen,
		       int *taken)
{
	size_t a;
	int s;

	for (a = 0; a < 2; a++) {
		int same_tree = -1;

		for (s = 0; s < limit; s++)
			if (st[s].exists && st[s].build[0] &&
			    !strcmp(st[s].tree, w->arm[a].rev.tree))
				same_tree = s;
		for (s = 0; s < limit && chosen[a] < 0; s++) {
			char *index = slot_file(w->gate_dir, s, ".git/index");
			struct ws_manifest *m;
			struct stat sb;

			if (!taken[s] && st[s].exists && st[s].build[0] &&
			    !strcmp(st[s].build, build_key[a]) &&
			    !strcmp(st[s].tree, w->arm[a].rev.tree) &&
			    !lstat(index, &sb) &&
			    (m = slot_trusted(w->gate_dir, s))) {
				chosen[a] = s;
				taken[s] = 1;
				w->arm[a].kept = 1;
				ws_manifest_free(w->manifest[a]);
				w->manifest[a] = m;
			}
			free(index);
		}
		if (chosen[a] < 0 && same_tree >= 0 &&
		    strcmp(st[same_tree].build, build_key[a]))
			say_not_reused(w, a, same_tree, st[same_tree].build,
				       build_key[a]);
	}
}

/*
 * Misses: each arm without a hit gets an unused slot, else the least
 * recently used; of two fresh slots, swapped decides which arm gets which.
 */
static void cache_misses(const struct slot_state *st, int limit, int swapped,
			 int *chosen, int *taken)
{
	int fresh[2], nfresh = 0, n, s;

	for (n = 0; n < 2; n++) {
		int best = -1;

		if (chosen[0] >= 0 && chosen[1] >= 0)
			break;
		if (n == 1 && (chosen[0] >= 0 || chosen[1] >= 0))
			break;
		for (s = 0; s < limit; s++) {
			if (taken[s])
				continue;
			if (!st[s].exists) {
				best = s;
				break;
			}
			if (best < 0 || st[s].used < st[best].used)
				best = s;
		}
		fresh[nfresh++] = best;
		taken[best] = 1;
	}
	if (nfresh == 2) {
		chosen[0] = fresh[swapped ? 1 : 0];
		chosen[1] = fresh[swapped ? 0 : 1];
	} else if (nfresh == 1) {
		chosen[chosen[0] < 0 ? 0 : 1] = fresh[0];
	}
}

/* Take the chosen slots: each arm's directory, and its slot's state. */
static void claim_slots(struct workspace *w, const struct slot_state *st,
			const int *chosen, unsigned long top)
{
	size_t a;

	for (a = 0; a < 2; a++) {
		struct slot_state now = st[chosen[a]];

		/* a slot that builds anew starts empty: an incremental build
		   of another tree over its output (a Makefile that does not
		   depend on itself, changed CFLAGS) would leave the old
		   program to be measured, or to pass as "identical" */
		if (!w->arm[a].kept && now.exists)
			slot_evict(w->gate_dir, chosen[a]);
		arm_set_slot(w, a, chosen[a]);
		if (!w->arm[a].kept) {
			/* not built until the build succeeds */
			snprintf(now.tree, sizeof(now.tree), "%s",
				 w->arm[a].rev.tree);
			now.build[0] = '\0';
		}
		now.used = ++top;
		slot_write(w->gate_dir, chosen[a], &now);
	}
}

void workspace_slots_cached(struct workspace *w, int swapped,
			    const char *const *build_key, unsigned limit)
{
	struct slot_state st[SLOT_MAX];
	unsigned long top = 0;
	int chosen[2] = { -1, -1 }, taken[SLOT_MAX];
	int s;

	if (limit < 2)
		limit = 2;
	if (limit > SLOT_MAX)
		limit = SLOT_MAX;
	w->narms = 2;
	w->swapped = swapped;
	memset(taken, 0, sizeof(taken));
	for (s = 0; s < SLOT_MAX; s++) {
		slot_read(w->gate_dir, s, &st[s]);
		if (st[s].used > top)
			top = st[s].used;
	}
	cache_hits(w, st, (int)limit, build_key, chosen, taken);
	cache_misses(st, (int)limit, swapped, chosen, taken);
	/*
	 * One tree in both arms (an A/A run): either slot serves either arm,
	 * so the draw decides, as without the cache.
	 */
	if (!strcmp(w->arm[0].rev.tree, w->arm[1].rev.tree) &&
	    w->arm[0].kept == w->arm[1].kept &&
	    (swapped ? chosen[0] < chosen[1] : chosen[0] > chosen[1])) {
		s = chosen[0];
		chosen[0] = chosen[1];
		chosen[1] = s;
	}
	claim_slots(w, st, chosen, top);
	for (s = (int)limit; s < SLOT_MAX; s++)
		if (st[s].exists)
			slot_evict(w->gate_dir, s);
	for (s = 0; s < 2; s++) {
		free(w->build_key[s]);
		w->build_key[s] = xstrdup(build_key[s]);
	}
}

void workspace_mark_built(struct workspace *w)
{
	size_t a;

	for (a = 0; a < w->narms; a++) {
		struct slot_state st;

		if (w->arm[a].slot < 0)
			continue;
		slot_read(w->gate_dir, w->arm[a].slot, &st);
		snprintf(st.tree, sizeof(st.tree), "%s", w->arm[a].rev.tree);
		snprintf(st.build, sizeof(st.build), "%s",
			 w->build_key[a] ? w->build_key[a] : "");
		slot_write(w->gate_dir, w->arm[a].slot, &st);
		if (w->build_key[a]) {
			char *file = slot_file(w->gate_dir, w->arm[a].slot,
					       ".env");
			char *text = env_lines();
			FILE *f;

			/* only for saying why a build is not reused: a file
			   that cannot be written is left out */
			unlink(file);
			f = fopen(file, "wx");
			if (f && (fputs(text, f) < 0) + (fclose(f) != 0))
				unlink(file);
			free(text);
			free(file);
		}
	}
}



void workspace_slot_store(struct workspace *w)
{
	size_t a;

	for (a = 0; a < w->narms; a++) {
		char *file;

		if (w->arm[a].slot < 0 || !w->manifest[a])
			continue;
		file = slot_file(w->gate_dir, w->arm[a].slot, ".manifest");
		if (ws_manifest_save(w->manifest[a], file) < 0)
			warning("cannot record the files of the build in "
				"\"%s\" (it will be built again):", file);
		free(file);
	}
}

void workspace_slot_discard(struct workspace *w, size_t a)
{
	struct arm_state *arm = &w->arm[a];
	struct gate_err err;

	if (!arm->dir)
		return;
	/* the build output goes: a full disk has room for the next run */
	if (tree_remove(arm->dir, &err) < 0)
		warning("%s: remove it by hand", err.msg);
	if (arm->slot >= 0) {
		struct slot_state st;
		char *file = slot_file(w->gate_dir, arm->slot, ".manifest");

		unlink(file);
		free(file);
		slot_read(w->gate_dir, arm->slot, &st);
		st.build[0] = '\0';	/* not built: never a hit */
		slot_write(w->gate_dir, arm->slot, &st);
	}
	arm->kept = 0;
	ws_manifest_free(w->manifest[a]);
	w->manifest[a] = NULL;
}
