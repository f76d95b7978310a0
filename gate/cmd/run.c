/*
 * gate run: resolve base and head, check both out under $GIT_DIR/gate/,
 * build them, measure every benchmark in interleaved pairs, and report a
 * verdict. Owns the run's resources; every exit path goes through cleanup.
 */
#include "gate/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "ci/github.h"
#include "common/error.h"
#include "common/seed.h"
#include "gate/adaptive.h"
#include "gate/calibration.h"
#include "gate/config.h"
#include "gate/exec/layout.h"
#include "gate/measure.h"
#include "gate/options.h"
#include "gate/plan.h"
#include "gate/run.h"
#include "gate/workspace.h"
#include "gate/report/progress.h"
#include "gate/report/report.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/suite.h"
#include "gate/exec/sysinfo.h"
#include "gate/verdict.h"
#include "git/repo.h"
#include "stats/stats.h"
#include "common/banned.h"

const char cmd_run_usage[] =
	"usage: gate [-C DIR] run [--base REV] [--head REV] [--config FILE]\n"
	"                        [--json FILE] [--seed N] [--pairs N] "
	"[--warmup N]\n"
	"                        [--filter REGEX] [--budget TIME] [--strict]\n"
	"                        [--advisory] [-q | -v]\n"
	"                        [--pin CPUS] [--fixed-arms] [--no-env-pad]\n"
	"                        [--no-scratch] [--markdown FILE] [--html FILE]\n"
	"                        [--color WHEN]\n"
	"\n"
	"  --base REV     base revision (default: merge-base of HEAD with its\n"
	"                 upstream, or with origin/$GITHUB_BASE_REF in a pull\n"
	"                 request, else HEAD~1)\n"
	"  --head REV     head revision (default: the working tree as it is,\n"
	"                 uncommitted changes included; also WORKTREE)\n"
	"  --config FILE  read this gate.json instead of head's\n"
	"  --json FILE    write the JSON report to FILE ('-' for stdout)\n"
	"  --seed N       seed for the pair order and the bootstrap (replays "
	"a run)\n"
	"  --pairs N      pairs per benchmark, overriding gate.json\n"
	"  --warmup N     warm-up runs per arm, overriding gate.json\n"
	"  --budget TIME  measuring time for the whole run (90s, 10m, 1h;\n"
	"                 default \"budget\" in gate.json, else 5m)\n"
	"  --strict       pass only when the interval excludes regressions\n"
	"                 above the floor\n"
	"  --filter REGEX compare only the suite cases whose name matches\n"
	"                 (POSIX extended regex; plain benchmarks unaffected)\n"
	"  --advisory     report the verdict but exit 0\n"
	"  --markdown FILE  write the Markdown report (a PR comment body)\n"
	"  --html FILE    write a self-contained HTML report with plots\n"
	"  --color WHEN   auto (default: on a terminal, unless NO_COLOR is "
	"set),\n"
	"                 always or never\n"
	"  -q, --quiet    no progress messages on stderr\n"
	"  -v, --verbose  one line per pair on stderr\n"
	"  --pin CPUS     run the benchmarks on these CPUs only (e.g. 1 or "
	"2-3)\n"
	"  --fixed-arms   base always in .git/gate/a, head in b (default: "
	"drawn\n"
	"                 at random per run, so a directory cannot own a "
	"bias)\n"
	"  --no-env-pad   no random environment padding per sample\n"
	"  --no-scratch   no fresh $GATE_TMPDIR per sample\n"
	"\n"
	"exit: 0 pass, 1 fail, 2 noisy, 3 error, 130/143 interrupted\n";

struct run_opts {
	const char *base, *head, *config, *json;
	const char *markdown, *html, *color;	/* reports and --color */
	int verbose, github;
	struct progress *prog;
	unsigned long seed;
	int have_seed, advisory, quiet;
	int fixed_arms, no_env_pad, no_scratch;
	const char *pin;
	struct plan_overrides ov;	/* --pairs, --warmup, --budget,
					   --strict, --filter */
};

static int usage_error(const char *what, const char *arg)
{
	error("%s \"%s\"", what, arg);
	fputs(cmd_run_usage, stderr);
	return EXIT_ERROR;
}

static int parse_options(struct run_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "head", required_argument, NULL, 'H' },
		{ "config", required_argument, NULL, 'c' },
		{ "json", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "advisory", no_argument, NULL, 'a' },
		{ "strict", no_argument, NULL, 'T' },
		{ "budget", required_argument, NULL, 'B' },
		{ "filter", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "markdown", required_argument, NULL, 'm' },
		{ "html", required_argument, NULL, 'M' },
		{ "color", required_argument, NULL, 'K' },
		{ "colour", required_argument, NULL, 'K' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "pin", required_argument, NULL, 'P' },
		{ "fixed-arms", no_argument, NULL, 'F' },
		{ "no-env-pad", no_argument, NULL, 'E' },
		{ "no-scratch", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long v;
	int c;

	o->ov.pairs = o->ov.warmup = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->base = optarg; break;
		case 'H': o->head = optarg; break;
		case 'c': o->config = optarg; break;
		case 'j': o->json = optarg; break;
		case 'a': o->advisory = 1; break;
		case 'T': o->ov.strict = 1; break;
		case 'B':
			if (options_parse_duration(&o->ov.budget, "--budget", optarg) < 0)
				return -1;
			break;
		case 'f': o->ov.filter = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'v': o->verbose = 1; break;
		case 'm': o->markdown = optarg; break;
		case 'M': o->html = optarg; break;
		case 'K': o->color = optarg; break;
		case 'P': o->pin = optarg; break;
		case 'F': o->fixed_arms = 1; break;
		case 'E': o->no_env_pad = 1; break;
		case 'S': o->no_scratch = 1; break;
		case 'h':
			fputs(cmd_run_usage, stdout);
			return 1;
		case 's':
			if (options_parse_count(&v, "--seed", optarg, 0,
					4294967295L) < 0)
				return -1;
			o->seed = (unsigned long)v;
			o->have_seed = 1;
			break;
		case 'p':
			if (options_parse_count(&o->ov.pairs, "--pairs", optarg, 2,
					10000) < 0)
				return -1;
			break;
		case 'w':
			if (options_parse_count(&o->ov.warmup, "--warmup", optarg, 0,
					1000) < 0)
				return -1;
			break;
		default:
			usage_error("unknown or incomplete option",
				    argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		usage_error("unexpected argument", argv[optind]);
		return -1;
	}
	if (report_check_options(o->json, o->markdown, o->html, o->color) < 0) {
		fputs(cmd_run_usage, stderr);
		return -1;
	}
	return 0;
}

/*
 * Base's own gate.json says which benchmarks base knows; the others are
 * new and not compared. With --config, or when base has no readable
 * gate.json, every benchmark is compared (base may simply predate it).
 */
static void mark_new(struct run_report *r, struct repo *repo,
		     const struct run_opts *o, const struct repo_rev *base,
		     char *last_error, size_t size)
{
	struct config bcfg = CONFIG_INIT;
	char *text = NULL;
	size_t len = 0, i;
	char buf[1024];

	if (o->config)
		return;
	if (repo_read_file(&text, &len, repo, base->tree, "gate.json") != 0)
		return;
	error_capture(buf, sizeof(buf), 1);
	if (config_parse(&bcfg, text, len, "base's gate.json") < 0) {
		error_capture(last_error, size, 0);
		warning("base's gate.json is not valid (%s): comparing every "
			"benchmark head declares", buf);
		free(text);
		return;
	}
	error_capture(last_error, size, 0);
	for (i = 0; i < r->n; i++)
		r->b[i].run.is_new = !config_find(&bcfg, r->b[i].run.cfg->name);
	config_release(&bcfg);
	free(text);
}

static void fill_rev(struct report_rev *out, const struct arm_state *a)
{
	out->label = a->rev.label;
	out->commit = a->rev.commit;
	out->tree = a->rev.tree;
	out->how = a->how;
	out->worktree = a->rev.worktree;
	out->dirty = a->rev.dirty;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How the run measures: one pair order, the progress line, the clock. */
struct measuring {
	struct measure_opts mo;
	struct progress *prog;
	double start;		/* measuring began (the budget's clock) */
};

/* Benchmark i of r to total pairs: 0, -1 or the interrupting signal. */
static int measure_to(struct run_report *r, struct measuring *m, size_t i,
		      unsigned total)
{
	struct bench_run *br = &r->b[i].run;
	int rc;

	if (!measure_pending(br, total))
		return measure_grow(br, &m->mo, total);
	progress_bench_start(m->prog, i, r->n);
	rc = measure_grow(br, &m->mo, total);
	progress_clear(m->prog);
	return rc;
}

/*
 * Suites first, at their planned pairs: the number of comparisons (the
 * Bonferroni correction) is known only once they have printed their
 * cases. Each then fans out into its cases, which take their suite's
 * measuring time. Returns 0 or the interrupting signal.
 */
static int measure_suites(struct run_report *r, struct measuring *m,
			  struct suite_owned *own, const char *filter)
{
	struct { const char *name; double seconds; } *st = NULL;
	size_t i, j, nst = 0;
	int rc = 0;

	for (i = 0; i < r->n && rc <= 0; i++) {
		struct bench_run *br = &r->b[i].run;

		if (br->is_new || br->cfg->format == FORMAT_TIME)
			continue;
		rc = measure_to(r, m, i, br->cfg->pairs);
		st = xrealloc(st, (nst + 1) * sizeof(*st));
		st[nst].name = br->cfg->name;
		st[nst++].seconds = br->seconds;
	}
	/* the plan checked the filter: this cannot fail */
	suite_fanout(&r->b, &r->n, own, filter);
	for (i = 0; i < r->n; i++)
		for (j = 0; r->b[i].run.suite_name && j < nst; j++)
			if (!strcmp(st[j].name, r->b[i].run.suite_name))
				r->b[i].run.seconds = st[j].seconds;
	free(st);
	return rc > 0 ? rc : 0;
}

/*
 * The decision: the adaptive module says which benchmark needs how many
 * pairs next, the pipeline measures them, the module looks; then the
 * suite verdict, once. Returns 0 or the interrupting signal.
 */
static int decide(struct run_report *r, struct measuring *m,
		  const struct plan *p, int quiet)
{
	struct adaptive_opts ao = { p->budget, p->strict, quiet };
	struct adaptive a;
	struct adaptive_want want;
	int rc = 0;

	adaptive_begin(&a, r, &ao);
	while (rc <= 0 && adaptive_next(&a, r, now() - m->start, &want)) {
		rc = measure_to(r, m, want.i, want.total);
		adaptive_look(&a, r, &want, rc);
	}
	adaptive_finish(r);
	return rc > 0 ? rc : 0;
}

/*
 * Measure and decide every benchmark, then the notes beside the verdicts
 * (calibration, load). Returns the exit code.
 */
static int measure_all(struct run_report *r, struct plan *p,
		       const struct workspace *w, const struct run_opts *o,
		       struct suite_owned *own)
{
	struct measuring m = { { { w->arm[0].dir, w->arm[1].dir }, r->layout,
				 NULL, 2.0, o->quiet, progress_pair,
				 o->prog }, o->prog, 0 };
	char *calib = workspace_path(w, "calibration.json");
	size_t i;

	m.mo.order_rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!m.mo.order_rng) {
		free(calib);
		return error("cannot allocate a random generator"), EXIT_ERROR;
	}
	gsl_rng_set(m.mo.order_rng, r->seed);
	m.start = now();
	r->interrupted = measure_suites(r, &m, own, p->filter);
	r->strict = p->strict;
	r->budget = p->budget;
	plan_pairs(p, r);
	if (!r->interrupted)
		r->interrupted = decide(r, &m, p, o->quiet);
	else
		adaptive_finish(r);
	machine_read_load_after(&r->machine);
	gsl_rng_free(m.mo.order_rng);
	calibration_check_run(r, calib);
	free(calib);
	run_note_load(r);
	for (i = 0; i < r->n; i++) {
		/* one line per compared benchmark or suite case (Actions) */
		progress_bench_start(o->prog, i, r->n);
		progress_bench_end(o->prog, &r->b[i].run, &r->b[i].primary);
	}
	/* a signal during the statistics stops the run too */
	signals_test_stall("statistics");
	if (!r->interrupted)
		r->interrupted = signals_pending();
	if (r->interrupted)
		return signals_exit_code(r->interrupted);
	return o->advisory ? EXIT_PASS : verdict_exit_code(r->suite);
}

/* Base and head, as the user named them or gate chose. 0 or -1. */
static int resolve_revs(struct workspace *w, struct repo *repo,
			const struct run_opts *o)
{
	struct arm_state *arm = w->arm;
	char *base_spec = NULL;
	int ret = -1;

	if (repo_resolve(&arm[ARM_HEAD].rev, repo,
			 o->head ? o->head : "WORKTREE") < 0)
		return -1;
	if (o->base)
		base_spec = xstrdup(o->base);
	else if (repo_default_base(&base_spec, &arm[ARM_BASE].how, repo) < 0)
		return -1;
	if (repo_resolve(&arm[ARM_BASE].rev, repo, base_spec) < 0)
		goto cleanup;
	if (!o->base) {
		/* report the base as the user would name it */
		free(arm[ARM_BASE].rev.label);
		arm[ARM_BASE].rev.label = xstrdup("default base");
	}
	ret = 0;
cleanup:
	free(base_spec);
	return ret;
}

/*
 * The model's entries, one per planned benchmark, with new ones marked and
 * their counters and libraries found before any checkout. 0 or -1.
 */
static int plan_entries(struct run_report *r, struct plan *p,
			struct repo *repo, const struct run_opts *o,
			const struct workspace *w, char *last_error,
			size_t size)
{
	size_t i;

	run_alloc(r, p->n);
	for (i = 0; i < r->n; i++)
		r->b[i].run.cfg = &p->bench[i];
	mark_new(r, repo, o, &w->arm[ARM_BASE].rev, last_error, size);
	/* a missing counter or library is found before checkouts and builds */
	for (i = 0; i < r->n; i++)
		if (!r->b[i].run.is_new && measure_prepare(&r->b[i].run) < 0)
			return -1;
	return 0;
}

/*
 * Check out and build both arms, in slots drawn per run (so that a bias
 * the directory carries, its place on disk and in the page cache,
 * averages out over runs), then the measuring layout. 0, -1 or a signal.
 */
static int prepare(struct workspace *w, struct run_report *r,
		   const struct config *cfg, struct repo *repo,
		   const struct run_opts *o, FILE *term)
{
	size_t a;
	int rc;

	r->arms_swapped = o->fixed_arms ? 0 :
			  (int)(seed_derive(r->seed, "arms", 0) & 1);
	r->arms_random = !o->fixed_arms;
	if (o->fixed_arms) {
		workspace_slots(w, 2, 0);
	} else {
		char *key = workspace_build_key(cfg);

		workspace_slots_cached(w, r->arms_swapped, key,
				       cfg->cache_builds);
		free(key);
	}
	if ((rc = workspace_checkout(w, repo, o->quiet)) != 0)
		return rc;
	if ((w->arm[0].kept || w->arm[1].kept) &&
	    strcmp(w->arm[0].rev.tree, w->arm[1].rev.tree))
		r->arms_random = 2;	/* slots kept from earlier builds */
	rc = workspace_build(w, cfg, o->quiet);
	if (o->github && (cfg->build.argv || cfg->build.shell))
		for (a = 0; a < 2; a++)
			report_build_log(term, arm_name((enum arm)a),
					 w->arm[a].log);
	if (rc != 0 || workspace_preflight(w, cfg) < 0 ||
	    workspace_fingerprint(w, repo) < 0)
		return rc ? rc : -1;
	if ((rc = workspace_check(w, cfg, o->quiet)) != 0)
		return rc;
	for (a = 0; a < 2; a++) {
		r->arm_dir[a] = w->arm[a].dir;
		fill_rev(&r->rev[a], &w->arm[a]);
	}
	r->confidence = cfg->confidence;
	r->resamples = cfg->resamples;
	machine_read(&r->machine);
	if (workspace_layout(w, !o->no_env_pad, !o->no_scratch, r->seed,
			     o->pin) < 0)
		return -1;
	r->layout = &w->layout;
	r->pin = w->pin;
	r->pin_warning = w->pin_warning;
	return 0;
}

/* A CI step reading the report must see a run-level error too. */
static void report_error(struct run_report *r, const struct workspace *w,
			 const struct run_opts *o, FILE *term,
			 const struct publish_opts *po, const char *why)
{
	if (!o->json && !o->markdown && !o->html && !o->github)
		return;
	r->suite = VERDICT_ERROR;
	r->error = why;
	r->n = 0;
	fill_rev(&r->rev[ARM_BASE], &w->arm[ARM_BASE]);
	fill_rev(&r->rev[ARM_HEAD], &w->arm[ARM_HEAD]);
	if (o->json)
		report_json(o->json, r);
	report_publish(term, r, po);
}

int cmd_run(int argc, char **argv, struct gate_ctx *ctx)
{
	struct run_opts o = { 0 };
	struct workspace w = WORKSPACE_INIT;
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct suite_owned own = SUITE_OWNED_INIT;
	struct run_report r;
	struct progress prog;
	struct publish_opts po;
	FILE *term;
	char *origin = NULL;
	char last_error[4096] = "";
	int code = EXIT_ERROR, rc;

	memset(&r, 0, sizeof(r));
	rc = parse_options(&o, argc, argv);
	if (rc != 0)
		return rc > 0 ? EXIT_PASS : EXIT_ERROR;
	error_capture(last_error, sizeof(last_error), 0);
	o.github = ci_github_active();
	term = report_term_stream(o.json, o.markdown, o.html);
	r.color = report_use_color(o.color, term);
	progress_init(&prog, stderr, o.quiet, o.verbose, o.github);
	o.prog = &prog;
	po = (struct publish_opts){ o.markdown, o.html, o.json, o.github };
	r.seed = o.have_seed ? o.seed : seed_fresh();
	r.advisory = o.advisory;

	/* plan, workspace, measure, decide, report */
	if (workspace_open(&w, ctx->repo) < 0 ||
	    resolve_revs(&w, ctx->repo, &o) < 0 ||
	    workspace_load_config(&cfg, &origin, ctx->repo, o.config,
				  &w.arm[ARM_HEAD].rev) < 0)
		goto cleanup;
	r.config_origin = origin;
	if (plan_make(&plan, &cfg, &o.ov) < 0 ||
	    plan_entries(&r, &plan, ctx->repo, &o, &w, last_error,
			 sizeof(last_error)) < 0)
		goto cleanup;
	rc = prepare(&w, &r, &cfg, ctx->repo, &o, term);
	if (rc > 0)
		goto interrupted;
	if (rc < 0)
		goto cleanup;
	if (!o.quiet)
		fprintf(stderr, "gate: seed %lu\n", r.seed);
	r.exit_code = code = measure_all(&r, &plan, &w, &o, &own);
	if (!r.interrupted && workspace_verify(&w, ctx->repo) < 0) {
		code = EXIT_ERROR;
		goto cleanup;
	}
	report_term(term, &r);
	if (o.json && report_json(o.json, &r) < 0 && !r.interrupted)
		code = EXIT_ERROR;
	if (report_publish(term, &r, &po) < 0 && !r.interrupted)
		code = EXIT_ERROR;
	goto done;

interrupted:
	r.interrupted = signals_pending();
	code = signals_exit_code(r.interrupted);
	error("interrupted by signal %d before measuring: stopped",
	      r.interrupted);
cleanup:
	error_capture(NULL, 0, 0);
	run_release(&r);
	r.exit_code = code;
	report_error(&r, &w, &o, term, &po, last_error);
done:
	error_capture(NULL, 0, 0);
	run_release(&r);
	suite_owned_release(&own);
	plan_release(&plan);
	config_release(&cfg);
	workspace_release(&w);
	free(origin);
	return code;
}
