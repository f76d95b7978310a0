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
/* A fresh seed from /dev/urandom (time and pid when it cannot be read). */

#endif
