/*
 * gate's notices on stderr while it prepares a run ("gate: checking out
 * base (v1.2) into .git/gate/a"): escaped for the terminal and fitted to
 * its width, with paths shown as the user finds them.
 */
#ifndef GATE_NOTICE_H
#define GATE_NOTICE_H

#include <stdio.h>

#include "common/error.h"

/* The terminal's width for out: $COLUMNS (20..10000), else out's own
   when it is a terminal, else 80. */
int term_columns(FILE *out);
/*
 * "gate: " and fmt's text on stderr, escaped for the terminal on one line
 * (a newline in a name shows as \x0a; in GitHub Actions no line is a
 * workflow command). On a terminal or with $COLUMNS set it is wrapped at
 * blanks to the width with a hanging indent, a word longer than a line
 * cut in its middle ("..."); in a log it stays one line, for its reader to
 * wrap and grep to find.
 */
void notice(const char *fmt, ...) PRINTF(1, 2);
/* path as a notice shows it: relative to top (the working tree, ending in
   '/'; NULL: none) when under it, else whole. Points into path. */
const char *notice_path(const char *path, const char *top);

#endif
