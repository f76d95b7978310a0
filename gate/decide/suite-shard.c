/*
 * A suite's cases listed by its harness, and the ones a shard keeps
 * (suite-shard.h): the listing command from its format's row (gbench and
 * go run one iteration of each case, the lines protocol prints its names
 * under GATE_LIST=1), and the names and weights it printed.
 */
#include "gate/decide/suite-shard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/decide/suite.h"
#include "gate/measure/suite-filter.h"
#include "common/banned.h"

#define LIST_MAX ((size_t)16 << 20)

int suite_can_list(const struct bench_cfg *cfg)
{
	return format_reader(cfg->format)->list != NULL;
}

/* The listing command of cfg's harness into out: its row's list hook,
   GATE_LIST=1 exported when it runs through the shell. */
static void list_cmd(struct command *out, const struct bench_cfg *cfg)
{
	const struct format_reader *r = format_reader(cfg->format);
	struct fmt_cmd_edit e = FMT_CMD_EDIT_INIT;

	if (r->list)
		r->list(&e, cfg->run.argv, cfg->run.shell);
	harness_cmd(out, &cfg->run, &e, "GATE_LIST", "1", 0);
	fmt_cmd_edit_release(&e);
}

int suite_names_have(char *const *names, size_t n, const char *s,
		     size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return 1;
	return 0;
}

/* The names a listing gives, growing as it is read. */
struct listed_names {
	char **names;
	unsigned *weights;
	size_t n, names_cap, weights_cap;
};

/* Append name (len bytes) with weight w to l, once. */
static void add_name(struct listed_names *l, const char *name, size_t len,
		     unsigned w)
{
	if (suite_names_have(l->names, l->n, name, len))
		return;
	XGROW(l->names, l->names_cap, l->n + 1);
	XGROW(l->weights, l->weights_cap, l->n + 1);
	l->names[l->n] = xasprintf("%.*s", (int)len, name);
	l->weights[l->n++] = w;
}

/* add_name with weight 1, for a row's list_names. */
static void add_listed(void *ctx, const char *name, size_t len)
{
	add_name(ctx, name, len, 1);
}

/*
 * The comparisons a case of format f with units u[0..k) adds, as
 * verdict_comparisons counts them once it is a case: its time and every
 * further unit decided by an interval, one in all when only counts (exact)
 * gate; a throughput restating the time adds none.
 */
static unsigned case_weight(enum format f, const char *const *u, size_t k)
{
	size_t i, t = 0, c = 0;

	for (i = 0; i < k && i < METRIC_VALUES; i++) {
		if (i > 0 && suite_restates_time(f, u[i]))
			continue;
		if (unit_is_count(u[i]))
			c++;
		else
			t++;
	}
	return (unsigned)(t ? t : c ? 1 : 0);
}

/* A listing that printed results (go's one iteration, lines): the cases
   and their weights. 0, or -1 with why in *err when out does not parse. */
static int parse_results(struct listed_names *l, enum format f,
			 const char *out, size_t len, struct gate_err *err)
{
	struct fmt_table t = FMT_TABLE_INIT;
	struct fmt_opts o = { .allow_zero = 1 };
	const char *u[METRIC_VALUES];
	size_t i, j, k;

	o.err = err;
	if (format_parse(&t, f, out, len, "listing", &o) < 0)
		return -1;
	for (i = 0; i < t.n; i++) {
		if (suite_names_have(l->names, l->n, t.cases[i].name,
			 strlen(t.cases[i].name)))
			continue;
		for (j = i, k = 0; j < t.n && k < METRIC_VALUES; j++)
			if (!strcmp(t.cases[j].name, t.cases[i].name))
				u[k++] = t.cases[j].unit;
		add_name(l, t.cases[i].name,
			 strlen(t.cases[i].name), case_weight(f, u, k));
	}
	fmt_table_release(&t);
	return 0;
}

int suite_list_cases(char ***names, unsigned **weights, size_t *n,
		     const struct bench_cfg *cfg, const char *dir,
		     const char *arm, struct gate_err *err)
{
	struct command cmd;
	struct run_spec spec;
	struct run_result res;
	struct gate_err bad;
	struct listed_names l = { 0 };
	const struct format_reader *r = format_reader(cfg->format);
	char how[128];

	*names = NULL;
	*weights = NULL;
	*n = 0;
	list_cmd(&cmd, cfg);
	spec = (struct run_spec){ .cmd = &cmd, .cwd = dir,
				  .timeout = cfg->timeout, .grace = 2,
				  .log_fd = -1, .capture = LIST_MAX };
	memset(&res, 0, sizeof(res));
	if (run_one(&res, &spec) < 0) {
		command_release(&cmd);
		return error_to(err, "benchmark \"%s\": could not start its "
				"listing run in %s", cfg->name, arm);
	}
	command_release(&cmd);
	if (res.status != RUN_OK || res.out_overflow) {
		int rc = error_to(err, "benchmark \"%s\": the listing run of "
				  "its cases in %s %s%s%s: --shard splits a "
				  "suite by the cases its harness lists (%s: "
				  "%s)",
				  cfg->name, arm,
				  res.out_overflow ? "printed more than 16 MiB" : run_describe(&res, how, sizeof(how)),
				  *res.err_tail ? ": " : "", res.err_tail,
				  format_name(cfg->format), r->list_how ?
				  r->list_how : "no listing");
		free(res.out);
		return rc;
	}
	/* gbench, go: one iteration's results; lines: names, or results */
	if (parse_results(&l, cfg->format,
			  res.out ? res.out : "", res.out_len, &bad) < 0) {
		if (!r->list_names) {
			free(res.out);
			return error_to(err, "benchmark \"%s\": its listing "
					"run in %s (%s) did not read as %s "
					"output: %s", cfg->name, arm,
					r->list_how ? r->list_how : "",
					format_name(cfg->format), bad.msg);
		}
		r->list_names(res.out ? res.out : "", res.out_len,
			      add_listed, &l);
	}
	free(res.out);
	*names = l.names;
	*weights = l.weights;
	*n = l.n;
	if (!*n)
		return error_to(err, "benchmark \"%s\": its listing run in %s "
				"printed no case: --shard splits a suite by "
				"the cases its harness lists (the lines "
				"protocol prints each case's name, one a line, "
				"when GATE_LIST=1 is set)", cfg->name, arm);
	return 0;
}

void suite_names_release(char **names, unsigned *weights, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(weights);
}

int suite_shard_keeps(const struct suite_shard_owned *own,
		      const char *suite, const char *name)
{
	size_t i;

	for (i = 0; own && i < own->nmine; i++) {
		const struct suite_shard_cases *m = &own->mine[i];
		size_t k, top;

		if (strcmp(m->suite, suite))
			continue;
		if (!m->group)
			return suite_names_have(m->names, m->n, name,
						strlen(name));
		/* what the filter selects (go's top-level benchmark): a
		   case its listing lacked goes with its group */
		top = m->group(name);
		for (k = 0; k < m->n; k++)
			if (m->group(m->names[k]) == top &&
			    !strncmp(m->names[k], name, top))
				return 1;
		return 0;
	}
	return 1;
}

void suite_shard_release(struct suite_shard_owned *own)
{
	size_t i;

	for (i = 0; i < own->nmine; i++)
		suite_names_release(own->mine[i].names, NULL, own->mine[i].n);
	free(own->mine);
	for (i = 0; i < own->n; i++)
		suite_filter_release(&own->cfg[i]);
	free(own->cfg);
	free(own->split);
	memset(own, 0, sizeof(*own));
}
