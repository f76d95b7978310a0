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

static int is_ours(const char *var)
{
	return !strncmp(var, "GATE_PAD=", 9) ||
	       !strncmp(var, "GATE_TMPDIR=", 12);
}

/*
 * The run's scratch root: $GATE_SCRATCH_ROOT when set, else beside the
 * checkouts (parent). Not /dev/shm by default: on this project's
 * reference VM, writes to tmpfs made A/A runs vary 20 times more than
 * writes to the disk the checkouts are on (make bench-bias, README).
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
	}
	for (i = 0; environ[i]; i++)
		n++;
	l->env = xcalloc(n + 3, sizeof(*l->env));
	for (i = 0; environ[i]; i++)
		if (!is_ours(environ[i]))
			l->env[l->nenv++] = environ[i];
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
	l->env[k] = NULL;
	l->samples++;
	*envp = l->env;
	return 0;
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
