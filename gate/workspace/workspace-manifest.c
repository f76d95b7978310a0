/*
 * Manifests of the arms (workspace.h): every file of a checkout, tracked
 * or not (path, type and mode, size, SHA-256 of the content; a link's
 * target), taken after its build and checked again after the other arm's
 * build, between rounds, after measuring, and before a kept build is
 * reused. The content is hashed (git's blob hash, libgit2's SHA-1 with
 * collision detection), not the times: a benchmark can restore a file's
 * mtime, not its hash. The arm's ".git" file is left out (gate
 * rewrites it before every run). Part of the workspace.
 */
#include "gate/workspace/workspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "common/sha256.h"
#include "gate/exec/signals.h"
#include "git/hash.h"
#include "common/banned.h"

struct ws_entry {
	char *path;		/* relative to the checkout */
	char state[96];		/* "f 100644 SIZE HASH", "l HASH", "d", ... */
};

struct ws_manifest {
	struct ws_entry *e;
	size_t n, alloc;
};

static void add(struct ws_manifest *m, char *path, const char *state)
{
	XGROW(m->e, m->alloc, m->n + 1);
	m->e[m->n].path = path;
	snprintf(m->e[m->n].state, sizeof(m->e[m->n].state), "%s", state);
	m->n++;
}

/* The state of one entry (lstat'ed as st) for the manifest. */
static void entry_state(const char *full, const struct stat *st,
			char *state, size_t size)
{
	char hex[65], target[4096];
	struct sha256 s;
	ssize_t n;

	if (S_ISREG(st->st_mode)) {
		if (repo_hash_file(full, hex) < 0)
			snprintf(hex, sizeof(hex), "unreadable");
		snprintf(state, size, "f %o %lld %s",
			 (unsigned)(st->st_mode & 07777),
			 (long long)st->st_size, hex);
	} else if (S_ISLNK(st->st_mode)) {
		n = readlink(full, target, sizeof(target));
		sha256_init(&s);
		sha256_update(&s, target, n > 0 ? (size_t)n : 0);
		sha256_final_hex(&s, hex);
		snprintf(state, size, "l %s", hex);
	} else if (S_ISDIR(st->st_mode)) {
		snprintf(state, size, "d %o", (unsigned)(st->st_mode & 07777));
	} else {
		snprintf(state, size, "o %o", (unsigned)st->st_mode);
	}
}

/* Walk dir/rel (rel "" at the top), adding every entry. */
static int walk(struct ws_manifest *m, const char *dir, const char *rel,
		struct gate_err *err)
{
	char *full = *rel ? xasprintf("%s/%s", dir, rel) : xstrdup(dir);
	struct dirent *de;
	DIR *d = opendir(full);
	int ret = 0;

	if (!d) {
		ret = error_to(err, "cannot list \"%s\":", full);
		free(full);
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		char *path, *fpath, state[96];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    (!*rel && !strcmp(de->d_name, ".git")))
			continue;
		if (signals_pending()) {
			ret = -1;
			break;
		}
		path = *rel ? xasprintf("%s/%s", rel, de->d_name) :
		       xstrdup(de->d_name);
		fpath = xasprintf("%s/%s", dir, path);
		if (lstat(fpath, &st) < 0) {
			snprintf(state, sizeof(state), "gone");
		} else {
			entry_state(fpath, &st, state, sizeof(state));
		}
		free(fpath);
		add(m, path, state);
		if (!strncmp(state, "d ", 2))
			ret = walk(m, dir, path, err);
	}
	closedir(d);
	free(full);
	return ret;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct ws_entry *)a)->path,
		      ((const struct ws_entry *)b)->path);
}

void ws_manifest_free(struct ws_manifest *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	free(m);
}

struct ws_manifest *ws_manifest_take(const char *dir, struct gate_err *err)
{
	struct ws_manifest *m = xcalloc(1, sizeof(*m));

	if (walk(m, dir, "", err) < 0) {
		ws_manifest_free(m);
		return NULL;
	}
	qsort(m->e, m->n, sizeof(*m->e), cmp_entry);
	return m;
}

/* The entry of m at path, or NULL (m sorted). */
static const struct ws_entry *find(const struct ws_manifest *m,
				   const char *path)
{
	struct ws_entry key = { (char *)path, "" };

	return bsearch(&key, m->e, m->n, sizeof(*m->e), cmp_entry);
}

int ws_manifest_diff(const struct ws_manifest *then,
		     const struct ws_manifest *now, int strict,
		     char **path, char **what)
{
	size_t i;

	*path = *what = NULL;
	for (i = 0; i < then->n; i++) {
		const struct ws_entry *e = find(now, then->e[i].path);

		if (!e) {
			*path = xstrdup(then->e[i].path);
			*what = xstrdup("was removed");
			return 1;
		}
		if (strcmp(e->state, then->e[i].state)) {
			*path = xstrdup(then->e[i].path);
			*what = xstrdup(then->e[i].state[0] != e->state[0] ?
					"changed its type" :
					then->e[i].state[0] == 'f' ?
					"changed (its content, size or mode)" :
					"changed");
			return 1;
		}
	}
	if (!strict)
		return 0;
	for (i = 0; i < now->n; i++)
		if (!find(then, now->e[i].path)) {
			*path = xstrdup(now->e[i].path);
			*what = xstrdup("was added");
			return 1;
		}
	return 0;
}

/*
 * The file format: one record per entry, "STATE\tPATH\0\n"; a path may
 * hold any byte but NUL, so it ends with one.
 */
int ws_manifest_save(const struct ws_manifest *m, const char *file)
{
	char *tmp = xasprintf("%s.tmp", file);
	FILE *f;
	size_t i;
	int ok;

	unlink(tmp);
	f = fopen(tmp, "wx");
	if (!f) {
		free(tmp);
		return -1;
	}
	for (i = 0; i < m->n; i++)
		fprintf(f, "%s\t%s%c\n", m->e[i].state, m->e[i].path, 0);
	ok = !ferror(f);
	if (fclose(f) != 0 || !ok || rename(tmp, file) != 0) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

struct ws_manifest *ws_manifest_load(const char *file)
{
	struct ws_manifest *m;
	char *text = NULL, *p, *end;
	size_t len = 0;

	if (file_read(&text, &len, file, 0) < 0 || !text)
		return NULL;
	m = xcalloc(1, sizeof(*m));
	for (p = text; p < text + len; p = end + 2) {
		char *tab = memchr(p, '\t', (size_t)(text + len - p));

		end = tab ? memchr(tab, '\0', (size_t)(text + len - tab)) :
		      NULL;
		if (!tab || !end || end + 1 >= text + len || end[1] != '\n' ||
		    (size_t)(tab - p) >= sizeof(m->e[0].state)) {
			ws_manifest_free(m);	/* damaged: not trusted */
			free(text);
			return NULL;
		}
		*tab = '\0';
		add(m, xstrdup(tab + 1), p);
	}
	free(text);
	qsort(m->e, m->n, sizeof(*m->e), cmp_entry);
	return m;
}
