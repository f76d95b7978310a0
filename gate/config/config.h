/*
 * gate.json: parsing and validation into struct config. Every error names
 * origin:line:column, what was wrong and what was expected. Defaults are
 * documented in gate.json(5) and applied here, so later stages never guess.
 */
#ifndef GATE_CONFIG_H
#define GATE_CONFIG_H

#include <stddef.h>

#include "gate/format/format.h"
#include "gate/config/metrics.h"
#include "stats/stats.h"

/* How the interval of the statistic is drawn ("interval" in gate.json). */
enum interval_method {
	INTERVAL_EXACT,		/* distribution-free order statistics */
	INTERVAL_PERCENTILE,	/* bootstrap percentile */
	INTERVAL_BCA,		/* bootstrap bias-corrected and accelerated */
	INTERVAL_MANN_WHITNEY,	/* gate compare's (not gate.json's):
				   exact Mann-Whitney bounds of the
				   unpaired Hodges-Lehmann shift */
};

/* What a fail needs ("rule" in gate.json). */
enum rule {
	RULE_FLOOR,		/* the interval's lower bound above 1 + floor */
	RULE_SIGNIFICANT,	/* interval above 1, estimate above 1 + floor */
};

/* A command: argv (no shell) when argv != NULL, else shell via /bin/sh -c. */
struct command {
	char **argv;	/* NULL-terminated, owned; or NULL */
	char *shell;	/* owned; or NULL */
};

/* One metric of a benchmark: its floor, and whether it decides the verdict. */
struct metric_cfg {
	enum metric id;
	double min_effect;	/* floor f: fail needs the ratio above 1 + f */
	double pass_excludes;	/* m: a pass must exclude a regression of m
				   (default 2f; --strict sets m = f) */
	int gating;		/* 0: informational, shown but never decides */
};

struct bench_cfg {
	char *name;
	struct command run;
	struct command check;	/* once per arm before timing; NULL: none */
	unsigned pairs;		/* >= 2 */
	unsigned max_pairs;	/* >= pairs; more pairs while unresolved */
	unsigned warmup;	/* runs per arm, excluded from statistics */
	enum metric metric;	/* the first gating metric */
	double min_effect;	/* its floor */
	struct metric_cfg metrics[METRIC_COUNT];	/* in gate.json's order */
	size_t nmetrics;	/* >= 1 */
	enum counter counter;	/* instruction counter backend wanted */
	double timeout;		/* seconds per sample, > 0 */
	int parity;		/* 1: stdout must be identical within an arm */
	enum stats_estimator statistic;	/* of the log-ratios */
	enum interval_method interval;
	enum rule rule;
	double target_halfwidth;	/* resolved when the interval is this
					   narrow (fraction; default floor) */
	enum format format;	/* how stdout is read (FORMAT_TIME: not) */
	char **expect;		/* suite: POSIX ERE patterns each matching a
				   case; owned, nexpect of them */
	size_t nexpect;
	char **ignore;		/* suite: POSIX ERE patterns of cases not
				   compared (accepted as unmeasurable);
				   owned, nignore of them */
	size_t nignore;
	char **artifacts;	/* paths or globs of what the build makes,
				   relative to the checkout (owned; the
				   config's when not its own) */
	size_t nartifacts;
	int artifacts_own;	/* 1: artifacts is this benchmark's (an
				   empty list: none, not the config's) */
	/* set only on a suite's per-case benchmarks, which gate run makes */
	const char *unit;	/* NULL: metric_unit(metric) */
	int higher_better;	/* a rate: ratio base/head */
	int counted;		/* the unit counts (B/op, allocs/op): decided
				   like an exact count, at the count floor */
	/* a suite case's values by slot (metric METRIC_VALUE + k); slot 0
	   repeats unit, higher_better and counted above */
	struct value_slot {
		const char *label;	/* "B/op", "cache_misses", "B/s" */
		const char *unit;
		int higher_better, counted;
		int throughput;	/* restates the time: shown, not decided */
	} values[METRIC_VALUES];
	size_t inner;		/* most values one process gave (repetitions) */
	enum metric suite_metric;	/* its suite's: gbench cpu or real */
	/* the plan's copy of a redefined timed benchmark only: base's own
	   (its "run" runs in base's arm), or NULL: one command, the same
	   text in both arms (each arm's "check" is its own gate.json's) */
	const struct bench_cfg *base_def;
	int judged;		/* the plan's copy only: base declares it and
				   its rules judge what head removed
				   (gate/decide/arms.c), so a case "expect" names
				   that head no longer prints is a removal,
				   not an error */
	char *redefined;	/* the plan's copy only: how head's definition
				   differs from base's ("run: base ./a, head
				   ./b"), or NULL (owned by the plan) */
};

/* The command benchmark b runs in arm a (0 base, 1 head). */
static inline const struct command *bench_arm_run(const struct bench_cfg *b,
						  int a)
{
	return a == 0 && b->base_def ? &b->base_def->run : &b->run;
}


/* The slot of a suite case's value metric m, or NULL for other metrics. */
static inline const struct value_slot *bench_value_slot(
	const struct bench_cfg *c, enum metric m)
{
	return METRIC_IS_VALUE(m) && c->values[m - METRIC_VALUE].unit ?
	       &c->values[m - METRIC_VALUE] : NULL;
}

struct config {
	int version;
	struct command build;	/* both NULL: nothing to build */
	double confidence;	/* suite-wide, in (0.5, 1) */
	unsigned resamples;	/* bootstrap resamples */
	struct bench_cfg *benches;
	size_t nbench;
	double budget;		/* seconds of measuring for the whole run */
	double build_timeout;	/* seconds the build may take, per arm */
	unsigned cache_builds;	/* checkouts kept with their builds */
	int serial_build;	/* 1: build one arm after the other */
	int build_network;	/* 1: builds and checks keep the network in
				   their sandbox */
	char **pass_env;	/* "pass_env": variables an arm's runs get
				   beyond the sandbox's allowlist */
	size_t npass_env;
	char **build_caches;	/* "build_caches": directories (absolute or
				   ~/...) each arm gets a private one at */
	size_t nbuild_caches;
	char **artifacts;	/* top-level "artifacts": every benchmark's
				   without its own (owned) */
	size_t nartifacts;
	char **sources;		/* "sources": globs of the build's inputs
				   (owned) */
	size_t nsources;
	char **writable;	/* "writable": paths a benchmark may write
				   outside its arm (owned) */
	size_t nwritable;
};
#define CONFIG_INIT { .version = 1, .confidence = 0.95, .resamples = 10000, \
		      .budget = CONFIG_DEFAULT_BUDGET, \
		      .build_timeout = CONFIG_DEFAULT_BUILD_TIMEOUT, \
		      .cache_builds = CONFIG_DEFAULT_CACHE_BUILDS }

/* Defaults that apply when neither "defaults" nor a benchmark sets a key. */
#define CONFIG_DEFAULT_PAIRS 20
/*
 * A cap only: the time budget ends a run first for any benchmark slower
 * than 75 ms (2000 pairs of two samples in 300 s); below Hodges-Lehmann's
 * 3000-pair limit.
 */
#define CONFIG_DEFAULT_MAX_PAIRS 2000
/* Seconds of measuring a run may take (first looks always run): what a
   pull-request check can afford. */
#define CONFIG_DEFAULT_BUDGET 300.0
#define CONFIG_DEFAULT_WARMUP 2
#define CONFIG_DEFAULT_CONFIDENCE 0.95
#define CONFIG_DEFAULT_MIN_EFFECT 0.05
#define CONFIG_DEFAULT_TIMEOUT 60.0
/* An hour: a build that takes longer is stopped (process group) */
#define CONFIG_DEFAULT_BUILD_TIMEOUT 3600.0
/* Checkouts kept with their builds (.git/gate/a, b, ...): 2 to 26 */
#define CONFIG_DEFAULT_CACHE_BUILDS 4
#define CONFIG_DEFAULT_RESAMPLES 10000
#define CONFIG_DEFAULT_STATISTIC STATS_HL
#define CONFIG_DEFAULT_INTERVAL INTERVAL_EXACT
#define CONFIG_VERSION 1
/* gate.json larger than this is refused, before it is read whole */
#define CONFIG_MAX_MIB 16
#define CONFIG_MAX_BYTES ((size_t)CONFIG_MAX_MIB << 20)

/*
 * Parse text (len bytes, need not be NUL-terminated) into cfg. origin names
 * the source in messages ("gate.json", "gate.json at 1a2b3c4"). Returns 0,
 * or -1 after printing one error via error(); cfg is then released.
 * cfg is overwritten first (it need not be initialised); on success the
 * caller frees it with config_release. Columns in messages count UTF-8
 * characters; a leading UTF-8 byte order mark is skipped; more than 16 MiB
 * is refused.
 */
int config_parse(struct config *cfg, const char *text, size_t len,
		 const char *origin);
/* config_parse with the message in *err, not printed (common/error.h). */
struct gate_err;
int config_parse_to(struct config *cfg, const char *text, size_t len,
		    const char *origin, struct gate_err *err);
/*
 * A duration such as "90s", "5m", "1h", "250ms" or "300" (seconds) in
 * seconds into *out. Returns 0, or -1 (nothing set) when s is not a
 * positive, finite duration.
 */
int config_parse_duration(const char *s, double *out);
/* Free everything cfg owns and reset it to CONFIG_INIT; safe to repeat. */
void config_release(struct config *cfg);
/* Find a benchmark by name, or NULL. */
const struct bench_cfg *config_find(const struct config *cfg,
				    const char *name);
/* "exact", "percentile", "bca". */
const char *interval_name(enum interval_method m);
/* "floor", "significant". */
const char *rule_name(enum rule r);
/* 1 when the benchmark measures metric m (gating or not). */
int bench_has_metric(const struct bench_cfg *b, enum metric m);

/* Free c's argv or shell and set both to NULL; safe to repeat. */
void command_release(struct command *c);

#endif
