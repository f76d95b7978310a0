/*
 * Option values gate's subcommands share: whole numbers, decimal numbers
 * and durations, each read strictly and checked with a message naming the
 * option.
 */
#include "gate/config/options.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/number.h"
#include "gate/config/config.h"
#include "common/banned.h"

/* A whole number in [lo, hi] from an option argument: decimal digits and
   an optional '-' only (common/number.h), so " 5", "+5", "0x10" and "5."
   are refused rather than read as something the user did not write. */
int options_parse_count(long *out, const char *opt, const char *s, long lo,
		       long hi)
{
	long v;

	if (number_parse_whole(s, &v) < 0 || v < lo || v > hi) {
		error("%s must be a whole number from %ld to %ld, got \"%s\"",
		      opt, lo, hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

int options_parse_number(double *out, const char *opt, const char *s,
			 double lo, double hi)
{
	double v;

	if (number_parse(s, &v) < 0 || !(v >= lo && v < hi)) {
		error("%s must be a decimal number from %g to below %g, got "
		      "\"%s\"", opt, lo, hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* "90", "90s", "10m", "1.5h": a duration in seconds, positive and finite.
   The number is read strictly first (no "0x10s", no "infh"); the unit
   and the range are config_parse_duration's, as in gate.json. */
int options_parse_duration(double *out, const char *opt, const char *s)
{
	const char *end;
	double v;

	if (number_scan(s, &v, &end) < 0 || config_parse_duration(s, out) < 0) {
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
