/*
 * Every gate.json key, declared once: where it may stand, who decides it
 * (base's policy, or each arm's own definition, and why), its default and
 * its help. The parser, the defaults, base's policy over head's config
 * (plan.c), `gate help gate.json` and the man page's key list read it.
 */
#ifndef GATE_CONFIG_TABLE_H
#define GATE_CONFIG_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "gate/config/config.h"

/* Where a key may stand (bits). */
enum key_scope {
	KEY_TOP = 1,		/* the top-level object */
	KEY_DEFAULTS = 2,	/* "defaults" */
	KEY_BENCH = 4,		/* one benchmark of "benchmarks" */
};

/* Whose gate.json decides a key. */
enum key_owner {
	/* base's: a pull request cannot loosen its own gate; head's
	   difference is listed and ignored (unless --policy head) */
	OWNER_POLICY,
	/* each arm's own revision: how that revision builds and runs */
	OWNER_DEFINITION,
	/* names a benchmark in both arms: a rename is a removal and a new
	   benchmark */
	OWNER_IDENTITY,
	/* holds other keys, each with its own owner */
	OWNER_CONTAINER,
};

struct parser;
struct cJSON;
struct key_ctx;

struct config_key {
	const char *name;
	unsigned scope;		/* enum key_scope bits */
	enum key_owner owner;
	const char *type;	/* the value, in words */
	const char *def;	/* the built-in default as JSON, applied by
				   the parser; NULL: none or computed */
	const char *def_doc;	/* the default in words */
	const char *help;
	const char *why;	/* why this owner decides it */
	int redefines;		/* a definition key: head's difference makes
				   the benchmark "redefined" */
	/* private to gate/config*.c and gate/decide/plan.c */
	int (*read)(struct parser *p, const struct cJSON *m,
		    struct key_ctx *c);
	/* the resolved value as text (NULL: compared through another key) */
	void (*show)(const struct config_key *k, char *buf, size_t size,
		     const struct config *c, const struct bench_cfg *b);
	/* base's resolved value (c, b) onto the plan's copy (dc, db) */
	void (*adopt)(const struct config_key *k, struct config *dc,
		      struct bench_cfg *db, const struct config *c,
		      const struct bench_cfg *b);
	size_t off, off2;	/* the field (and its count) that show and
				   adopt read: in struct bench_cfg for keys
				   with KEY_BENCH, else in struct config */
};

/* The table, in gate.json's documented order; *n gets its length. */
const struct config_key *config_key_table(size_t *n);
/* The row of name, or NULL. */
const struct config_key *config_key_find(const char *name);
/* "top", "defaults, benchmark", ... for key k. */
const char *config_key_scope_name(const struct config_key *k, char *buf,
				  size_t size);
/*
 * Whether key k of benchmark b (or of the config, for keys without
 * KEY_BENCH) differs between base (bc, bb) and head (hc, hb), compared as
 * values of the key's type, never as their printed text. 0 when equal;
 * 1 when they differ, and then *bv and *hv (when not NULL) get the two
 * values as whole text (the caller frees them).
 */
int config_key_differs(const struct config_key *k,
		       const struct config *bc, const struct bench_cfg *bb,
		       const struct config *hc, const struct bench_cfg *hb,
		       char **bv, char **hv);
/* Key k's resolved value in (c, b) as text, whole (the caller frees it;
   "" for a key shown through another). */
char *config_key_text(const struct config_key *k, const struct config *c,
		      const struct bench_cfg *b);
/*
 * `gate help gate.json`: every key with where it goes, its owner, default,
 * meaning and why that owner decides, as text (mdoc 0) or as the mdoc
 * list of gate.json(5)'s KEYS section (mdoc 1).
 */
void config_keys_print(FILE *out, int mdoc);

#endif
