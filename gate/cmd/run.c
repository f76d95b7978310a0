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
#include "gate/adaptive.h"
#include "gate/calibration.h"
#include "gate/config.h"
#include "gate/exec/layout.h"
#include "gate/measure.h"
#include "gate/pipeline.h"
#include "gate/preflight.h"
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
	const char *base, *head, *config, *json, *filter;
	const char *markdown, *html, *color;	/* reports and --color */
	int verbose, github;
	struct progress *prog;
	unsigned long seed;
	int have_seed, advisory, quiet, strict;
	int fixed_arms, no_env_pad, no_scratch;
	const char *pin;
	long pairs, warmup;	/* -1: from gate.json */
	double budget;		/* --budget seconds; 0: gate.json's */
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

	o->pairs = o->warmup = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->base = optarg; break;
		case 'H': o->head = optarg; break;
		case 'c': o->config = optarg; break;
		case 'j': o->json = optarg; break;
		case 'a': o->advisory = 1; break;
		case 'T': o->strict = 1; break;
		case 'B':
			if (pipeline_parse_duration(&o->budget, "--budget", optarg) < 0)
				return -1;
			break;
		case 'f': o->filter = optarg; break;
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
			if (pipeline_parse_count(&v, "--seed", optarg, 0,
					4294967295L) < 0)
				return -1;
			o->seed = (unsigned long)v;
			o->have_seed = 1;
			break;
		case 'p':
			if (pipeline_parse_count(&o->pairs, "--pairs", optarg, 2,
					10000) < 0)
				return -1;
			break;
		case 'w':
			if (pipeline_parse_count(&o->warmup, "--warmup", optarg, 0,
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
static void mark_new(struct bench_run *runs, const struct config *cfg,
		     struct repo *repo, const struct run_opts *o,
		     const struct repo_rev *base, char *last_error,
		     size_t size)
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
	for (i = 0; i < cfg->nbench; i++)
		runs[i].is_new = !config_find(&bcfg, cfg->benches[i].name);
	config_release(&bcfg);
	free(text);
}

static unsigned long name_seed(unsigned long seed, const char *name)
{
	unsigned long h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	return (seed ^ h) & 0xffffffffUL;
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

/*
 * The cores the benchmarks themselves kept busy while they ran: their CPU
 * time over their wall time, over every sample. A multi-threaded
 * benchmark raises the load average by this much on its own.
 */
static double own_load(const struct run_report *r)
{
	double cpu = 0, wall = 0;
	size_t i, p;
	int a;

	for (i = 0; i < r->n; i++)
		for (p = 0; p < r->runs[i].npairs; p++)
			for (a = 0; a < 2; a++) {
				const struct sample *s =
					&r->runs[i].pairs[p].s[a];

				if (s->wall > 0 && s->cpu >= 0) {
					cpu += s->cpu;
					wall += s->wall;
				}
			}
	return wall > 0 ? cpu / wall : 0;
}

/*
 * Heuristics are notes, never verdicts: the paired random order already
 * keeps the comparison fair under changing load, and noise already widens
 * the interval. A sharp rise in load beyond what the benchmarks' own
 * processes explain, and a run far noisier than calibrated, are said
 * beside each benchmark's verdict (and as annotations in Actions).
 */
static void environment_notes(struct run_report *r, const char *calib)
{
	const struct machine *m = &r->machine;
	double own = own_load(r);
	double rise = m->load_after[0] - m->load_before[0] - own;
	double limit = m->cores > 2 ? (double)m->cores / 2 : 1.0;
	char why[256];
	size_t i;

	calibration_check_run(r, calib);
	/* sharp: more than the limit, and the machine now oversubscribed */
	if (!(m->load_before[0] >= 0) || !(rise > limit) ||
	    !(m->load_after[0] - own > (double)m->cores) ||
	    !(m->load_after[0] > 1.5 * m->load_before[0]))
		return;
	snprintf(why, sizeof(why), "the load average rose from %.2f to %.2f "
		 "during the run, more than the benchmarks' own %.1f busy "
		 "cores explain (a note: the verdict stands)",
		 m->load_before[0], m->load_after[0], own);
	for (i = 0; i < r->n; i++)
		if (r->stats[i].verdict != VERDICT_NEW &&
		    r->stats[i].verdict != VERDICT_ERROR)
			verdict_note_bench(&r->results[i], &r->stats[i], why);
}

struct measure_ctx {
	struct run_report *r;
	struct measure_opts mo;
	const struct run_opts *o;
	double start;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * adaptive_run's measuring step. Suite cases were measured with their
 * suite before the fan-out and have a single look (suite.c): nothing to
 * add; a run that already failed stays failed.
 */
static int measure_one(void *ctx, size_t i, unsigned total)
{
	struct measure_ctx *m = ctx;
	struct bench_run *br = &m->r->runs[i];
	int rc;

	if (br->error)
		return -1;
	if (br->suite_name || br->npairs >= total)
		return br->npairs >= 2 ? 0 : -1;
	progress_bench_start(m->o->prog, i, m->r->n);
	rc = measure_bench(br, &m->mo, total);
	progress_clear(m->o->prog);
	return rc;
}

static double elapsed(void *ctx)
{
	return now() - ((struct measure_ctx *)ctx)->start;
}

/* A suite's measuring time, for its cases once it has fanned out. */
struct suite_time {
	const char *name;
	double seconds;
};

/*
 * The plan-time minimum, once the comparisons are known (suites have
 * printed their cases): a benchmark whose first look could give no
 * interval at its share of alpha gets its pairs raised to the fewest that
 * can, and the report says so. Suite cases ran at their suite's pairs
 * already: a warning says how many the suite needs.
 */
static void plan_pairs(struct run_report *r, struct config *cfg)
{
	double alpha = adaptive_alpha(r);
	const char *warned = NULL;
	size_t i, j;

	for (i = 0; i < r->n; i++) {
		struct bench_run *br = &r->runs[i];
		unsigned need;

		if (br->is_new || br->is_removed || br->error)
			continue;
		need = adaptive_min_pairs(br->cfg, alpha);
		if (need <= br->cfg->pairs)
			continue;
		br->pairs_needed = need;
		if (br->suite_name) {
			if (warned && !strcmp(warned, br->suite_name))
				continue;
			warned = br->suite_name;
			warning("suite \"%s\" ran %u pairs, but its cases "
				"need at least %u for an interval at this "
				"level (%zu comparisons in the run): set "
				"\"pairs\" to %u or more", br->suite_name,
				br->cfg->pairs, need, r->compared, need);
			continue;
		}
		for (j = 0; j < cfg->nbench; j++) {
			struct bench_cfg *b = &cfg->benches[j];

			if (b != br->cfg)
				continue;
			br->pairs_raised_from = b->pairs;
			b->pairs = need;
			if (b->max_pairs < need)
				b->max_pairs = need;
		}
	}
}

/*
 * Measure every benchmark and decide. Suites run first, at their fixed
 * pairs, and fan out into their cases, since the number of comparisons
 * (the Bonferroni correction) is known only once they have printed them;
 * then adaptive_run takes every benchmark and case through its looks.
 * Returns the exit code.
 */
static int measure_all(struct run_report *r, struct config *cfg,
		       struct arm_state arm[2], const struct run_opts *o,
		       struct suite_owned *own, const char *calib)
{
	struct measure_ctx m = { r, { { arm[0].dir, arm[1].dir }, r->layout,
				      NULL, 2.0, o->quiet, progress_pair,
				      o->prog }, o, 0 };
	struct adaptive_ops ops = { measure_one, elapsed, &m };
	struct adaptive_opts ao = { o->budget > 0 ? o->budget : cfg->budget,
				    o->strict, o->quiet };
	struct suite_time *st = NULL;
	size_t i, nst = 0;
	int rc;

	m.mo.order_rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!m.mo.order_rng)
		return error("cannot allocate a random generator"), EXIT_ERROR;
	gsl_rng_set(m.mo.order_rng, r->seed);
	m.start = now();
	for (i = 0; i < r->n && !r->interrupted; i++) {
		struct bench_run *br = &r->runs[i];

		if (br->is_new || br->cfg->format == FORMAT_TIME)
			continue;
		progress_bench_start(o->prog, i, r->n);
		if ((rc = measure_bench(br, &m.mo, br->cfg->pairs)) > 0)
			r->interrupted = rc;
		progress_clear(o->prog);
		st = xrealloc(st, (nst + 1) * sizeof(*st));
		st[nst].name = br->cfg->name;
		st[nst++].seconds = br->seconds;
	}
	/* the filter was checked before measuring: this cannot fail */
	suite_fanout(&r->runs, &r->n, own, o->filter);
	for (i = 0; i < r->n; i++) {
		size_t j;

		/* a case took its suite's time: its runs were the suite's */
		for (j = 0; r->runs[i].suite_name && j < nst; j++)
			if (!strcmp(st[j].name, r->runs[i].suite_name))
				r->runs[i].seconds = st[j].seconds;
	}
	free(st);
	free(r->results);
	free(r->stats);
	r->results = xcalloc(r->n ? r->n : 1, sizeof(*r->results));
	r->stats = xcalloc(r->n ? r->n : 1, sizeof(*r->stats));
	r->strict = o->strict;
	r->budget = ao.budget;
	plan_pairs(r, cfg);
	if (!r->interrupted)
		r->interrupted = adaptive_run(r, &ops, &ao);
	machine_read_load_after(&r->machine);
	gsl_rng_free(m.mo.order_rng);
	environment_notes(r, calib);
	for (i = 0; i < r->n; i++) {
		/* one line per compared benchmark or suite case (Actions) */
		progress_bench_start(o->prog, i, r->n);
		progress_bench_end(o->prog, &r->runs[i], &r->stats[i]);
	}
	/* a signal during the statistics stops the run too */
	signals_test_stall("statistics");
	if (!r->interrupted)
		r->interrupted = signals_pending();
	if (r->interrupted)
		return signals_exit_code(r->interrupted);
	return o->advisory ? EXIT_PASS : verdict_exit_code(r->suite);
}

/* The build (before building) or every run (after) in both arms. */
static int preflight(const struct config *cfg, struct arm_state arm[2],
		     const char *workdir, int build)
{
	size_t a, i;
	int ret = 0;

	/* a == 1 skips shell strings: one warning each, not one per arm */
	for (a = 0; a < 2 && !ret; a++) {
		if (build) {
			if (!a || !cfg->build.shell)
				ret = preflight_command(&cfg->build,
							"\"build\"",
							arm[a].dir, workdir);
			continue;
		}
		for (i = 0; i < cfg->nbench && !ret; i++) {
			char *what;

			if (a && cfg->benches[i].run.shell)
				continue;
			what = xasprintf("\"run\" of benchmark \"%s\"",
					 cfg->benches[i].name);
			ret = preflight_command(&cfg->benches[i].run, what,
						arm[a].dir, workdir);
			free(what);
		}
	}
	return ret;
}

/* Submodules and LFS pointers, once per distinct tree. */
static int check_tree(struct repo *repo, struct arm_state arm[2], enum arm a)
{
	char *what;
	int rc;

	if (a == ARM_HEAD && !strcmp(arm[0].rev.tree, arm[1].rev.tree))
		return 0;
	what = xasprintf("%s (%s)", arm_name(a), arm[a].rev.label);
	rc = repo_scan_tree(repo, arm[a].rev.tree, what);
	free(what);
	return rc;
}

int cmd_run(int argc, char **argv, struct gate_ctx *ctx)
{
	struct run_opts o = { 0 };
	struct arm_state arm[2] = { { REPO_REV_INIT, NULL, NULL, NULL, NULL },
				    { REPO_REV_INIT, NULL, NULL, NULL, NULL } };
	struct config cfg = CONFIG_INIT;
	struct suite_owned own = SUITE_OWNED_INIT;
	struct run_report r;
	struct progress prog;
	struct publish_opts po;
	FILE *term;
	char *gate_dir = NULL, *lock_path = NULL, *origin = NULL;
	char *base_spec = NULL, *calib_path = NULL;
	char last_error[4096] = "";
	struct layout layout = LAYOUT_INIT;
	char *pin_warning = NULL;
	int lock_fd = -1, code = EXIT_ERROR, rc, reported = 0;
	size_t i, a;

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
	po.markdown = o.markdown;
	po.html = o.html;
	po.json = o.json;
	po.github = o.github;
	if (o.filter) {
		/* checked now: a bad pattern must not cost a whole run */
		size_t zero = 0;
		struct bench_run *none = NULL;

		if (suite_fanout(&none, &zero, &own, o.filter) < 0)
			goto cleanup;
	}
	r.seed = o.have_seed ? o.seed : pipeline_seed();
	r.advisory = o.advisory;

	gate_dir = xasprintf("%sgate", repo_gitdir(ctx->repo));
	lock_path = xasprintf("%s/lock", gate_dir);
	if (pipeline_mkdir(gate_dir) < 0 || repo_lock(&lock_fd, lock_path) < 0)
		goto cleanup;

	if (repo_resolve(&arm[ARM_HEAD].rev, ctx->repo,
			 o.head ? o.head : "WORKTREE") < 0)
		goto cleanup;
	if (o.base) {
		base_spec = xstrdup(o.base);
	} else if (repo_default_base(&base_spec, &arm[ARM_BASE].how,
				     ctx->repo) < 0) {
		goto cleanup;
	}
	if (repo_resolve(&arm[ARM_BASE].rev, ctx->repo, base_spec) < 0)
		goto cleanup;
	if (!o.base) {
		/* report the base as the user would name it */
		free(arm[ARM_BASE].rev.label);
		arm[ARM_BASE].rev.label = xstrdup("default base");
	}

	if (pipeline_load_config(&cfg, &origin, ctx->repo, o.config,
				 &arm[ARM_HEAD].rev) < 0)
		goto cleanup;
	for (i = 0; i < cfg.nbench; i++) {
		if (o.pairs > 0) {
			cfg.benches[i].pairs = (unsigned)o.pairs;
			if (cfg.benches[i].max_pairs < cfg.benches[i].pairs)
				cfg.benches[i].max_pairs = cfg.benches[i].pairs;
		}
		if (o.warmup >= 0)
			cfg.benches[i].warmup = (unsigned)o.warmup;
	}
	r.n = cfg.nbench;
	r.runs = xcalloc(r.n, sizeof(*r.runs));
	r.results = xcalloc(r.n, sizeof(*r.results));
	r.stats = xcalloc(r.n, sizeof(*r.stats));
	for (i = 0; i < r.n; i++)
		r.runs[i].cfg = &cfg.benches[i];
	mark_new(r.runs, &cfg, ctx->repo, &o, &arm[ARM_BASE].rev, last_error,
		 sizeof(last_error));
	/* a missing counter or library is found before checkouts and builds */
	for (i = 0; i < r.n; i++)
		if (!r.runs[i].is_new && measure_prepare(&r.runs[i]) < 0)
			goto cleanup;

	/*
	 * Two directories of equal path length, a and b; which arm gets which
	 * is drawn per run, so that a bias the directory carries (its place
	 * on disk and in the page cache) averages out over runs.
	 */
	r.arms_swapped = o.fixed_arms ? 0 : (int)(name_seed(r.seed, "arms") & 1);
	r.arms_random = !o.fixed_arms;
	for (a = 0; a < 2; a++) {
		const char *name = arm_name((enum arm)a);
		const char *slot = (a == ARM_BASE) != r.arms_swapped ? "a" : "b";

		arm[a].dir = xasprintf("%s/%s", gate_dir, slot);
		arm[a].index = xasprintf("%s/%s.index", gate_dir, slot);
		arm[a].log = xasprintf("%s/%s.build.log", gate_dir, slot);
		r.arm_dir[a] = arm[a].dir;
		if (!o.quiet)
			fprintf(stderr, "gate: checking out %s (%s) into %s\n",
				name, arm[a].rev.label, arm[a].dir);
		if (check_tree(ctx->repo, arm, (enum arm)a) < 0)
			goto cleanup;
		if (repo_checkout(ctx->repo, arm[a].rev.tree, arm[a].dir,
				  arm[a].index) < 0)
			goto cleanup;
		signals_test_stall("checkout");
		if (signals_pending())
			goto interrupted;
	}
	if (preflight(&cfg, arm, repo_workdir(ctx->repo), 1) < 0)
		goto cleanup;
	rc = pipeline_build(&cfg, arm, 2, o.quiet);
	if (o.github && (cfg.build.argv || cfg.build.shell))
		for (a = 0; a < 2; a++)
			report_build_log(term, arm_name((enum arm)a),
					 arm[a].log);
	if (rc > 0)
		goto interrupted;
	if (rc < 0)
		goto cleanup;
	if (preflight(&cfg, arm, repo_workdir(ctx->repo), 0) < 0)
		goto cleanup;

	fill_rev(&r.rev[ARM_BASE], &arm[ARM_BASE]);
	fill_rev(&r.rev[ARM_HEAD], &arm[ARM_HEAD]);
	r.config_origin = origin;
	r.confidence = cfg.confidence;
	r.resamples = cfg.resamples;
	machine_read(&r.machine);
	if (layout_init(&layout, !o.no_env_pad, !o.no_scratch, r.seed,
			gate_dir) < 0)
		goto cleanup;
	r.layout = &layout;
	if (o.pin) {
		if (layout_pin(o.pin, &pin_warning) < 0)
			goto cleanup;
		if (pin_warning)
			warning("%s", pin_warning);
		r.pin = o.pin;
		r.pin_warning = pin_warning;
	}
	if (!o.quiet)
		fprintf(stderr, "gate: seed %lu\n", r.seed);
	calib_path = xasprintf("%s/calibration.json", gate_dir);
	code = measure_all(&r, &cfg, arm, &o, &own, calib_path);
	r.exit_code = code;

	report_term(term, &r);
	reported = 1;
	if (o.json && report_json(o.json, &r) < 0 && !r.interrupted)
		code = EXIT_ERROR;
	if (report_publish(term, &r, &po) < 0 && !r.interrupted)
		code = EXIT_ERROR;
	goto cleanup;

interrupted:
	r.interrupted = signals_pending();
	code = signals_exit_code(r.interrupted);
	error("interrupted by signal %d before measuring: stopped",
	      r.interrupted);
cleanup:
	error_capture(NULL, 0, 0);
	for (i = 0; r.runs && i < r.n; i++) {
		bench_run_release(&r.runs[i]);
		bench_result_release(&r.results[i]);
	}
	if (!reported && (o.json || o.markdown || o.html || o.github)) {
		/* a CI step reading the report must see the error too */
		r.suite = VERDICT_ERROR;
		r.exit_code = code;
		r.error = last_error;
		r.n = 0;
		fill_rev(&r.rev[ARM_BASE], &arm[ARM_BASE]);
		fill_rev(&r.rev[ARM_HEAD], &arm[ARM_HEAD]);
		r.config_origin = origin;
		if (o.json)
			report_json(o.json, &r);
		report_publish(term, &r, &po);
	}
	free(r.runs);
	free(r.results);
	free(r.stats);
	suite_owned_release(&own);
	config_release(&cfg);
	layout_release(&layout);
	free(pin_warning);
	pipeline_arm_release(&arm[0]);
	pipeline_arm_release(&arm[1]);
	if (lock_fd >= 0)
		repo_unlock(lock_fd, lock_path);
	free(origin);
	free(base_spec);
	free(calib_path);
	free(lock_path);
	free(gate_dir);
	return code;
}
