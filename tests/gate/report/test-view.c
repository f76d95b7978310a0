/*
 * The report view and its printers: fixed run models built here (a plain
 * benchmark, a suite, an exact metric beside a timed one, noisy, error,
 * new, advisory), each printer's output compared with a golden file in
 * tests/golden/ (GOLDEN_UPDATE=1 rewrites them), and every printer checked
 * to show the same figures and method text for the same row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "gate/report/load.h"
#include "gate/report/progress.h"
#include "gate/report/report.h"
#include "gate/report/view.h"
#include "gate/decide/adaptive.h"
#include "common/error.h"
#include "common/escape.h"
#include "tests/harness.h"

#define MAXB 6

/* One fixed run: its configs, runs and decided results. */
struct model {
	const char *name;
	struct bench_cfg cfg[MAXB];
	struct bench_run run[MAXB];
	struct bench_result res[MAXB];
	struct run_bench b[MAXB];	/* the run model's entries: copies */
	struct run_report r;
	size_t n;
};

/* Wall-time pairs: base 100 ms + a little, head base x f[i]. */
static struct bench_cfg *add_bench(struct model *m, const char *name,
				   const enum metric *metrics, size_t nm)
{
	struct bench_cfg *c = &m->cfg[m->n];
	struct bench_run *br = &m->run[m->n];
	size_t k;

	memset(c, 0, sizeof(*c));
	memset(br, 0, sizeof(*br));
	c->name = (char *)name;
	c->pairs = 10;
	c->max_pairs = 40;
	c->warmup = 2;
	c->parity = 1;
	c->statistic = STATS_HL;
	c->interval = INTERVAL_EXACT;
	c->rule = RULE_FLOOR;
	c->target_halfwidth = 0.05;
	c->format = FORMAT_TIME;
	c->metric = metrics[0];
	c->min_effect = 0.05;
	for (k = 0; k < nm; k++) {
		c->metrics[k].id = metrics[k];
		c->metrics[k].gating = 1;
		c->metrics[k].min_effect = metrics[k] == METRIC_INSTRUCTIONS ?
					   0.01 : 0.05;
		c->metrics[k].pass_excludes = 2 * c->metrics[k].min_effect;
	}
	c->nmetrics = nm;
	br->cfg = c;
	m->n++;
	return c;
}

static void set_pairs(struct bench_run *br, enum metric mt, const double *f,
		      double base, size_t n)
{
	size_t i;

	if (!br->pairs) {
		br->pairs = calloc(n, sizeof(*br->pairs));
		br->npairs = n;
		br->nsamples[0] = br->nsamples[1] = n + 2;
		br->seconds = 2.5;
		for (i = 0; i < n; i++) {
			int k;

			br->pairs[i].head_first = (int)(i % 3 == 1);
			for (k = 0; k < METRIC_COUNT; k++)
				br->pairs[i].s[0].value[k] =
					br->pairs[i].s[1].value[k] = NAN;
		}
	}
	for (i = 0; i < n; i++) {
		double b = base * (1 + 0.002 * (double)(i % 4));

		if (mt == METRIC_WALL) {
			br->pairs[i].s[ARM_BASE].wall = b;
			br->pairs[i].s[ARM_HEAD].wall = b * f[i];
		} else {
			br->pairs[i].s[ARM_BASE].value[mt] = base;
			br->pairs[i].s[ARM_HEAD].value[mt] = base * f[i];
		}
	}
}

static void common(struct model *m, const char *name)
{
	struct run_report *r = &m->r;
	struct machine *mc = &r->machine;

	m->name = name;
	memset(r, 0, sizeof(*r));
	r->rev[ARM_BASE].label = "main";
	r->rev[ARM_BASE].commit = "1111111111111111111111111111111111111111";
	r->rev[ARM_BASE].how = "merge-base of HEAD and origin/main";
	r->rev[ARM_HEAD].label = "WORKTREE";
	r->rev[ARM_HEAD].commit = "2222222222222222222222222222222222222222";
	r->rev[ARM_HEAD].tree = "3333333333333333333333333333333333333333";
	r->rev[ARM_HEAD].worktree = 1;
	r->config_origin = "gate.json";
	r->seed = 1234;
	r->confidence = 0.95;
	r->level = 0.975;
	r->resamples = 10000;
	r->budget = 300;
	r->build_seconds[ARM_BASE] = 12.5;
	r->build_seconds[ARM_HEAD] = 11.25;
	r->measure_seconds = 95;
	r->total_seconds = 110.5;
	snprintf(mc->cpu, sizeof(mc->cpu), "Test CPU @ 3.0GHz");
	mc->cores = 2;
	snprintf(mc->smt, sizeof(mc->smt), "off");
	snprintf(mc->governor, sizeof(mc->governor), "performance");
	snprintf(mc->turbo, sizeof(mc->turbo), "off");
	snprintf(mc->virt, sizeof(mc->virt), "none");
	snprintf(mc->kernel, sizeof(mc->kernel), "Linux 6.1.0");
	snprintf(mc->aslr, sizeof(mc->aslr), "on");
	snprintf(mc->isolated, sizeof(mc->isolated), "none");
	snprintf(mc->container, sizeof(mc->container), "none");
	snprintf(mc->cpu_quota, sizeof(mc->cpu_quota), "none");
	snprintf(mc->counters, sizeof(mc->counters), "available");
	mc->perf_paranoid = 2;
	mc->load_before[0] = 0.5;
	mc->load_after[0] = 0.75;
}

/* Decide every benchmark as gate run does at one-sided alpha, then the
   suite. */
static void decide_at(struct model *m, double alpha)
{
	struct verdict_opts vo = { alpha, m->r.resamples, 42, 0 };
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct bench_run *br = &m->run[i];

		memset(&m->res[i], 0, sizeof(m->res[i]));
		if (br->is_new) {
			m->res[i].verdict = VERDICT_NEW;
		} else if (br->error) {
			m->res[i].verdict = VERDICT_ERROR;
		} else if (br->identical == 1) {
			verdict_identical(&m->res[i], br);
		} else {
			verdict_bench(&m->res[i], br, &vo);
		}
	}
	for (i = 0; i < m->n; i++) {
		/* shallow: the arrays above own what these point to */
		m->b[i].run = m->run[i];
		m->b[i].result = m->res[i];
		m->b[i].looks = m->run[i].identical == 1 ? 0 : 1;
		m->b[i].stop = STOP_RESOLVED;
		m->b[i].note = NULL;
	}
	m->r.b = m->b;
	m->r.n = m->n;
	m->r.compared = m->n;
	/* accepted regressions, then the suite verdict, as gate run does */
	adaptive_finish(&m->r);
	m->r.exit_code = m->r.advisory ? 0 : verdict_exit_code(m->r.suite);
}

static void decide(struct model *m)
{
	decide_at(m, 0.025);
}

static void release(struct model *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		bench_result_release(&m->res[i]);
		free(m->run[i].pairs);
	}
}

/* +15% with a skew so that the median ratio and Hodges-Lehmann differ */
static const double slower[12] = { 1.10, 1.11, 1.12, 1.13, 1.14, 1.15,
				   1.16, 1.18, 1.22, 1.26, 1.30, 1.35 };
static const double same[12] = { 0.99, 1.01, 1.00, 0.995, 1.005, 1.0,
				  1.002, 0.998, 1.001, 0.999, 1.003, 0.997 };
static const double wide[12] = { 0.80, 1.30, 0.95, 1.25, 0.85, 1.40,
				 1.10, 0.90, 1.35, 0.97, 1.20, 1.05 };

static void model_plain(struct model *m)
{
	static const enum metric wall[] = { METRIC_WALL };

	common(m, "plain");
	add_bench(m, "parse", wall, 1);
	set_pairs(&m->run[0], METRIC_WALL, slower, 0.1, 12);
	decide(m);
}

/* wall passes, instructions (exact) fails by +19.72% and decides */
static void model_metrics(struct model *m)
{
	static const enum metric two[] = { METRIC_WALL, METRIC_INSTRUCTIONS };
	double ins[12];
	size_t i;

	for (i = 0; i < 12; i++)
		ins[i] = 1.1972;
	common(m, "metrics");
	add_bench(m, "encode", two, 2);
	set_pairs(&m->run[0], METRIC_WALL, same, 0.05, 12);
	set_pairs(&m->run[0], METRIC_INSTRUCTIONS, ins, 1e9, 12);
	m->run[0].counter = COUNTER_PERF;
	decide(m);
}

/* A gbench suite: cases of 250 ns (unit s), one new, one removed. */
static void model_suite(struct model *m)
{
	static const enum metric value[] = { METRIC_VALUE };
	static const char *names[] = { "gb/BM_parse", "gb/BM_format",
				       "gb/BM_added" };
	size_t i;

	common(m, "suite");
	for (i = 0; i < 3; i++) {
		struct bench_cfg *c = add_bench(m, names[i], value, 1);

		c->format = FORMAT_GBENCH;
		c->unit = "s";
		m->run[i].suite_name = "gb";
		set_pairs(&m->run[i], METRIC_VALUE, i ? same : slower, 2.5e-7,
			  12);
	}
	m->run[2].is_new = 1;
	decide(m);
}

/*
 * A go suite at GOMAXPROCS 4: its cases' names came without "-4"
 * (BenchmarkHash64-4), the count kept beside them (run_bench.procs).
 */
static void model_gosuite(struct model *m)
{
	static const enum metric value[] = { METRIC_VALUE };
	static const char *names[] = { "farm/BenchmarkHash64",
				       "farm/BenchmarkHash32" };
	size_t i;

	common(m, "gosuite");
	for (i = 0; i < 2; i++) {
		struct bench_cfg *c = add_bench(m, names[i], value, 1);

		c->format = FORMAT_GOTEST;
		c->unit = "s";
		m->run[i].suite_name = "farm";
		set_pairs(&m->run[i], METRIC_VALUE, i ? same : slower, 7.4e-8,
			  12);
	}
	decide(m);
	for (i = 0; i < m->n; i++)
		m->b[i].procs = 4;
}

static void model_noisy(struct model *m)
{
	static const enum metric wall[] = { METRIC_WALL };

	common(m, "noisy");
	add_bench(m, "sort", wall, 1);
	set_pairs(&m->run[0], METRIC_WALL, wide, 0.2, 12);
	add_bench(m, "fresh", wall, 1);
	m->run[1].is_new = 1;
	decide(m);
}

static void model_error(struct model *m)
{
	static const enum metric wall[] = { METRIC_WALL };

	common(m, "error");
	add_bench(m, "ok", wall, 1);
	set_pairs(&m->run[0], METRIC_WALL, same, 0.1, 12);
	add_bench(m, "crash", wall, 1);
	m->run[1].error = (char *)"head sample (pair 1) was killed by "
			  "signal 11 | <stderr> `tail`";
	decide(m);
}

static void model_advisory(struct model *m)
{
	static const enum metric wall[] = { METRIC_WALL };

	common(m, "advisory");
	m->r.advisory = 1;
	add_bench(m, "parse", wall, 1);
	set_pairs(&m->run[0], METRIC_WALL, slower, 0.1, 12);
	add_bench(m, "faster", wall, 1);
	{
		double f[12];
		size_t i;

		for (i = 0; i < 12; i++)
			f[i] = 1 / slower[i];
		set_pairs(&m->run[1], METRIC_WALL, f, 0.1, 12);
	}
	decide(m);
}

/*
 * Base's policy decides; head's differences are listed and warned. A
 * Gate-Accept trailer accepts parse's regression (upper bound +23.9%)
 * within +30%; another names no benchmark.
 */
static void model_policy(struct model *m)
{
	static const enum metric wall[] = { METRIC_WALL };
	static struct verdict_accept acc[2];
	static const char *const diff[] = {
		"head raises the floor of `parse` from 5% to 50%: base's "
		"floor is used",
		"head removes benchmark `old`, which base declares: removed, "
		"not compared",
	};

	common(m, "policy");
	m->r.policy = "base's gate.json decides (floors, pass_excludes, "
		      "gate, rule, confidence, max_pairs); head's says how to "
		      "build and run, and declares new benchmarks";
	m->r.policy_diff = diff;
	m->r.npolicy_diff = 2;
	acc[0] = (struct verdict_accept){ "pars*", 0.30, "new parser, "
					  "slower by design", "4444444444444444"
					  "444444444444444444444444", 0 };
	acc[1] = (struct verdict_accept){ "prase", 0.10, "", "55555555555555"
					  "55555555555555555555555555", 0 };
	m->r.accept = acc;
	m->r.naccept = 2;
	add_bench(m, "parse", wall, 1);
	set_pairs(&m->run[0], METRIC_WALL, slower, 0.1, 12);
	decide(m);
}

/*
 * "artifacts": docs's build is byte-identical in both arms (a pass with no
 * samples); parse's differs in one file of two and is measured.
 */
static void model_artifacts(struct model *m)
{
	static const enum metric wall[] = { METRIC_WALL };
	static struct artifact_hash same2[2], mixed[2];
	static const char *const a = "a665a45920422f9d417e4867efdc4fb8a04a1f3"
				     "fff1fa07e998e86f7f7a27ae3";
	static const char *const b = "b3a8e0e1f9ab1bfe3a36f231f676f78bb30a5"
				     "19d2b21e6c530c0eee8ebb4a5d0";
	size_t i;

	for (i = 0; i < 2; i++) {
		same2[i].path = (char *)(i ? "out/libdocs.so" : "out/docs");
		snprintf(same2[i].sha256[0], 65, "%s", i ? b : a);
		snprintf(same2[i].sha256[1], 65, "%s", i ? b : a);
		mixed[i].path = (char *)(i ? "out/parse.o" : "out/parse");
		snprintf(mixed[i].sha256[0], 65, "%s", a);
		snprintf(mixed[i].sha256[1], 65, "%s", i ? a : b);
	}
	common(m, "artifacts");
	add_bench(m, "docs", wall, 1);
	m->run[0].artifacts = same2;
	m->run[0].nartifacts = 2;
	m->run[0].identical = 1;
	add_bench(m, "parse", wall, 1);
	set_pairs(&m->run[1], METRIC_WALL, same, 0.1, 12);
	m->run[1].artifacts = mixed;
	m->run[1].nartifacts = 2;
	decide(m);
}

/*
 * A suite's cases with a suite-wide note (said once, on its first case)
 * and one case with a note of its own; a plain benchmark with the same
 * text keeps its note (it is no case of the suite).
 */
static const char suite_wide[] = "10 of the first 40 samples of suite "
	"\"s\" ran 1.3 times slower or more in most of its cases at once";
static const char own_note[] = "against the other cases of its suite, "
	"+16.0%";

static void model_suite_notes(struct model *m)
{
	static const enum metric value[] = { METRIC_VALUE };
	static const enum metric wall[] = { METRIC_WALL };
	static const char *names[] = { "s/a", "s/b", "s/c", "s/d" };
	size_t i;

	common(m, "suite-notes");
	for (i = 0; i < 4; i++) {
		struct bench_cfg *c = add_bench(m, names[i], value, 1);

		c->format = FORMAT_PYTEST;
		c->unit = "s";
		m->run[i].suite_name = "s";
		set_pairs(&m->run[i], METRIC_VALUE, i == 1 ? slower : wide,
			  2.5e-6, 12);
	}
	add_bench(m, "plain", wall, 1);
	set_pairs(&m->run[4], METRIC_WALL, wide, 0.1, 12);
	decide(m);
	for (i = 0; i < m->n; i++)
		m->b[i].note = (char *)(i == 3 ? own_note : suite_wide);
}

static void (*const models[])(struct model *) = {
	model_plain, model_metrics, model_suite, model_noisy, model_error,
	model_advisory, model_policy, model_artifacts, model_gosuite,
	model_suite_notes,
};
#define NMODELS (sizeof(models) / sizeof(models[0]))

/* Every printer's output of one model. */
struct outputs {
	char *term, *term_short, *term_wrapped, *md, *html, *json, *annot, *progress;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc((size_t)len + 1, 1);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/* The terminal's prose with its wrapped lines joined again ("\n    "
 * continues a line), for checks on sentences. */
static char *unwrap(const char *s)
{
	char *out = malloc(strlen(s) + 1), *d = out;

	while (*s) {
		if (!strncmp(s, "\n    ", 5) && s[5] != ' ') {
			*d++ = ' ';
			s += 5;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
	return out;
}

static void print_all(struct outputs *o, const struct run_report *r)
{
	struct publish_opts po = { NULL, NULL, NULL, 1 };
	struct report_view v;
	struct progress p;
	char path[] = "/tmp/gate-test-view-XXXXXX";
	size_t len, i;
	FILE *f;
	int fd;

	/* at 80 columns ($COLUMNS: wrapped, as on a terminal); the checks read the verbose one (every column, evidence
	 * and protocol), the golden files hold both */
	setenv("COLUMNS", "80", 1);
	report_view_build(&v, r);
	f = open_memstream(&o->term_short, &len);
	report_term(f, &v, r->color, 0);
	fclose(f);
	f = open_memstream(&o->term_wrapped, &len);
	report_term(f, &v, r->color, 1);
	fclose(f);
	o->term = unwrap(o->term_wrapped);
	f = open_memstream(&o->md, &len);
	report_md_view(f, &v);
	fclose(f);
	f = open_memstream(&o->html, &len);
	report_html_view(f, &v);
	fclose(f);
	unsetenv("GITHUB_OUTPUT");
	unsetenv("GITHUB_STEP_SUMMARY");
	f = open_memstream(&o->annot, &len);
	report_publish(f, &v, &po);
	fclose(f);
	report_view_release(&v);
	f = open_memstream(&o->progress, &len);
	progress_init(&p, f, 0, 0, 1);
	p.mode = PROGRESS_LINES;
	for (i = 0; i < r->n; i++) {
		progress_bench_start(&p, i, r->n);
		progress_bench_end(&p, &r->b[i]);
	}
	fclose(f);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK(report_json(path, r) == 0);
	o->json = slurp(path);
	remove(path);
}

static void free_all(struct outputs *o)
{
	free(o->term);
	free(o->term_short);
	free(o->term_wrapped);
	free(o->md);
	free(o->html);
	free(o->json);
	free(o->annot);
	free(o->progress);
}

/*
 * text with gate's version written as @VERSION@ (malloc'd): the golden
 * files say what the printers print, not which release printed it, so a
 * release's version bump does not rewrite them.
 */
static char *unversioned(const char *text)
{
	const char *v = GATE_VERSION, *p;
	size_t vn = strlen(v);
	/* at most one replacement per vn bytes, each 9 bytes long */
	char *out = xcalloc(strlen(text) / (vn ? vn : 1) * 9 + strlen(text) + 1,
			    1), *o = out;

	for (p = text; *p;) {
		if (vn && !strncmp(p, v, vn)) {
			o = stpcpy(o, "@VERSION@");
			p += vn;
		} else {
			*o++ = *p++;
		}
	}
	return out;
}

/* Compare text with tests/golden/NAME.EXT, or rewrite it (GOLDEN_UPDATE). */
static void golden(const char *name, const char *ext, const char *raw)
{
	char path[256];
	const char *update = getenv("GOLDEN_UPDATE");
	char *want, *text = unversioned(raw);

	snprintf(path, sizeof(path), "tests/golden/%s.%s", name, ext);
	if (update && *update) {
		FILE *f = fopen(path, "w");

		CHECK(f != NULL);
		if (f) {
			fputs(text, f);
			fclose(f);
		}
		free(text);
		return;
	}
	want = slurp(path);
	if (!want || strcmp(want, text)) {
		fprintf(stderr, "%s differs from this output (GOLDEN_UPDATE=1 "
			"rewrites it after review):\n%s\n", path, text);
		harness_failed_checks++;
	}
	free(want);
	free(text);
}

static void test_view__golden_files(void)
{
	size_t i;

	for (i = 0; i < NMODELS; i++) {
		struct model m;
		struct outputs o = { 0 };

		memset(&m, 0, sizeof(m));
		models[i](&m);
		print_all(&o, &m.r);
		golden(m.name, "term", o.term_short);
		golden(m.name, "term-v", o.term_wrapped);
		golden(m.name, "md", o.md);
		golden(m.name, "html", o.html);
		golden(m.name, "json", o.json);
		golden(m.name, "annotations", o.annot);
		golden(m.name, "progress", o.progress);
		free_all(&o);
		release(&m);
	}
}

/* r as JSON text, through report_json. */
static char *json_of(const struct run_report *r)
{
	char path[] = "/tmp/gate-test-view-XXXXXX";
	char *text;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK(report_json(path, r) == 0);
	text = slurp(path);
	remove(path);
	return text;
}

/*
 * The JSON report is the model serialised: every model written, loaded
 * and written again gives the same bytes, its heuristic note included.
 */
static void test_view__json_loads_back_identically(void)
{
	static const char note[] = "the load average rose from 0.50 to 9.00";
	size_t i;

	for (i = 0; i < NMODELS; i++) {
		struct model m;
		struct run_report back;
		char *first, *again = NULL;

		memset(&m, 0, sizeof(m));
		models[i](&m);
		m.r.b[0].note = (char *)note;
		first = json_of(&m.r);
		CHECK(first && strstr(first, note));
		CHECK(report_load(&back, first, strlen(first),
				  "first.json") == 0);
		if (back.n) {
			again = json_of(&back);
			CHECK(back.n == m.r.n);
			CHECK(back.b[0].note && !strcmp(back.b[0].note, note));
			CHECK(back.b[0].result.verdict ==
			      m.r.b[0].result.verdict);
		}
		if (!again || strcmp(first, again))
			fprintf(stderr, "model %s: the loaded report writes "
				"differently:\n%s\n", m.name,
				again ? again : "(none)");
		CHECK(again && !strcmp(first, again));
		report_load_release(&back);
		free(first);
		free(again);
		m.r.b[0].note = NULL;
		release(&m);
	}
}

/* The line of text holding both a and b (b after a), or NULL; copied. */
static char *line_with(const char *text, const char *a, const char *b)
{
	const char *s = text;

	while (s && *s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char *line = strndup(s, len);
		char *pa = strstr(line, a);

		if (pa && (!b || strstr(pa + strlen(a), b)))
			return line;
		free(line);
		s = e ? e + 1 : NULL;
	}
	return NULL;
}

/* The n-th " | "-separated cell of a Markdown table line (0: first). */
static void md_cell(const char *line, int n, char *out, size_t size)
{
	const char *s = line;
	const char *e;
	int i;

	out[0] = '\0';
	for (i = 0; i <= n; i++) {
		s = strchr(s, '|');
		if (!s)
			return;
		s++;
	}
	while (*s == ' ')
		s++;
	e = strchr(s, '|');
	if (!e)
		return;
	while (e > s && (e[-1] == ' ' || e[-1] == '*'))
		e--;
	while (*s == '*')
		s++;
	snprintf(out, size, "%.*s", (int)(e - s), s);
}

/* The n-th <td> of an HTML table row, tags stripped. */
static void html_cell(const char *line, int n, char *out, size_t size)
{
	const char *s = line;
	size_t k = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i <= n; i++) {
		s = strstr(s, "<td");
		if (!s)
			return;
		s++;
	}
	s = strchr(s, '>') + 1;
	for (; *s && strncmp(s, "</td>", 5) && k + 1 < size; s++) {
		if (*s == '<') {
			s = strchr(s, '>');
			continue;
		}
		out[k++] = *s;
	}
	out[k] = '\0';
}

/* "| name | metric |" with Markdown's escapes of '_'. */
static void md_name(char *buf, size_t size, const char *name,
		    const char *metric)
{
	size_t k = 0;

	buf[k++] = '|';
	buf[k++] = ' ';
	for (; *name && k + 40 < size; name++) {
		if (*name == '_')
			buf[k++] = '\\';
		buf[k++] = *name;
	}
	snprintf(buf + k, size - k, " | %s |", metric);
}

/* The change the model decided for metric st: the estimate, always. */
static void want_change(const struct bench_stats *st, char *buf, size_t size)
{
	snprintf(buf, size, "%+.*f%%", st->exact ? 2 : 1,
		 (st->estimate - 1) * 100);
}

static void check_rows(const struct model *m, const struct outputs *o)
{
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		const struct bench_result *res = &m->res[i];

		for (k = 0; k < res->n; k++) {
			const struct bench_stats *st = &res->m[k];
			const char *name = m->cfg[i].name;
			const char *metric = metric_name(st->metric);
			char want[32], md_row[160], cell[160], *line, key[160];

			if (!st->n || !isfinite(st->estimate))
				continue;
			want_change(st, want, sizeof(want));
			/* Markdown: "| icon | name | metric | ..." */
			md_name(md_row, sizeof(md_row), k ? "" : name, metric);
			line = line_with(o->md, md_row, NULL);
			if (!line) {
				fprintf(stderr, "%s: no Markdown row for %s "
					"%s\n", m->name, name, metric);
				harness_failed_checks++;
			} else {
				md_cell(line, 5, cell, sizeof(cell));
				CHECK_STR(cell, want);
				free(line);
			}
			/* HTML: the summary row, verdict first, then the
			   name, the change, ..., the metric's name */
			snprintf(key, sizeof(key), "<td class=\"name\">%s</td>",
				 k ? "" : name);
			snprintf(md_row, sizeof(md_row), "<td>%s</td>", metric);
			line = line_with(o->html, key, md_row);
			if (!line) {
				fprintf(stderr, "%s: no HTML row for %s %s\n",
					m->name, name, metric);
				harness_failed_checks++;
			} else {
				html_cell(line, 2, cell, sizeof(cell));
				CHECK_STR(cell, want);
				free(line);
			}
			/* terminal: the row of this metric */
			snprintf(key, sizeof(key), "  %s  ", metric);
			line = line_with(o->term, k ? key : name,
					 k ? want : metric);
			CHECK(line && strstr(line, want));
			free(line);
		}
	}
}

/* Headlines, annotations and progress show the estimate too. */
static void check_headlines(const struct model *m, const struct outputs *o)
{
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		const struct bench_result *res = &m->res[i];
		const struct bench_stats *dec = NULL;
		char want[32], key[128], *line;

		for (k = 0; k < res->n && !dec; k++)
			if (res->m[k].gating &&
			    res->m[k].verdict == res->verdict && res->m[k].n)
				dec = &res->m[k];
		if (!dec)
			continue;
		want_change(dec, want, sizeof(want));
		if (res->verdict == VERDICT_FAIL) {
			md_name(key, sizeof(key), m->cfg[i].name, "");
			/* "| name |  |" -> "**name** +x%" */
			key[strlen(key) - 5] = '\0';
			memmove(key, key + 2, strlen(key + 2) + 1);
			{
				char full[256];

				snprintf(full, sizeof(full), "**%s** %s", key,
					 want);
				CHECK_CONTAINS(o->md, full);
			}
			snprintf(key, sizeof(key), "gate%%3A %s is slower by "
				 "%s", m->cfg[i].name, want);
			/* '%' is escaped in annotation titles */
			line = line_with(o->annot, "::error", NULL);
			CHECK(line != NULL);
			free(line);
			snprintf(key, sizeof(key), "%%3A %.*s%%25 ",
				 (int)strlen(want) - 1, want);
			CHECK_CONTAINS(o->annot, key);
		}
		/* the progress line shows the first gating metric */
		for (k = 0; k < res->n; k++)
			if (res->m[k].gating)
				break;
		if (k < res->n && res->m[k].n) {
			want_change(&res->m[k], want, sizeof(want));
			snprintf(key, sizeof(key), "%s: %zu pairs: %s (",
				 m->cfg[i].name, m->run[i].npairs, want);
			CHECK_CONTAINS(o->progress, key);
		}
	}
}

static void test_view__printers_show_the_estimate(void)
{
	size_t i;

	for (i = 0; i < NMODELS; i++) {
		struct model m;
		struct outputs o = { 0 };

		memset(&m, 0, sizeof(m));
		models[i](&m);
		print_all(&o, &m.r);
		check_rows(&m, &o);
		check_headlines(&m, &o);
		free_all(&o);
		release(&m);
	}
}

/* The metrics model: instructions failed and decided; it must be in
 * every printer, beside its own reason, and wall's reason stays wall's. */
static void test_view__every_gating_metric_is_shown(void)
{
	struct model m;
	struct outputs o = { 0 };
	char *line;

	memset(&m, 0, sizeof(m));
	model_metrics(&m);
	CHECK(m.res[0].m[1].verdict == VERDICT_FAIL);
	CHECK(m.res[0].m[0].verdict == VERDICT_PASS);
	print_all(&o, &m.r);
	CHECK_CONTAINS(o.md, "encode instructions: exact: head counts "
		       "+19.72% more than base");
	CHECK_CONTAINS(o.html, "exact: head counts +19.72% more than base");
	CHECK_CONTAINS(o.term, "exact: head counts +19.72% more than base");
	/* in the metric's own words, not "slower" (issue 26 item 3) */
	CHECK_CONTAINS(o.annot, "encode%3A +19.72%25 more instructions");
	CHECK_CONTAINS(o.md, "**encode** +19.72% more instructions");
	CHECK(!strstr(o.annot, "slower") && !strstr(o.md, "slower"));
	/* the HTML table's wins column too: "head worse" (it said "head
	   slower" of instructions) */
	CHECK(!strstr(o.html, "slower") && strstr(o.html, "head worse"));
	/* the JSON's reason of the benchmark is the deciding metric's
	 * (issue 26 item 8): instructions', not wall's pass */
	line = line_with(o.json, "\"reason\":", NULL);
	CHECK(line && strstr(line, "head counts +19.72% more"));
	free(line);
	/* wall's row keeps wall's own verdict */
	line = line_with(o.md, "| encode | wall |", NULL);
	CHECK(line && !strstr(line, "fail") && strstr(line, "pass"));
	free(line);
	line = line_with(o.md, "|  | instructions |", NULL);
	CHECK(line && strstr(line, "**fail**"));
	free(line);
	free_all(&o);
	release(&m);
}

/*
 * A rate read backwards: 234.9 -> 194.4 MB/s is a slow-down; every printer
 * says so in words and sign, "throughput -17.2% (worse)", never "+20.8%"
 * beside it as the change.
 */
static void test_view__rates_say_which_way_is_worse(void)
{
	static const enum metric value[] = { METRIC_VALUE };
	struct model m;
	struct outputs o = { 0 };
	struct bench_cfg *c;
	double f[12];
	char *line;
	size_t i;

	for (i = 0; i < 12; i++)
		f[i] = 194.4 / 234.9;
	memset(&m, 0, sizeof(m));
	common(&m, "rate");
	c = add_bench(&m, "zs/compress", value, 1);
	c->format = FORMAT_LINES;
	c->unit = "MB/s";
	c->higher_better = 1;
	m.run[0].suite_name = "zs";
	set_pairs(&m.run[0], METRIC_VALUE, f, 234.9, 12);
	decide(&m);
	CHECK(m.res[0].m[0].verdict == VERDICT_FAIL);
	print_all(&o, &m.r);
	CHECK_CONTAINS(o.term, "throughput -17.2% (worse)");
	CHECK_CONTAINS(o.md, "throughput -17.2% (worse)");
	CHECK_CONTAINS(o.html, "throughput -17.2% (worse)");
	CHECK_CONTAINS(o.progress, "throughput -17.2% (worse)");
	line = line_with(o.term, "zs/compress", NULL);
	CHECK(line && !strstr(line, "+20.8%"));
	free(line);
	free_all(&o);
	release(&m);
}

/*
 * A benchmark that runs for a fixed time: wall stays at 3 s in both arms
 * while CPU time rises by half. Noted in every printer, verdict unchanged;
 * an ordinary slow-down (the plain model) gets no such note.
 */
static void test_view__fixed_time_is_noted(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	struct model m;
	struct outputs o = { 0 };
	enum verdict before;
	size_t i;

	memset(&m, 0, sizeof(m));
	common(&m, "fixed");
	add_bench(&m, "zstd-b", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, same, 3.0, 12);
	for (i = 0; i < 12; i++) {
		m.run[0].pairs[i].s[ARM_BASE].cpu = 1.0 + 0.05 * (double)(i % 3);
		m.run[0].pairs[i].s[ARM_HEAD].cpu = 1.5 + 0.05 * (double)(i % 3);
	}
	decide(&m);
	before = m.b[0].result.verdict;
	run_note_fixed_time(&m.r);
	CHECK(m.b[0].note != NULL);
	CHECK(m.b[0].result.verdict == before);
	print_all(&o, &m.r);
	CHECK_CONTAINS(o.term, "may run for a fixed time");
	CHECK_CONTAINS(o.md, "may run for a fixed time");
	CHECK_CONTAINS(o.html, "may run for a fixed time");
	CHECK_CONTAINS(o.term, "CPU time changes by +47.6%");
	free_all(&o);
	free(m.b[0].note);
	release(&m);

	memset(&m, 0, sizeof(m));
	model_plain(&m);
	for (i = 0; i < 12; i++) {
		m.b[0].run.pairs[i].s[ARM_BASE].cpu = 0.05;
		m.b[0].run.pairs[i].s[ARM_HEAD].cpu = 0.09;
	}
	run_note_fixed_time(&m.r);
	CHECK(m.b[0].note == NULL);
	release(&m);
}

/*
 * A suite-wide note is said once, on the first case that has it, with how
 * many share it; a case's own note and a plain benchmark's stay.
 */
static void test_view__a_suite_note_is_said_once(void)
{
	struct model m;
	struct report_view v;
	size_t i;

	memset(&m, 0, sizeof(m));
	model_suite_notes(&m);
	report_view_build(&v, &m.r);
	CHECK(v.benches[0].note && !strcmp(v.benches[0].note, suite_wide));
	CHECK(v.benches[0].note_shared == 2);
	CHECK(v.benches[1].note == NULL && v.benches[2].note == NULL);
	CHECK(v.benches[3].note && !strcmp(v.benches[3].note, own_note));
	CHECK(v.benches[3].note_shared == 0);
	CHECK(v.benches[4].note && !strcmp(v.benches[4].note, suite_wide));
	CHECK_STR(v.benches[0].note_label,
		  "note (the same for 3 of the 4 cases of suite \"s\")");
	CHECK_STR(v.benches[3].note_label, "note");
	report_view_release(&v);

	/* every case shares it: "all" */
	m.b[3].note = (char *)suite_wide;
	report_view_build(&v, &m.r);
	CHECK_STR(v.benches[0].note_label,
		  "note (the same for all 4 cases of suite \"s\")");
	for (i = 1; i < 4; i++)
		CHECK(v.benches[i].note == NULL);
	report_view_release(&v);
	release(&m);
}

/* A 250 ns suite case prints as 250 ns, not as 0. */
static void test_view__suite_values_keep_their_unit(void)
{
	struct model m;
	struct outputs o = { 0 };
	char *line;

	memset(&m, 0, sizeof(m));
	model_suite(&m);
	print_all(&o, &m.r);
	line = line_with(o.md, "| gb/BM\\_format |", NULL);
	CHECK(line && strstr(line, "| 250 ns |"));
	free(line);
	line = line_with(o.html, "<td class=\"name\">gb/BM_format</td>", NULL);
	CHECK(line && strstr(line, ">250 ns<"));
	free(line);
	line = line_with(o.term, "gb/BM_format", NULL);
	CHECK(line && strstr(line, "250 ns"));
	free(line);
	free_all(&o);
	release(&m);
}

/*
 * A go suite's GOMAXPROCS (the "-N" dropped from its case names) is in
 * the protocol once per suite and in the JSON report per case, and the
 * loader reads it back; a report merged from shards at other counts
 * names each count with its cases; none (GOMAXPROCS 1) is said too.
 */
static void test_view__go_suite_says_its_gomaxprocs(void)
{
	struct model m;
	struct outputs o = { 0 };
	struct run_report back;
	char *line, *text;
	size_t i;

	memset(&m, 0, sizeof(m));
	model_gosuite(&m);
	print_all(&o, &m.r);
	line = line_with(o.term, "farm: suite (format gotest", NULL);
	CHECK(line && strstr(line, "; GOMAXPROCS 4 (the \"-4\" suffix "
			     "dropped from its case names)"));
	free(line);
	line = line_with(o.md, "farm: suite (format gotest", NULL);
	CHECK(line && strstr(line, "GOMAXPROCS 4"));
	free(line);
	CHECK(strstr(o.json, "\"gomaxprocs\":\t4,") != NULL);
	CHECK(report_load(&back, o.json, strlen(o.json), "go.json") == 0);
	CHECK(back.n == 2);
	for (i = 0; i < back.n; i++)
		CHECK(back.b[i].procs == 4);
	report_load_release(&back);
	free_all(&o);

	/* merged from shards on machines of 4 and 2 CPUs */
	m.b[1].procs = 2;
	text = json_of(&m.r);
	CHECK(report_load(&back, text, strlen(text), "merged.json") == 0);
	CHECK(back.n == 2 && back.b[0].procs == 4 && back.b[1].procs == 2);
	print_all(&o, &back);
	line = line_with(o.term, "farm: suite (format gotest", NULL);
	CHECK(line && strstr(line, "; GOMAXPROCS 4 (1 case) and 2 (1 case) "
			     "in its case names"));
	free(line);
	free_all(&o);
	report_load_release(&back);
	free(text);

	/* GOMAXPROCS 1: go prints no suffix, the report says so */
	m.b[0].procs = m.b[1].procs = 0;
	print_all(&o, &m.r);
	CHECK(strstr(o.json, "\"gomaxprocs\":\tnull,") != NULL);
	CHECK(strstr(o.term, "GOMAXPROCS not in its case names") != NULL);
	free_all(&o);
	release(&m);
}

/* The level in the table's head is the level the reasons state. */
static void test_view__bounds_level_matches_reasons(void)
{
	struct model m;
	struct outputs o = { 0 };
	char want[64];

	memset(&m, 0, sizeof(m));
	model_plain(&m);
	/* a later look: alpha spent, so the bounds are at another level */
	m.r.level = 0.95;
	print_all(&o, &m.r);
	snprintf(want, sizeof(want), "one-sided %.4g%% bounds",
		 m.res[0].m[0].level * 100);
	CHECK_CONTAINS(o.md, want);
	CHECK_CONTAINS(o.html, want);
	CHECK_CONTAINS(m.res[0].m[0].reason, want);
	CHECK(!strstr(o.md, "one-sided 95% bounds"));
	free_all(&o);
	release(&m);
}

/* "interval: ..." in each printer, and the JSON's, say the same. */
static void test_view__method_text_agrees(void)
{
	size_t i, b, k;

	for (i = 0; i < NMODELS; i++) {
		struct model m;
		struct outputs o = { 0 };
		struct report_view v;
		cJSON *root, *list;
		const char *iv;
		char key[256];

		memset(&m, 0, sizeof(m));
		models[i](&m);
		print_all(&o, &m.r);
		root = cJSON_Parse(o.json);
		CHECK(root != NULL);
		iv = cJSON_GetStringValue(cJSON_GetObjectItem(
			cJSON_GetObjectItem(root, "protocol"), "interval"));
		CHECK(iv != NULL);
		snprintf(key, sizeof(key), "interval: %s", iv ? iv : "");
		CHECK_CONTAINS(o.term, key);
		CHECK_CONTAINS(o.md, key);
		CHECK_CONTAINS(o.html, key);
		CHECK(!strstr(o.md, "bootstrap percentile of the median"));
		CHECK(!strstr(o.html, "bootstrap percentile of the median"));
		/* each metric's method: the JSON's is the view's */
		report_view_build(&v, &m.r);
		list = cJSON_GetObjectItem(root, "benchmarks");
		for (b = 0; b < m.n; b++) {
			cJSON *ms = cJSON_GetObjectItem(
				cJSON_GetArrayItem(list, (int)b), "metrics");

			for (k = 0; ms && k < m.res[b].n; k++) {
				const struct view_row *row =
					&v.rows[v.benches[b].row + k];
				const char *jm = cJSON_GetStringValue(
					cJSON_GetObjectItem(cJSON_GetArrayItem(
						ms, (int)k), "method"));

				if (!row->measured)
					continue;
				CHECK_STR(jm, row->method);
				/* the HTML legend names the same method */
				snprintf(key, sizeof(key), "the interval (%s)",
					 row->method);
				CHECK_CONTAINS(o.html, key);
			}
		}
		report_view_release(&v);
		cJSON_Delete(root);
		free_all(&o);
		release(&m);
	}
}

/* When the exact interval overrules a configured bootstrap, say so. */
static void test_view__method_names_what_gave_the_bounds(void)
{
	struct model m;
	struct report_view v;
	struct outputs o = { 0 };
	char key[256];

	memset(&m, 0, sizeof(m));
	common(&m, "bootstrap");
	/* too few resamples for a bound at this level: exact decides */
	m.r.resamples = 100;
	{
		static const enum metric wall[] = { METRIC_WALL };
		struct bench_cfg *c = add_bench(&m, "parse", wall, 1);

		c->interval = INTERVAL_PERCENTILE;
		set_pairs(&m.run[0], METRIC_WALL, slower, 0.1, 12);
	}
	decide(&m);
	CHECK(m.res[0].m[0].interval_used == INTERVAL_EXACT);
	CHECK(m.res[0].m[0].interval_why != NULL);
	report_view_build(&v, &m.r);
	CHECK_CONTAINS(v.rows[0].method, "exact signed-rank (one-sided bounds)");
	CHECK_CONTAINS(v.rows[0].method, "percentile configured, but");
	print_all(&o, &m.r);
	snprintf(key, sizeof(key), "\"method\":\t\"%s\"", v.rows[0].method);
	CHECK_CONTAINS(o.json, key);
	report_view_release(&v);
	free_all(&o);
	release(&m);
}

/* 1, 2 or 5 x 10^k. */
static int round_step(double v)
{
	double mant;

	if (!(v > 0))
		return 0;
	mant = v / pow(10, floor(log10(v) + 1e-9));
	return fabs(mant - 1) < 1e-6 || fabs(mant - 2) < 1e-6 ||
	       fabs(mant - 5) < 1e-6;
}

/* The HTML plots' tick labels: evenly stepped multiples of a round step
 * (1, 2 or 5 x 10^k percent), not the range split in four. */
static void test_view__html_ticks_are_round(void)
{
	size_t i;

	for (i = 0; i < NMODELS; i++) {
		struct model m;
		struct outputs o = { 0 };
		const char *s, *svg;
		size_t plots = 0;

		memset(&m, 0, sizeof(m));
		models[i](&m);
		print_all(&o, &m.r);
		for (svg = strstr(o.html, "<svg"); svg;
		     svg = strstr(svg + 1, "<svg")) {
			const char *end = strstr(svg, "</svg>");
			double t[16], step;
			size_t n = 0, k;

			for (s = strstr(svg, "<text class=\"tick\""); s && s < end &&
			     n < 16; s = strstr(s + 1, "<text class=\"tick\"")) {
				const char *gt = strchr(s, '>');

				if (!strncmp(gt, ">0<", 3))
					t[n++] = 0;
				else if (sscanf(gt + 1, "%lf", &t[n]) == 1)
					n++;
			}
			plots++;
			CHECK(n >= 3);
			if (n < 2)
				continue;
			/* ticks on both sides of "no change" (issue 26) */
			{
				double lo = t[0], hi = t[0];

				for (k = 1; k < n; k++) {
					lo = fmin(lo, t[k]);
					hi = fmax(hi, t[k]);
				}
				if (!(lo < 0 && hi > 0)) {
					fprintf(stderr, "%s: ticks %g .. %g do "
						"not straddle no change\n",
						m.name, lo, hi);
					harness_failed_checks++;
				}
			}
			/* in order along the axis; each side's ticks are
			   multiples of a round step (labels too close to
			   the one before are left out, and a side the step
			   skipped has one round tick of its own) */
			for (k = 1; k < n; k++)
				CHECK(t[k] > t[k - 1]);
			for (k = 0; k < n; k++) {
				double unit = 0;
				size_t j;

				for (j = 0; j < n; j++)	/* its side's smallest */
					if (t[j] * t[k] > 0 &&
					    (!unit || fabs(t[j]) < unit))
						unit = fabs(t[j]);
				if (t[k] == 0)
					continue;
				step = unit;
				if (!round_step(step)) {
					fprintf(stderr, "%s: tick %g is not "
						"round\n", m.name, step);
					harness_failed_checks++;
				}
				CHECK_NEAR(fabs(t[k]) / step,
					   round(fabs(t[k]) / step), 1e-6);
			}
		}
		CHECK(!strstr(o.html, "class=\"pair\"") || plots >= 2);
		free_all(&o);
		release(&m);
	}
}

static void test_view__ticks_cover_the_range(void)
{
	static const struct {
		double lo, hi;
		double first, step;
	} cases[] = {
		{ 0.911, 1.426, -5, 10 },	/* -8.9% .. +42.6% */
		{ 0.99, 1.03, -1, 1 },
		{ 1.0, 2.0, 0, 20 },
		{ 0.5, 4.0, 0, 100 },
	};
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double pct[8];
		size_t n = view_ticks(cases[i].lo, cases[i].hi, pct, 6);

		CHECK(n >= 3 && n <= 6);
		for (k = 0; k < n; k++) {
			CHECK(pct[k] >= (cases[i].lo - 1) * 100 - 1e-9);
			CHECK(pct[k] <= (cases[i].hi - 1) * 100 + 1e-9);
			if (k)
				CHECK_NEAR(pct[k] - pct[k - 1], cases[i].step,
					   1e-9);
		}
		(void)cases[i].first;
	}
}

/* Whether a line of text (after blanks) starts with prefix. */
static int line_starts(const char *text, const char *prefix)
{
	const char *p = text;

	while (p && *p) {
		const char *q = p;

		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, prefix, strlen(prefix)))
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/*
 * Issue 27 item 1: one hostile name (ESC sequences that set the title and
 * clear the screen, a newline and a forged "::error::" at a line's start,
 * <script>, a spreadsheet formula, a mention) through every output of the
 * report: the terminal (plain and in Actions), Markdown, HTML,
 * annotations, progress lines, JSON, CSV. None obeys it; the JSON keeps it
 * whole.
 */
static void test_view__hostile_name_in_every_output(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	static const char evil[] = "\x1b]0;pwned\x07\x1b[2J\n::error::owned\n"
		"<script>alert(1)</script>=HYPERLINK(\"http://x\") @user #12";
	struct model m;
	struct outputs o = { 0 }, oa = { 0 };
	char *csv;

	memset(&m, 0, sizeof(m));
	common(&m, "hostile");
	add_bench(&m, evil, wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, slower, 0.1, 12);
	decide(&m);
	unsetenv("GITHUB_ACTIONS");
	print_all(&o, &m.r);
	setenv("GITHUB_ACTIONS", "true", 1);
	print_all(&oa, &m.r);
	unsetenv("GITHUB_ACTIONS");
	/* no output obeys an escape sequence */
	CHECK(!strchr(o.term, 0x1b) && !strchr(o.term_short, 0x1b));
	CHECK(!strchr(oa.term_short, 0x1b));
	CHECK(!strchr(o.md, 0x1b) && !strchr(o.html, 0x1b));
	CHECK(!strchr(o.annot, 0x1b) && !strchr(o.progress, 0x1b));
	/* nothing the name holds starts a line of its own as a command */
	CHECK(!line_starts(o.term_short, "::error::owned"));
	CHECK(!line_starts(oa.term_short, "::error::owned"));
	CHECK(!line_starts(oa.term, "::error::owned"));
	CHECK(!line_starts(o.md, "::error::owned"));
	CHECK(!line_starts(o.annot, "::error::owned"));
	CHECK(!line_starts(o.progress, "::error::owned"));
	/* no markup, no mention */
	CHECK(!strstr(o.md, "<script") && !strstr(o.html, "<script"));
	CHECK(!strstr(o.md, "@user"));
	/* the JSON keeps the name whole (escaped by JSON's own rules) */
	CHECK_CONTAINS(o.json, "\\u001b]0;pwned\\u0007\\u001b[2J\\n::error::owned");
	/* a spreadsheet gets text, not a formula */
	csv = escape_str(ESCAPE_CSV, "=HYPERLINK(\"http://x\")");
	CHECK(csv && csv[0] == '"' && csv[1] == '\'');
	free(csv);
	free_all(&o);
	free_all(&oa);
	release(&m);
}

/* Issue 27: a 1 MB name is cut in every printer, whole in the JSON. */
static void test_view__huge_name_is_bounded(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	size_t n = 1 << 20;
	char *name = malloc(n + 1);
	struct model m;
	struct outputs o = { 0 };

	memset(name, 'x', n);
	name[n] = '\0';
	memset(&m, 0, sizeof(m));
	common(&m, "huge");
	add_bench(&m, name, wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, slower, 0.1, 12);
	decide(&m);
	print_all(&o, &m.r);
	CHECK(strlen(o.term) < 64 * 1024 && strlen(o.term_short) < 16 * 1024);
	CHECK(strlen(o.md) < 64 * 1024 && strlen(o.html) < 256 * 1024);
	CHECK(strlen(o.annot) < 64 * 1024 && strlen(o.progress) < 64 * 1024);
	CHECK(strlen(o.json) > n);
	free_all(&o);
	release(&m);
	free(name);
}

/*
 * Issue 26 item 3: the Markdown puts what needs attention first (a fail
 * declared between two passes), folds the passes in <details>, has a
 * summary row (geometric mean over the measured benchmarks) and, in
 * Actions, a link to the run whose artifacts hold the HTML report.
 */
static void test_view__markdown_order_and_folding(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	struct model m;
	struct outputs o = { 0 };
	const char *fail_row, *pass_row, *details;

	memset(&m, 0, sizeof(m));
	common(&m, "order");
	add_bench(&m, "alpha", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, same, 0.1, 12);
	add_bench(&m, "beta", wall, 1);
	set_pairs(&m.run[1], METRIC_WALL, slower, 0.1, 12);
	add_bench(&m, "gamma", wall, 1);
	set_pairs(&m.run[2], METRIC_WALL, same, 0.1, 12);
	decide(&m);
	setenv("GITHUB_SERVER_URL", "https://github.com", 1);
	setenv("GITHUB_REPOSITORY", "o/r", 1);
	setenv("GITHUB_RUN_ID", "42", 1);
	print_all(&o, &m.r);
	unsetenv("GITHUB_SERVER_URL");
	unsetenv("GITHUB_REPOSITORY");
	unsetenv("GITHUB_RUN_ID");
	fail_row = strstr(o.md, "| beta |");
	pass_row = strstr(o.md, "| alpha |");
	details = strstr(o.md, "<details><summary>2 passing benchmarks");
	CHECK(fail_row && pass_row && details);
	CHECK(fail_row < details && details < pass_row);
	CHECK(strstr(o.md, "| gamma |") > details);
	CHECK_CONTAINS(o.md, "(over 3 measured)");
	CHECK_CONTAINS(o.md, "(https://github.com/o/r/actions/runs/42)");
	free_all(&o);
	release(&m);
}

/*
 * Issue 26 item 4: where the change (the pairs' estimate) and the arms'
 * medians point different ways, the row says why in one line (the HTML
 * shows it); where they agree it says nothing.
 */
static void test_view__direction_note_when_medians_disagree(void)
{
	struct bench_cfg c;
	struct bench_run br;
	struct bench_stats st;
	struct view_row row;
	double ratio = 1.05;

	memset(&c, 0, sizeof(c));
	memset(&br, 0, sizeof(br));
	memset(&st, 0, sizeof(st));
	c.name = (char *)"dir";
	c.metric = METRIC_WALL;
	br.cfg = &c;
	st.metric = METRIC_WALL;
	st.gating = 1;
	st.ratios = &ratio;
	st.n = 1;
	st.estimate = 1.05;
	st.low = 1.01;
	st.high = 1.09;
	st.level = 0.975;
	st.base_median = 0.100;
	st.head_median = 0.095;	/* head's median lower, the change +5% */
	view_row_build(&row, &br, &st, 0);
	CHECK(strstr(row.direction, "point the other way") != NULL);
	view_row_release(&row);
	st.head_median = 0.104;	/* both up: nothing to say */
	view_row_build(&row, &br, &st, 0);
	CHECK(row.direction[0] == '\0');
	view_row_release(&row);
}

/* A 10x regression: round steps of +100% skip the side below no change;
 * it gets a round tick of its own (the browser test found it). */
static void test_view__big_change_has_ticks_on_both_sides(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	double ten[12];
	struct model m;
	struct outputs o = { 0 };
	const char *svg;
	size_t i, axes = 0;

	for (i = 0; i < 12; i++)
		ten[i] = 10 * slower[i];
	memset(&m, 0, sizeof(m));
	common(&m, "tenfold");
	add_bench(&m, "big", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, ten, 0.02, 12);
	decide(&m);
	print_all(&o, &m.r);
	for (svg = strstr(o.html, "<svg"); svg; svg = strstr(svg + 1, "<svg")) {
		const char *end = strstr(svg, "</svg>"), *s;
		int neg = 0, pos = 0;

		for (s = strstr(svg, "class=\"tick\""); s && s < end;
		     s = strstr(s + 1, "class=\"tick\"")) {
			const char *gt = strchr(s, '>');

			neg |= gt[1] == '-';
			pos |= gt[1] == '+';
		}
		axes++;
		CHECK(neg && pos);
		/* on the horizontal axis, no label touches the next one */
		if (!strncmp(svg, "<svg class=\"axis\"", 17)) {
			double x, px = -1e9;
			size_t len, plen = 0;

			for (s = strstr(svg, "<text class=\"tick\" x=\"");
			     s && s < end;
			     s = strstr(s + 1, "<text class=\"tick\" x=\"")) {
				const char *gt = strchr(s, '>');

				CHECK(sscanf(s + 22, "%lf", &x) == 1);
				len = (size_t)(strchr(gt, '<') - gt - 1);
				CHECK(x - px >= 4.2 * (double)(len + plen) + 10);
				px = x;
				plen = len;
			}
		}
	}
	CHECK(axes >= 2);
	free_all(&o);
	release(&m);
}

/*
 * A model of n cases, each a copy of m's only benchmark under its own
 * name (stem, the case's number, "]"): the copies share m's pairs and
 * results, which the printers only read. Free with big_release.
 */
struct big {
	struct bench_cfg *cfg;
	struct run_bench *b;
	char **names;
	struct run_report r;
	size_t n;
};

static void big_make(struct big *g, const struct model *m, size_t n,
		     const char *stem)
{
	size_t i;

	g->n = n;
	g->cfg = calloc(n, sizeof(*g->cfg));
	g->b = calloc(n, sizeof(*g->b));
	g->names = calloc(n, sizeof(*g->names));
	for (i = 0; i < n; i++) {
		char name[256];

		snprintf(name, sizeof(name), "%s%03zu]", stem, i + 1);
		g->names[i] = strdup(name);
		g->cfg[i] = m->cfg[0];
		g->cfg[i].name = g->names[i];
		g->b[i] = m->b[0];
		g->b[i].run.cfg = &g->cfg[i];
	}
	g->r = m->r;
	g->r.b = g->b;
	g->r.n = g->r.compared = n;
}

static void big_release(struct big *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->names[i]);
	free(g->names);
	free(g->cfg);
	free(g->b);
}

/*
 * Issue 37: a 200-case noisy suite put every case's name in the
 * Markdown's bold headline (22,151 bytes), and a comment cut the body at
 * 60,000 bytes mid-row, losing the counts, the link and the protocol.
 * Now the headline is one line of at most three names and "and N more",
 * and the Markdown is written within GitHub's 65,536 characters: cut
 * after a whole row, the counts, the link and the protocol kept, the
 * cut said with the link.
 */
static void test_view__headline_fits_a_large_suite(void)
{
	struct model m;
	struct report_view v;
	struct big g;
	char *md, *nl, *cut;
	const char *l;
	size_t len;
	FILE *f;

	memset(&m, 0, sizeof(m));
	model_noisy(&m);
	big_make(&g, &m, 200, "tests/test_parse.py::test_roundtrip_of_a_"
		 "document_with_a_long_descriptive_name[case-");
	setenv("GITHUB_SERVER_URL", "https://github.com", 1);
	setenv("GITHUB_REPOSITORY", "o/r", 1);
	setenv("GITHUB_RUN_ID", "42", 1);
	f = open_memstream(&md, &len);
	report_view_build(&v, &g.r);
	report_md_view(f, &v);
	report_view_release(&v);
	fclose(f);
	unsetenv("GITHUB_SERVER_URL");
	unsetenv("GITHUB_REPOSITORY");
	unsetenv("GITHUB_RUN_ID");
	nl = strchr(md, '\n');
	CHECK(nl && (size_t)(nl - md) < 1000);
	CHECK(!strncmp(md, "### ", 4));
	CHECK_CONTAINS(md, "case-001\\]** ");
	CHECK_CONTAINS(md, " and 197 more (200 noisy)\n");
	CHECK(!strstr(md, "case-004\\]**"));
	/* within GitHub's limit, with what a reader needs kept */
	CHECK(len <= 65536 - 1000);
	CHECK_CONTAINS(md, "0 pass, 0 fail, 200 noisy, 0 error, 0 new "
		       "\xc2\xb7 exit 2\n");
	CHECK_CONTAINS(md, "<details><summary>Protocol</summary>");
	CHECK_CONTAINS(md, "</details>\n");
	cut = strstr(md, " more rows (");
	CHECK(cut != NULL);
	CHECK_CONTAINS(md, "benchmarks) in the run's report**");
	CHECK(cut && strstr(cut, "(https://github.com/o/r/actions/runs/42)"));
	/* every table line whole */
	for (l = md; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\n");

		if (*l == '|')
			CHECK(n >= 2 && l[n - 1] == '|');
	}
	/* worst first: a fail among the noisy cases leads */
	free(md);
	big_release(&g);
	release(&m);
}

/* The visible columns of a line of terminal output (escapes skipped). */
static size_t visible(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\033') {
			while (i < n && !(s[i] >= '@' && s[i] <= '~' &&
			       s[i] != '['))
				i++;
			continue;
		}
		if (s[i] != '\r' && ((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	}
	return w;
}

/*
 * Issue 37: two cases differing only at the end of a long name were the
 * same cut name at 80 columns in the table, the reasons and the progress
 * line. Cut in the middle they stay apart; the reasons have them whole;
 * no line is wider than the terminal.
 */
static void test_view__names_differing_at_the_end(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	static const char stem[] = "tests/test_x.py::test_some_long_name_"
		"that_goes_on_and_on_through_the_whole_line";
	char a[160], b[160], want[200], *prog = NULL;
	struct model m;
	struct outputs o = { 0 };
	struct progress p;
	const char *l;
	size_t len, i;
	FILE *f;

	snprintf(a, sizeof(a), "%s[param-1]", stem);
	snprintf(b, sizeof(b), "%s[param-2]", stem);
	memset(&m, 0, sizeof(m));
	common(&m, "ends");
	add_bench(&m, a, wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, wide, 0.1, 12);
	add_bench(&m, b, wall, 1);
	set_pairs(&m.run[1], METRIC_WALL, slower, 0.1, 12);
	decide(&m);
	print_all(&o, &m.r);
	/* the table: one row each, told apart, the fail first */
	CHECK(strstr(o.term_short, "[param-1]  ") &&
	      strstr(o.term_short, "[param-2]  "));
	CHECK(strstr(o.term_short, "[param-2]  ") <
	      strstr(o.term_short, "[param-1]  "));
	/* no line is wider: a name wider than the line is broken at it */
	for (l = o.term_short; *l; l += strcspn(l, "\n") + (l[strcspn(l,
	     "\n")] != 0))
		CHECK(visible(l, strcspn(l, "\n")) <= 80);
	/* the reasons: whole (on lines of their own, broken at 80) */
	snprintf(want, sizeof(want), "\n%.80s\n%s:\n    ", a, a + 80);
	CHECK_CONTAINS(o.term_short, want);
	snprintf(want, sizeof(want), "\n%.80s\n%s:\n    ", b, b + 80);
	CHECK_CONTAINS(o.term_short, want);
	/* the progress line on an 80-column terminal */
	f = open_memstream(&prog, &len);
	progress_init(&p, f, 0, 0, 0);
	p.mode = PROGRESS_TTY;
	for (i = 0; i < m.r.n; i++) {
		progress_bench_start(&p, i, m.r.n);
		progress_pair(&p, &m.r.b[i].run, 12, 12);
		fputc('\n', f);
	}
	fclose(f);
	CHECK(strstr(prog, "[param-1]") && strstr(prog, "[param-2]"));
	for (l = prog; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		CHECK(visible(l, strcspn(l, "\n")) <= 80);
	free(prog);
	free_all(&o);
	release(&m);
}

/* Every medium shows the worst first: a noisy case declared before a
 * failing one comes after it in the HTML, the annotations and the
 * terminal, as in the Markdown. */
static void test_view__worst_first_everywhere(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	struct model m;
	struct outputs o = { 0 };

	memset(&m, 0, sizeof(m));
	common(&m, "worst");
	add_bench(&m, "quiet_pass", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, same, 0.1, 12);
	add_bench(&m, "wobbly", wall, 1);
	set_pairs(&m.run[1], METRIC_WALL, wide, 0.1, 12);
	add_bench(&m, "slowed", wall, 1);
	set_pairs(&m.run[2], METRIC_WALL, slower, 0.1, 12);
	decide(&m);
	print_all(&o, &m.r);
#define BEFORE(text, x, y) CHECK(strstr(text, x) && strstr(text, y) && \
				 strstr(text, x) < strstr(text, y))
	BEFORE(o.html, "<td class=\"name\">slowed<", "<td class=\"name\">wobbly<");
	BEFORE(o.html, "<td class=\"name\">wobbly<", "<td class=\"name\">quiet_pass<");
	BEFORE(o.html, "</span> slowed</h2>", "</span> wobbly</h2>");
	BEFORE(o.term_short, "\nslowed ", "\nwobbly ");
	BEFORE(o.term_short, "\nwobbly ", "\nquiet_pass ");
	BEFORE(o.term_short, "\nslowed: ", "\nwobbly: ");
	BEFORE(o.annot, "slowed", "wobbly");
	BEFORE(o.md, "| slowed |", "| wobbly |");
	/* the verdict is the first cell of every HTML row */
	CHECK_CONTAINS(o.html, "<tr><td><span class=\"badge fail\">fail</span>"
		       "</td><td class=\"name\">slowed</td>");
	CHECK_CONTAINS(o.md, "regressed: **slowed** ");
	CHECK_CONTAINS(o.html, "<p class=\"headline\"><b>slowed</b> +");
	CHECK_CONTAINS(o.term_short, "verdict: FAIL: 1 fail, 1 noisy, 1 pass");
#undef BEFORE
	free_all(&o);
	release(&m);
}

/* view_cut_middle keeps a third of the start and the end. */
static void test_view__cut_middle(void)
{
	char *c = view_cut_middle("abcdefghijklmnopqrstuvwxyz", 12);

	CHECK_STR(c, "abc...uvwxyz");
	free(c);
	c = view_cut_middle("short", 12);
	CHECK_STR(c, "short");
	free(c);
	/* UTF-8 characters are never split */
	c = view_cut_middle("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			    "\xc3\xa9\xc3\xa9", 6);
	CHECK_STR(c, "\xc3\xa9...\xc3\xa9\xc3\xa9");
	free(c);
}

/*
 * Issue 37: an empty shard said "PASS"; an interrupted benchmark with 14
 * pairs said "not measured". Now the shard says it has no benchmarks in
 * every medium, and the benchmark its pairs so far.
 */
static void test_view__empty_shard_and_interrupted_bench(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	struct model m;
	struct outputs o = { 0 };

	memset(&m, 0, sizeof(m));
	common(&m, "empty");
	decide(&m);
	m.r.shard = 3;
	m.r.nshards = 4;
	print_all(&o, &m.r);
	CHECK_CONTAINS(o.md, "### \xe2\x9e\x96 gate: NO BENCHMARKS \xe2\x80\x94 "
		       "shard 3 of 4 has no benchmarks");
	CHECK_CONTAINS(o.term_short, "verdict: NO BENCHMARKS: shard 3 of 4 "
		       "has no benchmarks");
	CHECK_CONTAINS(o.html, ">no benchmarks</span></h1>");
	CHECK(!strstr(o.md, "PASS") && !strstr(o.term_short, "PASS"));
	free_all(&o);
	release(&m);

	memset(&m, 0, sizeof(m));
	common(&m, "stopped");
	add_bench(&m, "parse", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, slower, 0.1, 12);
	m.run[0].npairs = 10;
	m.run[0].error = (char *)"not measured: the run was interrupted first";
	decide(&m);
	m.r.interrupted = 2;
	print_all(&o, &m.r);
	CHECK_CONTAINS(o.term, "parse: error: interrupted by signal 2 after "
		       "10 pairs of base and head (its first look is at 10): "
		       "not decided");
	CHECK_CONTAINS(o.md, "interrupted by signal 2 after 10 pairs");
	CHECK_CONTAINS(o.html, "interrupted by signal 2 after 10 pairs");
	CHECK(!strstr(o.md, "not measured"));
	free_all(&o);
	release(&m);
}

/*
 * Issue 37: a noisy verdict says what would decide it as a number: the
 * pairs its spread needs at this floor (the power calculation of gate
 * calibrate) at the run's level, the spread as the metric advice
 * measures it, labelled an estimate. The reference, 258 pairs and 54 s
 * for the noisy model, is tests/ref/noisy-decide.py's, computed from
 * tests/golden/noisy.json without gate. A pass or a fail says nothing.
 */
static void test_view__noisy_says_what_would_decide(void)
{
	struct model m;
	struct outputs o = { 0 };

	memset(&m, 0, sizeof(m));
	model_noisy(&m);
	print_all(&o, &m.r);
	CHECK_CONTAINS(o.md, "  - to decide (an estimate from its spread): "
		       "about 258 pairs, about 54 s at this floor, where a "
		       "regression of twice it fails 80% of the time (12 so "
		       "far, max\\_pairs 40)");
	CHECK_CONTAINS(o.term, "to decide (an estimate from its spread): "
		       "about 258 pairs");
	CHECK_CONTAINS(o.html, "to decide (an estimate from its spread): "
		       "about 258 pairs");
	free_all(&o);
	release(&m);
	memset(&m, 0, sizeof(m));
	model_plain(&m);
	print_all(&o, &m.r);
	CHECK(!strstr(o.md, "to decide") && !strstr(o.term, "to decide"));
	free_all(&o);
	release(&m);
}

/*
 * Most pairs alike and a few far off: the robust sd is 0, yet the pairs
 * so far did not decide it. The estimate is never the pairs so far or
 * fewer (it said "about 2 pairs" after 9): the ordinary sd counts the
 * pairs far off.
 */
static void test_view__noisy_estimate_above_the_pairs_so_far(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	static const double twostate[9] = { 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
					    1.9, 0.5, 2.1 };
	struct model m;
	struct outputs o = { 0 };
	const char *d;
	unsigned long need = 0;

	memset(&m, 0, sizeof(m));
	common(&m, "twostate");
	add_bench(&m, "jumpy", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, twostate, 0.1, 9);
	decide(&m);
	/* a suite-wide level no 9 pairs' exact interval reaches */
	m.r.level = 0.999;
	print_all(&o, &m.r);
	CHECK(m.res[0].verdict == VERDICT_NOISY);
	d = strstr(o.term, "to decide (an estimate from its spread): about ");
	CHECK(d != NULL);
	if (d)
		need = strtoul(d + strlen("to decide (an estimate from its "
					  "spread): about "), NULL, 10);
	CHECK(need > 9);
	free_all(&o);
	release(&m);
}

/*
 * Too few pairs for any interval at this look's level, and pairs so
 * close that their spread alone asks for few: the estimate is never
 * below the pairs an interval needs (a counted suite's report said "at
 * least 15 needed" and then "about 12 pairs").
 */
static void test_view__estimate_at_least_what_an_interval_needs(void)
{
	static const enum metric wall[] = { METRIC_WALL };
	static const double close[5] = { 1.001, 0.999, 1.002, 0.998, 1.0005 };
	struct model m;
	struct outputs o = { 0 };
	const char *d, *a;
	unsigned long need = 0, least = 0;

	memset(&m, 0, sizeof(m));
	common(&m, "close");
	add_bench(&m, "counted", wall, 1);
	set_pairs(&m.run[0], METRIC_WALL, close, 0.1, 5);
	/* one-sided 0.1%: an exact interval needs 10 pairs */
	decide_at(&m, 0.001);
	m.r.level = 0.999;
	print_all(&o, &m.r);
	CHECK(m.res[0].verdict == VERDICT_NOISY);
	a = strstr(o.term, "at least ");
	d = strstr(o.term, "to decide (an estimate from its spread): about ");
	CHECK(a != NULL && d != NULL);
	if (a)
		least = strtoul(a + strlen("at least "), NULL, 10);
	if (d)
		need = strtoul(d + strlen("to decide (an estimate from its "
					  "spread): about "), NULL, 10);
	CHECK(least == 10);
	CHECK(need >= least);
	free_all(&o);
	release(&m);
}

static const struct harness_test tests[] = {
	TEST(test_view__estimate_at_least_what_an_interval_needs),
	TEST(test_view__noisy_estimate_above_the_pairs_so_far),
	TEST(test_view__noisy_says_what_would_decide),
	TEST(test_view__empty_shard_and_interrupted_bench),
	TEST(test_view__headline_fits_a_large_suite),
	TEST(test_view__names_differing_at_the_end),
	TEST(test_view__worst_first_everywhere),
	TEST(test_view__cut_middle),
	TEST(test_view__golden_files),
	TEST(test_view__big_change_has_ticks_on_both_sides),
	TEST(test_view__direction_note_when_medians_disagree),
	TEST(test_view__markdown_order_and_folding),
	TEST(test_view__hostile_name_in_every_output),
	TEST(test_view__huge_name_is_bounded),
	TEST(test_view__json_loads_back_identically),
	TEST(test_view__printers_show_the_estimate),
	TEST(test_view__every_gating_metric_is_shown),
	TEST(test_view__suite_values_keep_their_unit),
	TEST(test_view__go_suite_says_its_gomaxprocs),
	TEST(test_view__rates_say_which_way_is_worse),
	TEST(test_view__fixed_time_is_noted),
	TEST(test_view__a_suite_note_is_said_once),
	TEST(test_view__bounds_level_matches_reasons),
	TEST(test_view__method_text_agrees),
	TEST(test_view__method_names_what_gave_the_bounds),
	TEST(test_view__html_ticks_are_round),
	TEST(test_view__ticks_cover_the_range),
};

HARNESS_MAIN(tests)
