/*
 * The plan: gate.json's benchmarks with the command line's overrides, so
 * that what runs is decided in one place before anything runs.
 */
#include "gate/plan.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/adaptive.h"
#include "gate/suite.h"
#include "gate/verdict.h"
#include "stats/stats.h"
#include "common/banned.h"

int plan_make(struct plan *p, const struct config *cfg,
	      const struct plan_overrides *o)
{
	size_t i;

	if (o->filter) {
		regex_t rx;

		if (suite_filter_compile(&rx, o->filter) < 0)
			return -1;
		regfree(&rx);
	}
	p->n = cfg->nbench;
	p->bench = xcalloc(p->n ? p->n : 1, sizeof(*p->bench));
	for (i = 0; i < p->n; i++) {
		struct bench_cfg *b = &p->bench[i];

		*b = cfg->benches[i];
		if (o->pairs > 0) {
			b->pairs = (unsigned)o->pairs;
			if (b->max_pairs < b->pairs)
				b->max_pairs = b->pairs;
		}
		if (o->warmup >= 0)
			b->warmup = (unsigned)o->warmup;
	}
	p->budget = o->budget > 0 ? o->budget : cfg->budget;
	p->strict = o->strict;
	p->filter = o->filter;
	return 0;
}

/* The planned benchmark br runs, or NULL (a suite case's own config). */
static struct bench_cfg *planned(struct plan *p, const struct bench_run *br)
{
	size_t j;

	for (j = 0; j < p->n; j++)
		if (&p->bench[j] == br->cfg)
			return &p->bench[j];
	return NULL;
}

void plan_pairs(struct plan *p, struct run_report *r)
{
	double alpha = adaptive_alpha(r);
	const char *warned = NULL;
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct bench_run *br = &r->b[i].run;
		struct bench_cfg *b;
		unsigned need, from;

		if (br->is_new || br->is_removed || br->error)
			continue;
		need = adaptive_min_pairs(br->cfg, alpha);
		if (need <= br->cfg->pairs)
			continue;
		br->pairs_needed = need;
		from = br->cfg->pairs;
		if (br->suite_name && suite_raise_pairs(br, need)) {
			/* its first look re-runs the suite, filtered */
			br->pairs_raised_from = from;
			continue;
		}
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
		if (!(b = planned(p, br)))
			continue;
		br->pairs_raised_from = b->pairs;
		b->pairs = need;
		if (b->max_pairs < need)
			b->max_pairs = need;
	}
}

void plan_print(FILE *out, const struct plan *p, double confidence)
{
	size_t i, k, compared = 0, suites = 0;
	double level;

	for (i = 0; i < p->n; i++) {
		if (p->bench[i].format == FORMAT_TIME)
			compared += verdict_comparisons(&p->bench[i]);
		else
			suites++;
	}
	level = stats_bonferroni(confidence, compared ? compared : 1);
	fprintf(out, "plan: %zu benchmark%s, %zu suite%s; %zu comparison%s "
		"before suites' cases%s; one-sided level %.4g%% per "
		"comparison (%.4g%% for the run, Bonferroni)%s; budget %.0f s\n",
		p->n - suites, p->n - suites == 1 ? "" : "s", suites,
		suites == 1 ? "" : "s", compared, compared == 1 ? "" : "s",
		suites ? " (each suite case adds one)" : "", level * 100,
		confidence * 100, suites ? " before suites' cases" : "",
		p->budget);
	for (i = 0; i < p->n; i++) {
		const struct bench_cfg *b = &p->bench[i];
		unsigned need = adaptive_min_pairs(b, 1 - level);

		fprintf(out, "%s: %s, pairs %u..%u, %u warm-up", b->name,
			b->format == FORMAT_TIME ? "one process per sample" :
			format_name(b->format), b->pairs, b->max_pairs,
			b->warmup);
		if (b->format != FORMAT_TIME)
			fprintf(out, ", cases listed by the suite's first "
				"run%s", suite_can_filter(b) ? "; rounds "
				"through its filter" : "; one look");
		else if (need > b->pairs)
			fprintf(out, ", at least %u pairs for an interval at "
				"this level (raised)", need);
		fputc('\n', out);
		for (k = 0; k < b->nmetrics; k++)
			fprintf(out, "  %s: %s, floor %+.1f%%, pass_excludes "
				"%+.1f%%\n", b->format == FORMAT_TIME ?
				metric_name(b->metrics[k].id) : "value",
				b->metrics[k].gating ? "gating" :
				"informational", b->metrics[k].min_effect * 100,
				(p->strict ? b->metrics[k].min_effect :
				 b->metrics[k].pass_excludes) * 100);
		if (p->filter && b->format != FORMAT_TIME)
			fprintf(out, "  cases matching --filter \"%s\"\n",
				p->filter);
	}
}

void plan_release(struct plan *p)
{
	free(p->bench);
	p->bench = NULL;
	p->n = 0;
}
