/*
 * gate/decide/plan.c: the plan of a run, and base's policy over head's config.
 * Every policy key of the table (gate/config/config-table.c) is tried: head's
 * change leaves the plan as base alone would make it, and is listed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/config/config.h"
#include "gate/config/config-table.h"
#include "gate/decide/plan.h"
#include "tests/harness.h"

static int parse(struct config *cfg, const char *text)
{
	return config_parse(cfg, text, strlen(text), "gate.json");
}

static int has_diff(const struct plan *p, const char *part)
{
	size_t i;

	for (i = 0; i < p->ndiff; i++)
		if (strstr(p->diff[i], part))
			return 1;
	return 0;
}

/*
 * A head change of each policy key: where it goes (top, defaults, or the
 * benchmark "x" a timed one, "s" a suite) and its value. A policy key
 * added to the table without a row here fails
 * test_plan__every_policy_key_is_tried.
 */
static const struct {
	const char *key, *where, *value;
} changes[] = {
	{ "build_timeout", "top", "5" },
	{ "cache_builds", "top", "9" },
	{ "serial_build", "top", "true" },
	{ "artifacts", "x", "[\"a.out\"]" },
	{ "sources", "top", "[\"src/*\"]" },
	{ "writable", "top", "[\"out\"]" },
	{ "build_network", "top", "true" },
	{ "pass_env", "top", "[\"CCACHE_DIR\"]" },
	{ "build_caches", "top", "[\"~/.cache/ccache\"]" },
	{ "pairs", "x", "7" },
	{ "max_pairs", "x", "30" },
	{ "warmup", "x", "0" },
	{ "metric", "x", "\"cpu\"" },
	{ "metrics", "x", "[\"wall\", \"cpu\"]" },
	{ "gate", "defaults", "[\"cpu\"]" },
	{ "min_effect", "x", "0.5" },
	{ "pass_excludes", "defaults", "0.9" },
	{ "counter", "x", "\"valgrind\"" },
	{ "timeout", "defaults", "5" },
	{ "parity", "x", "false" },
	{ "statistic", "x", "\"mean\"" },
	{ "interval", "x", "\"bca\"" },
	{ "rule", "x", "\"significant\"" },
	{ "target_halfwidth", "x", "0.3" },
	{ "expect", "s", "[\"^a\"]" },
	{ "ignore", "s", "[\"^b\"]" },
	{ "confidence", "defaults", "0.8" },
	{ "resamples", "defaults", "2000" },
	{ "budget", "defaults", "10" },
};

/* base's gate.json, with one change (key at where) when key is not NULL */
static char *config_text(const char *key, const char *where,
			 const char *value)
{
	char top[128] = "", def[128] = "", x[128] = "", s[128] = "";
	char *field = !where ? NULL : !strcmp(where, "top") ? top :
		      !strcmp(where, "defaults") ? def :
		      !strcmp(where, "x") ? x : s;
	/* a gating "cpu" needs it measured: the change says both */
	const char *extra = key && !strcmp(key, "gate") ?
			    "\"metrics\": [\"wall\", \"cpu\"], " : "";
	char *out;

	if (field)
		snprintf(field, 128, "\"%s\": %s, ", key, value);
	out = malloc(1024);
	snprintf(out, 1024, "{%s\"defaults\": {%s%s\"warmup\": 1}, "
		 "\"benchmarks\": [{%s\"name\": \"x\", \"run\": [\"./b\"]}, "
		 "{%s\"name\": \"s\", \"run\": [\"./suite\"], \"format\": "
		 "\"lines\"}]}", top, extra, def, x, s);
	return out;
}

/* Every policy key's value in p equals its value in q. */
static void check_same_policy(const struct plan *p, const struct plan *q,
			      const char *changed)
{
	const struct config_key *t;
	size_t n, i, j;
	char *a, *b;

	t = config_key_table(&n);
	for (i = 0; i < n; i++) {
		if (t[i].owner != OWNER_POLICY || !t[i].show)
			continue;
		for (j = 0; j < p->n; j++) {
			if (!config_key_differs(&t[i], &p->eff, &p->bench[j],
						&q->eff, &q->bench[j], &a, &b))
				continue;
			fprintf(stderr, "  head's \"%s\" changed \"%s\" of "
				"`%s`: %s, base alone %s\n", changed,
				t[i].name, p->bench[j].name, a, b);
			CHECK(!"the plan follows base's policy");
			free(a);
			free(b);
		}
	}
	CHECK(p->confidence == q->confidence && p->budget == q->budget);
}

static void test_plan__head_policy_change_changes_nothing(void)
{
	struct plan_overrides o = PLAN_OVERRIDES_INIT;
	struct config base, head;
	struct plan ref = PLAN_INIT;
	char *text = config_text(NULL, NULL, NULL);
	size_t i;

	CHECK(parse(&base, text) == 0);
	free(text);
	CHECK(plan_make(&ref, &base, &base, NULL, &o, NULL) == 0);
	CHECK(ref.ndiff == 0 && ref.n == 2);
	for (i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		struct plan p = PLAN_INIT;
		char want[64];

		text = config_text(changes[i].key, changes[i].where,
				   changes[i].value);
		if (parse(&head, text) < 0) {
			fprintf(stderr, "  %s\n", text);
			CHECK(!"head's config parses");
			free(text);
			continue;
		}
		free(text);
		CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
		check_same_policy(&p, &ref, changes[i].key);
		snprintf(want, sizeof(want), "\"%s\"", changes[i].key);
		/* "metric" is one aspect of "metrics": listed as that */
		if (!has_diff(&p, !strcmp(changes[i].key, "metric") ?
			      "\"metrics\"" : want)) {
			fprintf(stderr, "  head's \"%s\" is not listed\n",
				changes[i].key);
			CHECK(!"every ignored difference is listed");
		}
		CHECK(!p.bench[0].redefined && !p.bench[1].redefined);
		plan_release(&p);
		config_release(&head);
	}
	plan_release(&ref);
	config_release(&base);
}

static void test_plan__every_policy_key_is_tried(void)
{
	const struct config_key *t;
	size_t n, i, j;

	t = config_key_table(&n);
	for (i = 0; i < n; i++) {
		if (t[i].owner != OWNER_POLICY)
			continue;
		for (j = 0; j < sizeof(changes) / sizeof(changes[0]); j++)
			if (!strcmp(changes[j].key, t[i].name))
				break;
		if (j == sizeof(changes) / sizeof(changes[0])) {
			fprintf(stderr, "  no head change of \"%s\"\n",
				t[i].name);
			CHECK(!"every policy key has a change in changes[]");
		}
	}
}

/* --policy head: head's value is used, and still listed. */
static void test_plan__policy_head_uses_head(void)
{
	struct plan_overrides o = PLAN_OVERRIDES_INIT;
	struct config base, head;
	struct plan p = PLAN_INIT;
	char *bt = config_text(NULL, NULL, NULL);
	char *ht = config_text("target_halfwidth", "x", "0.6");

	CHECK(parse(&base, bt) == 0 && parse(&head, ht) == 0);
	o.policy_head = 1;
	CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
	CHECK_NEAR(p.bench[0].target_halfwidth, 0.6, 1e-12);
	CHECK(has_diff(&p, "\"target_halfwidth\" of `x`"));
	CHECK(has_diff(&p, "(--policy head)"));
	/* and head's commands in both arms: nothing redefined */
	CHECK(!p.bench[0].base_def);
	plan_release(&p);
	config_release(&base);
	config_release(&head);
	free(bt);
	free(ht);
}

/*
 * Definitions are each arm's: base's run goes to base's arm; a changed
 * "run" or "format" redefines the benchmark; a benchmark only base
 * declares is removed (a rename is both).
 */
static void test_plan__definitions_are_each_arms(void)
{
	struct plan_overrides o = PLAN_OVERRIDES_INIT;
	struct config base, head;
	struct plan p = PLAN_INIT;

	CHECK(parse(&base, "{\"build\": \"make base\", \"benchmarks\": ["
		    "{\"name\": \"a\", \"run\": [\"./a\"]},"
		    "{\"name\": \"b1\", \"run\": [\"./b\"]},"
		    "{\"name\": \"c\", \"run\": \"./c\", \"check\": \"./t\"}]}")
	      == 0);
	CHECK(parse(&head, "{\"build\": \"make head\", \"benchmarks\": ["
		    "{\"name\": \"a\", \"run\": [\"./a\", \"--fast\"]},"
		    "{\"name\": \"b1-v2\", \"run\": [\"./b\"]},"
		    "{\"name\": \"c\", \"run\": \"./c\"}]}") == 0);
	CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
	CHECK(p.n == 3);
	CHECK(p.bench[0].base_def == &base.benches[0]);
	CHECK(p.bench[0].redefined &&
	      strstr(p.bench[0].redefined, "\"--fast\""));
	CHECK_STR(bench_arm_run(&p.bench[0], 0)->argv[0], "./a");
	CHECK(!bench_arm_run(&p.bench[0], 0)->argv[1]);
	CHECK_STR(bench_arm_run(&p.bench[0], 1)->argv[1], "--fast");
	/* the rename: b1-v2 is new, b1 removed */
	CHECK(!p.bench[1].base_def && !p.bench[1].redefined);
	CHECK(p.nremoved == 1 && p.nremoved && !strcmp(p.removed[0]->name,
							"b1"));
	CHECK(has_diff(&p, "head removes benchmark `b1`"));
	/* the top-level build builds every benchmark: a change of it
	   redefines each one base declares, shown side by side */
	CHECK(p.bench[2].redefined && p.bench[2].base_def == &base.benches[2]);
	CHECK(p.bench[2].redefined && strstr(p.bench[2].redefined,
		"\"build\": base \"make base\", head \"make head\""));
	CHECK(p.bench[0].redefined && strstr(p.bench[0].redefined,
					     "\"build\": base"));
	/* and a check removed in head: each arm checks its own, but what
	   is measured changed with it */
	CHECK(p.bench[2].redefined && strstr(p.bench[2].redefined,
		"\"check\": base \"./t\", head none"));
	plan_release(&p);
	config_release(&base);
	config_release(&head);
}

/* "build" or "check" alone redefines; the same text redefines nothing. */
static void test_plan__build_and_check_redefine(void)
{
	static const struct {
		const char *base, *head;
		int redefined;		/* of benchmark "a" */
		const char *says;
	} cases[] = {
		{ "{\"build\": \"make\", \"benchmarks\": [{\"name\": \"a\", "
		  "\"run\": \"./a\"}]}",
		  "{\"build\": \"make\", \"benchmarks\": [{\"name\": \"a\", "
		  "\"run\": \"./a\"}]}", 0, NULL },
		/* head compiles something else under the same name */
		{ "{\"build\": \"make\", \"benchmarks\": [{\"name\": \"a\", "
		  "\"run\": \"./a\"}]}",
		  "{\"build\": \"cc -o a old/a.c\", \"benchmarks\": [{\"name\": "
		  "\"a\", \"run\": \"./a\"}]}", 1,
		  "\"build\": base \"make\", head \"cc -o a old/a.c\"" },
		/* a string and an argv of the same words differ as values */
		{ "{\"build\": \"make\", \"benchmarks\": [{\"name\": \"a\", "
		  "\"run\": \"./a\"}]}",
		  "{\"build\": [\"make\"], \"benchmarks\": [{\"name\": \"a\", "
		  "\"run\": \"./a\"}]}", 1, "head [\"make\"]" },
		/* a build added where base had none */
		{ "{\"benchmarks\": [{\"name\": \"a\", \"run\": \"./a\"}]}",
		  "{\"build\": \"make\", \"benchmarks\": [{\"name\": \"a\", "
		  "\"run\": \"./a\"}]}", 1, "base none, head \"make\"" },
		{ "{\"benchmarks\": [{\"name\": \"a\", \"run\": \"./a\", "
		  "\"check\": [\"./t\"]}]}",
		  "{\"benchmarks\": [{\"name\": \"a\", \"run\": \"./a\", "
		  "\"check\": [\"./t\", \"-q\"]}]}", 1,
		  "\"check\": base [\"./t\"], head [\"./t\", \"-q\"]" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plan_overrides o = PLAN_OVERRIDES_INIT;
		struct config base, head;
		struct plan p = PLAN_INIT;

		CHECK(parse(&base, cases[i].base) == 0);
		CHECK(parse(&head, cases[i].head) == 0);
		CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
		CHECK(!p.bench[0].redefined == !cases[i].redefined);
		if (cases[i].says && (!p.bench[0].redefined ||
				      !strstr(p.bench[0].redefined,
					      cases[i].says))) {
			fprintf(stderr, "  case %zu: \"%s\", want \"%s\"\n", i,
				p.bench[0].redefined ? p.bench[0].redefined :
				"(null)", cases[i].says);
			CHECK(!"the redefinition says both values");
		}
		/* a policy key it is not: nothing of it in the differences */
		CHECK(p.ndiff == 0);
		plan_release(&p);
		config_release(&base);
		config_release(&head);
	}
}

/*
 * A suite's config with "ignore" patterns: n long ones, then extra (a
 * JSON list tail such as ", \"^b$\"") in head.
 */
static char *ignore_config(size_t n, const char *extra)
{
	size_t size = 256 + n * 80 + strlen(extra), o, i;
	char *t = malloc(size);

	o = (size_t)snprintf(t, size, "{\"benchmarks\": [{\"name\": \"s\", "
			     "\"run\": \"./s\", \"format\": \"lines\", "
			     "\"ignore\": [");
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(t + o, size - o, "%s\"^case-%02zu-with-a-"
				      "long-name-that-is-set-aside$\"",
				      i ? ", " : "", i);
	snprintf(t + o, size - o, "%s]}]}", extra);
	return t;
}

/*
 * Values are compared as values, never as printed text: head's "ignore"
 * pattern added after 511 bytes of base's list (once cut away, equal), and
 * one pattern holding `", "` (printed like two), are differences: listed,
 * and base's list is the plan's.
 */
static void test_plan__policy_values_compared_as_values(void)
{
	struct plan_overrides o = PLAN_OVERRIDES_INIT;
	struct config base, head;
	struct plan p = PLAN_INIT;
	char *bt = ignore_config(16, ""), *ht = ignore_config(16, ", \"^b$\"");
	size_t i;

	/* base's list alone prints in more than 511 bytes */
	CHECK(strlen(bt) > 700);
	CHECK(parse(&base, bt) == 0 && parse(&head, ht) == 0);
	CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
	CHECK(p.bench[0].nignore == 16);
	CHECK(has_diff(&p, "head changes \"ignore\" of `s`"));
	/* the sentence shows where they differ, cut to a readable size */
	CHECK(has_diff(&p, "\"^b$\"]"));
	for (i = 0; i < p.ndiff; i++)
		CHECK(strlen(p.diff[i]) < 900);
	plan_release(&p);
	config_release(&base);
	config_release(&head);
	free(bt);
	free(ht);
	CHECK(parse(&base, "{\"benchmarks\": [{\"name\": \"s\", \"run\": "
		    "\"./s\", \"format\": \"lines\", \"ignore\": [\"a\", "
		    "\"b\"]}]}") == 0);
	CHECK(parse(&head, "{\"benchmarks\": [{\"name\": \"s\", \"run\": "
		    "\"./s\", \"format\": \"lines\", \"ignore\": "
		    "[\"a\\\", \\\"b\"]}]}") == 0);
	CHECK(head.benches[0].nignore == 1);
	p = (struct plan)PLAN_INIT;
	CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
	CHECK(p.bench[0].nignore == 2);
	CHECK(has_diff(&p, "to [\"a\\\", \\\"b\"]"));
	plan_release(&p);
	config_release(&base);
	config_release(&head);
}

/* Keys sharing a field (the metrics): each difference says its own
   values, not the ones left after another was adopted. */
static void test_plan__shared_field_differences(void)
{
	struct plan_overrides o = PLAN_OVERRIDES_INIT;
	struct config base, head;
	struct plan p = PLAN_INIT;

	CHECK(parse(&base, "{\"benchmarks\": [{\"name\": \"x\", \"run\": "
		    "\"./x\", \"metrics\": [\"wall\", \"cpu\"]}]}") == 0);
	CHECK(parse(&head, "{\"benchmarks\": [{\"name\": \"x\", \"run\": "
		    "\"./x\", \"metrics\": [\"wall\"], \"min_effect\": 0.5}]}")
	      == 0);
	CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
	CHECK(has_diff(&p, "\"metrics\" of `x` from [\"wall\", \"cpu\"] to "
		       "[\"wall\"]"));
	CHECK(has_diff(&p, "\"min_effect\" of `x` from {\"wall\": 0.05, "
		       "\"cpu\": 0.05} to {\"wall\": 0.5}"));
	CHECK(p.bench[0].nmetrics == 2);
	plan_release(&p);
	config_release(&base);
	config_release(&head);
}

static const struct harness_test tests[] = {
	TEST(test_plan__head_policy_change_changes_nothing),
	TEST(test_plan__every_policy_key_is_tried),
	TEST(test_plan__policy_head_uses_head),
	TEST(test_plan__definitions_are_each_arms),
	TEST(test_plan__build_and_check_redefine),
	TEST(test_plan__policy_values_compared_as_values),
	TEST(test_plan__shared_field_differences),
};

HARNESS_MAIN(tests)
