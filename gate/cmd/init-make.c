/*
 * gate init's makefile scanning: which targets and programs a makefile
 * offers as benchmarks, checked with a dry run (make -n) for what a
 * benchmark must never do (clean, fetch, install).
 */
#include "gate/cmd/init.h"

#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "common/error.h"
#include "gate/exec/runner.h"
#include "common/banned.h"

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
char *init_dry_run(const char *top, const char *target, char **why)
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
	spec = (struct run_spec){ .cmd = &cmd, .cwd = top, .timeout = 20,
				  .grace = 1, .log_fd = -1, .envp = env,
				  .capture = (size_t)1 << 20 };
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
	size_t tl = strlen(target), n, len = 0, cap = 1;
	const char *p = text, *q, *eol;
	char *out = xstrdup("");

	while (p && *p) {
		if (!strncmp(p, target, tl) && (p[tl] == ':' || p[tl] == ' ' ||
						p[tl] == '\t')) {
			for (q = strchr(p, '\n'); q && q[1] == '\t'; q = eol) {
				eol = strchr(q + 1, '\n');
				n = eol ? (size_t)(eol - q) : strlen(q + 1);
				XGROW(out, cap, len + n + 1);
				memcpy(out + len, q + 1, n);
				len += n;
				out[len] = '\0';
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
void init_scan_linked(struct found *f, const char *commands,
			const char *source)
{
	static const char *const argv[] = { "./%s", NULL };
	const char *p = commands;
	char *path;

	while ((path = next_linked(&p))) {
		init_add_why(f, path, 1, argv, xasprintf("the build links the "
			"program %s (%s), which gate runs directly", path,
			source));
		free(path);
	}
}

/* What "make clean" would run (owned), to spot it as a prerequisite; NULL
   when not dry-running or too short to recognise. */
static char *clean_commands(const char *top, int dry)
{
	char *clean = NULL, *none = NULL;

	if (dry && (clean = init_dry_run(top, "clean", &none)) &&
	    strlen(clean) < 4) {
		free(clean);
		clean = NULL;
	}
	free(none);
	return clean;
}

/* The makefile's targets named *bench*, each once, in their order, into
   targets[0..max) (owned); returns how many. */
static size_t bench_targets(const char *text, char **targets, size_t max)
{
	regex_t re;
	regmatch_t m[2];
	const char *p = text;
	size_t nt = 0, j;

	if (!text || regcomp(&re, "^([A-Za-z0-9_./+-]*bench[A-Za-z0-9_./+-]*)"
			     "[[:space:]]*:([^=]|$)", REG_EXTENDED | REG_NEWLINE))
		return 0;
	while (nt < max &&
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
	return nt;
}

/* A target that links its program: gate runs ./PROG, and the build makes
   it unless "all" already does (then f->extra lists it). */
static void propose_program(struct found *f, const char *target,
			    const char *all)
{
	static const char *const prog_run[] = { "./%s", NULL };
	char *had;

	init_add_why(f, target, 1, prog_run, xasprintf(
		"make target %s links the program %s, which "
		"gate runs directly (the build makes it)",
		target, target));
	if (all && links(all, target))
		return;
	if (!f->extra)
		f->extra = xstrdup("");
	had = f->extra;
	f->extra = xasprintf("%s %s", had, target);
	free(had);
}

/*
 * Make targets named *bench*: each one's commands, from make -n when
 * there is a makefile (else from Makefile.in's text), must not clean,
 * fetch or touch the network; targets with the same commands are one
 * benchmark; a target that links a program of its name becomes that
 * program, run directly and built by the build.
 */
void init_scan_make(struct found *f, const char *top, const char *text,
		      int dry, const char *all)
{
	static const char *const make_run[] = { "make", "-s", "%s", NULL };
	char *targets[4 * MAX_BENCH], *seen[4 * MAX_BENCH], *cmds, *why;
	size_t nt, i, j;
	const char *bad;
	char *clean = clean_commands(top, dry);

	nt = bench_targets(text, targets, sizeof(targets) / sizeof(targets[0]));
	for (i = 0; i < nt; i++) {
		why = NULL;
		cmds = dry ? init_dry_run(top, targets[i], &why) :
			     recipe(text, targets[i]);
		seen[i] = cmds;
		if (!cmds) {
			init_skip(f, xasprintf("%s: cannot inspect it (%s)",
					  targets[i], why));
			free(why);
			continue;
		}
		if (clean && strstr(cmds, clean))
			bad = "cleans the build (runs make clean's commands)";
		else
			bad = trap(cmds);
		if (bad) {
			init_skip(f, xasprintf("%s: %s (%s)", targets[i], bad,
					  dry ? "make -n" : "its recipe"));
			continue;
		}
		for (j = 0; j < i; j++)
			if (seen[j] && !strcmp(seen[j], cmds))
				break;
		if (j < i && cmds[0]) {
			init_skip(f, xasprintf("%s: the same commands as %s (an "
					  "alias)", targets[i], targets[j]));
			continue;
		}
		if (links(cmds, targets[i]) && !strstr(targets[i], "..") &&
		    targets[i][0] != '/') {
			propose_program(f, targets[i], all);
			continue;
		}
		init_add_why(f, targets[i], 0, make_run, xasprintf(
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

	return init_dir_skipped(name, names);
}

/*
 * A makefile in sub (below the top, e.g. "tests/" or "tests/bench/"),
 * which the top's build does not run: the programs named *bench* its
 * default goal links (make -n -C sub) are proposed, run as ./sub/PROG and
 * made by "make -C sub PROG" after the build, unless making them would
 * clean, fetch or touch the network. Two levels down at most.
 */
void init_scan_subdirs(struct found *f, const char *top, const char *sub,
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
		all = init_exists(path, "GNUmakefile") || init_exists(path, "makefile") ||
		      init_exists(path, "Makefile") ? init_dry_run(path, NULL, &why) :
		      NULL;
		free(why);
		for (p = all; p && (prog = next_linked(&p)); free(prog)) {
			char *run = xasprintf("%s%s", rel, prog);
			size_t had = f->n;

			why = NULL;
			/* the program as a target of its own, else the
			 * directory's default goal */
			cmds = init_dry_run(path, prog, &why);
			made = prog;
			if (!cmds || !links(cmds, prog)) {
				free(cmds);
				cmds = xstrdup(all);
				made = "";
			}
			free(why);
			if ((bad = trap(cmds))) {
				init_skip(f, xasprintf("%s: %s (make -n -C %.*s%s%s)",
					run, bad, (int)strlen(rel) - 1, rel,
					*made ? " " : "", made));
				free(cmds);
				free(run);
				continue;
			}
			free(cmds);
			init_add_as(f, strrchr(prog, '/') ? strrchr(prog, '/') + 1 :
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
			init_scan_subdirs(f, top, rel, depth + 1);
		free(path);
		free(rel);
	}
	if (d)
		closedir(d);
	free(dir);
}
