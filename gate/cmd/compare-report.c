/*
 * gate compare's printers: the terminal table and the JSON report of the
 * rows gate/cmd/compare.c decided. They lay out and choose no verdict.
 */
#include "gate/cmd/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/config/metrics.h"
#include "common/banned.h"

const char *compare_pct(char *buf, size_t size, double ratio)
{
	double p = ratio_pct(ratio);

	if (isfinite(p) && fabs(p) >= 1e6)
		snprintf(buf, size, "%+.2g%%", p);
	else
		snprintf(buf, size, "%+.1f%%", p);
	return buf;
}

static const char *vname(const struct row *w)
{
	if (!w->c[0])
		return "new";
	if (!w->c[1])
		return "removed";
	switch (w->verdict) {
	case VERDICT_PASS:
		return w->high < 1 ? "pass (faster)" : "pass";
	case VERDICT_FAIL:
		return "FAIL";
	case VERDICT_NOISY:
		return "NOISY";
	default:
		return "ERROR";
	}
}

/* "1.23 us ± 4%": a median and its largest deviation, as benchstat shows */
static const char *cell(const struct row *w, int side, char *buf, size_t sz)
{
	char v[48];

	if (!w->c[side])
		snprintf(buf, sz, "-");
	else if (isfinite(w->spread[side]))
		snprintf(buf, sz, "%s ± %.0f%%", format_value(w->med[side],
			 w->c[side]->unit, v, sizeof(v)),
			 w->spread[side] * 100);
	else
		snprintf(buf, sz, "%s", format_value(w->med[side],
			 w->c[side]->unit, v, sizeof(v)));
	return buf;
}

/* "old.txt and new.txt", "old.txt" or NULL: the files of one process. */
static char *one_process_files(const struct cmp_opts *o,
			       const struct cmp_run *run)
{
	if (run->one_process[0] && run->one_process[1])
		return xasprintf("%s and %s", o->files[0], o->files[1]);
	if (run->one_process[0] || run->one_process[1])
		return xstrdup(o->files[run->one_process[1]]);
	return NULL;
}

/* The interval method actually used, in words. */
static const char *method_name(const struct cmp_run *run)
{
	return run->normal ? "exact Mann-Whitney bounds (normal approximation, "
			     "made conservative, for cases with many values)" :
			     "exact Mann-Whitney bounds";
}

/* The table: one line per case, its columns as wide as they need. */
static void print_table(FILE *out, const struct row *rows, size_t n,
			const struct cmp_opts *o)
{
	size_t i;
	int w = 4, cw[2] = { (int)strlen(o->files[0]),
			     (int)strlen(o->files[1]) };
	char b[96], iv[64], p[24];

	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];
		int len = (int)strlen(c->name) + (int)strlen(c->unit) + 3;
		int s;

		w = len > w ? len : w;
		for (s = 0; s < 2; s++) {
			len = (int)strlen(cell(r, s, b, sizeof(b)));
			cw[s] = len > cw[s] ? len : cw[s];
		}
	}
	fprintf(out, "\n%-*s  %*s  %*s  %8s  %-19s  %-10s  %s\n", w, "case",
		cw[0], o->files[0], cw[1], o->files[1], "vs base", "interval",
		"p (n)", "verdict");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];
		char name[512], c0[96], c1[96], ch[16];

		snprintf(name, sizeof(name), "%s [%s]", c->name, c->unit);
		if (r->c[0] && r->c[1] && r->verdict != VERDICT_ERROR) {
			compare_pct(ch, sizeof(ch), r->ratio);
			if (r->sh.depth) {
				char l[24], h[24];

				snprintf(iv, sizeof(iv), "%s .. %s",
					 compare_pct(l, sizeof(l), r->low),
					 compare_pct(h, sizeof(h), r->high));
			}
			else
				snprintf(iv, sizeof(iv), r->single ?
					 "none: 1 process" : "none: too few");
			if (isnan(r->mwu.p))
				snprintf(p, sizeof(p), "- (%zu+%zu)",
					 r->c[0]->n, r->c[1]->n);
			else
				snprintf(p, sizeof(p), "%.3f (%zu+%zu)",
					 r->mwu.p, r->c[0]->n, r->c[1]->n);
		} else {
			snprintf(ch, sizeof(ch), "-");
			snprintf(iv, sizeof(iv), "-");
			snprintf(p, sizeof(p), "-");
		}
		fprintf(out, "%-*s  %*s  %*s  %8s  %-19s  %-10s  %s\n", w,
			name, cw[0], cell(r, 0, c0, sizeof(c0)), cw[1],
			cell(r, 1, c1, sizeof(c1)), ch, iv, p, vname(r));
	}
}

/* How the comparison was made, under "protocol:". */
static void print_protocol(FILE *out, const struct cmp_opts *o,
			   const struct cmp_run *run, const char *single)
{
	fprintf(out, "\nprotocol:\n  old: %s (%s)\n  new: %s (%s)\n",
		o->files[0], format_name(run->used[0]), o->files[1],
		format_name(run->used[1]));
	fprintf(out, "  values: every value in a file is one sample (unpaired: "
		"nothing matches a run of OLD with one of NEW); ± is the "
		"largest deviation from the median\n");
	if (single)
		fprintf(out, "  one process: in %s, " ONE_PROCESS_NOTE "\n",
			single);
	fprintf(out, "  interval: Hodges-Lehmann shift of the log values, NEW "
		"against OLD (OLD against NEW for rates), with %s: one-sided, "
		"each bound at %.4g%% (%.4g%% for the suite, Bonferroni over "
		"%zu cases); a bound needs at least %zu values per side at "
		"this level\n", method_name(run), (1 - run->alpha) * 100,
		o->confidence * 100, run->compared, run->min_n);
	fprintf(out, "  verdict: fail when the lower bound is above the "
		"%+.1f%% floor; pass when the estimate is within it and the "
		"upper bound below %+.1f%%%s; noisy otherwise\n",
		o->floor * 100, o->excludes * 100, o->strict ? " (--strict)" :
		" (pass_excludes)");
	/* only where it holds: not for times measured in one process */
	if (run->single == run->compared)
		fprintf(out, "  promise: none: every case compared is a time "
			"whose values are repetitions inside one process\n");
	else
		fprintf(out, "  promise: over %s%zu cases, identical code "
			"fails with probability at most %.4g%%, and a "
			"regression of %+.1f%% or more passes with "
			"probability at most %.4g%%%s\n", run->single ?
			"the " : "all ", run->compared - run->single,
			(1 - o->confidence) * 100, o->excludes * 100,
			(1 - o->confidence) * 100, run->single ?
			" (none for the times whose values come from one "
			"process: not decided)" : "");
	fprintf(out, "  p: two-sided Mann-Whitney U (exact when a side has at "
		"most 8 values and no ties), for reading only\n");
	fprintf(out, "  gate %s\n", GATE_VERSION);
}

void compare_print_term(FILE *out, const struct row *rows, size_t n,
		       const struct cmp_opts *o, const struct cmp_run *run,
		       enum verdict suite, int code)
{
	size_t i, count[VERDICT_NEW + 1] = { 0 }, added = 0, removed = 0;
	char *single = one_process_files(o, run);

	print_table(out, rows, n, o);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];

		if (!r->c[0]) {
			added++;
			fprintf(out, "%s [%s]: new: only in %s, not compared\n",
				c->name, c->unit, o->files[1]);
			continue;
		}
		if (!r->c[1]) {
			removed++;
			fprintf(out, "%s [%s]: removed: only in %s, not "
				"compared\n", c->name, c->unit, o->files[0]);
			continue;
		}
		count[r->verdict]++;
		fprintf(out, "%s [%s]: %s\n", c->name, c->unit, r->reason);
	}
	if (single)
		fprintf(out, "note: in %s, " ONE_PROCESS_NOTE "\n", single);
	fprintf(out, "verdict: %s: %zu pass, %zu fail, %zu noisy, %zu error, "
		"%zu new, %zu removed", suite == VERDICT_PASS ? "PASS" :
		suite == VERDICT_FAIL ? "FAIL" : suite == VERDICT_NOISY ?
		"NOISY" : "ERROR", count[VERDICT_PASS], count[VERDICT_FAIL],
		count[VERDICT_NOISY], count[VERDICT_ERROR], added, removed);
	if (o->advisory && suite != VERDICT_PASS)
		fprintf(out, " (advisory: exit 0 instead of %d)\n",
			verdict_exit_code(suite));
	else
		fprintf(out, " (exit %d)\n", code);
	print_protocol(out, o, run, single);
	free(single);
}

static cJSON *values_json(const struct fmt_case *c)
{
	return c ? cJSON_CreateDoubleArray(c->values, (int)c->n) :
		   cJSON_CreateArray();
}

/* A bound as a number, or null when there is none. */
static void add_bound(cJSON *x, const char *key, double v)
{
	if (isfinite(v) && v > 0)
		cJSON_AddNumberToObject(x, key, v);
	else
		cJSON_AddNullToObject(x, key);
}

/* The protocol object: statistic, interval, levels, floor. */
static void protocol_json(cJSON *root, const struct cmp_opts *o,
			  const struct cmp_run *run)
{
	cJSON *p = cJSON_AddObjectToObject(root, "protocol");

	cJSON_AddStringToObject(p, "statistic", "Hodges-Lehmann shift of log "
				"values (NEW against OLD; OLD against NEW for "
				"rates), as a ratio");
	cJSON_AddStringToObject(p, "interval", run->normal ?
				"exact Mann-Whitney (one-sided bounds; normal "
				"approximation, conservative, where cases have "
				"many values)" :
				"exact Mann-Whitney (one-sided bounds)");
	cJSON_AddNullToObject(p, "resamples");
	cJSON_AddNumberToObject(p, "seed", (double)o->seed);
	cJSON_AddNumberToObject(p, "confidence", o->confidence);
	cJSON_AddNumberToObject(p, "adjusted_confidence", 1 - run->alpha);
	cJSON_AddNumberToObject(p, "alpha", run->alpha);
	cJSON_AddStringToObject(p, "adjustment", "bonferroni");
	cJSON_AddNumberToObject(p, "compared", (double)run->compared);
	cJSON_AddNumberToObject(p, "min_values_per_side", (double)run->min_n);
	cJSON_AddStringToObject(p, "test", "Mann-Whitney U, two-sided");
	cJSON_AddNumberToObject(p, "min_effect", o->floor);
	cJSON_AddNumberToObject(p, "pass_excludes", o->excludes);
	cJSON_AddBoolToObject(p, "strict", o->strict);
}

/* One case: its verdict, ratio and bounds, test, and both sides' values. */
static cJSON *row_json(const struct row *r, const struct cmp_run *run)
{
	const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];
	cJSON *b = cJSON_CreateObject(), *x;

	cJSON_AddStringToObject(b, "name", c->name);
	cJSON_AddStringToObject(b, "unit", c->unit);
	cJSON_AddBoolToObject(b, "higher_is_better", c->higher_better);
	cJSON_AddStringToObject(b, "verdict", !r->c[0] ? "new" :
				!r->c[1] ? "removed" :
				verdict_name(r->verdict));
	if (r->reason)
		cJSON_AddStringToObject(b, "reason", r->reason);
	if (r->c[0] && r->c[1] && r->verdict != VERDICT_ERROR) {
		x = cJSON_AddObjectToObject(b, "ratio");
		cJSON_AddNumberToObject(x, "estimate", r->ratio);
		/* the ratio of the medians, for reading */
		cJSON_AddNumberToObject(x, "median", c->higher_better ?
					r->med[0] / r->med[1] :
					r->med[1] / r->med[0]);
		add_bound(x, "low", r->low);
		add_bound(x, "high", r->high);
		cJSON_AddNumberToObject(x, "level", 1 - run->alpha);
		cJSON_AddBoolToObject(x, "exact", r->sh.exact ||
				      r->sh.depth == 0);
		x = cJSON_AddObjectToObject(b, "mann_whitney");
		cJSON_AddNumberToObject(x, "u", r->mwu.u);
		cJSON_AddNumberToObject(x, "p", r->mwu.p);
		cJSON_AddBoolToObject(x, "exact", r->mwu.exact);
	}
	x = cJSON_AddObjectToObject(b, "old");
	if (r->c[0])
		cJSON_AddNumberToObject(x, "median", r->med[0]);
	cJSON_AddItemToObject(x, "values", values_json(r->c[0]));
	x = cJSON_AddObjectToObject(b, "new");
	if (r->c[1])
		cJSON_AddNumberToObject(x, "median", r->med[1]);
	cJSON_AddItemToObject(x, "values", values_json(r->c[1]));
	return b;
}

/* text and a newline to path ("-": stdout); 0 or -1. */
static int write_report_text(const char *path, const char *text)
{
	FILE *f;

	if (!strcmp(path, "-")) {
		puts(text);
		return fflush(stdout) ? error("cannot write the JSON report to "
					      "stdout:") : 0;
	}
	if (!(f = fopen(path, "w")))
		return error("cannot write the JSON report \"%s\":", path);
	fputs(text, f);
	fputc('\n', f);
	return fclose(f) ? error("cannot write the JSON report \"%s\":",
				 path) : 0;
}

int compare_write_json(const char *path, const struct row *rows, size_t n,
		      const struct cmp_opts *o, const struct cmp_run *run,
		      enum verdict suite, int code)
{
	cJSON *root = cJSON_CreateObject(), *list, *x;
	char *text, *single = one_process_files(o, run);
	size_t i;
	int ret, s;

	cJSON_AddNumberToObject(root, "schema", 1);
	cJSON_AddStringToObject(root, "gate_version", GATE_VERSION);
	cJSON_AddStringToObject(root, "command", "compare");
	cJSON_AddStringToObject(root, "verdict", verdict_name(suite));
	cJSON_AddNumberToObject(root, "exit_code", code);
	cJSON_AddBoolToObject(root, "advisory", o->advisory);
	for (s = 0; s < 2; s++) {
		x = cJSON_AddObjectToObject(root, s ? "new" : "old");
		cJSON_AddStringToObject(x, "file", o->files[s]);
		cJSON_AddStringToObject(x, "format",
					format_name(run->used[s]));
		cJSON_AddBoolToObject(x, "one_process", run->one_process[s]);
	}
	x = cJSON_AddArrayToObject(root, "notes");
	if (single) {
		char *note = xasprintf("in %s, " ONE_PROCESS_NOTE, single);

		cJSON_AddItemToArray(x, cJSON_CreateString(note));
		free(note);
	}
	protocol_json(root, o, run);
	list = cJSON_AddArrayToObject(root, "benchmarks");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(list, row_json(&rows[i], run));
	free(single);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return error("cannot format the JSON report: out of memory");
	ret = write_report_text(path, text);
	free(text);
	return ret;
}

