/*
 * The one table of gate.json's keys (config-table.h): each row says where
 * the key may stand, whose gate.json decides it and why, its default, its
 * help, how its value is read (its reader in config-read.c), shown and
 * adopted from base's policy.
 */
#include "gate/config/config-table.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/config/config-internal.h"
#include "common/banned.h"

/* ---- the resolved value, as text, and base's onto the plan's copy */

static const void *field(const struct config_key *k, const struct config *c,
			 const struct bench_cfg *b)
{
	return (const char *)((k->scope & KEY_BENCH) ? (const void *)b :
			      (const void *)c) + k->off;
}

static void *field_w(const struct config_key *k, struct config *c,
		     struct bench_cfg *b)
{
	return (char *)((k->scope & KEY_BENCH) ? (void *)b : (void *)c) +
	       k->off;
}

static const void *count_of(const struct config_key *k,
			    const struct config *c, const struct bench_cfg *b)
{
	return (const char *)((k->scope & KEY_BENCH) ? (const void *)b :
			      (const void *)c) + k->off2;
}

static void show_uns(const struct config_key *k, char *buf, size_t size,
		     const struct config *c, const struct bench_cfg *b)
{
	snprintf(buf, size, "%u", *(const unsigned *)field(k, c, b));
}

static void adopt_uns(const struct config_key *k, struct config *dc,
		      struct bench_cfg *db, const struct config *c,
		      const struct bench_cfg *b)
{
	*(unsigned *)field_w(k, dc, db) = *(const unsigned *)field(k, c, b);
}

static void show_dbl(const struct config_key *k, char *buf, size_t size,
		     const struct config *c, const struct bench_cfg *b)
{
	snprintf(buf, size, "%.15g", *(const double *)field(k, c, b));
}

static void adopt_dbl(const struct config_key *k, struct config *dc,
		      struct bench_cfg *db, const struct config *c,
		      const struct bench_cfg *b)
{
	*(double *)field_w(k, dc, db) = *(const double *)field(k, c, b);
}

/* An int or enum field, shown by its name in gate.json. */
static void show_int(const struct config_key *k, char *buf, size_t size,
		     const struct config *c, const struct bench_cfg *b)
{
	int v = *(const int *)field(k, c, b);
	const char *s = NULL;

	if (!strcmp(k->name, "statistic"))
		s = stats_estimator_name((enum stats_estimator)v);
	else if (!strcmp(k->name, "interval"))
		s = interval_name((enum interval_method)v);
	else if (!strcmp(k->name, "rule"))
		s = rule_name((enum rule)v);
	else if (!strcmp(k->name, "counter"))
		s = counter_name((enum counter)v);
	else if (!strcmp(k->name, "format"))
		s = format_name((enum format)v);
	if (s)
		snprintf(buf, size, "%s", s);
	else
		snprintf(buf, size, "%s", v ? "true" : "false");
}

static void adopt_int(const struct config_key *k, struct config *dc,
		      struct bench_cfg *db, const struct config *c,
		      const struct bench_cfg *b)
{
	*(int *)field_w(k, dc, db) = *(const int *)field(k, c, b);
}

/*
 * s in double quotes at buf + o, '"' and '\\' escaped as in JSON (so that
 * ["a\", \"b"] and ["a", "b"] read differently); the new o (may pass size:
 * cut).
 */
static size_t put_quoted(char *buf, size_t size, size_t o, const char *s)
{
	if (o < size)
		o += (size_t)snprintf(buf + o, size - o, "\"");
	for (; *s && o < size; s++)
		o += (size_t)snprintf(buf + o, size - o, *s == '"' ||
				      *s == '\\' ? "\\%c" : "%c", *s);
	if (o < size)
		o += (size_t)snprintf(buf + o, size - o, "\"");
	return o;
}

/* A list of strings: ["a", "b"] (an empty or absent list: []). */
static void show_list(const struct config_key *k, char *buf, size_t size,
		      const struct config *c, const struct bench_cfg *b)
{
	char *const *list = *(char *const *const *)field(k, c, b);
	size_t n = *(const size_t *)count_of(k, c, b), i, o;

	o = (size_t)snprintf(buf, size, "[");
	for (i = 0; i < n && o < size; i++) {
		if (i)
			o += (size_t)snprintf(buf + o, size - o, ", ");
		o = put_quoted(buf, size, o, list[i]);
	}
	if (o < size)
		snprintf(buf + o, size - o, "]");
}

static void adopt_list(const struct config_key *k, struct config *dc,
		       struct bench_cfg *db, const struct config *c,
		       const struct bench_cfg *b)
{
	/* borrowed: base's config outlives the plan */
	*(char ***)field_w(k, dc, db) = *(char **const *)field(k, c, b);
	*(size_t *)((char *)field_w(k, dc, db) - k->off + k->off2) =
		*(const size_t *)count_of(k, c, b);
}

static void show_cmd(const struct config_key *k, char *buf, size_t size,
		     const struct config *c, const struct bench_cfg *b)
{
	const struct command *cmd = field(k, c, b);
	size_t i, o;

	if (cmd->shell) {
		put_quoted(buf, size, 0, cmd->shell);
		return;
	}
	if (!cmd->argv) {
		snprintf(buf, size, "none");
		return;
	}
	o = (size_t)snprintf(buf, size, "[");
	for (i = 0; cmd->argv[i] && o < size; i++) {
		if (i)
			o += (size_t)snprintf(buf + o, size - o, ", ");
		o = put_quoted(buf, size, o, cmd->argv[i]);
	}
	if (o < size)
		snprintf(buf + o, size - o, "]");
}

/* The metrics a benchmark measures, in order, or one aspect of each. */
enum aspect { A_IDS, A_GATE, A_FLOOR, A_EXCL };

static void show_aspect(enum aspect a, char *buf, size_t size,
			const struct bench_cfg *b)
{
	size_t i, o, n = 0;

	o = (size_t)snprintf(buf, size, a == A_FLOOR || a == A_EXCL ? "{" :
			     "[");
	for (i = 0; i < b->nmetrics && o < size; i++) {
		const struct metric_cfg *mc = &b->metrics[i];
		const char *sep = n ? ", " : "";

		if (a == A_IDS || (a == A_GATE && mc->gating)) {
			o += (size_t)snprintf(buf + o, size - o, "%s\"%s\"",
					      sep, metric_name(mc->id));
			n++;
		} else if (a == A_FLOOR || a == A_EXCL) {
			o += (size_t)snprintf(buf + o, size - o,
					      "%s\"%s\": %.15g", sep,
					      metric_name(mc->id), a == A_FLOOR ?
					      mc->min_effect :
					      mc->pass_excludes);
			n++;
		}
	}
	if (o < size)
		snprintf(buf + o, size - o, a == A_FLOOR || a == A_EXCL ?
			 "}" : "]");
}

static void show_metrics(const struct config_key *k, char *buf, size_t size,
			 const struct config *c, const struct bench_cfg *b)
{
	(void)k, (void)c;
	show_aspect(A_IDS, buf, size, b);
}

static void show_gate(const struct config_key *k, char *buf, size_t size,
		      const struct config *c, const struct bench_cfg *b)
{
	(void)k, (void)c;
	show_aspect(A_GATE, buf, size, b);
}

static void show_floor(const struct config_key *k, char *buf, size_t size,
		       const struct config *c, const struct bench_cfg *b)
{
	(void)k, (void)c;
	show_aspect(A_FLOOR, buf, size, b);
}

static void show_excl(const struct config_key *k, char *buf, size_t size,
		      const struct config *c, const struct bench_cfg *b)
{
	(void)k, (void)c;
	show_aspect(A_EXCL, buf, size, b);
}

/* What is measured and how it gates is one decision: taken whole. */
static void adopt_metrics(const struct config_key *k, struct config *dc,
			  struct bench_cfg *db, const struct config *c,
			  const struct bench_cfg *b)
{
	(void)k, (void)dc, (void)c;
	memcpy(db->metrics, b->metrics, sizeof(db->metrics));
	db->nmetrics = b->nmetrics;
	db->metric = b->metric;
	db->min_effect = b->min_effect;
}

/* ---- the table */

#define B(f) offsetof(struct bench_cfg, f)
#define C(f) offsetof(struct config, f)
#define TDB (KEY_DEFAULTS | KEY_BENCH)

/* Why each knob of how a benchmark is measured and decided is base's. */
#define WHY_DECIDE "how a difference is decided is base's rule: head could " \
	"otherwise loosen its own gate"
#define WHY_MEASURE "both arms are measured the same way, by base's rule: " \
	"head could otherwise bias or shorten its own measurement"

static const struct config_key keys[] = {
	{ .name = "version", .scope = KEY_TOP, .owner = OWNER_DEFINITION,
	  .type = "a whole number", .def = "1",
	  .help = "the version of gate.json's schema the file is written in",
	  .why = "says how its own file is read", .read = rd_version },
	{ .name = "build", .scope = KEY_TOP, .owner = OWNER_DEFINITION,
	  .type = "a command", .def_doc = "nothing to build",
	  .help = "builds the revision in its checkout (a string runs with "
	  "/bin/sh -c, a list as argv)",
	  .why = "each revision knows how it is built; head's build never "
	  "runs in base's checkout; what is measured includes how it is "
	  "built, so a difference makes every benchmark base declares "
	  "redefined (a fail unless accepted)", .redefines = 1,
	  .read = rd_build, .show = show_cmd, .off = C(build) },
	{ .name = "build_timeout", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "seconds (0, 86400]", .def = "3600",
	  .help = "a build that takes longer is stopped (an error)",
	  .why = "how long gate waits is base's: head could not make a "
	  "required check hang", .read = rd_build_timeout, .show = show_dbl,
	  .adopt = adopt_dbl, .off = C(build_timeout) },
	{ .name = "cache_builds", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "a whole number 2..26", .def = "4",
	  .help = "checkouts kept with their builds for later runs",
	  .why = "whether kept builds are reused is a trust decision",
	  .read = rd_cache_builds, .show = show_uns, .adopt = adopt_uns,
	  .off = C(cache_builds) },
	{ .name = "serial_build", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "true or false", .def = "false",
	  .help = "build one arm after the other instead of both at once",
	  .why = "how the builds share the machine is base's",
	  .read = rd_serial_build, .show = show_int, .adopt = adopt_int,
	  .off = C(serial_build) },
	{ .name = "build_network", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "true or false", .def = "false",
	  .help = "whether builds and checks may use the network (each arm's "
	  "sandbox has none otherwise; samples never have it)",
	  .why = "a build with the network could send or fetch what changes "
	  "the other arm's measurement", .read = rd_build_network,
	  .show = show_int, .adopt = adopt_int, .off = C(build_network) },
	{ .name = "build_caches", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "a list of directories (absolute or ~/...)",
	  .def_doc = "none",
	  .help = "caches each arm's builds, checks and samples get a "
	  "private, kept copy of, at that path (ccache's, Go's build cache, "
	  "cargo's registry); never shared between the arms",
	  .why = "a cache both arms wrote could carry one arm's output into "
	  "the other's", .read = rd_build_caches, .show = show_list,
	  .adopt = adopt_list, .off = C(build_caches),
	  .off2 = C(nbuild_caches) },
	{ .name = "pass_env", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "a list of variable names", .def_doc = "none",
	  .help = "variables of gate's environment an arm's builds, checks "
	  "and samples get beyond the sandbox's allowlist (the locale, PATH, "
	  "the toolchains' own: gate(7))",
	  .why = "a variable can carry a token or a path into the other "
	  "arm's files", .read = rd_pass_env, .show = show_list,
	  .adopt = adopt_list, .off = C(pass_env), .off2 = C(npass_env) },
	{ .name = "sources", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "a list of paths or globs",
	  .def_doc = "none: any tracked difference measures",
	  .help = "the build's inputs: the identical-artifacts shortcut is "
	  "taken only when the arms' trees differ in nothing else",
	  .why = "it decides which changes may skip measuring",
	  .read = rd_sources, .show = show_list, .adopt = adopt_list,
	  .off = C(sources), .off2 = C(nsources) },
	{ .name = "writable", .scope = KEY_TOP, .owner = OWNER_POLICY,
	  .type = "a list of paths (absolute, ~/..., or in the checkout)",
	  .def_doc = "none",
	  .help = "paths outside its own checkout and scratch directory a "
	  "benchmark may write while measuring (Landlock)",
	  .why = "it is the seal between the arms: head could open base's "
	  "files to its own benchmark", .read = rd_writable, .show = show_list,
	  .adopt = adopt_list, .off = C(writable), .off2 = C(nwritable) },
	{ .name = "defaults", .scope = KEY_TOP, .owner = OWNER_CONTAINER,
	  .type = "an object",
	  .help = "settings every benchmark takes unless it sets its own",
	  .why = "each key inside has its own owner", .read = rd_defaults },
	{ .name = "benchmarks", .scope = KEY_TOP, .owner = OWNER_CONTAINER,
	  .type = "a list of objects",
	  .help = "the benchmarks, each with \"name\" and \"run\"",
	  .why = "each key inside has its own owner", .read = rd_benchmarks },
	{ .name = "name", .scope = KEY_BENCH, .owner = OWNER_IDENTITY,
	  .type = "a string (required)",
	  .help = "names the benchmark in reports and files",
	  .why = "it pairs base's benchmark with head's: a rename is a "
	  "removal and a new benchmark", .read = rd_name },
	{ .name = "run", .scope = KEY_BENCH, .owner = OWNER_DEFINITION,
	  .type = "a command (required)",
	  .help = "runs one sample in the arm's checkout",
	  .why = "each arm runs its own; a difference makes the benchmark "
	  "redefined (a fail unless accepted)", .redefines = 1, .read = rd_run,
	  .show = show_cmd, .off = B(run) },
	{ .name = "check", .scope = KEY_BENCH, .owner = OWNER_DEFINITION,
	  .type = "a command", .def_doc = "none",
	  .help = "runs once per arm before timing; a failure is an error",
	  .why = "each arm checks its own output; a difference makes the "
	  "benchmark redefined (a fail unless accepted)", .redefines = 1,
	  .read = rd_check, .show = show_cmd, .off = B(check) },
	{ .name = "artifacts", .scope = KEY_TOP | KEY_BENCH,
	  .owner = OWNER_POLICY, .type = "a list of paths or globs",
	  .def_doc = "none",
	  .help = "what the build makes: byte-identical artifacts (and no "
	  "other difference but \"sources\") pass unmeasured",
	  .why = "it lets a benchmark pass unmeasured: head could point it "
	  "at a file it does not change", .read = rd_artifacts,
	  .show = show_list, .adopt = adopt_list, .off = B(artifacts),
	  .off2 = B(nartifacts) },
	{ .name = "format", .scope = KEY_BENCH, .owner = OWNER_DEFINITION,
	  .type = "a result format", .def = "\"time\"",
	  .help = "how stdout is read: time (the process is timed) or a suite",
	  .why = "each arm's own; a difference makes the benchmark redefined",
	  .redefines = 1, .read = rd_format, .show = show_int,
	  .off = B(format) },
	{ .name = "pairs", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a whole number 2..10000", .def = "20",
	  .help = "pairs of the first look (3 when every metric is an exact "
	  "count)", .why = WHY_MEASURE, .read = rd_pairs, .show = show_uns,
	  .adopt = adopt_uns, .off = B(pairs) },
	{ .name = "max_pairs", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a whole number, at least pairs",
	  .def_doc = "2000 (or pairs)",
	  .help = "the most pairs adaptive looks may take (under a budget, "
	  "they are planned to the pairs it can reach)", .why = WHY_DECIDE,
	  .read = rd_max_pairs, .show = show_uns, .adopt = adopt_uns,
	  .off = B(max_pairs) },
	{ .name = "warmup", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a whole number 0..1000", .def = "2",
	  .help = "runs per arm before the pairs, not counted",
	  .why = WHY_MEASURE, .read = rd_warmup, .show = show_uns,
	  .adopt = adopt_uns, .off = B(warmup) },
	{ .name = "metric", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a metric name", .def = "\"wall\"",
	  .help = "the one metric measured (or \"metrics\")",
	  .why = WHY_DECIDE, .read = rd_metric, .adopt = adopt_metrics },
	{ .name = "metrics", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a list of metric names", .def_doc = "[\"wall\"]",
	  .help = "the metrics measured, in order", .why = WHY_DECIDE,
	  .read = rd_metrics, .show = show_metrics, .adopt = adopt_metrics },
	{ .name = "gate", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a list of metric names", .def_doc = "every metric",
	  .help = "which metrics decide the verdict", .why = WHY_DECIDE,
	  .read = rd_gate, .show = show_gate, .adopt = adopt_metrics },
	{ .name = "min_effect", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a fraction, or fractions by metric",
	  .def_doc = "the metric's own (wall 0.05)",
	  .help = "the floor: a fail shows a regression of at least this much",
	  .why = WHY_DECIDE, .read = rd_min_effect, .show = show_floor,
	  .adopt = adopt_metrics },
	{ .name = "pass_excludes", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a fraction, or fractions by metric",
	  .def_doc = "twice the floor",
	  .help = "a pass excludes a regression of this much",
	  .why = WHY_DECIDE, .read = rd_pass_excludes, .show = show_excl,
	  .adopt = adopt_metrics },
	{ .name = "counter", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "auto, perf or valgrind", .def = "\"auto\"",
	  .help = "how instructions are counted", .why = WHY_MEASURE,
	  .read = rd_counter, .show = show_int, .adopt = adopt_int,
	  .off = B(counter) },
	{ .name = "timeout", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "seconds (0, 86400]", .def = "60",
	  .help = "a sample that takes longer is stopped (an error)",
	  .why = WHY_MEASURE, .read = rd_timeout, .show = show_dbl,
	  .adopt = adopt_dbl, .off = B(timeout) },
	{ .name = "parity", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "true or false", .def = "true",
	  .help = "stdout must be identical in every sample of an arm",
	  .why = WHY_MEASURE, .read = rd_parity, .show = show_int,
	  .adopt = adopt_int, .off = B(parity) },
	{ .name = "statistic", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "hl, median or mean", .def = "\"hl\"",
	  .help = "the estimate of the log-ratios", .why = WHY_DECIDE,
	  .read = rd_statistic, .show = show_int, .adopt = adopt_int,
	  .off = B(statistic) },
	{ .name = "interval", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "exact, percentile or bca", .def = "\"exact\"",
	  .help = "how the interval is drawn", .why = WHY_DECIDE,
	  .read = rd_interval, .show = show_int, .adopt = adopt_int,
	  .off = B(interval) },
	{ .name = "rule", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "floor or significant", .def = "\"floor\"",
	  .help = "what a fail needs", .why = WHY_DECIDE, .read = rd_rule,
	  .show = show_int, .adopt = adopt_int, .off = B(rule) },
	{ .name = "target_halfwidth", .scope = TDB, .owner = OWNER_POLICY,
	  .type = "a fraction (0, 10)", .def_doc = "the floor",
	  .help = "a benchmark is resolved once its interval is this narrow",
	  .why = WHY_DECIDE, .read = rd_target_halfwidth, .show = show_dbl,
	  .adopt = adopt_dbl, .off = B(target_halfwidth) },
	{ .name = "expect", .scope = KEY_BENCH, .owner = OWNER_POLICY,
	  .type = "a list of patterns", .def_doc = "none",
	  .help = "cases a suite must print (POSIX ERE)",
	  .why = "head could drop the case that regressed", .read = rd_expect,
	  .show = show_list, .adopt = adopt_list, .off = B(expect),
	  .off2 = B(nexpect) },
	{ .name = "ignore", .scope = KEY_BENCH, .owner = OWNER_POLICY,
	  .type = "a list of patterns", .def_doc = "none",
	  .help = "suite cases not compared (POSIX ERE)",
	  .why = "head could ignore the case that regressed",
	  .read = rd_ignore, .show = show_list, .adopt = adopt_list,
	  .off = B(ignore), .off2 = B(nignore) },
	{ .name = "confidence", .scope = KEY_DEFAULTS, .owner = OWNER_POLICY,
	  .type = "a number (0.5, 1)", .def = "0.95",
	  .help = "the suite-wide confidence of the promise",
	  .why = WHY_DECIDE, .read = rd_confidence, .show = show_dbl,
	  .adopt = adopt_dbl, .off = C(confidence) },
	{ .name = "resamples", .scope = KEY_DEFAULTS, .owner = OWNER_POLICY,
	  .type = "a whole number 1000..1000000", .def = "10000",
	  .help = "bootstrap resamples", .why = WHY_DECIDE,
	  .read = rd_resamples, .show = show_uns, .adopt = adopt_uns,
	  .off = C(resamples) },
	{ .name = "budget", .scope = KEY_DEFAULTS, .owner = OWNER_POLICY,
	  .type = "a duration (\"5m\", 300)", .def = "300",
	  .help = "seconds of measuring for the whole run",
	  .why = "head could end its own measuring before a regression shows",
	  .read = rd_budget, .show = show_dbl, .adopt = adopt_dbl,
	  .off = C(budget) },
};

const struct config_key *config_key_table(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

const struct config_key *config_key_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static const char *owner_name(enum key_owner o)
{
	static const char *const names[] = { "policy", "definition",
					     "identity", "container" };

	return names[o];
}

const char *config_key_scope_name(const struct config_key *k, char *buf,
				  size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s", k->scope & KEY_TOP ? "top" : "",
		 (k->scope & KEY_TOP) && (k->scope & ~KEY_TOP) ? ", " : "",
		 k->scope & KEY_DEFAULTS ? "defaults" : "",
		 (k->scope & KEY_DEFAULTS) && (k->scope & KEY_BENCH) ? ", " :
		 "", k->scope & KEY_BENCH ? "benchmark" : "");
	return buf;
}

/* Two lists of strings, item by item. */
static int same_list(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

static int same_cmd(const struct command *a, const struct command *b)
{
	size_t i;

	if (!a->shell != !b->shell || !a->argv != !b->argv)
		return 0;
	if (a->shell)
		return !strcmp(a->shell, b->shell);
	for (i = 0; a->argv && a->argv[i] && b->argv[i]; i++)
		if (strcmp(a->argv[i], b->argv[i]))
			return 0;
	return !a->argv || (!a->argv[i] && !b->argv[i]);
}

static int same_dbl(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* One aspect of two benchmarks' metrics (show_aspect's), as values. */
static int same_aspect(enum aspect a, const struct bench_cfg *x,
		       const struct bench_cfg *y)
{
	size_t i = 0, j = 0;

	if (a != A_GATE) {
		if (x->nmetrics != y->nmetrics)
			return 0;
		for (i = 0; i < x->nmetrics; i++)
			if (x->metrics[i].id != y->metrics[i].id ||
			    (a == A_FLOOR && !same_dbl(x->metrics[i].min_effect,
						       y->metrics[i].min_effect)) ||
			    (a == A_EXCL &&
			     !same_dbl(x->metrics[i].pass_excludes,
				       y->metrics[i].pass_excludes)))
				return 0;
		return 1;
	}
	/* the gating metrics, in order */
	for (;;) {
		while (i < x->nmetrics && !x->metrics[i].gating)
			i++;
		while (j < y->nmetrics && !y->metrics[j].gating)
			j++;
		if (i == x->nmetrics || j == y->nmetrics)
			return i == x->nmetrics && j == y->nmetrics;
		if (x->metrics[i++].id != y->metrics[j++].id)
			return 0;
	}
}

/*
 * Key k's value in (bc, bb) and (hc, hb) compared as values of its type,
 * never as printed text: a list whose text is long, or an item holding
 * `", "`, prints ambiguously. The row's show function names the type.
 */
static int same_value(const struct config_key *k,
		      const struct config *bc, const struct bench_cfg *bb,
		      const struct config *hc, const struct bench_cfg *hb)
{
	const void *x = field(k, bc, bb), *y = field(k, hc, hb);

	if (k->show == show_uns)
		return *(const unsigned *)x == *(const unsigned *)y;
	if (k->show == show_dbl)
		return same_dbl(*(const double *)x, *(const double *)y);
	if (k->show == show_int)
		return *(const int *)x == *(const int *)y;
	if (k->show == show_list)
		return same_list(*(char *const *const *)x,
				 *(const size_t *)count_of(k, bc, bb),
				 *(char *const *const *)y,
				 *(const size_t *)count_of(k, hc, hb));
	if (k->show == show_cmd)
		return same_cmd(x, y);
	if (k->show == show_metrics)
		return same_aspect(A_IDS, bb, hb);
	if (k->show == show_gate)
		return same_aspect(A_GATE, bb, hb);
	if (k->show == show_floor)
		return same_aspect(A_FLOOR, bb, hb);
	if (k->show == show_excl)
		return same_aspect(A_EXCL, bb, hb);
	/* a row of a new type: never equal by default, so it is listed */
	return 0;
}

char *config_key_text(const struct config_key *k, const struct config *c,
		      const struct bench_cfg *b)
{
	size_t size = 256;
	char *buf;

	if (!k->show)
		return xstrdup("");
	for (;;) {
		buf = xmalloc(size);
		k->show(k, buf, size, c, b);
		/* the printers cut at size - 1: room to spare means whole */
		if (strlen(buf) + 1 < size)
			return buf;
		free(buf);
		size *= 2;
	}
}

int config_key_differs(const struct config_key *k,
		       const struct config *bc, const struct bench_cfg *bb,
		       const struct config *hc, const struct bench_cfg *hb,
		       char **bv, char **hv)
{
	if (!k->show || same_value(k, bc, bb, hc, hb))
		return 0;
	if (bv)
		*bv = config_key_text(k, bc, bb);
	if (hv)
		*hv = config_key_text(k, hc, hb);
	return 1;
}

/*
 * mdoc text, its words wrapped at 72 columns (mandoc's style); *col is
 * the current line's length. A line never starts with a '.' or '\''
 * (a macro), and backslashes are escaped.
 */
static void mdoc_words(FILE *out, const char *s, size_t *col)
{
	while (*s) {
		size_t n = strcspn(s, " "), i;

		if (*col && *col + 1 + n > 72) {
			fputc('\n', out);
			*col = 0;
		} else if (*col) {
			fputc(' ', out);
			(*col)++;
		}
		if (!*col && (*s == '.' || *s == '\'')) {
			fputs("\\&", out);
			*col += 2;
		}
		for (i = 0; i < n; i++) {
			if (s[i] == '\\')
				fputs("\\e", out);
			else
				fputc(s[i], out);
		}
		*col += n;
		s += n;
		while (*s == ' ')
			s++;
	}
}

void config_keys_print(FILE *out, int mdoc)
{
	size_t i, col;
	char where[64], line[1024];

	if (mdoc)
		fputs(".Bl -tag -width Ds\n", out);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct config_key *k = &keys[i];
		const char *def = k->def ? k->def : k->def_doc;

		config_key_scope_name(k, where, sizeof(where));
		if (!mdoc) {
			fprintf(out, "%-17s %-26s %s\n", k->name, where,
				owner_name(k->owner));
			fprintf(out, "    %s; %s%s%s\n", k->help, k->type,
				def ? ", default " : "", def ? def : "");
			fprintf(out, "    %s: %s\n",
				owner_name(k->owner), k->why);
			continue;
		}
		fprintf(out, ".It Cm %s\n", k->name);
		col = 0;
		snprintf(line, sizeof(line), "In %s; %s: %s.", where,
			 owner_name(k->owner), k->why);
		mdoc_words(out, line, &col);
		fputc('\n', out);
		col = 0;
		snprintf(line, sizeof(line), "%s; %s%s%s.", k->help, k->type,
			 def ? ", default " : "", def ? def : "");
		line[0] = (char)toupper((unsigned char)line[0]);
		mdoc_words(out, line, &col);
		fputc('\n', out);
	}
	if (mdoc)
		fputs(".El\n", out);
}
