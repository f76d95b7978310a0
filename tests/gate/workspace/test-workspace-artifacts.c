/*
 * gate/workspace/workspace-artifacts.c: declared build artifacts hashed in both
 * arms, each file once per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/tree.h"
#include "common/sha256.h"
#include "gate/config/config.h"
#include "gate/exec/layout.h"
#include "gate/measure/measure.h"
#include "gate/workspace/workspace.h"
#include "tests/harness.h"
#include "common/banned.h"

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

static void hex_of(const char *text, char hex[65])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, text, strlen(text));
	sha256_final_hex(&s, hex);
}

static void arms(struct workspace *w, char *dirs[2])
{
	size_t a;

	for (a = 0; a < 2; a++)
		w->arm[a].dir = xstrdup(dirs[a]);
}

/*
 * Two benchmarks inheriting one top-level "artifacts" list: the second
 * takes the hashes the first computed (the file is read once per run), so
 * a file changed between the two still shows its first hash in this run,
 * and its new one in the next.
 */
static void test_workspace_artifacts__each_file_hashed_once_per_run(void)
{
	char ta[] = "/tmp/gate-art-a.XXXXXX", tb[] = "/tmp/gate-art-b.XXXXXX";
	char *dirs[2], bin[] = "bin", name[] = "one", *list[] = { bin };
	char x[65], y[65];
	struct workspace w = WORKSPACE_INIT, w2 = WORKSPACE_INIT;
	struct bench_cfg cfg;
	struct bench_run one, two, three;

	dirs[0] = mkdtemp(ta);
	dirs[1] = mkdtemp(tb);
	if (!dirs[0] || !dirs[1]) {
		CHECK(!"temporary directories");
		return;
	}
	put(dirs[0], "bin", "x");
	put(dirs[1], "bin", "x");
	hex_of("x", x);
	hex_of("y", y);
	memset(&cfg, 0, sizeof(cfg));
	cfg.name = name;
	cfg.artifacts = list;
	cfg.nartifacts = 1;
	memset(&one, 0, sizeof(one));
	memset(&two, 0, sizeof(two));
	memset(&three, 0, sizeof(three));
	one.cfg = two.cfg = three.cfg = &cfg;
	arms(&w, dirs);
	CHECK(workspace_artifacts(&w, &one) == 0);
	CHECK(one.nartifacts == 1 && workspace_artifacts_identical(&one));
	CHECK_STR(one.artifacts[0].sha256[0], x);
	put(dirs[0], "bin", "y");
	CHECK(workspace_artifacts(&w, &two) == 0);
	CHECK(two.nartifacts == 1);
	CHECK_STR(two.artifacts[0].sha256[0], x);
	/* the next run reads the file again */
	arms(&w2, dirs);
	CHECK(workspace_artifacts(&w2, &three) == 0);
	CHECK(three.nartifacts == 1 && !workspace_artifacts_identical(&three));
	CHECK_STR(three.artifacts[0].sha256[0], y);
	bench_run_release(&one);
	bench_run_release(&two);
	bench_run_release(&three);
	workspace_release(&w);
	workspace_release(&w2);
	tree_remove(dirs[0], NULL);
	tree_remove(dirs[1], NULL);
}

static const struct harness_test tests[] = {
	TEST(test_workspace_artifacts__each_file_hashed_once_per_run),
};

HARNESS_MAIN(tests)
