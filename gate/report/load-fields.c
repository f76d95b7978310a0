/*
 * The JSON report's fields, declared once (fields.h): the tables, and the
 * two walks over them, json.c's writer and load*.c's reader.
 */
#include "gate/report/load-fields.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/exec/sysinfo.h"
#include "gate/report/load-internal.h"
#include "gate/report/report.h"
#include "common/banned.h"

/* an FIELD_ENUM member is read and written as an int */
_Static_assert(sizeof(enum rule) == sizeof(int) &&
	       sizeof(enum stats_estimator) == sizeof(int) &&
	       sizeof(enum interval_method) == sizeof(int) &&
	       sizeof(enum counter) == sizeof(int) &&
	       sizeof(enum verdict) == sizeof(int),
	       "an enum of a FIELD_ENUM row is not an int");

#define ROW(n, k, o) .name = n, .kind = k, .off = o
#define END { .name = NULL }
#define OBJ(n, t) { ROW(n, FIELD_OBJECT, 0), .sub = t }
#define SAID(n, f) { ROW(n, FIELD_SAID, 0), .said = f }
#define WORDS(n, w) ROW(n, FIELD_SAID, 0), .what = w

/* s as a JSON string, s freed */
static cJSON *said(char *s)
{
	cJSON *o = cJSON_CreateString(s);

	free(s);
	return o;
}

#define M(f) offsetof(struct machine, f)
#define TEXT(n, f) { ROW(n, FIELD_TEXT, M(f)), \
	.size = sizeof(((struct machine *)0)->f) }
const struct field machine_fields[] = {
	TEXT("cpu", cpu),
	{ ROW("cores", FIELD_LONG, M(cores)), .hi = 1L << 30 },
	TEXT("smt", smt),
	TEXT("governor", governor),
	TEXT("turbo", turbo),
	TEXT("virtualisation", virt),
	TEXT("kernel", kernel),
	TEXT("aslr", aslr),
	TEXT("isolated_cpus", isolated),
	TEXT("container", container),
	TEXT("cpu_quota", cpu_quota),
	TEXT("hardware_counters", counters),
	{ ROW("perf_event_paranoid", FIELD_INT, M(perf_paranoid)), .lo = -99,
	  .hi = 99 },
	{ ROW("load_before", FIELD_NUMS, M(load_before)), .size = 3 },
	{ ROW("load_after", FIELD_NUMS, M(load_after)), .size = 3 },
	END
};
#undef TEXT
#undef M

#define S(f) offsetof(struct bench_stats, f)
static const struct field ratio_fields[] = {
	{ ROW("estimate", FIELD_NUM, S(estimate)) },
	{ ROW("median", FIELD_NUM, S(median)) },
	{ ROW("low", FIELD_NUM, S(low)) },
	{ ROW("high", FIELD_NUM, S(high)) },
	{ ROW("level", FIELD_NUM, S(level)) },
	{ ROW("geomean", FIELD_NUM, S(geomean)) },
	END
};
static const struct field tests_fields[] = {
	{ ROW("wilcoxon_p", FIELD_NUM, S(wilcoxon_p)) },
	{ ROW("mann_whitney_p", FIELD_NUM, S(mann_whitney_p)) },
	END
};
static const struct field wins_fields[] = {
	{ ROW("head_slower", FIELD_COUNT, S(head_slower)) },
	{ ROW("of", FIELD_COUNT, S(of)) },
	{ ROW("p", FIELD_NUM, S(sign_p)) },
	END
};
static const struct field base_fields[] = {
	{ ROW("median", FIELD_NUM, S(base_median)) },
	{ ROW("cv", FIELD_NUM, S(base_cv)) },
	END
};
static const struct field head_fields[] = {
	{ ROW("median", FIELD_NUM, S(head_median)) },
	{ ROW("cv", FIELD_NUM, S(head_cv)) },
	END
};
const struct field stats_fields[] = {
	OBJ("ratio", ratio_fields),
	/* the largest regression the data excludes, pass or not */
	{ ROW("excluded_above", FIELD_NUM, S(high)), .flags = FIELD_UNREAD },
	{ ROW("pass_excludes", FIELD_NUM, S(excludes)) },
	{ ROW("one_sided", FIELD_TRUE, 0), .flags = FIELD_UNREAD },
	{ ROW("strict", FIELD_BOOL, S(strict)) },
	{ ROW("min_pairs_for_interval", FIELD_COUNT, S(min_n)),
	  .flags = FIELD_IF_SET },
	OBJ("tests", tests_fields),
	{ ROW("outliers", FIELD_COUNT, S(outliers)) },
	{ ROW("drift", FIELD_NUM, S(drift)) },
	OBJ("wins", wins_fields),
	OBJ("base", base_fields),
	OBJ("head", head_fields),
	END
};

#define ENUM(name, last, lo_) .name_of = name##_at, .what = #name, \
	.lo = lo_, .hi = (last) + 1
/* a metric's verdict, and after its floor and method the facts the
   method's sentence says */
const struct field metric_verdict_fields[] = {
	{ ROW("gating", FIELD_BOOL, S(gating)) },
	{ ROW("verdict", FIELD_ENUM, S(verdict)),
	  ENUM(verdict, VERDICT_ACCEPTED, VERDICT_ERROR) },
	{ ROW("reason", FIELD_STR, S(reason)),
	  .flags = FIELD_IF_SET | FIELD_OWN },
	END
};
const struct field metric_method_fields[] = {
	{ ROW("exact", FIELD_BOOL, S(exact)) },
	/* absent (a report from before it): the config's interval */
	{ ROW("interval_used", FIELD_ENUM, S(interval_used)),
	  .flags = FIELD_KEEP,
	  ENUM(interval, INTERVAL_MANN_WHITNEY, INTERVAL_EXACT) },
	{ ROW("interval_why", FIELD_STR_OR_NULL, S(interval_why)) },
	{ ROW("improved", FIELD_BOOL, S(improved)) },
	{ ROW("counts_vary", FIELD_BOOL, S(varies)) },
	END
};
#undef S

static cJSON *dirty_said(const void *b)
{
	const struct report_rev *v = b;

	return v->worktree ? cJSON_CreateBool(v->dirty) : NULL;
}
#define R(f) offsetof(struct report_rev, f)
const struct field rev_fields[] = {
	{ ROW("rev", FIELD_STR, R(label)) },
	{ ROW("commit", FIELD_STR, R(commit)) },
	{ ROW("tree", FIELD_STR, R(tree)) },
	{ ROW("chosen_as", FIELD_STR, R(how)), .flags = FIELD_IF_SET },
	SAID("uncommitted_changes", dirty_said),
	END
};
#undef R

#define A(f) offsetof(struct verdict_accept, f)
const struct field accept_fields[] = {
	{ ROW("pattern", FIELD_STR, A(pattern)) },
	{ ROW("bound", FIELD_NUM0, A(bound)) },
	{ ROW("commit", FIELD_STR, A(commit)) },
	{ ROW("reason", FIELD_STR, A(reason)) },
	END
};
#undef A

#define P(arm, f) offsetof(struct pair_result, s) + \
	(arm) * sizeof(struct sample) + offsetof(struct sample, f)
const struct field pair_fields[] = {
	{ ROW("base_wall", FIELD_NUM, P(ARM_BASE, wall)) },
	{ ROW("head_wall", FIELD_NUM, P(ARM_HEAD, wall)) },
	{ ROW("base_cpu", FIELD_NUM, P(ARM_BASE, cpu)) },
	{ ROW("head_cpu", FIELD_NUM, P(ARM_HEAD, cpu)) },
	{ ROW("base_maxrss_kb", FIELD_LONG, P(ARM_BASE, maxrss_kb)),
	  .hi = LONG_MAX / 2 },
	{ ROW("head_maxrss_kb", FIELD_LONG, P(ARM_HEAD, maxrss_kb)),
	  .hi = LONG_MAX / 2 },
	END
};
#undef P

/* a benchmark's rows: of its run, or of its config (through run.cfg) */
#define B(f) offsetof(struct run_bench, run.f)
#define C(f) offsetof(struct bench_cfg, f)
#define VIA .flags = FIELD_VIA, .via = offsetof(struct run_bench, run.cfg)
const struct field bench_protocol_fields[] = {
	{ ROW("min_effect", FIELD_NUM0, C(min_effect)), VIA },
	{ ROW("warmup", FIELD_UNSIGNED, C(warmup)), VIA, .hi = UINT_MAX },
	/* the samples say how many: "pairs" is for readers */
	{ ROW("pairs", FIELD_COUNT, B(npairs)), .flags = FIELD_UNREAD },
	{ ROW("min_pairs", FIELD_UNSIGNED, C(pairs)), VIA, .hi = UINT_MAX },
	{ ROW("max_pairs", FIELD_UNSIGNED, C(max_pairs)), VIA,
	  .hi = UINT_MAX },
	/* measuring time, warm-ups in (a suite case: its suite's) */
	{ ROW("seconds", FIELD_NUM0, B(seconds)) },
	{ ROW("pairs_raised_from", FIELD_UNSIGNED, B(pairs_raised_from)),
	  .flags = FIELD_IF_SET, .hi = UINT_MAX },
	{ ROW("pairs_needed", FIELD_UNSIGNED, B(pairs_needed)),
	  .flags = FIELD_IF_SET, .hi = UINT_MAX },
	{ ROW("target_halfwidth", FIELD_NUM0, C(target_halfwidth)), VIA },
	{ ROW("rule", FIELD_ENUM, C(rule)), VIA,
	  ENUM(rule, RULE_SIGNIFICANT, RULE_FLOOR) },
	{ ROW("statistic", FIELD_ENUM, C(statistic)), VIA,
	  ENUM(statistic, STATS_MEAN, STATS_HL) },
	{ ROW("interval", FIELD_ENUM, C(interval)), VIA,
	  ENUM(interval, INTERVAL_MANN_WHITNEY, INTERVAL_EXACT) },
	END
};
const struct field bench_taken_fields[] = {
	{ ROW("counter", FIELD_ENUM, B(counter)),
	  ENUM(counter, COUNTER_VALGRIND, COUNTER_AUTO) },
	{ ROW("plain_runs", FIELD_BOOL, B(plain_runs)) },
	/* 0 (not counted in parallel) is one at a time */
	{ ROW("parallel", FIELD_UNSIGNED, B(parallel)), .lo = 1, .hi = 1024 },
	{ ROW("alloc_lib", FIELD_STR_OR_NULL, B(alloc_lib)),
	  .flags = FIELD_OWN },
	END
};
#undef ENUM
#undef VIA
#undef C
#undef B

/* what each arm's environment was; parity checked means stdout compared
   (a suite's: its cases) */
static cJSON *parity_said(const struct bench_run *br, enum arm a)
{
	if (br->suite_name)
		return said(xasprintf("same cases in %zu samples",
				      br->nsamples[a]));
	if (!br->cfg->parity)
		return cJSON_CreateString("not checked (parity: false)");
	return said(xasprintf("identical in %zu samples", br->nsamples[a]));
}
static cJSON *parity_base(const void *b) { return parity_said(b, ARM_BASE); }
static cJSON *parity_head(const void *b) { return parity_said(b, ARM_HEAD); }
static cJSON *parity_checked(const void *b)
{
	const struct bench_run *br = b;

	return cJSON_CreateBool(br->suite_name || br->cfg->parity);
}
/* every artifact's SHA-256 per arm (null: no such file in that arm) */
static cJSON *artifact_differs(const void *b)
{
	const struct artifact_hash *h = b;

	return cJSON_CreateBool(strcmp(h->sha256[0], h->sha256[1]) != 0);
}
#define H(f) offsetof(struct artifact_hash, f)
static const struct field artifact_fields[] = {
	{ ROW("path", FIELD_STR, H(path)), .flags = FIELD_OWN },
	{ ROW("base", FIELD_TEXT, H(sha256[ARM_BASE])), .flags = FIELD_NULL0,
	  .size = sizeof(((struct artifact_hash *)0)->sha256[0]) },
	{ ROW("head", FIELD_TEXT, H(sha256[ARM_HEAD])), .flags = FIELD_NULL0,
	  .size = sizeof(((struct artifact_hash *)0)->sha256[0]) },
	SAID("differ", artifact_differs),
	END
};
#undef H
static cJSON *identical_said(const void *b)
{
	return cJSON_CreateBool(((const struct bench_run *)b)->identical != 0);
}
static cJSON *measured_said(const void *b)
{
	return cJSON_CreateBool(((const struct bench_run *)b)->identical != 1);
}
#define R(f) offsetof(struct bench_run, f)
const struct field artifacts_fields[] = {
	SAID("identical", identical_said),
	SAID("measured", measured_said),
	{ ROW("files", FIELD_LIST, R(artifacts)), .flags = FIELD_OWN,
	  .sub = artifact_fields, .size = sizeof(struct artifact_hash),
	  .count = R(nartifacts) },
	END
};
const struct field parity_fields[] = {
	SAID("base", parity_base),
	SAID("head", parity_head),
	{ ROW("arms_differ", FIELD_BOOL, R(parity_differs)) },
	/* the figures of the sentences above, as data: a reader never
	   parses gate's prose back */
	SAID("checked", parity_checked),
	{ ROW("base_samples", FIELD_COUNT, R(nsamples[ARM_BASE])) },
	{ ROW("head_samples", FIELD_COUNT, R(nsamples[ARM_HEAD])) },
	END
};
#undef R

static const struct field split_fields[] = {
	{ ROW("suite", FIELD_STR, offsetof(struct run_split, suite)) },
	{ ROW("cases", FIELD_COUNT, offsetof(struct run_split, cases)) },
	END
};

/* the view's words for the run's method */
static cJSON *interval_said(const void *r)
{
	char iv[REPORT_METHOD_MAX];

	return cJSON_CreateString(report_run_interval(r, iv, sizeof(iv)));
}
static cJSON *rule_said(const void *r) { return said(report_rule_text(r)); }
static cJSON *promise_said(const void *r)
{
	return said(report_promise_text(r));
}

#define T(f) offsetof(struct run_report, f)
/* which config decided, how head's differs, how the arms were sealed (absent
   from reports before it was); how the run measured and decided: the seed
   and order, the statistic, the interval, the rule and promise, the looks
   and the levels */
const struct field protocol_fields[] = {
	{ ROW("config", FIELD_STR, T(config_origin)) },
	{ ROW("config_note", FIELD_STR, T(config_note)),
	  .flags = FIELD_IF_SET },
	{ ROW("policy", FIELD_STR_OR_NULL, T(policy)) },
	{ ROW("policy_differences", FIELD_STRS, T(policy_diff)),
	  .count = T(npolicy_diff) },
	{ ROW("isolation", FIELD_STR, T(isolation)), .flags = FIELD_IF_SET },
	/* an unsigned long, read as the long it aliases */
	{ ROW("seed", FIELD_LONG, T(seed)), .hi = 4294967295L },
	{ WORDS("order", "random pairs, balanced"), .flags = FIELD_RUN },
	{ WORDS("statistic", "per benchmark, of the log head/base ratios "
		"(see benchmarks[])"), .flags = FIELD_RUN },
	SAID("interval", interval_said),
	SAID("decision", rule_said),
	SAID("promise", promise_said),
	/* absent (a report from before it): adjusted_confidence */
	{ ROW("one_sided_level", FIELD_NUM0, T(level)), .flags = FIELD_KEEP },
	{ WORDS("looks", "pairs, then for unresolved benchmarks rounds that "
		"each add half the pairs in hand, up to max_pairs or until "
		"the budget is spent (shared fairly); half of each "
		"benchmark's alpha at the first look, the rest in equal "
		"shares over the later looks up to max_pairs, or under a "
		"budget up to the pairs it can reach at the first look's "
		"pace (union bound); a fail is final"), .flags = FIELD_RUN },
	{ ROW("strict", FIELD_BOOL, T(strict)) },
	{ ROW("budget_seconds", FIELD_NUM0, T(budget)), .flags = FIELD_NULL0 },
	{ ROW("resamples", FIELD_UNSIGNED, T(resamples)), .hi = 1L << 30 },
	{ ROW("confidence", FIELD_NUM0, T(confidence)) },
	{ ROW("adjusted_confidence", FIELD_NUM0, T(level)),
	  .flags = FIELD_UNREAD },
	{ WORDS("adjustment", "bonferroni") },
	{ ROW("compared", FIELD_COUNT, T(compared)) },
	{ ROW("one_process_cases", FIELD_COUNT, T(one_process)),
	  .flags = FIELD_IF_SET },
	{ ROW("config_hash", FIELD_STR, T(config_hash)),
	  .flags = FIELD_IF_SET },
	END
};
/* gate run --shard I/N: what gate merge checks, and for suites split by
   case, every shard's cases */
const struct field shard_fields[] = {
	{ ROW("index", FIELD_UNSIGNED, T(shard)), .hi = UINT_MAX },
	{ ROW("count", FIELD_UNSIGNED, T(nshards)), .hi = UINT_MAX },
	{ ROW("compared_elsewhere", FIELD_COUNT, T(elsewhere)) },
	{ ROW("split", FIELD_LIST, T(split)), .flags = FIELD_IF_SET,
	  .sub = split_fields, .size = sizeof(struct run_split),
	  .count = T(nsplit) },
	END
};
static const struct field build_fields[] = {
	{ ROW("base", FIELD_NUM0, T(build_seconds[ARM_BASE])) },
	{ ROW("head", FIELD_NUM0, T(build_seconds[ARM_HEAD])) },
	END
};
const struct field time_fields[] = {
	OBJ("build", build_fields),
	{ ROW("measuring", FIELD_NUM0, T(measure_seconds)) },
	{ ROW("total", FIELD_NUM0, T(total_seconds)) },
	END
};

/* the root after its schema, version, verdict and signal */
const struct field report_fields[] = {
	{ ROW("command", FIELD_STR, T(command)), .flags = FIELD_IF_SET },
	{ ROW("note", FIELD_STR, T(note)), .flags = FIELD_IF_SET },
	{ ROW("exit_code", FIELD_UNSIGNED, T(exit_code)), .hi = 255 },
	{ ROW("advisory", FIELD_BOOL, T(advisory)) },
	{ ROW("base", FIELD_OBJECT, T(rev[ARM_BASE])), .sub = rev_fields },
	{ ROW("head", FIELD_OBJECT, T(rev[ARM_HEAD])), .sub = rev_fields },
	/* read with its computed tail by load_protocol */
	{ ROW("protocol", FIELD_OBJECT, 0), .sub = protocol_fields,
	  .flags = FIELD_UNREAD },
	{ ROW("time", FIELD_OBJECT, 0), .sub = time_fields },
	{ ROW("environment", FIELD_OBJECT, T(machine)), .sub = machine_fields },
	{ ROW("error", FIELD_STR_OR_NULL, T(error)) },
	END
};
#undef T
#undef WORDS
#undef SAID
#undef OBJ
#undef END
#undef ROW

/* the member of the struct at base a row names (read only in CAT) */
static void *at(const void *base, const struct field *f)
{
	if (f->flags & FIELD_VIA)
		base = *(const void *const *)(const void *)
			((const char *)base + f->via);
	return (char *)base + f->off;	/* writable when the caller's is */
}
#define AT(type, base, f) ((type *)at(base, f))
#define CAT(type, base, f) ((const type *)at(base, f))
/* FIELD_STRS: the count of the list a row names */
#define COUNT(base, f) ((size_t *)(void *)((char *)(base) + (f)->count))

void fields_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

void fields_write(cJSON *o, const struct field *f, const void *b)
{
	for (; f->name; f++) {
		const char *const *list;
		const char *s;
		cJSON *x, *e;
		size_t i;
		unsigned u;

		switch (f->kind) {
		case FIELD_TEXT:
			if (f->flags & FIELD_NULL0 && !*CAT(char, b, f))
				cJSON_AddNullToObject(o, f->name);
			else
				cJSON_AddStringToObject(o, f->name,
							CAT(char, b, f));
			break;
		case FIELD_STR:
			s = *CAT(char *, b, f);
			if (s || !(f->flags & FIELD_IF_SET))
				cJSON_AddStringToObject(o, f->name,
							s ? s : "");
			break;
		case FIELD_STR_OR_NULL:
			s = *CAT(char *, b, f);
			if (s)
				cJSON_AddStringToObject(o, f->name, s);
			else
				cJSON_AddNullToObject(o, f->name);
			break;
		case FIELD_NUM:
		case FIELD_NUM0:
			if (f->flags & FIELD_NULL0 && !*CAT(double, b, f))
				cJSON_AddNullToObject(o, f->name);
			else
				fields_num(o, f->name, *CAT(double, b, f));
			break;
		case FIELD_COUNT:
			if (*CAT(size_t, b, f) || !(f->flags & FIELD_IF_SET))
				cJSON_AddNumberToObject(o, f->name,
					(double)*CAT(size_t, b, f));
			break;
		case FIELD_UNSIGNED:
			u = *CAT(unsigned, b, f);
			if (u || !(f->flags & FIELD_IF_SET))
				cJSON_AddNumberToObject(o, f->name,
					(long)u < f->lo ? (double)f->lo :
					(double)u);
			break;
		case FIELD_LONG:
			cJSON_AddNumberToObject(o, f->name,
						(double)*CAT(long, b, f));
			break;
		case FIELD_INT:
			if (*CAT(int, b, f) != f->lo)
				cJSON_AddNumberToObject(o, f->name,
							*CAT(int, b, f));
			else
				cJSON_AddNullToObject(o, f->name);
			break;
		case FIELD_BOOL:
			cJSON_AddBoolToObject(o, f->name, *CAT(int, b, f));
			break;
		case FIELD_ENUM:
			cJSON_AddStringToObject(o, f->name,
						f->name_of(*CAT(int, b, f)));
			break;
		case FIELD_NUMS:
			cJSON_AddItemToObject(o, f->name,
				cJSON_CreateDoubleArray(CAT(double, b, f),
							(int)f->size));
			break;
		case FIELD_OBJECT:
			fields_write(cJSON_AddObjectToObject(o, f->name),
				     f->sub, CAT(char, b, f));
			break;
		case FIELD_TRUE:
			cJSON_AddTrueToObject(o, f->name);
			break;
		case FIELD_SAID:
			/* gate compare's report: no order nor looks */
			if (f->flags & FIELD_RUN &&
			    ((const struct run_report *)b)->command)
				break;
			x = f->said ? f->said(b) : cJSON_CreateString(f->what);
			if (x)
				cJSON_AddItemToObject(o, f->name, x);
			break;
		case FIELD_STRS:
			x = cJSON_AddArrayToObject(o, f->name);
			list = *CAT(char *const *, b, f);
			for (i = 0; i < *COUNT(b, f); i++)
				cJSON_AddItemToArray(x,
						     cJSON_CreateString(list[i]));
			break;
		case FIELD_LIST:
			if (!*COUNT(b, f) && f->flags & FIELD_IF_SET)
				break;
			x = cJSON_AddArrayToObject(o, f->name);
			for (i = 0; i < *COUNT(b, f); i++) {
				cJSON_AddItemToArray(x, e = cJSON_CreateObject());
				fields_write(e, f->sub, *CAT(char *, b, f) +
					     i * f->size);
			}
			break;
		}
	}
}

void fields_read(const cJSON *o, const struct field *f, void *b,
		 struct loading *ld)
{
	for (; f->name; f++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, f->name);
		const char *s = cJSON_IsString(x) ? x->valuestring : NULL;
		const char **list;
		const cJSON *it;
		char *p;
		size_t i;

		if (f->flags & FIELD_UNREAD ||
		    (!x && f->flags & FIELD_KEEP))
			continue;
		switch (f->kind) {
		case FIELD_TEXT:
			snprintf(AT(char, b, f), f->size, "%s", s ? s :
				 f->flags & FIELD_NULL0 ? "" : "unknown");
			break;
		case FIELD_STR:
		case FIELD_STR_OR_NULL:
			if (!s && (f->kind == FIELD_STR_OR_NULL ||
				   f->flags & FIELD_IF_SET))
				*AT(const char *, b, f) = NULL;
			else if (f->flags & FIELD_OWN)
				*AT(char *, b, f) = xstrdup(s ? s : "");
			else
				*AT(const char *, b, f) =
					load_keep(ld->L, s ? s : "");
			break;
		case FIELD_NUM:
			*AT(double, b, f) = load_num(o, f->name, NAN);
			break;
		case FIELD_NUM0:
			*AT(double, b, f) = load_num(o, f->name, 0);
			break;
		case FIELD_COUNT:
			*AT(size_t, b, f) = load_count(o, f->name);
			break;
		case FIELD_UNSIGNED:
			*AT(unsigned, b, f) = (unsigned)load_whole(o, f->name,
							f->lo, f->lo, f->hi);
			break;
		case FIELD_LONG:
			*AT(long, b, f) = load_whole(o, f->name, f->lo,
						     f->lo, f->hi);
			break;
		case FIELD_INT:
			*AT(int, b, f) = (int)load_whole(o, f->name, f->lo,
							 f->lo, f->hi);
			break;
		case FIELD_BOOL:
			*AT(int, b, f) = cJSON_IsTrue(x);
			break;
		case FIELD_ENUM:
			*AT(int, b, f) = load_name(ld, s, (int)f->hi,
						   (int)f->lo, f->what,
						   f->name_of);
			break;
		case FIELD_NUMS:
			for (i = 0; i < f->size; i++) {
				const cJSON *v = cJSON_GetArrayItem(x, (int)i);

				AT(double, b, f)[i] = cJSON_IsNumber(v) ?
						      v->valuedouble : -1;
			}
			break;
		case FIELD_OBJECT:
			fields_read(x, f->sub, AT(char, b, f), ld);
			break;
		case FIELD_TRUE:
		case FIELD_SAID:
			break;
		case FIELD_STRS:
			if (!cJSON_IsArray(x) || !cJSON_GetArraySize(x))
				break;
			list = load_keep_mem(ld->L, sizeof(*list) *
					     (size_t)cJSON_GetArraySize(x));
			*AT(const char **, b, f) = list;
			*COUNT(b, f) = 0;
			cJSON_ArrayForEach(it, x)
				if (cJSON_IsString(it))
					list[(*COUNT(b, f))++] =
						load_keep(ld->L, it->valuestring);
			break;
		case FIELD_LIST:
			if (!cJSON_IsArray(x) || !(i = (size_t)
						   cJSON_GetArraySize(x)))
				break;
			p = f->flags & FIELD_OWN ? xcalloc(i, f->size) :
			    load_keep_mem(ld->L, i * f->size);
			*AT(char *, b, f) = p;
			*COUNT(b, f) = i;
			cJSON_ArrayForEach(it, x) {
				fields_read(it, f->sub, p, ld);
				p += f->size;
			}
			break;
		}
	}
}
