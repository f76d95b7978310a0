/*
 * The measurement loop. Order is drawn per pair, not per run, so that
 * drift in machine speed cancels within each pair; balanced so neither arm
 * owns the "runs second, caches warm" position more often than the other.
 */
#include "gate/measure/measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>

#include "common/clock.h"
#include "common/error.h"
#include "gate/exec/alloc.h"
#include "gate/exec/counter.h"
#include "gate/exec/notice.h"
#include "gate/format/format.h"
#include "gate/exec/layout.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "gate/exec/sysinfo.h"
#include "gate/measure/measure-sample.h"
#include "gate/measure/measure-counted.h"
#include "gate/measure/measure-suite.h"
#include "common/banned.h"

const char *arm_name(enum arm a)
{
	return a == ARM_BASE ? "base" : "head";
}

double sample_value(const struct sample *s, enum metric m)
{
	switch (m) {
	case METRIC_WALL:
		return s->wall;
	case METRIC_CPU:
		return s->cpu;
	default:
		return (unsigned)m < METRIC_COUNT ? s->value[m] : NAN;
	}
}

static int has_source(const struct bench_cfg *cfg, enum metric_source src)
{
	size_t i;

	for (i = 0; i < cfg->nmetrics; i++)
		if (metric_desc(cfg->metrics[i].id)->source == src)
			return 1;
	return 0;
}

int measure_valgrind(const struct bench_run *br)
{
	return br->counter == COUNTER_VALGRIND || br->simulate;
}

/* 1 when metric m's value comes from the run under valgrind. */
static int in_valgrind_run(const struct bench_run *br, enum metric m)
{
	return m == METRIC_CYCLES ||
	       (m == METRIC_INSTRUCTIONS && br->counter == COUNTER_VALGRIND);
}

int measure_counts_only(const struct bench_run *br)
{
	const struct bench_cfg *cfg = br->cfg;
	size_t i;

	if (!br->plain_runs || cfg->format != FORMAT_TIME)
		return 0;
	for (i = 0; i < cfg->nmetrics; i++) {
		enum metric_source src = metric_desc(cfg->metrics[i].id)->source;

		if (src != SOURCE_COUNTER && src != SOURCE_CACHESIM &&
		    src != SOURCE_ALLOC)
			return 0;
	}
	return 1;
}

int measure_prepare(struct bench_run *br)
{
	return measure_prepare_to(br, NULL);
}

int measure_prepare_to(struct bench_run *br, struct gate_err *err)
{
	const struct bench_cfg *cfg = br->cfg;
	char *who = xasprintf("benchmark \"%s\"", cfg->name);
	char why[256];
	int ret = -1;
	size_t i;

	br->counter = COUNTER_AUTO;
	br->plain_runs = 0;
	br->simulate = has_source(cfg, SOURCE_CACHESIM);
	/* a suite's cases are counted apart under valgrind alone */
	if (suite_counted(br) && cfg->counter == COUNTER_PERF) {
		error_to(err, "%s asks for \"counter\": \"perf\", but a "
			 "suite's cases are counted each on its own under "
			 "valgrind: set \"counter\": \"valgrind\" (or "
			 "\"auto\")", who);
		goto cleanup;
	}
	if (has_source(cfg, SOURCE_COUNTER) &&
	    counter_select(&br->counter, &br->valgrind, suite_counted(br) ?
			   COUNTER_VALGRIND : cfg->counter, who, err) < 0)
		goto cleanup;
	if (suite_counted(br) && suite_counted_prepare(br, who, err) < 0)
		goto cleanup;
	if (br->simulate && !br->valgrind &&
	    counter_valgrind_find(&br->valgrind, why, sizeof(why)) < 0) {
		error_to(err, "%s asks for \"cycles\", which valgrind's cache "
			 "simulation estimates, but %s: install valgrind "
			 "(Debian/Ubuntu: apt-get install valgrind) or set "
			 "GATE_VALGRIND to its path", who, why);
		goto cleanup;
	}
	if (has_source(cfg, SOURCE_ALLOC) &&
	    alloc_lib_find(&br->alloc_lib, err) < 0)
		goto cleanup;
	/* everything but what the valgrind run gives needs a plain run */
	for (i = 0; i < cfg->nmetrics; i++)
		if (!in_valgrind_run(br, cfg->metrics[i].id))
			br->plain_runs = 1;
	br->counted_pairs = 0;
	if (measure_valgrind(br))
		br->counted_pairs = br->plain_runs &&
				    cfg->pairs > METRIC_COUNTED_PAIRS ?
				    METRIC_COUNTED_PAIRS : cfg->pairs;
	ret = 0;
cleanup:
	free(who);
	return ret;
}

const char *measure_scheme(const struct bench_run *br, char *buf,
			   size_t size)
{
	const char *extra = br->alloc_lib ? ", allocations counted by "
			    "libgate-alloc.so (LD_PRELOAD)" : "";

	/* a loaded report has its config, not the simulate flag */
	int sim = br->simulate || (br->cfg && has_source(br->cfg,
							 SOURCE_CACHESIM));
	/* what the valgrind run gives */
	const char *vg = sim ? br->counter == COUNTER_VALGRIND ?
			 "the instruction count and the cycles estimate" :
			 "the cycles estimate" : "the instruction count";
	const char *how = sim ? "cachegrind, cache simulation on" :
			  "cachegrind, cache simulation off";
	char par[128] = "";

	/* a benchmark of counts alone runs its plain runs at once too */
	if (br->parallel > 1)
		snprintf(par, sizeof(par), "; %s %u at a time (both arms at "
			 "once: counts do not depend on load)",
			 br->cfg && measure_counts_only(br) ? "runs" :
			 "valgrind runs", br->parallel);
	if (br->probe && (sim || br->counter == COUNTER_VALGRIND)) {
		char how_c[768];

		snprintf(buf, size, "%s%s%s", br->plain_runs ? "each sample "
			 "one plain run (the times); in the counted pairs, "
			 "one run where " : "", suite_counted_scheme(
			 br->cfg->format, sim, how_c, sizeof(how_c)), par);
	} else if ((sim || br->counter == COUNTER_VALGRIND) && !br->plain_runs)
		snprintf(buf, size, "each sample one run under valgrind "
			 "(%s) for %s%s", how, vg, par);
	else if (sim || br->counter == COUNTER_VALGRIND)
		snprintf(buf, size, "each sample one plain run%s; in the first "
			 "%u pairs, and in every pair of later rounds when "
			 "the counts vary, also one run under valgrind "
			 "(%s) for %s, which a timed run cannot give%s",
			 extra, br->cfg->pairs > METRIC_COUNTED_PAIRS ?
			 (unsigned)METRIC_COUNTED_PAIRS : br->cfg->pairs,
			 how, vg, par);
	else if (br->counter == COUNTER_PERF)
		snprintf(buf, size, "each sample one run, instructions counted "
			 "by perf_event_open from exec, children included%s%s",
			 extra, par);
	else
		snprintf(buf, size, "each sample one run%s%s", extra, par);
	return buf;
}

double measure_resolution(enum metric m)
{
	struct timespec ts;

	if (m == METRIC_CPU)
		return 1e-6;
	if (clock_getres(CLOCK_MONOTONIC, &ts) < 0)
		return 1e-6;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int measure_resolvable(double v, double resolution)
{
	/* a ratio with a little slack: 100e-9 / 1e-9 is not exactly 100 */
	return isfinite(v) && v > 0 && v / resolution >= 100.0 - 1e-9;
}

void measure_order(int *order, size_t n, gsl_rng *rng)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i < n / 2;
	if (n % 2)
		order[n - 1] = (int)gsl_rng_uniform_int(rng, 2);
	gsl_ran_shuffle(rng, order, n, sizeof(*order));
}

static void fail(struct bench_run *br, char *msg)
{
	free(br->error);
	br->error = msg;
}

/* A program the preload library cannot reach is refused before running. */
static int check_static(struct bench_run *br, const struct measure_opts *opt)
{
	const struct bench_cfg *cfg = br->cfg;
	int a;

	if (!br->alloc_lib)
		return 0;
	for (a = 0; a < 2; a++)
		if (bench_arm_run(cfg, a)->argv &&
		    alloc_is_static(bench_arm_run(cfg, a)->argv[0],
				    opt->dir[a])) {
			fail(br, xasprintf("benchmark \"%s\": %s in %s is "
				"statically linked, so the allocation metrics "
				"are unsupported for it (they count through "
				"LD_PRELOAD, which a static program ignores): "
				"link it dynamically or remove the allocation "
				"metrics", cfg->name,
				bench_arm_run(cfg, a)->argv[0],
				arm_name((enum arm)a)));
			return -1;
		}
	return 0;
}

/*
 * 1 when br's instruction counts so far vary within an arm beyond the
 * exactness tolerance: the count is then decided by an interval, which
 * needs it in every pair.
 */
static int counts_vary(const struct bench_run *br, enum metric m)
{
	size_t a, i;

	for (a = 0; a < 2; a++) {
		double lo = INFINITY, hi = -INFINITY;

		for (i = 0; i < br->npairs; i++) {
			double v = br->pairs[i].s[a].value[m];

			if (!isfinite(v))
				continue;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (hi > 0 && (hi - lo) / hi > METRIC_EXACT_TOLERANCE)
			return 1;
	}
	return 0;
}

/* Whether the pairs measure_bench adds after the first call are counted. */
static int count_added(const struct bench_run *br)
{
	const struct bench_cfg *cfg = br->cfg;
	size_t i;

	if (!measure_valgrind(br))
		return 0;
	if (!br->plain_runs)
		return 1;	/* the valgrind run is the sample */
	for (i = 0; i < cfg->nmetrics; i++)
		if (in_valgrind_run(br, cfg->metrics[i].id) &&
		    cfg->metrics[i].gating &&
		    counts_vary(br, cfg->metrics[i].id))
			return 1;
	return 0;
}

/* The line saying what measure_bench is about to measure. */
static void measure_announce(const struct bench_run *br, size_t first_new,
			     unsigned total)
{
	const struct bench_cfg *cfg = br->cfg;

	if (first_new == 0)
		notice("measuring \"%s\": %u warm-up, %u pairs%s",
		       cfg->name, cfg->warmup, total, measure_valgrind(br) ?
		       " (counting under valgrind: slow)" : "");
	else
		notice("measuring \"%s\": pairs %zu to %u", cfg->name,
		       first_new + 1, total);
}

/* The samples' temporary directory (malloc'd), or NULL with br->error. */
static char *sample_dir(struct bench_run *br)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmp = xasprintf("%s/gate-sample.XXXXXX",
			      tmpdir && *tmpdir ? tmpdir : "/tmp");

	if (mkdtemp(tmp))
		return tmp;
	fail(br, xasprintf("cannot create a temporary directory \"%s\": %s: "
			   "set TMPDIR to a writable directory", tmp,
			   strerror(errno)));
	free(tmp);
	return NULL;
}

/*
 * The warm-ups, alternating arms so both see caches in the same state:
 * 0, -1 or the interrupting signal (as measure_sample).
 */
static int warm_up(struct bench_run *br, const struct measure_opts *opt,
		   const char *tmp)
{
	struct sample scratch;
	char label[64];
	size_t i;
	int rc = 0;

	for (i = 0; i < br->cfg->warmup && rc == 0; i++) {
		snprintf(label, sizeof(label), "warm-up %zu", i + 1);
		rc = measure_sample(br, opt, ARM_BASE, label, tmp, !br->plain_runs,
				&scratch, -1);
		if (rc == 0)
			rc = measure_sample(br, opt, ARM_HEAD, label, tmp,
					!br->plain_runs, &scratch, -1);
	}
	return rc;
}

/* jobs[0..n) in batches of br->parallel: 0, -1 or the signal. */
static int run_batches(struct bench_run *br, const struct measure_opts *opt,
		       const struct counted_job *jobs, size_t n,
		       const char *tmp)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < n && rc == 0; k += br->parallel)
		rc = measure_counted(br, opt, jobs + k, n - k < br->parallel ?
				     n - k : br->parallel, tmp);
	return rc;
}

/*
 * Pairs [from, to) of this call (index at = first + i), order[i] their arm
 * order: their runs under valgrind (those of the first counted_pairs) are
 * taken at once, up to br->parallel, after the pairs' plain runs (so no
 * timed run shares the machine with them); the plain runs too when the
 * benchmark's metrics are all counts (measure_counts_only), else one at a
 * time: 0, -1 or the interrupting signal.
 */
static int take_batch(struct bench_run *br, const struct measure_opts *opt,
		      const int *order, size_t first, size_t from, size_t to,
		      unsigned total, const char *tmp)
{
	size_t n = to - from, i, k, nj = 0, np = 0;
	struct counted_job *jobs = xcalloc(2 * n, sizeof(*jobs));
	struct counted_job *plain = xcalloc(2 * n, sizeof(*plain));
	char (*label)[64] = xcalloc(n, sizeof(*label));
	int only = measure_counts_only(br), rc = 0;

	for (i = from; i < to && rc == 0; i++) {
		struct pair_result *pr = &br->pairs[first + i];
		enum arm arm = order[i] ? ARM_HEAD : ARM_BASE;
		int counted = first + i < br->counted_pairs &&
			      measure_valgrind(br);

		pr->head_first = order[i];
		snprintf(label[i - from], sizeof(label[0]), "pair %zu",
			 first + i + 1);
		for (k = 0; k < 2 && rc == 0; k++, arm = !arm) {
			/* the plain run (or, without one, the sample's
			   values set to "not measured"), now or batched */
			if (only)
				plain[np++] = (struct counted_job){
					.a = arm, .label = label[i - from],
					.out = &pr->s[arm], .plain = 1,
					.pair = (long)(first + i) };
			else
				rc = measure_sample(br, opt, arm,
						    label[i - from], tmp, 0,
						    &pr->s[arm],
						    (long)(first + i));
			if (rc == 0 && counted)
				jobs[nj++] = (struct counted_job){
					.a = arm, .label = label[i - from],
					.out = &pr->s[arm],
					.pair = (long)(first + i) };
		}
	}
	if (rc == 0)
		rc = run_batches(br, opt, plain, np, tmp);
	if (rc == 0)
		rc = run_batches(br, opt, jobs, nj, tmp);
	for (i = from; i < to && rc == 0; i++) {
		br->npairs++;
		br->counted_done += first + i < br->counted_pairs &&
				    measure_valgrind(br);
		if (opt->on_pair)
			opt->on_pair(opt->on_pair_arg, br, br->npairs, total);
	}
	free(jobs);
	free(plain);
	free(label);
	return rc;
}

/*
 * The pairs from br->npairs to total, each in the arm order of order[]
 * (1: head first): 0, -1 or the interrupting signal (as measure_sample).
 * Timed runs alternate strictly; runs under valgrind, and the plain runs
 * of a benchmark of counts alone, go in batches of br->parallel when that
 * is above 1 (both arms at once, and several pairs when the CPUs allow).
 */
static int take_pairs(struct bench_run *br, const struct measure_opts *opt,
		      const int *order, unsigned total, const char *tmp)
{
	size_t first_new = br->npairs, more = total - first_new, i, to;
	/* pairs per batch: every counted pair of a sample with a plain run
	   (its runs under valgrind wait for the plain ones anyway), else as
	   many as fill the CPUs, for progress between them */
	size_t per = br->plain_runs ? more : (br->parallel + 1) / 2;
	char label[64];
	int rc = 0;

	for (i = 0; i < more && rc == 0; i = to) {
		size_t at = first_new + i;
		struct pair_result *pr = &br->pairs[at];
		enum arm first = order[i] ? ARM_HEAD : ARM_BASE;
		int counted = at < br->counted_pairs;

		to = i + 1;
		if (br->parallel > 1 && measure_counts_only(br)) {
			/* every pair left (counted or not) in batches */
			to = more - i > per ? i + per : more;
			rc = take_batch(br, opt, order, first_new, i, to, total,
					tmp);
			continue;
		}
		if (counted && br->parallel > 1) {
			to = br->counted_pairs - first_new;
			to = to > more ? more : to;
			to = to - i > per ? i + per : to;
			rc = take_batch(br, opt, order, first_new, i, to, total,
					tmp);
			continue;
		}
		pr->head_first = order[i];
		snprintf(label, sizeof(label), "pair %zu", at + 1);
		rc = measure_sample(br, opt, first, label, tmp, counted,
				&pr->s[first], (long)at);
		if (rc == 0)
			rc = measure_sample(br, opt, !first, label, tmp, counted,
					&pr->s[!first], (long)at);
		if (rc == 0) {
			br->npairs++;
			br->counted_done += counted && measure_valgrind(br);
		}
		if (rc == 0 && opt->on_pair)
			opt->on_pair(opt->on_pair_arg, br, br->npairs, total);
	}
	return rc;
}

/* take_pairs' 0, -1 or signal number as what it came to */
static enum measured measured_as(int rc)
{
	return rc > 0 ? MEASURE_INTERRUPTED : rc < 0 ? MEASURE_ERROR : MEASURED;
}

enum measured measure_bench(struct bench_run *br,
			    const struct measure_opts *opt, unsigned total)
{
	double t0 = clock_seconds();
	size_t first_new = br->npairs, more;
	int *order;
	char *tmp;
	int rc = 0;

	if (total <= br->npairs)
		return MEASURED;
	if ((first_new > 0 || !br->plain_runs) && count_added(br))
		br->counted_pairs = total;
	br->parallel = measure_valgrind(br) || measure_counts_only(br) ?
		       sysinfo_usable_cpus() : 1;
	more = total - br->npairs;
	order = xcalloc(more, sizeof(*order));
	br->pairs = xrealloc(br->pairs, total * sizeof(*br->pairs));
	memset(br->pairs + first_new, 0, more * sizeof(*br->pairs));
	/* each batch balanced on its own, so every look is balanced */
	measure_order(order, more, opt->order_rng);
	if (!opt->quiet)
		measure_announce(br, first_new, total);
	if ((first_new == 0 && check_static(br, opt) < 0) ||
	    !(tmp = sample_dir(br))) {
		free(order);
		return MEASURE_ERROR;
	}
	if (first_new == 0) {
		double counted = br->counted_seconds;

		rc = warm_up(br, opt, tmp);
		br->warmup_seconds += clock_seconds() - t0;
		br->counted_seconds = counted;	/* the warm-ups' are above */
	}
	if (rc == 0)
		rc = take_pairs(br, opt, order, total, tmp);
	if (rmdir(tmp) < 0)
		warning("cannot remove the temporary directory \"%s\": %s",
			tmp, strerror(errno));
	free(tmp);
	br->seconds += clock_seconds() - t0;
	if (rc == 0 && (br->out_hash[ARM_BASE] != br->out_hash[ARM_HEAD] ||
			br->out_bytes[ARM_BASE] != br->out_bytes[ARM_HEAD]))
		br->parity_differs = 1;
	free(order);
	return measured_as(rc);
}

double measure_pairs_cost(const struct bench_run *br, unsigned more)
{
	double plain, counted;
	size_t will = 0;

	if (!br->npairs || !more)
		return 0;
	plain = (br->seconds - br->warmup_seconds - br->counted_seconds) /
		(double)br->npairs;
	counted = br->counted_done ? br->counted_seconds /
		  (double)br->counted_done : 0;
	if (count_added(br))
		will = more;
	else if (br->counted_pairs > br->npairs)
		will = br->counted_pairs - br->npairs < more ?
		       br->counted_pairs - br->npairs : more;
	return (plain > 0 ? plain * more : 0) +
	       (counted > 0 ? counted * (double)will : 0);
}

int measure_pending(const struct bench_run *br, unsigned total)
{
	/* suite cases were measured with their suite, before the fan-out */
	return !br->error && !br->suite_name && br->npairs < total;
}

enum measured measure_grow(struct bench_run *br,
			   const struct measure_opts *opt, unsigned total)
{
	if (br->error)
		return MEASURE_ERROR;
	if (!measure_pending(br, total))
		return br->npairs >= 2 ? MEASURED : MEASURE_ERROR;
	return measure_bench(br, opt, total);
}

void bench_run_release(struct bench_run *br)
{
	size_t i;

	if (br->suite) {
		for (i = 0; i < br->suite->n; i++) {
			free(br->suite->cases[i].name);
			free(br->suite->cases[i].unit);
			free(br->suite->cases[i].v[0]);
			free(br->suite->cases[i].v[1]);
		}
		free(br->suite->cases);
		free(br->suite);
		br->suite = NULL;
	}
	free(br->pairs);
	free(br->error);
	free(br->valgrind);
	free(br->alloc_lib);
	suite_counted_release(br);
	for (i = 0; i < br->nartifacts; i++)
		free(br->artifacts[i].path);
	free(br->artifacts);
	br->artifacts = NULL;
	br->nartifacts = 0;
	br->pairs = NULL;
	br->error = NULL;
	br->valgrind = NULL;
	br->alloc_lib = NULL;
}
