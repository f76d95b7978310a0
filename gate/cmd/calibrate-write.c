/*
 * gate calibrate --write: its advice written into gate.json in place, one
 * key at a time, keeping the file's own layout and every other byte.
 */
#include "gate/cmd/calibrate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/file.h"
#include "common/jsonpos.h"
#include "common/banned.h"

/* Replace bytes [off, end) of *text (*len long, NUL-ended) by repl. */
static void splice(char **text, size_t *len, size_t off, size_t end,
		   const char *repl)
{
	size_t rl = strlen(repl), nl = *len - (end - off) + rl;
	char *t = xmalloc(nl + 1);

	memcpy(t, *text, off);
	memcpy(t + off, repl, rl);
	memcpy(t + off + rl, *text + end, *len - end);
	t[nl] = '\0';
	free(*text);
	*text = t;
	*len = nl;
}

/* v as the shortest decimal text that reads back as v. */
static void number_text(char *buf, size_t size, double v)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, size, "%.17g", v);
}

/*
 * Set key of benchmarks[bi] to the number text val, as a textual edit:
 * an existing value's bytes are replaced; a missing key is added after
 * the object's last member, laid out as that member is (its indentation
 * on a line of its own, or inline after ", "; the same text between key
 * and value). Everything else stays byte for byte. 0, or -1 when the
 * text is not laid out as expected there.
 */
static int edit_key(char **text, size_t *len, size_t bi, const char *key,
		    const char *val)
{
	struct jsonpos_step p[3] = { { "benchmarks", 0 }, { NULL, 0 },
				     { NULL, 0 } };
	size_t off, end, obj, kq, kend, v, vend, n, b;
	const char *t;
	char *ins;

	p[1].index = bi;
	p[2].key = key;
	if (jsonpos_value(*text, *len, p, 3, &off) == 0) {
		if (jsonpos_skip(*text, *len, off, &end) < 0)
			return -1;
		splice(text, len, off, end, val);
		return 0;
	}
	if (jsonpos_value(*text, *len, p, 2, &obj) < 0 || (*text)[obj] != '{')
		return -1;
	p[2].key = NULL;
	for (n = 0; ; n++) {
		p[2].index = n;
		if (jsonpos_value(*text, *len, p, 3, &v) < 0)
			break;
	}
	if (!n) {
		ins = xasprintf("\"%s\": %s", key, val);
		splice(text, len, obj + 1, obj + 1, ins);
		free(ins);
		return 0;
	}
	p[2].index = n - 1;
	if (jsonpos_key(*text, *len, p, 3, &kq) < 0 ||
	    jsonpos_skip(*text, *len, kq, &kend) < 0 ||
	    jsonpos_value(*text, *len, p, 3, &v) < 0 ||
	    jsonpos_skip(*text, *len, v, &vend) < 0)
		return -1;
	t = *text;
	for (b = kq; b > obj && (t[b - 1] == ' ' || t[b - 1] == '\t'); b--)
		;
	if (b > obj && t[b - 1] == '\n')
		/* a line of its own: the same line break and indentation */
		ins = xasprintf(",%s%.*s\"%s\"%.*s%s",
				b > 1 && t[b - 2] == '\r' ? "\r\n" : "\n",
				(int)(kq - b), t + b, key,
				(int)(v - kend), t + kend, val);
	else
		ins = xasprintf(", \"%s\"%.*s%s", key, (int)(v - kend),
				t + kend, val);
	splice(text, len, vend, vend, ins);
	free(ins);
	return 0;
}

/*
 * Whether benchmark object it needs key set to v: not when its own value
 * is v already, nor when it has none and inherits v (from "defaults" or
 * the built-in default): such a key would be redundant.
 */
static int needs(const cJSON *it, const char *key, double v,
		 double inherited)
{
	const cJSON *own = cJSON_GetObjectItemCaseSensitive(it, key);

	if (own)
		return !cJSON_IsNumber(own) || own->valuedouble != v;
	return v != inherited;
}

/*
 * --write: each benchmark gets its advice as its own keys, as a minimal
 * textual edit of the file (the rest stays byte for byte); a key that
 * would repeat what the benchmark inherits is not written. A pairs above
 * the effective max_pairs raises that benchmark's max_pairs to match.
 */
/*
 * Write the recommendations for the benchmark at index bi of gate.json
 * (it, named in cfg) into out (olen bytes), counting each key changed.
 * Non-zero when a key's place cannot be found.
 */
static int advice_edit_bench(char **out, size_t *olen, size_t bi,
			     const cJSON *it, const struct config *cfg,
			     const struct advice *adv, size_t *changed)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
	const struct bench_cfg *c;
	char num[32];
	size_t i;
	int e = 0;

	for (i = 0; cJSON_IsString(name) && i < cfg->nbench; i++) {
		c = &cfg->benches[i];
		if (strcmp(c->name, name->valuestring))
			continue;
		/* cfg holds what the benchmark has now: its own key, or
		   what it inherits when it has none */
		if (needs(it, "min_effect", adv[i].min_effect,
			  c->min_effect)) {
			number_text(num, sizeof(num), adv[i].min_effect);
			e |= edit_key(out, olen, bi, "min_effect", num);
			(*changed)++;
		}
		if (needs(it, "pairs", adv[i].pairs, c->pairs)) {
			snprintf(num, sizeof(num), "%u", adv[i].pairs);
			e |= edit_key(out, olen, bi, "pairs", num);
			(*changed)++;
		}
		if (adv[i].pairs > c->max_pairs) {
			snprintf(num, sizeof(num), "%u", adv[i].pairs);
			e |= edit_key(out, olen, bi, "max_pairs", num);
			(*changed)++;
		}
		/* the metric advised from the A/A pairs (gate/decide/advice.c); a
		   "metrics" list is the user's to reorder */
		if (adv[i].set_metric && c->metric != adv[i].metric) {
			if (cJSON_GetObjectItemCaseSensitive(it, "metrics")) {
				printf("%s: has a \"metrics\" list: put \"%s\" "
				       "first in it by hand\n", c->name,
				       metric_name(adv[i].metric));
			} else {
				snprintf(num, sizeof(num), "\"%s\"",
					 metric_name(adv[i].metric));
				e |= edit_key(out, olen, bi, "metric", num);
				(*changed)++;
			}
		}
	}
	return e;
}

/*
 * Replace path's content with text (len bytes): through a symlink to its
 * target, keeping the target's mode; the rename in the target's
 * directory makes the update atomic. 0 or -1.
 */
static int replace_file(const char *path, const char *text, size_t len)
{
	char *tmp = NULL, *real;
	struct stat st;
	FILE *f;
	int fd, ret = -1;

	if (!(real = realpath(path, NULL)))
		return error("cannot resolve \"%s\":", path);
	if (stat(real, &st) < 0) {
		error("cannot read \"%s\":", real);
		goto cleanup;
	}
	tmp = xasprintf("%s.gate-tmp", real);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	f = NULL;
	if (fd < 0 || fchmod(fd, st.st_mode & 07777) < 0 ||
	    !(f = fdopen(fd, "w"))) {
		error("cannot write \"%s\":", tmp);
		if (fd >= 0) {
			close(fd);
			remove(tmp);
		}
		goto cleanup;
	}
	if (fwrite(text, 1, len, f) != len || fflush(f) ||
	    fsync(fileno(f)) < 0 || fclose(f)) {
		error("cannot write \"%s\":", tmp);
		remove(tmp);
		goto cleanup;
	}
	if (rename(tmp, real) < 0) {
		error("cannot replace \"%s\":", real);
		remove(tmp);
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(tmp);
	free(real);
	return ret;
}

int calibrate_write_advice(const char *path, const struct config *cfg,
			   const struct advice *adv)
{
	char *text = NULL, *out = NULL;
	size_t len, bi, olen = 0, changed = 0;
	cJSON *root = NULL, *list, *it;
	struct config check = CONFIG_INIT;
	int ret = -1;

	if (file_read(&text, &len, path, 0) < 0)
		return -1;
	root = cJSON_Parse(text);
	list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
	if (!cJSON_IsArray(list)) {
		error("%s: cannot find \"benchmarks\" to update: is it the "
		      "gate.json that was measured?", path);
		goto cleanup;
	}
	out = xstrdup(text);
	olen = strlen(out);
	bi = 0;
	cJSON_ArrayForEach(it, list) {
		if (advice_edit_bench(&out, &olen, bi, it, cfg, adv,
				      &changed)) {
			error("%s: cannot find where benchmark %zu's keys go: "
			      "set \"min_effect\" and \"pairs\" by hand", path,
			      bi + 1);
			goto cleanup;
		}
		bi++;
	}
	if (!changed) {
		printf("%s has the recommendations already: unchanged\n",
		       path);
		ret = 0;
		goto cleanup;
	}
	/* never write a file gate itself would refuse */
	if (config_parse(&check, out, olen, path) < 0 ||
	    replace_file(path, out, olen) < 0)
		goto cleanup;
	printf("wrote the recommendations into %s\n", path);
	ret = 0;
cleanup:
	config_release(&check);
	cJSON_Delete(root);
	free(text);
	free(out);
	return ret;
}
