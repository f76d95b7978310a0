/*
 * A suite's cases through the harness's own filter, and the one builder of
 * a harness command: what a format's row adds (its select or list hook:
 * gbench's --benchmark_filter, go's -bench, pytest's -k through
 * PYTEST_ADDOPTS, GATE_FILTER and GATE_LIST for the lines protocol and
 * wrappers) put into the suite's command with one shell quoting, for the
 * adaptive rounds, the shards and the listing (gate/measure/suite-filter.h).
 */
#include "gate/measure/suite-filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "common/banned.h"

int suite_can_filter(const struct bench_cfg *cfg)
{
	return format_reader(cfg->format)->select != NULL;
}

/* s in single quotes for sh, onto b. */
static void sh_quote(struct fmt_buf *b, const char *s)
{
	fmt_buf_str(b, "'");
	for (; *s; s++)
		if (*s == '\'')
			fmt_buf_str(b, "'\\''");
		else
			fmt_buf_add(b, s, 1);
	fmt_buf_str(b, "'");
}

/* "NAME=value; export NAME; " onto b; keep: a value already set wins
   (${NAME-value}); before: value is put before the value set, if any. */
static void sh_export(struct fmt_buf *b, const char *name, const char *value,
		      int keep, int before)
{
	fmt_buf_str(b, name);
	fmt_buf_str(b, "=");
	if (keep) {
		fmt_buf_str(b, "${");
		fmt_buf_str(b, name);
		fmt_buf_str(b, "-");
	}
	sh_quote(b, value);
	if (keep)
		fmt_buf_str(b, "}");
	if (before) {
		fmt_buf_str(b, "\"${");
		fmt_buf_str(b, name);
		fmt_buf_str(b, "-}\"");
	}
	fmt_buf_str(b, "; export ");
	fmt_buf_str(b, name);
	fmt_buf_str(b, "; ");
}

void harness_cmd(struct command *out, const struct command *run,
		 const struct fmt_cmd_edit *e, const char *gate_var,
		 const char *gate_value, int keep)
{
	struct fmt_buf sh = FMT_BUF_INIT;
	size_t i, argc = 0, nargs = e->nargs;

	memset(out, 0, sizeof(*out));
	for (i = 0; run->argv && run->argv[i]; i++)
		argc++;
	if (nargs && run->argv && !e->env) {
		/* the harness's own arguments reach it with no shell */
		out->argv = xcalloc(argc + nargs + 1, sizeof(char *));
		for (i = 0; i < argc; i++)
			out->argv[i] = xstrdup(run->argv[i]);
		for (i = 0; i < nargs; i++)
			out->argv[argc + i] = xstrdup(e->args[i]);
		return;
	}
	/* a shell, or a variable: gate's own in the environment, then the
	   harness's */
	if (gate_var && gate_value)
		sh_export(&sh, gate_var, gate_value, keep, 0);
	if (e->env && e->env_value)
		sh_export(&sh, e->env, e->env_value, 0, 1);
	if (run->shell) {
		fmt_buf_str(&sh, run->shell);
	} else {
		fmt_buf_str(&sh, "exec");
		for (i = 0; i < argc; i++) {
			fmt_buf_str(&sh, " ");
			sh_quote(&sh, run->argv[i]);
		}
	}
	for (i = 0; i < nargs; i++) {
		fmt_buf_str(&sh, " ");
		sh_quote(&sh, e->args[i]);
	}
	out->shell = sh.buf;
}

/*
 * The filter for names into out; outer: a filter already in the
 * environment wins (a round of more pairs inside a shard's cases).
 */
static void filter_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		       const char *const *names, size_t n, int outer)
{
	const struct format_reader *r = format_reader(cfg->format);
	struct fmt_cmd_edit e = FMT_CMD_EDIT_INIT;

	*out = *cfg;
	if (r->select)
		r->select(&e, cfg->run.argv, cfg->run.shell, names, n);
	else	/* no filter of its own: GATE_FILTER for a wrapper */
		e.filter = fmt_anchored(names, n);
	harness_cmd(&out->run, &cfg->run, &e, "GATE_FILTER", e.filter, outer);
	fmt_cmd_edit_release(&e);
}

void suite_filter_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		      const char *const *names, size_t n)
{
	filter_cmd(out, cfg, names, n, 0);
}

void suite_shard_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		     const char *const *names, size_t n)
{
	filter_cmd(out, cfg, names, n, 1);
}

void suite_filter_release(struct bench_cfg *out)
{
	command_release(&out->run);
}
