/*
 * Declared build artifacts: hashed in both arms after the build, so that a
 * benchmark whose artifacts are byte-identical passes without measuring.
 * Part of the workspace (gate/workspace/workspace.h).
 */
#include "gate/workspace/workspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "common/sha256.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "common/banned.h"

static char *glob_escape(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct artifact_hash *)a)->path,
		      ((const struct artifact_hash *)b)->path);
}

/* Add dir's regular files matching pattern to br's list; their count. */
static size_t artifacts_glob(struct bench_run *br, const char *dir,
			     const char *pattern)
{
	char *esc = glob_escape(dir), *full = xasprintf("%s/%s", esc, pattern);
	size_t k, j, found = 0, skip = strlen(dir) + 1;
	glob_t g;
	struct stat st;

	memset(&g, 0, sizeof(g));
	if (glob(full, 0, NULL, &g) == 0) {
		for (k = 0; k < g.gl_pathc; k++) {
			const char *rel = g.gl_pathv[k] + skip;

			if (stat(g.gl_pathv[k], &st) < 0 ||
			    !S_ISREG(st.st_mode))
				continue;
			found++;
			for (j = 0; j < br->nartifacts; j++)
				if (!strcmp(br->artifacts[j].path, rel))
					break;
			if (j < br->nartifacts)
				continue;
			br->artifacts = xrealloc(br->artifacts,
						 (br->nartifacts + 1) *
						 sizeof(*br->artifacts));
			memset(&br->artifacts[j], 0, sizeof(br->artifacts[j]));
			br->artifacts[j].path = xstrdup(rel);
			br->nartifacts++;
		}
	}
	globfree(&g);
	free(full);
	free(esc);
	return found;
}

/*
 * path's SHA-256 into hex, once per run: a file hashed already (for an
 * earlier benchmark with the same artifacts) is not read again. 0 or -1.
 */
static int hash_once(struct workspace *w, const char *path, char *hex)
{
	size_t i;

	for (i = 0; i < w->nhashed; i++)
		if (!strcmp(w->hashed[i].path, path)) {
			memcpy(hex, w->hashed[i].sha256, 65);
			return 0;
		}
	if (sha256_file(path, hex) < 0)
		return -1;
	XGROW(w->hashed, w->hashed_cap, w->nhashed + 1);
	w->hashed[w->nhashed].path = xstrdup(path);
	memcpy(w->hashed[w->nhashed].sha256, hex, 65);
	w->nhashed++;
	return 0;
}

int workspace_artifacts(struct workspace *w, struct bench_run *br)
{
	const struct bench_cfg *c = br->cfg;
	size_t i, found;
	int a;

	for (i = 0; i < c->nartifacts; i++) {
		found = 0;
		for (a = 0; a < 2; a++)
			found += artifacts_glob(br, w->arm[a].dir,
						c->artifacts[i]);
		if (!found)
			return error_to(w->err, "benchmark \"%s\": "
					"\"artifacts\" pattern \"%s\" matches "
					"no file in either arm's checkout "
					"after the build: fix the pattern "
					"(relative to the repository's top) or "
					"remove it", c->name, c->artifacts[i]);
	}
	if (br->nartifacts > 1)
		qsort(br->artifacts, br->nartifacts, sizeof(*br->artifacts),
		      by_path);
	for (i = 0; i < br->nartifacts; i++)
		for (a = 0; a < 2; a++) {
			char *path = xasprintf("%s/%s", w->arm[a].dir,
					       br->artifacts[i].path);
			struct stat st;

			if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
			    hash_once(w, path, br->artifacts[i].sha256[a]) < 0) {
				error_to(w->err, "cannot read artifact \"%s\" "
					 "of %s's build: %s", path,
					 arm_name((enum arm)a),
					 strerror(errno));
				free(path);
				return -1;
			}
			free(path);
		}
	return 0;
}

int workspace_artifacts_identical(const struct bench_run *br)
{
	size_t i;

	if (!br->nartifacts)
		return 0;
	for (i = 0; i < br->nartifacts; i++)
		if (!br->artifacts[i].sha256[0][0] ||
		    strcmp(br->artifacts[i].sha256[0],
			   br->artifacts[i].sha256[1]))
			return 0;
	return 1;
}

int workspace_path_under(const char *pattern, const char *path)
{
	size_t n = strlen(pattern);

	if (!fnmatch(pattern, path, 0))
		return 1;
	while (n && pattern[n - 1] == '/')
		n--;
	return n && !strncmp(pattern, path, n) && path[n] == '/';
}

int workspace_sources_only(char **outside, struct workspace *w,
			   struct repo *repo, char *const *sources,
			   size_t nsources)
{
	char **paths;
	size_t n, i, k;
	int ret = 1;

	*outside = NULL;
	if (repo_tree_changes(&paths, &n, repo, w->arm[ARM_BASE].rev.tree,
			      w->arm[ARM_HEAD].rev.tree, w->err) < 0)
		return -1;
	for (i = 0; i < n && ret; i++) {
		for (k = 0; k < nsources && !workspace_path_under(sources[k], paths[i]); k++)
			;
		if (k == nsources) {
			*outside = xstrdup(paths[i]);
			ret = 0;
		}
	}
	repo_list_free(paths, n);
	return ret;
}
