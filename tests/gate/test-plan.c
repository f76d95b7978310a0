/*
 * gate/plan.c: the plan of a run, and base's policy over head's config.
 */
#include <stdlib.h>
#include <string.h>

#include "gate/config.h"
#include "gate/plan.h"
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
 * Head raises its floor and the adaptive target with it: base's floor
 * decides, and so does the target the looks stop at, or head could end
 * base's gate early and noisy by widening it.
 */
static void test_plan__target_halfwidth_follows_base(void)
{
	struct config base, head;
	struct plan p = PLAN_INIT;
	struct plan_overrides o = PLAN_OVERRIDES_INIT;

	CHECK(parse(&base, "{\"benchmarks\": [{\"name\": \"x\", \"run\": "
		    "[\"./b\"], \"min_effect\": 0.05}]}") == 0);
	CHECK(parse(&head, "{\"benchmarks\": [{\"name\": \"x\", \"run\": "
		    "[\"./b\"], \"min_effect\": 0.5, \"target_halfwidth\": "
		    "0.6}]}") == 0);
	if (plan_make(&p, &head, &base, NULL, &o, NULL) < 0 || p.n != 1) {
		CHECK(!"a plan of one benchmark");
		return;
	}
	CHECK_NEAR(p.bench[0].min_effect, 0.05, 1e-12);
	CHECK_NEAR(p.bench[0].target_halfwidth, 0.05, 1e-12);
	CHECK(has_diff(&p, "head raises the target_halfwidth of `x` from 5% to 60%: base's target_halfwidth is used"));
	plan_release(&p);

	/* --policy head: head's, and still listed */
	o.policy_head = 1;
	CHECK(plan_make(&p, &head, &base, NULL, &o, NULL) == 0);
	CHECK_NEAR(p.bench[0].target_halfwidth, 0.6, 1e-12);
	CHECK(has_diff(&p, "target_halfwidth of `x`"));
	plan_release(&p);
	config_release(&base);
	config_release(&head);
}

static const struct harness_test tests[] = {
	TEST(test_plan__target_halfwidth_follows_base),
};

HARNESS_MAIN(tests)
