/*
 * Unit tests for gate/exec/layout.c: an arm's restored file (its ".git"
 * file) before each run, whatever a run left in its place, and left alone
 * (the same inode) when it already holds its text, so that runs of one arm
 * going on in parallel never see it missing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "common/tree.h"
#include "gate/exec/layout.h"
#include "tests/harness.h"

#define TEXT "gitdir: /somewhere/gate/a.git\n"

struct fixture {
	char dir[64];
	char *path;
	struct layout l;
};

static void setup_text(struct fixture *f, const char *text)
{
	struct layout l = LAYOUT_INIT;
	struct layout_arm set = { .vars = NULL };
	char *const *env;

	snprintf(f->dir, sizeof(f->dir), "/tmp/gate-test-layout.XXXXXX");
	CHECK(mkdtemp(f->dir) != NULL);
	f->path = xasprintf("%s/.git", f->dir);
	f->l = l;
	CHECK(layout_init(&f->l, 0, 0, 1, NULL, NULL) == 0);
	CHECK(layout_before(&f->l, &env) == 0);
	set.restore_path = xstrdup(f->path);
	set.restore_text = xstrdup(text);
	layout_arm_set(&f->l, 0, &set);
}

static void setup(struct fixture *f)
{
	setup_text(f, TEXT);
}

static int restore(struct fixture *f)
{
	char *const *env;
	const char *const *sandbox;

	return layout_arm_before(&f->l, 0, NULL, &env, &sandbox);
}

static void check_restored(struct fixture *f)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;

	CHECK(lstat(f->path, &st) == 0 && S_ISREG(st.st_mode));
	CHECK(file_read(&text, &len, f->path, 4096) == 0);
	CHECK_STR(text, TEXT);
	free(text);
}

static void teardown(struct fixture *f)
{
	layout_release(&f->l);
	CHECK(tree_remove(f->dir, NULL) == 0);
	free(f->path);
}

static void test_layout__restores_what_a_run_removed(void)
{
	struct fixture f;

	setup(&f);
	CHECK(restore(&f) == 0);
	check_restored(&f);
	CHECK(unlink(f.path) == 0);
	CHECK(restore(&f) == 0);
	check_restored(&f);
	teardown(&f);
}

static void test_layout__same_text_keeps_the_file(void)
{
	struct fixture f;
	struct stat a, b;
	char *held;

	setup(&f);
	CHECK(restore(&f) == 0);
	/* a second name keeps the first inode alive, so a file removed and
	   created again could not get its number back */
	held = xasprintf("%s/held", f.dir);
	CHECK(link(f.path, held) == 0);
	CHECK(stat(f.path, &a) == 0);
	CHECK(restore(&f) == 0);
	CHECK(stat(f.path, &b) == 0);
	/* not rewritten: a parallel run of the arm never sees it go */
	CHECK(a.st_ino == b.st_ino);
	CHECK(b.st_nlink == 2);
	free(held);
	teardown(&f);
}

static void test_layout__replaces_other_text_a_directory_or_a_link(void)
{
	struct fixture f;
	char *target;
	FILE *o;

	setup(&f);
	o = fopen(f.path, "w");
	CHECK(o != NULL);
	fputs("gitdir: /the/users/repo/.git\n", o);
	fclose(o);
	CHECK(restore(&f) == 0);
	check_restored(&f);

	CHECK(unlink(f.path) == 0);
	CHECK(mkdir(f.path, 0755) == 0);
	CHECK(restore(&f) == 0);
	check_restored(&f);

	/* a link to a file outside: replaced, its target untouched */
	target = xasprintf("%s/outside", f.dir);
	o = fopen(target, "w");
	CHECK(o != NULL);
	fputs("keep\n", o);
	fclose(o);
	CHECK(unlink(f.path) == 0);
	CHECK(symlink(target, f.path) == 0);
	CHECK(restore(&f) == 0);
	check_restored(&f);
	{
		char *text = NULL;
		size_t len = 0;

		CHECK(file_read(&text, &len, target, 4096) == 0);
		CHECK_STR(text, "keep\n");
		free(text);
	}
	free(target);
	teardown(&f);
}

/* A gitdir line of a deep path (longer than any fixed buffer) is kept
   too, not rewritten before every run. */
static void test_layout__long_text_keeps_the_file(void)
{
	struct fixture f;
	struct stat a, b;
	char text[3000];

	memset(text, 'd', sizeof(text) - 2);
	memcpy(text, "gitdir: /", 9);
	text[sizeof(text) - 2] = '\n';
	text[sizeof(text) - 1] = '\0';
	setup_text(&f, text);
	CHECK(restore(&f) == 0);
	CHECK(stat(f.path, &a) == 0);
	CHECK((size_t)a.st_size == strlen(text));
	CHECK(restore(&f) == 0);
	CHECK(stat(f.path, &b) == 0);
	CHECK(a.st_ino == b.st_ino);
	CHECK(a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
	      a.st_mtim.tv_nsec == b.st_mtim.tv_nsec);
	teardown(&f);
}

/* Where the file cannot be written (its directory is gone), the run is
   refused with an error, and nothing is left half made. */
static void test_layout__cannot_restore_is_an_error(void)
{
	struct fixture f;
	char *gone;

	setup(&f);
	gone = xasprintf("%s/gone", f.dir);
	free(f.l.arm[0].restore_path);
	f.l.arm[0].restore_path = xasprintf("%s/.git", gone);
	CHECK(restore(&f) < 0);
	CHECK(access(gone, F_OK) < 0);
	/* once the directory is back, the next run restores the file */
	CHECK(mkdir(gone, 0755) == 0);
	CHECK(restore(&f) == 0);
	CHECK(unlink(f.l.arm[0].restore_path) == 0);
	CHECK(rmdir(gone) == 0);
	free(gone);
	teardown(&f);
}

static const struct harness_test tests[] = {
	TEST(test_layout__long_text_keeps_the_file),
	TEST(test_layout__cannot_restore_is_an_error),
	TEST(test_layout__restores_what_a_run_removed),
	TEST(test_layout__same_text_keeps_the_file),
	TEST(test_layout__replaces_other_text_a_directory_or_a_link),
};

HARNESS_MAIN(tests)
