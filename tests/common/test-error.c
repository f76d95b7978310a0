/* common/: messages cut in the middle, on UTF-8 boundaries, when too
   long; the checked allocators — xgrow's geometric growth and its
   overflow check. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.h"
#include "tests/harness.h"

/* n appends one at a time: every element kept, and the block moved only
   O(log n) times (a grow-by-one loop would reallocate n times). */
static void test_error__xgrow_is_geometric(void)
{
	size_t cap = 0, i, grows = 0, last = 0;
	long *a = NULL;

	for (i = 0; i < 100000; i++) {
		XGROW(a, cap, i + 1);
		CHECK(cap >= i + 1);
		if (cap != last) {
			grows++;
			last = cap;
		}
		a[i] = (long)i * 3;
	}
	for (i = 0; i < 100000; i++)
		if (a[i] != (long)i * 3)
			break;
	CHECK(i == 100000);
	CHECK(grows <= 20);	/* 16 doubled past 100000: 13 */
	/* enough room: nothing moves, cap untouched */
	i = cap;
	CHECK(xgrow(a, &cap, 5, sizeof(*a)) == a);
	CHECK(cap == i);
	/* a jump past double takes exactly what is needed */
	cap = 0;
	free(a);
	a = NULL;
	XGROW(a, cap, 1000);
	CHECK(cap == 1000);
	free(a);
}

/* run fn in a child: its exit status */
static int in_child(void (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		/* abort's message is expected: keep the test output clean */
		if (!freopen("/dev/null", "w", stderr))
			_exit(99);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void grow_past_size_max(void)
{
	size_t cap = 0;
	double *a = NULL;

	/* need * 8 wraps to 8: without the check, a 8-byte block */
	XGROW(a, cap, SIZE_MAX / 8 + 2);
	a[0] = 1;
	free(a);
}

static void grow_near_size_max(void)
{
	size_t cap = SIZE_MAX / 32;
	char (*a)[16] = NULL;

	/* from a capacity whose doubling would wrap: the one element more
	   than SIZE_MAX bytes still aborts (before any realloc, so that
	   AddressSanitizer's allocator never sees the size) */
	a = xgrow(a, &cap, SIZE_MAX / 16 + 1, 16);
	free(a);
}

/* A count whose bytes overflow size_t aborts, never allocates short. */
static void test_error__xgrow_overflow_aborts(void)
{
	int st = in_child(grow_past_size_max);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	st = in_child(grow_near_size_max);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
}

/* Whether s is well-formed UTF-8 (no cut character). */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int more;

	while (*p) {
		more = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 :
		       (*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;
		if (more < 0)
			return 0;
		for (p++; more > 0; more--, p++)
			if ((*p & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

/* A path far longer than PATH_MAX, of 2- and 3-byte characters: the
   message keeps its start and its end (the reason strerror gives and
   what to do), says how much it cut, and cuts no character in two. */
static void test_error__long_message_cut_in_the_middle(void)
{
	static const char *const fills[] = { "\xc3\xa9", "\xe2\x82\xac", "a" };
	char got[8192], *path;
	struct gate_err err;
	size_t i, k, n;

	for (k = 0; k < sizeof(fills) / sizeof(fills[0]); k++) {
		n = strlen(fills[k]);
		path = malloc(4500 * n + 3);
		for (i = 0; i < 4500; i++)
			memcpy(path + i * n, fills[k], n);
		memcpy(path + 4500 * n, "/x", 3);
		got[0] = '\0';
		error_capture(got, sizeof(got), 1);
		errno = ENAMETOOLONG;
		CHECK(error("cannot open \"%s\":", path) == -1);
		error_capture(NULL, 0, 0);
		CHECK(strlen(got) < 4096);
		CHECK(strncmp(got, "cannot open \"", 13) == 0);
		CHECK_CONTAINS(got, " bytes ...]");
		CHECK_CONTAINS(got, strerror(ENAMETOOLONG));
		CHECK(utf8_ok(got));
		/* into a caller's gate_err, the same */
		errno = ENAMETOOLONG;
		CHECK(error_to(&err, "cannot open \"%s\": give a shorter path",
			       path) == -1);
		CHECK(strlen(err.msg) < sizeof(err.msg));
		CHECK(utf8_ok(err.msg));
		n = strlen(err.msg);
		CHECK(n > 19 && !strcmp(err.msg + n - 19, "give a shorter path"));
		free(path);
	}
	/* short messages are untouched */
	error_capture(got, sizeof(got), 1);
	error("short \"%s\"", "\xc3\xa9");
	error_capture(NULL, 0, 0);
	CHECK_STR(got, "short \"\xc3\xa9\"");
}

static const struct harness_test tests[] = {
	TEST(test_error__long_message_cut_in_the_middle),
	TEST(test_error__xgrow_is_geometric),
	TEST(test_error__xgrow_overflow_aborts),
};

int main(int argc, char **argv)
{
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
