/*
 * gate init for a cargo crate with criterion benches: one criterion suite
 * per bench target ([[bench]] with harness = false, criterion among the
 * dev-dependencies), read per sample from criterion's sample.json files
 * rather than timing cargo bench as one process (criterion runs for a
 * fixed time whatever the code costs, so a process's time cannot see a
 * change). Each target is measured once here; its suite's warm-up and
 * measurement times are sized so that a case takes about the time init
 * gives a case of Go or Google Benchmark (criterion 0.3 takes whole
 * seconds only: 1 s each then), fit to the default budget.
 */
#include "gate/cmd/init.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/file.h"
#include "common/tree.h"
#include "gate/config/config.h"
#include "gate/format/format.h"
#include "common/banned.h"

/* criterion's least sample size: its linear sampling runs a case
   d, 2d, ... 10d times, 55d in all (d >= 1) */
#define CRIT_SAMPLES 10
#define CRIT_LEAST_ITERS 55.0
/* what a whole-seconds criterion (0.3 and before) takes at least */
#define CRIT_WHOLE_SECONDS 1.0

struct crit_target {
	struct init_prog *p;	/* dir: the target's name */
	double warm, meas;	/* proposed --warm-up-time, --measurement-time */
};

/* The length of the line at s, without its newline. */
static size_t line_len(const char *s)
{
	return strcspn(s, "\r\n");
}

/*
 * Whether Cargo.toml's text lists criterion among its dev-dependencies
 * (a [dev-dependencies] "criterion = ..." line, or a
 * [dev-dependencies.criterion] table, target-specific ones too); *ver
 * gets its requirement's first digits ("0.3"), or stays NULL.
 */
static int has_criterion(const char *toml, char **ver)
{
	const char *s = toml, *v;
	int dev = 0, in_table = 0, found = 0;
	size_t n;

	*ver = NULL;
	while (*s) {
		n = line_len(s);
		if (*s == '[') {
			dev = strstr(s, "dev-dependencies") &&
			      strstr(s, "dev-dependencies") < s + n;
			in_table = dev && n > 12 &&
				   !strncmp(s + n - 11, ".criterion]", 11);
			found |= in_table;
		} else if (dev && !in_table && !strncmp(s, "criterion", 9) &&
			   strchr(" \t=.", s[9])) {
			found = 1;
			v = memchr(s, '"', n);
			if (v && !*ver && !memchr(s, '{', (size_t)(v - s)))
				*ver = xstrndup(v + 1, strspn(v + 1,
							      "0123456789."));
			else if ((v = strstr(s, "version")) && v < s + n &&
				 (v = strchr(v, '"')) && v < s + n && !*ver)
				*ver = xstrndup(v + 1, strspn(v + 1,
							      "0123456789."));
		} else if (in_table && !strncmp(s, "version", 7) && !*ver &&
			   (v = memchr(s, '"', n))) {
			*ver = xstrndup(v + 1, strspn(v + 1, "0123456789."));
		}
		s += n;
		s += strspn(s, "\r\n");
	}
	return found;
}

/* The [[bench]] targets with harness = false in Cargo.toml's text: their
   names, added to t[] (at most MAX_BENCH). */
static size_t crit_targets(const char *toml, struct crit_target *t)
{
	const char *s = toml, *v;
	char *name = NULL;
	int in_bench = 0, no_harness = 0;
	size_t n, nt = 0;

	for (;;) {
		n = line_len(s);
		if (!*s || *s == '[') {
			if (in_bench && name && no_harness && nt < MAX_BENCH) {
				t[nt].p = xcalloc(1, sizeof(*t[nt].p));
				t[nt].p->dir = name;
				t[nt].p->overhead = NAN;
				nt++;
				name = NULL;
			}
			free(name);
			name = NULL;
			in_bench = !strncmp(s, "[[bench]]", 9);
			no_harness = 0;
			if (!*s)
				break;
		} else if (in_bench && !strncmp(s, "name", 4) &&
			   (v = memchr(s, '"', n)) && !name) {
			name = xstrndup(v + 1, strcspn(v + 1, "\"\r\n"));
		} else if (in_bench && !strncmp(s, "harness", 7)) {
			v = memchr(s, '=', n);
			no_harness = v && !strncmp(v + 1 + strspn(v + 1, " \t"),
						   "false", 5);
		}
		s += n;
		s += strspn(s, "\r\n");
	}
	return nt;
}

/* Whether criterion's version ver (NULL: unknown) takes whole seconds
   only: 0.3 and before read --measurement-time as an integer. */
static int whole_seconds(const char *ver, const char *lock)
{
	const char *at = lock ? strstr(lock, "name = \"criterion\"") : NULL;
	char *locked = NULL;
	int whole;

	if (at && (at = strstr(at, "version = \"")))
		ver = locked = xstrndup(at + 11, strcspn(at + 11, "\""));
	whole = !ver || !strncmp(ver, "0.1", 3) || !strncmp(ver, "0.2", 3) ||
		!strncmp(ver, "0.3", 3) || !strcmp(ver, "0") ||
		!strcmp(ver, "0.");
	free(locked);
	return whole;
}

/* A number of seconds as criterion's flag takes it. */
static char *secs(double s, int whole)
{
	return whole ? xasprintf("%.0f", s) : xasprintf("%.3g", s);
}

/*
 * The command of target's suite: its bench binary (the newest cargo
 * built: never cargo itself, which would lock and write target/ in a
 * checkout that is read-only while samples run), criterion's files of
 * each case under a home of its own (GATE_TMPDIR, empty each sample)
 * concatenated on stdout, its summaries on stderr; "$GATE_FILTER"
 * criterion's filter for rounds and shards. home: the directory's shell
 * expression.
 */
static char *crit_command(const char *target, const char *home,
			  double warm, double meas, int whole)
{
	char *w = secs(warm, whole), *m = secs(meas, whole), *cmd;

	cmd = xasprintf("d=%s/criterion; b=$(ls -t target/release/deps/%s-"
			"???????????????? | head -n 1) && CRITERION_HOME=$d "
			"\"$b\" --bench --noplot --warm-up-time %s "
			"--measurement-time %s --sample-size %d "
			"${GATE_FILTER:+\"$GATE_FILTER\"} >&2 && find \"$d\" "
			"-path '*/new/*' \\( -name benchmark.json -o -name "
			"sample.json \\) -exec cat {} +", home, target, w, m,
			CRIT_SAMPLES);
	free(w);
	free(m);
	return cmd;
}

/* What one case of cost ns takes at warm-up warm and measurement meas. */
static double case_seconds(double ns, double warm, double meas)
{
	double least = CRIT_LEAST_ITERS * ns * 1e-9;

	return warm + (least > meas ? least : meas);
}

/* Seconds a sample of every measured target takes at warm, meas. */
static double sample_seconds(const struct crit_target *t, size_t nt,
			     double warm, double meas)
{
	double s = 0;
	size_t i, k;

	for (i = 0; i < nt; i++) {
		if (t[i].p->why)
			continue;
		s += t[i].p->overhead;
		for (k = 0; k < t[i].p->n; k++)
			s += case_seconds(t[i].p->c[k].ns, warm, meas);
	}
	return s;
}

/* Measure target once, built (cargo bench --no-run), then as its suite
   runs (whole seconds: 1 s each, else a tenth), in top with a home in
   tmp: each case's cost, and what the run takes beyond its cases (start,
   criterion's analysis). */
static void measure(struct crit_target *t, const char *top, const char *tmp,
		    int whole)
{
	double w = whole ? CRIT_WHOLE_SECONDS : 0.1, wall, work = 0;
	char a0[] = "sh", a1[] = "-c", *cmd = crit_command(t->p->dir, tmp, w,
							 w, whole);
	char *argv[] = { a0, a1, cmd, NULL }, *what, *out, *rm;
	char b0[] = "cargo", b1[] = "bench", b2[] = "--no-run";
	char *build[] = { b0, b1, b2, NULL };
	struct fmt_table tab = FMT_TABLE_INIT;
	struct fmt_opts o;
	struct gate_err err;
	size_t i, k;

	out = init_run(build, top, "cargo bench --no-run", &wall, &t->p->why);
	if (!out) {
		free(cmd);
		return;
	}
	free(out);
	what = xasprintf("%s's bench binary", t->p->dir);
	out = init_run(argv, top, what, &wall, &t->p->why);
	free(what);
	free(cmd);
	rm = xasprintf("%s/criterion", tmp);
	if (tree_remove(rm, NULL) < 0)
		warning("cannot remove \"%s\": remove it yourself", rm);
	free(rm);
	if (!out)
		return;
	memset(&o, 0, sizeof(o));
	o.err = &err;
	if (format_parse(&tab, FORMAT_CRITERION, out, strlen(out),
			 t->p->dir, &o) < 0) {
		t->p->why = xstrdup(err.msg);
		free(out);
		return;
	}
	free(out);
	for (i = 0; i < tab.n; i++) {
		struct init_case *c;

		if (!unit_is_time(tab.cases[i].unit))
			continue;
		init_case_add(t->p, tab.cases[i].name,
			      strlen(tab.cases[i].name));
		c = init_case_find(t->p, tab.cases[i].name,
				   strlen(tab.cases[i].name));
		for (k = 0; c && k < tab.cases[i].n; k++)
			if (tab.cases[i].values[k] * 1e9 > c->ns)
				c->ns = tab.cases[i].values[k] * 1e9;
	}
	fmt_table_release(&tab);
	for (i = 0; i < t->p->n; i++)
		work += case_seconds(t->p->c[i].ns, w, w);
	t->p->overhead = wall > work ? wall - work : 0;
	init_prog_sort(t->p);
}

/*
 * The warm-up and measurement times: a case's INIT_CASE_SECONDS (half of
 * it warming up), shortened so that the first look fits its share of
 * the default budget as init_fit does; whole seconds: 1 s each, the
 * least criterion takes. *pair gets what a pair then takes.
 */
static void fit(struct crit_target *t, size_t nt, int whole, double *pair)
{
	double look = CONFIG_DEFAULT_PAIRS + CONFIG_DEFAULT_WARMUP;
	double share = 0.5 * CONFIG_DEFAULT_BUDGET, m = INIT_CASE_SECONDS,
	       fixed, per;
	size_t i;

	if (whole) {
		m = CRIT_WHOLE_SECONDS;
	} else {
		per = 2 * sample_seconds(t, nt, m / 2, m);
		if (per * look > share) {
			fixed = 2 * sample_seconds(t, nt, 0, 0);
			m *= (share / look - fixed) / (per - fixed);
			if (!(m >= 0.01))
				m = 0.01;
		}
	}
	for (i = 0; i < nt; i++) {
		t[i].meas = m;
		t[i].warm = whole ? m : m / 2;
	}
	*pair = 2 * sample_seconds(t, nt, t[0].warm, t[0].meas);
}

static void propose(struct found *f, const struct crit_target *t, int whole)
{
	char *cmd = crit_command(t->p->dir, "${GATE_TMPDIR:-$(mktemp -d)}",
				 t->warm, t->meas, whole);
	const char *argv[] = { "sh", "-c", cmd, NULL };
	char *why, lo[64], hi[64], *w = secs(t->warm, whole),
	     *m = secs(t->meas, whole);
	const struct init_prog *p = t->p;
	double s = 0;
	size_t k;
	long idx;

	for (k = 0; k < p->n; k++)
		s += case_seconds(p->c[k].ns, t->warm, t->meas);
	if (p->why) {
		why = xasprintf("cargo bench target %s (criterion); not "
				"measured (%s): --warm-up-time %s "
				"--measurement-time %s is a guess, each case "
				"takes about their sum", p->dir, p->why, w, m);
	} else {
		format_value(p->c[0].ns * 1e-9, "s/iter", lo, sizeof(lo));
		format_value(p->c[p->n - 1].ns * 1e-9, "s/iter", hi,
			     sizeof(hi));
		why = xasprintf("cargo bench target %s (criterion%s): %zu "
				"case%s of %s to %s (measured), each warmed "
				"up %s s and sampled %d times over %s s%s: "
				"about %.1f s a run", p->dir, whole ?
				" 0.3, whole seconds only" : "", p->n,
				p->n == 1 ? "" : "s", lo, hi, w, CRIT_SAMPLES,
				m, s > (t->warm + t->meas) * (double)p->n *
				1.05 ? " (its slowest cases longer: at least "
				"55 iterations)" : "", s + p->overhead);
	}
	idx = init_add_as(f, p->dir, p->dir, 0, argv, why);
	if (idx >= 0)
		f->format[idx] = "criterion";
	free(cmd);
	free(w);
	free(m);
}

/*
 * The build makes every bench binary (cargo bench --no-run): those are
 * the artifacts (cargo names them NAME-<16 hex digits>; the .d file
 * beside each holds absolute paths, so the glob leaves it out), and the
 * crate's build inputs the sources, so a change to the docs alone passes
 * unmeasured.
 */
static void add_build(struct found *f, const struct crit_target *t,
		      size_t nt, const char *top)
{
	static const char *const inputs[] = { "src", "benches", "Cargo.toml",
		"Cargo.lock", "build.rs", ".cargo" };
	size_t i;
	const char *kept;

	f->build = "cargo bench --no-run";
	f->nartifacts = 0;
	for (i = 0; i < nt && i < MAX_BENCH; i++)
		if ((kept = init_keep(f, xasprintf("target/release/deps/%s-"
						   "????????????????",
						   t[i].p->dir))))
			f->artifacts[f->nartifacts++] = kept;
	f->nsources = 0;
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		if (init_exists(top, inputs[i]))
			f->sources[f->nsources++] = inputs[i];
	init_add_docs(f, top);
}

int init_scan_cargo(struct found *f, const char *top, const char *toml)
{
	struct crit_target t[MAX_BENCH];
	char *ver = NULL, *lock, *lockpath, tmpl[] = "/tmp/gate-init-rs-XXXXXX",
	     *tmp;
	size_t nt, i, len;
	int whole;
	double pair;

	if (!has_criterion(toml, &ver)) {
		free(ver);
		return 0;
	}
	nt = crit_targets(toml, t);
	if (!nt) {
		free(ver);
		return 0;
	}
	lockpath = xasprintf("%sCargo.lock", top);
	lock = NULL;
	if (file_read(&lock, &len, lockpath, (size_t)4 << 20) < 0)
		lock = NULL;
	free(lockpath);
	whole = whole_seconds(ver, lock);
	free(lock);
	free(ver);
	tmp = mkdtemp(tmpl);
	for (i = 0; i < nt; i++) {
		if (!tmp)
			t[i].p->why = xstrdup("cannot make a directory in "
					      "/tmp for criterion's files");
		else
			measure(&t[i], top, tmp, whole);
		if (!t[i].p->why && !t[i].p->n)
			t[i].p->why = xstrdup("it printed no case");
	}
	if (tmp && tree_remove(tmp, NULL) < 0)
		warning("cannot remove \"%s\": remove it yourself", tmp);
	fit(t, nt, whole, &pair);
	for (i = 0; i < nt; i++) {
		propose(f, &t[i], whole);
		f->unmeasured += t[i].p->why != NULL;
	}
	f->pair_seconds += pair;
	add_build(f, t, nt, top);
	for (i = 0; i < nt; i++)
		init_prog_free(t[i].p);
	return 1;
}
