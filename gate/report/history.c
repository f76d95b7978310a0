/*
 * Reading gate's records back from git notes along first-parent history
 * (the format is in gate/report/history.h): each record's report through the one
 * loader (gate/report/load.h) into the run model, and the figures history
 * reads off that model.
 */
#include "gate/report/history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/config/options.h"
#include "gate/report/load.h"
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

char *history_label_arg(const char *arg, const struct opts_cmd *usage)
{
	if (arg && !*arg) {
		error("--label needs a name, not \"%s\"", arg);
		options_usage(usage, stderr);
		return NULL;
	}
	return arg ? xstrdup(arg) : history_default_label();
}

const char *history_verdict(const struct run_bench *b)
{
	return b->run.is_removed ? "removed" : verdict_name(b->result.verdict);
}

const char *history_unit(const struct run_bench *b)
{
	const struct bench_cfg *c = b->run.cfg;

	return c->unit ? c->unit : metric_unit(c->metric);
}

const struct bench_stats *history_figures(const struct run_bench *b)
{
	const struct bench_stats *st = run_bench_primary(b);

	return st && st->n ? st : NULL;
}

int history_identical(const struct run_bench *b)
{
	const struct bench_stats *st = run_bench_primary(b);

	return b->run.identical == 1 && !(st && st->n);
}

size_t history_head_values(const struct run_bench *b, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < b->run.npairs; i++) {
		double v = sample_value(&b->run.pairs[i].s[ARM_HEAD],
					b->run.cfg->metric);

		if (!(v > 0) || !isfinite(v))
			continue;
		if (out)
			out[n] = v;
		n++;
	}
	return n;
}

static void step_release(struct history_step *st)
{
	report_load_release(&st->report);
	free(st->subject);
	free(st->recorded_at);
	memset(st, 0, sizeof(*st));
}

/* Record rec (of the label) into fresh through the loader; 0, or -1 after
   a warning that it is skipped. */
static int record_load(struct history_step *fresh, const cJSON *rec,
		       const char *label, const char *commit)
{
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(rec, "recorded_at");
	struct gate_err err;
	char *origin = xasprintf("the record of \"%s\" on %.12s", label,
				 commit);
	int ret;

	ret = report_load_tree(&fresh->report,
			       cJSON_GetObjectItemCaseSensitive(rec, "report"),
			       origin, REPORT_LOAD_SUMMARY, &err);
	if (ret < 0)
		warning("%s; skipped", err.msg);
	else
		fresh->recorded_at = xstrdup(cJSON_IsString(at) ?
					     at->valuestring : "");
	free(origin);
	return ret;
}

/*
 * The newest record for label among note's lines into st, the ones it
 * supersedes appended to h->older; what is not a record counted in h. 1 if
 * found.
 */
static int pick(struct history *h, struct history_step *st, const char *note,
		const char *label, const char *commit)
{
	const char *p = note, *nl;
	int found = 0;

	st->older = h->nolder;
	while (*p) {
		cJSON *rec, *lab;
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		rec = cJSON_ParseWithLength(p, len);
		p += len + (nl != NULL);
		if (!rec || !cJSON_GetObjectItemCaseSensitive(rec,
							      "gate_record")) {
			/* not ours: a note someone else wrote, or garbage */
			h->not_records += len > 0;
			cJSON_Delete(rec);
			continue;
		}
		lab = cJSON_GetObjectItemCaseSensitive(rec, "label");
		if (cJSON_IsString(lab) && !strcmp(lab->valuestring, label)) {
			struct history_step fresh;

			memset(&fresh, 0, sizeof(fresh));
			if (record_load(&fresh, rec, label, commit) == 0) {
				size_t runs = st->runs;

				if (found) {	/* superseded: kept for export */
					memcpy(st->commit, commit,
					       REPO_HEXSZ + 1);
					XGROW(h->older, h->oldercap,
					      h->nolder + 1);
					h->older[h->nolder++] = *st;
					st->nolder++;
				}
				fresh.older = st->older;
				fresh.nolder = st->nolder;
				*st = fresh;
				st->runs = runs + 1;
				found = 1;
			} else {
				h->unreadable++;
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
		if (pick(h, &st, note, label, list[i])) {
			memcpy(st.commit, list[i], REPO_HEXSZ + 1);
			if (repo_commit_info(r, list[i], &st.subject, &author,
					     NULL) < 0) {
				step_release(&st);
				free(note);
				goto cleanup;
			}
			free(author);
			XGROW(h->s, h->cap, h->n + 1);
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

int history_load_arg(struct history *h, struct repo *r, const char *range,
		     const char *label_arg, const struct opts_cmd *usage)
{
	char *label = history_label_arg(label_arg, usage);
	int rc;

	if (!label)
		return -1;
	rc = history_load(h, r, range, label);
	free(label);
	return rc;
}

void history_release(struct history *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		step_release(&h->s[i]);
	for (i = 0; i < h->nolder; i++)
		step_release(&h->older[i]);
	free(h->s);
	free(h->older);
	free(h->label);
	memset(h, 0, sizeof(*h));
}
