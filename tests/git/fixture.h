/*
 * Fixture repositories for the tests of git/: each test makes them with
 * the git CLI in a scratch directory (begin() and end() around it), and
 * checks that the user's index, refs, stash, config and files are
 * untouched (user_state_read, check_user_state).
 */
#ifndef TESTS_GIT_FIXTURE_H
#define TESTS_GIT_FIXTURE_H

#include <limits.h>
#include <stddef.h>
#include <time.h>

#include "common/error.h"

/* No signing, no user config: commits work the same on every machine. */
#define GIT "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false " \
	    "-c core.autocrlf=false"
#define EMPTY_TREE "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

/* The test's scratch directory, and the last error gate said in it. */
extern char scratch[PATH_MAX];
extern char msg[4096];

/* Everything of the user's that gate must leave alone. */
struct user_state {
	char *index, *status, *refs, *stash, *head, *config, *files, *tree;
	size_t index_len;
	struct timespec index_mtime;
};

int sh(const char *fmt, ...) PRINTF(1, 2);
char *out(const char *fmt, ...) PRINTF(1, 2);
char *at(const char *rel);
void write_file(const char *dir, const char *rel, const char *text);
char *read_whole(const char *dir, const char *rel, size_t *len);
int exists(const char *dir, const char *rel);
struct timespec mtime_of(const char *dir, const char *rel);
int same_time(struct timespec a, struct timespec b);
void begin(void);
void end(void);
char *make_repo(const char *name);
char *reference_tree(const char *dir);
void user_state_read(struct user_state *s, const char *dir);
void user_state_release(struct user_state *s);
void check_user_state(const struct user_state *a, const char *dir);
char *make_clone(void);

#endif
