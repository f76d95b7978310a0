/*
 * Option values gate's subcommands share: whole numbers, durations and a
 * fresh seed.
 */
#ifndef GATE_OPTIONS_H
#define GATE_OPTIONS_H

/* A whole number in [lo, hi] from option opt's argument s; 0 or -1. */
int options_parse_count(long *out, const char *opt, const char *s, long lo,
			long hi);
/* "90", "90s", "10m", "1.5h", "250ms": a positive, finite duration (as
   config_parse_duration), or -1 after error() naming opt. */
int options_parse_duration(double *out, const char *opt, const char *s);
/* Before a getopt_long() loop: a full reset of getopt's state (optind = 0
   on glibc, optreset on the BSDs), so a parse never starts inside a
   previous argv's option cluster. */
void options_getopt_reset(void);

#endif
