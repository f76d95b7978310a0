/*
 * The report around the benchmarks, read back: revisions, machine,
 * conditions, policy, time, shards, protocol and the schema; and the
 * loader's entry points (gate/report/load.h). load.c reads each benchmark.
 */
#include "gate/report/load.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/report/load-fields.h"
#include "gate/report/load-internal.h"
#include "common/banned.h"

static void load_conditions(struct loading *ld, struct run_report *r,
			    const cJSON *o)
{
	struct layout *l = &ld->L->layout;
	const char *s, *arms = load_text(o, "arm_dirs");
	double mean = load_num(o, "env_pad_mean", 0);

	if ((s = load_text(o, "base_dir")))
		r->arm_dir[ARM_BASE] = load_keep(ld->L, s);
	if ((s = load_text(o, "head_dir")))
		r->arm_dir[ARM_HEAD] = load_keep(ld->L, s);
	r->arms_random = !arms ? 0 : !strcmp(arms, "kept") ? 2 :
			  !strcmp(arms, "random");
	l->env_pad = load_num(o, "env_pad_max", 0) > 0;
	l->samples = (unsigned long)load_count(o, "env_pad_samples");
	l->pad_total = (unsigned long)llround(mean * (double)l->samples);
	if ((s = load_text(o, "scratch")))
		l->scratch = (char *)load_keep(ld->L, s);
	if ((s = load_text(o, "pin")))
		r->pin = load_keep(ld->L, s);
	r->layout = l;
}

/* "protocol": its rows (the level of a report from before
   "one_sided_level" its adjusted_confidence), shards and conditions */
void load_protocol(struct loading *ld, struct run_report *r, const cJSON *p)
{
	r->level = load_num(p, "adjusted_confidence", 0);
	fields_read(p, protocol_fields, r, ld);
	fields_read(load_get(p, "shard"), shard_fields, r, ld);
	load_conditions(ld, r, load_get(p, "conditions"));
}

/* Refuse a report this gate cannot read: only schema REPORT_SCHEMA. */
static int check_schema(const cJSON *root, const char *origin,
			struct gate_err *err)
{
	const cJSON *v = load_get(root, "schema");
	const char *by = load_text(root, "gate_version");

	if (!cJSON_IsNumber(v))
		return error_to(err, "%s: no numeric \"schema\": not a gate "
				"JSON report this gate reads (it reads schema "
				"%d)", origin, REPORT_SCHEMA);
	if (v->valuedouble != REPORT_SCHEMA)
		return error_to(err, "%s: report schema %g is not one this "
				"gate reads (it reads schema %d); read it with "
				"the gate that wrote it%s%s", origin,
				v->valuedouble, REPORT_SCHEMA,
				by ? ", version " : "", by ? by : "");
	return 0;
}

static int load_root(struct loading *ld, struct run_report *r,
		     const cJSON *root)
{
	const cJSON *list = load_get(root, "benchmarks"), *o;
	const char *s;
	size_t i = 0;
	int a;

	if (check_schema(root, ld->origin, ld->err) < 0)
		return -1;
	if (!cJSON_IsArray(list))
		return error_to(ld->err, "%s: no \"benchmarks\" list: not a "
				"gate JSON report", ld->origin);
	if ((s = load_text(root, "gate_version")))
		r->gate_version = load_keep(ld->L, s);
	fields_read(root, report_fields, r, ld);
	s = load_text(root, "verdict");
	if (s && !strcmp(s, "interrupted"))
		r->interrupted = (int)load_whole(root, "signal", SIGINT, 1, 64);
	else
		r->suite = load_verdict(ld, s, VERDICT_PASS);
	for (a = 0; a < 2; a++) {
		o = load_get(load_get(root, a ? "head" : "base"),
			     "uncommitted_changes");
		r->rev[a].worktree = o != NULL;
		r->rev[a].dirty = cJSON_IsTrue(o);
	}
	load_protocol(ld, r, load_get(root, "protocol"));
	ld->L->ncfg = (size_t)cJSON_GetArraySize(list);
	ld->L->cfg = xcalloc(ld->L->ncfg ? ld->L->ncfg : 1,
			     sizeof(*ld->L->cfg));
	run_alloc(r, ld->L->ncfg);
	cJSON_ArrayForEach(o, list) {
		if (load_bench(ld, &r->b[i], &ld->L->cfg[i], o) < 0)
			return -1;
		i++;
	}
	for (i = 0; i < r->n && !(ld->flags & REPORT_LOAD_SUMMARY); i++)
		load_ratios(&r->b[i], r);
	if (r->interrupted) {
		enum verdict *v = xcalloc(r->n + 1, sizeof(*v));

		for (i = 0; i < r->n; i++)
			v[i] = r->b[i].result.verdict;
		r->suite = verdict_suite(v, r->n);
		free(v);
	}
	return ld->failed ? -1 : 0;
}

int report_load_tree(struct run_report *r, const cJSON *root,
		     const char *origin, unsigned flags, struct gate_err *err)
{
	struct loading ld = { .origin = origin, .err = err, .slot = -1,
			      .flags = flags };

	memset(r, 0, sizeof(*r));
	if (!cJSON_IsObject(root))
		return error_to(err, "%s: not a JSON object: not a gate JSON "
				"report", origin);
	ld.L = xcalloc(1, sizeof(*ld.L));
	r->loaded = ld.L;
	if (load_root(&ld, r, root) < 0) {
		report_load_release(r);
		return -1;
	}
	return 0;
}

int report_load_to(struct run_report *r, const char *text, size_t len,
		   const char *origin, struct gate_err *err)
{
	cJSON *root;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!(root = format_json_to(text, len, origin, "gate report", err)))
		return -1;
	ret = report_load_tree(r, root, origin, 0, err);
	cJSON_Delete(root);
	return ret;
}

int report_load(struct run_report *r, const char *text, size_t len,
		const char *origin)
{
	return report_load_to(r, text, len, origin, NULL);
}

void report_load_release(struct run_report *r)
{
	struct report_loaded *L = r->loaded;
	size_t i;

	run_release(r);
	if (L) {
		for (i = 0; i < L->nstr; i++)
			free(L->str[i]);
		free(L->str);
		free(L->cfg);
		free(L);
	}
	memset(r, 0, sizeof(*r));
}
