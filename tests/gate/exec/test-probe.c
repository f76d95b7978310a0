/*
 * Unit tests for gate/exec/probe.c on real callgrind output
 * (tests/data/probe/, written by valgrind 3.19 running
 * tests/data/probe/fixture.c with libgate-probe.so): one file per dump
 * and one file of parts with the cache simulation, read into per-case
 * counts; a case stopped under another name refused; valgrind's argv.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "gate/exec/counter.h"
#include "gate/exec/probe.h"
#include "tests/harness.h"

/* A scratch directory holding copies of tests/data/probe/SUB's files
   (probe_collect removes what it reads). Owned. */
static char *copy_data(const char *sub)
{
	static const char *const split[] = { "cg.19923", "cg.19923.1",
		"cg.19923.2", "cg.19923.3", "cg.19923.4", "cg.19923.5", NULL };
	static const char *const comb[] = { "cg.19981", NULL };
	static const char *const bad[] = { "cg.20089", NULL };
	static const char *const gbench[] = { "cg.32098", NULL };
	const char *const *files = !strcmp(sub, "split") ? split :
		!strcmp(sub, "comb") ? comb : !strcmp(sub, "gbench") ?
		gbench : bad;
	char tmpl[] = "/tmp/gate-test-probe-XXXXXX";
	char *dir = mkdtemp(tmpl);
	size_t i;

	if (!dir)
		return NULL;
	dir = xstrdup(dir);
	for (i = 0; files[i]; i++) {
		char *src = xasprintf("tests/data/probe/%s/%s", sub, files[i]);
		char *dst = xasprintf("%s/%s", dir, files[i]);
		char *text = NULL;
		size_t len = 0;
		FILE *f;

		if (file_read(&text, &len, src, 0) == 0 &&
		    (f = fopen(dst, "w"))) {
			fwrite(text, 1, len, f);
			fclose(f);
		}
		free(text);
		free(src);
		free(dst);
	}
	/* a valgrind log beside them, which collect removes too */
	{
		char *log = xasprintf("%s/vg.19923", dir);
		FILE *f = fopen(log, "w");

		if (f)
			fclose(f);
		free(log);
	}
	return dir;
}

/* the fixture's cases: 6 instructions a round, 36 for the bracket */
static void check_fixture_counts(const struct probe_counts *pc)
{
	const struct probe_case *one = probe_find(pc, "loop/1x");
	const struct probe_case *two = probe_find(pc, "loop/2x");
	const struct probe_case *twice = probe_find(pc, "twice");
	const struct probe_case *odd = probe_find(pc, "odd name\n100%");

	CHECK(pc->n == 4);
	CHECK(one && two && twice && odd);
	if (!one || !two || !twice || !odd)
		return;
	CHECK_STR(pc->cases[0].name, "loop/1x");	/* in run order */
	CHECK_STR(pc->cases[3].name, "odd name\n100%");
	CHECK(one->calls == 1 && twice->calls == 2);
	CHECK_NEAR(probe_case_value(one, METRIC_INSTRUCTIONS), 60036, 0);
	CHECK_NEAR(probe_case_value(two, METRIC_INSTRUCTIONS), 120036, 0);
	/* start-up and the work between cases are in no count: 2x work
	   reads 2x less one bracket's overhead */
	CHECK_NEAR(probe_case_value(two, METRIC_INSTRUCTIONS) - 36,
		   2 * (probe_case_value(one, METRIC_INSTRUCTIONS) - 36), 0);
	/* two brackets (2000 and 4000 rounds): the mean per bracket */
	CHECK_NEAR(probe_case_value(twice, METRIC_INSTRUCTIONS),
		   (12036 + 24036) / 2.0, 0);
	CHECK_NEAR(probe_case_value(odd, METRIC_INSTRUCTIONS), 96, 0);
	CHECK(isnan(probe_case_value(one, METRIC_WALL)));
}

/* valgrind 3.19's layout without --combine-dumps: cg.PID.N per dump,
   cg.PID (program termination, 0) last */
static void test_probe__one_file_per_dump(void)
{
	struct probe_counts pc = PROBE_COUNTS_INIT;
	struct gate_err err = { "" };
	char *dir = copy_data("split");

	CHECK(dir != NULL);
	if (!dir)
		return;
	CHECK(probe_collect(&pc, dir, &err) == 0);
	CHECK_STR(err.msg, "");
	check_fixture_counts(&pc);
	CHECK(pc.processes == 1);
	/* not simulated: no cycles */
	CHECK(pc.n && isnan(probe_case_value(&pc.cases[0], METRIC_CYCLES)));
	/* every file read is gone, the valgrind log too */
	CHECK(rmdir(dir) == 0);
	probe_counts_release(&pc);
	free(dir);
}

/* --combine-dumps=yes --cache-sim=yes: one file of parts, each with the
   simulation's events */
static void test_probe__parts_with_cache_simulation(void)
{
	struct probe_counts pc = PROBE_COUNTS_INIT;
	struct gate_err err = { "" };
	char *dir = copy_data("comb");
	const struct probe_case *one;

	CHECK(dir != NULL);
	if (!dir)
		return;
	CHECK(probe_collect(&pc, dir, &err) == 0);
	CHECK_STR(err.msg, "");
	check_fixture_counts(&pc);
	one = probe_find(&pc, "loop/1x");
	/* totals: 60036 10012 10009 6 3 1 6 3 1 (Ir Dr Dw I1mr D1mr D1mw
	   ILmr DLmr DLmw): every miss went to RAM, 10 of them */
	CHECK(one != NULL);
	if (one) {
		CHECK_NEAR(one->sim[SIM_DR], 10012, 0);
		CHECK_NEAR(probe_case_value(one, METRIC_CYCLES),
			   (60036 + 10012 + 10009 - 10) + 35 * 10, 0);
	}
	CHECK(rmdir(dir) == 0);
	probe_counts_release(&pc);
	free(dir);
}

/* a case started as "a" and stopped as "b" is an error naming it */
static void test_probe__unpaired_stop_refused(void)
{
	struct probe_counts pc = PROBE_COUNTS_INIT;
	struct gate_err err = { "" };
	char *dir = copy_data("bad");

	CHECK(dir != NULL);
	if (!dir)
		return;
	CHECK(probe_collect(&pc, dir, &err) < 0);
	CHECK_CONTAINS(err.msg, "case \"b\" was stopped without being "
		       "started under that name");
	CHECK_CONTAINS(err.msg, "cg.20089");
	CHECK(rmdir(dir) == 0);
	probe_counts_release(&pc);
	free(dir);
}

/*
 * Google Benchmark under PROBE_GBENCH's options (gbench.cc, 1.7.1, one
 * iteration a case): one loop dump per case, in run order, holding the
 * loop alone (6 instructions a round, 16 for the state's bookkeeping);
 * start-up, set-up and the dumps after StartKeepRunning in none
 */
static void test_probe__gbench_loops(void)
{
	struct probe_counts pc = PROBE_COUNTS_INIT;
	struct gate_err err = { "" };
	char *dir = copy_data("gbench");

	CHECK(dir != NULL);
	if (!dir)
		return;
	CHECK(probe_collect(&pc, dir, &err) == 0);
	CHECK_STR(err.msg, "");
	CHECK(pc.n == 0);
	CHECK(pc.nloops == 4);
	if (pc.nloops == 4) {
		CHECK_NEAR(pc.loops[0].ir, 6016, 0);	/* BM_one */
		CHECK_NEAR(pc.loops[1].ir, 12016, 0);	/* BM_two */
		CHECK_NEAR(pc.loops[2].ir, 622, 0);	/* BM_arg/100 */
		CHECK_NEAR(pc.loops[3].ir, 1222, 0);	/* BM_arg/200 */
		CHECK(isnan(pc.loops[0].sim[SIM_DR]));
	}
	CHECK(rmdir(dir) == 0);
	probe_counts_release(&pc);
	free(dir);
}

/* text made by hand: what a broken or foreign file says */
static void test_probe__malformed_parts(void)
{
	static const struct {
		const char *text;
		const char *want;	/* in the message; NULL: no error */
		size_t cases;
	} rows[] = {
		/* the program's own dump and program termination: no case */
		{ "part: 1\ndesc: Trigger: Client Request: mine\nevents: Ir\n"
		  "totals: 5\npart: 2\ndesc: Trigger: Program termination\n"
		  "events: Ir\ntotals: 0\n", NULL, 0 },
		/* cut short before its totals */
		{ "part: 1\ndesc: Trigger: Client Request: gate:x\n"
		  "events: Ir\n", "has no \"totals:\" line", 0 },
		/* more totals than events */
		{ "desc: Trigger: Client Request: gate:x\nevents: Ir\n"
		  "totals: 5 6\n", "does not match", 0 },
		/* trailing zeros left out, as callgrind does */
		{ "desc: Trigger: Client Request: gate:x\nevents: Ir Dr\n"
		  "totals: 5\n", NULL, 1 },
		/* a broken escape */
		{ "desc: Trigger: Client Request: gate:x%4\nevents: Ir\n"
		  "totals: 5\n", "malformed name", 0 },
		/* no newline at the end; summary ignored */
		{ "desc: Trigger: Client Request: gate:x%41\nevents: Ir\n"
		  "summary: 0\ntotals: 5", NULL, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct probe_counts pc = PROBE_COUNTS_INIT;
		struct gate_err err = { "" };
		int r = probe_parse(&pc, rows[i].text, strlen(rows[i].text),
				    "f", &err);

		if (rows[i].want) {
			CHECK(r < 0);
			CHECK_CONTAINS(err.msg, rows[i].want);
		} else {
			CHECK(r == 0);
			CHECK(pc.n == rows[i].cases);
		}
		probe_counts_release(&pc);
	}
	{
		struct probe_counts pc = PROBE_COUNTS_INIT;
		const char *t = rows[5].text;

		CHECK(probe_parse(&pc, t, strlen(t), "f", NULL) == 0);
		CHECK(pc.n == 1 && !strcmp(pc.cases[0].name, "xA"));
		CHECK(pc.n == 1 && pc.cases[0].ir == 5);
		probe_counts_release(&pc);
	}
}

static void test_probe__valgrind_argv(void)
{
	char *argv[] = { (char *)"python3", (char *)"-m", (char *)"pytest",
			 NULL };
	char **v = probe_valgrind_argv("/usr/bin/valgrind", "/d", argv, 0,
				       PROBE_MARKS, NULL);
	const char *const setarch[] = { "/usr/bin/setarch", "-R", NULL };
	char **s = probe_valgrind_argv("/usr/bin/valgrind", "/d", argv, 1,
				       PROBE_GBENCH, setarch);
	size_t i;
	int sim = 0, marks = 0, loop = 0;

	CHECK_STR(v[0], "/usr/bin/valgrind");
	CHECK_STR(v[1], "--tool=callgrind");
	CHECK_STR(s[0], "/usr/bin/setarch");
	CHECK_STR(s[1], "-R");
	CHECK_STR(s[2], "/usr/bin/valgrind");
	for (i = 0; v[i]; i++) {
		marks += !strcmp(v[i], "--instr-atstart=no");
		/* collection, not instrumentation, brackets a case */
		marks += 2 * !strcmp(v[i], "--collect-atstart=no");
	}
	CHECK(marks == 3);
	marks = 0;
	CHECK(i >= 4 && v[i - 3] == argv[0] && v[i - 1] == argv[2]);
	CHECK(i >= 5 && !strcmp(v[i - 4], "--log-file=/d/vg.%p"));
	CHECK(i >= 6 && !strcmp(v[i - 5], "--callgrind-out-file=/d/cg.%p"));
	for (i = 0; s[i]; i++) {
		sim += !strcmp(s[i], "--cache-sim=yes");
		marks += !strcmp(s[i], "--instr-atstart=no");
		loop += !strcmp(s[i], "--dump-before="
				"benchmark::State::FinishKeepRunning*");
	}
	CHECK(sim == 1 && marks == 0 && loop == 1);
	/* the prefix does not push argv's strings off the end */
	CHECK(i >= 4 && s[i - 3] == argv[0] && s[i - 1] == argv[2]);
	counter_valgrind_argv_free(v);
	counter_valgrind_argv_free(s);
}

static const struct harness_test tests[] = {
	TEST(test_probe__one_file_per_dump),
	TEST(test_probe__parts_with_cache_simulation),
	TEST(test_probe__unpaired_stop_refused),
	TEST(test_probe__gbench_loops),
	TEST(test_probe__malformed_parts),
	TEST(test_probe__valgrind_argv),
};

HARNESS_MAIN(tests)
