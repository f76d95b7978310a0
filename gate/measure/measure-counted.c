/*
 * A suite's cases counted each on its own (measure-counted.h): the run under
 * callgrind set up per format (pytest: gate's plugin, once per case; the
 * lines protocol: the harness's own marks; Google Benchmark: a dump around
 * each loop, one iteration a case), and the dumps kept as each case's
 * count in its pair, against the arm's first counted sample.
 */
#include "gate/measure/measure-counted.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/exec/box.h"
#include "gate/exec/counter.h"
#include "gate/exec/probe.h"
#include "gate/format/format.h"
#include "gate/measure/measure-suite.h"
#include "gate/os/os.h"
#include "common/banned.h"

/* What a counted suite's runs need, found once before measuring. */
struct suite_probe {
	char *lib;		/* libgate-probe.so (marks), or NULL */
	char *plugin_dir;	/* the pytest plugin's directory, or NULL */
	char *setarch;		/* setarch, to turn ASLR off */
	char *taskset;		/* taskset, to run on one CPU */
	char cpu[16];		/* that CPU: the first gate may use */
	const char *prefix[6];	/* taskset -c cpu setarch -R (borrowed) */
};

static int has_count(const struct bench_cfg *cfg, enum metric m)
{
	size_t i;

	for (i = 0; i < cfg->nmetrics; i++)
		if (cfg->metrics[i].id == m)
			return 1;
	return 0;
}

int suite_counted(const struct bench_run *br)
{
	const struct bench_cfg *cfg = br->cfg;

	return cfg && cfg->format != FORMAT_TIME &&
	       (has_count(cfg, METRIC_INSTRUCTIONS) ||
		has_count(cfg, METRIC_CYCLES));
}

int suite_counted_alone(const struct bench_cfg *cfg)
{
	size_t i;

	if (cfg->format == FORMAT_TIME)
		return 0;
	for (i = 0; i < cfg->nmetrics; i++)
		if (cfg->metrics[i].id != METRIC_INSTRUCTIONS &&
		    cfg->metrics[i].id != METRIC_CYCLES)
			return 0;
	return 1;
}

int suite_counted_unit(const char *unit)
{
	return !strcmp(unit, metric_name(METRIC_INSTRUCTIONS)) ||
	       !strcmp(unit, metric_name(METRIC_CYCLES));
}

void suite_counted_release(struct bench_run *br)
{
	if (!br->probe)
		return;
	free(br->probe->lib);
	free(br->probe->plugin_dir);
	free(br->probe->setarch);
	free(br->probe->taskset);
	free(br->probe);
	br->probe = NULL;
}

/* program's path on PATH (owned), or NULL */
static char *on_path(const char *program)
{
	const char *dirs = getenv("PATH");
	char *copy = xstrdup(dirs ? dirs : "/usr/bin:/bin"), *dir, *save;
	char *found = NULL;

	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/%s", *dir ? dir : ".", program);

		if (access(cand, X_OK) == 0)
			found = cand;
		else
			free(cand);
	}
	free(copy);
	return found;
}

int suite_counted_prepare(struct bench_run *br, const char *who,
			  struct gate_err *err)
{
	const struct format_reader *r = format_reader(br->cfg->format);
	struct suite_probe *p;
	char *plugin = NULL, list[256];

	if (r->counted == FMT_COUNTED_NONE && r->counted_why)
		return error_to(err, "%s asks for per-case counts of %s", who,
				r->counted_why);
	if (r->counted == FMT_COUNTED_NONE)
		return error_to(err, "%s asks for per-case counts of a %s "
				"suite, which gate cannot give: nothing marks "
				"its cases; make each case a benchmark of its "
				"own (\"format\": \"time\") to count it", who,
				r->name);
	p = xcalloc(1, sizeof(*p));
	br->probe = p;
	/*
	 * ASLR off, so that a case's addresses (and what hashes them) are
	 * the same every run; and every run on one CPU, the first gate may
	 * use: numpy's cases counted up to 0.56% apart on this VM's two
	 * CPUs, the same on each (something at start-up asks which CPU it
	 * runs on, and where the heap lies follows). Counts do not care
	 * about the load, so runs of a batch share the CPU.
	 */
	p->setarch = on_path("setarch");
	p->taskset = on_path("taskset");
	if (!p->setarch || !p->taskset)
		return error_to(err, "%s asks for per-case counts, which run "
				"with address-space randomisation off (setarch) "
				"on one CPU (taskset), but %s is not on PATH: "
				"install util-linux", who,
				p->setarch ? "taskset" : "setarch");
	if (os_affinity(list, sizeof(list)) < 0 ||
	    !isdigit((unsigned char)list[0]))
		return error_to(err, "%s asks for per-case counts, which run "
				"on one CPU, but gate cannot tell which CPUs "
				"it may use (sched_getaffinity)", who);
	snprintf(p->cpu, sizeof(p->cpu), "%ld", strtol(list, NULL, 10));
	p->prefix[0] = p->taskset;
	p->prefix[1] = "-c";
	p->prefix[2] = p->cpu;
	p->prefix[3] = p->setarch;
	p->prefix[4] = "-R";
	if (r->counted == FMT_COUNTED_LOOPS)
		return 0;	/* callgrind's own dumps: no library */
	if (probe_file_find(&p->lib, PROBE_LIB, err) < 0)
		return -1;
	if (r->counted == FMT_COUNTED_PYTEST) {
		if (probe_file_find(&plugin, PROBE_PYTEST, err) < 0)
			return -1;
		*strrchr(plugin, '/') = '\0';
		p->plugin_dir = plugin;
	}
	return 0;
}

char **suite_counted_argv(const struct bench_run *br, const char *dir,
			  char *const *argv, int shell)
{
	int loops = format_reader(br->cfg->format)->counted ==
		    FMT_COUNTED_LOOPS;
	/*
	 * The harness writes to files in dir, not to gate's pipes, and the
	 * files are copied out after it: with pytest's output on a pipe,
	 * every case of numpy's test_type_check.py counted differently from
	 * process to process (up to 0.96%), with it on a file all 52 the
	 * same in every process. The shell is followed, never counted.
	 */
	static const char files[] = "d=$1; shift; \"$@\" >\"$d/out\" "
		"2>\"$d/err\"; s=$?; cat \"$d/out\"; cat \"$d/err\" >&2; "
		"exit $s";
	char **v, **copy;
	size_t n, k = 0;

	for (n = 0; argv[n]; n++)
		;
	copy = xcalloc(n + 7, sizeof(*copy));
	copy[k++] = (char *)"/bin/sh";
	copy[k++] = (char *)"-c";
	copy[k++] = (char *)files;
	copy[k++] = (char *)"sh";
	copy[k++] = (char *)dir;
	memcpy(copy + k, argv, n * sizeof(*copy));
	n += k;
	/*
	 * one iteration a case, in one trial: each loop's dump is then its
	 * case's, in the order the JSON lists them (a command line's own
	 * --benchmark_min_time comes before and loses; a shell string gets
	 * BENCHMARK_MIN_TIME from the environment)
	 */
	if (loops && !shell)
		copy[n] = (char *)"--benchmark_min_time=0";
	v = probe_valgrind_argv(br->valgrind, dir, copy, br->simulate,
				loops ? PROBE_GBENCH : PROBE_MARKS,
				br->probe ? br->probe->prefix : NULL);
	free(copy);
	return v;
}

/* env's variable name=... (its value), or NULL */
static const char *env_get(char *const *env, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; env && env[i]; i++)
		if (!strncmp(env[i], name, len) && env[i][len] == '=')
			return env[i] + len + 1;
	return NULL;
}

/* set name=value in the owned array *e (*n strings), replacing it */
static void env_set(char ***e, size_t *n, const char *name, const char *value)
{
	size_t i, len = strlen(name);

	for (i = 0; i < *n; i++)
		if (!strncmp((*e)[i], name, len) && (*e)[i][len] == '=') {
			free((*e)[i]);
			(*e)[i] = xasprintf("%s=%s", name, value);
			return;
		}
	*e = xrealloc(*e, (*n + 2) * sizeof(**e));
	(*e)[(*n)++] = xasprintf("%s=%s", name, value);
	(*e)[*n] = NULL;
}

/* the thread pools a counted run gets one thread in (the sandbox's
   allowlist lets them through) */
static const char *const counted_pools[] = { "OMP_NUM_THREADS",
	"OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
	"NUMEXPR_NUM_THREADS", NULL };

char **suite_counted_env(const struct bench_run *br, char *const *env)
{
	extern char **environ;
	char *const *base = env ? env : environ;
	const struct suite_probe *p = br->probe;
	enum fmt_counted how = format_reader(br->cfg->format)->counted;
	char **e;
	size_t n, i;

	for (n = 0; base[n]; n++)
		;
	e = xcalloc(n + 1, sizeof(*e));
	for (i = 0; i < n; i++)
		e[i] = xstrdup(base[i]);
	/* symbols bound at start-up: a case's first call into a library
	   is not charged the dynamic linker's lookup */
	env_set(&e, &n, "LD_BIND_NOW", "1");
	/* one thread in each BLAS or OpenMP pool: an idle worker spins for
	   as long as the caller works, on the clock, and a count sees it
	   (numpy's cases varied up to 1.8% between processes with
	   OpenBLAS's pool, not at all with one thread) */
	for (i = 0; counted_pools[i]; i++)
		env_set(&e, &n, counted_pools[i], "1");
	if (p && p->lib)
		env_set(&e, &n, "GATE_PROBE", p->lib);
	if (how == FMT_COUNTED_LOOPS)
		env_set(&e, &n, "BENCHMARK_MIN_TIME", "0");
	if (how == FMT_COUNTED_PYTEST) {
		const char *pp = env_get(base, "PYTHONPATH");
		const char *ao = env_get(base, "PYTEST_ADDOPTS");
		char *v;

		/* the same hash seed every run: sets and dicts of strings
		   iterate alike, so a case does the same work every time */
		env_set(&e, &n, "PYTHONHASHSEED", "0");
		/* Python's own allocator, whatever the user set: a process
		   still lands in one of two heap layouts now and then, and
		   with glibc's malloc for every object the two counted
		   numpy's 202 cases up to 1.56% apart (median 0.127%), with
		   pymalloc up to 0.46% (median 0.062%, 144 cases within the
		   0.1% of an exact count) */
		env_set(&e, &n, "PYTHONMALLOC", "pymalloc");
		v = pp && *pp ? xasprintf("%s:%s", p->plugin_dir, pp) :
			xstrdup(p->plugin_dir);
		env_set(&e, &n, "PYTHONPATH", v);
		free(v);
		/* the plugin: it has pytest-benchmark call each case once
		   (doc/counted.md), as --benchmark-disable would, which a
		   command's --benchmark-only refuses */
		v = xasprintf("%s%s-p gate_probe_pytest", ao ? ao : "",
			      ao && *ao ? " " : "");
		env_set(&e, &n, "PYTEST_ADDOPTS", v);
		free(v);
	}
	return e;
}

/* One case's counts in a counted run: instructions and cycles (NAN when
   not simulated). */
struct counted_case {
	char *name;
	double v[2];		/* instructions, cycles */
	size_t n;		/* values summed into v (repetitions) */
};

struct counted_list {
	struct counted_case *c;
	size_t n, cap;
};

static void list_add(struct counted_list *l, const char *name, double ir,
		     double cycles)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->c[i].name, name))
			break;
	if (i == l->n) {
		XGROW(l->c, l->cap, l->n + 1);
		memset(&l->c[l->n], 0, sizeof(l->c[l->n]));
		l->c[l->n++].name = xstrdup(name);
	}
	l->c[i].v[0] += ir;
	l->c[i].v[1] += cycles;
	l->c[i].n++;
}

static void list_release(struct counted_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->c[i].name);
	free(l->c);
}

/*
 * Google Benchmark's cases from its JSON (stdout): each result of an
 * iteration run takes the next loop dump, its count divided by its
 * iterations. 0, or -1 with why in *why (owned).
 */
static int gbench_cases(struct counted_list *l, const struct probe_counts *pc,
			const struct run_result *res, char **why)
{
	cJSON *root = res->out ? cJSON_ParseWithLength(res->out,
						       res->out_len) : NULL;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root,
							     "benchmarks");
	const cJSON *e;
	size_t k = 0, runs = 0;
	int ret = -1;

	if (!cJSON_IsArray(list)) {
		*why = xstrdup("its stdout is not Google Benchmark's JSON: "
			       "run it with --benchmark_format=json");
		goto cleanup;
	}
	cJSON_ArrayForEach(e, list) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(e,
								     "run_type");

		runs += !cJSON_IsString(type) ||
			!strcmp(type->valuestring, "iteration");
	}
	if (runs != pc->nloops) {
		*why = xasprintf("callgrind saw %zu loops for %zu results: a "
				 "case that runs its loop more than once a "
				 "result (threads, its own MinTime, a "
				 "warm-up) cannot be counted per case; set "
				 "those aside with \"ignore\"", pc->nloops,
				 runs);
		goto cleanup;
	}
	cJSON_ArrayForEach(e, list) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(e,
								     "run_type");
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(e,
								     "run_name");
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(e,
								   "iterations");
		const struct probe_dump *d;

		if (cJSON_IsString(type) && strcmp(type->valuestring,
						   "iteration"))
			continue;
		if (!cJSON_IsString(name))
			name = cJSON_GetObjectItemCaseSensitive(e, "name");
		if (!cJSON_IsString(name) || !cJSON_IsNumber(it) ||
		    !(it->valuedouble >= 1)) {
			*why = xstrdup("a result has no name or iterations");
			goto cleanup;
		}
		d = &pc->loops[k++];
		list_add(l, name->valuestring, d->ir / it->valuedouble,
			 metric_cycles(d->sim) / it->valuedouble);
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

static void fail(struct bench_run *br, char *msg)
{
	free(br->error);
	br->error = msg;
}

/* The count case name of unit u in arm a's pair (NAN-filled growth). */
static void keep(struct bench_run *br, struct suite_case *sc, enum arm a,
		 long pair, double v)
{
	size_t p = (size_t)pair, need = p + 1 > br->cfg->pairs ? p + 1 :
		br->cfg->pairs, old = sc->vcap[a], i;

	if (need > sc->vcap[a]) {
		XGROW(sc->v[a], sc->vcap[a], need);
		for (i = old; i < sc->vcap[a]; i++)
			sc->v[a][i] = NAN;
	}
	sc->v[a][p] = v;
}

/* l's counts into br->suite against arm a's first counted sample */
static int keep_all(struct bench_run *br, const struct counted_list *l,
		    enum arm a, const char *label, long pair)
{
	static const enum metric ms[2] = { METRIC_INSTRUCTIONS, METRIC_CYCLES };
	struct suite_data *sd;
	size_t i, k;

	if (!br->suite)
		br->suite = xcalloc(1, sizeof(*br->suite));
	sd = br->suite;
	for (k = 0; k < 2; k++) {
		const char *unit = metric_name(ms[k]);

		if (!has_count(br->cfg, ms[k]))
			continue;
		for (i = 0; i < l->n; i++) {
			const struct counted_case *c = &l->c[i];
			struct suite_case *sc = suite_case_find(sd, c->name,
								unit);

			if (!suite_wanted(sd, c->name))
				continue;
			if (!(sc && sc->in[a]) && sd->counted[a]) {
				fail(br, xasprintf("benchmark \"%s\": case "
					"\"%s\" was counted in %s's %s but "
					"not in its first counted run: a "
					"suite must mark the same cases every "
					"run", br->cfg->name, c->name,
					arm_name(a), label));
				return -1;
			}
			if (!sc) {
				XGROW(sd->cases, sd->cap, sd->n + 1);
				sc = &sd->cases[sd->n++];
				memset(sc, 0, sizeof(*sc));
				sc->name = xstrdup(c->name);
				sc->unit = xstrdup(unit);
			}
			sc->in[a] = 1;
			if (!isfinite(c->v[k]) || c->v[k] < 0) {
				fail(br, xasprintf("benchmark \"%s\": case "
					"\"%s\" has no %s in %s's %s: was "
					"it simulated?", br->cfg->name,
					c->name, unit, arm_name(a), label));
				return -1;
			}
			if (pair >= 0)
				keep(br, sc, a, pair, c->v[k] / (double)c->n);
		}
		/* every case of the first counted run, in this one too */
		for (i = 0; i < sd->n && sd->counted[a]; i++) {
			const struct suite_case *sc = &sd->cases[i];
			size_t j;
			int found = 0;

			if (!sc->in[a] || strcmp(sc->unit, unit) ||
			    !suite_wanted(sd, sc->name))
				continue;
			for (j = 0; j < l->n && !found; j++)
				found = !strcmp(l->c[j].name, sc->name);
			if (!found) {
				fail(br, xasprintf("benchmark \"%s\": case "
					"\"%s\" was not counted in %s's %s "
					"though %s's first counted run had "
					"it: a crashed or filtered case?",
					br->cfg->name, sc->name, arm_name(a),
					label, arm_name(a)));
				return -1;
			}
		}
	}
	sd->counted[a]++;
	return 0;
}

int suite_counted_collect(struct bench_run *br, enum arm a, const char *label,
			  const char *dir, const struct run_result *res,
			  long pair)
{
	struct probe_counts pc = PROBE_COUNTS_INIT;
	struct counted_list l = { NULL, 0, 0 };
	struct gate_err err = { "" };
	enum fmt_counted how = format_reader(br->cfg->format)->counted;
	char *why = NULL;
	size_t i;
	int ret = -1;

	if (probe_collect(&pc, dir, &err) < 0) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): %s",
				   br->cfg->name, arm_name(a), label,
				   err.msg));
		goto cleanup;
	}
	if (how == FMT_COUNTED_LOOPS) {
		if (gbench_cases(&l, &pc, res, &why) < 0) {
			fail(br, xasprintf("benchmark \"%s\": %s sample (%s): "
					   "%s", br->cfg->name, arm_name(a),
					   label, why));
			goto cleanup;
		}
	} else {
		for (i = 0; i < pc.n; i++)
			list_add(&l, pc.cases[i].name,
				 probe_case_value(&pc.cases[i],
						  METRIC_INSTRUCTIONS),
				 probe_case_value(&pc.cases[i],
						  METRIC_CYCLES));
	}
	if (!l.n) {
		fail(br, xasprintf("benchmark \"%s\": %s sample (%s): no case "
			"was counted: %s", br->cfg->name, arm_name(a), label,
			how == FMT_COUNTED_PYTEST ? "did pytest load "
			"gate's plugin (-p gate_probe_pytest, through "
			"PYTEST_ADDOPTS)?" : how == FMT_COUNTED_LOOPS ?
			"no loop of Google Benchmark's State ran" : "a lines "
			"harness marks each case with gate_probe_start and "
			"gate_probe_stop (lib/gate-probe.h, doc/counted.md)"));
		goto cleanup;
	}
	ret = keep_all(br, &l, a, label, pair);
cleanup:
	free(why);
	list_release(&l);
	probe_counts_release(&pc);
	return ret;
}

const char *suite_counted_scheme(enum format f, int simulate, char *buf,
				 size_t size)
{
	enum fmt_counted c = format_reader(f)->counted;
	const char *how = c == FMT_COUNTED_PYTEST ? "each test's call "
		"bracketed by gate's pytest plugin, once (benchmarks "
		"disabled); PYTHONHASHSEED=0, PYTHONMALLOC=pymalloc, "
		"os.urandom one fixed stream" :
		c == FMT_COUNTED_LOOPS ?
		"each case's loop alone, one iteration "
		"(--benchmark_min_time=0), set-up outside" : "each case "
		"between the harness's gate_probe_start and gate_probe_stop";

	snprintf(buf, size, "each case counted on its own under callgrind "
		 "(%s), start-up outside every count: %s; LD_BIND_NOW=1; "
		 "one thread per BLAS or OpenMP pool (OMP_NUM_THREADS=1, "
		 "OPENBLAS_NUM_THREADS=1, MKL_NUM_THREADS=1, ...); "
		 "address-space randomisation off (setarch -R); every run "
		 "on the first CPU gate may use (taskset); in a sandbox, "
		 "each run's directory at " BOX_RUN_DIR,
		 simulate ? "cache simulation on" : "cache simulation off",
		 how);
	return buf;
}

const char *suite_counted_case(const struct bench_run *br, char *buf,
			       size_t size)
{
	const struct bench_cfg *c = br->cfg;
	size_t k;
	int counted = 0, sim = 0;

	for (k = 0; br->suite_name && k < c->nmetrics && k < METRIC_VALUES;
	     k++) {
		const char *u = c->values[k].unit;

		counted |= u && suite_counted_unit(u);
		sim |= u && !strcmp(u, metric_name(METRIC_CYCLES));
	}
	return counted ? suite_counted_scheme(c->format, sim, buf, size) :
		NULL;
}
