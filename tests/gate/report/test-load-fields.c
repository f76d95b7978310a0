/*
 * gate/report/load-fields.c: every table's fields round-trip. A struct filled
 * with a distinct value in every field is written, read back into a zeroed
 * one and written again: every field read equals the one written, every
 * member of the JSON is a row of the table, and the two writes are the
 * same bytes. A struct of unknowns (NaN, NULL) round-trips the same way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/exec/sysinfo.h"
#include "gate/report/load-fields.h"
#include "gate/report/load-internal.h"
#include "tests/harness.h"

/* the member a row names (through the pointer at via for FIELD_VIA) */
static void *at(void *base, const struct field *f)
{
	if (f->flags & FIELD_VIA)
		base = *(void **)(void *)((char *)base + f->via);
	return (char *)base + f->off;
}
#define AT(type, base, f) ((type *)at(base, f))
#define COUNT(base, f) ((size_t *)(void *)((char *)(base) + (f)->count))

/* strings a filled struct points to, and its lists of them */
static char pool[64][24];
static size_t npool;
static const char *lists[8][2];
static size_t nlists;
/* the items of its FIELD_LIST rows, two each */
static void *items[8];
static size_t nitems;

/* A distinct value in every field of f (k counts them); unknown: the
   values a struct has when nothing is known (NaN, NULL, the sentinel). */
static void fill(const struct field *f, void *base, unsigned *k, int unknown)
{
	size_t i;

	for (; f->name; f++, (*k)++) {
		switch (f->kind) {
		case FIELD_TEXT:
			if (unknown)
				snprintf(AT(char, base, f), f->size, "%s",
					 f->flags & FIELD_NULL0 ? "" : "unknown");
			else
				snprintf(AT(char, base, f), f->size, "t%u", *k);
			break;
		case FIELD_STR:
		case FIELD_STR_OR_NULL:
			CHECK(npool < sizeof(pool) / sizeof(pool[0]));
			snprintf(pool[npool], sizeof(pool[0]), "s%u", *k);
			*AT(const char *, base, f) = unknown &&
				(f->kind == FIELD_STR_OR_NULL ||
				 f->flags & FIELD_IF_SET) ? NULL : pool[npool++];
			break;
		case FIELD_NUM:
		case FIELD_NUM0:
			*AT(double, base, f) = !unknown ? 0.25 + *k :
				f->kind == FIELD_NUM ? NAN :
				f->flags & FIELD_NULL0 ? 0 : 0.25 + *k;
			break;
		case FIELD_COUNT:
			*AT(size_t, base, f) = unknown ? 0 : 1 + *k;
			break;
		case FIELD_UNSIGNED:
			*AT(unsigned, base, f) = (unsigned)(unknown ? f->lo :
							    f->lo + 1 + *k);
			break;
		case FIELD_ENUM:
			*AT(int, base, f) = (int)(unknown ? f->lo :
						  (long)*k % f->hi);
			break;
		case FIELD_LONG:
			*AT(long, base, f) = unknown ? f->lo : f->lo + 1 + *k;
			break;
		case FIELD_INT:
			*AT(int, base, f) = (int)(unknown ? f->lo : f->lo + 1 + *k);
			break;
		case FIELD_BOOL:
			*AT(int, base, f) = !unknown;
			break;
		case FIELD_NUMS:
			for (i = 0; i < f->size; i++)
				AT(double, base, f)[i] = unknown ? -1 :
							 *k + 0.5 * (double)i;
			break;
		case FIELD_OBJECT:
			fill(f->sub, AT(char, base, f), k, unknown);
			break;
		case FIELD_STRS:
			CHECK(nlists < sizeof(lists) / sizeof(lists[0]) &&
			      npool + 2 <= sizeof(pool) / sizeof(pool[0]));
			for (i = 0; i < 2; i++) {
				snprintf(pool[npool], sizeof(pool[0]), "l%u.%zu",
					 *k, i);
				lists[nlists][i] = pool[npool++];
			}
			*AT(const char **, base, f) = unknown ? NULL :
						      lists[nlists++];
			*COUNT(base, f) = unknown ? 0 : 2;
			break;
		case FIELD_LIST:
			CHECK(nitems < sizeof(items) / sizeof(items[0]));
			items[nitems] = xcalloc(2, f->size);
			for (i = 0; i < 2; i++)
				fill(f->sub, (char *)items[nitems] + i * f->size,
				     k, unknown);
			*AT(void *, base, f) = unknown ? NULL : items[nitems];
			*COUNT(base, f) = unknown ? 0 : 2;
			nitems++;
			break;
		case FIELD_TRUE:
		case FIELD_SAID:
			break;
		}
	}
}

/* Every field of f read (b) equals the one written (a). */
static void same(const struct field *f, void *a, void *b)
{
	size_t i;

	for (; f->name; f++) {
		if (f->flags & FIELD_UNREAD)
			continue;
		switch (f->kind) {
		case FIELD_TEXT:
			CHECK(!strcmp(AT(char, a, f), AT(char, b, f)));
			break;
		case FIELD_STR:
		case FIELD_STR_OR_NULL:
			if (!*AT(const char *, a, f))
				CHECK(!*AT(const char *, b, f) ||
				      !**AT(const char *, b, f));
			else
				CHECK(*AT(const char *, b, f) &&
				      !strcmp(*AT(const char *, a, f),
					      *AT(const char *, b, f)));
			break;
		case FIELD_NUM:
		case FIELD_NUM0:
			CHECK_NEAR(*AT(double, b, f), *AT(double, a, f), 0);
			break;
		case FIELD_COUNT:
			CHECK(*AT(size_t, b, f) == *AT(size_t, a, f));
			break;
		case FIELD_LONG:
			CHECK(*AT(long, b, f) == *AT(long, a, f));
			break;
		case FIELD_UNSIGNED:
			CHECK(*AT(unsigned, b, f) == *AT(unsigned, a, f));
			break;
		case FIELD_INT:
		case FIELD_BOOL:
		case FIELD_ENUM:
			CHECK(*AT(int, b, f) == *AT(int, a, f));
			break;
		case FIELD_NUMS:
			for (i = 0; i < f->size; i++)
				CHECK_NEAR(AT(double, b, f)[i],
					   AT(double, a, f)[i], 0);
			break;
		case FIELD_OBJECT:
			same(f->sub, AT(char, a, f), AT(char, b, f));
			break;
		case FIELD_STRS:
			CHECK(*COUNT(b, f) == *COUNT(a, f));
			for (i = 0; i < *COUNT(a, f) && i < *COUNT(b, f); i++)
				CHECK(!strcmp((*AT(char **, a, f))[i],
					      (*AT(char **, b, f))[i]));
			break;
		case FIELD_LIST:
			CHECK(*COUNT(b, f) == *COUNT(a, f));
			for (i = 0; i < *COUNT(a, f) && i < *COUNT(b, f); i++)
				same(f->sub, *AT(char *, a, f) + i * f->size,
				     *AT(char *, b, f) + i * f->size);
			break;
		case FIELD_TRUE:
		case FIELD_SAID:
			break;
		}
	}
}

/* Every member of o is a row of f (objects: of its sub-table). */
static void all_declared(const cJSON *o, const struct field *f)
{
	const cJSON *x, *y;

	cJSON_ArrayForEach(x, o) {
		const struct field *r = f;

		while (r->name && strcmp(r->name, x->string))
			r++;
		CHECK(r->name != NULL);
		if (r->name && r->kind == FIELD_OBJECT)
			all_declared(x, r->sub);
		if (r->name && r->kind == FIELD_LIST)
			for (y = x->child; y; y = y->next)
				all_declared(y, r->sub);
	}
}

/* The rows not read back (FIELD_UNREAD: the loader takes them from
   elsewhere, as "pairs" from the samples) copied from a to b; an object
   (the root's "protocol") read by its own table, as the loader does. */
static void copy_unread(const struct field *f, void *a, void *b,
			const cJSON *o, struct loading *ld)
{
	for (; f->name; f++)
		if (f->flags & FIELD_UNREAD && f->kind == FIELD_OBJECT)
			fields_read(cJSON_GetObjectItemCaseSensitive(o, f->name),
				    f->sub, AT(char, b, f), ld);
		else if (f->flags & FIELD_UNREAD && f->kind == FIELD_COUNT)
			*AT(size_t, b, f) = *AT(size_t, a, f);
		else if (f->flags & FIELD_UNREAD && f->kind == FIELD_NUM)
			*AT(double, b, f) = *AT(double, a, f);
}

/* What the struct at base owns (FIELD_OWN: strings, lists), freed. */
static void free_owned(const struct field *f, void *base)
{
	size_t i;

	for (; f->name; f++) {
		for (i = 0; f->kind == FIELD_LIST && i < *COUNT(base, f); i++)
			free_owned(f->sub, *AT(char *, base, f) + i * f->size);
		if (f->flags & FIELD_OWN)
			free(*AT(char *, base, f));
	}
}

/* A struct to fill: size bytes, and for a table reaching through a
   pointer (FIELD_VIA) the via_size bytes it points to. */
static void *struct_new(size_t size, size_t via, size_t via_size)
{
	char *p = xcalloc(1, size);

	if (via_size)
		*(void **)(void *)(p + via) = xcalloc(1, via_size);
	return p;
}

static void struct_free(void *p, size_t via, size_t via_size)
{
	if (via_size)
		free(*(void **)(void *)((char *)p + via));
	free(p);
}

static void round_trip(const struct field *f, size_t size, size_t via,
		       size_t via_size, int unknown)
{
	struct report_loaded *L = xcalloc(1, sizeof(*L));
	struct loading ld = { .origin = "test", .slot = -1 };
	void *a = struct_new(size, via, via_size);
	void *b = struct_new(size, via, via_size);
	cJSON *o = cJSON_CreateObject(), *again = cJSON_CreateObject();
	unsigned k = 0;
	char *t1, *t2;
	size_t i;

	ld.L = L;
	npool = nlists = nitems = 0;
	fill(f, a, &k, unknown);
	fields_write(o, f, a);
	all_declared(o, f);
	fields_read(o, f, b, &ld);
	CHECK(!ld.failed);
	same(f, a, b);
	copy_unread(f, a, b, o, &ld);
	fields_write(again, f, b);
	t1 = cJSON_Print(o);
	t2 = cJSON_Print(again);
	CHECK(t1 && t2 && !strcmp(t1, t2));
	free(t1);
	free(t2);
	cJSON_Delete(o);
	cJSON_Delete(again);
	free_owned(f, b);
	for (i = 0; i < nitems; i++)
		free(items[i]);
	for (i = 0; i < L->nstr; i++)
		free(L->str[i]);
	free(L->str);
	free(L);
	struct_free(a, via, via_size);
	struct_free(b, via, via_size);
}

#define CFG offsetof(struct run_bench, run.cfg), sizeof(struct bench_cfg)
#define RUN_CFG offsetof(struct bench_run, cfg), sizeof(struct bench_cfg)
static const struct {
	const struct field *f;
	size_t size, via, via_size;
} tables[] = {
	{ machine_fields, sizeof(struct machine), 0, 0 },
	{ stats_fields, sizeof(struct bench_stats), 0, 0 },
	{ rev_fields, sizeof(struct report_rev), 0, 0 },
	{ accept_fields, sizeof(struct verdict_accept), 0, 0 },
	{ time_fields, sizeof(struct run_report), 0, 0 },
	{ pair_fields, sizeof(struct pair_result), 0, 0 },
	{ bench_protocol_fields, sizeof(struct run_bench), CFG },
	{ bench_taken_fields, sizeof(struct run_bench), 0, 0 },
	{ metric_verdict_fields, sizeof(struct bench_stats), 0, 0 },
	{ metric_method_fields, sizeof(struct bench_stats), 0, 0 },
	{ shard_fields, sizeof(struct run_report), 0, 0 },
	{ protocol_fields, sizeof(struct run_report), 0, 0 },
	{ parity_fields, sizeof(struct bench_run), RUN_CFG },
	{ artifacts_fields, sizeof(struct bench_run), 0, 0 },
	{ report_fields, sizeof(struct run_report), 0, 0 },
};

static void test_fields__every_field_round_trips(void)
{
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		round_trip(tables[i].f, tables[i].size, tables[i].via,
			   tables[i].via_size, 0);
}

static void test_fields__unknowns_round_trip(void)
{
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		round_trip(tables[i].f, tables[i].size, tables[i].via,
			   tables[i].via_size, 1);
}

/* An absent object reads as unknowns: a report from before it existed. */
static void test_fields__absent_reads_unknown(void)
{
	struct report_loaded *L = xcalloc(1, sizeof(*L));
	struct loading ld = { .origin = "test", .slot = -1 };
	struct machine m;
	struct bench_stats st;

	ld.L = L;
	memset(&m, 0, sizeof(m));
	memset(&st, 0, sizeof(st));
	fields_read(NULL, machine_fields, &m, &ld);
	CHECK(!strcmp(m.cpu, "unknown"));
	CHECK(m.perf_paranoid == -99);
	CHECK(m.load_after[2] == -1);
	fields_read(NULL, stats_fields, &st, &ld);
	CHECK(isnan(st.estimate) && isnan(st.head_cv));
	CHECK(st.of == 0 && !st.strict);
	free(L->str);
	free(L);
}

static const struct harness_test tests[] = {
	TEST(test_fields__every_field_round_trips),
	TEST(test_fields__unknowns_round_trip),
	TEST(test_fields__absent_reads_unknown),
};

HARNESS_MAIN(tests)
