/*
 * gate init for a Go module: one gotest suite per package running a fixed
 * amount of work (-benchtime=Nx, -count=1), N measured once here so that
 * each case takes 50-100 ms; cases far apart in cost get suites of their
 * own, and the whole proposal is sized to fit the default budget.
 */
#include "gate/cmd/init.h"

#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "gate/config/config.h"
#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/measure/suite-filter.h"
#include "common/banned.h"

/* The N proposed when go could not measure the benchmarks. */
#define GO_GUESS_N 1000

/* func BenchmarkX( in text: a case of p each. */
static void scan_text(struct init_prog *p, const char *text)
{
	regex_t re;
	regmatch_t m[2];
	const char *s = text;

	if (!text || regcomp(&re, "^func (Benchmark[A-Za-z0-9_]*)\\(",
			     REG_EXTENDED | REG_NEWLINE))
		return;
	while (regexec(&re, s, 2, m, s == text ? 0 : REG_NOTBOL) == 0) {
		init_case_add(p, s + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
		s += m[0].rm_eo;
	}
	regfree(&re);
}

/* The package in top/sub ("" the top): its benchmarks, or NULL. */
static struct init_prog *scan_dir(const char *top, const char *sub)
{
	char *dir = xasprintf("%s%s", top, sub), *path, *text;
	DIR *d = opendir(dir);
	struct dirent *e;
	struct init_prog *p = xcalloc(1, sizeof(*p));
	size_t len, tl;

	while (d && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (len <= 8 || strcmp(e->d_name + len - 8, "_test.go"))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		text = NULL;
		if (file_read(&text, &tl, path, (size_t)4 << 20) == 0)
			scan_text(p, text);
		free(text);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	if (!p->n) {
		free(p->c);
		free(p);
		return NULL;
	}
	p->dir = *sub ? xasprintf("./%.*s", (int)strlen(sub) - 1, sub) :
		 xstrdup(".");
	p->overhead = NAN;
	p->extra = 1;	/* go runs b.N = 1 before b.N = N */
	return p;
}

/* p's test binary, built into bin (go test -c), run in its package's
   directory with benchtime: its stdout, or NULL with *why said. */
static char *run_bin(const struct init_prog *p, const char *top,
		     const char *bin, const char *benchtime, double *wall,
		     char **why)
{
	char a1[] = "-test.run=^$", a2[] = "-test.bench=.",
	     a4[] = "-test.count=1";
	char *bt = xasprintf("-test.benchtime=%s", benchtime);
	char *argv[] = { (char *)bin, a1, a2, bt, a4, NULL };
	char *dir = xasprintf("%s%s", top, p->dir[1] ? p->dir + 2 : "");
	char *what = xasprintf("%s's test binary (-test.benchtime=%s)",
			       p->dir, benchtime);
	char *out = init_run(argv, dir, what, wall, why);

	free(bt);
	free(dir);
	free(what);
	return out;
}

/*
 * Each case's ns/op from go's output, read as gate run reads it (the
 * gotest format: the -N suffix dropped): a sub-benchmark ("BenchmarkX/
 * 48B") is a case of its own, sized on its own, in place of its
 * top-level benchmark, whose sizes may be 1000x apart. -1 with p->why
 * when the output holds no benchmark.
 */
static int parse_ns(struct init_prog *p, const char *out)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_opts o;
	struct gate_err err;
	struct init_case *c;
	size_t i, j, k, kept;

	memset(&o, 0, sizeof(o));
	o.err = &err;
	if (format_parse(&t, FORMAT_GOTEST, out, strlen(out), p->dir,
			 &o) < 0) {
		p->why = xstrdup(err.msg);
		return -1;
	}
	for (i = 0; i < t.n; i++) {
		const char *name = t.cases[i].name;

		if (!unit_is_time(t.cases[i].unit))
			continue;
		if (strchr(name, '/'))
			init_case_add(p, name, strlen(name));
		if (!(c = init_case_find(p, name, strlen(name))))
			continue;	/* not one of its source's */
		for (k = 0; k < t.cases[i].n; k++)
			if (t.cases[i].values[k] * 1e9 > c->ns)
				c->ns = t.cases[i].values[k] * 1e9;
	}
	fmt_table_release(&t);
	/* a top-level benchmark with sub-benchmarks: those are its cases */
	for (i = kept = 0; i < p->n; i++) {
		size_t len = strlen(p->c[i].name);
		int has_subs = 0;

		for (j = 0; j < p->n && !memchr(p->c[i].name, '/', len); j++)
			has_subs |= !strncmp(p->c[j].name, p->c[i].name, len) &&
				    p->c[j].name[len] == '/';
		if (has_subs)
			free(p->c[i].name);
		else
			p->c[kept++] = p->c[i];
	}
	p->n = kept;
	return 0;
}

/* Measure p once, as gate run will run it: its test binary (go test -c
   into tmp), each case's ns/op at 20 ms a case, then what a run of one
   iteration each costs beyond that (start, setup). */
static void measure(struct init_prog *p, const char *top, const char *tmp)
{
	char a0[] = "go", a1[] = "test", a2[] = "-c", a3[] = "-o";
	char *bin = xasprintf("%s/pkg.test", tmp), *what;
	char *argv[] = { a0, a1, a2, a3, bin, p->dir, NULL };
	double wall, work = 0;
	char *out;
	size_t i;

	what = xasprintf("go test -c %s", p->dir);
	out = init_run(argv, top, what, &wall, &p->why);
	free(what);
	if (!out)
		goto cleanup;
	free(out);
	out = run_bin(p, top, bin, "20ms", &wall, &p->why);
	if (!out || parse_ns(p, out) < 0) {
		free(out);
		goto cleanup;
	}
	free(out);
	for (i = 0; i < p->n; i++)
		if (!(p->c[i].ns > 0)) {
			p->why = xasprintf("its test binary printed no ns/op "
					   "for %s", p->c[i].name);
			goto cleanup;
		}
	out = run_bin(p, top, bin, "1x", &wall, &p->why);
	if (!out)
		goto cleanup;
	free(out);
	for (i = 0; i < p->n; i++)
		work += 2 * p->c[i].ns * 1e-9;
	p->overhead = wall > work ? wall - work : 0;
cleanup:
	remove(bin);
	free(bin);
}

/*
 * The run of one suite of p: its test binary (built by "build" into
 * .gate-bench/BASE.test), in its package's directory as go test runs it
 * (a subpackage through sh, its flags passed on, so gate's filter flag
 * is still appended last), fixed work, one count. argv[0..10]; the
 * strings it makes are freed by free_argv_owned.
 */
static void run_argv(const char **argv, const struct init_prog *p,
		     const char *base, const char *bench, const char *bt)
{
	size_t k = 0;

	if (p->dir[1]) {
		argv[k++] = "sh";
		argv[k++] = "-c";
		argv[k++] = xasprintf("cd %s && exec ../.gate-bench/%s.test "
				      "\"$@\"", p->dir + 2, base);
		argv[k++] = "sh";
	} else {
		argv[k++] = xasprintf("./.gate-bench/%s.test", base);
	}
	argv[k++] = "-test.run=^$";
	argv[k++] = bench;
	argv[k++] = bt;
	argv[k++] = "-test.count=1";
	argv[k] = NULL;
}

static void free_argv_owned(const char **argv)
{
	free((char *)(argv[0][0] == '.' ? argv[0] : argv[2]));
}

/* -test.bench selecting exactly the cases c[0..n) (owned). */
static char *go_bench(const struct init_case *c, size_t n)
{
	const char **names = xcalloc(n, sizeof(*names));
	char *re, *flag;
	size_t i;

	for (i = 0; i < n; i++)
		names[i] = c[i].name;
	re = format_go_pattern(names, n);
	flag = xasprintf("-test.bench=%s", re);
	free(re);
	free(names);
	return flag;
}

/* The suite(s) of p at case time t: one per group of cases within 2x of
   each other's cost. */
static void propose(struct found *f, const struct init_prog *p,
		    const char *base, double t)
{
	const char *argv[11];
	char *bench, *bt, *why, *name;
	size_t g, j, groups = 0, gi = 0;
	long idx;
	double n;
	char lo[64], hi[64];

	for (g = 0; g < p->n; g = init_group_end(p, g))
		groups++;
	for (g = 0; g < p->n; g = j) {
		j = init_group_end(p, g);
		gi++;
		n = init_iterations(t, p->c[j - 1].ns);
		bench = groups == 1 ? xstrdup("-test.bench=.") :
			go_bench(p->c + g, j - g);
		bt = xasprintf("-test.benchtime=%.0fx", n);
		run_argv(argv, p, base, bench, bt);
		/* "3.73 us/op", never "3.73e+03 ns/op" */
		format_value(p->c[g].ns * 1e-9, "s/op", lo, sizeof(lo));
		format_value(p->c[j - 1].ns * 1e-9, "s/op", hi, sizeof(hi));
		if (j - g == 1)
			why = xasprintf("go package %s: %s, %s (measured), "
					"%.0f iterations: %.0f ms", p->dir,
					p->c[g].name, lo, n,
					n * p->c[g].ns * 1e-6);
		else
			why = xasprintf("go package %s: %zu cases of %s to %s "
					"(measured), %.0f iterations each: %.0f "
					"to %.0f ms a case", p->dir, j - g, lo,
					hi, n, n * p->c[g].ns * 1e-6,
					n * p->c[j - 1].ns * 1e-6);
		name = groups == 1 ? xstrdup(base) :
		       xasprintf("%s-%zu", base, gi);
		idx = init_add_as(f, name, name, 0, argv, why);
		if (idx >= 0)
			f->format[idx] = "gotest";
		free(name);
		free(bench);
		free(bt);
		free_argv_owned(argv);
	}
}

/* A package go could not measure: one suite, a guessed N, and why. */
static void propose_guess(struct found *f, const struct init_prog *p,
			  const char *base)
{
	char *bt = xasprintf("-test.benchtime=%dx", GO_GUESS_N);
	const char *argv[11];
	long idx;

	run_argv(argv, p, base, "-test.bench=.", bt);
	idx = init_add_as(f, base, base, 0, argv,
			  xasprintf("go package %s, %zu case%s; not measured "
				    "(%s): %d iterations is a guess, size "
				    "-benchtime so that each case takes "
				    "50-100 ms", p->dir, p->n,
				    p->n == 1 ? "" : "s", p->why,
				    GO_GUESS_N));
	if (idx >= 0)
		f->format[idx] = "gotest";
	free(bt);
	free_argv_owned(argv);
}

/* The suite's name for p: the module's last element for the top. */
static char *pkg_name(const struct init_prog *p, const char *module)
{
	const char *slash;

	if (strcmp(p->dir, "."))
		return xstrdup(p->dir + 2);
	slash = module ? strrchr(module, '/') : NULL;
	return xstrdup(slash ? slash + 1 : module && *module ? module : "go");
}

/* "module example.com/x" in go.mod's text: its path (owned), or NULL. */
static char *module_path(const char *gomod)
{
	const char *m = gomod ? strstr(gomod, "module") : NULL;
	size_t len;

	if (!m)
		return NULL;
	m += 6;
	m += strspn(m, " \t\"");
	len = strcspn(m, " \t\r\n\"");
	return len ? xstrndup(m, len) : NULL;
}

/*
 * "build" also builds p's test binary, run by its suites. -trimpath keeps
 * the checkout's path out of the binary, so both arms build the same
 * bytes from the same code and the binaries are the artifacts: a change
 * to docs alone passes unmeasured (the identical-build shortcut).
 */
static void add_build(struct found *f, const struct init_prog *p,
		      const char *base)
{
	char *b = xasprintf("%s && go test -trimpath -c -o .gate-bench/%s.test "
			    "%s", f->build, base, p->dir);

	free(f->build_owned);
	f->build = f->build_owned = b;
	f->artifacts[0] = ".gate-bench/*.test";
	f->nartifacts = 1;
}

/*
 * The files whose change the test binaries capture, or that no benchmark
 * reads: Go's sources and module files, and the docs that exist. A
 * change elsewhere (testdata/, a file a benchmark opens) is measured.
 */
static void add_sources(struct found *f, const char *top)
{
	f->nsources = 0;
	f->sources[f->nsources++] = "*.go";
	f->sources[f->nsources++] = "go.mod";
	if (init_exists(top, "go.sum"))
		f->sources[f->nsources++] = "go.sum";
	init_add_docs(f, top);
}

void init_scan_go(struct found *f, const char *top, const char *gomod)
{
	struct init_prog *pk[MAX_BENCH];
	size_t np = 0, i;
	char *module = module_path(gomod), *sub, *name, *gm;
	DIR *d;
	struct dirent *e;
	double t, per;
	char tmpl[] = "/tmp/gate-init-go-XXXXXX", *tmp;

	if ((pk[np] = scan_dir(top, "")))
		np++;
	d = opendir(top);
	while (d && np < MAX_BENCH && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '.') ||
		    !strcmp(e->d_name, "vendor") ||
		    !strcmp(e->d_name, "testdata"))
			continue;
		sub = xasprintf("%s/", e->d_name);
		gm = xasprintf("%sgo.mod", sub);
		/* a module of its own is not this module's package: go
		   test -c from the top refuses it */
		if (init_exists(top, gm))
			init_skip(f, xasprintf("%s: a Go module of its own (its "
					       "go.mod): run gate init there",
					       e->d_name));
		else if ((pk[np] = scan_dir(top, sub)))
			np++;
		free(gm);
		free(sub);
	}
	if (d)
		closedir(d);
	tmp = mkdtemp(tmpl);
	for (i = 0; i < np; i++) {
		if (!tmp)
			pk[i]->why = xasprintf("cannot make a directory in "
					       "/tmp for its test binary");
		else
			measure(pk[i], top, tmp);
		init_prog_sort(pk[i]);
	}
	if (tmp)
		rmdir(tmp);
	/* fit the first look into its share of the budget */
	t = init_fit(pk, np, &per);
	for (i = 0; i < np; i++) {
		name = pkg_name(pk[i], module);
		add_build(f, pk[i], name);
		if (pk[i]->why)
			propose_guess(f, pk[i], name);
		else
			propose(f, pk[i], name, t);
		free(name);
	}
	if (np)
		add_sources(f, top);
	f->pair_seconds += per;
	for (i = 0; i < np; i++) {
		f->unmeasured += pk[i]->why != NULL;
		init_prog_free(pk[i]);
	}
	free(module);
}
