/*
 * The strict reading of numbers: the grammar is checked here, character by
 * character, and only then converted, so that strtod's and strtol's
 * leniency (space, '+', hex, inf, nan) never reaches a setting.
 */
#include "common/number.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "common/banned.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';	/* not isdigit(): no locale */
}

/* The end of the digits at p. */
static const char *skip_digits(const char *p)
{
	while (is_digit(*p))
		p++;
	return p;
}

int number_scan(const char *s, double *out, const char **end)
{
	const char *p = s, *q;
	char *conv;
	double v;
	int ndigits;

	if (*p == '-')
		p++;
	q = skip_digits(p);
	ndigits = (int)(q - p);
	p = q;
	if (*p == '.') {
		q = skip_digits(p + 1);
		ndigits += (int)(q - p - 1);
		p = q;
	}
	if (!ndigits)
		return -1;
	/* an exponent only with its digits: "2e" is 2 followed by "e" */
	if (*p == 'e' || *p == 'E') {
		q = p + 1;
		if (*q == '+' || *q == '-')
			q++;
		if (is_digit(*q))
			p = skip_digits(q);
	}
	/* the grammar is a subset of strtod's, so strtod stops at p too
	   (unless a locale's decimal point is not '.': then refuse) */
	errno = 0;
	v = strtod(s, &conv);
	if (conv != p || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	*end = p;
	return 0;
}

int number_parse(const char *s, double *out)
{
	const char *end;
	double v;

	if (number_scan(s, &v, &end) < 0 || *end)
		return -1;
	*out = v;
	return 0;
}

int number_parse_whole(const char *s, long *out)
{
	const char *p = s;
	char *end;
	long v;

	if (*p == '-')
		p++;
	if (!is_digit(*p) || *skip_digits(p))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}
