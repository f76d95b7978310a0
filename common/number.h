/*
 * The strict reading of a number a person typed (an option's value, a
 * trailer, a key of gate.json): plain decimal only, never C's extras.
 */
#ifndef COMMON_NUMBER_H
#define COMMON_NUMBER_H

/*
 * A decimal number at the start of s: an optional '-', digits with an
 * optional '.' and fraction, an optional exponent (e5, E-3), finite. What
 * strtod would also take is refused: leading space, '+', hex ("0x10"),
 * "inf", "nan". 0 with *out and *end (the first character after the
 * number), or -1 (nothing set) when s does not start so or the value
 * overflows or underflows a double. Says nothing: the caller names what.
 */
int number_scan(const char *s, double *out, const char **end);

/* The whole of s is such a number (nothing after it): 0, or -1. */
int number_parse(const char *s, double *out);

/* The whole of s is an optional '-' and decimal digits that fit a long
   (no space, '+', hex, exponent or fraction): 0 with *out, or -1. */
int number_parse_whole(const char *s, long *out);

#endif
