/*
 * A command's options, declared once as in git's parse-options: one row
 * per option (long name, short letter, argument, one-line help, what it
 * sets) from which come the getopt_long parsing, --help and the shell
 * completions (gate/cmd/complete.c); tests/cli/man-check.py checks each
 * man page's SYNOPSIS against --help. Values are read strictly (no hex,
 * inf, nan, space or trailing text).
 */
#ifndef GATE_OPTIONS_H
#define GATE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* A decimal number in [lo, hi) from option opt's argument s: no hex, inf,
   nan, space or trailing text; 0, or -1 after error() naming opt. */
int options_parse_number(double *out, const char *opt, const char *s,
			 double lo, double hi);
/*
 * What parsing a command's options ended with. A command stops at
 * anything but OPTS_GO, with exit 0 after --help and 3 after an error.
 */
enum opts_result {
	OPTS_ERROR = -1,	/* said why (with the usage when it helps) */
	OPTS_GO = 0,		/* parsed: run the command */
	OPTS_HELP = 1,		/* --help printed the usage to stdout */
};

/* What an option does with its argument. */
enum opt_kind {
	OPT_FLAG,		/* no argument: the int at off becomes 1 */
	OPT_STRING,		/* the const char * at off = the argument */
	OPT_COUNT,		/* the long at off: a whole number in [lo, hi] */
	OPT_NUMBER,		/* the double at off: a number in [lo, hi) */
	OPT_FLOOR,		/* the double at off: a fraction in [0, 10),
				   with a warning above 0.5 */
	OPT_DURATION,		/* the double at off: seconds ("90s", "5m") */
	OPT_SEED,		/* the unsigned long at off: 0 to 2^32 - 1;
				   and the int at have becomes 1 */
	OPT_CALL,		/* call(o, the argument): 0, or -1 said */
};

/*
 * One option. values says how a shell completes the argument: NULL, any
 * text; "<file>", "<rev>", "<head>" (a revision or WORKTREE), "<format>"
 * (gate compare's formats); else the words it takes ("auto always
 * never"). A row without help is an alias nobody is shown.
 */
struct opt {
	const char *name;	/* long name, without "--" */
	char letter;		/* short option, or 0 */
	const char *arg;	/* the argument's name in --help; NULL: none */
	const char *help;	/* one line */
	enum opt_kind kind;
	size_t off;		/* where in the command's options struct */
	size_t have;		/* OPT_SEED */
	double lo, hi;		/* OPT_COUNT, OPT_NUMBER */
	int (*call)(void *o, const char *arg);	/* OPT_CALL */
	const char *values;	/* completion of the argument (above) */
	int required;		/* the command needs it */
};

/* Rows, for tables of struct opt: T is the options struct, F its field. */
#define OPT_FLAG(l, n, T, F, h) { .name = (n), .letter = (l), \
	.help = (h), .kind = OPT_FLAG, .off = offsetof(T, F) }
#define OPT_STRING(n, a, T, F, h, v) { .name = (n), .arg = (a), \
	.help = (h), .kind = OPT_STRING, .off = offsetof(T, F), .values = (v) }
#define OPT_NEEDED(n, a, T, F, h, v) { .name = (n), .arg = (a), \
	.help = (h), .kind = OPT_STRING, .off = offsetof(T, F), \
	.values = (v), .required = 1 }
#define OPT_COUNT(n, a, T, F, l, u, h) { .name = (n), .arg = (a), \
	.help = (h), .kind = OPT_COUNT, .off = offsetof(T, F), .lo = (l), \
	.hi = (u) }
#define OPT_NUMBER(n, a, T, F, l, u, h) { .name = (n), .arg = (a), \
	.help = (h), .kind = OPT_NUMBER, .off = offsetof(T, F), .lo = (l), \
	.hi = (u) }
#define OPT_FLOOR(n, T, F, h) { .name = (n), .arg = "F", .help = (h), \
	.kind = OPT_FLOOR, .off = offsetof(T, F) }
#define OPT_DURATION(n, a, T, F, h) { .name = (n), .arg = (a), \
	.help = (h), .kind = OPT_DURATION, .off = offsetof(T, F) }
#define OPT_SEED(n, T, F, H, h) { .name = (n), .arg = "N", .help = (h), \
	.kind = OPT_SEED, .off = offsetof(T, F), .have = offsetof(T, H) }
#define OPT_CALL(n, a, fn, h, v) { .name = (n), .arg = (a), .help = (h), \
	.kind = OPT_CALL, .call = (fn), .values = (v) }

/*
 * A command's command line: "usage: gate [-C DIR] NAME [options] operands"
 * then the rows' help. Texts end in a newline when not NULL.
 */
struct opts_cmd {
	const char *name;	/* "run" */
	int repo;		/* runs in a repository: -C DIR in the usage */
	const char *operands;	/* after the options: "OLD NEW", or NULL */
	const char *operand_values;	/* their completion, as values */
	const char *operand_help;	/* what they are, or NULL */
	const char *also;	/* further synopsis lines, or NULL */
	const char *intro;	/* printed before the options, or NULL */
	const struct opt *rows;
	size_t n;
	void (*more)(FILE *out);	/* prints more after them, or NULL */
	const char *footer;	/* after them (the exit codes), or NULL */
};

/* "  left  help" to out, help from column width, wrapped at 79. */
void options_item(FILE *out, size_t width, const char *left,
		  const char *help);
/* The usage (synopsis, then each row's help) to out. */
void options_usage(const struct opts_cmd *c, FILE *out);

/*
 * Parse argv's options into o by c's rows (-h and --help print the usage
 * to stdout). *operand: the index of the first operand, or with operand
 * NULL, an operand is an error. An error prints the usage to stderr.
 */
enum opts_result options_parse(const struct opts_cmd *c, void *o, int argc,
			       char **argv, int *operand);
/* error() naming what and arg, then c's usage to stderr: -1. */
int options_usage_error(const struct opts_cmd *c, const char *what,
			const char *arg);

#endif
