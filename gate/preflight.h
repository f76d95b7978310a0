/*
 * Checks on a command before gate runs it in an arm's checkout: a program
 * that resolves outside the checkout would be the same file for base and
 * head, so the comparison would measure nothing of the change.
 */
#ifndef GATE_PREFLIGHT_H
#define GATE_PREFLIGHT_H

#include "gate/config.h"

/*
 * cmd is what ("\"run\" of benchmark \"x\"", "\"build\"") about to run in
 * checkout dir of the user's repository with working tree workdir. An argv
 * whose program is a path (has a '/') that resolves outside dir, and is
 * relative or points into workdir, is an error (-1, with a message).
 * A shell string is the config author's: only warned about when it
 * contains "../" or workdir. A program that does not exist yet passes
 * (the runner says so when it cannot start it). Returns 0 or -1.
 */
int preflight_command(const struct command *cmd, const char *what,
		      const char *dir, const char *workdir);

#endif
