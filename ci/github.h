/*
 * GitHub Actions: detection, the job summary, workflow commands (error and
 * warning annotations, collapsible groups) and step outputs. Prints only to
 * the stream its caller passes; decides nothing about verdicts.
 */
#ifndef CI_GITHUB_H
#define CI_GITHUB_H

#include <stdio.h>

/* 1 when running as a GitHub Actions step (GITHUB_ACTIONS=true). */
int ci_github_active(void);
/*
 * Append text to the file named by environment variable var (e.g.
 * GITHUB_STEP_SUMMARY). Returns 1 when var is unset or empty (nothing
 * done), 0 when appended, -1 after error().
 */
int ci_github_append(const char *var, const char *text);
/*
 * Set step output name=value in $GITHUB_OUTPUT, with the heredoc form and
 * a delimiter absent from value when value has a newline. Returns 1 when
 * GITHUB_OUTPUT is unset, 0 when written, -1 after error().
 */
int ci_github_output(const char *name, const char *value);
/*
 * Print a workflow command annotation: level is "error" (a fail or an
 * error), "warning" (noisy) or "notice" (a note beside a verdict, such as
 * a load rise, which never changes it); title and file may be NULL.
 * Escapes data and properties.
 */
void ci_github_annotate(FILE *out, const char *level, const char *title,
			const char *file, const char *msg);
/*
 * Untrusted text (a build log, a report quoting case names and stderr)
 * goes between these: ::stop-commands::TOKEN with a fresh random token,
 * so nothing in it is taken for a workflow command, then ::TOKEN:: to
 * resume. token must hold 40 bytes.
 */
void ci_github_stop_commands(FILE *out, char *token);
void ci_github_resume_commands(FILE *out, const char *token);
/* ::group::title and ::endgroup:: (a collapsible section of the log). */
void ci_github_group(FILE *out, const char *title);
void ci_github_endgroup(FILE *out);

#endif
