/*
 * gate init: look at the repository it runs in (make, cmake, meson, cargo,
 * go, npm, python) and its benchmark targets, and write a starter gate.json that
 * gate run accepts as it is; README.md's "gate init" says what to edit.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/init.h"

#include <dirent.h>
#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/config/options.h"
#include "common/file.h"
#include "gate/config/config.h"
#include "gate/config/config-internal.h"
#include "gate/exec/runner.h"
#include "git/repo.h"
#include "common/banned.h"


void init_skip(struct found *f, char *why)
{
	if (f->nskipped < sizeof(f->skipped) / sizeof(f->skipped[0]))
		f->skipped[f->nskipped++] = why;
	else
		free(why);
}

/*
 * A benchmark name gate.json accepts for target: '/' and anything not
 * printable ASCII become '-', and it is cut to NAME_MAX_LEN characters
 * (config_keys_name's rules). The target itself stays in "run".
 */
static char *valid_name(const char *target)
{
	size_t n = strlen(target), i;
	char *name;

	if (n > NAME_MAX_LEN)
		n = NAME_MAX_LEN;
	name = xstrndup(target, n);
	for (i = 0; name[i]; i++)
		if (name[i] == '/' || (unsigned char)name[i] < 0x20 ||
		    (unsigned char)name[i] > 0x7e)
			name[i] = '-';
	if (!strcmp(name, ".") || !strcmp(name, "..")) {
		free(name);
		name = xstrdup("bench");
	}
	return name;
}

/* dir/name's text (at most 4 MiB), or NULL when it is not there */
static char *slurp(const char *dir, const char *name)
{
	char *path = xasprintf("%s%s", dir, name), *buf = NULL;
	size_t len;

	if (access(path, R_OK) != 0 || file_read(&buf, &len, path,
						   (size_t)4 << 20) < 0)
		buf = NULL;
	free(path);
	return buf;
}

int init_dir_skipped(const char *name, const char *const *names)
{
	size_t i;

	if (name[0] == '.')
		return 1;
	for (i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

int init_exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s%s", dir, name);
	struct stat st;
	int ok = stat(path, &st) == 0;

	free(path);
	return ok;
}

int init_exists_glob(const char *dir, const char *pattern)
{
	char *pat = xasprintf("%s%s", dir, pattern);
	glob_t g;
	int found = glob(pat, 0, NULL, &g) == 0;

	globfree(&g);
	free(pat);
	return found;
}

char *init_run(char **argv, const char *dir, const char *what,
	       double *wall, char **why)
{
	struct command cmd = { argv, NULL };
	struct run_spec spec;
	struct run_result res;
	char buf[128], *c;

	spec = (struct run_spec){ .cmd = &cmd, .cwd = dir, .timeout = 300,
				  .grace = 1, .log_fd = -1,
				  .capture = (size_t)1 << 20 };
	run_one(&res, &spec);
	*wall = res.wall;
	if (res.status != RUN_OK) {
		*why = xasprintf("%s %s%s%.200s", what,
				 run_describe(&res, buf, sizeof(buf)),
				 res.err_tail[0] ? ": " : "", res.err_tail);
		for (c = *why; *c; c++)
			if (*c == '\n')
				*c = ' ';
		while (c > *why && c[-1] == ' ')
			*--c = '\0';
		free(res.out);
		return NULL;
	}
	return res.out ? res.out : xstrdup("");
}

const char *init_keep(struct found *f, char *s)
{
	if (f->nowned == sizeof(f->owned) / sizeof(f->owned[0])) {
		free(s);
		return NULL;
	}
	return f->owned[f->nowned++] = s;
}

void init_drop(struct found *f, size_t i)
{
	size_t k, rest = f->n - i - 1;

	for (k = 0; f->runs[i][k]; k++)
		free(f->runs[i][k]);
	free(f->runs[i]);
	free(f->names[i]);
	free(f->why[i]);
	memmove(&f->names[i], &f->names[i + 1], rest * sizeof(f->names[0]));
	memmove(&f->runs[i], &f->runs[i + 1], rest * sizeof(f->runs[0]));
	memmove(&f->parity[i], &f->parity[i + 1], rest * sizeof(f->parity[0]));
	memmove(&f->format[i], &f->format[i + 1], rest * sizeof(f->format[0]));
	memmove(&f->why[i], &f->why[i + 1], rest * sizeof(f->why[0]));
	f->n--;
}

void init_add_docs(struct found *f, const char *top)
{
	static const char *const docs[][2] = {
		{ "*.md", "*.md" }, { "*.rst", "*.rst" }, { "docs", "docs/" },
	};
	size_t i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		if (init_exists_glob(top, docs[i][0]) &&
		    f->nsources < sizeof(f->sources) / sizeof(f->sources[0]))
			f->sources[f->nsources++] = docs[i][1];
}

/* Whether a file name ending in ext is at most depth levels below dir
   (hidden directories and build/ passed over). */
static int has_ext(const char *dir, const char *ext, int depth)
{
	static const char *const skip[] = { "build", "node_modules", NULL };
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	size_t len, el = strlen(ext);
	char *path;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > el && !strcmp(e->d_name + len - el, ext)) {
			found = 1;
			break;
		}
		if (depth <= 0 || init_dir_skipped(e->d_name, skip))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			found = has_ext(path, ext, depth - 1);
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * A C or C++ build (make, cmake) whose benchmarks all run programs it
 * makes: those programs are the artifacts, and the build's inputs (its
 * C and C++ sources and headers, wherever they are: "*" matches '/' in
 * gate.json, and its build files) and the docs the sources, so a change
 * that leaves every program byte-identical passes unmeasured. Not when
 * the build makes a shared library (shared: why, or NULL) a program may
 * load, which no artifact covers: then the docs alone.
 */
static void c_sources(struct found *f, const char *top, const char *shared)
{
	static const char *const exts[][2] = {
		{ ".c", "*.c" }, { ".h", "*.h" }, { ".cc", "*.cc" },
		{ ".cpp", "*.cpp" }, { ".cxx", "*.cxx" }, { ".hh", "*.hh" },
		{ ".hpp", "*.hpp" }, { ".hxx", "*.hxx" }, { ".inc", "*.inc" },
	};
	static const char *const files[] = { "CMakeLists.txt", "Makefile",
		"GNUmakefile", "makefile", "configure.ac", "Makefile.am",
		"Makefile.in" };
	size_t i, k;
	const char *kept;

	if (!f->n)
		return;
	for (i = 0; i < f->n; i++)
		if (f->runs[i][0][0] != '.' || f->runs[i][0][1] != '/')
			return;	/* a make target or a script: not a program */
	if (!f->nartifacts)
		for (i = 0; i < f->n; i++) {
			for (k = 0; k < f->nartifacts; k++)
				if (!strcmp(f->artifacts[k], f->runs[i][0] + 2))
					break;
			if (k == f->nartifacts &&
			    (kept = init_keep(f, xstrdup(f->runs[i][0] + 2))))
				f->artifacts[f->nartifacts++] = kept;
		}
	f->nsources = 0;
	if (shared) {
		init_skip(f, xasprintf("the C and C++ files as \"sources\": "
				       "%s, which a program may load and no "
				       "artifact covers", shared));
	} else {
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			if (init_exists(top, files[i]))
				f->sources[f->nsources++] = files[i];
		for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
			if (f->nsources + 3 < sizeof(f->sources) /
			    sizeof(f->sources[0]) && has_ext(top, exts[i][0], 6))
				f->sources[f->nsources++] = exts[i][1];
	}
	init_add_docs(f, top);
}

/* Why a CMake project builds shared libraries, or NULL. */
static const char *cmake_shared(const char *text)
{
	regex_t re;
	int hit = 0;

	if (!regcomp(&re, "add_library\\([^)]*[[:space:]](SHARED|MODULE)"
		     "([[:space:]]|\\))|BUILD_SHARED_LIBS", REG_EXTENDED |
		     REG_ICASE | REG_NOSUB)) {
		hit = regexec(&re, text, 0, NULL, 0) == 0;
		regfree(&re);
	}
	return hit ? "CMakeLists.txt builds a shared library" : NULL;
}

/* argv (NULL-terminated literals, "%s" replaced by target) as gate.json's
   run: a NULL-terminated, owned array. */
static char **expand_run(const char *const *argv, const char *target)
{
	size_t i, k;
	char **run;

	for (k = 0; argv[k]; k++)
		;
	run = xcalloc(k + 1, sizeof(char *));
	for (i = 0; i < k; i++) {
		const char *slot = strstr(argv[i], "%s");

		run[i] = slot ? xasprintf("%.*s%s%s", (int)(slot - argv[i]),
					  argv[i], target, slot + 2) :
			xstrdup(argv[i]);
	}
	return run;
}

static int same_run(char *const *a, char *const *b)
{
	size_t i;

	for (i = 0; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return !a[i] && !b[i];
}

/* The benchmark called name, or -1. */
static long find_name(const struct found *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name))
			return (long)i;
	return -1;
}

/* name with the first free "-2", "-3", ... suffix, still a valid name
   (at most NAME_MAX_LEN characters: name is cut to make room). */
static char *free_name(const struct found *f, const char *name)
{
	char *try = NULL, num[24];
	size_t n, len = strlen(name);
	int k;

	for (k = 2; k <= MAX_BENCH + 1; k++) {
		n = (size_t)snprintf(num, sizeof(num), "-%d", k);
		free(try);
		try = xasprintf("%.*s%s", (int)(len + n > NAME_MAX_LEN ?
						NAME_MAX_LEN - n : len),
				name, num);
		if (find_name(f, try) < 0)
			return try;
	}
	free(try);
	return NULL;	/* cannot happen: at most MAX_BENCH names */
}

/* Add a benchmark for target, running argv (a NULL-terminated list of
 * literals; a "%s" in one is replaced by target). The same benchmark
 * found twice (same name, same run) is added once; a different one whose
 * name is taken (bench/x and bench-x both become "bench-x") is kept under
 * the next free name, and its why says so. why is NULL or owned. */
long init_add_as(struct found *f, const char *called, const char *target,
		 int parity, const char *const *argv, char *why)
{
	char *name = valid_name(called), *renamed, *note, **run;
	long taken;

	run = expand_run(argv, target);
	taken = find_name(f, name);
	if (taken >= 0 && same_run(f->runs[taken], run))
		goto drop;	/* found twice: the same benchmark */
	if (f->n == MAX_BENCH) {
		init_skip(f, xasprintf("%s: more than %d benchmarks found",
				  target, MAX_BENCH));
		goto drop;
	}
	if (taken >= 0) {
		renamed = free_name(f, name);
		if (!renamed) {
			init_skip(f, xasprintf("%s: its name would be \"%s\", "
					       "taken already", target, name));
			goto drop;
		}
		note = xasprintf("%s%snamed \"%s\": \"%s\" is another "
				 "benchmark's", why ? why : "", why ? "; " : "",
				 renamed, name);
		free(why);
		why = note;
		free(name);
		name = renamed;
	}
	f->names[f->n] = name;
	f->runs[f->n] = run;
	f->parity[f->n] = parity;
	f->why[f->n] = why;
	f->format[f->n] = NULL;
	return (long)f->n++;
drop:
	strv_free(run);
	free(name);
	free(why);
	return -1;
}

void init_add_why(struct found *f, const char *target, int parity,
		    const char *const *argv, char *why)
{
	init_add_as(f, target, target, parity, argv, why);
}

static void add(struct found *f, const char *name, int parity,
		const char *const *argv)
{
	init_add_why(f, name, parity, argv, NULL);
}

/* Every first capture group of pattern (extended regex) in text; icase:
   letters in any case (CMake's command names are case-insensitive). */
static void scan(struct found *f, const char *text, const char *pattern,
		 int parity, const char *const *argv, int icase)
{
	regex_t re;
	regmatch_t m[2];
	const char *p = text;
	char *name;

	if (!text || regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE |
			     (icase ? REG_ICASE : 0)))
		return;
	while (regexec(&re, p, 2, m, p == text ? 0 : REG_NOTBOL) == 0) {
		name = xstrndup(p + m[1].rm_so, (size_t)(m[1].rm_eo -
							  m[1].rm_so));
		add(f, name, parity, argv);
		free(name);
		p += m[0].rm_eo;
	}
	regfree(&re);
}

/* Files sub/NAME.ext: a benchmark NAME each (cargo's benches/). */
static void scan_files(struct found *f, const char *top, const char *sub,
		       const char *ext, const char *const *argv)
{
	char *dir = xasprintf("%s%s", top, sub), *name;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len, el = strlen(ext);

	while (d && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > el && !strcmp(e->d_name + len - el, ext)) {
			name = xstrndup(e->d_name, len - el);
			add(f, name, 0, argv);
			free(name);
		}
	}
	if (d)
		closedir(d);
	free(dir);
}

/* Cut package.json down to its "scripts" object (a good-enough cut: the
 * first '}' after it), so dependencies named *bench* are not scripts. */
static void scripts_only(char *text)
{
	char *p = strstr(text, "\"scripts\""), *end;

	if (!p) {
		text[0] = '\0';
		return;
	}
	end = strchr(p, '}');
	if (end)
		*end = '\0';
	memmove(text, p, strlen(p) + 1);
}

/*
 * A makefile, or autoconf's configure: the build is make (after configure
 * when there is one); its *bench* targets and linked programs are read
 * from make -n when a makefile exists, else from Makefile.in or
 * Makefile.am. text is the makefile's (freed here), or NULL.
 */
static void detect_make(struct found *f, const char *top, char *text)
{
	int autoconf = init_exists(top, "configure") ||
		       init_exists(top, "configure.ac");
	int dry = text != NULL;
	char *why = NULL, *all;

	if (!text)
		text = slurp(top, "Makefile.in");
	if (!text)
		text = slurp(top, "Makefile.am");
	f->system = autoconf ? "autoconf (configure, then make)" : "make";
	f->build = !autoconf ? "make -j2" : init_exists(top, "configure") ?
		   "./configure && make -j2" :
		   "autoreconf -i && ./configure && make -j2";
	all = dry ? init_dry_run(top, NULL, &why) : NULL;
	if (text)
		init_scan_make(f, top, text, dry, all);
	if (all)
		init_scan_linked(f, all, "make -n");
	if (dry)
		init_scan_subdirs(f, top, "", 1);
	init_scan_gbench(f, top, all, NULL);
	c_sources(f, top, all && strstr(all, "-shared") ?
		  "make -n links a shared library (-shared)" : NULL);
	free(all);
	free(why);
	if (f->extra || f->sub_build) {
		f->build_owned = xasprintf("%s%s%s%s", f->build,
			f->extra ? " && make" : "",
			f->extra ? f->extra : "",
			f->sub_build ? f->sub_build : "");
		f->build = f->build_owned;
	}
	free(text);
}

static void detect(struct found *f, const char *top)
{
	static const char *const cmake_run[] = { "./build/%s", NULL };
	static const char *const meson_run[] = { "meson", "test", "-C",
		"build", "--benchmark", "--no-rebuild", "-q", "%s", NULL };
	static const char *const cargo_run[] = { "cargo", "bench", "-q",
		"--bench", "%s", NULL };
	static const char *const npm_run[] = { "npm", "run", "--silent", "%s",
		NULL };
	const char *mk = init_exists(top, "GNUmakefile") ? "GNUmakefile" :
			 init_exists(top, "makefile") ? "makefile" : "Makefile";
	char *text;

	if ((text = slurp(top, "CMakeLists.txt"))) {
		f->system = "cmake";
		f->build = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && "
			   "cmake --build build -j2";
		scan(f, text, "add_executable\\([[:space:]]*([A-Za-z0-9_-]*"
		     "bench[A-Za-z0-9_-]*)", 1, cmake_run, 1);
		init_scan_gbench(f, top, NULL, text);
		c_sources(f, top, cmake_shared(text));
		free(text);
	} else if ((text = slurp(top, "meson.build"))) {
		f->system = "meson";
		f->build = "test -d build || meson setup build --buildtype="
			   "release; meson compile -C build";
		scan(f, text, "benchmark\\([[:space:]]*'([^']+)'", 0,
		     meson_run, 0);
		free(text);
	} else if ((text = slurp(top, "Cargo.toml"))) {
		f->system = "cargo";
		f->build = "cargo build --release --benches";
		/* criterion's benches as suites; else each bench target
		   timed as a process */
		if (!init_scan_cargo(f, top, text)) {
			scan(f, text, "\\[\\[bench\\]\\][[:space:]]*name"
			     "[[:space:]]*=[[:space:]]*\"([^\"]+)\"", 0,
			     cargo_run, 0);
			scan_files(f, top, "benches", ".rs", cargo_run);
		}
		free(text);
	} else if ((text = slurp(top, "go.mod"))) {
		f->system = "go";
		f->build = "go build ./...";
		init_scan_go(f, top, text);
		free(text);
	} else if ((text = slurp(top, "package.json"))) {
		f->system = "npm";
		f->build = init_exists(top, "package-lock.json") ? "npm ci" :
			   "npm install";
		if (!init_scan_vitest(f, top, text)) {
			scripts_only(text);
			scan(f, text, "\"([A-Za-z0-9:_-]*bench[A-Za-z0-9:_-]*)"
			     "\"[[:space:]]*:", 0, npm_run, 0);
		}
		free(text);
	} else if (init_scan_jmh(f, top)) {
		/* pom.xml with JMH */
	} else if (init_scan_python(f, top)) {
		/* before make: a Makefile beside pytest benchmarks is
		   usually a shortcut to them */
	} else if ((text = slurp(top, mk)) ||
		   init_exists(top, "configure") || init_exists(top, "configure.ac")) {
		detect_make(f, top, text);
	}
}

/* s as a JSON string (quotes and escapes), appended to *out. */
static void append_string(char **out, const char *s)
{
	cJSON *str = cJSON_CreateString(s);
	char *text = str ? cJSON_PrintUnformatted(str) : NULL, *old = *out;

	*out = xasprintf("%s%s", old, text ? text : "\"\"");
	free(old);
	cJSON_free(text);
	cJSON_Delete(str);
}

static void append(char **out, const char *s)
{
	char *old = *out;

	*out = xasprintf("%s%s", old, s);
	free(old);
}

/*
 * The starter in README.md's layout: two spaces, "key": value, the
 * defaults on one line and each benchmark on one line, so that it reads
 * as the README's examples do and gate calibrate --write's edits (which
 * keep a file's layout) look like the rest.
 */
static char *render(const struct found *f)
{
	char *out = xstrdup(""), num[128];
	size_t i, k;

	snprintf(num, sizeof(num), "{\n  \"version\": %d,\n", CONFIG_VERSION);
	append(&out, num);
	if (f->build) {
		append(&out, "  \"build\": ");
		append_string(&out, f->build);
		append(&out, ",\n");
	}
	for (i = 0; i < f->nartifacts; i++) {
		append(&out, i ? ", " : "  \"artifacts\": [");
		append_string(&out, f->artifacts[i]);
		if (i + 1 == f->nartifacts)
			append(&out, "],\n");
	}
	for (i = 0; i < f->nsources; i++) {
		append(&out, i ? ", " : "  \"sources\": [");
		append_string(&out, f->sources[i]);
		if (i + 1 == f->nsources)
			append(&out, "],\n");
	}
	snprintf(num, sizeof(num), "  \"defaults\": { \"pairs\": %d, "
		 "\"warmup\": %d, \"min_effect\": %g, \"timeout\": %g },\n",
		 (int)CONFIG_DEFAULT_PAIRS, (int)CONFIG_DEFAULT_WARMUP,
		 (double)CONFIG_DEFAULT_MIN_EFFECT,
		 (double)CONFIG_DEFAULT_TIMEOUT);
	append(&out, num);
	append(&out, "  \"benchmarks\": [\n");
	for (i = 0; i < f->n; i++) {
		append(&out, "    { \"name\": ");
		append_string(&out, f->names[i]);
		append(&out, ", \"run\": [");
		for (k = 0; f->runs[i][k]; k++) {
			if (k)
				append(&out, ", ");
			append_string(&out, f->runs[i][k]);
		}
		/* tools that print their own timings never repeat stdout;
		   a suite reads them (its parity is off) */
		if (f->format[i]) {
			append(&out, "], \"format\": ");
			append_string(&out, f->format[i]);
			append(&out, " }");
		} else {
			append(&out, f->parity[i] ? "] }" :
			       "], \"parity\": false }");
		}
		append(&out, i + 1 < f->n ? ",\n" : "\n");
	}
	if (!f->n)
		append(&out, "    { \"name\": \"example\", \"run\": "
		       "[\"./path/to/your-benchmark\"] }\n");
	append(&out, "  ]\n}");
	return out;
}

static void found_release(struct found *f)
{
	size_t i, k;

	for (i = 0; i < f->n; i++) {
		for (k = 0; f->runs[i][k]; k++)
			free(f->runs[i][k]);
		free(f->runs[i]);
		free(f->names[i]);
		free(f->why[i]);
	}
	for (i = 0; i < f->nskipped; i++)
		free(f->skipped[i]);
	for (i = 0; i < f->nowned; i++)
		free(f->owned[i]);
	free(f->build_owned);
	free(f->extra);
	free(f->sub_build);
	f->n = f->nskipped = 0;
}

/* What init found, why each benchmark is there, and what it left out. */
static void explain(const struct found *f, FILE *to)
{
	size_t i;

	fprintf(to, "  build system: %s\n", f->system ? f->system :
		"none recognised (set \"build\" yourself, or remove it)");
	for (i = 0; i < f->n; i++)
		fprintf(to, "  benchmark: %s%s%s\n", f->names[i],
			f->why[i] ? ": " : "", f->why[i] ? f->why[i] : "");
	if (!f->n)
		fprintf(to, "  no benchmark targets found: replace the "
			"\"example\" benchmark's \"run\" with yours\n");
	for (i = 0; i < f->nskipped; i++)
		fprintf(to, "  not proposed: %s\n", f->skipped[i]);
	if (f->pair_seconds > 0) {
		double first = f->pair_seconds * (CONFIG_DEFAULT_PAIRS +
						  CONFIG_DEFAULT_WARMUP);

		fprintf(to, "  expected: about %.1f s a pair (base and head "
			"once each), about %.0f s for the first look (%d "
			"pairs and the warm-ups)%s, %s the default budget of "
			"%.0f s%s\n", f->pair_seconds, first,
			(int)CONFIG_DEFAULT_PAIRS, f->unmeasured ?
			" for the suites measured" : "",
			first <= CONFIG_DEFAULT_BUDGET ? "within" :
			"beyond", (double)CONFIG_DEFAULT_BUDGET,
			first <= CONFIG_DEFAULT_BUDGET ? "" :
			": raise \"budget\", remove suites, or split them "
			"over a CI matrix (gate run --shard)");
	}
}

struct init_opts {
	int force, to_stdout;
};

static const struct opt init_rows[] = {
	OPT_FLAG(0, "force", struct init_opts, force,
		 "overwrite an existing gate.json"),
	OPT_FLAG(0, "stdout", struct init_opts, to_stdout,
		 "print it instead of writing it"),
};

const struct opts_cmd cmd_init_opts = {
	.name = "init",
	.repo = 1,
	.intro = "Write a starter gate.json at the top of the repository, "
		 "from its\nbuild system (make, cmake, meson, cargo, go, npm, "
		 "python) and the\nbenchmark targets found in it. Edit it "
		 "before relying on it (README.md).\n\n",
	.rows = init_rows,
	.n = sizeof(init_rows) / sizeof(init_rows[0]),
};

int cmd_init(int argc, char **argv, struct gate_ctx *ctx)
{
	struct init_opts o = { 0 };
	struct found f;
	struct config cfg;
	const char *top;
	char *text = NULL, *path = NULL;
	int c, code = EXIT_ERROR;
	FILE *out = NULL;

	memset(&f, 0, sizeof(f));
	c = options_parse(&cmd_init_opts, &o, argc, argv, NULL);
	if (c != OPTS_GO)
		return c == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if ((c = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(c);
	top = repo_workdir(ctx->repo);
	path = xasprintf("%sgate.json", top);
	if (!o.to_stdout && !o.force && init_exists(top, "gate.json")) {
		error("%s already exists: edit it, or pass --force to replace "
		      "it with a starter", path);
		goto cleanup;
	}
	detect(&f, top);
	text = render(&f);
	/* what init writes, gate run must accept as it is */
	if (!text || config_parse(&cfg, text, strlen(text), "gate init") < 0) {
		error("gate init produced an invalid gate.json: please report "
		      "this");
		goto cleanup;
	}
	config_release(&cfg);
	if (o.to_stdout) {
		printf("%s\n", text);
		explain(&f, stderr);
		code = EXIT_PASS;
		goto cleanup;
	}
	if (!(out = fopen(path, "w"))) {
		error("cannot write \"%s\":", path);
		goto cleanup;
	}
	fprintf(out, "%s\n", text);
	if (fclose(out) != 0) {
		error("cannot write \"%s\":", path);
		goto cleanup;
	}
	printf("gate: wrote %s\n", path);
	explain(&f, stdout);
	printf("next: check \"build\" and each \"run\" (see README.md, "
	       "\"gate init\"), commit gate.json, then: gate run\n");
	code = EXIT_PASS;
cleanup:
	found_release(&f);
	free(text);
	free(path);
	return code;
}
