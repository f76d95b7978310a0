/*
 * Synthetic benchmarks for the simulation: each sample is a true time
 * times noise times drift, pairs ordered by gate's own measure_order, and
 * the verdicts come from gate's own adaptive_run.
 */
#include "bench/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "gate/decide/adaptive.h"
#include "gate/measure/measure.h"
#include "gate/decide/model.h"
#include "gate/decide/verdict.h"
#include "common/banned.h"

/* Drift: the machine slows by this factor over one benchmark's run. */
#define DRIFT 0.30
/* Bimodal: the slow state's factor and the share of samples in it. */
#define BIMODAL_X 1.25
#define BIMODAL_P 0.30
/* AR(1): the correlation of one sample's log noise with the previous. */
#define AR1_PHI 0.70

const char *sim_noise_name(enum sim_noise n)
{
	return n == SIM_LOGNORMAL ? "lognormal" : n == SIM_HEAVY ? "heavy" :
	       n == SIM_DRIFT ? "drift" : n == SIM_BIMODAL ? "bimodal" :
	       "AR(1)";
}

void sim_default_cfg(struct bench_cfg *b)
{
	memset(b, 0, sizeof(*b));
	b->name = (char *)"sim";
	b->pairs = CONFIG_DEFAULT_PAIRS;
	/*
	 * Capped at 60 pairs (gate's cap is CONFIG_DEFAULT_MAX_PAIRS, the
	 * budget usually ends a run first): the Monte-Carlo tables stay
	 * fast; sim_run applies the default budget on a simulated clock.
	 */
	b->max_pairs = 60;
	b->min_effect = CONFIG_DEFAULT_MIN_EFFECT;
	b->statistic = CONFIG_DEFAULT_STATISTIC;
	b->interval = CONFIG_DEFAULT_INTERVAL;
	b->rule = RULE_FLOOR;
	b->target_halfwidth = b->min_effect;
	b->metric = METRIC_WALL;
	b->nmetrics = 1;
	b->metrics[0].id = METRIC_WALL;
	b->metrics[0].min_effect = b->min_effect;
	b->metrics[0].pass_excludes = 2 * b->min_effect;
	b->metrics[0].gating = 1;
}

struct sim_ctx {
	const struct sim_cell *c;
	struct run_report *r;
	gsl_rng *rng;
	double sigma;		/* log-sd per sample */
	double clock;		/* simulated seconds of this trial's run */
	double *proc[2];	/* c->common: each pair's process factor
				   per arm, shared by the suite's cases */
	size_t nproc, capproc;	/* factors drawn this trial, room */
	double ar;		/* SIM_AR1: the last sample's standard
				   normal noise */
};

/* The process factor of arm a at pair j (1 without common noise), drawn
   the first time any case reaches pair j in this trial. */
static double process_factor(struct sim_ctx *s, int a, size_t j)
{
	if (!(s->c->common > 0))
		return 1;
	if (j >= s->capproc) {
		size_t cap = 2 * j + 64;

		s->proc[0] = xrealloc(s->proc[0], cap * sizeof(double));
		s->proc[1] = xrealloc(s->proc[1], cap * sizeof(double));
		s->capproc = cap;
	}
	while (s->nproc <= j) {
		s->proc[0][s->nproc] = exp(gsl_ran_gaussian(s->rng,
							    s->c->common));
		s->proc[1][s->nproc] = exp(gsl_ran_gaussian(s->rng,
							    s->c->common));
		s->nproc++;
	}
	return s->proc[a][j];
}

/* The budget's clock: the simulated samples' own times, no timing. */
static double sim_elapsed(void *ctx)
{
	return ((struct sim_ctx *)ctx)->clock;
}

/* One sample's time: clock position t in [0, 1] of the run, head's true
   slowdown effect. The extra draws of bimodal and AR(1) noise come only
   with them, so the other kinds' streams stay as they were. */
static double sample(struct sim_ctx *s, int head, double t, double effect)
{
	double z, tail = 1, mode = 1;

	if (s->c->noise == SIM_HEAVY)
		z = gsl_ran_tdist(s->rng, 3) / sqrt(3.0);
	else
		z = gsl_ran_ugaussian(s->rng);
	if (s->c->noise == SIM_AR1) {
		s->ar = AR1_PHI * s->ar + sqrt(1 - AR1_PHI * AR1_PHI) * z;
		z = s->ar;
	}
	if (s->c->noise == SIM_BIMODAL &&
	    gsl_rng_uniform(s->rng) < BIMODAL_P)
		mode = BIMODAL_X;
	/* drawn for head only, so base's stream stays as without a tail */
	if (head && s->c->tail_p > 0 &&
	    gsl_rng_uniform(s->rng) < s->c->tail_p)
		tail = s->c->tail_x;
	return 0.1 * (head ? 1 + effect : 1) * exp(s->sigma * z) *
	       (s->c->noise == SIM_DRIFT ? 1 + DRIFT * t : 1) * tail * mode;
}

static int sim_measure(void *ctx, size_t i, unsigned total)
{
	struct sim_ctx *s = ctx;
	struct bench_run *br = &s->r->b[i].run;
	size_t more = total > br->npairs ? total - br->npairs : 0, j;
	size_t wild = (size_t)-1;
	double span = 2.0 * br->cfg->max_pairs;
	int *order;
	double effect = i > 0 && s->c->others != 0 ? s->c->others :
			s->c->effect;

	if (!more)
		return 0;	/* as measure_bench: nothing to add */
	order = xcalloc(more, sizeof(*order));
	/* the first look's one extreme head sample */
	if (s->c->outlier > 0 && br->npairs == 0)
		wild = gsl_rng_uniform_int(s->rng, more);

	br->pairs = xrealloc(br->pairs, total * sizeof(*br->pairs));
	measure_order(order, more, s->rng);
	for (j = 0; j < more; j++) {
		struct pair_result *p = &br->pairs[br->npairs];
		double t = 2.0 * (double)br->npairs / span;
		int hf = order[j];

		memset(p, 0, sizeof(*p));
		p->head_first = hf;
		p->s[ARM_BASE].wall = sample(s, 0, t + (hf ? 1 : 0) / span,
					     effect) *
				      process_factor(s, 0, br->npairs);
		p->s[ARM_HEAD].wall = sample(s, 1, t + (hf ? 0 : 1) / span,
					     effect) *
				      (j == wild ? s->c->outlier : 1) *
				      process_factor(s, 1, br->npairs);
		br->seconds += p->s[ARM_BASE].wall + p->s[ARM_HEAD].wall;
		s->clock += p->s[ARM_BASE].wall + p->s[ARM_HEAD].wall;
		br->npairs++;
	}
	free(order);
	return 0;
}

/* The manual rules: one value per arm, or the best of five. */
static enum verdict manual(struct sim_ctx *s, enum sim_rule rule)
{
	double b = INFINITY, h = INFINITY;
	int k, runs = rule == SIM_BEST5 ? 5 : 1;

	for (k = 0; k < runs; k++) {
		double t = (double)k / runs;
		double vb = sample(s, 0, t, s->c->effect);
		double vh = sample(s, 1, t + 0.05, s->c->effect);

		b = vb < b ? vb : b;
		h = vh < h ? vh : h;
	}
	return h / b > 1.05 ? VERDICT_FAIL : VERDICT_PASS;
}

int sim_run(struct sim_result *out, const struct sim_cell *c,
	    enum sim_rule rule, const struct bench_cfg *proto,
	    double confidence, unsigned resamples, size_t trials,
	    unsigned long seed)
{
	struct sim_ctx s;
	struct run_report r;
	struct adaptive a;
	struct adaptive_want want;
	/* gate's default budget, on the simulated clock */
	struct adaptive_opts ao = { CONFIG_DEFAULT_BUDGET, 0, 1 };
	struct bench_cfg *cfgs;
	size_t t, i, fails = 0, noisy = 0, passes = 0, pairs = 0;
	size_t any_pass = 0;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	s.c = c;
	s.sigma = sqrt(log(1 + c->cv * c->cv));
	s.rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s.rng)
		return error("cannot allocate a random generator");
	gsl_rng_set(s.rng, seed);
	memset(&r, 0, sizeof(r));
	s.r = &r;
	r.n = c->suite;
	r.confidence = confidence;
	r.resamples = resamples;
	run_alloc(&r, c->suite);
	cfgs = xcalloc(c->suite ? c->suite : 1, sizeof(*cfgs));

	for (t = 0; t < trials && ret == 0; t++) {
		enum verdict suite = VERDICT_PASS;
		int passed = 0;

		if (rule == SIM_GATE) {
			/*
			 * Each benchmark of each trial gets a fresh copy of
			 * proto: the run owns its config (plan_to_budget
			 * caps its max_pairs under the budget), so a shared
			 * one carried one trial's cap into the next and one
			 * benchmark's into the others.
			 */
			for (i = 0; i < r.n; i++) {
				memset(&r.b[i], 0, sizeof(r.b[i]));
				cfgs[i] = *proto;
				r.b[i].run.cfg = &cfgs[i];
			}
			r.seed = (unsigned long)t;
			s.clock = 0;
			s.nproc = 0;	/* fresh processes each trial */
			/* AR(1) starts each trial from its stationary law */
			if (c->noise == SIM_AR1)
				s.ar = gsl_ran_ugaussian(s.rng);
			/* gate's own decision loop, measuring by simulation */
			adaptive_begin(&a, &r, &ao);
			while (adaptive_next(&a, &r, sim_elapsed(&s), &want))
				adaptive_look(&a, &r, &want,
					      sim_measure(&s, want.i,
							  want.total) == 0);
			adaptive_finish(&r);
			suite = r.suite;
			for (i = 0; i < r.n; i++) {
				passed |= r.b[i].result.verdict == VERDICT_PASS;
				pairs += r.b[i].run.npairs;
				bench_result_release(&r.b[i].result);
				bench_run_release(&r.b[i].run);
				/* a note (the first look cut to the budget) */
				free(r.b[i].note);
				r.b[i].note = NULL;
			}
		} else {
			for (i = 0; i < r.n; i++) {
				enum verdict v = manual(&s, rule);

				passed |= v == VERDICT_PASS;
				suite = v > suite ? v : suite;
			}
		}
		if (suite == VERDICT_ERROR)
			ret = -1;
		fails += suite == VERDICT_FAIL;
		noisy += suite == VERDICT_NOISY;
		passes += suite == VERDICT_PASS;
		any_pass += passed;
	}
	out->trials = trials;
	out->fail = (double)fails / trials;
	out->noisy = (double)noisy / trials;
	out->pass = (double)passes / trials;
	out->any_pass = (double)any_pass / trials;
	out->pairs = rule == SIM_GATE ? (double)pairs / trials / r.n :
		     rule == SIM_BEST5 ? 5 : 1;
	run_release(&r);
	free(cfgs);
	free(s.proc[0]);
	free(s.proc[1]);
	gsl_rng_free(s.rng);
	return ret;
}

int sim_coverage_onesided(struct sim_cover *out, const struct sim_cell *c,
			  const struct bench_cfg *proto, size_t n,
			  double alpha, unsigned resamples, size_t trials,
			  unsigned long seed)
{
	struct sim_ctx s;
	struct run_report r;
	struct bench_cfg cfg = *proto;
	struct verdict_opts vo = { alpha, resamples, 0, 0 };
	double truth = 1 + c->effect;
	size_t t, below = 0, above = 0, fallback = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	cfg.pairs = cfg.max_pairs = (unsigned)n;
	s.c = c;
	s.sigma = sqrt(log(1 + c->cv * c->cv));
	s.rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s.rng)
		return error("cannot allocate a random generator");
	gsl_rng_set(s.rng, seed);
	memset(&r, 0, sizeof(r));
	s.r = &r;
	r.n = 1;
	run_alloc(&r, 1);
	for (t = 0; t < trials && ret == 0; t++) {
		struct bench_stats one, *st = &one;

		memset(st, 0, sizeof(*st));
		r.b[0].run.cfg = &cfg;
		sim_measure(&s, 0, (unsigned)n);
		vo.seed = (unsigned long)t;
		if (verdict_analyse(st, &r.b[0].run, &vo) < 0)
			ret = error("simulated analysis failed: %s",
				    st->reason ? st->reason : "?");
		/* the true ratio outside a bound is that bound's error */
		below += st->low > truth;
		above += st->high < truth;
		fallback += st->interval_used != cfg.interval;
		bench_stats_release(st);
		bench_run_release(&r.b[0].run);
		memset(&r.b[0].run, 0, sizeof(r.b[0].run));
	}
	out->trials = t;
	out->below = (double)below / (double)t;
	out->above = (double)above / (double)t;
	out->fallback = (double)fallback / (double)t;
	run_release(&r);
	gsl_rng_free(s.rng);
	return ret;
}

double sim_coverage(const struct sim_cell *c, const struct bench_cfg *proto,
		    size_t n, double level, unsigned resamples, size_t trials,
		    unsigned long seed)
{
	struct sim_cover cv;

	if (sim_coverage_onesided(&cv, c, proto, n, (1 - level) / 2,
				  resamples, trials, seed) < 0)
		return NAN;
	return 1 - cv.below - cv.above;
}

/* One simulated gate run of one benchmark whose head is slower by effect,
   with cfg's pairs: its decided stats into *v, *low, *high, *pairs. */
static void sim_step(struct sim_ctx *s, const struct bench_cfg *cfg,
		     double effect, unsigned long seed, enum verdict *v,
		     double *low, double *high, unsigned *pairs)
{
	struct sim_cell cell = *s->c;
	const struct sim_cell *keep = s->c;
	struct bench_cfg own = *cfg;	/* the run's own, as sim_run's */
	struct run_report r;
	struct adaptive a;
	struct adaptive_want want;
	struct adaptive_opts ao = { CONFIG_DEFAULT_BUDGET, 0, 1 };
	const struct bench_stats *st;

	cell.effect = effect;
	s->c = &cell;
	memset(&r, 0, sizeof(r));
	s->r = &r;
	r.n = 1;
	r.confidence = 0.95;
	r.resamples = 1000;
	r.seed = seed;
	run_alloc(&r, 1);
	r.b[0].run.cfg = &own;
	s->clock = 0;
	adaptive_begin(&a, &r, &ao);
	while (adaptive_next(&a, &r, sim_elapsed(s), &want))
		adaptive_look(&a, &r, &want,
			      sim_measure(s, want.i, want.total) == 0);
	adaptive_finish(&r);
	st = run_bench_primary(&r.b[0]);
	*v = r.b[0].result.verdict;
	*low = st ? st->low : NAN;
	*high = st ? st->high : NAN;
	*pairs = (unsigned)r.b[0].run.npairs;
	bench_result_release(&r.b[0].result);
	bench_run_release(&r.b[0].run);
	run_release(&r);
	s->c = keep;
}

/* The step rule of issues 25 to 40: good below the confirming run's
   lower bound (proven), bad on a fail or an accepted result. */
static enum bisect_call call_before40(enum verdict v, double low,
				      double high, double proven)
{
	if (v == VERDICT_ERROR || isnan(low) || isnan(high))
		return BISECT_SKIP;
	if (v == VERDICT_FAIL || v == VERDICT_ACCEPTED)
		return BISECT_BAD;
	if (isfinite(high) && isfinite(proven) && high < proven)
		return BISECT_GOOD;
	return BISECT_UNSURE;
}

/* One run of the search (the confirming one, or commits lo..mid with
   effect e when the culprit is among them), with the rule's retries as
   gate bisect's step_decide makes them (the confirming run good only at
   its last run); *runs counts the runs, *proven is the last run's lower
   bound. */
static enum bisect_call sim_bisect_step(struct sim_ctx *s,
					const struct bench_cfg *proto,
					double effect, double *proven,
					enum sim_bisect_rule rule,
					int confirming, unsigned long *seed,
					size_t *runs)
{
	struct bench_cfg cfg = *proto;
	enum bisect_call call = BISECT_UNSURE;
	enum verdict v;
	double low, high;
	unsigned pairs;
	int k;

	for (k = 0; k < (rule == SIM_BISECT_PASS_GOOD ? 1 :
			 VERDICT_BISECT_TRIES); k++) {
		sim_step(s, &cfg, effect, (*seed)++, &v, &low, &high, &pairs);
		(*runs)++;
		if (rule == SIM_BISECT_PASS_GOOD)
			return v == VERDICT_PASS ? BISECT_GOOD :
			       v == VERDICT_FAIL ? BISECT_BAD :
			       v == VERDICT_ERROR ? BISECT_SKIP :
			       BISECT_UNSURE;
		call = rule == SIM_BISECT_CONFIRM_FAIL ?
		       call_before40(v, low, high, *proven) :
		       verdict_bisect_call(v, low, high, 0, proto->min_effect);
		if (call != BISECT_UNSURE &&
		    !(call == BISECT_GOOD && confirming))
			break;
		/* gate bisect's --pairs for the next run */
		cfg.pairs = 2 * pairs;
		if (cfg.max_pairs < cfg.pairs)
			cfg.max_pairs = cfg.pairs;
	}
	*proven = low;
	return call;
}

/* The confirming run: bad against good. BISECT_BAD when it reproduces,
   with its lower bound in *proven; before issue 40 one run, reproduced
   only when it failed (anything else said "does not reproduce"). */
static enum bisect_call sim_confirm(struct sim_ctx *s,
				    const struct bench_cfg *proto,
				    double *proven,
				    enum sim_bisect_rule rule,
				    unsigned long *seed, size_t *runs)
{
	enum verdict v;
	double high;
	unsigned pairs;

	if (rule == SIM_BISECT_NOW)
		return sim_bisect_step(s, proto, s->c->effect, proven, rule,
				       1, seed, runs);
	sim_step(s, proto, s->c->effect, (*seed)++, &v, proven, &high,
		 &pairs);
	(*runs)++;
	return v == VERDICT_FAIL ? BISECT_BAD : BISECT_GOOD;
}

int sim_bisect(struct sim_bisect *out, const struct sim_cell *c,
	       const struct bench_cfg *proto, size_t commits,
	       enum sim_bisect_rule rule, size_t trials, unsigned long seed)
{
	struct sim_ctx s;
	size_t t, right = 0, wrong = 0, range = 0, none = 0, unconfirmed = 0;
	size_t runs = 0;
	unsigned long step_seed = seed * 100003;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.c = c;
	s.sigma = sqrt(log(1 + c->cv * c->cv));
	s.rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s.rng)
		return error("cannot allocate a random generator");
	gsl_rng_set(s.rng, seed);
	for (t = 0; t < trials; t++) {
		long culprit = 1 + (long)gsl_rng_uniform_int(s.rng, commits);
		long lo = 0, hi = (long)commits;
		enum bisect_call call;
		double proven;

		call = sim_confirm(&s, proto, &proven, rule, &step_seed,
				   &runs);
		if (call == BISECT_GOOD) {
			none++;
			continue;
		}
		if (call != BISECT_BAD) {
			unconfirmed++;
			continue;
		}
		while (hi - lo > 1) {
			long mid = lo + (hi - lo) / 2;
			double e = culprit > lo && culprit <= mid ?
				   c->effect : 0, p = proven;

			call = sim_bisect_step(&s, proto, e, &p, rule, 0,
					       &step_seed, &runs);
			if (call == BISECT_BAD)
				hi = mid;
			else if (call == BISECT_GOOD)
				lo = mid;
			else
				break;
		}
		if (hi - lo > 1)
			range++;
		else if (hi == culprit)
			right++;
		else
			wrong++;
	}
	out->trials = trials;
	out->right = (double)right / (double)trials;
	out->wrong = (double)wrong / (double)trials;
	out->range = (double)range / (double)trials;
	out->none = (double)none / (double)trials;
	out->unconfirmed = (double)unconfirmed / (double)trials;
	out->runs = (double)runs / (double)trials;
	gsl_rng_free(s.rng);
	return 0;
}

int sim_exact(double *fail, double *pass, double effect, double jitter,
	      double floor, size_t n, double alpha, size_t trials,
	      unsigned long seed)
{
	struct bench_cfg cfg;
	struct bench_run br;
	struct verdict_opts vo = { alpha, 1000, 0, 0 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t t, i, k, m, fails = 0, passes = 0;
	int ret = 0;

	if (!rng)
		return error("cannot allocate a random generator");
	gsl_rng_set(rng, seed);
	memset(&cfg, 0, sizeof(cfg));
	cfg.name = (char *)"counts";
	cfg.metric = METRIC_ALLOCS;
	cfg.min_effect = floor;
	cfg.statistic = CONFIG_DEFAULT_STATISTIC;
	cfg.interval = CONFIG_DEFAULT_INTERVAL;
	cfg.rule = RULE_FLOOR;
	cfg.nmetrics = 1;
	cfg.metrics[0].id = METRIC_ALLOCS;
	cfg.metrics[0].min_effect = floor;
	cfg.metrics[0].pass_excludes = 2 * floor;
	cfg.metrics[0].gating = 1;
	cfg.pairs = cfg.max_pairs = (unsigned)n;
	memset(&br, 0, sizeof(br));
	br.cfg = &cfg;
	br.pairs = xcalloc(n, sizeof(*br.pairs));
	br.npairs = n;
	for (t = 0; t < trials && ret == 0; t++) {
		struct bench_stats st;

		memset(&st, 0, sizeof(st));
		for (i = 0; i < n; i++)
			for (k = 0; k < 2; k++) {
				struct sample *sm = &br.pairs[i].s[k];
				double u = 2 * gsl_rng_uniform(rng) - 1;

				memset(sm, 0, sizeof(*sm));
				for (m = 0; m < METRIC_COUNT; m++)
					sm->value[m] = NAN;
				sm->value[METRIC_ALLOCS] =
					round(1e6 * (k == ARM_HEAD ?
						     1 + effect : 1) *
					      (1 + jitter * u));
			}
		vo.seed = t;
		if (verdict_analyse_metric(&st, &br, &cfg.metrics[0], &vo) < 0)
			ret = error("simulated analysis failed: %s",
				    st.reason ? st.reason : "?");
		fails += st.verdict == VERDICT_FAIL;
		passes += st.verdict == VERDICT_PASS;
		bench_stats_release(&st);
	}
	*fail = (double)fails / (double)trials;
	*pass = (double)passes / (double)trials;
	free(br.pairs);
	gsl_rng_free(rng);
	return ret;
}
