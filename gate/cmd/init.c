/*
 * gate init: look at the repository it runs in (make, cmake, meson, cargo,
 * go, npm) and its benchmark targets, and write a starter gate.json that
 * gate run accepts as it is; README.md's "gate init" says what to edit.
 */
#include "gate/cmd.h"

#include <dirent.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/options.h"
#include "common/file.h"
#include "gate/config.h"
#include "git/repo.h"
#include "common/banned.h"

const char cmd_init_usage[] =
	"usage: gate [-C DIR] init [--force] [--stdout]\n"
	"\n"
	"Write a starter gate.json at the top of the repository, from its\n"
	"build system (make, cmake, meson, cargo, go, npm) and the benchmark\n"
	"targets found in it. Edit it before relying on it (README.md).\n"
	"\n"
	"  --force   overwrite an existing gate.json\n"
	"  --stdout  print it instead of writing it\n";

#define MAX_BENCH 16

struct found {
	const char *system;	/* "make", ... or NULL */
	const char *build;
	char *names[MAX_BENCH];
	char **runs[MAX_BENCH];	/* argv, NULL-terminated, owned */
	int parity[MAX_BENCH];
	size_t n;
};

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

static int exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s%s", dir, name);
	struct stat st;
	int ok = stat(path, &st) == 0;

	free(path);
	return ok;
}

/* Add a benchmark running argv (a NULL-terminated list of literals; a
 * "%s" in one is replaced by name), unless already there. */
static void add(struct found *f, const char *name, int parity,
		const char *const *argv)
{
	size_t i, k;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name))
			return;
	if (f->n == MAX_BENCH)
		return;
	for (k = 0; argv[k]; k++)
		;
	f->names[f->n] = xstrdup(name);
	f->runs[f->n] = xcalloc(k + 1, sizeof(char *));
	for (i = 0; i < k; i++) {
		const char *slot = strstr(argv[i], "%s");

		f->runs[f->n][i] = slot ? xasprintf("%.*s%s%s",
			(int)(slot - argv[i]), argv[i], name, slot + 2) :
			xstrdup(argv[i]);
	}
	f->parity[f->n] = parity;
	f->n++;
}

/* Every first capture group of pattern (extended regex) in text. */
static void scan(struct found *f, const char *text, const char *pattern,
		 int parity, const char *const *argv)
{
	regex_t re;
	regmatch_t m[2];
	const char *p = text;
	char *name;

	if (!text || regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE))
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

/* Go benchmarks: func BenchmarkX in *_test.go at the top and one below. */
static void scan_go(struct found *f, const char *top, const char *sub)
{
	static const char *const argv[] = { "go", "test", "-run=^$",
		"-bench=^%s$", "-count=1", "./...", NULL };
	char *dir = xasprintf("%s%s", top, sub);
	DIR *d = opendir(dir);
	struct dirent *e;
	char *text, *rel, *pat;
	size_t len;

	while (d && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vendor"))
			continue;
		rel = xasprintf("%s%s", sub, e->d_name);
		if (!*sub && !strchr(e->d_name, '.')) {
			pat = xasprintf("%s/", rel);
			scan_go(f, top, pat);
			free(pat);
		} else if (len > 8 && !strcmp(e->d_name + len - 8,
					     "_test.go")) {
			text = slurp(top, rel);
			scan(f, text, "^func (Benchmark[A-Za-z0-9_]*)\\(", 0,
			     argv);
			free(text);
		}
		free(rel);
	}
	if (d)
		closedir(d);
	free(dir);
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

static void detect(struct found *f, const char *top)
{
	static const char *const make_run[] = { "make", "-s", "%s", NULL };
	static const char *const cmake_run[] = { "./build/%s", NULL };
	static const char *const meson_run[] = { "meson", "test", "-C",
		"build", "--benchmark", "--no-rebuild", "-q", "%s", NULL };
	static const char *const cargo_run[] = { "cargo", "bench", "-q",
		"--bench", "%s", NULL };
	static const char *const npm_run[] = { "npm", "run", "--silent", "%s",
		NULL };
	const char *mk = exists(top, "GNUmakefile") ? "GNUmakefile" :
			 exists(top, "makefile") ? "makefile" : "Makefile";
	char *text;

	if ((text = slurp(top, "CMakeLists.txt"))) {
		f->system = "cmake";
		f->build = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && "
			   "cmake --build build -j2";
		scan(f, text, "add_executable\\([[:space:]]*([A-Za-z0-9_-]*"
		     "bench[A-Za-z0-9_-]*)", 1, cmake_run);
		free(text);
	} else if ((text = slurp(top, "meson.build"))) {
		f->system = "meson";
		f->build = "test -d build || meson setup build --buildtype="
			   "release; meson compile -C build";
		scan(f, text, "benchmark\\([[:space:]]*'([^']+)'", 0,
		     meson_run);
		free(text);
	} else if ((text = slurp(top, "Cargo.toml"))) {
		f->system = "cargo";
		f->build = "cargo build --release --benches";
		scan(f, text, "\\[\\[bench\\]\\][[:space:]]*name[[:space:]]*="
		     "[[:space:]]*\"([^\"]+)\"", 0, cargo_run);
		scan_files(f, top, "benches", ".rs", cargo_run);
		free(text);
	} else if ((text = slurp(top, "go.mod"))) {
		f->system = "go";
		f->build = "go build ./...";
		scan_go(f, top, "");
		free(text);
	} else if ((text = slurp(top, "package.json"))) {
		f->system = "npm";
		f->build = exists(top, "package-lock.json") ? "npm ci" :
			   "npm install";
		scripts_only(text);
		scan(f, text, "\"([A-Za-z0-9:_-]*bench[A-Za-z0-9:_-]*)\""
		     "[[:space:]]*:", 0, npm_run);
		free(text);
	} else if ((text = slurp(top, mk))) {
		f->system = "make";
		f->build = "make -j2";
		scan(f, text, "^([A-Za-z0-9_./-]*bench[A-Za-z0-9_./-]*)[[:space:]]*:([^=]|$)",
		     1, make_run);
		free(text);
	}
}

static char *render(const struct found *f)
{
	cJSON *root = cJSON_CreateObject(), *d, *list, *b, *argv;
	char *text;
	size_t i, k;

	cJSON_AddNumberToObject(root, "version", CONFIG_VERSION);
	if (f->build)
		cJSON_AddStringToObject(root, "build", f->build);
	d = cJSON_AddObjectToObject(root, "defaults");
	cJSON_AddNumberToObject(d, "pairs", CONFIG_DEFAULT_PAIRS);
	cJSON_AddNumberToObject(d, "warmup", CONFIG_DEFAULT_WARMUP);
	cJSON_AddNumberToObject(d, "min_effect", CONFIG_DEFAULT_MIN_EFFECT);
	cJSON_AddNumberToObject(d, "timeout", CONFIG_DEFAULT_TIMEOUT);
	list = cJSON_AddArrayToObject(root, "benchmarks");
	for (i = 0; i < f->n; i++) {
		b = cJSON_CreateObject();
		cJSON_AddStringToObject(b, "name", f->names[i]);
		argv = cJSON_AddArrayToObject(b, "run");
		for (k = 0; f->runs[i][k]; k++)
			cJSON_AddItemToArray(argv,
					     cJSON_CreateString(f->runs[i][k]));
		/* tools that print their own timings never repeat stdout */
		if (!f->parity[i])
			cJSON_AddFalseToObject(b, "parity");
		cJSON_AddItemToArray(list, b);
	}
	if (!f->n) {
		b = cJSON_CreateObject();
		cJSON_AddStringToObject(b, "name", "example");
		argv = cJSON_AddArrayToObject(b, "run");
		cJSON_AddItemToArray(argv, cJSON_CreateString(
				     "./path/to/your-benchmark"));
		cJSON_AddItemToArray(list, b);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

static void found_release(struct found *f)
{
	size_t i, k;

	for (i = 0; i < f->n; i++) {
		for (k = 0; f->runs[i][k]; k++)
			free(f->runs[i][k]);
		free(f->runs[i]);
		free(f->names[i]);
	}
	f->n = 0;
}

int cmd_init(int argc, char **argv, struct gate_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "stdout", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct found f;
	struct config cfg;
	const char *top;
	char *text = NULL, *path = NULL;
	int c, force = 0, to_stdout = 0, code = EXIT_ERROR;
	FILE *out = NULL;
	size_t i;

	memset(&f, 0, sizeof(f));
	options_getopt_reset();
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': force = 1; break;
		case 'p': to_stdout = 1; break;
		case 'h':
			fputs(cmd_init_usage, stdout);
			return EXIT_PASS;
		default:
			error("unknown option \"%s\"", argv[optind - 1]);
			fputs(cmd_init_usage, stderr);
			return EXIT_ERROR;
		}
	}
	if (optind < argc) {
		error("unexpected argument \"%s\"", argv[optind]);
		fputs(cmd_init_usage, stderr);
		return EXIT_ERROR;
	}
	if ((c = gate_ctx_ready(ctx)) != 0)
		return c > 0 ? EXIT_PASS : EXIT_ERROR;
	top = repo_workdir(ctx->repo);
	path = xasprintf("%sgate.json", top);
	if (!to_stdout && !force && exists(top, "gate.json")) {
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
	if (to_stdout) {
		printf("%s\n", text);
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
	printf("  build system: %s\n", f.system ? f.system :
	       "none recognised (set \"build\" yourself, or remove it)");
	if (f.n)
		for (i = 0; i < f.n; i++)
			printf("  benchmark: %s\n", f.names[i]);
	else
		printf("  no benchmark targets found: replace the "
		       "\"example\" benchmark's \"run\" with yours\n");
	printf("next: check \"build\" and each \"run\" (see README.md, "
	       "\"gate init\"), commit gate.json, then: gate run\n");
	code = EXIT_PASS;
cleanup:
	found_release(&f);
	cJSON_free(text);
	free(path);
	return code;
}
