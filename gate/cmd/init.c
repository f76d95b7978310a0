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
#include "gate/config-parse.h"
#include "gate/exec/runner.h"
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
	char *build_owned;	/* build with extra targets, or NULL */
	char *extra;		/* " t1 t2": targets the build must also make */
	char *sub_build;	/* " && make -C DIR PROG" for each program a
				   makefile below the top makes, or NULL */
	char *names[MAX_BENCH];
	char **runs[MAX_BENCH];	/* argv, NULL-terminated, owned */
	int parity[MAX_BENCH];
	char *why[MAX_BENCH];	/* why it was proposed, owned */
	char *skipped[4 * MAX_BENCH];	/* candidates left out, and why */
	size_t n, nskipped;
};

static void skip(struct found *f, char *why)
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

static int exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s%s", dir, name);
	struct stat st;
	int ok = stat(path, &st) == 0;

	free(path);
	return ok;
}

/* Add a benchmark for target, running argv (a NULL-terminated list of
 * literals; a "%s" in one is replaced by target), unless a benchmark of
 * that name is there already. why is NULL or owned. */
static void add_as(struct found *f, const char *called, const char *target,
		   int parity, const char *const *argv, char *why)
{
	size_t i, k;
	char *name = valid_name(called);

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name)) {
			if (strcmp(name, called) || strcmp(called, target))
				skip(f, xasprintf("%s: its name would be "
					"\"%s\", taken already", target,
					name));
			free(name);
			free(why);
			return;
		}
	if (f->n == MAX_BENCH) {
		skip(f, xasprintf("%s: more than %d benchmarks found",
				  target, MAX_BENCH));
		free(name);
		free(why);
		return;
	}
	for (k = 0; argv[k]; k++)
		;
	f->names[f->n] = name;
	f->runs[f->n] = xcalloc(k + 1, sizeof(char *));
	for (i = 0; i < k; i++) {
		const char *slot = strstr(argv[i], "%s");

		f->runs[f->n][i] = slot ? xasprintf("%.*s%s%s",
			(int)(slot - argv[i]), argv[i], target, slot + 2) :
			xstrdup(argv[i]);
	}
	f->parity[f->n] = parity;
	f->why[f->n] = why;
	f->n++;
}

static void add_why(struct found *f, const char *target, int parity,
		    const char *const *argv, char *why)
{
	add_as(f, target, target, parity, argv, why);
}

static void add(struct found *f, const char *name, int parity,
		const char *const *argv)
{
	add_why(f, name, parity, argv, NULL);
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

/* What a dry run shows that a benchmark must never do, and why. */
static const struct {
	const char *pattern;	/* extended regex, case-insensitive */
	const char *why;
} traps[] = {
	{ "(^|[^[:alnum:]_-])rm[[:space:]]+(-[[:alpha:]]*[rR]|--recursive)",
	  "deletes directories (rm -r)" },
	{ "(^|[^[:alnum:]_])(make|gmake)([[:space:]]+[^;&|\n]*)?[[:space:]]"
	  "(dist|mostly|maintainer-)?clean([[:space:]]|$)",
	  "cleans the build (make clean)" },
	{ "git[[:space:]]+(clone|fetch|pull|submodule|clean)",
	  "runs git clone, fetch, pull, submodule or clean" },
	{ "(^|[^[:alnum:]_-])(curl|wget|ssh|scp|rsync|ftp|nc)([[:space:]]|$)",
	  "fetches over the network (curl, wget, ssh)" },
	{ "(^|[^[:alnum:]_-])(pip[0-9.]*|npm|yarn|pnpm|gem|cargo|go|apt|"
	  "apt-get|brew)[[:space:]]+(install|ci|get|add|update)",
	  "installs packages (pip, npm, go get)" },
	{ "-m[[:space:]]+pip", "installs packages (pip)" },
	{ "[[:alpha:]]+://", "names a URL (needs the network)" },
};

/* Why text (a target's commands) must not be a benchmark, or NULL. */
static const char *trap(const char *text)
{
	size_t i;
	regex_t re;
	int hit;

	for (i = 0; i < sizeof(traps) / sizeof(traps[0]); i++) {
		if (regcomp(&re, traps[i].pattern, REG_EXTENDED | REG_ICASE |
			    REG_NEWLINE | REG_NOSUB))
			continue;
		hit = regexec(&re, text, 0, NULL, 0) == 0;
		regfree(&re);
		if (hit)
			return traps[i].why;
	}
	return NULL;
}

/* Drop make's own chatter ("make[1]: Entering directory ...") so that
 * two targets with the same commands compare equal. */
static void drop_chatter(char *text)
{
	char *in = text, *out = text, *eol, *hit;
	size_t n;

	while (*in) {
		eol = strchr(in, '\n');
		n = eol ? (size_t)(eol - in) + 1 : strlen(in);
		hit = strstr(in, "ing directory");
		if (strncmp(in, "make", 4) || !hit ||
		    (size_t)(hit - in) >= n) {
			memmove(out, in, n);
			out += n;
		}
		in += n;
	}
	*out = '\0';
}

/* Whether name is a C or C++ source file. */
static int is_source(const char *name)
{
	static const char *const ext[] = { ".c", ".cc", ".cpp", ".cxx", NULL };
	size_t n = strlen(name), i, e;

	for (i = 0; ext[i]; i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(name + n - e, ext[i]))
			return 1;
	}
	return 0;
}

#define MAX_WHATIF 256

/*
 * make -n TARGET (no TARGET: the default goal) in top: the commands it
 * would run, without running them. NULL, with *why set, when make
 * cannot say. A recipe line marked '+' or naming $(MAKE) still runs
 * under -n (with -n passed on); GNU make may also remake the makefiles.
 * In a tree built already, make -n alone would show nothing to do: each
 * source file in top is passed as -W FILE ("what if it had just
 * changed"), so what it builds shows; -B would do that too, but would
 * also remake (run) a makefile's own rule.
 */
static char *dry_run(const char *top, const char *target, char **why)
{
	extern char **environ;
	char a0[] = "make", a1[] = "-n", a2[] = "--no-print-directory",
	     a3[] = "--", lc[] = "LC_ALL=C", w[] = "-W";
	char *argv[5 + 2 * MAX_WHATIF + 2], **env, *out = NULL;
	struct command cmd = { argv, NULL };
	struct run_spec spec;
	struct run_result res;
	size_t n = 0, i, k = 0, na = 0, nw = 0;
	char buf[128], *names[MAX_WHATIF];
	DIR *d = opendir(top);
	struct dirent *e;

	while (d && nw < MAX_WHATIF && (e = readdir(d)))
		if (e->d_name[0] != '.' && is_source(e->d_name))
			names[nw++] = xstrdup(e->d_name);
	if (d)
		closedir(d);
	argv[na++] = a0;
	argv[na++] = a1;
	argv[na++] = a2;
	for (i = 0; i < nw; i++) {
		argv[na++] = w;
		argv[na++] = names[i];
	}
	if (target) {
		argv[na++] = a3;
		argv[na++] = (char *)target;
	}
	argv[na] = NULL;
	while (environ[n])
		n++;
	env = xcalloc(n + 2, sizeof(char *));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "MAKEFLAGS=", 10) &&
		    strncmp(environ[i], "MFLAGS=", 7) &&
		    strncmp(environ[i], "MAKELEVEL=", 10) &&
		    strncmp(environ[i], "LC_ALL=", 7))
			env[k++] = environ[i];
	env[k++] = lc;
	memset(&spec, 0, sizeof(spec));
	spec.cmd = &cmd;
	spec.cwd = top;
	spec.timeout = 20;
	spec.grace = 1;
	spec.log_fd = -1;
	spec.envp = env;
	spec.capture = (size_t)1 << 20;
	run_one(&res, &spec);
	free(env);
	for (i = 0; i < nw; i++)
		free(names[i]);
	if (res.status != RUN_OK) {
		free(res.out);
		*why = xasprintf("make -n %s %s%s%.200s", target ? target : "",
				 run_describe(&res, buf, sizeof(buf)),
				 res.err_tail[0] ? ": " : "", res.err_tail);
		for (i = 0; (*why)[i]; i++)
			if ((*why)[i] == '\n')
				(*why)[i] = ' ';
		return NULL;
	}
	out = res.out ? res.out : xstrdup("");
	drop_chatter(out);
	return out;
}

/* The recipe of target in a makefile's text (Makefile.in: nothing to
 * run make on before configure): the tab-led lines after "target:". */
static char *recipe(const char *text, const char *target)
{
	size_t tl = strlen(target), n;
	const char *p = text, *q, *eol;
	char *out = xstrdup("");

	while (p && *p) {
		if (!strncmp(p, target, tl) && (p[tl] == ':' || p[tl] == ' ' ||
						p[tl] == '\t')) {
			for (q = strchr(p, '\n'); q && q[1] == '\t'; q = eol) {
				eol = strchr(q + 1, '\n');
				n = eol ? (size_t)(eol - q) : strlen(q);
				out = xrealloc(out, strlen(out) + n + 1);
				strncat(out, q + 1, n);
				if (!eol)
					break;
			}
			break;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return out;
}

/* Whether commands link a program named path (a "-o path" word). */
static int links(const char *commands, const char *path)
{
	size_t n = strlen(path);
	const char *p = commands;

	while ((p = strstr(p, "-o "))) {
		p += 3;
		while (*p == ' ')
			p++;
		if (!strncmp(p, "./", 2))
			p += 2;
		if (!strncmp(p, path, n) && (!p[n] || strchr(" \t\n;", p[n])))
			return 1;
	}
	return 0;
}

/* The next program named *bench* that commands link ("-o DIR/xbench")
 * after *p, relative and inside the tree, or NULL; *p moves past it. */
static char *next_linked(const char **p)
{
	const char *e;
	char *path;
	size_t n;

	while ((*p = strstr(*p, "-o "))) {
		*p += 3;
		while (**p == ' ')
			(*p)++;
		if (!strncmp(*p, "./", 2))
			*p += 2;
		for (e = *p; *e && !strchr(" \t\n;'\"", *e); e++)
			;
		n = (size_t)(e - *p);
		path = xstrndup(*p, n);
		*p = e;
		if (!strstr(strrchr(path, '/') ? strrchr(path, '/') : path,
			    "bench") || path[0] == '/' || strstr(path, "..") ||
		    strchr(path, '$') || (n > 2 && path[n - 2] == '.') ||
		    (n > 3 && !strcmp(path + n - 3, ".so"))) {
			free(path);
			continue;
		}
		return path;
	}
	return NULL;
}

/* Programs named *bench* that commands link ("-o DIR/xbench"). */
static void scan_linked(struct found *f, const char *commands,
			const char *source)
{
	static const char *const argv[] = { "./%s", NULL };
	const char *p = commands;
	char *path;

	while ((path = next_linked(&p))) {
		add_why(f, path, 1, argv, xasprintf("the build links the "
			"program %s (%s), which gate runs directly", path,
			source));
		free(path);
	}
}

/*
 * Make targets named *bench*: each one's commands, from make -n when
 * there is a makefile (else from Makefile.in's text), must not clean,
 * fetch or touch the network; targets with the same commands are one
 * benchmark; a target that links a program of its name becomes that
 * program, run directly and built by the build.
 */
static void scan_make(struct found *f, const char *top, const char *text,
		      int dry, const char *all)
{
	static const char *const make_run[] = { "make", "-s", "%s", NULL };
	static const char *const prog_run[] = { "./%s", NULL };
	regex_t re;
	regmatch_t m[2];
	const char *p = text;
	char *targets[4 * MAX_BENCH], *seen[4 * MAX_BENCH], *cmds, *why;
	size_t nt = 0, i, j;
	const char *bad;
	char *clean = NULL, *none = NULL;

	/* what "make clean" would run, to spot it as a prerequisite */
	if (dry && (clean = dry_run(top, "clean", &none)) &&
	    strlen(clean) < 4) {
		free(clean);
		clean = NULL;
	}
	free(none);
	if (!text || regcomp(&re, "^([A-Za-z0-9_./+-]*bench[A-Za-z0-9_./+-]*)"
			     "[[:space:]]*:([^=]|$)", REG_EXTENDED | REG_NEWLINE))
		return;
	while (nt < sizeof(targets) / sizeof(targets[0]) &&
	       regexec(&re, p, 2, m, p == text ? 0 : REG_NOTBOL) == 0) {
		targets[nt] = xstrndup(p + m[1].rm_so,
				       (size_t)(m[1].rm_eo - m[1].rm_so));
		for (j = 0; j < nt && strcmp(targets[j], targets[nt]); j++)
			;
		if (j < nt)
			free(targets[nt]);
		else
			nt++;
		p += m[0].rm_eo;
	}
	regfree(&re);
	for (i = 0; i < nt; i++) {
		why = NULL;
		cmds = dry ? dry_run(top, targets[i], &why) :
			     recipe(text, targets[i]);
		seen[i] = cmds;
		if (!cmds) {
			skip(f, xasprintf("%s: cannot inspect it (%s)",
					  targets[i], why));
			free(why);
			continue;
		}
		if (clean && strstr(cmds, clean))
			bad = "cleans the build (runs make clean's commands)";
		else
			bad = trap(cmds);
		if (bad) {
			skip(f, xasprintf("%s: %s (%s)", targets[i], bad,
					  dry ? "make -n" : "its recipe"));
			continue;
		}
		for (j = 0; j < i; j++)
			if (seen[j] && !strcmp(seen[j], cmds))
				break;
		if (j < i && cmds[0]) {
			skip(f, xasprintf("%s: the same commands as %s (an "
					  "alias)", targets[i], targets[j]));
			continue;
		}
		if (links(cmds, targets[i]) && !strstr(targets[i], "..") &&
		    targets[i][0] != '/') {
			add_why(f, targets[i], 1, prog_run, xasprintf(
				"make target %s links the program %s, which "
				"gate runs directly (the build makes it)",
				targets[i], targets[i]));
			if (all && links(all, targets[i]))
				continue;
			if (!f->extra)
				f->extra = xstrdup("");
			why = f->extra;
			f->extra = xasprintf("%s %s", why, targets[i]);
			free(why);
			continue;
		}
		add_why(f, targets[i], 0, make_run, xasprintf(
			"make target %s (%s: no cleaning, fetching or network); "
			"\"parity\": false since make may print its own "
			"lines", targets[i], dry ? "checked with make -n" :
			"its recipe checked"));
	}
	for (i = 0; i < nt; i++) {
		free(seen[i]);
		free(targets[i]);
	}
	free(clean);
}

/* Directories below the top whose makefiles are not the project's own
 * benchmarks: packaging and other people's code. */
static int foreign_dir(const char *name)
{
	static const char *const names[] = { "debian", "vendor", "third_party",
		"thirdparty", "node_modules", "external", "deps", NULL };
	size_t i;

	if (name[0] == '.')
		return 1;
	for (i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/*
 * A makefile in sub (below the top, e.g. "tests/" or "tests/bench/"),
 * which the top's build does not run: the programs named *bench* its
 * default goal links (make -n -C sub) are proposed, run as ./sub/PROG and
 * made by "make -C sub PROG" after the build, unless making them would
 * clean, fetch or touch the network. Two levels down at most.
 */
static void scan_subdirs(struct found *f, const char *top, const char *sub,
			 int depth)
{
	static const char *const argv[] = { "./%s", NULL };
	char *dir = xasprintf("%s%s", top, sub), *rel, *all, *why, *prog,
	     *path, *cmds, *old;
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	const char *p, *bad, *made;

	while (d && (e = readdir(d))) {
		if (foreign_dir(e->d_name))
			continue;
		rel = xasprintf("%s%s/", sub, e->d_name);
		path = xasprintf("%s%s", top, rel);
		if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
			free(path);
			free(rel);
			continue;
		}
		why = NULL;
		all = exists(path, "GNUmakefile") || exists(path, "makefile") ||
		      exists(path, "Makefile") ? dry_run(path, NULL, &why) :
		      NULL;
		free(why);
		for (p = all; p && (prog = next_linked(&p)); free(prog)) {
			char *run = xasprintf("%s%s", rel, prog);
			size_t had = f->n;

			why = NULL;
			/* the program as a target of its own, else the
			 * directory's default goal */
			cmds = dry_run(path, prog, &why);
			made = prog;
			if (!cmds || !links(cmds, prog)) {
				free(cmds);
				cmds = xstrdup(all);
				made = "";
			}
			free(why);
			if ((bad = trap(cmds))) {
				skip(f, xasprintf("%s: %s (make -n -C %.*s%s%s)",
					run, bad, (int)strlen(rel) - 1, rel,
					*made ? " " : "", made));
				free(cmds);
				free(run);
				continue;
			}
			free(cmds);
			add_as(f, strrchr(prog, '/') ? strrchr(prog, '/') + 1 :
			       prog, run, 1, argv, xasprintf("the makefile in "
			       "%.*s links the program %s (make -n), which gate "
			       "runs directly; the build makes it with make -C "
			       "%.*s%s%s", (int)strlen(rel) - 1, rel, prog,
			       (int)strlen(rel) - 1, rel, *made ? " " : "",
			       made));
			if (f->n > had) {
				old = f->sub_build;
				f->sub_build = xasprintf("%s && make -C %.*s%s%s",
					old ? old : "", (int)strlen(rel) - 1,
					rel, *made ? " " : "", made);
				free(old);
			}
			free(run);
		}
		free(all);
		if (depth < 2)
			scan_subdirs(f, top, rel, depth + 1);
		free(path);
		free(rel);
	}
	if (d)
		closedir(d);
	free(dir);
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
	} else if ((text = slurp(top, mk)) ||
		   exists(top, "configure") || exists(top, "configure.ac")) {
		int autoconf = exists(top, "configure") ||
			       exists(top, "configure.ac");
		int dry = text != NULL;

		if (!text)
			text = slurp(top, "Makefile.in");
		if (!text)
			text = slurp(top, "Makefile.am");
		f->system = autoconf ? "autoconf (configure, then make)" :
			    "make";
		f->build = !autoconf ? "make -j2" : exists(top, "configure") ?
			   "./configure && make -j2" :
			   "autoreconf -i && ./configure && make -j2";
		char *why = NULL, *all = dry ? dry_run(top, NULL, &why) : NULL;

		if (text)
			scan_make(f, top, text, dry, all);
		if (all)
			scan_linked(f, all, "make -n");
		if (dry)
			scan_subdirs(f, top, "", 1);
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
		/* tools that print their own timings never repeat stdout */
		append(&out, f->parity[i] ? "] }" : "], \"parity\": false }");
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
	if ((c = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(c);
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
