/*
 * Reading gate's records back from git notes along first-parent history
 * (the format is in gate/history.h). Reads the few report fields history
 * needs with cJSON directly.
 */
#include "gate/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "git/repo.h"
#include "common/banned.h"

char *history_default_label(void)
{
	const char *os = getenv("RUNNER_OS"), *arch = getenv("RUNNER_ARCH");
	char host[256];

	if (getenv("GITHUB_ACTIONS") && os && *os)
		return xasprintf("%s-%s", os, arch && *arch ? arch : "unknown");
	if (gethostname(host, sizeof(host)) < 0 || !*host)
		return xstrdup("local");
	host[sizeof(host) - 1] = '\0';
	return xstrdup(host);
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return xstrdup(cJSON_IsString(v) ? v->valuestring : "");
}

static void bench_release(struct history_bench *b)
{
	free(b->name);
	free(b->metric);
	free(b->unit);
	free(b->verdict);
	free(b->head);
}

static void step_release(struct history_step *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		bench_release(&st->b[i]);
	free(st->b);
	free(st->subject);
	free(st->base);
	free(st->suite_verdict);
	free(st->recorded_at);
	memset(st, 0, sizeof(*st));
}

/* Head's finite positive sample values, if kept: "head" of each pair of
   gate run's "samples", or gate compare's "new" "values". */
static void head_samples(struct history_bench *hb, const cJSON *b)
{
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(b, "samples");
	const cJSON *s;
	int plain = 0;

	hb->head = NULL;
	hb->nhead = 0;
	if (!cJSON_IsArray(samples)) {
		samples = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(b, "new"), "values");
		plain = 1;
	}
	if (!cJSON_IsArray(samples))
		return;
	cJSON_ArrayForEach(s, samples) {
		double v = plain ? (cJSON_IsNumber(s) ? s->valuedouble : NAN) :
			   num(s, "head");

		if (!(v > 0) || !isfinite(v))
			continue;
		hb->head = xrealloc(hb->head, (hb->nhead + 1) * sizeof(*hb->head));
		hb->head[hb->nhead++] = v;
	}
}

int history_parse_report(struct history_step *st, const cJSON *rep)
{
	const cJSON *bs = cJSON_GetObjectItemCaseSensitive(rep, "benchmarks");
	const cJSON *b;

	if (!cJSON_IsObject(rep) || !cJSON_IsArray(bs))
		return -1;
	st->base = str(cJSON_GetObjectItemCaseSensitive(rep, "base"),
		       "commit");
	st->suite_verdict = str(rep, "verdict");
	cJSON_ArrayForEach(b, bs) {
		const cJSON *ratio = cJSON_GetObjectItemCaseSensitive(b, "ratio");
		struct history_bench *hb;

		if (!cJSON_IsObject(b))
			continue;
		st->b = xrealloc(st->b, (st->n + 1) * sizeof(*st->b));
		hb = &st->b[st->n++];
		hb->name = str(b, "name");
		hb->metric = str(b, "metric");
		hb->unit = str(b, "unit");
		hb->verdict = str(b, "verdict");
		hb->estimate = num(ratio, "estimate");
		hb->low = num(ratio, "low");
		hb->high = num(ratio, "high");
		hb->level = num(ratio, "level");
		hb->floor = num(b, "min_effect");
		hb->pairs = num(b, "pairs");
		hb->head_median = num(cJSON_GetObjectItemCaseSensitive(b,
				"head"), "median");
		if (!isfinite(hb->head_median))	/* gate compare's reports */
			hb->head_median = num(cJSON_GetObjectItemCaseSensitive(
					b, "new"), "median");
		head_samples(hb, b);
	}
	return 0;
}

/* The newest record for label among note's lines into st. 1 if found. */
static int pick(struct history_step *st, const char *note, const char *label)
{
	const char *p = note, *nl;
	int found = 0;

	while (*p) {
		cJSON *rec, *lab;
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		rec = cJSON_ParseWithLength(p, len);
		p += len + (nl != NULL);
		if (!rec)
			continue;	/* not ours: a note someone else wrote */
		lab = cJSON_GetObjectItemCaseSensitive(rec, "label");
		if (cJSON_IsString(lab) && !strcmp(lab->valuestring, label) &&
		    cJSON_GetObjectItemCaseSensitive(rec, "gate_record")) {
			struct history_step fresh;

			memset(&fresh, 0, sizeof(fresh));
			if (history_parse_report(&fresh, cJSON_GetObjectItemCaseSensitive(
						rec, "report")) == 0) {
				size_t runs = st->runs;

				step_release(st);
				*st = fresh;
				st->runs = runs + 1;
				st->recorded_at = str(rec, "recorded_at");
				found = 1;
			} else {
				step_release(&fresh);
			}
		}
		cJSON_Delete(rec);
	}
	return found;
}

static int resolve_commit(char *out, struct repo *r, const char *spec)
{
	struct repo_rev rev = REPO_REV_INIT;

	if (repo_resolve(&rev, r, spec) < 0)
		return -1;
	memcpy(out, rev.commit, REPO_HEXSZ + 1);
	repo_rev_release(&rev);
	return 0;
}

int history_load(struct history *h, struct repo *r, const char *range,
		 const char *label)
{
	char from[REPO_HEXSZ + 1], until[REPO_HEXSZ + 1];
	const char *dots = range ? strstr(range, "..") : NULL;
	char **list = NULL;
	size_t n = 0, i;
	int have_until = 0, ret = -1;

	memset(h, 0, sizeof(*h));
	h->label = xstrdup(label);
	if (dots) {
		char *a = xstrndup(range, (size_t)(dots - range));
		const char *b = dots + 2;

		ret = resolve_commit(until, r, *a ? a : "HEAD");
		free(a);
		if (ret < 0 || resolve_commit(from, r, *b ? b : "HEAD") < 0)
			return -1;
		have_until = 1;
	} else if (resolve_commit(from, r, range ? range : "HEAD") < 0) {
		return -1;
	}
	if (repo_first_parents(&list, &n, r, from, have_until ? until : NULL) < 0)
		return -1;
	ret = -1;
	h->walked = n;
	for (i = n; i-- > 0;) {
		struct history_step st;
		char *note = NULL, *author = NULL;
		int rc = repo_note_read(&note, r, HISTORY_REF, list[i]);

		if (rc < 0)
			goto cleanup;
		if (!note)
			continue;
		memset(&st, 0, sizeof(st));
		if (pick(&st, note, label)) {
			memcpy(st.commit, list[i], REPO_HEXSZ + 1);
			if (repo_commit_info(r, list[i], &st.subject, &author,
					     NULL) < 0) {
				step_release(&st);
				free(note);
				goto cleanup;
			}
			free(author);
			h->s = xrealloc(h->s, (h->n + 1) * sizeof(*h->s));
			h->s[h->n++] = st;
		} else {
			step_release(&st);
		}
		free(note);
	}
	ret = 0;
cleanup:
	repo_list_free(list, n);
	return ret;
}

void history_release(struct history *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		step_release(&h->s[i]);
	free(h->s);
	free(h->label);
	memset(h, 0, sizeof(*h));
}
