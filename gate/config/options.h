/*
 * Option values gate's subcommands share: whole numbers, decimal numbers
 * and durations, read strictly.
 */
#ifndef GATE_OPTIONS_H
#define GATE_OPTIONS_H

/* A whole number in [lo, hi] from option opt's argument s, in decimal
   digits only (common/number.h); 0, or -1 after error() naming opt. */
int options_parse_count(long *out, const char *opt, const char *s, long lo,
			long hi);
/* A decimal number in [lo, hi) from option opt's argument s: no hex, inf,
   nan, space or trailing text; 0, or -1 after error() naming opt. */
int options_parse_number(double *out, const char *opt, const char *s,
			 double lo, double hi);
/* "90", "90s", "10m", "1.5h", "250ms": a positive, finite duration (as
   config_parse_duration, its number read strictly), or -1 after error()
   naming opt. */
int options_parse_duration(double *out, const char *opt, const char *s);
/*
 * What parsing a command's options ended with. A command stops at
 * anything but OPTS_GO, with exit 0 after --help and 3 after an error.
 */
enum opts_result {
	OPTS_ERROR = -1,	/* said why (with the usage when it helps) */
	OPTS_GO = 0,		/* parsed: run the command */
	OPTS_HELP = 1,		/* --help printed the usage to stdout */
};

/* Before a getopt_long() loop: a full reset of getopt's state (optind = 0
   on glibc, optreset on the BSDs), so a parse never starts inside a
   previous argv's option cluster. */
void options_getopt_reset(void);

#endif
