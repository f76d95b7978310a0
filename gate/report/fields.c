/*
 * The JSON report's fields, declared once (fields.h): the tables, and the
 * two walks over them, json.c's writer and load*.c's reader.
 */
#include "gate/report/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gate/report/load-internal.h"
#include "gate/exec/sysinfo.h"
#include "common/banned.h"

#define M(f) offsetof(struct machine, f)
#define TEXT(name, f) { name, FIELD_TEXT, M(f), sizeof(((struct machine *)0)->f), NULL, 0, 0, 0 }
const struct field machine_fields[] = {
	TEXT("cpu", cpu),
	{ "cores", FIELD_LONG, M(cores), 0, NULL, 0, 0, 1L << 30 },
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
	{ "perf_event_paranoid", FIELD_INT, M(perf_paranoid), 0, NULL, 0, -99, 99 },
	{ "load_before", FIELD_NUMS, M(load_before), 3, NULL, 0, 0, 0 },
	{ "load_after", FIELD_NUMS, M(load_after), 3, NULL, 0, 0, 0 },
	{ NULL, 0, 0, 0, NULL, 0, 0, 0 }
};
#undef TEXT
#undef M

#define S(f) offsetof(struct bench_stats, f)
#define ROW(name, kind, f) { name, kind, S(f), 0, NULL, 0, 0, 0 }
#define OBJ(name, sub) { name, FIELD_OBJECT, 0, 0, sub, 0, 0, 0 }
#define END { NULL, 0, 0, 0, NULL, 0, 0, 0 }
static const struct field ratio_fields[] = {
	ROW("estimate", FIELD_NUM, estimate),
	ROW("median", FIELD_NUM, median),
	ROW("low", FIELD_NUM, low),
	ROW("high", FIELD_NUM, high),
	ROW("level", FIELD_NUM, level),
	ROW("geomean", FIELD_NUM, geomean),
	END
};
static const struct field tests_fields[] = {
	ROW("wilcoxon_p", FIELD_NUM, wilcoxon_p),
	ROW("mann_whitney_p", FIELD_NUM, mann_whitney_p),
	END
};
static const struct field wins_fields[] = {
	ROW("head_slower", FIELD_COUNT, head_slower),
	ROW("of", FIELD_COUNT, of),
	ROW("p", FIELD_NUM, sign_p),
	END
};
static const struct field base_fields[] = {
	ROW("median", FIELD_NUM, base_median),
	ROW("cv", FIELD_NUM, base_cv),
	END
};
static const struct field head_fields[] = {
	ROW("median", FIELD_NUM, head_median),
	ROW("cv", FIELD_NUM, head_cv),
	END
};
const struct field stats_fields[] = {
	OBJ("ratio", ratio_fields),
	/* the largest regression the data excludes, pass or not */
	ROW("excluded_above", FIELD_AGAIN, high),
	ROW("pass_excludes", FIELD_NUM, excludes),
	{ "one_sided", FIELD_TRUE, 0, 0, NULL, 0, 0, 0 },
	ROW("strict", FIELD_BOOL, strict),
	{ "min_pairs_for_interval", FIELD_COUNT, S(min_n), 0, NULL,
	  FIELD_IF_SET, 0, 0 },
	OBJ("tests", tests_fields),
	ROW("outliers", FIELD_COUNT, outliers),
	ROW("drift", FIELD_NUM, drift),
	OBJ("wins", wins_fields),
	OBJ("base", base_fields),
	OBJ("head", head_fields),
	END
};
#undef ROW
#undef S

#define R(f) offsetof(struct report_rev, f)
const struct field rev_fields[] = {
	{ "rev", FIELD_STR, R(label), 0, NULL, 0, 0, 0 },
	{ "commit", FIELD_STR, R(commit), 0, NULL, 0, 0, 0 },
	{ "tree", FIELD_STR, R(tree), 0, NULL, 0, 0, 0 },
	{ "chosen_as", FIELD_STR, R(how), 0, NULL, FIELD_IF_SET, 0, 0 },
	END
};
#undef R

#define A(f) offsetof(struct verdict_accept, f)
const struct field accept_fields[] = {
	{ "pattern", FIELD_STR, A(pattern), 0, NULL, 0, 0, 0 },
	{ "bound", FIELD_NUM0, A(bound), 0, NULL, 0, 0, 0 },
	{ "commit", FIELD_STR, A(commit), 0, NULL, 0, 0, 0 },
	{ "reason", FIELD_STR, A(reason), 0, NULL, 0, 0, 0 },
	END
};
#undef A

#define T(f) offsetof(struct run_report, f)
static const struct field build_fields[] = {
	{ "base", FIELD_NUM0, T(build_seconds) + ARM_BASE * sizeof(double), 0,
	  NULL, 0, 0, 0 },
	{ "head", FIELD_NUM0, T(build_seconds) + ARM_HEAD * sizeof(double), 0,
	  NULL, 0, 0, 0 },
	END
};
const struct field time_fields[] = {
	OBJ("build", build_fields),
	{ "measuring", FIELD_NUM0, T(measure_seconds), 0, NULL, 0, 0, 0 },
	{ "total", FIELD_NUM0, T(total_seconds), 0, NULL, 0, 0, 0 },
	END
};
#undef T
#undef OBJ
#undef END

/* the member of the struct at base a row names (CAT: read only) */
#define AT(type, base, f) ((type *)(void *)((char *)(base) + (f)->off))
#define CAT(type, base, f) \
	((const type *)(const void *)((const char *)(base) + (f)->off))

static void write_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);	/* JSON has no NaN */
}

void fields_write(cJSON *o, const struct field *f, const void *base)
{
	const void *b = base;

	for (; f->name; f++) {
		const char *s;

		switch (f->kind) {
		case FIELD_TEXT:
			cJSON_AddStringToObject(o, f->name, CAT(char, b, f));
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
		case FIELD_AGAIN:
			write_num(o, f->name, *CAT(double, b, f));
			break;
		case FIELD_COUNT:
			if (*CAT(size_t, b, f) || !(f->flags & FIELD_IF_SET))
				cJSON_AddNumberToObject(o, f->name,
							(double)*CAT(size_t, b, f));
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
		case FIELD_NUMS:
			cJSON_AddItemToObject(o, f->name,
				cJSON_CreateDoubleArray(CAT(double, b, f),
							(int)f->size));
			break;
		case FIELD_OBJECT:
			fields_write(cJSON_AddObjectToObject(o, f->name),
				     f->sub, b);
			break;
		case FIELD_TRUE:
			cJSON_AddTrueToObject(o, f->name);
			break;
		}
	}
}

void fields_read(const cJSON *o, const struct field *f, void *base,
		 struct report_loaded *L)
{
	for (; f->name; f++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, f->name);
		const char *s = cJSON_IsString(x) ? x->valuestring : NULL;
		size_t i;

		switch (f->kind) {
		case FIELD_TEXT:
			snprintf(AT(char, base, f), f->size, "%s",
				 s ? s : "unknown");
			break;
		case FIELD_STR:
			*AT(const char *, base, f) =
				s ? load_keep(L, s) :
				f->flags & FIELD_IF_SET ? NULL : load_keep(L, "");
			break;
		case FIELD_STR_OR_NULL:
			*AT(const char *, base, f) = s ? load_keep(L, s) : NULL;
			break;
		case FIELD_NUM:
			*AT(double, base, f) = load_num(o, f->name, NAN);
			break;
		case FIELD_NUM0:
			*AT(double, base, f) = load_num(o, f->name, 0);
			break;
		case FIELD_COUNT:
			*AT(size_t, base, f) = load_count(o, f->name);
			break;
		case FIELD_LONG:
			*AT(long, base, f) = load_whole(o, f->name, f->lo,
							f->lo, f->hi);
			break;
		case FIELD_INT:
			*AT(int, base, f) = (int)load_whole(o, f->name, f->lo,
							    f->lo, f->hi);
			break;
		case FIELD_BOOL:
			*AT(int, base, f) = cJSON_IsTrue(x);
			break;
		case FIELD_NUMS:
			for (i = 0; i < f->size; i++) {
				const cJSON *v = cJSON_GetArrayItem(x, (int)i);

				AT(double, base, f)[i] = cJSON_IsNumber(v) ?
							 v->valuedouble : -1;
			}
			break;
		case FIELD_OBJECT:
			fields_read(x, f->sub, base, L);
			break;
		case FIELD_AGAIN:
		case FIELD_TRUE:
			break;
		}
	}
}
