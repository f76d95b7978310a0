/*
 * Unit tests for git/trailers.c: Gate-Accept trailers, on fixture
 * repositories (fixture.h).
 */
#include "git/repo.h"

#include <stdlib.h>

#include "tests/git/fixture.h"
#include "tests/harness.h"
#include "common/banned.h"

static void test_git__accept_trailer_parsing(void)
{
	struct repo_accept a;
	const char *why = NULL;

	CHECK(repo_accept_parse(&a, "parse +15% new parser, slower", &why) ==
	      0);
	CHECK(!strcmp(a.pattern, "parse"));
	CHECK_NEAR(a.bound, 0.15, 1e-12);
	CHECK(!strcmp(a.reason, "new parser, slower"));
	free(a.pattern);
	free(a.reason);
	/* a glob, no '+', a fraction, no reason, blanks around */
	CHECK(repo_accept_parse(&a, "  gb/BM_* 2.5%  ", &why) == 0);
	CHECK(!strcmp(a.pattern, "gb/BM_*"));
	CHECK_NEAR(a.bound, 0.025, 1e-12);
	CHECK(!strcmp(a.reason, ""));
	free(a.pattern);
	free(a.reason);
	CHECK(repo_accept_parse(&a, "", &why) == -1);
	CHECK_CONTAINS(why, "names no benchmark");
	CHECK(repo_accept_parse(&a, "parse", &why) == -1);
	CHECK_CONTAINS(why, "no bound");
	CHECK(repo_accept_parse(&a, "parse lots", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +15", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +0%", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse -5%", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +15%x", &why) == -1);
	CHECK(repo_accept_parse(&a, "parse +inf%", &why) == -1);
}

/* Only the commits of base..head count, and only Gate-Accept trailers. */
static void test_git__accepts_from_base_to_head_only(void)
{
	struct repo *r = NULL;
	struct repo_accept *a = NULL;
	size_t n = 0;
	char *dir, *base, *head, *mid;

	begin();
	dir = at("acc");
	sh("git init -q -b main '%s'", dir);
	sh("cd '%s' && " GIT " commit -q --allow-empty -m one "
	   "-m 'Gate-Accept: old +50%% in base'", dir);
	base = out("git -C '%s' rev-parse HEAD", dir);
	write_file(scratch, "msg2", "two\n\nGate-Accept: parse +15% new "
		   "parser\nSigned-off-by: x <x@x>\n");
	sh("cd '%s' && " GIT " commit -q --allow-empty -F '%s/msg2'", dir,
	   scratch);
	mid = out("git -C '%s' rev-parse HEAD", dir);
	write_file(scratch, "msg3", "three\n\ngate-accept: enc* +5%\n"
		   "Gate-Accept: bad bound\n");
	sh("cd '%s' && " GIT " commit -q --allow-empty -F '%s/msg3'", dir,
	   scratch);
	head = out("git -C '%s' rev-parse HEAD", dir);
	CHECK(repo_open(&r, dir) == 0);
	if (r) {
		CHECK(repo_accepts(&a, &n, r, base, head, NULL) == 0);
		CHECK(n == 2);
		if (n == 2) {
			/* newest first; the malformed one was a warning */
			CHECK(!strcmp(a[0].pattern, "enc*"));
			CHECK(!strcmp(a[0].commit, head));
			CHECK(!strcmp(a[1].pattern, "parse"));
			CHECK(!strcmp(a[1].reason, "new parser"));
			CHECK(!strcmp(a[1].commit, mid));
		}
		CHECK_CONTAINS(msg, "bad bound");
		CHECK_CONTAINS(msg, "gives no bound");
		repo_accepts_release(a, n);
		/* base == head: nothing between them */
		CHECK(repo_accepts(&a, &n, r, head, head, NULL) == 0);
		CHECK(n == 0);
		repo_accepts_release(a, n);
		/* no base: every commit of head */
		CHECK(repo_accepts(&a, &n, r, "", head, NULL) == 0);
		CHECK(n == 3);
		repo_accepts_release(a, n);
	}
	repo_free(r);
	free(dir);
	free(base);
	free(mid);
	free(head);
	end();
}

static const struct harness_test tests[] = {
	TEST(test_git__accept_trailer_parsing),
	TEST(test_git__accepts_from_base_to_head_only),
};

HARNESS_MAIN(tests)
