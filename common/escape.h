/*
 * The one escaping path per medium: every name or text that comes from
 * outside gate (case names, labels, commit subjects, a program's stderr,
 * paths) goes through escape_put or escape_str for the medium it lands in,
 * so no printer has an escaping rule of its own.
 */
#ifndef COMMON_ESCAPE_H
#define COMMON_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

enum escape_medium {
	/*
	 * A terminal: nothing is obeyed. C0 controls, DEL and C1 (U+0080..
	 * U+009F) show as \xNN or \uNNNN; a tab is a space; CR is dropped;
	 * a newline continues the text on a new line starting with the
	 * indent (escape_put_indent), never as a literal \x0a.
	 */
	ESCAPE_TERM,
	/*
	 * A terminal, for text that must stay on one line (a name in a
	 * table cell, a progress line): the terminal's rules, and a newline
	 * shown as \x0a too.
	 */
	ESCAPE_TERM_LINE,
	/*
	 * A GitHub Actions log (a terminal too): the terminal's rules, and no
	 * line of the text is a workflow command: "::" at a line's start
	 * (after blanks) is written ": :", and "##[" anywhere "# #[".
	 */
	ESCAPE_ACTIONS,
	/*
	 * Inline Markdown (a table cell, a list item): '|' and the emphasis
	 * and code characters backslashed, HTML's <>& as entities, newlines
	 * and controls flattened to spaces, @user and #123 broken by a
	 * zero-width space so nobody is mentioned and nothing is linked.
	 */
	ESCAPE_MD,
	/* HTML text and attribute values: & < > " ' as entities; controls
	 * other than newline and tab as U+FFFD. */
	ESCAPE_HTML,
	/*
	 * One CSV field (RFC 4180): quoted when it holds a comma, a quote
	 * or a line break; a field a spreadsheet would run as a formula
	 * (starting with = + - @, TAB or CR) gets a leading "'" -- except a
	 * plain number such as -1.5, which stays a number.
	 */
	ESCAPE_CSV,
};

/* Write s (NULL as "") to out, escaped for m. */
void escape_put(FILE *out, enum escape_medium m, const char *s);
/* The same, where a newline in s starts a line with indent (ESCAPE_TERM
 * and ESCAPE_ACTIONS; the others ignore indent). */
void escape_put_indent(FILE *out, enum escape_medium m, const char *s,
		       const char *indent);
/* s escaped for m in a malloc'd string the caller frees. */
char *escape_str(enum escape_medium m, const char *s);
/*
 * The columns s takes on a terminal once escaped (ESCAPE_TERM, first line
 * only): UTF-8 sequences count one column each.
 */
size_t escape_term_width(const char *s);
/*
 * s cut to at most cols terminal columns (ESCAPE_TERM widths), ending in
 * "..." when cut: a malloc'd copy of s, not yet escaped, cut between
 * UTF-8 characters and never inside an escape.
 */
char *escape_term_cut(const char *s, size_t cols);

#endif
