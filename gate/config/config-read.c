/*
 * Each gate.json key's reader, rd_KEY (config-internal.h): the parser calls
 * the row's reader at the member's path (config-table.c), and the reader
 * checks the value and stores it in the config or the benchmark's knobs.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "gate/config/config-internal.h"
#include "common/banned.h"

int rd_version(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	double d = m->valuedouble;
	char g[64];

	if (!config_keys_is_number(m) || d != floor(d) || d < 1)
		return config_fail(p, "\"version\" must be a whole number such "
				   "as %d, got %s", CONFIG_VERSION,
				   config_got(p, g, sizeof(g)));
	if (d > CONFIG_VERSION)
		return config_fail(p, "\"version\" %s is newer than this gate "
				   "understands (%d): upgrade gate",
				   config_got(p, g, sizeof(g)), CONFIG_VERSION);
	c->cfg->version = (int)d;
	return 0;
}

int rd_build(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_command(p, m, "build", "make", &c->cfg->build);
}

static int rd_seconds(struct parser *p, const cJSON *m, const char *key,
		      double *out)
{
	char g[64];

	if (config_keys_is_number(m) && m->valuedouble > 0 &&
	    m->valuedouble <= 86400) {
		*out = m->valuedouble;
		return 0;
	}
	return config_fail(p, "\"%s\" must be a number of seconds above 0 "
			   "and at most 86400, got %s", key,
			   config_got(p, g, sizeof(g)));
}

int rd_build_timeout(struct parser *p, const cJSON *m,
			    struct key_ctx *c)
{
	return rd_seconds(p, m, "build_timeout", &c->cfg->build_timeout);
}

int rd_cache_builds(struct parser *p, const cJSON *m,
			   struct key_ctx *c)
{
	return config_keys_whole(p, m, "cache_builds", 2, 26,
				 &c->cfg->cache_builds);
}

static int rd_bool(struct parser *p, const cJSON *m, const char *key,
		   int *out)
{
	char g[64];

	if (cJSON_IsBool(m)) {
		*out = cJSON_IsTrue(m);
		return 0;
	}
	return config_fail(p, "\"%s\" must be true or false, got %s", key,
			   config_got(p, g, sizeof(g)));
}

int rd_serial_build(struct parser *p, const cJSON *m,
			   struct key_ctx *c)
{
	return rd_bool(p, m, "serial_build", &c->cfg->serial_build);
}

int rd_build_network(struct parser *p, const cJSON *m,
			    struct key_ctx *c)
{
	return rd_bool(p, m, "build_network", &c->cfg->build_network);
}

int rd_pass_env(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	size_t i;
	char g[64];

	if (config_keys_paths(p, m, "pass_env", 0, &c->cfg->pass_env,
			      &c->cfg->npass_env) < 0)
		return -1;
	for (i = 0; i < c->cfg->npass_env; i++) {
		const char *s = c->cfg->pass_env[i];

		if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
			   "vwxyz0123456789_") != strlen(s) ||
		    (*s >= '0' && *s <= '9')) {
			config_enter(p, NULL, i);
			return config_fail(p, "each element of \"pass_env\" "
					   "must be an environment variable's "
					   "name, such as \"CCACHE_DIR\", got "
					   "%s", config_got(p, g, sizeof(g)));
		}
	}
	return 0;
}

int rd_build_caches(struct parser *p, const cJSON *m,
			   struct key_ctx *c)
{
	size_t i;
	char g[64];

	if (config_keys_paths(p, m, "build_caches", 0, &c->cfg->build_caches,
			      &c->cfg->nbuild_caches) < 0)
		return -1;
	for (i = 0; i < c->cfg->nbuild_caches; i++) {
		const char *s = c->cfg->build_caches[i];

		if ((s[0] != '/' && strncmp(s, "~/", 2)) || !strcmp(s, "/") ||
		    strstr(s, "..")) {
			config_enter(p, NULL, i);
			return config_fail(p, "each element of "
					   "\"build_caches\" must be an "
					   "absolute or ~/... directory "
					   "without \"..\", such as "
					   "\"~/.cache/ccache\", got %s",
					   config_got(p, g, sizeof(g)));
		}
	}
	return 0;
}

int rd_artifacts(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	if (!c->b)
		return config_keys_paths(p, m, "artifacts", 1, &c->cfg->artifacts,
					 &c->cfg->nartifacts);
	if (config_keys_paths(p, m, "artifacts", 1, &c->b->artifacts,
			      &c->b->nartifacts) < 0)
		return -1;
	c->b->artifacts_own = 1;
	return 0;
}

int rd_sources(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_paths(p, m, "sources", 1, &c->cfg->sources,
				 &c->cfg->nsources);
}

int rd_writable(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	/* outside the checkout is the point: "~/.cache/go-build" */
	return config_keys_paths(p, m, "writable", 0, &c->cfg->writable,
				 &c->cfg->nwritable);
}

int rd_defaults(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_parse_defaults(p, m, c->k, c->cfg);
}

int rd_benchmarks(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_parse_benchmarks(p, m, c->k, c->cfg);
}

int rd_name(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	if (config_keys_name(p, m) < 0)
		return -1;
	c->b->name = xstrdup(m->valuestring);
	return 0;
}

int rd_run(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_command(p, m, "run", "./bench", &c->b->run);
}

int rd_check(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_command(p, m, "check", "./roundtrip-test",
				   &c->b->check);
}

int rd_format(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_format(p, m, c->b);
}

int rd_expect(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_patterns(p, m, "expect", &c->b->expect,
				    &c->b->nexpect);
}

int rd_ignore(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_patterns(p, m, "ignore", &c->b->ignore,
				    &c->b->nignore);
}

int rd_pairs(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	c->k->pairs_src = c->src;
	return config_keys_whole(p, m, "pairs", 2, 10000, &c->k->b.pairs);
}

int rd_max_pairs(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	/* checked against "pairs" once the benchmark is complete */
	c->k->max_src = c->src;
	return config_keys_whole(p, m, "max_pairs", 2, 100000,
				 &c->k->b.max_pairs);
}

int rd_warmup(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	c->k->warmup_src = c->src;
	return config_keys_whole(p, m, "warmup", 0, 1000, &c->k->b.warmup);
}

int rd_metric(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_metric(p, m, c->k);
}

int rd_metrics(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_metric_list(p, m, "metrics", c->k);
}

int rd_gate(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_gating(p, m, c->k);
}

int rd_min_effect(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	c->k->floor_src = c->src;
	return config_keys_by_metric(p, m, "min_effect", &c->k->floor_all,
				     c->k->floor);
}

int rd_pass_excludes(struct parser *p, const cJSON *m,
			    struct key_ctx *c)
{
	c->k->excl_src = c->src;
	return config_keys_by_metric(p, m, "pass_excludes", &c->k->excl_all,
				     c->k->excl);
}

int rd_counter(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	static const char *const names[] = { "auto", "perf", "valgrind", NULL };
	int v;

	if (config_keys_choice(p, m, "counter", names, &v) < 0)
		return -1;
	c->k->b.counter = (enum counter)v;
	return 0;
}

int rd_timeout(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return rd_seconds(p, m, "timeout", &c->k->b.timeout);
}

int rd_parity(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return rd_bool(p, m, "parity", &c->k->b.parity);
}

int rd_statistic(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	const char *names[] = { stats_estimator_name(STATS_MEDIAN),
				stats_estimator_name(STATS_HL),
				stats_estimator_name(STATS_MEAN), NULL };
	int v;

	if (config_keys_choice(p, m, "statistic", names, &v) < 0)
		return -1;
	c->k->b.statistic = (enum stats_estimator)v;
	return 0;
}

int rd_interval(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	const char *names[] = { interval_name(INTERVAL_EXACT),
				interval_name(INTERVAL_PERCENTILE),
				interval_name(INTERVAL_BCA), NULL };
	int v;

	if (config_keys_choice(p, m, "interval", names, &v) < 0)
		return -1;
	c->k->b.interval = (enum interval_method)v;
	return 0;
}

int rd_rule(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	const char *names[] = { rule_name(RULE_FLOOR),
				rule_name(RULE_SIGNIFICANT), NULL };
	int v;

	if (config_keys_choice(p, m, "rule", names, &v) < 0)
		return -1;
	c->k->b.rule = (enum rule)v;
	return 0;
}

int rd_target_halfwidth(struct parser *p, const cJSON *m,
			       struct key_ctx *c)
{
	double d = m->valuedouble;
	char g[64];

	if (config_keys_is_number(m) && d > 0 && d < 10) {
		c->k->b.target_halfwidth = d;
		return 0;
	}
	return config_fail(p, "\"target_halfwidth\" must be a fraction above "
			   "0 and below 10 (0.02 means an interval of "
			   "+-2%%), got %s", config_got(p, g, sizeof(g)));
}

int rd_confidence(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	double d = m->valuedouble;
	char g[64];

	if (config_keys_is_number(m) && d > 0.5 && d < 1) {
		c->cfg->confidence = d;
		return 0;
	}
	return config_fail(p, "\"confidence\" must be a number above 0.5 and "
			   "below 1, such as 0.95, got %s",
			   config_got(p, g, sizeof(g)));
}

int rd_resamples(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	return config_keys_whole(p, m, "resamples", 1000, 1000000,
				 &c->cfg->resamples);
}

int rd_budget(struct parser *p, const cJSON *m, struct key_ctx *c)
{
	char g[64];

	/* the whole run's measuring time, not per benchmark */
	if (config_keys_is_number(m) && m->valuedouble > 0) {
		c->cfg->budget = m->valuedouble;
		return 0;
	}
	if (cJSON_IsString(m) &&
	    config_parse_duration(m->valuestring, &c->cfg->budget) == 0)
		return 0;
	return config_fail(p, "\"budget\" must be a positive duration such as "
			   "\"5m\", \"90s\" or 300 (seconds), got %s",
			   config_got(p, g, sizeof(g)));
}
