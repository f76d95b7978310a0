/*
 * gate init for Google Benchmark programs: gbench suites running a fixed
 * number of iterations (--benchmark_min_time=Nx, Google Benchmark 1.8 and
 * later), N measured once so that a case takes 50-100 ms; an older library
 * cannot fix the work from outside, and its suite says it runs fixed time.
 */
#include "gate/cmd/init.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "common/tree.h"
#include "gate/format/format.h"
#include "common/banned.h"

/* The measuring run: a plain number is seconds in every version (1.8
   still takes it without its "s"), short enough to be cheap. */
#define GB_PROBE "--benchmark_min_time=0.02"

/* A program found, and what init learnt of it. */
struct gb_prog {
	struct init_prog *p;	/* dir: its path from the top, "./x" */
	char *bin;		/* the built program to measure (owned), or NULL */
	int evidence;		/* the build links it with the library */
	int fixed_work;		/* it takes --benchmark_min_time=Nx */
	char *why_time;		/* why not (owned), when measured */
	double wall;		/* a fixed-time sample, measured (s) */
};

/* Whether s[0..n) holds the text key. */
static int holds(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key);
	const char *p = s, *end = s + n;

	while (n >= k && (p = memchr(p, key[0], (size_t)(end - p))) &&
	       (size_t)(end - p) >= k) {
		if (!memcmp(p, key, k))
			return 1;
		p++;
	}
	return 0;
}

/*
 * Whether the built program bin is a Google Benchmark program: a dynamic
 * one names its library ("libbenchmark.so.1"), a static one holds the
 * library's flags. 0 when it is not there (not built yet).
 */
static int links_library(const char *bin)
{
	struct gate_err quiet;
	char *data = NULL;
	size_t len = 0;
	int yes = 0;

	if (access(bin, X_OK) == 0 &&
	    file_read_to(&data, &len, bin, (size_t)256 << 20, &quiet) == 0)
		yes = holds(data, len, "libbenchmark") ||
		      holds(data, len, "benchmark_min_time");
	free(data);
	return yes;
}

/*
 * A CMake project's programs are built in build/, which a fresh checkout
 * does not have: built once here into tmp instead (never in the user's
 * tree), as the proposed build does (Release). 0, or -1 with *why said.
 */
static int cmake_build(const char *top, const char *tmp, char **why)
{
	char a0[] = "cmake", s[] = "-S", b[] = "-B", rel[] =
	     "-DCMAKE_BUILD_TYPE=Release", bu[] = "--build", j[] = "-j2";
	char *dir = xasprintf("%s/build", tmp), *src = xstrdup(top), *out;
	char *conf[] = { a0, s, src, b, dir, rel, NULL };
	char *make[] = { a0, bu, dir, j, NULL };
	double wall;
	int rc = -1;

	if ((out = init_run(conf, tmp, "cmake (configuring a build in /tmp)",
			    &wall, why))) {
		free(out);
		if ((out = init_run(make, tmp, "cmake --build (in /tmp)",
				    &wall, why))) {
			free(out);
			rc = 0;
		}
	}
	free(src);
	free(dir);
	return rc;
}

/* The program at path (from the top, no "./"), found once. */
static struct gb_prog *add_prog(struct gb_prog *g, size_t *n,
				const char *path, size_t len, int evidence)
{
	char *dir = xasprintf("./%.*s", (int)len, path);
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(g[i].p->dir, dir)) {
			free(dir);
			g[i].evidence |= evidence;
			return &g[i];
		}
	if (*n == MAX_BENCH || !len || strstr(dir, "..") ||
	    strchr(dir, '$')) {
		free(dir);
		return NULL;
	}
	memset(&g[*n], 0, sizeof(g[*n]));
	g[*n].p = xcalloc(1, sizeof(*g[*n].p));
	g[*n].p->dir = dir;
	g[*n].p->overhead = NAN;
	g[*n].evidence = evidence;
	return &g[(*n)++];
}

/* Programs a link line of make -n names with -o beside -lbenchmark,
   whatever they are called. */
static void scan_commands(struct gb_prog *g, size_t *n, const char *text)
{
	const char *line, *eol, *o;
	size_t len, k;

	for (line = text; line && *line; line = eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		len = eol ? (size_t)(eol - line) : strlen(line);
		if (!holds(line, len, "-lbenchmark") &&
		    !holds(line, len, "libbenchmark.a"))
			continue;
		for (o = line; (o = strstr(o, "-o ")) && o < line + len; ) {
			o += 3;
			o += strspn(o, " ");
			if (!strncmp(o, "./", 2))
				o += 2;
			k = strcspn(o, " \t\n;'\"");
			/* a program, not a library or an object */
			if (*o != '/' && !holds(o, k, ".so") &&
			    !(k > 2 && o[k - 2] == '.'))
				add_prog(g, n, o, k, 1);
			break;
		}
	}
}

/* CMake targets that link benchmark::benchmark (or benchmark): their
   programs in build/, where the proposed build puts them. */
static void scan_cmake(struct gb_prog *g, size_t *n, const char *text)
{
	regex_t re;
	regmatch_t m[2];
	const char *s = text;
	char *path;

	/* CMake's command names are case-insensitive, its targets not */
	if (!text || regcomp(&re, "[Tt][Aa][Rr][Gg][Ee][Tt]_[Ll][Ii][Nn][Kk]_"
			     "[Ll][Ii][Bb][Rr][Aa][Rr][Ii][Ee][Ss]"
			     "\\([[:space:]]*"
			     "([A-Za-z0-9_.+-]+)[^)]*[[:space:]]benchmark"
			     "(::benchmark)?[[:space:])]", REG_EXTENDED))
		return;
	while (regexec(&re, s, 2, m, s == text ? 0 : REG_NOTBOL) == 0) {
		path = xasprintf("build/%.*s", (int)(m[1].rm_eo - m[1].rm_so),
				 s + m[1].rm_so);
		add_prog(g, n, path, strlen(path), 1);
		free(path);
		s += m[0].rm_eo;
	}
	regfree(&re);
}

/* g's program run once in top with flag (and the JSON format): its
   stdout, or NULL with *why said. */
static char *run_prog(const struct gb_prog *g, const char *top,
		      const char *flag, double *wall, char **why)
{
	char fmt[] = "--benchmark_format=json";
	char *argv[] = { g->bin, fmt, (char *)flag, NULL };
	char *what = xasprintf("%s %s", g->p->dir, flag);
	char *out = init_run(argv, top, what, wall, why);

	free(what);
	return out;
}

/* Each case's time an iteration from a JSON run of p (gate's own reader:
   the slowest repetition of each). */
static int parse_cases(struct init_prog *p, const char *out, char **why)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_opts o;
	struct gate_err err;
	struct init_case *c;
	size_t i, k;

	memset(&o, 0, sizeof(o));
	o.err = &err;
	if (format_parse(&t, FORMAT_GBENCH, out, strlen(out), p->dir,
			 &o) < 0) {
		*why = xstrdup(err.msg);
		return -1;
	}
	for (i = 0; i < t.n; i++) {
		if (!unit_is_time(t.cases[i].unit))
			continue;
		init_case_add(p, t.cases[i].name, strlen(t.cases[i].name));
		c = init_case_find(p, t.cases[i].name, strlen(t.cases[i].name));
		for (k = 0; k < t.cases[i].n; k++)
			if (t.cases[i].values[k] * 1e9 > c->ns)
				c->ns = t.cases[i].values[k] * 1e9;
	}
	fmt_table_release(&t);
	return 0;
}

/*
 * Whether p's library takes --benchmark_min_time=1x, by running every case
 * once so: accepted, each case ran one iteration (an older library exits
 * 1 on the "x"); what that run cost beyond the cases is p's overhead.
 */
static void check_fixed_work(struct gb_prog *g, const char *top)
{
	struct init_prog *p = g->p;
	char *why = NULL, *out;
	const char *s;
	size_t runs = 0, ones = 0, i;
	double wall, work = 0;

	out = run_prog(g, top, "--benchmark_min_time=1x", &wall, &why);
	for (s = out; s && (s = strstr(s, "\"iterations\":")); runs++) {
		s += 13;
		s += strspn(s, " ");
		ones += s[0] == '1' && (s[1] == ',' || s[1] == '\n');
	}
	if (!out) {
		g->why_time = xstrdup("its library refused "
				      "--benchmark_min_time=1x (older than "
				      "1.8: a number of seconds only)");
	} else if (!runs || ones != runs) {
		g->why_time = xstrdup("its library ignored "
				      "--benchmark_min_time=1x (the cases ran "
				      "more than one iteration)");
	} else {
		g->fixed_work = 1;
		for (i = 0; i < p->n; i++)
			work += p->c[i].ns * 1e-9;
		p->overhead = wall > work ? wall - work : 0;
	}
	free(why);
	free(out);
}

/* Measure g once: each case's time an iteration, then whether the work
   can be fixed. */
static void measure(struct gb_prog *g, const char *top)
{
	struct init_prog *p = g->p;
	double wall;
	char *out = run_prog(g, top, GB_PROBE, &wall, &p->why);

	if (!out)
		return;
	if (parse_cases(p, out, &p->why) == 0 && !p->n)
		p->why = xstrdup("it printed no case with a time");
	free(out);
	if (p->why)
		return;
	init_prog_sort(p);
	check_fixed_work(g, top);
}

/* The suite's run: the program, JSON, how long, and a filter (or NULL). */
static void add_suite(struct found *f, const char *name, const char *path,
		      const char *min_time, const char *filter, char *why)
{
	const char *argv[] = { path, "--benchmark_format=json", min_time,
			       filter, NULL };
	long idx = init_add_as(f, name, name, 0, argv, why);

	if (idx >= 0)
		f->format[idx] = "gbench";
}

/* g's suites of fixed work at case time t: one per group of cases within
   2x of each other's cost. */
static void propose_work(struct found *f, const struct gb_prog *g,
			 const char *base, double t)
{
	const struct init_prog *p = g->p;
	size_t gi = 0, j, k, groups = 0;
	char *mt, *filter, *name, *why, lo[64], hi[64];
	double n;

	for (k = 0; k < p->n; k = init_group_end(p, k))
		groups++;
	for (k = 0; k < p->n; k = j) {
		j = init_group_end(p, k);
		gi++;
		n = init_iterations(t, p->c[j - 1].ns);
		mt = xasprintf("--benchmark_min_time=%.0fx", n);
		filter = groups == 1 ? NULL :
			 init_anchored("--benchmark_filter=", p->c + k, j - k);
		name = groups == 1 ? xstrdup(base) :
		       xasprintf("%s-%zu", base, gi);
		format_value(p->c[k].ns * 1e-9, "s", lo, sizeof(lo));
		format_value(p->c[j - 1].ns * 1e-9, "s", hi, sizeof(hi));
		why = j - k == 1 ?
		      xasprintf("Google Benchmark program %s: %s, %s an "
				"iteration (measured), %.0f iterations: %.0f ms",
				p->dir, p->c[k].name, lo, n,
				n * p->c[k].ns * 1e-6) :
		      xasprintf("Google Benchmark program %s: %zu cases of "
				"%s to %s an iteration (measured), %.0f "
				"iterations each: %.0f to %.0f ms a case",
				p->dir, j - k, lo, hi, n,
				n * p->c[k].ns * 1e-6,
				n * p->c[j - 1].ns * 1e-6);
		add_suite(f, name, p->dir, mt, filter, why);
		free(name);
		free(filter);
		free(mt);
	}
}

/*
 * g as one suite of fixed time (its library cannot fix the work, or init
 * could not run it), each case at least INIT_CASE_SECONDS; measured once
 * as gate run will run it when g was measured.
 */
static void propose_time(struct found *f, struct gb_prog *g,
			 const char *base, const char *top)
{
	struct init_prog *p = g->p;
	char *mt = xasprintf("--benchmark_min_time=%g", INIT_CASE_SECONDS);
	char *why = NULL, *out = NULL, *note;

	if (!p->why && !(out = run_prog(g, top, mt, &g->wall, &why)))
		p->why = why;
	else
		free(why);
	free(out);
	if (p->why) {
		note = xasprintf("Google Benchmark program %s; not measured "
				 "(%s): each case runs for %g s (fixed time); "
				 "with Google Benchmark 1.8 or later, set "
				 "--benchmark_min_time=Nx so that each case "
				 "takes 50-100 ms", p->dir, p->why,
				 INIT_CASE_SECONDS);
	} else {
		char *cases = p->n == 1 ?
			xasprintf("%s, %.3g ns", p->c[0].name, p->c[0].ns) :
			xasprintf("%zu cases of %.3g to %.3g ns", p->n,
				  p->c[0].ns, p->c[p->n - 1].ns);

		note = xasprintf("Google Benchmark program %s: %s an "
				 "iteration (measured); fixed time, not fixed "
				 "work: %s, so its iterations cannot be set "
				 "from outside; each case runs for at least "
				 "%g s and gate reads its time an iteration, "
				 "not the process's; with Google Benchmark 1.8 "
				 "or later, run gate init again for "
				 "--benchmark_min_time=Nx", p->dir, cases,
				 g->why_time, INIT_CASE_SECONDS);
		free(cases);
	}
	add_suite(f, base, p->dir, mt, NULL, note);
	free(mt);
}

/* The proposal already made for program path ("./x"), or -1. */
static long proposed(const struct found *f, const char *path)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!f->format[i] && !strcmp(f->runs[i][0], path) &&
		    !f->runs[i][1])
			return (long)i;
	return -1;
}

/*
 * Every benchmark now runs a program the build makes: those programs are
 * the artifacts, and the docs the sources, so a docs-only change passes
 * unmeasured. The C and C++ sources are not sources here: a program may
 * load a library the build makes beside it, which no artifact covers.
 */
static void add_artifacts(struct found *f, const char *top)
{
	size_t i, k;
	const char *kept;

	for (i = 0; i < f->n; i++)
		if (strncmp(f->runs[i][0], "./", 2))
			return;
	f->nartifacts = 0;
	for (i = 0; i < f->n; i++) {
		for (k = 0; k < f->nartifacts; k++)
			if (!strcmp(f->artifacts[k], f->runs[i][0] + 2))
				break;
		if (k < f->nartifacts ||
		    !(kept = init_keep(f, xstrdup(f->runs[i][0] + 2))))
			continue;
		f->artifacts[f->nartifacts++] = kept;
	}
	f->nsources = 0;
	init_add_docs(f, top);
}

void init_scan_gbench(struct found *f, const char *top, const char *commands,
		      const char *cmake)
{
	struct gb_prog g[MAX_BENCH];
	struct init_prog *fixed[MAX_BENCH];
	size_t n = 0, i, nfixed = 0, nsuites = 0;
	long at;
	double t = INIT_CASE_SECONDS, per = 0;
	const char *slash;
	char *base, *cmake_why = NULL, tmpl[] = "/tmp/gate-init-gb-XXXXXX",
	     *tmp = NULL;

	for (i = 0; i < f->n; i++)
		if (!f->format[i] && !strncmp(f->runs[i][0], "./", 2) &&
		    !f->runs[i][1])
			add_prog(g, &n, f->runs[i][0] + 2,
				 strlen(f->runs[i][0] + 2), 0);
	if (commands)
		scan_commands(g, &n, commands);
	scan_cmake(g, &n, cmake);
	for (i = 0; i < n; i++) {
		struct init_prog *p = g[i].p;
		int built;

		g[i].bin = xasprintf("%s%s", top, p->dir + 2);
		if (access(g[i].bin, X_OK) != 0 && cmake &&
		    strstr(cmake, "benchmark") &&
		    !strncmp(p->dir, "./build/", 8)) {
			if (!tmp && !cmake_why && (!(tmp = mkdtemp(tmpl)) ||
			    cmake_build(top, tmp, &cmake_why) < 0) && !cmake_why)
				cmake_why = xstrdup("cannot make a directory "
						    "in /tmp to build it");
			if (!cmake_why) {
				free(g[i].bin);
				g[i].bin = xasprintf("%s/build/%s", tmp,
						     p->dir + 8);
			}
		}
		built = links_library(g[i].bin);
		if (!built && !g[i].evidence)
			continue;	/* not Google Benchmark's */
		if (built)
			measure(&g[i], top);
		else
			p->why = cmake_why ? xstrdup(cmake_why) :
				 xasprintf("%s is not built yet: build it, "
					   "then run gate init again to size "
					   "its work", p->dir);
		if (g[i].fixed_work)
			fixed[nfixed++] = p;
		g[i].evidence = 2;	/* proposed below */
	}
	if (nfixed)
		t = init_fit(fixed, nfixed, &per);
	for (i = 0; i < n; i++) {
		if (g[i].evidence == 2) {
			at = proposed(f, g[i].p->dir);
			slash = strrchr(g[i].p->dir, '/');
			base = at >= 0 ? xstrdup(f->names[at]) :
			       xstrdup(slash + 1);
			if (at >= 0)
				init_drop(f, (size_t)at);
			if (g[i].fixed_work) {
				propose_work(f, &g[i], base, t);
			} else {
				propose_time(f, &g[i], base, top);
				per += 2 * g[i].wall;
				f->unmeasured += g[i].p->why != NULL;
			}
			nsuites++;
			free(base);
		}
		free(g[i].why_time);
		free(g[i].bin);
		init_prog_free(g[i].p);
	}
	if (tmp && tree_remove(tmp, NULL) < 0)
		warning("cannot remove \"%s\": remove it yourself", tmp);
	free(cmake_why);
	f->pair_seconds += per;
	if (nsuites)
		add_artifacts(f, top);
}
