/*
 * gate merge REPORT...: the JSON reports of the shards of one run (gate run
 * --shard I/N --json FILE, one per CI matrix job) as one run: every
 * benchmark of every shard, the suite verdict decided again over all of
 * them, every printer, and gate run's exit codes. Each shard decided its
 * benchmarks at the whole run's Bonferroni level; merging checks that the
 * shards belong together (same base and head commits, same plan, each
 * shard once, none missing, the same number of comparisons) and refuses
 * otherwise. Shards may run on different machines (hosted runners promise
 * no CPU model): each case is paired within its own shard, and the merged
 * protocol names every machine. Nor does it trust a shard's word: it plans
 * from base's gate.json read from the base commit in this repository
 * (merge-policy.c), requires every benchmark and case base declares,
 * decides every benchmark again from its samples under base's policy and
 * the trailers of base..head (stored verdicts, "judged" and "identical"
 * never decide), and judges removed and redefined benchmarks itself.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/merge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/github.h"
#include "common/error.h"
#include "common/file.h"
#include "common/seed.h"
#include "gate/decide/arms.h"
#include "gate/config/options.h"
#include "gate/decide/model.h"
#include "gate/decide/verdict.h"
#include "gate/report/load.h"
#include "gate/report/report.h"
#include "gate/report/view.h"
#include "common/banned.h"

#define REPORT_MAX ((size_t)256 << 20)

struct merge_opts {
	const char *json, *markdown, *html, *color, *config;
	int advisory;
};

#define M struct merge_opts
static const struct opt merge_rows[] = {
	OPT_STRING("json", "FILE", M, json, "write the merged JSON report to "
		   "FILE ('-' for stdout)", "<file>"),
	OPT_STRING("markdown", "FILE", M, markdown,
		   "write the merged Markdown report", "<file>"),
	OPT_STRING("html", "FILE", M, html, "write the merged HTML report",
		   "<file>"),
	OPT_STRING("color", "WHEN", M, color, "auto (default), always or never",
		   "auto always never"),
	OPT_STRING("colour", "WHEN", M, color, NULL, "auto always never"),
	OPT_FLAG(0, "advisory", M, advisory, "report the verdict but exit 0"),
	OPT_STRING("config", "FILE", M, config,
		   "the gate.json the shards ran with --config", "<file>"),
};
#undef M

const struct opts_cmd cmd_merge_opts = {
	.name = "merge",
	.repo = 1,
	.operands = "REPORT...",
	.operand_values = "<file>",
	.operand_help = "the --json report of each shard (gate run --shard "
			"I/N), every shard of the run once, in any order",
	.rows = merge_rows,
	.n = sizeof(merge_rows) / sizeof(merge_rows[0]),
	.footer = "runs in the repository (or -C DIR) holding base and head: "
		  "base's\ngate.json (read from its commit) decides, and every "
		  "benchmark it\ndeclares must be in a shard; each is decided "
		  "again from its\nsamples. Refuses shards of different base or "
		  "head commits, plans\n(config or command line), shard counts, "
		  "comparisons, and\noverlapping or missing shards; shards may "
		  "run on different\nmachines (each case is paired within its "
		  "shard: the protocol\nnames every machine)\n\n"
		  "exit: 0 pass (or accepted), 1 fail, 2 noisy, 3 error\n",
};

static enum opts_result parse_options(struct merge_opts *o, int *first,
				       int argc, char **argv)
{
	enum opts_result res;

	res = options_parse(&cmd_merge_opts, o, argc, argv, first);
	if (res != OPTS_GO)
		return res;
	if (*first >= argc) {
		error("gate merge needs the shards' reports: gate run --shard "
		      "I/N --json FILE in each, then gate merge FILE...");
		options_usage(&cmd_merge_opts, stderr);
		return OPTS_ERROR;
	}
	return report_check_options(o->json, o->markdown, o->html,
				    o->color) < 0 ? OPTS_ERROR : OPTS_GO;
}

/* One shard's report, as loaded. */
struct shard {
	const char *path;
	struct run_report r;
};

static int load_one(struct shard *s, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	s->path = path;
	if (file_read(&text, &len, path, REPORT_MAX) < 0)
		return -1;
	ret = report_load(&s->r, text, len, path);
	free(text);
	if (ret < 0)
		return -1;
	if (!s->r.nshards)
		return error("%s is not a shard's report: write one with gate "
			     "run --shard I/N --json FILE", path);
	if (s->r.interrupted)
		return error("%s: shard %u/%u was interrupted (signal %d): "
			     "run it again", path, s->r.shard, s->r.nshards,
			     s->r.interrupted);
	return 0;
}

static const char *str(const char *s)
{
	return s ? s : "";
}

/* "shard 2/4 (FILE)" into buf. */
static const char *who(char *buf, size_t size, const struct shard *s)
{
	snprintf(buf, size, "shard %u/%u (%s)", s->r.shard, s->r.nshards,
		 s->path);
	return buf;
}

/* Shard s belongs with shard f (the first given). 0, or -1 after error(). */
static int same_run(const struct shard *f, const struct shard *s)
{
	char a[512], b[512];
	size_t k;

	who(a, sizeof(a), f);
	who(b, sizeof(b), s);
	if (s->r.nshards != f->r.nshards)
		return error("%s and %s split the run differently: run every "
			     "shard with the same --shard count", a, b);
	for (k = 0; k < 2; k++) {
		const char *x = str(f->r.rev[k].commit);
		const char *y = str(s->r.rev[k].commit);

		if (strcmp(x, y) || f->r.rev[k].dirty != s->r.rev[k].dirty)
			return error("%s measured %s %.12s%s but %s measured "
				     "%.12s%s: merge the shards of one base "
				     "and head", a, k ? "head" : "base",
				     *x ? x : "(no commit)",
				     f->r.rev[k].dirty ? " with changes" : "",
				     b, *y ? y : "(no commit)",
				     s->r.rev[k].dirty ? " with changes" : "");
	}
	if (strcmp(str(f->r.config_hash), str(s->r.config_hash)))
		return error("%s and %s ran different plans (config hash %s, "
			     "%s): run every shard with the same gate.json "
			     "and options", a, b, str(f->r.config_hash),
			     str(s->r.config_hash));
	return 0;
}

/*
 * The merged run's machine: the first shard's, or, when the shards ran
 * on different machines (CPU model or cores), each named with its shards
 * in m's cpu ("shards on different machines, each case paired within its
 * own: 1/2 A (4 cores); 2/2 B (2 cores)"), cut to fit.
 */
static void merged_machine(struct machine *m, const struct shard *s,
			   size_t n)
{
	char buf[sizeof(m->cpu)];
	size_t i, used;
	int differ = 0;

	for (i = 1; i < n; i++)
		differ |= strcmp(s[i].r.machine.cpu, s[0].r.machine.cpu) ||
			  s[i].r.machine.cores != s[0].r.machine.cores;
	if (!differ)
		return;
	used = (size_t)snprintf(buf, sizeof(buf), "shards on different "
				"machines, each case paired within its own:");
	for (i = 0; i < n && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s %u/%u %s (%ld cores)",
					 i ? ";" : "", s[i].r.shard,
					 s[i].r.nshards, s[i].r.machine.cpu,
					 s[i].r.machine.cores);
	memcpy(m->cpu, buf, sizeof(buf));
	m->cpu[sizeof(m->cpu) - 1] = '\0';
}

/* Each of the n shards once, none missing. 0, or -1 after error(). */
static int complete(struct shard *s, size_t n)
{
	unsigned count = s[0].r.nshards, k;
	size_t i, j;
	char a[512], b[512];

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (s[i].r.shard == s[j].r.shard)
				return error("%s and %s are the same shard: "
					     "pass each shard's report once",
					     who(a, sizeof(a), &s[i]),
					     who(b, sizeof(b), &s[j]));
	for (k = 1; k <= count; k++) {
		for (i = 0; i < n && s[i].r.shard != k; i++)
			;
		if (i == n)
			return error("shard %u/%u is missing: merge the reports "
				     "of all %u shards (a failed matrix job "
				     "leaves none: run it again)", k, count,
				     count);
	}
	return 0;
}

/*
 * Every shard decided at the level of the same number of comparisons,
 * and it is the number they compare together. 0, or -1 after error().
 */
static int same_level(const struct shard *s, size_t n, size_t *total)
{
	size_t i;
	char a[512];

	*total = 0;
	for (i = 0; i < n; i++)
		*total += s[i].r.compared - s[i].r.elsewhere;
	for (i = 0; i < n; i++)
		if (s[i].r.compared != *total ||
		    s[i].r.confidence != s[0].r.confidence)
			return error("%s decided at the level of %zu "
				     "comparisons, but the shards compare %zu "
				     "together (a case of a suite split by "
				     "case counts in the other shards as its "
				     "listing showed it: a case that printed "
				     "other units counts otherwise where it "
				     "runs): its "
				     "verdicts are not at the run's level; "
				     "run the suite unsharded", who(a, sizeof(a),
							    &s[i]),
				     s[i].r.compared, *total);
	return 0;
}

static int by_name(const void *x, const void *y)
{
	const struct run_bench *a = x, *b = y;

	return strcmp(a->run.cfg->name, b->run.cfg->name);
}

/* One benchmark of one shard, for the overlap check. */
struct owner {
	const char *name;
	const struct shard *s;
};

static int by_owner(const void *x, const void *y)
{
	const struct owner *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/* No benchmark or suite case in two shards. 0, or -1 after error(). */
static int no_overlap(const struct shard *s, size_t n)
{
	struct owner *o;
	size_t i, j, k = 0, total = 0;
	char a[512], b[512];
	int ret = 0;

	for (i = 0; i < n; i++)
		total += s[i].r.n;
	o = xcalloc(total ? total : 1, sizeof(*o));
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].r.n; j++) {
			o[k].name = s[i].r.b[j].run.cfg->name;
			o[k++].s = &s[i];
		}
	qsort(o, total, sizeof(*o), by_owner);
	for (i = 1; i < total && !ret; i++)
		if (!strcmp(o[i - 1].name, o[i].name))
			ret = error("\"%s\" is in %s and in %s: the shards "
				    "overlap (each case belongs to one shard); "
				    "run every shard with the same gate",
				    o[i].name, who(a, sizeof(a), o[i - 1].s),
				    who(b, sizeof(b), o[i].s));
	free(o);
	return ret;
}

/*
 * Every suite split by case has, over all shards, as many compared cases
 * as its listing said (a shard's report records them). 0, or -1 after
 * error().
 */
static int split_complete(const struct shard *s, size_t n)
{
	const struct run_report *f = &s[0].r;
	size_t i, j, k;
	char a[512];

	for (i = 1; i < n; i++) {
		const struct run_report *r = &s[i].r;
		int same = r->nsplit == f->nsplit;

		for (k = 0; same && k < f->nsplit; k++)
			same = !strcmp(r->split[k].suite, f->split[k].suite) &&
			       r->split[k].cases == f->split[k].cases;
		if (!same)
			return error("%s listed other cases of its suites than "
				     "%s: the arms' harnesses listed "
				     "differently; run the shards again",
				     who(a, sizeof(a), &s[i]), s[0].path);
	}
	for (k = 0; k < f->nsplit; k++) {
		const char *suite = f->split[k].suite;
		size_t got = 0;
		int failed = 0;

		for (i = 0; i < n; i++)
			for (j = 0; j < s[i].r.n; j++) {
				const struct bench_run *br = &s[i].r.b[j].run;

				/* a suite that failed stays one row */
				failed |= !strcmp(br->cfg->name, suite);
				if (br->suite_name &&
				    !strcmp(br->suite_name, suite) &&
				    !br->is_new && !br->is_removed)
					got++;
			}
		if (!failed && got != f->split[k].cases)
			return error("suite \"%s\": the shards compared %zu "
				     "of its cases, but its harness listed "
				     "%zu in both arms: a case is missing (or "
				     "printed under another name than "
				     "listed); run it unsharded", suite, got,
				     f->split[k].cases);
	}
	return 0;
}

/* The shards' benchmarks into m, moved out of each (s[i].r.n is 0 after). */
static void combine(struct run_report *m, struct shard *s, size_t n,
		    size_t total)
{
	const struct run_report *f = &s[0].r;
	enum verdict *v;
	size_t i, j, k = 0, nb = 0;

	*m = *f;	/* the header: revisions, protocol, machine */
	m->loaded = NULL;
	m->b = NULL;
	m->n = 0;
	m->shard = m->nshards = 0;
	m->elsewhere = 0;
	m->split = NULL;
	m->nsplit = 0;
	m->compared = total;
	m->error = NULL;
	/* a shard's --advisory keeps its job green; only merge's counts */
	m->advisory = 0;
	for (i = 0; i < n; i++)
		nb += s[i].r.n;
	run_alloc(m, nb);
	for (i = 0; i < n; i++) {
		struct run_report *r = &s[i].r;

		for (j = 0; j < r->n; j++) {
			/* judged again by merge (arms_judge) */
			if (r->b[j].run.judged == 2) {
				bench_run_release(&r->b[j].run);
				bench_result_release(&r->b[j].result);
				free(r->b[j].note);
				continue;
			}
			m->b[k++] = r->b[j];
		}
		m->n = k;
		free(r->b);
		r->b = NULL;
		r->n = 0;
		/* where the time went: the jobs ran side by side */
		for (j = 0; j < 2; j++)
			if (r->build_seconds[j] > m->build_seconds[j])
				m->build_seconds[j] = r->build_seconds[j];
		if (r->total_seconds > m->total_seconds)
			m->total_seconds = r->total_seconds;
		if (i)
			m->measure_seconds += r->measure_seconds;
		if (r->error && !m->error)
			m->error = r->error;
	}
	merged_machine(&m->machine, s, n);
	qsort(m->b, m->n, sizeof(*m->b), by_name);
	v = xcalloc(m->n + 1, sizeof(*v));
	for (i = 0; i < m->n; i++)
		v[i] = m->b[i].result.verdict;
	m->suite = m->error ? VERDICT_ERROR : verdict_suite(v, m->n);
	free(v);
}

/*
 * The repository holding the shards' commits (-C DIR, else the current
 * directory): base's gate.json and the trailers are read from it.
 */
static int open_repo(struct gate_ctx *ctx)
{
	if (ctx->repo)
		return 0;
	if (repo_open(&ctx->repo, ctx->dir) < 0)
		return error("gate merge reads base's gate.json from the base "
			     "commit: run it in the repository the shards ran "
			     "in (or -C DIR), checked out with fetch-depth: 0");
	return 0;
}

int cmd_merge(int argc, char **argv, struct gate_ctx *ctx)
{
	struct merge_opts o = { 0 };
	struct merge_plan mp = MERGE_PLAN_INIT;
	struct shard *s = NULL;
	struct run_report m;
	struct report_view v;
	struct publish_opts po;
	size_t i, n = 0, total;
	FILE *term;
	int code = EXIT_ERROR, rc, first;
	char a[512];

	memset(&m, 0, sizeof(m));
	rc = parse_options(&o, &first, argc, argv);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if ((rc = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(rc);
	if (report_check_paths(o.json, o.markdown, o.html, NULL) < 0)
		return EXIT_ERROR;
	s = xcalloc((size_t)(argc - first), sizeof(*s));
	for (i = (size_t)first; i < (size_t)argc; i++)
		if (load_one(&s[n++], argv[i]) < 0)
			goto cleanup;
	for (i = 1; i < n; i++)
		if (same_run(&s[0], &s[i]) < 0)
			goto cleanup;
	if (complete(s, n) < 0 || no_overlap(s, n) < 0 ||
	    split_complete(s, n) < 0 || same_level(s, n, &total) < 0)
		goto cleanup;
	if (open_repo(ctx) < 0 ||
	    merge_plan_load(&mp, ctx->repo, &s[0].r, o.config) < 0)
		goto cleanup;
	for (i = 0; i < n; i++)
		if (merge_check_shard(&s[i].r, who(a, sizeof(a), &s[i]),
				      &mp) < 0)
			goto cleanup;
	combine(&m, s, n, total);
	if (merge_check_complete(&m, &mp) < 0) {
		run_release(&m);
		goto cleanup;
	}
	/* base's rules for what head removed or redefined, as gate run's */
	if (mp.have_base) {
		arms_judge(&m, &mp.plan, mp.acc, mp.nacc);
		qsort(m.b, m.n, sizeof(*m.b), by_name);
		if (m.error)
			m.suite = VERDICT_ERROR;
	}
	code = m.exit_code = o.advisory ? EXIT_PASS :
			     verdict_exit_code(m.suite);
	m.advisory = o.advisory;
	term = report_term_stream(o.json, o.markdown, o.html);
	m.color = report_use_color(o.color, term);
	po = (struct publish_opts){ .markdown = o.markdown, .html = o.html,
				    .json = o.json,
				    .github = ci_github_active() };
	report_view_build(&v, &m);
	report_term(term, &v, m.color, 0);
	if (o.json && report_json(o.json, &m) < 0)
		code = EXIT_ERROR;
	if (report_publish(term, &v, &po) < 0)
		code = EXIT_ERROR;
	report_view_release(&v);
	run_release(&m);
cleanup:
	for (i = 0; i < n; i++)
		report_load_release(&s[i].r);
	free(s);
	merge_plan_release(&mp);
	return code;
}
