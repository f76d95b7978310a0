/*
 * Gate-Accept trailers: a regression a pull request accepts on purpose,
 * read from the commit messages of base..head only, so a trailer cannot
 * outlive its pull request.
 */
#include "git/repo.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <git2.h>

#include "common/error.h"
#include "common/banned.h"

#define ACCEPT_KEY "Gate-Accept"

/* The word after the name: "redefined", "removed", or NULL. */
static int accept_word(const char *s, enum accept_kind *kind,
		       const char **end)
{
	static const struct { const char *word; enum accept_kind kind; }
	words[] = { { "redefined", ACCEPT_REDEFINED },
		    { "removed", ACCEPT_REMOVED } };
	size_t i, n;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].word);
		if (!strncmp(s, words[i].word, n) &&
		    (!s[n] || isspace((unsigned char)s[n]))) {
			*kind = words[i].kind;
			*end = s + n;
			return 1;
		}
	}
	return 0;
}

/*
 * A bound written "+15%" or "2.5%": decimal digits only (no hex, no
 * exponent, no inf), so what the reviewer reads is what gate applies.
 */
static int accept_bound(const char *s, double *pct, const char **end)
{
	const char *p = s;
	char buf[32];
	size_t n;

	if (*p == '+')
		p++;
	s = p;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			;
	n = (size_t)(p - s);
	if (!n || n >= sizeof(buf) || (n == 1 && *s == '.') || *p != '%')
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*pct = strtod(buf, NULL);
	*end = p + 1;
	return isfinite(*pct) && *pct > 0 ? 0 : -1;
}

int repo_accept_parse(struct repo_accept *out, const char *value,
		      const char **why)
{
	const char *s = value, *name, *end;
	enum accept_kind kind = ACCEPT_BOUND;
	size_t nlen;
	char *e;
	double pct = 0;

	while (isspace((unsigned char)*s))
		s++;
	name = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	nlen = (size_t)(s - name);
	if (!nlen) {
		*why = "names no benchmark";
		return -1;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (!accept_word(s, &kind, &end) && accept_bound(s, &pct, &end) < 0) {
		*why = "gives no bound (write it as +15%, or the word "
		       "\"redefined\" or \"removed\")";
		return -1;
	}
	s = end;
	if (*s && !isspace((unsigned char)*s)) {
		*why = "gives no bound (write it as +15%)";
		return -1;
	}
	while (isspace((unsigned char)*s))
		s++;
	out->pattern = xmalloc(nlen + 1);
	memcpy(out->pattern, name, nlen);
	out->pattern[nlen] = '\0';
	out->kind = kind;
	out->bound = pct / 100;
	out->reason = xstrdup(s);
	/* trailing blanks of the reason are not part of it */
	e = out->reason + strlen(out->reason);
	while (e > out->reason && isspace((unsigned char)e[-1]))
		*--e = '\0';
	out->commit[0] = '\0';
	return 0;
}

/* The Gate-Accept trailers of one commit, appended to *out. */
static void commit_accepts(struct repo_accept **out, size_t *n,
			   size_t *cap, const git_commit *c, const char *hex)
{
	git_message_trailer_array arr = { 0 };
	const char *msg = git_commit_message(c);
	size_t i;

	if (!msg || git_message_trailers(&arr, msg) < 0)
		return;
	for (i = 0; i < arr.count; i++) {
		struct repo_accept a;
		const char *why;

		if (strcasecmp(arr.trailers[i].key, ACCEPT_KEY))
			continue;
		if (repo_accept_parse(&a, arr.trailers[i].value, &why) < 0) {
			warning("the Gate-Accept trailer \"%s\" of commit "
				"%.10s %s: ignored", arr.trailers[i].value,
				hex, why);
			continue;
		}
		memcpy(a.commit, hex, sizeof(a.commit));
		XGROW(*out, *cap, *n + 1);
		(*out)[(*n)++] = a;
	}
	git_message_trailer_array_free(&arr);
}

int repo_accepts(struct repo_accept **out, size_t *n, struct repo *r,
		 const char *base, const char *head,
		 struct gate_err *err)
{
	git_repository *git = repo_git(r);
	git_revwalk *walk = NULL;
	git_oid id;
	int ret = -1, rc;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!head || !head[0])
		return 0;
	if (git_revwalk_new(&walk, git) < 0 ||
	    git_oid_fromstr(&id, head) < 0 || git_revwalk_push(walk, &id) < 0)
		goto fail;
	if (base && base[0] && (git_oid_fromstr(&id, base) < 0 ||
				git_revwalk_hide(walk, &id) < 0))
		goto fail;
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	while ((rc = git_revwalk_next(&id, walk)) == 0) {
		git_commit *c = NULL;
		char hex[REPO_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &id);
		if (git_commit_lookup(&c, git, &id) < 0)
			goto fail;
		commit_accepts(out, n, &cap, c, hex);
		git_commit_free(c);
	}
	if (rc != GIT_ITEROVER)
		goto fail;
	ret = 0;
	goto done;
fail:
	error_to(err, "cannot read the commits between base and head for "
		 "Gate-Accept trailers: %s", repo_errmsg());
	repo_accepts_release(*out, *n);
	*out = NULL;
	*n = 0;
done:
	git_revwalk_free(walk);
	return ret;
}

void repo_accepts_release(struct repo_accept *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(a[i].pattern);
		free(a[i].reason);
	}
	free(a);
}
