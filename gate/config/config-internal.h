/*
 * Inside the gate.json parser, shared by its files: config.c walks the
 * document and says where a value is (messages at line:column),
 * config-read.c has each key's reader, config-keys.c the value readers
 * they share, config-rules.c checks what only a whole benchmark or file
 * can show and fills in the defaults.
 */
#ifndef GATE_CONFIG_PARSE_H
#define GATE_CONFIG_PARSE_H

#include <stddef.h>

#include "common/error.h"
#include "gate/config/config.h"
#include "common/jsonpos.h"

struct cJSON;

#define NAME_MAX_LEN 100
/* The deepest path we report on: benchmarks[i].run[k]. */
#define PATH_MAX_STEPS 8

#define EXAMPLE_BENCH "{\"name\": \"x\", \"run\": [\"./bench\"]}"

enum scope { SCOPE_TOP, SCOPE_DEFAULTS, SCOPE_BENCH };
/* Where a knob's value came from, to say which setting to change. */
enum source { SRC_BUILTIN, SRC_DEFAULTS, SRC_BENCH };

struct parser {
	const char *text;
	size_t len;
	const char *origin;
	struct jsonpos_step path[PATH_MAX_STEPS];	/* the value at hand */
	size_t depth;
	char where[160];	/* "in benchmark \"parse\"", for key errors */
	struct gate_err *err;	/* the caller's record, or NULL: print */
};

/* A benchmark's settings while they are resolved: defaults, then its own. */
struct knobs {
	struct bench_cfg b;
	enum source pairs_src, max_src, warmup_src;
	/* "gate": which of the metrics decide; all when not given */
	int gate_set;
	int gating[METRIC_COUNT];
	/* "min_effect": one number for every metric, or one per metric */
	double floor_all;		/* NAN: not given */
	double floor[METRIC_COUNT];	/* NAN: not given */
	/* "pass_excludes": the same shapes; unset means twice the floor */
	double excl_all;
	double excl[METRIC_COUNT];
	enum source floor_src, excl_src;	/* where each was given */
};

/* config.c: the path to the value at hand, and messages that point at it. */
void config_enter(struct parser *p, const char *key, size_t index);
void config_leave(struct parser *p);
/* Line and column of a value (or its key) at path; 0, or -1 if not found. */
int config_position(const struct parser *p, const struct jsonpos_step *path,
		    size_t n, int at_key, size_t *line, size_t *col);
/* An error at the value the current path names; returns -1. */
int config_fail(const struct parser *p, const char *fmt, ...) PRINTF(2, 3);
/* An error at the key of the member the current path names; -1. */
int config_fail_key(const struct parser *p, const char *fmt, ...)
	PRINTF(2, 3);
/* The value at the current path as written, for "got ...", in buf. */
const char *config_got(const struct parser *p, char *buf, size_t size);
/* s quoted for a message, escaped and cut; size at least 32. */
const char *config_quote(char *buf, size_t size, const char *s);
/* "1st", "2nd", ... */
const char *config_ordinal(char *buf, size_t size, size_t n);

/* The key being read: where its value goes. */
struct key_ctx {
	struct config *cfg;
	struct knobs *k;	/* "defaults" or the benchmark's settings */
	struct bench_cfg *b;	/* the benchmark; NULL outside one */
	enum source src;	/* where the value stands */
};

/* config.c: the two containers (rows of the key table). */
int config_parse_defaults(struct parser *p, const struct cJSON *it,
			  struct knobs *k, struct config *cfg);
int config_parse_benchmarks(struct parser *p, const struct cJSON *it,
			    struct knobs *k, struct config *cfg);
/* The member of obj at the current path (index j) through its table row. */
int config_read_member(struct parser *p, const struct cJSON *obj,
		       const struct cJSON *m, size_t j, enum scope scope,
		       struct key_ctx *c);

/* config-read.c: each key's reader, rd_KEY, called by its row in
   config-table.c with the key's value m; 0, or -1 after an error. */
typedef int key_reader(struct parser *p, const struct cJSON *m,
		       struct key_ctx *c);
key_reader rd_version, rd_build, rd_build_timeout, rd_cache_builds,
	rd_serial_build, rd_build_network, rd_pass_env, rd_build_caches,
	rd_artifacts, rd_sources, rd_writable, rd_defaults, rd_benchmarks,
	rd_name, rd_run, rd_check, rd_format, rd_expect, rd_ignore, rd_pairs,
	rd_max_pairs, rd_warmup, rd_metric, rd_metrics, rd_gate, rd_min_effect,
	rd_pass_excludes, rd_counter, rd_timeout, rd_parity, rd_statistic,
	rd_interval, rd_rule, rd_target_halfwidth, rd_confidence, rd_resamples,
	rd_budget;

/* config-keys.c: one value. Each returns 0, or -1 after an error. */
/* Member m (index j) of obj at the current path: known in scope (its row
   into *row), no repeat. */
struct config_key;
int config_keys_check(struct parser *p, const struct cJSON *obj,
		      const struct cJSON *m, size_t j, enum scope scope,
		      const struct config_key **row);
/* A whole number in [lo, hi] for key. */
int config_keys_whole(const struct parser *p, const struct cJSON *it,
		      const char *key, unsigned lo, unsigned hi,
		      unsigned *out);
int config_keys_is_number(const struct cJSON *it);
/* One of names (NULL-terminated), its index into *out. */
int config_keys_choice(const struct parser *p, const struct cJSON *it,
		       const char *key, const char *const *names, int *out);
/* "metric": one metric name; "metrics": a list; "gate": which gate. */
int config_keys_metric(struct parser *p, const struct cJSON *it,
		       struct knobs *k);
int config_keys_metric_list(struct parser *p, const struct cJSON *it,
			    const char *key, struct knobs *k);
int config_keys_gating(struct parser *p, const struct cJSON *it,
		       struct knobs *k);
/* "min_effect" or "pass_excludes": one fraction into *all or by metric. */
int config_keys_by_metric(struct parser *p, const struct cJSON *it,
			  const char *key, double *all, double *by);
/* A string (run by /bin/sh -c) or a list of strings (argv) into *out. */
int config_keys_command(struct parser *p, const struct cJSON *it,
			const char *key, const char *example,
			struct command *out);
int config_keys_name(const struct parser *p, const struct cJSON *it);
int config_keys_format(const struct parser *p, const struct cJSON *m,
		       struct bench_cfg *out);
/* A list of POSIX ERE case patterns into *list. */
int config_keys_patterns(struct parser *p, const struct cJSON *m,
			 const char *key, char ***list, size_t *count);
/* A list of paths or globs; inside: in the checkout (no "..", not
   absolute). */
int config_keys_paths(struct parser *p, const struct cJSON *m,
		      const char *key, int inside, char ***list,
		      size_t *count);
/* Every row with a default: the built-in values into k and cfg. */
void config_keys_defaults(struct parser *p, struct knobs *k,
			  struct config *cfg);

/* config-rules.c: defaults, and rules across keys. 0, or -1 after error. */
/* k and cfg before any default: nothing given, from nowhere. */
void config_rules_init(struct knobs *k, struct config *cfg);
/* "metric" and "metrics" in one object: one would silently win. */
int config_rules_metric_pair(struct parser *p, const struct cJSON *obj);
/* The i-th benchmark's settings k, all read, resolved and checked into out. */
int config_rules_bench(struct parser *p, struct knobs *k, size_t i,
		       struct bench_cfg *out);
/* Benchmark names are unique (they name files and report keys). */
int config_rules_unique_names(struct parser *p, const struct config *cfg);
/* Each benchmark without its own "artifacts" takes the top level's. */
void config_rules_artifacts(struct config *cfg);

#endif
