/*
 * gate/report/load-compare.c and the loader's flags (gate/report/load.h):
 * gate compare's reports load only when REPORT_LOAD_COMPARE asks, each case
 * a benchmark with its figures as written and its values unpaired; gate
 * run's reports without samples (gate record's) only with
 * REPORT_LOAD_SUMMARY, with the same figures as the full report, and a
 * summary load computes no per-pair ratio.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/report/load.h"
#include "common/file.h"
#include "tests/harness.h"

/* A gate compare report as gate/cmd/compare-report.c writes one. */
static const char compare_report[] =
	"{\"schema\": 1, \"gate_version\": \"0.1.0\", \"command\": "
	"\"compare\", \"verdict\": \"fail\", \"exit_code\": 1, "
	"\"advisory\": false, \"protocol\": {\"seed\": 7, \"confidence\": "
	"0.95, \"adjusted_confidence\": 0.9875, \"alpha\": 0.0125, "
	"\"compared\": 2, \"min_effect\": 0.02, \"strict\": false}, "
	"\"benchmarks\": ["
	"{\"name\": \"parse\", \"unit\": \"ms\", \"higher_is_better\": false, "
	"\"verdict\": \"fail\", \"reason\": \"slower\", \"ratio\": "
	"{\"estimate\": 1.1, \"median\": 1.09, \"low\": 1.05, \"high\": null, "
	"\"level\": 0.9875, \"exact\": true}, \"mann_whitney\": {\"u\": 1, "
	"\"p\": 0.004, \"exact\": true}, \"old\": {\"median\": 100, "
	"\"values\": [99, 100, 101]}, \"new\": {\"median\": 110, "
	"\"values\": [109, 110, 111, 112]}},"
	"{\"name\": \"rate\", \"unit\": \"B/s\", \"higher_is_better\": true, "
	"\"verdict\": \"pass\", \"ratio\": {\"estimate\": 0.99, \"median\": "
	"0.99, \"low\": 0.97, \"high\": 1.01, \"level\": 0.9875, \"exact\": "
	"true}, \"old\": {\"median\": 5, \"values\": [5, 5, 5]}, \"new\": "
	"{\"median\": 5, \"values\": [5, 5, 5]}},"
	"{\"name\": \"fresh\", \"unit\": \"ms\", \"higher_is_better\": false, "
	"\"verdict\": \"new\", \"old\": {\"values\": []}, \"new\": "
	"{\"median\": 3, \"values\": [3]}},"
	"{\"name\": \"gone\", \"unit\": \"ms\", \"higher_is_better\": false, "
	"\"verdict\": \"removed\", \"old\": {\"median\": 3, \"values\": [3]}, "
	"\"new\": {\"values\": []}}]}";

/* path's bytes (NUL-ended, freed by the caller), or NULL after error() */
static char *slurp(const char *path)
{
	size_t len;
	char *text;

	return file_read(&text, &len, path, 0) < 0 ? NULL : text;
}

static int load_tree(struct run_report *r, const cJSON *root,
		     unsigned flags, struct gate_err *err)
{
	err->msg[0] = '\0';
	return report_load_tree(r, root, "r.json", flags, err);
}

/* Without REPORT_LOAD_COMPARE a compare report is refused, saying what it
   is; gate compare's own reader (report_load_to) refuses it too. */
static void test_load_compare__refused_unless_asked(void)
{
	cJSON *root = cJSON_Parse(compare_report);
	struct run_report r;
	struct gate_err err;

	CHECK(root != NULL);
	CHECK(load_tree(&r, root, 0, &err) < 0);
	CHECK_CONTAINS(err.msg, "r.json: a gate compare report, not gate run's");
	CHECK(load_tree(&r, root, REPORT_LOAD_SUMMARY, &err) < 0);
	CHECK(r.n == 0 && r.loaded == NULL);
	err.msg[0] = '\0';
	CHECK(report_load_to(&r, compare_report, strlen(compare_report),
			     "r.json", &err) < 0);
	CHECK_CONTAINS(err.msg, "a gate compare report");
	cJSON_Delete(root);
}

/* Each case a benchmark: figures as written (null: NaN), verdicts, the
   medians, the values unpaired with NaN where a side has fewer. */
static void test_load_compare__cases_as_benchmarks(void)
{
	cJSON *root = cJSON_Parse(compare_report);
	struct run_report r;
	struct gate_err err;
	const struct run_bench *b;

	CHECK(load_tree(&r, root, REPORT_LOAD_COMPARE, &err) == 0);
	CHECK_STR(err.msg, "");
	CHECK(report_loaded_compare(&r));
	CHECK(r.n == 4 && r.suite == VERDICT_FAIL);
	CHECK_NEAR(r.level, 0.9875, 0);
	if (r.n != 4)
		goto out;
	b = &r.b[0];
	CHECK_STR(b->run.cfg->name, "parse");
	CHECK_STR(b->run.cfg->unit, "ms");
	CHECK(b->result.verdict == VERDICT_FAIL && b->primary.n == 3);
	CHECK_NEAR(b->primary.estimate, 1.1, 0);
	CHECK_NEAR(b->primary.low, 1.05, 0);
	CHECK(isnan(b->primary.high));
	CHECK_NEAR(b->primary.level, 0.9875, 0);
	CHECK_NEAR(b->primary.head_median, 110, 0);
	CHECK_NEAR(b->primary.base_median, 100, 0);
	CHECK_NEAR(b->primary.mann_whitney_p, 0.004, 0);
	CHECK_STR(b->primary.reason, "slower");
	/* the protocol's floor is every case's (there is no pass_excludes) */
	CHECK_NEAR(b->run.cfg->min_effect, 0.02, 0);
	CHECK_NEAR(b->primary.floor, 0.02, 0);
	CHECK(isnan(b->run.cfg->metrics[0].pass_excludes));
	CHECK(b->run.npairs == 4);
	if (b->run.npairs == 4) {
		CHECK_NEAR(sample_value(&b->run.pairs[3].s[ARM_HEAD],
					b->run.cfg->metric), 112, 0);
		CHECK(isnan(sample_value(&b->run.pairs[3].s[ARM_BASE],
					 b->run.cfg->metric)));
		CHECK_NEAR(sample_value(&b->run.pairs[0].s[ARM_BASE],
					b->run.cfg->metric), 99, 0);
	}
	CHECK(r.b[1].run.cfg->higher_better && r.b[1].primary.verdict ==
	      VERDICT_PASS);
	CHECK(r.b[2].run.is_new && r.b[2].result.verdict == VERDICT_NEW &&
	      r.b[2].primary.n == 0);
	CHECK(r.b[3].run.is_removed && r.b[3].primary.n == 0);
out:
	report_load_release(&r);
	cJSON_Delete(root);
}

/* Every "samples" of a gate run report dropped, as gate record does. */
static void drop_samples(cJSON *root)
{
	cJSON *b;

	cJSON_ArrayForEach(b, cJSON_GetObjectItem(root, "benchmarks"))
		cJSON_DeleteItemFromObject(b, "samples");
}

/* A run report without samples loads only as a summary, with the full
   report's figures; a summary load computes no per-pair ratio. */
static void test_load_compare__summary_without_samples(void)
{
	char *text = slurp("tests/golden/metrics.json");
	cJSON *full = text ? cJSON_Parse(text) : NULL;
	cJSON *bare = full ? cJSON_Duplicate(full, 1) : NULL;
	struct run_report a, s, b;
	struct gate_err err;
	size_t i, k;

	CHECK(full && bare);
	if (!bare)
		goto out;
	drop_samples(bare);
	CHECK(load_tree(&b, bare, 0, &err) < 0);
	CHECK_CONTAINS(err.msg, "lacks \"name\", \"unit\" or \"samples\"");
	CHECK(load_tree(&a, full, 0, &err) == 0);
	CHECK(load_tree(&s, full, REPORT_LOAD_SUMMARY, &err) == 0);
	CHECK(load_tree(&b, bare, REPORT_LOAD_SUMMARY, &err) == 0);
	CHECK(a.n > 0 && a.n == b.n && a.n == s.n);
	for (i = 0; i < a.n && i < b.n && i < s.n; i++) {
		CHECK(a.b[i].run.npairs > 0 && b.b[i].run.npairs == 0);
		CHECK(a.b[i].result.n == b.b[i].result.n);
		for (k = 0; k < a.b[i].result.n && k < b.b[i].result.n; k++) {
			const struct bench_stats *x = &a.b[i].result.m[k];
			const struct bench_stats *y = &b.b[i].result.m[k];

			CHECK(x->verdict == y->verdict && x->n == y->n);
			CHECK_NEAR(y->estimate, x->estimate, 0);
			CHECK_NEAR(y->low, x->low, 0);
			CHECK_NEAR(y->high, x->high, 0);
			CHECK_NEAR(y->level, x->level, 0);
			CHECK_NEAR(y->head_median, x->head_median, 0);
			/* the printers' per-pair ratios: a full load only */
			CHECK(x->ratios != NULL);
			CHECK(s.b[i].result.m[k].ratios == NULL);
			CHECK(y->ratios == NULL);
		}
	}
	CHECK(!report_loaded_compare(&a));
	report_load_release(&a);
	report_load_release(&s);
	report_load_release(&b);
out:
	cJSON_Delete(full);
	cJSON_Delete(bare);
	free(text);
}

static const struct harness_test tests[] = {
	TEST(test_load_compare__refused_unless_asked),
	TEST(test_load_compare__cases_as_benchmarks),
	TEST(test_load_compare__summary_without_samples),
};

HARNESS_MAIN(tests)
