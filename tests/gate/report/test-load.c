/*
 * report_load (gate/report/load.c): a real `gate run --json` report and a
 * `gate compare --json` one read back write the same bytes, and reports of
 * a schema gate does not read are refused with the file and the schema
 * gate reads. test-view.c (beside this file) round-trips its fixed models;
 * tests/cli/load.sh runs this binary on reports gate run and gate compare
 * have just written (GATE_TEST_REPORT, GATE_TEST_COMPARE_REPORT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/report/load.h"
#include "common/file.h"
#include "tests/harness.h"

/* path's bytes (NUL-ended, freed by the caller), or NULL after error() */
static char *slurp(const char *path, size_t *len)
{
	char *text;

	*len = 0;
	return file_read(&text, len, path, 0) < 0 ? NULL : text;
}

static char *json_of(const struct run_report *r)
{
	char path[] = "/tmp/gate-test-load-XXXXXX";
	size_t len;
	char *text;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK(report_json(path, r) == 0);
	text = slurp(path, &len);
	remove(path);
	return text;
}

static int load(struct run_report *r, const char *text, const char *origin,
		char *msg, size_t size)
{
	int rc;

	msg[0] = '\0';
	error_capture(msg, size, 1);
	rc = report_load(r, text, strlen(text), origin);
	error_capture(NULL, 0, 0);
	return rc;
}

/*
 * A report (the file $env names, else the one committed as path) loads
 * into the model and writes the same bytes again.
 */
static void round_trip(const char *env, const char *path)
{
	struct run_report r;
	size_t len;
	char *text, *again = NULL, msg[512];

	if (getenv(env) && *getenv(env))
		path = getenv(env);
	text = slurp(path, &len);
	CHECK(text && len > 0);
	if (!text)
		return;
	CHECK(load(&r, text, path, msg, sizeof(msg)) == 0);
	/* measured, or an identical build (artifacts) passed unmeasured */
	CHECK(r.n > 0 && (r.b[0].run.npairs > 0 ||
			  (r.b[0].run.identical == 1 &&
			   r.b[0].run.nartifacts > 0)));
	if (r.n)
		again = json_of(&r);
	if (!again || strcmp(text, again))
		fprintf(stderr, "%s: the loaded report writes differently:\n"
			"%s\n", path, again ? again : "(none)");
	CHECK(again && !strcmp(text, again));
	report_load_release(&r);
	free(text);
	free(again);
}

/* gate run's report: a timed benchmark and a suite's cases. */
static void test_load__gate_run_report_round_trips(void)
{
	round_trip("GATE_TEST_REPORT", "tests/data/gate-run-report.json");
}

/* gate compare's: the same model, each case unpaired (named apart from
   "round_trips", which the CLI tests run alone on gate run's reports). */
static void test_load__gate_compare_report_writes_back(void)
{
	round_trip("GATE_TEST_COMPARE_REPORT",
		   "tests/data/gate-compare-report.json");
}

/* Any schema but 1 (a newer one, 0, a string, null, none) is refused. */
static void test_load__refuses_unknown_schemas(void)
{
	static const char *const schemas[] = {
		"\"schema\": 2,", "\"schema\": 0,", "\"schema\": \"1\",",
		"\"schema\": null,", "",
	};
	struct run_report r;
	char text[256], msg[512];
	size_t i;

	for (i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++) {
		snprintf(text, sizeof(text), "{%s \"gate_version\": \"9.0\", "
			 "\"benchmarks\": []}", schemas[i]);
		CHECK(load(&r, text, "old.json", msg, sizeof(msg)) < 0);
		CHECK_CONTAINS(msg, "old.json: ");
		CHECK_CONTAINS(msg, "it reads schema 1");
		CHECK(r.n == 0 && r.b == NULL && r.loaded == NULL);
	}
	CHECK(load(&r, "{\"schema\": 2, \"benchmarks\": []}", "new.json",
		   msg, sizeof(msg)) < 0);
	CHECK_CONTAINS(msg, "report schema 2 is not one this gate reads");
	snprintf(text, sizeof(text), "{\"schema\": 1, \"benchmarks\": []}");
	CHECK(load(&r, text, "empty.json", msg, sizeof(msg)) == 0);
	report_load_release(&r);
}

/* Names gate never writes are refused, not read as a default. */
static void test_load__refuses_unknown_names(void)
{
	static const char text[] =
		"{\"schema\": 1, \"benchmarks\": [{\"name\": \"x\", "
		"\"unit\": \"s\", \"verdict\": \"pass\", \"statistic\": "
		"\"mode\", \"samples\": []}]}";
	struct run_report r;
	char msg[512];

	CHECK(load(&r, text, "odd.json", msg, sizeof(msg)) < 0);
	CHECK_CONTAINS(msg, "odd.json: unknown statistic \"mode\"");
}

/*
 * report_load_to: every refusal (bad JSON, another schema, no list, an
 * unknown name, a benchmark without a name) comes back in the caller's
 * gate_err, the same message report_load prints, and nothing is printed.
 */
static void test_load__to_fills_err_and_prints_nothing(void)
{
	static const char *const bad[] = {
		"{\"schema\": 1, \"benchmarks\": [}",
		"{\"schema\": 2, \"benchmarks\": []}",
		"{\"schema\": 1}",
		("{\"schema\": 1, \"benchmarks\": [{\"name\": \"x\", "
		 "\"unit\": \"s\", \"verdict\": \"meh\", \"samples\": []}]}"),
		"{\"schema\": 1, \"benchmarks\": [{\"unit\": \"s\"}]}",
	};
	struct run_report r;
	struct gate_err err;
	char printed[512], want[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(load(&r, bad[i], "b.json", want, sizeof(want)) < 0);
		err.msg[0] = '\0';
		printed[0] = '\0';
		error_capture(printed, sizeof(printed), 1);
		CHECK(report_load_to(&r, bad[i], strlen(bad[i]), "b.json",
				     &err) < 0);
		error_capture(NULL, 0, 0);
		CHECK_STR(printed, "");
		CHECK_CONTAINS(err.msg, "b.json");
		CHECK_STR(err.msg, want);
		CHECK(r.n == 0 && r.b == NULL && r.loaded == NULL);
	}
}

/*
 * The per-pair ratios a loaded report's printers draw are the ones a full
 * decision on its samples forms (verdict_bench, as load_ratios ran it
 * before), metric by metric, exactly: each fixed model's and the real
 * report's.
 */
static void test_load__ratios_are_the_decisions(void)
{
	static const char *const paths[] = {
		"tests/golden/plain.json", "tests/golden/metrics.json",
		"tests/golden/suite.json", "tests/golden/noisy.json",
		"tests/golden/advisory.json", "tests/golden/error.json",
		"tests/golden/artifacts.json", "tests/golden/policy.json",
		"tests/data/gate-run-report.json",
	};
	size_t p, i, j, k, drawn = 0;

	for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		struct run_report r;
		size_t len;
		char *text = slurp(paths[p], &len), msg[512];

		CHECK(text && load(&r, text, paths[p], msg, sizeof(msg)) == 0);
		for (i = 0; text && i < r.n; i++) {
			const struct run_bench *b = &r.b[i];
			struct verdict_opts vo = { 1 - r.level, 200, r.seed,
						   r.strict };
			struct bench_result full;
			int decided = !b->run.error && b->run.npairs &&
				      !b->run.is_new && !b->run.is_removed;

			for (j = 0; !decided && j < b->result.n; j++)
				CHECK(b->result.m[j].ratios == NULL);
			if (!decided)
				continue;
			memset(&full, 0, sizeof(full));
			verdict_bench(&full, &b->run, &vo);
			for (j = 0; j < b->result.n; j++) {
				const struct bench_stats *st = &b->result.m[j];
				const struct bench_stats *want = NULL;

				for (k = 0; k < full.n && !want; k++)
					if (full.m[k].metric == st->metric &&
					    full.m[k].n == st->n)
						want = &full.m[k];
				CHECK((want != NULL) == (st->ratios != NULL));
				if (!want || !st->ratios)
					continue;
				CHECK(!memcmp(st->ratios, want->ratios,
					      st->n * sizeof(double)));
				drawn++;
			}
			bench_result_release(&full);
		}
		if (text)
			report_load_release(&r);
		free(text);
	}
	CHECK(drawn >= 10);
}

/*
 * Issue 27: the parity's sample counts are read as data, never parsed
 * back from the sentence beside them: a sentence that says 99 while the
 * data says 7 loads 7.
 */
static void test_load__parity_counts_are_data_not_prose(void)
{
	const char *path = "tests/data/gate-run-report.json";
	struct run_report r;
	size_t len;
	char *text = slurp(path, &len), *p, msg[512];

	CHECK(text != NULL);
	if (!text)
		return;
	p = strstr(text, "\"identical in 7 samples\"");
	CHECK(p != NULL);
	if (p)
		memcpy(p, "\"identical in 99 sample", 23);
	CHECK(load(&r, text, path, msg, sizeof(msg)) == 0);
	CHECK(r.n > 0 && r.b[0].run.nsamples[0] == 7);
	report_load_release(&r);
	free(text);
}

/*
 * Issue 39: parity loads as it was decided: a suite's case never compares
 * stdout (its "checked" is its cases'), so it loads with parity off, as
 * its config had it; a benchmark's "checked": false loads off, true on.
 */
static void test_load__parity_off_loads_off(void)
{
	static const char *const paths[] = {
		"tests/golden/suite.json", "tests/data/gate-run-report.json",
	};
	struct run_report r;
	size_t p, i, len, suites = 0;
	char *text, *c, msg[512];

	for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		text = slurp(paths[p], &len);
		CHECK(text && load(&r, text, paths[p], msg, sizeof(msg)) == 0);
		if (!text)
			continue;
		for (i = 0; i < r.n; i++) {
			CHECK(r.b[i].run.cfg->parity == !r.b[i].run.suite_name);
			suites += r.b[i].run.suite_name != NULL;
		}
		report_load_release(&r);
		free(text);
	}
	CHECK(suites >= 5);
	text = slurp(paths[1], &len);
	c = text ? strstr(text, "\"checked\":\ttrue") : NULL;
	CHECK(c != NULL);
	if (!c) {
		free(text);
		return;
	}
	memcpy(c, "\"checked\":false", 15);	/* the same length */
	CHECK(load(&r, text, paths[1], msg, sizeof(msg)) == 0);
	CHECK(r.n > 0 && !r.b[0].run.suite_name && !r.b[0].run.cfg->parity);
	report_load_release(&r);
	free(text);
}

/*
 * Issue 23: a go suite's case carries the GOMAXPROCS its name had ("-2",
 * dropped from it) as "gomaxprocs", read back as data; the other formats'
 * cases have none.
 */
static void test_load__go_case_keeps_its_gomaxprocs(void)
{
	const char *path = "tests/data/gate-run-report.json";
	struct run_report r;
	size_t len, i, go = 0;
	char *text = slurp(path, &len), msg[512];

	CHECK(text && load(&r, text, path, msg, sizeof(msg)) == 0);
	if (!text)
		return;
	for (i = 0; i < r.n; i++) {
		const struct run_bench *b = &r.b[i];

		if (b->run.cfg->format == FORMAT_GOTEST) {
			CHECK(b->procs == 2);
			go++;
		} else {
			CHECK(b->procs == 0);
		}
	}
	CHECK(go == 1);
	report_load_release(&r);
	free(text);
}

static const struct harness_test tests[] = {
	TEST(test_load__go_case_keeps_its_gomaxprocs),
	TEST(test_load__gate_run_report_round_trips),
	TEST(test_load__gate_compare_report_writes_back),
	TEST(test_load__parity_counts_are_data_not_prose),
	TEST(test_load__parity_off_loads_off),
	TEST(test_load__refuses_unknown_schemas),
	TEST(test_load__refuses_unknown_names),
	TEST(test_load__to_fills_err_and_prints_nothing),
	TEST(test_load__ratios_are_the_decisions),
};

HARNESS_MAIN(tests)
