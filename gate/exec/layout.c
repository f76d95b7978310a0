/*
 * Symmetric measuring conditions (see layout.h). The padding RNG is a
 * stream of its own, so that it is drawn the same way whichever arm runs:
 * alignment luck cannot correlate with the arm.
 */
#include "gate/exec/layout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/os/os.h"
#include "common/error.h"
#include "common/seed.h"
#include "common/tree.h"
#include "common/banned.h"

extern char **environ;

const struct box_run *layout_arm_box(const struct layout *l, size_t arm)
{
	return l->arm[arm].box;
}

int layout_git_var(const char *var)
{
	/* git rev-parse --local-env-vars, and the search's ceiling */
	static const char *const names[] = { "GIT_DIR=", "GIT_WORK_TREE=",
		"GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_COMMON_DIR=",
		"GIT_CEILING_DIRECTORIES=", "GIT_IMPLICIT_WORK_TREE=",
		"GIT_CONFIG=", "GIT_CONFIG_PARAMETERS=", "GIT_CONFIG_COUNT=",
		"GIT_GRAFT_FILE=", "GIT_NO_REPLACE_OBJECTS=",
		"GIT_REPLACE_REF_BASE=", "GIT_PREFIX=", "GIT_SHALLOW_FILE=",
		"GIT_NAMESPACE=", "GIT_DISCOVERY_ACROSS_FILESYSTEM=", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strncmp(var, names[i], strlen(names[i])))
			return 1;
	return 0;
}

static int is_ours(const char *var)
{
	return !strncmp(var, "GATE_PAD=", 9) ||
	       !strncmp(var, "GATE_TMPDIR=", 12) ||
	       !strncmp(var, "TMPDIR=", 7) || layout_git_var(var);
}

/*
 * The run's scratch root: $GATE_SCRATCH_ROOT when set, else beside the
 * checkouts (parent). Not /dev/shm by default: on this project's
 * reference VM, writes to tmpfs made A/A runs vary 20 times more than
 * writes to the disk the checkouts are on (make bench-bias, doc/bias.md).
 */
static char *make_scratch_root(const char *parent, struct gate_err *err)
{
	const char *where = getenv("GATE_SCRATCH_ROOT");
	const char *tmp = getenv("TMPDIR");
	char *path;

	if (!where || !*where)
		where = parent ? parent : tmp && *tmp ? tmp : "/tmp";
	path = xasprintf("%s/scratch-XXXXXX", where);
	if (mkdtemp(path))
		return path;
	error_to(err, "cannot create a scratch directory \"%s\":", path);
	free(path);
	return NULL;
}

int layout_init(struct layout *l, int env_pad, int scratch,
		unsigned long seed, const char *parent, struct gate_err *err)
{
	size_t i, n = 0;

	l->env_pad = env_pad;
	l->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!l->rng)
		return error_to(err, "cannot allocate a random generator");
	/* a stream apart from the pair order's, still replayed by --seed */
	gsl_rng_set(l->rng, seed_derive(seed, "layout", 0));
	if (scratch) {
		l->scratch_root = make_scratch_root(parent, err);
		if (!l->scratch_root)
			return -1;
		l->scratch = xasprintf("%s/t", l->scratch_root);
		l->tmp_var = xasprintf("GATE_TMPDIR=%s", l->scratch);
		l->sandbox_tmp_var = xasprintf("TMPDIR=%s", l->scratch);
	}
	for (i = 0; environ[i]; i++)
		n++;
	/* ours: GATE_PAD, GATE_TMPDIR, TMPDIR, an arm's up to 8 */
	l->env = xcalloc(n + 12, sizeof(*l->env));
	for (i = 0; environ[i]; i++)
		if (!is_ours(environ[i]))
			l->env[l->nenv++] = environ[i];
		else if (!strncmp(environ[i], "TMPDIR=", 7))
			l->tmpdir_var = environ[i];
	l->pad_var = xmalloc(sizeof("GATE_PAD=") + LAYOUT_PAD_MAX);
	return 0;
}

int layout_before(struct layout *l, char *const **envp)
{
	size_t k = l->nenv, pad;

	if (l->env_pad) {
		pad = gsl_rng_uniform_int(l->rng, LAYOUT_PAD_MAX + 1);
		memcpy(l->pad_var, "GATE_PAD=", 9);
		memset(l->pad_var + 9, 'x', pad);
		l->pad_var[9 + pad] = '\0';
		l->env[k++] = l->pad_var;
		l->pad_total += pad;
	}
	if (l->scratch) {
		if (mkdir(l->scratch, 0700) < 0)
			return error("cannot create the scratch directory "
				     "\"%s\":", l->scratch);
		l->env[k++] = l->tmp_var;
	}
	l->nsent = k;	/* layout_arm_before adds from here */
	if (l->tmpdir_var)
		l->env[k++] = l->tmpdir_var;
	l->env[k] = NULL;
	l->samples++;
	*envp = l->env;
	return 0;
}

void layout_arm_set(struct layout *l, size_t arm, struct layout_arm *set)
{
	struct layout_arm *a = &l->arm[arm];
	size_t n = 0;

	while (set->vars && set->vars[n])
		n++;
	if (n > 8)
		abort();	/* the env array has room for 8 */
	*a = *set;
	memset(set, 0, sizeof(*set));
}

/* 1 when path is a regular file (not a link) holding exactly text. */
static int holds(const char *path, const char *text)
{
	size_t len = strlen(text), got = 0;
	struct stat st;
	ssize_t n;
	char *buf;
	int fd, same = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == len) {
		buf = xmalloc(len + 1);
		while (got < len && (n = read(fd, buf + got, len - got)) > 0)
			got += (size_t)n;
		same = got == len && !memcmp(buf, text, len);
		free(buf);
	}
	close(fd);
	return same;
}

/*
 * Write path with text, whatever stands there now (a run may have removed
 * it, or put a directory or a link in its place). Untouched when it holds
 * text already; else written beside it and renamed over it, so that a run
 * of the same arm going on meanwhile (counted runs go in parallel) never
 * sees it missing or half written.
 */
static int restore_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	char *tmp;
	int fd, ret = -1;

	if (holds(path, text))
		return 0;
	tmp = xasprintf("%s.gate-%ld", path, (long)getpid());
	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		error("cannot restore \"%s\":", path);
		goto cleanup;
	}
	if (close(fd) < 0) {
		error("cannot restore \"%s\":", path);
		goto cleanup;
	}
	/* a directory in its place cannot be renamed over: removed first */
	if (rename(tmp, path) < 0 &&
	    ((errno != EISDIR && errno != ENOTEMPTY && errno != EEXIST) ||
	     tree_remove(path, NULL) < 0 || rename(tmp, path) < 0)) {
		error("cannot restore \"%s\":", path);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (ret < 0)
		(void)unlink(tmp);
	free(tmp);
	return ret;
}

int layout_arm_before(struct layout *l, size_t arm, const char *extra,
		      char *const **envp, const char *const **sandbox)
{
	struct layout_arm *a = &l->arm[arm < 2 ? arm : 0];
	size_t k = l->nsent, i;

	*sandbox = NULL;
	if (a->restore_path && restore_file(a->restore_path,
					    a->restore_text) < 0)
		return -1;
	for (i = 0; a->vars && a->vars[i]; i++)
		l->env[k++] = a->vars[i];
	if ((a->sandbox || a->box) && l->sandbox_tmp_var)
		l->env[k++] = l->sandbox_tmp_var;	/* /tmp is closed */
	else if (l->tmpdir_var && !a->box)	/* the sandbox's own /tmp */
		l->env[k++] = l->tmpdir_var;
	l->env[k] = NULL;
	*envp = l->env;
	if (a->sandbox) {
		free(a->sandbox[0]);
		a->sandbox[0] = extra ? xstrdup(extra) : NULL;
		*sandbox = (const char *const *)a->sandbox + !extra;
	}
	return 0;
}

static void arm_free(struct layout_arm *a)
{
	size_t i;

	for (i = 0; a->vars && a->vars[i]; i++)
		free(a->vars[i]);
	if (a->sandbox)
		free(a->sandbox[0]);
	for (i = 1; a->sandbox && a->sandbox[i]; i++)
		free(a->sandbox[i]);
	free(a->vars);
	free(a->sandbox);
	free(a->restore_path);
	free(a->restore_text);
}

int layout_after(struct layout *l)
{
	return l->scratch ? tree_remove(l->scratch, NULL) : 0;
}

void layout_release(struct layout *l)
{
	if (l->scratch_root)
		tree_remove(l->scratch_root, NULL);
	gsl_rng_free(l->rng);
	free(l->scratch_root);
	free(l->scratch);
	free(l->env);
	free(l->pad_var);
	free(l->tmp_var);
	free(l->sandbox_tmp_var);
	arm_free(&l->arm[0]);
	arm_free(&l->arm[1]);
	memset(l, 0, sizeof(*l));
}

/* "0-1,3" into set[OS_CPU_MAX]; 0, or -1 when not a non-empty list. */
static int parse_cpus(unsigned char *set, const char *list)
{
	const char *p = list;
	int any = 0;

	memset(set, 0, OS_CPU_MAX);
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo >= OS_CPU_MAX)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi >= OS_CPU_MAX)
				return -1;
			p = end;
		}
		for (; lo <= hi; lo++)
			set[lo] = any = 1;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return any ? 0 : -1;
}

int layout_pin(const char *list, char **warn, struct gate_err *err)
{
	unsigned char want[OS_CPU_MAX], isolated[OS_CPU_MAX];
	char buf[256] = "";
	int cpu, shared = 0;

	*warn = NULL;
	if (!os_has(OS_AFFINITY))
		return error_to(err, "--pin %s: CPU pinning is not available "
				"on this system (it needs Linux's "
				"sched_setaffinity): leave --pin out", list);
	if (parse_cpus(want, list) < 0)
		return error_to(err, "--pin \"%s\" is not a CPU list: give CPU "
				"numbers like 1, 0-1 or 0,2-3", list);
	if (os_set_affinity(want, OS_CPU_MAX) < 0)
		return error_to(err, "cannot pin to CPUs \"%s\" (do they "
				"exist? see nproc):", list);
	/* pinning helps on an isolated core, and can hurt on a shared one */
	if (os_fact(OS_FACT_ISOLATED, buf, sizeof(buf)) < 0 || !buf[0] ||
	    parse_cpus(isolated, buf) < 0)
		memset(isolated, 0, sizeof(isolated));
	for (cpu = 0; cpu < OS_CPU_MAX; cpu++)
		if (want[cpu] && !isolated[cpu])
			shared = 1;
	if (shared)
		*warn = xasprintf("pinned to CPUs %s, which are not isolated "
			"(isolcpus): other processes share them, which can "
			"make the variation worse rather than better", list);
	return 0;
}
