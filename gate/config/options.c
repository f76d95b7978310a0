/*
 * A command's option rows walked: getopt_long's table built from them, the
 * usage printed from them; and the option values gate's subcommands share
 * (whole numbers, decimal numbers, durations), each read strictly and
 * checked with a message naming the option.
 */
#include "gate/config/options.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/number.h"
#include "gate/config/config.h"
#include "common/banned.h"

/* A whole number in [lo, hi] from an option argument: decimal digits and
   an optional '-' only (common/number.h), so " 5", "+5", "0x10" and "5."
   are refused rather than read as something the user did not write. */
static int options_parse_count(long *out, const char *opt, const char *s,
			       long lo, long hi)
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
static int options_parse_duration(double *out, const char *opt,
				  const char *s)
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

/* Before a getopt_long() loop: a full reset of getopt's state (optind = 0
   on glibc, optreset on the BSDs), so a parse never starts inside a
   previous argv's option cluster. */
static void options_getopt_reset(void)
{
	opterr = 0;
#ifdef __GLIBC__
	optind = 0;
#else
	optreset = 1;
	optind = 1;
#endif
}

#define WIDTH 79		/* the usage's lines are at most this long */
#define HELP_COLUMN 20		/* where help starts, at most */

/* Print word at *col, first wrapping to indent when it would pass WIDTH. */
static void put_word(FILE *out, size_t *col, size_t indent, const char *w,
		     size_t len)
{
	if (*col > indent && *col + 1 + len > WIDTH) {
		fprintf(out, "\n%*s", (int)indent, "");
		*col = indent;
	} else if (*col != indent) {
		fputc(' ', out);
		(*col)++;
	}
	fwrite(w, 1, len, out);
	*col += len;
}

/* The words of text from col, wrapped at WIDTH to indent, and a newline;
   joined: the first word right at col, as a help line's. */
static void put_words(FILE *out, size_t col, size_t indent, const char *text,
		      int joined)
{
	while (*text) {
		size_t len = strcspn(text, " ");

		if (len && joined) {
			fwrite(text, 1, len, out);
			col += len;
			joined = 0;
		} else if (len) {
			put_word(out, &col, indent, text, len);
		}
		text += len + (text[len] == ' ');
	}
	fputc('\n', out);
}

/* "-q, --quiet" or "--base REV": a row's left column, in buf. */
static size_t row_left(char *buf, size_t size, const struct opt *r)
{
	char letter[8] = "";
	int n;

	if (r->letter)
		snprintf(letter, sizeof(letter), "-%c, ", r->letter);
	n = snprintf(buf, size, "%s--%s%s%s", letter, r->name,
		     r->arg ? " " : "", r->arg ? r->arg : "");

	return n < 0 ? 0 : (size_t)n;
}

void options_item(FILE *out, size_t width, const char *left,
		  const char *help)
{
	size_t col = 2 + strlen(left) + 2;

	if (col < width)
		col = width;
	fprintf(out, "  %-*s  ", (int)(col - 4), left);
	put_words(out, col, width, help, 1);
}

void options_usage(const struct opts_cmd *c, FILE *out)
{
	char buf[128];
	size_t i, col, indent, width = 0;

	col = (size_t)fprintf(out, "usage: gate %s%s",
			      c->repo ? "[-C DIR] " : "", c->name);
	indent = col + 1;
	for (i = 0; i < c->n; i++) {
		const struct opt *r = &c->rows[i];

		if (!r->help)
			continue;
		if (r->required)
			snprintf(buf, sizeof(buf), "--%s %s", r->name, r->arg);
		else if (r->letter)
			snprintf(buf, sizeof(buf), "[-%c]", r->letter);
		else
			snprintf(buf, sizeof(buf), "[--%s%s%s]", r->name,
				 r->arg ? " " : "", r->arg ? r->arg : "");
		put_word(out, &col, indent, buf, strlen(buf));
	}
	if (c->operands)
		put_word(out, &col, indent, c->operands,
			 strlen(c->operands));
	fputc('\n', out);
	if (c->also)
		fputs(c->also, out);
	fputc('\n', out);
	if (c->intro)
		fputs(c->intro, out);
	for (i = 0; i < c->n; i++) {
		size_t w = row_left(buf, sizeof(buf), &c->rows[i]) + 4;

		if (c->rows[i].help && w > width && w <= HELP_COLUMN)
			width = w;
	}
	if (c->operand_help) {
		/* "[RANGE]", "REPORT...": the names alone */
		size_t k = 0;
		const char *p;

		for (p = c->operands; *p && k + 1 < sizeof(buf); p++)
			if (!strchr("[].", *p))
				buf[k++] = *p;
		buf[k] = '\0';
		options_item(out, width, buf, c->operand_help);
	}
	for (i = 0; i < c->n; i++) {
		if (!c->rows[i].help)
			continue;
		row_left(buf, sizeof(buf), &c->rows[i]);
		options_item(out, width, buf, c->rows[i].help);
	}
	if (c->more)
		c->more(out);
	if (c->footer) {
		fputc('\n', out);
		fputs(c->footer, out);
	}
}

int options_usage_error(const struct opts_cmd *c, const char *what,
			const char *arg)
{
	error("%s \"%s\"", what, arg);
	options_usage(c, stderr);
	return -1;
}

/* Row r's argument (or flag) into o: 0, or -1 after saying why. */
static int option_set(const struct opt *r, void *o, const char *arg)
{
	char *at = (char *)o + r->off, name[64];
	long v;

	snprintf(name, sizeof(name), "--%s", r->name);
	switch (r->kind) {
	case OPT_FLAG:
		*(int *)at = 1;
		return 0;
	case OPT_STRING:
		*(const char **)at = arg;
		return 0;
	case OPT_COUNT:
		return options_parse_count((long *)at, name, arg, (long)r->lo,
					   (long)r->hi);
	case OPT_NUMBER:
		return options_parse_number((double *)at, name, arg, r->lo,
					    r->hi);
	case OPT_FLOOR:
		if (options_parse_number((double *)at, name, arg, 0, 10) < 0)
			return -1;
		/* as gate run warns of "min_effect": 5 (plan.c) */
		if (*(double *)at > 0.5)
			warning("%s %s is a floor of +%g%%: a fraction is "
				"meant, 0.05 for 5%%", name, arg,
				*(double *)at * 100);
		return 0;
	case OPT_DURATION:
		return options_parse_duration((double *)at, name, arg);
	case OPT_SEED:
		if (options_parse_count(&v, name, arg, 0, 4294967295L) < 0)
			return -1;
		*(unsigned long *)at = (unsigned long)v;
		*(int *)((char *)o + r->have) = 1;
		return 0;
	case OPT_CALL:
		return r->call(o, arg);
	}
	return -1;
}

/* -1 after saying which required options are missing (their strings
   NULL in o), else 0. */
static int missing(const struct opts_cmd *c, const void *o)
{
	char list[256] = "";
	size_t i, k = 0;
	int lacking = 0;

	for (i = 0; i < c->n; i++) {
		if (!c->rows[i].required)
			continue;
		k += (size_t)snprintf(list + k, sizeof(list) - k, "%s--%s %s",
				      k ? " and " : "", c->rows[i].name,
				      c->rows[i].arg);
		if (!*(const char *const *)((const char *)o + c->rows[i].off))
			lacking = 1;
	}
	if (!lacking)
		return 0;
	error("gate %s needs %s", c->name, list);
	options_usage(c, stderr);
	return -1;
}

#define LONG_BASE 256		/* getopt's val for row i without a letter */

enum opts_result options_parse(const struct opts_cmd *c, void *o, int argc,
			       char **argv, int *operand)
{
	struct option *lo = xcalloc(c->n + 2, sizeof(*lo));
	char *so = xmalloc(2 * c->n + 2), *s = so;
	enum opts_result res = OPTS_GO;
	size_t i;
	int v;

	*s++ = 'h';
	for (i = 0; i < c->n; i++) {
		const struct opt *r = &c->rows[i];

		lo[i].name = r->name;
		lo[i].has_arg = r->arg ? required_argument : no_argument;
		lo[i].val = r->letter ? r->letter : LONG_BASE + (int)i;
		if (r->letter) {
			*s++ = r->letter;
			if (r->arg)
				*s++ = ':';
		}
	}
	*s = '\0';
	lo[c->n].name = "help";
	lo[c->n].val = 'h';
	options_getopt_reset();
	while (res == OPTS_GO &&
	       (v = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		for (i = 0; i < c->n; i++)
			if (lo[i].val == v)
				break;
		if (v == 'h') {
			options_usage(c, stdout);
			res = OPTS_HELP;
		} else if (i == c->n) {
			res = options_usage_error(c, "unknown or incomplete "
						  "option", argv[optind - 1]);
		} else if (option_set(&c->rows[i], o, optarg) < 0) {
			res = OPTS_ERROR;
		}
	}
	free(lo);
	free(so);
	if (res != OPTS_GO || missing(c, o) < 0)
		return res != OPTS_GO ? res : OPTS_ERROR;
	if (operand)
		*operand = optind;
	else if (optind < argc)
		return options_usage_error(c, "unexpected argument",
					   argv[optind]);
	return OPTS_GO;
}
