/*
 * Instruction counting backends, and cachegrind's cache simulation for the
 * cycles estimate. The perf backend asks the OS layer
 * (gate/os/os.h) for the hardware counter: where it is absent, the perf
 * probe says so and the valgrind backend, which needs nothing from the
 * kernel, still works.
 */
#include "gate/exec/counter.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/os/os.h"
#include "common/error.h"
#include "common/banned.h"

static int read_paranoid(void)
{
	char v[16];

	if (os_fact(OS_FACT_PERF_PARANOID, v, sizeof(v)) < 0)
		return -100;
	return (int)strtol(v, NULL, 10);
}

int counter_perf_probe(char *buf, size_t size)
{
	const char *env = getenv("GATE_PERF");
	int fd;
	int e, paranoid;

	if (env && !strcmp(env, "0")) {
		snprintf(buf, size, "disabled by GATE_PERF=0");
		return -1;
	}
	if (!os_has(OS_PERF)) {
		snprintf(buf, size, "hardware instruction counters "
			 "(perf_event_open) are not available on this system");
		return -1;
	}
	fd = os_perf_instructions(0, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	e = errno;
	paranoid = read_paranoid();
	if (e == EACCES || e == EPERM)
		snprintf(buf, size, "perf_event_open was refused (%s; "
			 "kernel.perf_event_paranoid is %d): allow it with "
			 "`sysctl kernel.perf_event_paranoid=2` (or lower), or "
			 "give gate CAP_PERFMON", strerror(e), paranoid);
	else if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
		snprintf(buf, size, "this machine exposes no hardware "
			 "instruction counter (perf_event_open: %s), as is "
			 "usual in virtual machines and containers",
			 strerror(e));
	else if (e == ENOSYS)
		snprintf(buf, size, "the kernel has no perf_event_open "
			 "(built without CONFIG_PERF_EVENTS)");
	else
		snprintf(buf, size, "perf_event_open failed: %s",
			 strerror(e));
	return -1;
}

int counter_valgrind_find(char **path, char *buf, size_t size)
{
	const char *env = getenv("GATE_VALGRIND");
	const char *dirs;
	char *copy, *dir, *save = NULL, *cand;

	*path = NULL;
	if (env && *env) {
		if (access(env, X_OK) == 0) {
			*path = xstrdup(env);
			return 0;
		}
		snprintf(buf, size, "GATE_VALGRIND=%s is not an executable "
			 "file", env);
		return -1;
	}
	dirs = getenv("PATH");
	copy = xstrdup(dirs ? dirs : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		cand = xasprintf("%s/valgrind", *dir ? dir : ".");
		if (access(cand, X_OK) == 0) {
			*path = cand;
			break;
		}
		free(cand);
	}
	free(copy);
	if (*path)
		return 0;
	snprintf(buf, size, "valgrind is not installed (not found on PATH)");
	return -1;
}

int counter_select(enum counter *out, char **valgrind, enum counter want,
		   const char *who, struct gate_err *err)
{
	char perf_why[512] = "", vg_why[256] = "";

	*valgrind = NULL;
	if (want != COUNTER_VALGRIND) {
		if (counter_perf_probe(perf_why, sizeof(perf_why)) == 0) {
			*out = COUNTER_PERF;
			return 0;
		}
		if (want == COUNTER_PERF)
			return error_to(err, "%s asks for \"instructions\" "
					"with \"counter\": \"perf\", but %s; "
					"or set \"counter\": \"valgrind\" (or "
					"\"auto\") to count under valgrind "
					"instead", who, perf_why);
	}
	if (counter_valgrind_find(valgrind, vg_why, sizeof(vg_why)) == 0) {
		*out = COUNTER_VALGRIND;
		return 0;
	}
	if (want == COUNTER_VALGRIND)
		return error_to(err, "%s asks for \"instructions\" with "
				"\"counter\": \"valgrind\", but %s: install "
				"valgrind (Debian/Ubuntu: apt-get install "
				"valgrind) or set GATE_VALGRIND to its path",
				who, vg_why);
	return error_to(err, "%s asks for \"instructions\", but no instruction "
			"counter is available here:\n  perf: %s;\n  valgrind: "
			"%s.\n  Install valgrind (Debian/Ubuntu: apt-get "
			"install valgrind; it counts exactly, 10-40x slower "
			"than a plain run), or run on a machine whose CPU "
			"counters are visible (bare metal, "
			"kernel.perf_event_paranoid 2 or lower); gate never "
			"falls back to time for a count", who, perf_why,
			vg_why);
}

int counter_perf_open(pid_t pid)
{
	return os_perf_instructions(pid, OS_PERF_INHERIT |
				    OS_PERF_ENABLE_ON_EXEC);
}

int counter_perf_read(int fd, double *out)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return error("cannot read the instruction counter:");
	*out = (double)v;
	return 0;
}

/* the options before the benchmark's argv; with the cache simulation */
static const char *const fixed_plain[] = {
	"--tool=cachegrind", "--cache-sim=no", "--trace-children=yes", NULL
};
static const char *const fixed_sim[] = {
	"--tool=cachegrind", "--cache-sim=yes", COUNTER_SIM_I1,
	COUNTER_SIM_D1, COUNTER_SIM_LL, "--trace-children=yes", NULL
};

/* The last string counter_valgrind_argv owns: what follows is argv's. */
#define LOG_OPTION "--log-file="

char **counter_valgrind_argv(const char *valgrind, const char *dir,
			     char *const *argv, int cache_sim)
{
	const char *const *fixed = cache_sim ? fixed_sim : fixed_plain;
	size_t n, k, i, o = 0;
	char **v;

	for (n = 0; argv[n]; n++)
		;
	for (k = 0; fixed[k]; k++)
		;
	v = xcalloc(k + n + 4, sizeof(*v));
	v[o++] = xstrdup(valgrind);
	for (i = 0; i < k; i++)
		v[o++] = xstrdup(fixed[i]);
	v[o++] = xasprintf("--cachegrind-out-file=%s/cg.%%p", dir);
	v[o++] = xasprintf(LOG_OPTION "%s/vg.%%p", dir);
	for (i = 0; i < n; i++)
		v[o++] = argv[i];
	return v;
}

void counter_valgrind_argv_free(char **vargv)
{
	size_t i;
	int last = 0;

	if (!vargv)
		return;
	/* gate's own strings end with the log option; argv's follow */
	for (i = 0; vargv[i] && !last; i++) {
		last = !strncmp(vargv[i], LOG_OPTION, strlen(LOG_OPTION));
		free(vargv[i]);
	}
	free(vargv);
}

int counter_sim_parse(const char *events, const char *summary, double *ir,
		      double *sim)
{
	char name[32];
	const char *e = events, *s = summary;
	int found = 0, got, k;
	unsigned long long v;

	for (;;) {
		int used = 0, sused = 0;

		if (sscanf(e, " %31s%n", name, &used) != 1)
			break;
		e += used;
		got = sscanf(s, " %llu%n", &v, &sused);
		if (got != 1)
			return -1;
		s += sused;
		if (!strcmp(name, "Ir"))
			*ir += (double)v;
		for (k = 0; k < SIM_EVENTS && sim; k++)
			if (!strcmp(name, sim_event_name((enum sim_event)k))) {
				sim[k] += (double)v;
				found++;
			}
	}
	return found;
}

/*
 * The counts of one cachegrind output file into *ir and sim (as
 * counter_sim_parse); the events found, or -1 when it has no summary.
 */
static int read_counts(const char *path, double *ir, double *sim)
{
	FILE *f = fopen(path, "r");
	char line[1024], events[1024] = "Ir";
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "events:", 7))
			snprintf(events, sizeof(events), "%s", line + 7);
		else if (!strncmp(line, "summary:", 8))
			ret = counter_sim_parse(events, line + 8, ir, sim);
	}
	fclose(f);
	return ret;
}

int counter_valgrind_collect(const char *dir, double *ir, double *sim,
			     char *why, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t files = 0, bad = 0;
	int k;

	*ir = 0;
	for (k = 0; sim && k < SIM_EVENTS; k++)
		sim[k] = 0;
	if (!d) {
		snprintf(why, size, "cannot read \"%s\": %s", dir,
			 strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char *p;

		if (strncmp(e->d_name, "cg.", 3) && strncmp(e->d_name, "vg.", 3))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (!strncmp(e->d_name, "cg.", 3)) {
			int got = read_counts(p, ir, sim);

			files++;
			if (got < 0 || (sim && got != SIM_EVENTS))
				bad++;
		}
		unlink(p);
		free(p);
	}
	closedir(d);
	if (!files || bad) {
		snprintf(why, size, "valgrind wrote %s count file%s: did the "
			 "benchmark start under valgrind?",
			 files ? "an unreadable" : "no", files ? "" : "s");
		return -1;
	}
	return 0;
}
