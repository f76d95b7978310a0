/*
 * The calibration record and noise model. The record is JSON so people
 * can read it; it is advice, so a missing or stale one changes nothing
 * but warnings and the "noisy" guard.
 */
#include "gate/decide/calibration.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "common/file.h"
#include "gate/workspace/workspace.h"
#include "stats/stats.h"
#include "common/banned.h"

double calibration_spread(const double *ratios, size_t n)
{
	double *l, med, s;
	size_t i;

	if (n < 2)
		return NAN;
	l = xmalloc(n * sizeof(*l));
	for (i = 0; i < n; i++)
		l[i] = log(ratios[i]);
	med = stats_median(l, n);
	for (i = 0; i < n; i++)
		l[i] = fabs(l[i] - med);
	s = 1.4826 * stats_median(l, n);
	free(l);
	return s;
}

double calibration_mde(double spread, size_t n, double level, double power)
{
	double z = gsl_cdf_ugaussian_Pinv((1 + level) / 2) +
		   gsl_cdf_ugaussian_Pinv(power);

	if (!n || !(spread >= 0))
		return NAN;
	return expm1(z * 1.023 * spread / sqrt((double)n));
}

size_t calibration_pairs_needed(double spread, double floor, double level)
{
	double z = gsl_cdf_ugaussian_Pinv((1 + level) / 2) +
		   gsl_cdf_ugaussian_Pinv(0.8), n;

	if (!(spread >= 0) || !(floor > 0))
		return SIZE_MAX;
	/* calibration_mde's formula solved for n */
	n = ceil(pow(z * 1.023 * spread / log1p(floor), 2) - 1e-9);
	if (!(n <= CALIBRATION_PAIRS_MAX))
		return SIZE_MAX;
	return n < 2 ? 2 : (size_t)n;
}

char *calibration_command(const struct command *c)
{
	char *out, *o;
	size_t len = 1, i;

	if (!c->argv)
		return xasprintf("sh -c %s", c->shell ? c->shell : "");
	for (i = 0; c->argv[i]; i++)
		len += 2 * strlen(c->argv[i]) + 3;
	o = out = xmalloc(len);
	for (i = 0; c->argv[i]; i++) {
		const char *a = c->argv[i];
		int q = !*a || strpbrk(a, " \t\"\\") != NULL;

		if (i)
			*o++ = ' ';
		if (q)
			*o++ = '"';
		for (; *a; a++) {
			if (q && (*a == '"' || *a == '\\'))
				*o++ = '\\';
			*o++ = *a;
		}
		if (q)
			*o++ = '"';
	}
	*o = '\0';
	return out;
}

int calibration_save(const char *path, const char *commit,
		     const struct calib_bench *b, size_t n)
{
	cJSON *root = cJSON_CreateObject(), *list;
	char *text = NULL, *tmp = xasprintf("%s.tmp", path);
	FILE *f = NULL;
	size_t i;
	int ret = -1;

	cJSON_AddNumberToObject(root, "schema", 1);
	cJSON_AddStringToObject(root, "commit", commit ? commit : "");
	list = cJSON_AddArrayToObject(root, "benchmarks");
	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", b[i].name);
		cJSON_AddStringToObject(o, "metric", metric_name(b[i].metric));
		cJSON_AddStringToObject(o, "command", b[i].command ?
					b[i].command : "");
		cJSON_AddNumberToObject(o, "spread", b[i].spread);
		cJSON_AddNumberToObject(o, "base_cv", b[i].base_cv);
		cJSON_AddNumberToObject(o, "head_cv", b[i].head_cv);
		cJSON_AddNumberToObject(o, "pairs", (double)b[i].pairs);
		cJSON_AddItemToArray(list, o);
	}
	text = cJSON_Print(root);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0) {
		error("cannot write \"%s\":", tmp);
		goto cleanup;
	}
	if (fclose(f) != 0) {
		f = NULL;
		error("cannot write \"%s\":", tmp);
		goto cleanup;
	}
	f = NULL;
	if (rename(tmp, path) < 0) {
		error("cannot replace \"%s\":", path);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (f)
		fclose(f);
	if (ret < 0)
		remove(tmp);
	free(tmp);
	free(text);
	cJSON_Delete(root);
	return ret;
}

int calibration_load(struct calib_bench **out, size_t *n, const char *path)
{
	char *text = NULL;
	size_t len, i = 0;
	cJSON *root, *list, *it;
	FILE *probe = fopen(path, "r");

	*out = NULL;
	*n = 0;
	if (!probe)
		return 0;	/* no record: none to read */
	fclose(probe);
	if (file_read(&text, &len, path, 0) < 0)
		return -1;
	root = cJSON_Parse(text);
	free(text);
	list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
	if (!cJSON_IsArray(list)) {
		cJSON_Delete(root);
		return error("\"%s\" is not a calibration record: run gate "
			     "calibrate again", path);
	}
	*out = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(**out));
	cJSON_ArrayForEach(it, list) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
		const cJSON *sp = cJSON_GetObjectItemCaseSensitive(it, "spread");
		const cJSON *pr = cJSON_GetObjectItemCaseSensitive(it, "pairs");
		const cJSON *me = cJSON_GetObjectItemCaseSensitive(it, "metric");
		const cJSON *cm = cJSON_GetObjectItemCaseSensitive(it,
								   "command");
		int id = cJSON_IsString(me) ? metric_lookup(me->valuestring)
					    : -1;

		/* an older record says neither metric nor command: unused */
		if (!cJSON_IsString(name) || !cJSON_IsNumber(sp) || id < 0 ||
		    !cJSON_IsString(cm))
			continue;
		(*out)[i].name = xstrdup(name->valuestring);
		(*out)[i].metric = (enum metric)id;
		(*out)[i].command = xstrdup(cm->valuestring);
		(*out)[i].spread = sp->valuedouble;
		(*out)[i].pairs = cJSON_IsNumber(pr) ?
				  (size_t)pr->valuedouble : 0;
		i++;
	}
	*n = i;
	cJSON_Delete(root);
	return 0;
}

void calibration_free(struct calib_bench *b, size_t n)
{
	size_t i;

	for (i = 0; b && i < n; i++) {
		free(b[i].name);
		free(b[i].command);
	}
	free(b);
}

size_t calibration_reachable(const struct run_report *r, size_t i,
			     int *by_budget)
{
	const struct bench_run *br = &r->b[i].run;
	const struct bench_cfg *c = br->cfg;
	/* the configured max_pairs, not the budget's plan of the looks */
	size_t most = br->max_pairs_set ? br->max_pairs_set : c->max_pairs;
	size_t cap = most > c->pairs ? most : c->pairs;
	size_t k, nb = 0;
	double per, can;

	*by_budget = 0;
	if (!(r->budget > 0) || !br->npairs || !(br->seconds > 0))
		return cap;
	for (k = 0; k < r->n; k++)
		nb += !r->b[k].run.is_new && !r->b[k].run.is_removed;
	per = (br->seconds - br->warmup_seconds) / (double)br->npairs;
	if (!(per > 0))
		return cap;
	can = r->budget / (double)(nb ? nb : 1) / per;
	if (can < (double)c->pairs)
		can = (double)c->pairs;
	if (can < (double)cap) {
		*by_budget = 1;
		return (size_t)can;
	}
	return cap;
}

void calibration_check_run(struct run_report *r, const char *path)
{
	struct calib_bench *b = NULL;
	size_t nb = 0, i, j;

	if (calibration_load(&b, &nb, path) < 0)
		return;
	for (i = 0; i < r->n; i++) {
		const struct bench_cfg *c = r->b[i].run.cfg;
		const struct bench_stats *st = run_bench_primary(&r->b[i]);
		char *cmd = calibration_command(&c->run);
		size_t can;
		int by_budget;

		/* the same benchmark, metric and command, or nothing */
		for (j = 0; j < nb && (strcmp(b[j].name, c->name) ||
				       b[j].metric != c->metric ||
				       strcmp(b[j].command, cmd)); j++)
			;
		free(cmd);
		if (j == nb)
			continue;
		/* a 2x-floor regression should fail 80% of the time, at
		 * the pairs this run can spend (max_pairs, the budget) */
		can = calibration_reachable(r, i, &by_budget);
		if (c->min_effect < calibration_mde(b[j].spread, can,
						    r->level, 0.8))
			warning("benchmark \"%s\": floor %+.1f%% is below what "
				"its calibrated noise resolves at the %zu pairs "
				"this run can spend (%s): %+.1f%%; raise "
				"\"min_effect\"%s (gate calibrate recommends "
				"them)", c->name, c->min_effect * 100, can,
				by_budget ? "its share of the budget" :
				"max_pairs",
				calibration_mde(b[j].spread, can, r->level,
						0.8) * 100,
				by_budget ? ", \"budget\" or --budget" :
				" or \"max_pairs\"");
		if (st && st->ratios && st->n >= 6 && b[j].spread > 0 &&
		    !st->exact && r->b[i].result.verdict != VERDICT_NEW &&
		    r->b[i].result.verdict != VERDICT_ERROR) {
			double now = calibration_spread(st->ratios, st->n);
			char why[160];

			if (now > 3 * b[j].spread) {
				snprintf(why, sizeof(why), "its %s noise was "
					 "%.1fx what gate calibrate measured "
					 "(a note: the verdict stands)",
					 metric_name(c->metric),
					 now / b[j].spread);
				run_bench_note(&r->b[i], why);
			}
		}
	}
	calibration_free(b, nb);
}
