/*
 * gate compare's report is gate run's model written by gate run's writer,
 * so the one loader (gate/report/load.h) reads it back (test-load.c checks
 * the bytes): each case a benchmark with the figures the file holds and
 * its values unpaired; a report without samples (gate record's) loads
 * only with REPORT_LOAD_SUMMARY, with the same figures as the full
 * report, and a summary load computes no per-pair ratio.
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

/* The fixture's cases: "a" and "z" compared (z a count from 0 to 1 fault),
   "gone" only in OLD, "fresh" only in NEW; their figures as written. */
static void test_load_compare__cases_as_benchmarks(void)
{
	char *text = slurp("tests/data/gate-compare-report.json");
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	const cJSON *a, *ratio;
	const struct run_bench *b;
	struct run_report r;
	struct gate_err err;

	CHECK(root != NULL);
	if (!root)
		goto out;
	a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "benchmarks"), 0);
	ratio = cJSON_GetObjectItem(a, "ratio");
	CHECK(load_tree(&r, root, 0, &err) == 0);
	CHECK_STR(err.msg, "");
	CHECK(r.command && !strcmp(r.command, "compare"));
	CHECK(r.n == 4 && r.suite == VERDICT_FAIL && r.exit_code == 1);
	CHECK(r.compared == 2 && r.one_process == 0 && r.note == NULL);
	CHECK_NEAR(r.level, 0.975, 0);
	CHECK_STR(r.rev[ARM_BASE].label, "old.txt");
	CHECK_STR(r.rev[ARM_HEAD].how, "format lines, detected");
	if (r.n != 4)
		goto release;
	b = &r.b[0];
	CHECK_STR(b->run.cfg->name, "a");
	CHECK_STR(b->run.cfg->unit, "s");
	CHECK(b->run.cfg->interval == INTERVAL_MANN_WHITNEY);
	CHECK(run_bench_primary(b)->interval_used == INTERVAL_MANN_WHITNEY);
	CHECK(b->result.verdict == VERDICT_FAIL && run_bench_primary(b)->n == 8);
	CHECK_NEAR(run_bench_primary(b)->estimate, cJSON_GetObjectItem(ratio,
		   "estimate")->valuedouble, 0);
	CHECK_NEAR(run_bench_primary(b)->low, cJSON_GetObjectItem(ratio,
		   "low")->valuedouble, 0);
	CHECK_NEAR(run_bench_primary(b)->high, cJSON_GetObjectItem(ratio,
		   "high")->valuedouble, 0);
	CHECK_NEAR(run_bench_primary(b)->floor, 0.05, 0);
	CHECK_NEAR(run_bench_primary(b)->excludes, 0.1, 0);
	CHECK(run_bench_primary(b)->min_n == 4);
	CHECK(b->run.nsamples[ARM_BASE] == 8 && b->run.nsamples[ARM_HEAD] == 8);
	CHECK_NEAR(sample_value(&b->run.pairs[0].s[ARM_BASE], METRIC_VALUE),
		   1e-3, 1e-15);
	CHECK_NEAR(sample_value(&b->run.pairs[0].s[ARM_HEAD], METRIC_VALUE),
		   1.5e-3, 1e-15);
	CHECK_CONTAINS(run_bench_primary(&r.b[1])->reason, "(new + 1) / (old + 1)");
	CHECK_NEAR(run_bench_primary(&r.b[1])->estimate, 2, 0);
	CHECK(r.b[2].run.is_removed && r.b[2].result.verdict == VERDICT_NEW);
	CHECK(r.b[3].run.is_new && r.b[3].result.verdict == VERDICT_NEW);
	/* the removed case's values are OLD's alone */
	CHECK(r.b[2].run.npairs == 8 && isnan(sample_value(
	      &r.b[2].run.pairs[0].s[ARM_HEAD], METRIC_VALUE)));
release:
	report_load_release(&r);
out:
	cJSON_Delete(root);
	free(text);
}

/* Every "samples" of a report dropped, as gate record does. */
static void drop_samples(cJSON *root)
{
	cJSON *b;

	cJSON_ArrayForEach(b, cJSON_GetObjectItem(root, "benchmarks"))
		cJSON_DeleteItemFromObject(b, "samples");
}

/* A report without samples loads only as a summary, with the full
   report's figures; a summary load computes no per-pair ratio. */
static void summary_without_samples(const char *path)
{
	char *text = slurp(path);
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
	report_load_release(&a);
	report_load_release(&s);
	report_load_release(&b);
out:
	cJSON_Delete(full);
	cJSON_Delete(bare);
	free(text);
}

static void test_load_compare__summary_without_samples(void)
{
	summary_without_samples("tests/golden/metrics.json");
	summary_without_samples("tests/data/gate-compare-report.json");
}

static const struct harness_test tests[] = {
	TEST(test_load_compare__cases_as_benchmarks),
	TEST(test_load_compare__summary_without_samples),
};

HARNESS_MAIN(tests)
