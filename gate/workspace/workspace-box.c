/*
 * Each arm's sandbox (gate/exec/box.h) as the workspace lays it out: what
 * is hidden (the user's repository, gate's directory and so the other
 * arm, the user's HOME and /tmp), what is shown again read-only (git's
 * objects the arm's git dir borrows, the toolchains on PATH), and what
 * the arm may write (builds: its checkout; samples: scratch and base's
 * "writable").
 */
#include "gate/workspace/workspace.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/file.h"
#include "gate/exec/box.h"
#include "common/banned.h"

struct paths {
	char **v;
	size_t n, cap;
};

static void push(struct paths *p, char *s)
{
	XGROW(p->v, p->cap, p->n + 2);
	p->v[p->n++] = s;
	p->v[p->n] = NULL;
}

static void paths_free(struct paths *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
}

/* 1 when path is dir or lies below it (textually; both absolute). */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* A directory that may be hidden: absolute, and holding no part of the
   system (not "/", not above /usr or /etc). */
static int hideable(const char *dir)
{
	return dir && dir[0] == '/' && dir[1] && !under("/usr", dir) &&
	       !under("/etc", dir) && !under("/bin", dir);
}

/* The real path of p (malloc'd), or a copy when it cannot be resolved. */
static char *real(const char *p)
{
	char buf[PATH_MAX];

	return xstrdup(realpath(p, buf) ? buf : p);
}

/* The user's HOME, when it can be hidden (else NULL: HOME is then an
   empty directory under the sandbox's /tmp). */
static const char *user_home(void)
{
	const char *home = getenv("HOME");

	return hideable(home) ? home : NULL;
}

/*
 * The toolchains on PATH that a hidden directory would take away, shown
 * again read-only: under HOME, its first directory (~/.cargo for
 * ~/.cargo/bin, ~/.pyenv for its shims); elsewhere the entry itself;
 * never anything of the repository or gate's directory.
 */
static void path_toolchains(struct paths *ro, const struct paths *hide,
			    const char *home)
{
	const char *path = getenv("PATH"), *p, *end;
	size_t i, n;

	for (p = path; p && *p; p = *end ? end + 1 : end) {
		char *dir, *slash;
		int hidden = 0;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (p[0] != '/')
			continue;
		dir = xasprintf("%.*s", (int)(end - p), p);
		for (i = 0; i < hide->n; i++)
			hidden |= under(dir, hide->v[i]);
		if (hidden) {
			free(dir);
			continue;
		}
		if (home && under(dir, home) && strlen(dir) > strlen(home)) {
			n = strlen(home);
			while (n > 1 && home[n - 1] == '/')
				n--;
			slash = strchr(dir + n + 1, '/');
			if (slash)
				*slash = '\0';
			push(ro, dir);
		} else if (under(dir, "/tmp")) {
			push(ro, dir);
		} else {
			free(dir);
		}
	}
}

/*
 * rustup's toolchains (RUSTUP_HOME, else ~/.rustup), shown read-only when
 * hiding HOME would take them away: the proxies in ~/.cargo/bin need
 * them (box_env names the directory in RUSTUP_HOME when it is unset).
 */
static void rustup_toolchains(struct paths *ro, const struct paths *hide,
			      const char *home)
{
	const char *set = getenv("RUSTUP_HOME");
	char *dir;
	struct stat st;
	size_t i;

	if (!home)
		return;
	dir = set && set[0] == '/' ? xstrdup(set) :
	      xasprintf("%s/.rustup", home);
	for (i = 0; i < hide->n; i++)
		if (under(dir, hide->v[i])) {
			free(dir);
			return;
		}
	if (under(dir, home) && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		push(ro, dir);
	else
		free(dir);
}

/* The object directories the arm's git dir borrows (its alternates). */
static void git_objects(struct paths *ro, const char *gitdir)
{
	char *file = xasprintf("%s/objects/info/alternates", gitdir);
	char *text = NULL, *line, *save = NULL;
	struct gate_err quiet;	/* none: nothing borrowed */
	size_t len;

	if (file_read_to(&text, &len, file, 1 << 16, &quiet) == 0 && text)
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (line[0] == '/')
				push(ro, xstrdup(line));
	free(text);
	free(file);
}

/*
 * Base's "build_caches": each arm gets its own kept directory for each,
 * under gate's (cache-base/N, cache-head/N), bound writable at the
 * declared path; never one both arms write. 0 or -1.
 */
static int arm_caches(struct workspace *w, size_t a, const char *home,
		      struct paths *src, struct paths *dst)
{
	const struct config *p = w->policy;
	char *top;
	size_t i;

	if (!p || !p->nbuild_caches)
		return 0;
	/* by the arm's role, not its slot: slots change arms between runs */
	top = xasprintf("%s/cache-%s", w->gate_dir, arm_name((enum arm)a));
	if (mkdir(top, 0700) < 0 && errno != EEXIST) {
		error_to(w->err, "cannot create \"%s\":", top);
		free(top);
		return -1;
	}
	for (i = 0; i < p->nbuild_caches; i++) {
		const char *c = p->build_caches[i];
		char *mine = xasprintf("%s/%zu", top, i);

		if (mkdir(mine, 0700) < 0 && errno != EEXIST) {
			error_to(w->err, "cannot create \"%s\":", mine);
			free(mine);
			free(top);
			return -1;
		}
		push(src, mine);
		if (c[0] == '~')
			push(dst, xasprintf("%s%s", home ? home : "/tmp",
					    c + 1));
		else
			push(dst, xstrdup(c));
	}
	free(top);
	return 0;
}

int workspace_boxed(struct workspace *w)
{
	const char *v = getenv("GATE_SANDBOX");

	if (w->boxed < 0) {
		w->boxed = box_available(w->box_why, sizeof(w->box_why));
		if (!w->boxed && v && !strcmp(v, "bwrap"))
			return error_to(w->err, "GATE_SANDBOX=bwrap asks for "
					"each arm in a sandbox of its own, and "
					"%s; install bubblewrap and allow user "
					"namespaces (sysctl "
					"kernel.unprivileged_userns_clone=1, "
					"or on Ubuntu 24.04 "
					"kernel.apparmor_restrict_unprivileged_"
					"userns=0), or unset GATE_SANDBOX",
					w->box_why);
	}
	return w->boxed;
}

int workspace_box(struct workspace *w, size_t a, int sample)
{
	struct arm_state *arm = &w->arm[a];
	struct paths hide = { NULL, 0, 0 }, ro = { NULL, 0, 0 };
	struct paths rw = { NULL, 0, 0 };
	struct paths src = { NULL, 0, 0 }, dst = { NULL, 0, 0 };
	const char *home = user_home();
	char *gitdir;
	struct box_conf c;
	size_t i;

	if (arm->box_argv[sample])
		return 0;
	/* the user's repository (working tree and git dir) and gate's own
	   directory, which holds the other arm and every report */
	if (hideable(w->workdir))
		push(&hide, real(w->workdir));
	gitdir = xasprintf("%s/..", w->gate_dir);
	push(&hide, real(gitdir));
	free(gitdir);
	push(&hide, real(w->gate_dir));
	for (i = 0; i < hide.n; i++)
		if (!hideable(hide.v[i]))
			return error_to(w->err, "cannot sandbox %s: the "
					"repository's directory \"%s\" holds "
					"the system's; move the repository, or "
					"set GATE_SANDBOX=landlock",
					arm_name((enum arm)a), hide.v[i]);
	path_toolchains(&ro, &hide, home);
	rustup_toolchains(&ro, &hide, home);
	if (arm->gitdir)
		git_objects(&ro, arm->gitdir);
	if (sample) {
		/* the shared scratch is not here: a timed sample binds it
		   itself (plain_run); counted runs, started several at once,
		   each have their own, and the shared one is emptied (removed
		   and made again) while their sandboxes may still be binding */
		for (i = 0; w->writable && w->writable[i]; i++) {
			const char *p = w->writable[i];

			if (p[0] == '/')
				push(&rw, xstrdup(p));
			else if (p[0] == '~' && home)
				push(&rw, xasprintf("%s%s", home, p + 1));
			else
				push(&rw, xasprintf("%s/%s", arm->dir, p));
		}
	}
	if (arm_caches(w, a, home, &src, &dst) < 0) {
		paths_free(&hide);
		paths_free(&ro);
		paths_free(&rw);
		return -1;
	}
	c = (struct box_conf){ .tree = arm->dir, .gitdir = arm->gitdir,
		.tree_rw = !sample,
		.net = !sample && w->policy && w->policy->build_network,
		.hide = (const char *const *)hide.v,
		.ro = (const char *const *)ro.v,
		.rw = (const char *const *)rw.v, .home = home,
		.cache_src = (const char *const *)src.v,
		.cache_dst = (const char *const *)dst.v };
	arm->box_argv[sample] = box_argv(&c);
	arm->box[sample] = (struct box_run){ .argv = arm->box_argv[sample],
		.allow = w->policy ?
			 (const char *const *)w->policy->pass_env : NULL,
		.home = home };
	paths_free(&hide);
	paths_free(&ro);
	paths_free(&rw);
	paths_free(&src);
	paths_free(&dst);
	return 0;
}

void workspace_box_release(struct arm_state *arm)
{
	strv_free(arm->box_argv[0]);
	strv_free(arm->box_argv[1]);
	arm->box_argv[0] = arm->box_argv[1] = NULL;
}
