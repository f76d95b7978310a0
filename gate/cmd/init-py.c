/*
 * gate init for a Python project with pytest-benchmark tests: a pytest
 * suite per test directory running a fixed amount of work (a fixed number
 * of rounds: --benchmark-min-rounds with a max time too short to add any),
 * each round at least 0.1 ms (--benchmark-min-time: pytest then
 * repeats a fast case within its round, instead of timing one call and
 * its own overhead), the rounds measured once here so that each case
 * takes about 100 ms, less in a suite of many cases.
 */
#include "gate/cmd/init.h"

#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/file.h"
#include "common/tree.h"
#include "gate/config/config.h"
#include "gate/exec/runner.h"
#include "common/banned.h"

/* The time a case's rounds should take together: at most, and at least
   when the suite is large (the whole suite's cases take about
   PY_SUITE_SECONDS between those bounds). */
#define PY_CASE_SECONDS 0.1
#define PY_CASE_SECONDS_MIN 0.01
#define PY_SUITE_SECONDS 2.0
/* A round's least time: a call of 100 ns timed once is mostly pytest's
   timer and loop (a sub-microsecond case read 3-4 times its time). */
#define PY_ROUND_SECONDS 0.0001
/* pytest-benchmark's own minimum rounds; and a cap on what init proposes */
#define PY_MIN_ROUNDS 5
#define PY_MAX_ROUNDS 100000
/* The rounds proposed when init could not measure. */
#define PY_GUESS_ROUNDS 50

/* A file name the proposal can write into sh -c unquoted. */
static int plain_name(const char *s)
{
	return s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_./-")] == '\0';
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of top's dir that keep(path, name, arg) keeps, as
   "dir/name" ("name" for "."), sorted: their number, *names allocated
   (NULL when none). */
static size_t listing(const char *top, const char *dir,
		      int (*keep)(const char *path, const char *name,
				  void *arg),
		      void *arg, char ***names)
{
	char *path = xasprintf("%s%s", top, dir);
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0, cap = 0;

	*names = NULL;
	while (d && (e = readdir(d))) {
		if (!keep(path, e->d_name, arg))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			*names = xrealloc(*names, cap * sizeof(**names));
		}
		(*names)[n++] = strcmp(dir, ".") ?
			xasprintf("%s/%s", dir, e->d_name) :
			xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	free(path);
	if (n)
		qsort(*names, n, sizeof(**names), by_name);
	return n;
}

/* A test file (test_*.py, *_test.py) in path whose text re matches. */
static int bench_file(const char *path, const char *name, void *re)
{
	size_t len = strlen(name);
	char *file, *text = NULL;
	int found;

	if (len < 4 || strcmp(name + len - 3, ".py") ||
	    (strncmp(name, "test_", 5) &&
	     (len < 8 || strcmp(name + len - 8, "_test.py"))))
		return 0;
	file = xasprintf("%s/%s", path, name);
	found = file_read(&text, &len, file, (size_t)4 << 20) == 0 &&
		regexec(re, text, 0, NULL, 0) == 0;
	free(text);
	free(file);
	return found;
}

/*
 * The test files of top's directory dir that use the benchmark fixture,
 * as "dir/test_x.py" (just "test_x.py" for "."), sorted, joined by spaces
 * in *files; their number (0: none, *files NULL). *plain is cleared when
 * a name could not go into a shell command as it is.
 */
static size_t bench_files(const char *top, const char *dir, char **files,
			  int *plain)
{
	char **names = NULL, *at;
	regex_t re;
	size_t len, n, i, size = 1;

	*files = NULL;
	*plain = 1;
	if (regcomp(&re, "def test_[A-Za-z0-9_]*\\([^)]*benchmark",
		    REG_EXTENDED | REG_NOSUB))
		return 0;
	n = listing(top, dir, bench_file, &re, &names);
	regfree(&re);
	for (i = 0; i < n; i++) {
		*plain &= plain_name(names[i]);	/* never starts with '-' */
		size += strlen(names[i]) + 1;
	}
	if (n) {
		at = *files = xmalloc(size);
		for (i = 0; i < n; i++) {
			len = strlen(names[i]);
			memcpy(at, names[i], len);
			at += len;
			*at++ = i + 1 < n ? ' ' : '\0';
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return n;
}

/* sh -c script in top with GATE_TMPDIR=tmp, as a sample has it: 0, or
   -1 with *why said. */
static int run_sh(const char *top, const char *tmp, const char *script,
		  double *wall, char **why)
{
	char a0[] = "sh", a1[] = "-c";
	char *full = xasprintf("GATE_TMPDIR='%s'; export GATE_TMPDIR; %s",
			       tmp, script);
	char *argv[] = { a0, a1, full, NULL };
	char *out = init_run(argv, top, "pytest", wall, why);
	int rc = out ? 0 : -1;

	free(full);
	free(out);
	return rc;
}

/* The slowest case's round (median time a round) in pytest-benchmark's
   JSON at path: seconds, or 0 when it has none; *cases its cases, *slowest
   its name (allocated, NULL when none). */
static double slowest_round(const char *path, size_t *cases, char **slowest)
{
	char *text = NULL;
	size_t len;
	cJSON *root, *e;
	double most = 0;

	if (file_read(&text, &len, path, (size_t)64 << 20) < 0)
		return 0;
	root = cJSON_Parse(text);
	free(text);
	*cases = 0;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root,
							       "benchmarks")) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "stats");
		const cJSON *med = cJSON_GetObjectItemCaseSensitive(st,
								    "median");
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(st,
								   "iterations");
		double r;

		if (!cJSON_IsNumber(med))
			continue;
		++*cases;
		r = med->valuedouble * (cJSON_IsNumber(it) &&
					it->valuedouble >= 1 ?
					it->valuedouble : 1);
		if (r > most) {
			const cJSON *name =
				cJSON_GetObjectItemCaseSensitive(e, "name");

			most = r;
			free(*slowest);
			*slowest = cJSON_IsString(name) ?
				   xstrdup(name->valuestring) : NULL;
		}
	}
	cJSON_Delete(root);
	return most;
}

/* The suite's command: a fixed number of rounds, pytest's own output on
   stderr, the JSON report on stdout. The report is written in the
   sample's $GATE_TMPDIR, not $TMPDIR: an arm that runs unsealed keeps the
   user's TMPDIR, which both arms share and which would keep the file. */
static char *suite_script(const char *dir, long rounds)
{
	return xasprintf("python3 -m pytest -q -p no:cacheprovider "
			 "--benchmark-only --benchmark-min-rounds=%ld "
			 "--benchmark-min-time=%g "
			 "--benchmark-max-time=0.000001 --benchmark-warmup=off "
			 "--benchmark-json=\"$GATE_TMPDIR/gate-pytest.json\" %s >&2 "
			 "&& cat \"$GATE_TMPDIR/gate-pytest.json\"", rounds,
			 PY_ROUND_SECONDS, dir);
}

/* pytest-benchmark's time a round for the slowest case of target (a
   directory or files) in top, its rounds as the proposal's (at least
   PY_ROUND_SECONDS; a few, since its JSON holds every round: a max time
   of 50 ms gave 300 fast cases a report of 127 MB): seconds, 0 with *why
   said when the report has no timings, or -1 (*why said) when pytest
   failed. *cases gets its cases, *slowest the slowest one's name. */
static double calibrate(const char *top, const char *tmp, const char *target,
			size_t *cases, char **slowest, char **why)
{
	char *json = xasprintf("%s/calibrate.json", tmp), *cal;
	double wall, round = -1;

	/* pytest's summary on stderr: its last lines name what failed */
	cal = xasprintf("python3 -m pytest -q -p no:cacheprovider "
			"--benchmark-only --benchmark-min-rounds=%d "
			"--benchmark-min-time=%g --benchmark-max-time=0.000001 "
			"--benchmark-warmup=off "
			"--benchmark-json='%s' %s >/dev/null 2>&1 || "
			"{ s=$?; python3 -m pytest -q -p no:cacheprovider "
			"--benchmark-only --co %s 2>&1 | grep -E "
			"'^(ERROR|[0-9]+ tests? collected|no tests ran)' >&2; "
			"exit $s; }", PY_MIN_ROUNDS, PY_ROUND_SECONDS, json,
			target, target);
	if (run_sh(top, tmp, cal, &wall, why) == 0) {
		round = slowest_round(json, cases, slowest);
		if (round <= 0 && !*why)
			*why = xstrdup("its JSON report had no timings");
	}
	remove(json);
	free(json);
	free(cal);
	return round;
}

/*
 * Propose the suite for the test directory dir (relative, "." the top)
 * whose files with benchmarks are files. The directory as a whole, so
 * that a benchmark file added later is run too; its files with benchmarks
 * alone when the whole does not run (a test module that no longer imports
 * stops pytest's collection, exit 2), and the proposal says so.
 */
static void propose(struct found *f, const char *top, const char *dir,
		    const char *files, int plain, const char *tmp)
{
	char *script = NULL, *why = NULL, *whole = NULL, *said;
	char *slowest = NULL;
	const char *argv[4] = { "sh", "-c", NULL, NULL };
	const char *target = dir;
	double wall = 0, round, each = PY_CASE_SECONDS;
	long rounds = PY_GUESS_ROUNDS, idx;
	size_t cases = 0;
	const char *name = strcmp(dir, ".") ? dir : "pytest";

	round = calibrate(top, tmp, dir, &cases, &slowest, &why);
	if (round < 0 && plain) {
		whole = why;
		why = NULL;
		round = calibrate(top, tmp, files, &cases, &slowest, &why);
		if (round > 0) {
			target = files;
		} else {
			free(why);
			why = whole;
			whole = NULL;
		}
	}
	if (round > 0) {
		/* a suite of many cases gives each less time */
		if (PY_SUITE_SECONDS / (double)cases < each)
			each = PY_SUITE_SECONDS / (double)cases;
		if (each < PY_CASE_SECONDS_MIN)
			each = PY_CASE_SECONDS_MIN;
		if (round < PY_ROUND_SECONDS)
			round = PY_ROUND_SECONDS;
		rounds = (long)floor(each / round + 1e-9);
		if (rounds < PY_MIN_ROUNDS)
			rounds = PY_MIN_ROUNDS;
		if (rounds > PY_MAX_ROUNDS)
			rounds = PY_MAX_ROUNDS;
	}
	script = suite_script(target, rounds);
	/* once as gate run will run it: the time a sample takes */
	if (!why && run_sh(top, tmp, script, &wall, &why) == 0)
		f->pair_seconds += 2 * wall;
	argv[2] = script;
	if (why)
		said = xasprintf("pytest-benchmark tests in %s; not measured "
				 "(%s): %ld rounds is a guess, size "
				 "--benchmark-min-rounds so that the slowest "
				 "case takes about 100 ms", dir, why, rounds);
	else
		/* the slowest case named: a case that sleeps half a second
		   a call (pylint's) can be most of every sample */
		said = xasprintf("pytest-benchmark tests in %s: %ld rounds of "
				 "%s%zu case%s, a round at least %g ms "
				 "(measured: %s%s%s%s takes about %.0f ms of "
				 "a sample's %.1f s)", dir, rounds,
				 cases == 1 ? "its " : "each of its ", cases,
				 cases == 1 ? "" : "s",
				 PY_ROUND_SECONDS * 1e3,
				 cases == 1 ? "its case" : "the slowest case",
				 slowest ? ", " : "", slowest ? slowest : "",
				 slowest ? "," : "",
				 (double)rounds * round * 1e3, wall);
	if (whole) {
		char *more = xasprintf("%s; only its files with benchmarks, "
				       "%s, since %s as a whole does not run "
				       "(%s): a benchmark file added later "
				       "must be added to this command", said,
				       files, dir, whole);

		free(said);
		said = more;
	}
	idx = init_add_as(f, name, name, 0, argv, said);
	if (idx >= 0)
		f->format[idx] = "pytest";
	f->unmeasured += why != NULL;
	free(whole);
	free(why);
	free(slowest);
	free(script);
}

/*
 * The code a pytest suite runs is the Python files themselves: they are
 * its "artifacts", so a change that leaves every one of them byte-identical
 * and touches only the docs ("sources", those that exist: a pattern that
 * matches nothing is an error in gate.json) passes unmeasured. A change
 * to any other file (data, configuration) is measured.
 */
static void python_artifacts(struct found *f, const char *top)
{
	/* artifacts are globs without '**': the Python files 4 levels deep,
	   each level that has any (a pattern matching nothing is an error) */
	static const char *const levels[] = { "*.py", "*/*.py", "*/*/*.py",
					      "*/*/*/*.py" };
	size_t i;

	f->nartifacts = 0;
	for (i = 0; i < 4; i++)
		if (init_exists_glob(top, levels[i]))
			f->artifacts[f->nartifacts++] = levels[i];
	f->nsources = 0;
	init_add_docs(f, top);
}

/* How far init looks for test files with benchmarks: directories below
   the top (tests/benchmark is 2), and directories in all (a large tree
   is not read to its end). */
#define PY_WALK_DEPTH 4
#define PY_WALK_DIRS 4000

/* A directory that holds no project's tests: hidden ones (.git, .tox,
   .venv), installed packages, build output. */
static int skip_dir(const char *name)
{
	static const char *const skip[] = { "node_modules", "__pycache__",
		"site-packages", "venv", "build", "dist", NULL };

	return init_dir_skipped(name, skip);
}

/* A subdirectory of path worth a look: not skipped, not a symlink. */
static int walked_dir(const char *path, const char *name, void *arg)
{
	struct stat st;
	char *full;
	int is_dir;

	(void)arg;
	if (skip_dir(name))
		return 0;
	full = xasprintf("%s/%s", path, name);
	is_dir = lstat(full, &st) == 0 && S_ISDIR(st.st_mode);
	free(full);
	return is_dir;
}

/* A walk for test files with benchmarks: where, what is left of its
   directories, whether it was cut, what it found too deep. */
struct walk {
	struct found *f;
	const char *top;
	size_t left;		/* directories it may still read */
	int cut;		/* 1: a directory was not read for left */
	char *deeper;		/* a directory with benchmarks one level too
				   deep, or NULL (owned) */
	char tmpl[32];		/* pytest's temporary directory ... */
	char *tmp;		/* ... once made */
};

/*
 * Propose a suite for each directory at or below dir that has test files
 * with benchmarks and no such directory above it: pytest collects what
 * lies below the directory it is given, so a directory within one
 * proposed is not proposed again (its cases would be in two suites).
 * pylint keeps its benchmarks in tests/benchmark, a level below tests.
 */
static void walk(struct walk *w, const char *dir, int depth)
{
	char *files, **names;
	size_t n, i;
	int plain;

	if (!w->left) {
		w->cut = 1;
		return;
	}
	w->left--;
	if (bench_files(w->top, dir, &files, &plain)) {
		if (depth > PY_WALK_DEPTH) {
			if (!w->deeper)
				w->deeper = xstrdup(dir);
		} else {
			if (!w->tmp)
				w->tmp = mkdtemp(w->tmpl);
			if (w->tmp)
				propose(w->f, w->top, dir, files, plain,
					w->tmp);
		}
		free(files);
		return;
	}
	if (depth > PY_WALK_DEPTH)
		return;
	/* one level more is read for files alone: what the depth cuts
	   off is said */
	n = listing(w->top, dir, walked_dir, NULL, &names);
	for (i = 0; i < n; i++) {
		walk(w, names[i], depth + 1);
		free(names[i]);
	}
	free(names);
}

int init_scan_python(struct found *f, const char *top)
{
	static const char *const markers[] = { "pyproject.toml", "setup.py",
		"setup.cfg", "pytest.ini", "tox.ini", NULL };
	struct walk w = { .f = f, .top = top, .left = PY_WALK_DIRS,
			  .tmpl = "/tmp/gate-init-py-XXXXXX" };
	size_t i, n0 = f->n;
	int python = 0;

	for (i = 0; markers[i]; i++)
		python |= init_exists(top, markers[i]);
	if (!python)
		return 0;
	walk(&w, ".", 0);
	/* a limit that cut the walk is said, never silent */
	if (w.cut)
		init_skip(f, xasprintf("any pytest-benchmark tests past the "
				       "first %d directories: init stopped "
				       "looking there (a large tree is not "
				       "read to its end); add a suite for "
				       "them yourself", PY_WALK_DIRS));
	if (w.deeper)
		init_skip(f, xasprintf("the pytest-benchmark tests in %s: "
				       "more than %d levels down, deeper "
				       "than init proposes; add a suite for "
				       "them yourself", w.deeper,
				       PY_WALK_DEPTH));
	free(w.deeper);
	/* pytest leaves its report and its own temporary files there */
	if (w.tmp && tree_remove(w.tmp, NULL) < 0)
		warning("cannot remove \"%s\": remove it yourself", w.tmp);
	if (f->n == n0)
		return 0;
	f->system = "python (pytest-benchmark)";
	python_artifacts(f, top);
	return 1;
}
