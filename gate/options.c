/*
 * Option values gate's subcommands share: whole numbers, durations and a
 * fresh seed, each checked with a message naming the option.
 */
#include "gate/options.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/config.h"
#include "common/banned.h"

/* A whole number in [lo, hi] from an option argument. */
int options_parse_count(long *out, const char *opt, const char *s, long lo,
		       long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		error("%s must be a whole number from %ld to %ld, got \"%s\"",
		      opt, lo, hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* "90", "90s", "10m", "1.5h": a duration in seconds, positive and finite. */
int options_parse_duration(double *out, const char *opt, const char *s)
{
	if (config_parse_duration(s, out) < 0) {
		error("%s must be a positive, finite duration such as 90s, "
		      "5m, 1h or 250ms, got \"%s\"", opt, s);
		return -1;
	}
	return 0;
}


void options_getopt_reset(void)
{
	opterr = 0;
#ifdef __GLIBC__
	optind = 0;
#else
	optreset = 1;
	optind = 1;
#endif
}
