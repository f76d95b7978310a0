/*
 * The shell completions' command-specific part, printed from the commands
 * table and each command's option rows (gate --completion bash|zsh): the
 * Makefile puts it into completion/gate.bash.in and _gate.in, so an option
 * is declared once, in its row, and an installed completion needs no
 * source tree.
 */
#include "gate/cmd/cmd.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "gate/config/options.h"
#include "gate/format/format.h"
#include "common/banned.h"

/* s into a single-quoted shell word's inside; brackets escaped for zsh's
   _arguments when br. */
static void put_quoted(FILE *out, const char *s, int br)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else if (br && (*s == '[' || *s == ']'))
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

/* A row's values, "<format>" as the format names, "-" for any text. */
static void put_values(FILE *out, const char *v)
{
	const char *p;

	if (!v) {
		fputc('-', out);
	} else if (!strcmp(v, "<format>")) {
		for (p = format_names_compare(); *p; p++)
			if (*p != ',')
				fputc(*p, out);
	} else {
		fputs(v, out);
	}
}

static void bash(FILE *out, const struct cmd *cmds, size_t n)
{
	size_t i, k;

	fputs("_gate_commands=\"", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? " " : "", cmds[i].opts->name);
	fputs("\"\n\n# _gate_options CMD: CMD's options\n_gate_options()\n{\n"
	      "\tcase $1 in\n", out);
	for (i = 0; i < n; i++) {
		const struct opts_cmd *c = cmds[i].opts;

		fprintf(out, "\t%s) echo", c->name);
		for (k = 0; k < c->n; k++) {
			if (!c->rows[k].help)
				continue;
			if (c->rows[k].letter)
				fprintf(out, " -%c", c->rows[k].letter);
			fprintf(out, " --%s", c->rows[k].name);
		}
		fputs(" ;;\n", out);
	}
	fputs("\tesac\n}\n\n# _gate_values CMD OPT: what OPT's argument is "
	      "(<file>, <rev>, <head>,\n# the words it takes, - any text); "
	      "nothing when OPT takes none\n_gate_values()\n{\n"
	      "\tcase $1/$2 in\n", out);
	for (i = 0; i < n; i++) {
		const struct opts_cmd *c = cmds[i].opts;

		for (k = 0; k < c->n; k++) {
			if (!c->rows[k].arg)
				continue;
			fprintf(out, "\t%s/--%s) echo \"", c->name,
				c->rows[k].name);
			put_values(out, c->rows[k].values);
			fputs("\" ;;\n", out);
		}
		if (c->operand_values)
			fprintf(out, "\t%s/) echo \"%s\" ;;\n", c->name,
				c->operand_values);
	}
	fputs("\tesac\n}\n", out);
}

/* zsh's _arguments action for a row's values. */
static void zsh_action(FILE *out, const char *v)
{
	if (!v)
		return;
	if (!strcmp(v, "<rev>"))
		fputs("_gate_revisions", out);
	else if (!strcmp(v, "<head>"))
		fputs("_gate_head", out);
	else if (!strcmp(v, "<file>"))
		fputs("_files", out);
	else {
		fputc('(', out);
		put_values(out, v);
		fputc(')', out);
	}
}

static void zsh(FILE *out, const struct cmd *cmds, size_t n)
{
	size_t i, k;

	fputs("(( $+functions[_gate_command_list] )) ||\n"
	      "_gate_command_list() {\n  reply=(\n", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "    '%s:", cmds[i].opts->name);
		put_quoted(out, cmds[i].summary, 0);
		fputs("'\n", out);
	}
	fputs("  )\n}\n\n(( $+functions[_gate_command_args] )) ||\n"
	      "_gate_command_args() {\n  case $1 in\n", out);
	for (i = 0; i < n; i++) {
		const struct opts_cmd *c = cmds[i].opts;

		fprintf(out, "  %s)\n    _arguments", c->name);
		for (k = 0; k < c->n; k++) {
			const struct opt *r = &c->rows[k];

			if (!r->help)
				continue;
			fputs(" \\\n      ", out);
			if (r->letter)
				fprintf(out, "{-%c,--%s}'", r->letter, r->name);
			else
				fprintf(out, "'--%s%s", r->name,
					r->arg ? "=" : "");
			fputc('[', out);
			put_quoted(out, r->help, 1);
			fputc(']', out);
			if (r->arg) {
				fprintf(out, ":%s:", r->arg);
				zsh_action(out, r->values);
			}
			fputc('\'', out);
		}
		if (c->operands) {
			fprintf(out, " \\\n      '*:%s:", c->operands);
			zsh_action(out, c->operand_values);
			fputc('\'', out);
		}
		fputs(" ;;\n", out);
	}
	fputs("  *) return 1 ;;\n  esac\n}\n", out);
}

int complete_print(FILE *out, const char *shell, const struct cmd *cmds,
		   size_t n)
{
	if (!strcmp(shell, "bash"))
		bash(out, cmds, n);
	else if (!strcmp(shell, "zsh"))
		zsh(out, cmds, n);
	else
		return error("--completion takes bash or zsh, not \"%s\"",
			     shell);
	return 0;
}
