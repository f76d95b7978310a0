/* common/: the checked allocators — xgrow's geometric growth and its
   overflow check. */
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

static const struct harness_test tests[] = {
	TEST(test_error__xgrow_is_geometric),
	TEST(test_error__xgrow_overflow_aborts),
};

int main(int argc, char **argv)
{
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
