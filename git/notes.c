/*
 * gate's history in git: notes on commits (refs/notes/gate), appended to
 * with a compare-and-swap on the notes ref so that concurrent writers never
 * lose each other's records, and the first-parent walks and commit facts
 * that gate record, trend and bisect read.
 */
#include "git/repo.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "common/error.h"
#include "common/banned.h"

static int parse_oid(git_oid *id, const char *hex)
{
	if (git_oid_fromstr(id, hex) < 0)
		return error("\"%s\" is not a commit id", hex);
	return 0;
}

int repo_note_read(char **text, struct repo *r, const char *ref,
		   const char *commit)
{
	git_note *note = NULL;
	git_oid id;
	int err;

	*text = NULL;
	if (parse_oid(&id, commit) < 0)
		return -1;
	err = git_note_read(&note, repo_git(r), ref, &id);
	if (err == GIT_ENOTFOUND)
		return 0;	/* *text stays NULL: no note */
	if (err < 0)
		return error("cannot read the note on %.12s in %s: %s", commit,
			     ref, repo_errmsg());
	*text = xstrdup(git_note_message(note));
	git_note_free(note);
	return 0;
}

/* The committer of notes commits: the user's identity, else gate's. */
static int signature(git_signature **sig, git_repository *git)
{
	if (git_signature_default(sig, git) == 0)
		return 0;
	if (git_signature_now(sig, "gate", "gate@localhost") < 0)
		return error("cannot make a signature for the notes commit: %s",
			     repo_errmsg());
	return 0;
}

/*
 * One attempt: read the ref's tip, write a notes commit on top of it with
 * line appended to commit's note, and move the ref only if it still points
 * at that tip. Returns 0, 1 when another writer moved the ref (try again),
 * or -1.
 */
static int append_once(git_repository *git, const char *ref,
		       const git_oid *target, const char *line,
		       const git_signature *sig)
{
	git_oid tip, notes_commit, blob;
	git_commit *parent = NULL;
	git_note *old = NULL;
	git_reference *out = NULL;
	char *text = NULL;
	const char *prev = "";
	int have, err, ret = -1;
	size_t len;

	err = git_reference_name_to_id(&tip, git, ref);
	if (err < 0 && err != GIT_ENOTFOUND)
		return error("cannot read %s: %s", ref, repo_errmsg());
	have = err == 0;
	if (have && git_commit_lookup(&parent, git, &tip) < 0) {
		error("%s does not point at a commit: %s", ref, repo_errmsg());
		goto cleanup;
	}
	if (have) {
		err = git_note_commit_read(&old, git, parent, target);
		if (err < 0 && err != GIT_ENOTFOUND) {
			error("cannot read the note in %s: %s", ref,
			      repo_errmsg());
			goto cleanup;
		}
		if (old)
			prev = git_note_message(old);
	}
	len = strlen(prev);
	text = xasprintf("%s%s%s\n", prev,
			 len && prev[len - 1] != '\n' ? "\n" : "", line);
	if (git_note_commit_create(&notes_commit, &blob, git, parent, sig, sig,
				   target, text, 1) < 0) {
		error("cannot write the notes commit: %s", repo_errmsg());
		goto cleanup;
	}
	if (have)
		err = git_reference_create_matching(&out, git, ref,
				&notes_commit, 1, &tip, "gate record");
	else
		err = git_reference_create(&out, git, ref, &notes_commit, 0,
					   "gate record");
	if (err == GIT_EMODIFIED || err == GIT_EEXISTS || err == GIT_ELOCKED) {
		ret = 1;
		goto cleanup;
	}
	if (err < 0) {
		error("cannot update %s: %s", ref, repo_errmsg());
		goto cleanup;
	}
	ret = 0;
cleanup:
	git_reference_free(out);
	git_note_free(old);
	git_commit_free(parent);
	free(text);
	return ret;
}

/*
 * Before another try at a ref that moved: a wait that grows with the tries
 * (up to 50 ms) and differs between processes, so that writers racing for
 * one ref do not keep colliding in step (100 tries then span seconds).
 */
static void back_off(int attempt)
{
	long ms = (attempt < 25 ? 2L * attempt : 50L) + getpid() % 7;
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

int repo_note_append(struct repo *r, const char *ref, const char *commit,
		     const char *line)
{
	git_signature *sig = NULL;
	git_oid id;
	int attempt, rc = -1;

	if (parse_oid(&id, commit) < 0 || signature(&sig, repo_git(r)) < 0)
		return -1;
	for (attempt = 0; attempt < 100; attempt++) {
		rc = append_once(repo_git(r), ref, &id, line, sig);
		if (rc <= 0)
			break;
		back_off(attempt);
	}
	git_signature_free(sig);
	if (rc > 0)
		return error("%s kept changing under gate record (100 tries): "
			     "try again", ref);
	return rc;
}

int repo_first_parents(char ***out, size_t *n, struct repo *r,
		       const char *from, const char *until)
{
	git_commit *c = NULL, *next;
	git_oid id, stop;
	char **list = NULL;
	size_t k = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (parse_oid(&id, from) < 0 || (until && parse_oid(&stop, until) < 0))
		return -1;
	if (git_commit_lookup(&c, repo_git(r), &id) < 0)
		return error("cannot read commit %.12s: %s", from,
			     repo_errmsg());
	for (;;) {
		if (until && git_oid_equal(git_commit_id(c), &stop))
			break;
		XGROW(list, cap, k + 1);
		list[k] = xmalloc(REPO_HEXSZ + 1);
		git_oid_tostr(list[k++], REPO_HEXSZ + 1, git_commit_id(c));
		if (git_commit_parentcount(c) == 0) {
			if (until) {
				git_commit_free(c);
				repo_list_free(list, k);
				return error("%.12s is not a first-parent "
					     "ancestor of %.12s: give an older "
					     "revision first", until, from);
			}
			break;
		}
		if (git_commit_parent(&next, c, 0) < 0) {
			error("cannot read the parent of %.12s: %s (a shallow "
			      "clone? git fetch --unshallow)", list[k - 1],
			      repo_errmsg());
			git_commit_free(c);
			repo_list_free(list, k);
			return -1;
		}
		git_commit_free(c);
		c = next;
	}
	git_commit_free(c);
	*out = list;
	*n = k;
	return 0;
}

void repo_list_free(char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

int repo_commit_info(struct repo *r, const char *commit, char **subject,
		     char **author, char **parent)
{
	git_commit *c = NULL;
	const git_signature *a;
	const char *s;
	git_oid id;

	*subject = *author = NULL;
	if (parent)
		*parent = NULL;
	if (parse_oid(&id, commit) < 0)
		return -1;
	if (git_commit_lookup(&c, repo_git(r), &id) < 0)
		return error("cannot read commit %.12s: %s", commit,
			     repo_errmsg());
	s = git_commit_summary(c);
	a = git_commit_author(c);
	*subject = xstrdup(s ? s : "");
	*author = xasprintf("%s <%s>", a && a->name ? a->name : "",
			    a && a->email ? a->email : "");
	if (parent && git_commit_parentcount(c) > 0) {
		*parent = xmalloc(REPO_HEXSZ + 1);
		git_oid_tostr(*parent, REPO_HEXSZ + 1,
			      git_commit_parent_id(c, 0));
	}
	git_commit_free(c);
	return 0;
}
