/*
 * gate.json: the entry and the walk. jsonpos checks the syntax and finds
 * positions (cJSON keeps none); cJSON builds the tree, which is walked here
 * object by object; config-keys.c reads each value, config-rules.c checks
 * what spans keys. Every error is one error() call naming
 * origin:line:column and the fix.
 */
#include "gate/config/config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "common/error.h"
#include "gate/config/config-internal.h"
#include "gate/config/config-table.h"
#include "common/jsonpos.h"
#include "common/banned.h"

/* gate.json is a few hundred bytes; more than this is the wrong file. */

void config_enter(struct parser *p, const char *key, size_t index)
{
	if (p->depth < PATH_MAX_STEPS) {
		p->path[p->depth].key = key;
		p->path[p->depth].index = index;
	}
	p->depth++;
}

void config_leave(struct parser *p)
{
	p->depth--;
}


int config_position(const struct parser *p, const struct jsonpos_step *path,
		    size_t n, int at_key, size_t *line, size_t *col)
{
	size_t off;
	int r;

	if (n > PATH_MAX_STEPS)
		return -1;
	r = at_key ? jsonpos_key(p->text, p->len, path, n, &off) :
		     jsonpos_value(p->text, p->len, path, n, &off);
	if (r < 0)
		return -1;
	jsonpos_linecol(p->text, p->len, off, line, col);
	return 0;
}

static int vfail(const struct parser *p, int at_key, const char *fmt,
		 va_list ap) PRINTF(3, 0);

static int vfail(const struct parser *p, int at_key, const char *fmt,
		 va_list ap)
{
	char msg[1024];
	size_t line, col;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (config_position(p, p->path, p->depth, at_key, &line, &col) < 0)
		return error_to(p->err, "%s: %s", p->origin, msg);
	return error_to(p->err, "%s:%zu:%zu: %s", p->origin, line,
			col, msg);
}

/* Report an error at the value the current path names; returns -1. */
int config_fail(const struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(p, 0, fmt, ap);
	va_end(ap);
	return r;
}

/* Report an error at the key of the member the current path names. */
int config_fail_key(const struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(p, 1, fmt, ap);
	va_end(ap);
	return r;
}

/*
 * The value at the current path as written in the file, for "got ...":
 * numbers and literals verbatim (so 1e400 reads 1e400, not inf), strings
 * with their quotes and escapes, long ones cut, containers by kind.
 */
const char *config_got(const struct parser *p, char *buf, size_t size)
{
	size_t off, end, n, cut;

	if (jsonpos_value(p->text, p->len, p->path, p->depth, &off) < 0 ||
	    jsonpos_skip(p->text, p->len, off, &end) < 0)
		return "something else";
	if (p->text[off] == '{')
		return "an object";
	if (p->text[off] == '[')
		return "an array";
	n = end - off;
	if (n <= 40) {
		snprintf(buf, size, "%.*s", (int)n, p->text + off);
		return buf;
	}
	cut = 36;	/* at a character boundary */
	while (cut > 1 && ((unsigned char)p->text[off + cut] & 0xc0) == 0x80)
		cut--;
	snprintf(buf, size, "%.*s...%s", (int)cut, p->text + off,
		 p->text[off] == '"' ? "\"" : "");
	return buf;
}

/*
 * s in double quotes for a message, control characters escaped and long
 * strings cut; size must be at least 32.
 */
const char *config_quote(char *buf, size_t size, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, i;

	buf[o++] = '"';
	for (i = 0; u[i]; i++) {
		unsigned char c = u[i];

		/* Room for one escape, "...", the quote and the NUL. */
		if ((c & 0xc0) != 0x80 && (i >= 60 || o + 16 >= size)) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c == '"' || c == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(buf + o, size - o, "\\u%04x", c);
			o += 6;
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

const char *config_ordinal(char *buf, size_t size, size_t n)
{
	const char *suffix = "th";

	if (n % 100 < 11 || n % 100 > 13) {
		if (n % 10 == 1)
			suffix = "st";
		else if (n % 10 == 2)
			suffix = "nd";
		else if (n % 10 == 3)
			suffix = "rd";
	}
	snprintf(buf, size, "%zu%s", n, suffix);
	return buf;
}

int config_read_member(struct parser *p, const cJSON *obj, const cJSON *m,
		       size_t j, enum scope scope, struct key_ctx *c)
{
	const struct config_key *row = NULL;
	int r;

	if (config_keys_check(p, obj, m, j, scope, &row) < 0)
		return -1;
	config_enter(p, NULL, j);
	r = row->read(p, m, c);
	if (r == 0)
		config_leave(p);
	return r;
}

static int parse_bench(struct parser *p, const cJSON *it, size_t i,
		       const struct knobs *defaults, struct config *cfg,
		       struct bench_cfg *out)
{
	const cJSON *m, *name;
	struct knobs k = *defaults;
	struct key_ctx c = { .cfg = cfg, .k = &k, .b = out, .src = SRC_BENCH };
	char g[64], ord[32];
	size_t j;

	config_enter(p, NULL, i);
	if (!cJSON_IsObject(it))
		return config_fail(p, "each benchmark must be an object like "
				   EXAMPLE_BENCH ", got %s",
				   config_got(p, g, sizeof(g)));
	/* Name it in messages when its "name" is usable, else by position. */
	name = cJSON_GetObjectItemCaseSensitive(it, "name");
	if (cJSON_IsString(name) && *name->valuestring &&
	    strlen(name->valuestring) <= NAME_MAX_LEN)
		snprintf(p->where, sizeof(p->where), "in benchmark %s",
			 config_quote(g, sizeof(g), name->valuestring));
	else
		snprintf(p->where, sizeof(p->where), "in the %s benchmark",
			 config_ordinal(ord, sizeof(ord), i + 1));
	if (config_rules_metric_pair(p, it) < 0)
		return -1;
	out->format = FORMAT_TIME;
	for (m = it->child, j = 0; m; m = m->next, j++)
		if (config_read_member(p, it, m, j, SCOPE_BENCH, &c) < 0)
			return -1;
	if (!out->name)
		return config_fail(p, "the %s benchmark has no \"name\": add "
				   "one, such as \"name\": \"parse\"",
				   config_ordinal(ord, sizeof(ord), i + 1));
	if (!out->run.argv && !out->run.shell)
		return config_fail(p, "benchmark %s has no \"run\": add the "
				   "command, such as \"run\": [\"./bench\"]",
				   config_quote(g, sizeof(g), out->name));
	if (config_rules_bench(p, &k, i, out) < 0)
		return -1;
	config_leave(p);
	return 0;
}

int config_parse_defaults(struct parser *p, const cJSON *it, struct knobs *k,
			  struct config *cfg)
{
	struct key_ctx c = { .cfg = cfg, .k = k, .src = SRC_DEFAULTS };
	const cJSON *m;
	size_t j;
	char g[64];

	if (!cJSON_IsObject(it))
		return config_fail(p, "\"defaults\" must be an object like "
				   "{\"pairs\": 20}, got %s",
				   config_got(p, g, sizeof(g)));
	snprintf(p->where, sizeof(p->where), "in \"defaults\"");
	if (config_rules_metric_pair(p, it) < 0)
		return -1;
	for (m = it->child, j = 0; m; m = m->next, j++)
		if (config_read_member(p, it, m, j, SCOPE_DEFAULTS, &c) < 0)
			return -1;
	return 0;
}

int config_parse_benchmarks(struct parser *p, const cJSON *it,
			    struct knobs *k, struct config *cfg)
{
	const cJSON *m;
	size_t n, i;
	char g[64];

	if (!cJSON_IsArray(it))
		return config_fail(p, "\"benchmarks\" must be a list like ["
				   EXAMPLE_BENCH "], got %s",
				   config_got(p, g, sizeof(g)));
	for (n = 0, m = it->child; m; m = m->next)
		n++;
	if (!n)
		return config_fail(p, "\"benchmarks\" is empty: add a "
				   "benchmark like " EXAMPLE_BENCH);
	cfg->benches = xcalloc(n, sizeof(*cfg->benches));
	for (i = 0, m = it->child; m; m = m->next, i++) {
		/* Counted first, so config_release frees a partial entry. */
		cfg->nbench = i + 1;
		if (parse_bench(p, m, i, k, cfg, &cfg->benches[i]) < 0)
			return -1;
	}
	return 0;
}

/*
 * The top level: every key is checked first (a misspelt one is reported
 * before anything else), then read in the table's order, so "version"
 * comes before all and "defaults" before "benchmarks".
 */
static int parse_top(struct parser *p, const cJSON *root, struct config *cfg)
{
	struct knobs k;
	struct key_ctx c = { .cfg = cfg, .k = &k, .src = SRC_DEFAULTS };
	const struct config_key *t, *row;
	const cJSON *m, *it;
	size_t j, n, i;
	char g[64];

	if (!cJSON_IsObject(root))
		return config_fail(p, "the top level must be an object like "
				   "{\"benchmarks\": [" EXAMPLE_BENCH "]}, "
				   "got %s", config_got(p, g, sizeof(g)));
	config_rules_init(&k, cfg);
	config_keys_defaults(p, &k, cfg);
	/* First, so a newer file is not misreported as having unknown keys. */
	it = cJSON_GetObjectItemCaseSensitive(root, "version");
	snprintf(p->where, sizeof(p->where), "at the top level");
	t = config_key_table(&n);
	for (m = root->child, j = 0; m; m = m->next, j++)
		if (m == it && config_read_member(p, root, m, j, SCOPE_TOP,
						  &c) < 0)
			return -1;
	for (m = root->child, j = 0; m; m = m->next, j++)
		if (config_keys_check(p, root, m, j, SCOPE_TOP, &row) < 0)
			return -1;
	for (i = 0; i < n; i++) {
		if (!(t[i].scope & KEY_TOP) || !strcmp(t[i].name, "version"))
			continue;
		for (m = root->child, j = 0; m && strcmp(m->string, t[i].name);
		     m = m->next, j++)
			;
		if (!m)
			continue;
		snprintf(p->where, sizeof(p->where), "at the top level");
		if (config_read_member(p, root, m, j, SCOPE_TOP, &c) < 0)
			return -1;
	}
	if (!cJSON_GetObjectItemCaseSensitive(root, "benchmarks"))
		return error_to(p->err, "%s: \"benchmarks\" is missing: add "
				"a list like [" EXAMPLE_BENCH "]", p->origin);
	config_rules_artifacts(cfg);
	return config_rules_unique_names(p, cfg);
}

static int only_whitespace(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

int config_parse(struct config *cfg, const char *text, size_t len,
		 const char *origin)
{
	return config_parse_to(cfg, text, len, origin, NULL);
}

int config_parse_to(struct config *cfg, const char *text, size_t len,
		    const char *origin, struct gate_err *err)
{
	static const struct config init = CONFIG_INIT;
	struct parser p;
	struct jsonpos_error jerr;
	cJSON *root;
	const char *end = NULL;
	char *copy;
	size_t line, col, off;
	int ret;

	*cfg = init;
	if (!origin)
		origin = "gate.json";
	if (!text)
		len = 0;
	if (len > CONFIG_MAX_BYTES)
		return error_to(err, "%s: the configuration is %zu bytes, "
				"more than the %d MiB gate reads: is it the "
				"right file?", origin, len, CONFIG_MAX_MIB);
	/* Skip a byte order mark: editors hide it, so columns then match. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	if (only_whitespace(text, len))
		return error_to(err, "%s: the configuration is empty: write "
				"an object like {\"benchmarks\": ["
				EXAMPLE_BENCH "]}", origin);
	if (jsonpos_check(text, len, &jerr) < 0) {
		jsonpos_linecol(text, len, jerr.off, &line, &col);
		return error_to(err, "%s:%zu:%zu: %s", origin, line, col,
				jerr.msg);
	}

	/* cJSON gets its own NUL-terminated copy: text need not be one. */
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	root = cJSON_ParseWithLengthOpts(copy, len, &end, 0);
	if (!root) {
		/* jsonpos_check is stricter, so this is cJSON out of memory. */
		off = end && end >= copy && end <= copy + len ?
		      (size_t)(end - copy) : 0;
		jsonpos_linecol(text, len, off, &line, &col);
		free(copy);
		return error_to(err, "%s:%zu:%zu: cJSON could not parse the "
				"configuration here (out of memory?)", origin,
				line, col);
	}

	memset(&p, 0, sizeof(p));
	p.text = copy;
	p.len = len;
	p.origin = origin;
	p.err = err;
	ret = parse_top(&p, root, cfg);
	cJSON_Delete(root);
	free(copy);
	if (ret < 0)
		config_release(cfg);
	return ret;
}

void config_release(struct config *cfg)
{
	static const struct config init = CONFIG_INIT;
	size_t i;

	for (i = 0; i < cfg->nbench; i++) {
		size_t j;

		free(cfg->benches[i].name);
		command_release(&cfg->benches[i].run);
		command_release(&cfg->benches[i].check);
		for (j = 0; j < cfg->benches[i].nexpect; j++)
			free(cfg->benches[i].expect[j]);
		free(cfg->benches[i].expect);
		for (j = 0; j < cfg->benches[i].nignore; j++)
			free(cfg->benches[i].ignore[j]);
		free(cfg->benches[i].ignore);
		if (cfg->benches[i].artifacts_own) {
			for (j = 0; j < cfg->benches[i].nartifacts; j++)
				free(cfg->benches[i].artifacts[j]);
			free(cfg->benches[i].artifacts);
		}
	}
	for (i = 0; i < cfg->nartifacts; i++)
		free(cfg->artifacts[i]);
	free(cfg->artifacts);
	for (i = 0; i < cfg->nsources; i++)
		free(cfg->sources[i]);
	free(cfg->sources);
	for (i = 0; i < cfg->nwritable; i++)
		free(cfg->writable[i]);
	free(cfg->writable);
	for (i = 0; i < cfg->npass_env; i++)
		free(cfg->pass_env[i]);
	free(cfg->pass_env);
	for (i = 0; i < cfg->nbuild_caches; i++)
		free(cfg->build_caches[i]);
	free(cfg->build_caches);
	free(cfg->benches);
	command_release(&cfg->build);
	*cfg = init;
}

const struct bench_cfg *config_find(const struct config *cfg,
				    const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < cfg->nbench; i++)
		if (cfg->benches[i].name && !strcmp(cfg->benches[i].name, name))
			return &cfg->benches[i];
	return NULL;
}

int bench_has_metric(const struct bench_cfg *b, enum metric m)
{
	size_t i;


	for (i = 0; i < b->nmetrics; i++)
		if (b->metrics[i].id == m)
			return 1;
	return 0;
}

void command_release(struct command *c)
{
	size_t i;

	if (c->argv) {
		for (i = 0; c->argv[i]; i++)
			free(c->argv[i]);
		free(c->argv);
	}
	free(c->shell);
	c->argv = NULL;
	c->shell = NULL;
}
