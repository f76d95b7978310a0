/*
 * Counted suite cases: callgrind's dumps read back per case. Each dump the
 * probe asked for says "desc: Trigger: Client Request: gate:NAME" (NAME
 * %XX-encoded by lib/gate-probe.c) and ends with "totals:" in the order of
 * its "events:" line; callgrind's "summary:" is not used (3.19 writes 0
 * there when counting started late).
 */
#include "gate/exec/probe.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/exec/counter.h"
#include "gate/exec/self.h"
#include "gate/os/os.h"
#include "common/error.h"
#include "common/file.h"
#include "common/banned.h"

/* A callgrind output file larger than this is refused: a dump per case
   of a large suite with call graphs stays far below it. */
#define PROBE_MAX_FILE (256u << 20)

#define TRIGGER "desc: Trigger: Client Request: "
/* callgrind names the function as it matched, arguments and all */
#define LOOP_TRIGGER "desc: Trigger: --dump-before=benchmark::State::" \
	"FinishKeepRunning("

void probe_counts_release(struct probe_counts *pc)
{
	size_t i;

	for (i = 0; i < pc->n; i++)
		free(pc->cases[i].name);
	free(pc->cases);
	free(pc->loops);
	pc->cases = NULL;
	pc->loops = NULL;
	pc->n = pc->cap = pc->processes = pc->nloops = pc->loops_cap = 0;
}

const struct probe_case *probe_find(const struct probe_counts *pc,
				    const char *name)
{
	size_t i;

	for (i = 0; i < pc->n; i++)
		if (!strcmp(pc->cases[i].name, name))
			return &pc->cases[i];
	return NULL;
}

double probe_case_value(const struct probe_case *c, enum metric m)
{
	if (!c->calls)
		return NAN;
	if (m == METRIC_INSTRUCTIONS)
		return c->ir / (double)c->calls;
	if (m == METRIC_CYCLES)
		return metric_cycles(c->sim) / (double)c->calls;
	return NAN;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* s (n bytes, %XX-encoded) decoded (owned), or NULL when malformed. */
static char *decode(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '%') {
			d[o++] = s[i];
			continue;
		}
		if (i + 2 >= n || hexval(s[i + 1]) < 0 ||
		    hexval(s[i + 2]) < 0) {
			free(d);
			return NULL;
		}
		d[o++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
		i += 2;
	}
	d[o] = '\0';
	return d;
}

/* One part of a callgrind file, as far as it has been read. */
struct part {
	const char *trigger;	/* after TRIGGER, or NULL: not a request */
	size_t trigger_len;
	int loop;		/* taken before a gbench loop's end */
	char events[1024];	/* the "events:" line's names */
	int totals;		/* a "totals:" line was read */
	double ir, sim[SIM_EVENTS];
	int found;		/* simulation events in the totals */
};

static void part_reset(struct part *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->events, sizeof(p->events), "Ir");
}

static void add_case(struct probe_counts *pc, char *name,
		     const struct part *p)
{
	struct probe_case *c = (struct probe_case *)probe_find(pc, name);
	int k;

	if (c) {
		free(name);
	} else {
		XGROW(pc->cases, pc->cap, pc->n + 1);
		c = &pc->cases[pc->n++];
		memset(c, 0, sizeof(*c));
		c->name = name;
	}
	c->calls++;
	c->ir += p->ir;
	for (k = 0; k < SIM_EVENTS; k++)
		c->sim[k] = p->found == SIM_EVENTS ? c->sim[k] + p->sim[k] :
			NAN;
}

/* The part p just ended: a case added, skipped, or -1 with why. */
static int end_part(struct probe_counts *pc, const struct part *p,
		    const char *origin, struct gate_err *err)
{
	const char *t = p->trigger;
	size_t n = p->trigger_len;
	int paired;
	char *name;

	if (p->loop && p->totals) {
		struct probe_dump *d;
		int k;

		XGROW(pc->loops, pc->loops_cap, pc->nloops + 1);
		d = &pc->loops[pc->nloops++];
		d->ir = p->ir;
		for (k = 0; k < SIM_EVENTS; k++)
			d->sim[k] = p->found == SIM_EVENTS ? p->sim[k] : NAN;
		return 0;
	}
	if (!t)
		return 0;
	if (n >= 5 && !memcmp(t, "gate:", 5))
		paired = 1;
	else if (n >= 6 && !memcmp(t, "gate!:", 6))
		paired = 0;
	else
		return 0;	/* the program's own dump: not a case */
	name = decode(t + (paired ? 5 : 6), n - (paired ? 5 : 6));
	if (!name)
		return error_to(err, "%s: the probe's dump \"%.*s\" has a "
				"malformed name: was it written by gate's "
				"libgate-probe.so?", origin, (int)n, t);
	if (!paired) {
		error_to(err, "%s: case \"%s\" was stopped without being "
			 "started under that name: call gate_probe_start and "
			 "gate_probe_stop in pairs, with the same name",
			 origin, name);
		free(name);
		return -1;
	}
	if (!p->totals) {
		error_to(err, "%s: the dump of case \"%s\" has no \"totals:\" "
			 "line: the file was cut short (did the run end "
			 "early?)", origin, name);
		free(name);
		return -1;
	}
	add_case(pc, name, p);
	return 0;
}

/* Count the blank-separated words of s. */
static size_t words(const char *s)
{
	size_t n = 0;

	while (*s) {
		s += strspn(s, " \t");
		if (!*s)
			break;
		n++;
		s += strcspn(s, " \t");
	}
	return n;
}

/*
 * The format leaves out trailing costs that are zero ("totals: 0" of a
 * part with nine events): write them, so that totals and events match.
 */
static void pad_zeros(char *totals, size_t size, const char *events)
{
	size_t have = words(totals), want = words(events), len;

	for (; have < want; have++) {
		len = strlen(totals);
		if (len + 3 > size)
			return;
		memcpy(totals + len, " 0", 3);
	}
}

int probe_parse(struct probe_counts *pc, const char *text, size_t len,
		const char *origin, struct gate_err *err)
{
	struct part p;
	const char *s = text, *end = text + len;
	char line[1024];

	part_reset(&p);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);

		if (n >= 5 && !memcmp(s, "part:", 5)) {
			if (end_part(pc, &p, origin, err) < 0)
				return -1;
			part_reset(&p);
		} else if (n >= strlen(TRIGGER) &&
			   !memcmp(s, TRIGGER, strlen(TRIGGER))) {
			p.trigger = s + strlen(TRIGGER);
			p.trigger_len = n - strlen(TRIGGER);
		} else if (n >= strlen(LOOP_TRIGGER) &&
			   !memcmp(s, LOOP_TRIGGER, strlen(LOOP_TRIGGER))) {
			p.loop = 1;
		} else if (n >= 7 && !memcmp(s, "events:", 7)) {
			snprintf(p.events, sizeof(p.events), "%.*s",
				 (int)(n - 7), s + 7);
		} else if (n >= 7 && !memcmp(s, "totals:", 7)) {
			snprintf(line, sizeof(line), "%.*s", (int)(n - 7),
				 s + 7);
			pad_zeros(line, sizeof(line), p.events);
			p.ir = 0;
			memset(p.sim, 0, sizeof(p.sim));
			p.found = counter_sim_parse(p.events, line, &p.ir,
						    p.sim);
			if (p.found < 0 || words(line) > words(p.events) ||
			    !strstr(p.events, "Ir"))
				return error_to(err, "%s: \"totals:%s\" does "
						"not match \"events:%s\"",
						origin, line, p.events);
			p.totals = 1;
		}
		s = nl ? nl + 1 : end;
	}
	return end_part(pc, &p, origin, err);
}

/* A callgrind output file's name: cg.PID or cg.PID.N (dump N). */
struct cg_file {
	char *name;
	unsigned long pid, dump;	/* dump 0: the file without .N,
					   written last */
};

static int cg_file_cmp(const void *a, const void *b)
{
	const struct cg_file *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->dump != y->dump) {
		if (!x->dump || !y->dump)
			return !x->dump ? 1 : -1;
		return x->dump < y->dump ? -1 : 1;
	}
	return 0;
}

/* name as cg.PID[.N] into f: 1, or 0 when it is not one. */
static int cg_name(const char *name, struct cg_file *f)
{
	char *e;

	if (strncmp(name, "cg.", 3) || !(name[3] >= '0' && name[3] <= '9'))
		return 0;
	f->pid = strtoul(name + 3, &e, 10);
	f->dump = 0;
	if (*e == '.') {
		if (!(e[1] >= '0' && e[1] <= '9'))
			return 0;
		f->dump = strtoul(e + 1, &e, 10);
	}
	return *e == '\0';
}

int probe_collect(struct probe_counts *pc, const char *dir,
		  struct gate_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct cg_file *files = NULL;
	size_t n = 0, cap = 0, i;
	int ret = 0;

	if (!d)
		return error_to(err, "cannot read \"%s\": %s", dir,
				strerror(errno));
	while ((e = readdir(d))) {
		struct cg_file f;

		if (cg_name(e->d_name, &f)) {
			f.name = xasprintf("%s/%s", dir, e->d_name);
			XGROW(files, cap, n + 1);
			files[n++] = f;
		} else if (!strncmp(e->d_name, "vg.", 3)) {
			char *p = xasprintf("%s/%s", dir, e->d_name);

			unlink(p);
			free(p);
		}
	}
	closedir(d);
	if (n)
		qsort(files, n, sizeof(*files), cg_file_cmp);
	for (i = 0; i < n; i++) {
		char *text = NULL;
		size_t len = 0;
		struct gate_err rerr;

		if (ret == 0 && file_read_to(&text, &len, files[i].name,
					     PROBE_MAX_FILE, &rerr) < 0) {
			ret = error_to(err, "%s", rerr.msg);
		} else if (ret == 0) {
			ret = probe_parse(pc, text, len, files[i].name, err);
			if (!files[i].dump)
				pc->processes++;
		}
		free(text);
		unlink(files[i].name);
		free(files[i].name);
	}
	free(files);
	return ret;
}

/*
 * the options before the program's argv: callgrind's, then the mode's.
 * Children are followed to reach the harness (a shell string, make), but
 * never counted (they start with counting off), so the tools a harness
 * runs for its report are not: pytest-benchmark's machine info runs git
 * (its commit) and file (platform.architecture), each a valgrind start-up
 * of a second or more on a loaded machine.
 */
static const char *const fixed[] = {
	"--tool=callgrind", "--combine-dumps=yes", "--trace-children=yes",
	"--trace-children-skip=*/git,*/file,*/uname,*/lscpu,*/cat", NULL
};
static const char *const fixed_sim[] = {
	"--cache-sim=yes", COUNTER_SIM_I1, COUNTER_SIM_D1, COUNTER_SIM_LL, NULL
};
static const char *const fixed_marks[] = { "--instr-atstart=no",
	"--collect-atstart=no", NULL };
static const char *const fixed_gbench[] = {
	"--dump-after=" PROBE_GBENCH_LOOP_START,
	"--dump-before=" PROBE_GBENCH_LOOP_END, NULL
};

/* The last string probe_valgrind_argv owns: what follows is argv's. */
#define LOG_OPTION "--log-file="

char **probe_valgrind_argv(const char *valgrind, const char *dir,
			   char *const *argv, int cache_sim,
			   enum probe_mode mode, const char *const *prefix)
{
	const char *const *opts[3] = { fixed, cache_sim ? fixed_sim : NULL,
		mode == PROBE_GBENCH ? fixed_gbench : fixed_marks };
	size_t n, np, i, j, o = 0;
	char **v;

	for (n = 0; argv[n]; n++)
		;
	for (np = 0; prefix && prefix[np]; np++)
		;
	v = xcalloc(np + n + 20, sizeof(*v));
	for (i = 0; prefix && prefix[i]; i++)
		v[o++] = xstrdup(prefix[i]);
	v[o++] = xstrdup(valgrind);
	for (j = 0; j < 3; j++)
		for (i = 0; opts[j] && opts[j][i]; i++)
			v[o++] = xstrdup(opts[j][i]);
	v[o++] = xasprintf("--callgrind-out-file=%s/cg.%%p", dir);
	v[o++] = xasprintf(LOG_OPTION "%s/vg.%%p", dir);
	for (i = 0; i < n; i++)
		v[o++] = argv[i];
	return v;
}

int probe_file_find(char **path, const char *file, struct gate_err *err)
{
	const char *env = getenv("GATE_PROBE_DIR");
	char *cand[2];

	*path = NULL;
	if (env && *env) {
		char *p = xasprintf("%s/%s", env, file);

		if (env[0] == '/' && access(p, R_OK) == 0) {
			*path = p;
			return 0;
		}
		free(p);
		return error_to(err, "GATE_PROBE_DIR=%s is not an absolute "
				"path to a directory holding %s", env, file);
	}
	*path = self_file_find(file, R_OK, cand);
	if (!cand[0])
		return error_to(err, "cannot find %s: gate cannot see its own "
				"path (/proc/self/exe): set GATE_PROBE_DIR to "
				"the directory holding it", file);
	if (!*path)
		error_to(err, "cannot find %s to count a suite's cases: looked "
			 "in %s and %s; run `make` (it builds build/%s; "
			 "valgrind's headers are needed: apt-get install "
			 "valgrind) or `make install`, or set GATE_PROBE_DIR",
			 file, cand[0], cand[1], file);
	free(cand[0]);
	free(cand[1]);
	return *path ? 0 : -1;
}
