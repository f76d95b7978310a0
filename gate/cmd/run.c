/*
 * gate run: resolve base and head, check both out under $GIT_DIR/gate/,
 * build them, measure every benchmark in interleaved pairs, and report a
 * verdict. Owns the run's resources; every exit path goes through cleanup.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/run.h"

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
#include "common/clock.h"
#include "common/error.h"
#include "common/seed.h"
#include "gate/decide/adaptive.h"
#include "gate/exec/notice.h"
#include "gate/decide/calibration.h"
#include "gate/config/config.h"
#include "gate/exec/layout.h"
#include "gate/measure/measure.h"
#include "gate/config/options.h"
#include "gate/decide/plan.h"
#include "gate/decide/model.h"
#include "gate/decide/plan-shard.h"
#include "gate/workspace/workspace.h"
#include "gate/report/progress.h"
#include "gate/report/report.h"
#include "gate/report/view.h"
#include "gate/exec/runner.h"
#include "gate/decide/arms.h"
#include "gate/exec/signals.h"
#include "gate/decide/suite.h"
#include "gate/exec/sysinfo.h"
#include "gate/decide/verdict.h"
#include "git/repo.h"
#include "stats/stats.h"
#include "common/banned.h"

/* Report paths, checked before anything is measured: distinct, not a
 * config (--config, nor gate.json in the working tree), writable. */
static int check_report_paths(const struct run_opts *o, struct repo *repo)
{
	char *top = xasprintf("%sgate.json", repo_workdir(repo));
	int rc = report_check_paths(o->json, o->markdown, o->html, top);

	if (rc == 0 && o->config)
		rc = report_check_paths(o->json, o->markdown, o->html,
					o->config);

	free(top);
	return rc;
}

/*
 * Base's own gate.json: the policy (plan_make) and which benchmarks base
 * knows. Returns 1 with *bcfg parsed, or 0 with *why saying what decides
 * instead: with --config that file, else head's gate.json (base has none,
 * or an invalid one: base may simply predate it). A gate.json base has
 * but that cannot be read (not a file, a broken object) is -1 after
 * error(): never a quiet change of whose policy decides.
 */
static int load_base(struct config *bcfg, const char **why, struct repo *repo,
		     const struct run_opts *o, const struct repo_rev *base,
		     struct gate_err *err)
{
	char *text = NULL;
	size_t len = 0;
	struct gate_err invalid = { "" };

	if (o->config) {
		*why = "the --config file decides: base's gate.json is not "
		       "read";
		return 0;
	}
	if (repo_read_file(&text, &len, repo, base->tree, "gate.json",
			   NULL) < 0)
		return error_to(err, "base (%s): its gate.json cannot be read, "
				"so its policy cannot decide: fix it in base, "
				"or pass --config FILE", base->label);
	if (!text) {
		*why = "head's gate.json decides: base has no gate.json";
		return 0;
	}
	if (config_parse_to(bcfg, text, len, "base's gate.json",
			    &invalid) < 0) {
		warning("base's gate.json is not valid (%s): comparing every "
			"benchmark head declares, under head's policy",
			invalid.msg);
		*why = "head's gate.json decides: base's gate.json is not "
		       "valid";
		free(text);
		return 0;
	}
	free(text);
	return 1;
}

/* The benchmarks base's gate.json (bcfg, or NULL: none) does not know. */
static void mark_new(struct run_report *r, const struct config *bcfg)
{
	size_t i;

	if (!bcfg)
		return;
	for (i = 0; i < r->n; i++)
		r->b[i].run.is_new = !config_find(bcfg, r->b[i].run.cfg->name);
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

/* Base and head, as the user named them or gate chose. 0 or -1. */
static int resolve_revs(struct workspace *w, struct repo *repo,
			const struct run_opts *o, struct gate_err *err)
{
	struct arm_state *arm = w->arm;
	char *base_spec = NULL, *name = NULL;
	int ret = -1;

	if (repo_resolve_to(&arm[ARM_HEAD].rev, repo,
			    o->head ? o->head : "WORKTREE", err) < 0)
		return -1;
	if (o->base) {
		base_spec = xstrdup(o->base);
		arm[ARM_BASE].how = xstrdup("given with --base");
	} else if (repo_default_base_why(&base_spec, &name,
					 &arm[ARM_BASE].how, repo,
					 arm[ARM_HEAD].rev.worktree &&
					 arm[ARM_HEAD].rev.dirty, err) < 0)
		return -1;
	if (repo_resolve_to(&arm[ARM_BASE].rev, repo, base_spec, err) < 0)
		goto cleanup;
	if (name) {
		/* report the base as the user would name it */
		free(arm[ARM_BASE].rev.label);
		arm[ARM_BASE].rev.label = name;
		name = NULL;
	}
	if (!o->quiet) {
		/* the first lines of every run: which base and head, and why */
		size_t a;

		for (a = 0; a < 2; a++) {
			struct report_rev rv;
			char *line;

			fill_rev(&rv, &arm[a]);
			line = report_rev_line(arm_name((enum arm)a), &rv);
			notice("%s", line);
			free(line);
		}
	}
	ret = 0;
cleanup:
	free(base_spec);
	free(name);
	return ret;
}

/* The Gate-Accept trailers of base..head, for the decision. 0 or -1. */
struct accepts {
	struct repo_accept *git;	/* as read */
	struct verdict_accept *v;	/* the decision's view of the bounds */
	size_t n, nv;
};

/*
 * The model's entries, one per planned benchmark, with new ones marked and
 * their counters and libraries found before any checkout. 0 or -1.
 */
static int plan_entries(struct run_report *r, struct plan *p,
			const struct config *bcfg, const struct accepts *acc,
			struct gate_err *err)
{
	size_t i, n = 0;

	/* a redefinition not accepted is judged, not measured (arms.c) */
	run_alloc(r, p->n);
	for (i = 0; i < p->n; i++)
		if (arms_measured(&p->bench[i], acc->git, acc->n))
			r->b[n++].run.cfg = &p->bench[i];
	r->n = n;
	r->shard = p->shard;	/* --shard I/N */
	r->nshards = p->nshards;
	r->elsewhere = p->elsewhere;
	r->config_hash = p->hash;
	mark_new(r, bcfg);
	r->policy = p->policy;
	r->policy_diff = (const char *const *)p->diff;
	r->npolicy_diff = p->ndiff;
	/* a missing counter or library is found before checkouts and builds */
	for (i = 0; i < r->n; i++)
		if (!r->b[i].run.is_new &&
		    measure_prepare_to(&r->b[i].run, err) < 0)
			return -1;
	return 0;
}

/*
 * An identical suite (every declared artifact byte-identical, the trees
 * differing only in base's "sources") becomes one row in *whole: it is
 * never run, so its cases, known only from its output, are never known.
 * One row marked identical says what is true (nothing was measured, no
 * case can have changed); base's recorded case list would name cases
 * from another run, and a listing run costs what the shortcut saves (and
 * pytest and hyperfine cannot list). The row's copy reads no output
 * (FORMAT_TIME): the measuring loop, the fan-out and the shards take it
 * as the one row it is.
 */
static void identical_suite(struct run_bench *b, struct bench_cfg *whole)
{
	char *note = xasprintf("a suite (format %s) with an identical "
			       "build: not run, so its cases pass as one "
			       "row unnamed (they are known only from its "
			       "output); --measure-identical runs it",
			       format_name(b->run.cfg->format));

	*whole = *b->run.cfg;
	whole->format = FORMAT_TIME;
	whole->expect = NULL;
	whole->nexpect = 0;
	whole->ignore = NULL;
	whole->nignore = 0;
	b->run.cfg = whole;
	run_bench_note(b, note);
	free(note);
}

/*
 * Each benchmark's "artifacts" (base's: a policy key), hashed in both
 * arms: identical ones pass unmeasured, unless --measure-identical, and
 * only when the arms' trees differ in nothing but base's "sources" (a
 * data file a benchmark reads is not an artifact, and a pull request
 * could change it alone). A suite passes whole (identical_suite; its
 * copy in (*whole)[i], freed by the caller). 0 or -1.
 */
static int hash_artifacts(struct workspace *w, struct run_report *r,
			  const struct plan *p, struct repo *repo,
			  int measure_identical, struct bench_cfg **whole)
{
	char *outside = NULL;
	int sources_only = -2;	/* not asked yet */
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct bench_run *br = &r->b[i].run;

		/* an accepted redefinition runs another command in head; a
		   new suite is listed as new */
		if (!br->cfg->nartifacts || br->cfg->redefined ||
		    (br->cfg->format != FORMAT_TIME && br->is_new))
			continue;
		if (workspace_artifacts(w, br) < 0)
			return -1;
		if (!workspace_artifacts_identical(br))
			continue;
		if (sources_only == -2 &&
		    (sources_only = workspace_sources_only(&outside, w, repo,
				p->eff.sources, p->eff.nsources)) < 0)
			return -1;
		if (sources_only) {
			br->identical = measure_identical ? 2 : 1;
			if (br->identical == 1 &&
			    br->cfg->format != FORMAT_TIME) {
				if (!*whole)
					*whole = xcalloc(r->n, sizeof(**whole));
				identical_suite(&r->b[i], &(*whole)[i]);
			}
		} else {
			char *note = xasprintf("artifacts byte-identical, but "
				"%s differs and is not among base's "
				"\"sources\": measured", outside);

			run_bench_note(&r->b[i], note);
			free(note);
		}
	}
	free(outside);
	return 0;
}

/*
 * Check out and build both arms, in slots drawn per run (so that a bias
 * the directory carries, its place on disk and in the page cache,
 * averages out over runs), then the measuring layout.
 */
static enum ws_result prepare(struct workspace *w, struct run_report *r,
			      const struct plan *p,
			      const struct config *const def[2],
			      struct repo *repo,
			      const struct run_opts *o, FILE *term,
			      struct bench_cfg **whole)
{
	const struct config *cfg = def[ARM_HEAD];
	size_t a;
	enum ws_result rc;

	r->arms_swapped = o->fixed_arms ? 0 :
			  (int)(seed_derive(r->seed, "arms", 0) & 1);
	r->arms_random = !o->fixed_arms;
	if (o->fixed_arms) {
		workspace_slots(w, 2, 0);
	} else {
		/* each arm's own build definition keys its kept build */
		char *key[2] = { workspace_build_key(def[ARM_BASE]),
				 workspace_build_key(def[ARM_HEAD]) };

		workspace_slots_cached(w, r->arms_swapped,
				       (const char *const *)key,
				       p->eff.cache_builds);
		free(key[0]);
		free(key[1]);
	}
	if ((rc = workspace_checkout(w, repo, o->quiet)) != WS_DONE)
		return rc;
	if ((w->arm[0].kept || w->arm[1].kept) &&
	    strcmp(w->arm[0].rev.tree, w->arm[1].rev.tree))
		r->arms_random = 2;	/* slots kept from earlier builds */
	rc = workspace_build(w, def, &p->eff, o->quiet);
	if (o->github && (cfg->build.argv || cfg->build.shell ||
			  def[ARM_BASE]->build.argv ||
			  def[ARM_BASE]->build.shell))
		for (a = 0; a < 2; a++)
			report_build_log(term, arm_name((enum arm)a),
					 w->arm[a].log);
	if (rc != WS_DONE)
		return rc;
	if (workspace_preflight(w, def) < 0 ||
	    workspace_fingerprint(w, repo) < 0)
		return WS_ERROR;
	if ((rc = workspace_check(w, def, &p->eff, o->quiet)) != WS_DONE)
		return rc;
	if (hash_artifacts(w, r, p, repo, o->measure_identical, whole) < 0)
		return WS_ERROR;
	for (a = 0; a < 2; a++) {
		r->arm_dir[a] = w->arm[a].dir;
		fill_rev(&r->rev[a], &w->arm[a]);
		r->build_seconds[a] = w->arm[a].build_seconds;
	}
	r->confidence = p->confidence;
	r->resamples = p->eff.resamples;
	machine_read(&r->machine);
	/* base's "writable" (a policy key): what a sealed sample may write
	   beyond its arm */
	w->writable = p->eff.writable;
	if (workspace_layout(w, !o->no_env_pad, !o->no_scratch, r->seed,
			     o->pin) < 0)
		return WS_ERROR;
	/* asked of the kernel by the layout */
	r->isolation = workspace_isolation(w, r->isolation_buf,
					   sizeof(r->isolation_buf));
	r->layout = &w->layout;
	r->pin = w->pin;
	r->pin_warning = w->pin_warning;
	return WS_DONE;
}

static int read_accepts(struct accepts *a, struct repo *repo,
			const struct workspace *w, struct gate_err *err)
{
	size_t i;

	if (repo_accepts(&a->git, &a->n, repo, w->arm[ARM_BASE].rev.commit,
			 w->arm[ARM_HEAD].rev.commit, err) < 0)
		return -1;
	a->v = xcalloc(a->n ? a->n : 1, sizeof(*a->v));
	/* the decision takes the bounds; redefined and removed are the
	   arms' rules (gate/decide/arms.c) */
	for (i = 0; i < a->n; i++) {
		if (a->git[i].kind != ACCEPT_BOUND)
			continue;
		a->v[a->nv].pattern = a->git[i].pattern;
		a->v[a->nv].bound = a->git[i].bound;
		a->v[a->nv].reason = a->git[i].reason;
		a->v[a->nv++].commit = a->git[i].commit;
	}
	return 0;
}

/* A trailer naming no benchmark of the run is a warning. */
static void accepts_warn(const struct accepts *a)
{
	size_t i;

	for (i = 0; i < a->nv; i++)
		if (!a->v[i].matched)
			warning("the Gate-Accept trailer of commit %.10s "
				"names no benchmark: \"%s\" matches none of "
				"this run's", a->v[i].commit, a->v[i].pattern);
}

/* Each difference of head's config from base's, said before measuring. */
static void policy_warn(const struct plan *p, int github)
{
	size_t i;

	for (i = 0; i < p->ndiff; i++)
		if (!github)
			warning("%s", p->diff[i]);
}

/* A CI step reading the report must see a run-level error too. */
static void report_error(struct run_report *r, const struct workspace *w,
			 const struct run_opts *o, FILE *term,
			 const struct publish_opts *po, const char *why)
{
	struct report_view v;

	if (!o->json && !o->markdown && !o->html && !o->github)
		return;
	r->suite = VERDICT_ERROR;
	r->error = why;
	r->n = 0;
	fill_rev(&r->rev[ARM_BASE], &w->arm[ARM_BASE]);
	fill_rev(&r->rev[ARM_HEAD], &w->arm[ARM_HEAD]);
	if (o->json)
		report_json(o->json, r);
	report_view_build(&v, r);
	report_publish(term, &v, po);
	report_view_release(&v);
}

/* A gate run's resources, from the options to the report. */
struct run_cmd {
	struct run_opts o;
	struct workspace w;
	struct config cfg, bcfg;	/* head's (or --config), base's */
	int have_base;			/* bcfg holds base's gate.json */
	const char *no_base;		/* else: what decides instead */
	char *origin;			/* names cfg's file */
	struct accepts acc;
	struct plan plan;
	struct suite_owned own;
	struct suite_shard_owned split;
	struct bench_cfg *whole;	/* identical suites' rows (by entry) */
	struct run_report r;
	struct progress prog;
	struct publish_opts po;
	FILE *term;
	struct gate_err err;	/* why a stage failed: said once, and
				   quoted as the report's "error" */
};

/* base's gate.json for the plan, or NULL */
static const struct config *base_config(const struct run_cmd *c)
{
	return c->have_base ? &c->bcfg : NULL;
}

/* base's gate.json when its policy decides (not --policy head), or NULL */
static const struct config *policy_config(const struct run_cmd *c)
{
	return c->have_base && !c->o.ov.policy_head ? &c->bcfg : NULL;
}

/*
 * Each arm's definitions (build, run, check), by enum arm, into def:
 * base's own gate.json builds and runs base, head's head. Without base's
 * (none, invalid, --config, --policy head) head's serves both arms.
 */
static const struct config *const *arm_defs(const struct run_cmd *c,
					    const struct config *def[2])
{
	def[ARM_HEAD] = &c->cfg;
	def[ARM_BASE] = policy_config(c) ? &c->bcfg : &c->cfg;
	return def;
}

/* The terminal, its colour, the progress line, the publishers, the seed. */
static void run_setup(struct run_cmd *c)
{
	struct run_opts *o = &c->o;

	c->w.err = &c->err;
	o->github = ci_github_active();
	c->term = report_term_stream(o->json, o->markdown, o->html);
	c->r.color = report_use_color(o->color, c->term);
	progress_init(&c->prog, stderr, o->quiet, o->verbose, o->github);
	o->prog = &c->prog;
	c->po = (struct publish_opts){ .markdown = o->markdown,
				       .html = o->html, .json = o->json,
				       .github = o->github };
	c->r.seed = o->have_seed ? o->seed : seed_fresh();
	c->r.advisory = o->advisory;
}

/*
 * The config, gate's directory, base and head, and base's gate.json.
 * --config is read before the lock is taken: a FIFO that never delivers
 * holds no lock, and a signal stops it (143/130).
 */
static enum ws_result load_configs(struct run_cmd *c, struct repo *repo)
{
	const struct run_opts *o = &c->o;

	if ((o->config && workspace_load_config_to(&c->cfg, &c->origin, repo,
						   o->config, NULL,
						   &c->err) < 0) ||
	    workspace_open(&c->w, repo) < 0 ||
	    resolve_revs(&c->w, repo, o, &c->err) < 0 ||
	    (!o->config &&
	     workspace_load_config_to(&c->cfg, &c->origin, repo, NULL,
				      &c->w.arm[ARM_HEAD].rev, &c->err) < 0))
		return signals_pending() ? WS_INTERRUPTED : WS_ERROR;
	c->r.config_origin = c->origin;
	c->have_base = load_base(&c->bcfg, &c->no_base, repo, o,
				 &c->w.arm[ARM_BASE].rev, &c->err);
	if (c->have_base < 0)
		return WS_ERROR;
	if (!c->have_base && c->no_base && strstr(c->no_base, "no gate.json"))
		c->r.config_note = "base has no gate.json: head's is used for "
				   "both arms, every benchmark compared";
	return WS_DONE;
}

/* The plan, --shard and the policy applied. 0 or -1. */
static int make_plan(struct run_cmd *c)
{
	if (plan_make(&c->plan, &c->cfg, base_config(c), c->no_base,
		      &c->o.ov, &c->err) < 0)
		return -1;
	plan_shard(&c->plan, base_config(c), &c->o.ov);
	return 0;
}

/* --list: the plan, and a suite's cases from a listing run in the arms. */
static enum ws_result list_plan(struct run_cmd *c, struct repo *repo)
{
	const struct config *def[2];
	enum ws_result ws;

	if (make_plan(c) < 0)
		return WS_ERROR;
	printf("config: %s\n", c->origin);
	plan_print(stdout, &c->plan, c->plan.confidence);
	fflush(stdout);
	if (!plan_lists(&c->plan))
		return WS_DONE;
	if (plan_entries(&c->r, &c->plan, base_config(c), &c->acc,
			 &c->err) < 0)
		return WS_ERROR;
	ws = prepare(&c->w, &c->r, &c->plan, arm_defs(c, def), repo, &c->o,
		     c->term, &c->whole);
	if (ws != WS_DONE)
		return ws;
	if (suite_list_plan(stdout, &c->r, &c->plan,
			    plan_comparisons(&c->plan), &c->err) < 0)
		return WS_ERROR;
	return WS_DONE;
}

/*
 * Everything before measuring: the plan and the model's entries, the
 * accepted regressions, both arms built, and --shard's suites split by
 * case (listed in the built arms).
 */
static enum ws_result plan_and_build(struct run_cmd *c, struct repo *repo)
{
	const struct config *def[2];
	enum ws_result ws;

	if (make_plan(c) < 0 ||
	    read_accepts(&c->acc, repo, &c->w, &c->err) < 0 ||
	    plan_entries(&c->r, &c->plan, base_config(c), &c->acc,
			 &c->err) < 0)
		return WS_ERROR;
	policy_warn(&c->plan, c->o.github);
	c->r.accept = c->acc.v;
	c->r.naccept = c->acc.nv;
	/* base's config decides whether an identical build may pass */
	ws = prepare(&c->w, &c->r, &c->plan, arm_defs(c, def), repo, &c->o,
		     c->term, &c->whole);
	if (ws != WS_DONE)
		return ws;
	c->r.confidence = c->plan.confidence;
	if (suite_shard(&c->r, &c->plan, &c->split, c->o.quiet,
			&c->err) < 0)
		return WS_ERROR;
	return WS_DONE;
}

/* The measured run's reports; code, or EXIT_ERROR when one fails. */
static int report_run(struct run_cmd *c, run_inspect_fn *inspect, void *arg,
		      int code)
{
	struct run_report *r = &c->r;
	struct report_view v;

	if (!r->interrupted)
		accepts_warn(&c->acc);
	report_view_build(&v, r);	/* once: every printer reads it */
	if (inspect)	/* gate bisect: the model, no terminal report */
		inspect(r, arg);
	else
		report_term(c->term, &v, r->color, c->o.verbose);
	if (c->o.json && report_json(c->o.json, r) < 0 && !r->interrupted)
		code = EXIT_ERROR;
	if (report_publish(c->term, &v, &c->po) < 0 && !r->interrupted)
		code = EXIT_ERROR;
	report_view_release(&v);
	return code;
}

/*
 * A run that stopped before its verdict (an error, or a signal before
 * measuring): say why once, on stderr, and the same words as the
 * report's run-level "error". The exit code.
 */
static int run_failed(struct run_cmd *c, enum ws_result ws)
{
	int code = EXIT_ERROR;

	if (ws == WS_INTERRUPTED) {
		if (c->err.msg[0])
			error("%s", c->err.msg);
		c->r.interrupted = signals_pending();
		code = signals_exit_code(c->r.interrupted);
		error_to(&c->err, "interrupted by signal %d before measuring: "
			 "stopped", c->r.interrupted);
	}
	if (c->err.msg[0])
		error("%s", c->err.msg);
	else	/* said by a step that takes no struct gate_err */
		snprintf(c->err.msg, sizeof(c->err.msg), "%s",
			 "gate run stopped before a verdict: see the error "
			 "it printed");
	run_release(&c->r);
	c->r.exit_code = code;
	report_error(&c->r, &c->w, &c->o, c->term, &c->po, c->err.msg);
	return code;
}

static void run_cmd_release(struct run_cmd *c)
{
	run_release(&c->r);
	suite_owned_release(&c->own);
	suite_shard_release(&c->split);
	free(c->whole);
	plan_release(&c->plan);
	config_release(&c->cfg);
	config_release(&c->bcfg);
	repo_accepts_release(c->acc.git, c->acc.n);
	free(c->acc.v);
	workspace_release(&c->w);
	free(c->origin);
}

int cmd_run(int argc, char **argv, struct gate_ctx *ctx)
{
	return cmd_run_inspect(argc, argv, ctx, NULL, NULL);
}

/* plan, workspace, measure, decide, report */
int cmd_run_inspect(int argc, char **argv, struct gate_ctx *ctx,
		    run_inspect_fn *inspect, void *arg)
{
	struct run_cmd c = { .w = WORKSPACE_INIT, .cfg = CONFIG_INIT,
			     .bcfg = CONFIG_INIT, .plan = PLAN_INIT,
			     .own = SUITE_OWNED_INIT,
			     .split = SUITE_SHARD_OWNED_INIT };
	int code = EXIT_ERROR, rc;
	enum ws_result ws;
	double t0 = clock_seconds();

	/* a shard's fan-out keeps the cases dealt to it (suite_shard) */
	c.own.shard = &c.split;
	rc = run_parse_options(&c.o, argc, argv);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if ((rc = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(rc);
	if (check_report_paths(&c.o, ctx->repo) < 0)
		return EXIT_ERROR;
	run_setup(&c);
	ws = load_configs(&c, ctx->repo);
	if (ws == WS_DONE && c.o.list) {
		ws = list_plan(&c, ctx->repo);
		code = EXIT_PASS;
	} else if (ws == WS_DONE &&
		   (ws = plan_and_build(&c, ctx->repo)) == WS_DONE) {
		if (!c.o.quiet)
			fprintf(stderr, "gate: seed %lu\n", c.r.seed);
		c.r.exit_code = code = run_measure_all(&c.r, &c.plan, &c.w, &c.o,
						   &c.own);
		/* base's rules for what head redefined or removed */
		if (!c.r.interrupted && policy_config(&c)) {
			arms_judge(&c.r, &c.plan, c.acc.git, c.acc.n);
			c.r.exit_code = code = c.o.advisory ? EXIT_PASS :
					verdict_exit_code(c.r.suite);
		}
		if (!c.r.interrupted && workspace_verify(&c.w, ctx->repo) < 0) {
			ws = WS_ERROR;
		} else {
			c.r.total_seconds = clock_seconds() - t0;
			code = report_run(&c, inspect, arg, code);
		}
	}
	if (ws != WS_DONE)
		code = run_failed(&c, ws);
	run_cmd_release(&c);
	return code;
}
