/*
 * Allocation counting from gate's side. The library is found relative to
 * gate's own binary so that a build tree and an installed gate each use
 * their own copy; the environment variable wins for unusual layouts.
 */
#include "gate/exec/alloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/exec/self.h"
#include "gate/os/os.h"
#include "common/error.h"
#include "common/banned.h"

extern char **environ;

#define ALLOC_LIB "libgate-alloc.so"

int alloc_lib_find(char **path, struct gate_err *err)
{
	const char *env = getenv("GATE_ALLOC_LIB");
	char *cand[2];

	*path = NULL;
	if (!os_has(OS_PRELOAD))
		return error_to(err, "allocation counting is not available on "
				"this system: it preloads %s into the "
				"benchmark (LD_PRELOAD, Linux with glibc): "
				"measure the allocation metrics on Linux",
				ALLOC_LIB);
	if (env && *env) {
		if (env[0] == '/' && access(env, R_OK) == 0) {
			*path = xstrdup(env);
			return 0;
		}
		return error_to(err, "GATE_ALLOC_LIB=%s is not a readable "
				"absolute path to %s", env, ALLOC_LIB);
	}
	*path = self_file_find(ALLOC_LIB, R_OK, cand);
	if (!cand[0])
		return error_to(err, "cannot find %s: gate cannot see its own "
				"path (/proc/self/exe): set GATE_ALLOC_LIB to "
				"the library's absolute path", ALLOC_LIB);
	if (!*path)
		error_to(err, "cannot find %s for the allocation metrics: "
			 "looked in %s and %s; run `make` (it builds build/%s) "
			 "or `make install`, or set GATE_ALLOC_LIB", ALLOC_LIB,
			 cand[0], cand[1], ALLOC_LIB);
	free(cand[0]);
	free(cand[1]);
	return *path ? 0 : -1;
}

char **alloc_env(const char *lib, const char *out, char *const *base)
{
	char *const *e = base ? base : environ;
	const char *pre = NULL;
	size_t n, i, o = 0;
	char **env;

	for (n = 0; e[n]; n++)
		if (!strncmp(e[n], "LD_PRELOAD=", 11))
			pre = e[n] + 11;
	env = xcalloc(n + 3, sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(e[i], "LD_PRELOAD=", 11) &&
		    strncmp(e[i], "GATE_ALLOC_OUT=", 15))
			env[o++] = xstrdup(e[i]);
	env[o++] = pre && *pre ? xasprintf("LD_PRELOAD=%s:%s", lib, pre) :
				 xasprintf("LD_PRELOAD=%s", lib);
	env[o++] = xasprintf("GATE_ALLOC_OUT=%s", out);
	env[o] = NULL;
	return env;
}

enum alloc_collected alloc_collect(const char *path, struct alloc_counts *out)
{
	FILE *f = fopen(path, "r");
	unsigned long long a, b, fr;
	long pid;
	enum alloc_collected ret = ALLOC_COUNTED;
	int got;

	memset(out, 0, sizeof(*out));
	if (!f)
		return ALLOC_NO_RECORD;
	while ((got = fscanf(f, "%llu %llu %llu %ld", &a, &b, &fr, &pid)) ==
	       4) {
		out->allocs += (double)a;
		out->bytes += (double)b;
		out->frees += (double)fr;
		out->processes++;
	}
	if (got != EOF)
		ret = ALLOC_BAD_RECORD;
	fclose(f);
	unlink(path);
	if (ret == ALLOC_COUNTED && out->processes == 0)
		ret = ALLOC_NO_RECORD;
	return ret;
}

int alloc_is_static(const char *prog, const char *cwd)
{
	const char *dirs = getenv("PATH");
	char *path = NULL, *copy, *dir, *save = NULL;
	int ret = 0;

	if (strchr(prog, '/')) {
		path = prog[0] == '/' ? xstrdup(prog) :
		       xasprintf("%s/%s", cwd ? cwd : ".", prog);
	} else {
		copy = xstrdup(dirs ? dirs : "/usr/bin:/bin");
		for (dir = strtok_r(copy, ":", &save); dir && !path;
		     dir = strtok_r(NULL, ":", &save)) {
			char *c = xasprintf("%s/%s", dir, prog);

			if (access(c, X_OK) == 0)
				path = c;
			else
				free(c);
		}
		free(copy);
	}
	if (path)
		ret = os_static_program(path);
	free(path);
	return ret;
}
