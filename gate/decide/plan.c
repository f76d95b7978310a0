/*
 * The plan: gate.json's benchmarks with the command line's overrides, so
 * that what runs is decided in one place before anything runs.
 */
#include "gate/decide/plan.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/decide/adaptive.h"
#include "gate/config/config-table.h"
#include "gate/config/metrics.h"
#include "gate/decide/suite.h"
#include "gate/decide/suite-shard.h"
#include "gate/decide/verdict.h"
#include "gate/measure/measure-counted.h"
#include "stats/stats.h"
#include "common/banned.h"

static void add_diff(struct plan *p, char *line)
{
	XGROW(p->diff, p->diff_cap, p->ndiff + 1);
	p->diff[p->ndiff++] = line;
}

/* The first gating metric, which reports show one per benchmark. */
static void primary(struct bench_cfg *b)
{
	size_t k;

	for (k = 0; k < b->nmetrics; k++)
		if (b->metrics[k].gating) {
			b->metric = b->metrics[k].id;
			b->min_effect = b->metrics[k].min_effect;
			return;
		}
}

/* Bytes of a value a sentence shows whole; a longer one is cut. */
#define SHOWN_MAX 240

/* The first byte of the UTF-8 character holding s[i] (s[i] itself when
   it starts one): a cut never splits a character. */
static size_t char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/* v from byte from on, at most SHOWN_MAX bytes, "..." where cut (owned). */
static char *window(const char *v, size_t from)
{
	size_t len = strlen(v), to = from + SHOWN_MAX;
	char *out;

	if (from > len)
		from = len;
	from = char_start(v, from);
	if (to >= len)
		to = len;
	else
		to = char_start(v, to);
	out = xasprintf("%s%.*s%s", from ? "..." : "", (int)(to - from),
			v + from, to < len ? "..." : "");
	if (from || to < len) {
		char *sized = xasprintf("%s (%zu bytes)", out, len);

		free(out);
		out = sized;
	}
	return out;
}

/*
 * The two values of a difference (owned, replaced) made fit for one
 * sentence: whole when short, else each cut around the first byte where
 * they differ, so the difference itself is always in the sentence.
 */
static void shown(char **bv, char **hv)
{
	size_t d = 0, from;
	char *b, *h;

	if (strlen(*bv) <= SHOWN_MAX && strlen(*hv) <= SHOWN_MAX)
		return;
	while ((*bv)[d] && (*bv)[d] == (*hv)[d])
		d++;
	from = d > SHOWN_MAX / 4 ? d - SHOWN_MAX / 4 : 0;
	b = window(*bv, from);
	h = window(*hv, from);
	free(*bv);
	free(*hv);
	*bv = b;
	*hv = h;
}

/*
 * Every policy key of the table at one level: a benchmark's (b, head's
 * copy, against base's bb) or the config's (bench NULL). A difference is
 * one sentence in p->diff; base's value is adopted unless --policy head.
 * Nothing here names a key: the table says which keys are base's. Values
 * are compared as values (config_key_differs), every difference listed.
 */
static void policy_keys(struct plan *p, struct bench_cfg *b,
			const struct bench_cfg *bb, const struct config *cfg,
			const struct config *base, int head)
{
	const struct config_key *t, **differ;
	char **bv, **hv;
	size_t n, i, nd = 0;

	t = config_key_table(&n);
	differ = xcalloc(n ? n : 1, sizeof(*differ));
	bv = xcalloc(n ? n : 1, sizeof(*bv));
	hv = xcalloc(n ? n : 1, sizeof(*hv));
	/* every difference first, with both values: keys that share a field
	   (the metrics) are each compared before any is adopted */
	for (i = 0; i < n; i++) {
		const struct config_key *k = &t[i];

		if (k->owner != OWNER_POLICY || !k->adopt ||
		    !(k->scope & KEY_BENCH) != !b)
			continue;
		if (config_key_differs(k, base, bb, cfg, b, &bv[nd], &hv[nd]))
			differ[nd++] = k;
	}
	for (i = 0; i < nd; i++) {
		const struct config_key *k = differ[i];

		shown(&bv[i], &hv[i]);
		if (b)
			add_diff(p, xasprintf("head changes \"%s\" of `%s` from "
					      "%s to %s: %s value is used%s",
					      k->name, b->name, bv[i], hv[i],
					      head ? "head's" : "base's", head ?
					      " (--policy head)" : ""));
		else
			add_diff(p, xasprintf("head changes \"%s\" from %s to "
					      "%s: %s value is used%s",
					      k->name, bv[i], hv[i], head ?
					      "head's" : "base's", head ?
					      " (--policy head)" : ""));
		free(bv[i]);
		free(hv[i]);
		if (!head)
			k->adopt(k, &p->eff, b, base, bb);
	}
	free(differ);
	free(bv);
	free(hv);
	if (b && !head) {
		primary(b);
		if (b->max_pairs < b->pairs)
			b->max_pairs = b->pairs;
	}
}

/*
 * How head's definition of b differs from base's (bb), for the keys the
 * table says redefine a benchmark ("build", "check", "run", "format"):
 * one sentence naming each with base's and head's values side by side,
 * or NULL when the arms build, check and measure the same thing. The
 * top-level "build" builds every benchmark, so its change redefines each
 * one base declares.
 */
static char *redefinition(const struct bench_cfg *b,
			  const struct bench_cfg *bb,
			  const struct config *cfg, const struct config *base)
{
	const struct config_key *t;
	size_t n, i;
	char *out = NULL;

	t = config_key_table(&n);
	for (i = 0; i < n; i++) {
		char *bv, *hv, *more;

		if (!t[i].redefines ||
		    !config_key_differs(&t[i], base, bb, cfg, b, &bv, &hv))
			continue;
		shown(&bv, &hv);
		more = xasprintf("%s%s\"%s\": base %s, head %s", out ? out :
				 "", out ? "; " : "", t[i].name, bv, hv);
		free(out);
		free(bv);
		free(hv);
		out = more;
	}
	return out;
}

static void policy(struct plan *p, const struct config *cfg,
		   const struct config *base, int head)
{
	size_t i;

	policy_keys(p, NULL, NULL, cfg, base, head);
	p->confidence = p->eff.confidence;
	for (i = 0; i < p->n; i++) {
		struct bench_cfg *b = &p->bench[i];
		const struct bench_cfg *bb = config_find(base, b->name);

		if (!bb)
			continue;
		policy_keys(p, b, bb, cfg, base, head);
		if (head)
			continue;
		/* each arm runs its own revision's definition: the same text
		   unless redefined; a suite is never measured across a change
		   of its "run" or "format" (arms_measured), so its derived
		   commands (filters, shards) need no second one */
		b->judged = 1;
		b->redefined = redefinition(b, bb, cfg, base);
		if (b->redefined)
			b->base_def = bb;
	}
	for (i = 0; i < base->nbench; i++) {
		if (config_find(cfg, base->benches[i].name))
			continue;
		add_diff(p, xasprintf("head removes benchmark `%s`, which "
				      "base declares: %s",
				      base->benches[i].name, head ?
				      "not compared (--policy head)" :
				      "a fail unless a Gate-Accept trailer "
				      "accepts its removal"));
		if (head)
			continue;
		XGROW(p->removed, p->removed_cap, p->nremoved + 1);
		p->removed[p->nremoved++] = &base->benches[i];
	}
}

/* --filter must compile before anything runs. */
static int filter_check(const char *filter, struct gate_err *err)
{
	regex_t rx;

	if (suite_filter_compile(&rx, filter, err) < 0)
		return -1;
	regfree(&rx);
	return 0;
}

/*
 * A floor above 50% is legal (only a huge regression fails) but is more
 * often a percentage written as a number: "min_effect": 5 is +500%.
 * Said once per floor in force, whoever's gate.json set it.
 */
static void floor_warn(const struct plan *p)
{
	size_t i, k;

	for (i = 0; i < p->n; i++)
		for (k = 0; k < p->bench[i].nmetrics; k++)
			if (p->bench[i].metrics[k].min_effect > 0.5)
				warning("benchmark \"%s\": the floor of %s is "
					"+%g%% (\"min_effect\": %g): a "
					"fraction is meant, 0.05 for 5%%",
					p->bench[i].name,
					metric_name(p->bench[i].metrics[k].id),
					p->bench[i].metrics[k].min_effect * 100,
					p->bench[i].metrics[k].min_effect);
}

int plan_make(struct plan *p, const struct config *cfg,
	      const struct config *base, const char *no_base,
	      const struct plan_overrides *o, struct gate_err *err)
{
	size_t i;

	if (o->filter && filter_check(o->filter, err) < 0)
		return -1;
	p->n = cfg->nbench;
	p->bench = xcalloc(p->n ? p->n : 1, sizeof(*p->bench));
	for (i = 0; i < p->n; i++)
		p->bench[i] = cfg->benches[i];
	p->eff = *cfg;
	p->confidence = cfg->confidence;
	if (base) {
		policy(p, cfg, base, o->policy_head);
		p->policy = xstrdup(o->policy_head ?
			"head's gate.json decides (--policy head): base's "
			"policy keys are not enforced and head's commands run "
			"in both arms" :
			"base's gate.json decides every policy key (gate help "
			"gate.json lists them); each arm is built and run by "
			"its own gate.json; head's declares new benchmarks");
	} else {
		p->policy = xstrdup(no_base ? no_base : "head's gate.json "
				    "decides: base has none");
	}
	for (i = 0; i < p->n; i++) {
		struct bench_cfg *b = &p->bench[i];

		if (o->pairs > 0) {
			b->pairs = (unsigned)o->pairs;
			if (b->max_pairs < b->pairs)
				b->max_pairs = b->pairs;
		}
		if (o->warmup >= 0)
			b->warmup = (unsigned)o->warmup;
	}
	p->budget = o->budget > 0 ? o->budget : p->eff.budget;
	floor_warn(p);
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

size_t plan_comparisons(const struct plan *p)
{
	size_t i, compared = p->elsewhere;

	for (i = 0; i < p->n; i++)
		if (p->bench[i].format == FORMAT_TIME)
			compared += verdict_comparisons(&p->bench[i]);
	return compared;
}

int plan_lists(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->bench[i].format != FORMAT_TIME &&
		    suite_can_list(&p->bench[i]))
			return 1;
	return 0;
}

void plan_print(FILE *out, const struct plan *p, double confidence)
{
	size_t i, k, compared = plan_comparisons(p), suites = 0, nsplit;
	double level;

	for (i = 0; i < p->n; i++)
		suites += p->bench[i].format != FORMAT_TIME;
	level = stats_bonferroni(confidence, compared ? compared : 1);
	for (i = nsplit = 0; p->split && i < p->n; i++)
		nsplit += p->split[i];
	if (p->nshards)
		fprintf(out, "shard %u/%u: %zu of the plan's benchmarks; the "
			"other shards' add %zu comparison%s%s\n", p->shard,
			p->nshards, p->n - nsplit, p->elsewhere,
			p->elsewhere == 1 ? "" : "s", nsplit ?
			"; suites split by case: a share of each, the "
			"others' cases counted once listed" : "");
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
			fprintf(out, ", cases listed by %s%s",
				suite_can_list(b) ? "its harness (below, "
				"once both arms are built)" : "the suite's "
				"first run", !suite_can_filter(b) ? "; one look" :
				suite_counted_alone(b) ? "; rounds of the whole "
				"suite (a case's count follows the cases before "
				"it)" : "; rounds through its filter");
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
		if (b->redefined)
			fprintf(out, "  redefined (%s): a fail unless a "
				"Gate-Accept trailer accepts it\n",
				b->redefined);
	}
	for (i = 0; i < p->nremoved; i++)
		fprintf(out, "%s: removed (base declares it, head does not): a "
			"fail unless a Gate-Accept trailer accepts it\n",
			p->removed[i]->name);
}

void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->ndiff; i++)
		free(p->diff[i]);
	free(p->diff);
	p->diff = NULL;
	p->ndiff = p->diff_cap = 0;
	free(p->policy);
	p->policy = NULL;
	for (i = 0; p->bench && i < p->n; i++)
		free(p->bench[i].redefined);
	free(p->removed);
	p->removed = NULL;
	p->nremoved = p->removed_cap = 0;
	free(p->bench);
	p->bench = NULL;
	free(p->split);
	p->split = NULL;
	p->n = 0;
}

/* FNV-1a, 64 bits: the plan's fingerprint, not a security measure. */
static void hash_bytes(unsigned long long *h, const void *data, size_t n)
{
	const unsigned char *c = data;

	while (n--) {
		*h ^= *c++;
		*h *= 1099511628211ULL;
	}
	*h ^= 0xff;	/* a separator, so "ab","c" differs from "a","bc" */
	*h *= 1099511628211ULL;
}

static void hash_str(unsigned long long *h, const char *s)
{
	hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 0);
}

static void hash_num(unsigned long long *h, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	hash_str(h, buf);
}

static void hash_bench(unsigned long long *h, const struct bench_cfg *b)
{
	size_t k;

	hash_str(h, b->name);
	hash_str(h, b->run.shell);
	for (k = 0; b->run.argv && b->run.argv[k]; k++)
		hash_str(h, b->run.argv[k]);
	hash_num(h, b->format);
	hash_num(h, b->pairs);
	hash_num(h, b->max_pairs);
	hash_num(h, b->warmup);
	hash_num(h, b->timeout);
	hash_num(h, b->counter);
	hash_num(h, b->statistic);
	hash_num(h, b->interval);
	hash_num(h, b->rule);
	hash_num(h, b->target_halfwidth);
	for (k = 0; k < b->nmetrics; k++) {
		hash_num(h, b->metrics[k].id);
		hash_num(h, b->metrics[k].min_effect);
		hash_num(h, b->metrics[k].pass_excludes);
		hash_num(h, b->metrics[k].gating);
	}
	for (k = 0; k < b->nexpect; k++)
		hash_str(h, b->expect[k]);
	for (k = 0; k < b->nignore; k++)
		hash_str(h, b->ignore[k]);
}

unsigned plan_shard_of(const char *name, const char *const *names, size_t n,
		       unsigned nshards)
{
	size_t i, rank = 0;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) < 0)
			rank++;
	return (unsigned)(rank % nshards) + 1;
}

/* A suite split by its cases over the shards (suite-shard.h)? */
static int splits(const struct bench_cfg *b, const struct config *base)
{
	return b->format != FORMAT_TIME && suite_can_list(b) &&
	       (!base || config_find(base, b->name));
}

void plan_shard(struct plan *p, const struct config *base,
		const struct plan_overrides *o)
{
	unsigned long long h = 14695981039346656037ULL;
	const char **names;
	size_t i, kept = 0, dealt = 0;

	hash_num(&h, p->confidence);
	hash_num(&h, p->budget);
	hash_num(&h, p->strict);
	hash_str(&h, p->filter);
	hash_num(&h, o->nshards);
	for (i = 0; i < p->n; i++)
		hash_bench(&h, &p->bench[i]);
	snprintf(p->hash, sizeof(p->hash), "%016llx", h);
	if (!o->nshards)
		return;
	p->shard = o->shard;
	p->nshards = o->nshards;
	p->elsewhere = 0;
	names = xcalloc(p->n ? p->n : 1, sizeof(*names));
	p->split = xcalloc(p->n ? p->n : 1, sizeof(*p->split));
	for (i = 0; i < p->n; i++)
		if (!splits(&p->bench[i], base))
			names[dealt++] = p->bench[i].name;
	for (i = 0; i < p->n; i++) {
		struct bench_cfg *b = &p->bench[i];

		if (splits(b, base)) {
			/* in every shard: split by case once built */
			p->split[kept] = 1;
			p->bench[kept++] = *b;
			continue;
		}
		if (plan_shard_of(b->name, names, dealt, o->nshards) ==
		    o->shard) {
			p->split[kept] = 0;
			p->bench[kept++] = *b;
			continue;
		}
		free(b->redefined);	/* another shard's: dropped */
		b->redefined = NULL;
		/* another shard's: counted here when it will be compared */
		if (b->format == FORMAT_TIME &&
		    (!base || config_find(base, b->name)))
			p->elsewhere += verdict_comparisons(b);
	}
	p->n = kept;
	free(names);
}

int plan_parse_shard(unsigned *shard, unsigned *nshards, const char *s)
{
	unsigned long i, n;
	char *end;

	if (*s < '0' || *s > '9')
		goto bad;
	i = strtoul(s, &end, 10);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		goto bad;
	n = strtoul(end + 1, &end, 10);
	if (*end || n < 1 || n > 256 || i < 1 || i > n)
		goto bad;
	*shard = (unsigned)i;
	*nshards = (unsigned)n;
	return 0;
bad:
	return error("--shard takes I/N, shard I of N with 1 <= I <= N <= "
		     "256 (as 2/4), not \"%s\"", s);
}
