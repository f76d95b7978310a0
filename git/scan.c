/*
 * What a checkout cannot give a benchmark: submodules (a gitlink checks out
 * as an empty directory) and Git LFS files (the checkout holds the pointer
 * text, not the content). Found by walking the tree, reported as warnings.
 */
#include "git/repo.h"

#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "common/error.h"
#include "common/banned.h"

#define LFS_PREFIX "version https://git-lfs.github.com/spec/v1"
/* LFS pointers are about 130 bytes; anything larger is real content */
#define LFS_POINTER_MAX 1024

struct scan {
	git_repository *git;
	git_odb *odb;
	size_t gitlinks, pointers, attrs;
	char *first_gitlink, *first_pointer, *first_attr;
};

static char *join(const char *root, const char *name)
{
	return xasprintf("%s%s", root, name);
}

/* Is blob id an LFS pointer? Reads the header first: large blobs are not. */
static int is_pointer(struct scan *s, const git_oid *id)
{
	git_object_t type;
	size_t size;
	git_blob *blob = NULL;
	int yes = 0;

	if (git_odb_read_header(&size, &type, s->odb, id) < 0 ||
	    size < sizeof(LFS_PREFIX) - 1 || size > LFS_POINTER_MAX)
		return 0;
	if (git_blob_lookup(&blob, s->git, id) == 0)
		yes = !memcmp(git_blob_rawcontent(blob), LFS_PREFIX,
			      sizeof(LFS_PREFIX) - 1);
	git_blob_free(blob);
	return yes;
}

/* Does the .gitattributes blob id route files through the LFS filter? */
static int names_lfs(struct scan *s, const git_oid *id)
{
	git_blob *blob = NULL;
	int yes = 0;

	if (git_blob_lookup(&blob, s->git, id) == 0) {
		size_t n = (size_t)git_blob_rawsize(blob);
		char *text = xstrndup(git_blob_rawcontent(blob), n);

		yes = strstr(text, "filter=lfs") != NULL;
		free(text);
	}
	git_blob_free(blob);
	return yes;
}

static int visit(const char *root, const git_tree_entry *e, void *data)
{
	struct scan *s = data;
	const char *name = git_tree_entry_name(e);

	if (git_tree_entry_filemode(e) == GIT_FILEMODE_COMMIT) {
		if (!s->gitlinks++)
			s->first_gitlink = join(root, name);
	} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
		   !strcmp(name, ".gitattributes") &&
		   names_lfs(s, git_tree_entry_id(e))) {
		if (!s->attrs++)
			s->first_attr = join(root, name);
	}
	return 0;
}

/* Second pass, only in trees that use LFS: find the pointer files. */
static int visit_pointers(const char *root, const git_tree_entry *e,
			  void *data)
{
	struct scan *s = data;

	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    is_pointer(s, git_tree_entry_id(e)) && !s->pointers++)
		s->first_pointer = join(root, git_tree_entry_name(e));
	return 0;
}

int repo_scan_tree(struct repo *r, const char *tree_hex, const char *what,
		   struct gate_err *err)
{
	struct scan s;
	git_tree *tree = NULL;
	git_oid id;
	int ret = -1;

	memset(&s, 0, sizeof(s));
	s.git = repo_git(r);
	if (git_oid_fromstr(&id, tree_hex) < 0 ||
	    git_tree_lookup(&tree, s.git, &id) < 0 ||
	    git_repository_odb(&s.odb, s.git) < 0) {
		error_to(err, "cannot read tree %s: %s", tree_hex,
			 repo_errmsg());
		goto cleanup;
	}
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, visit, &s) < 0 ||
	    (s.attrs && git_tree_walk(tree, GIT_TREEWALK_PRE, visit_pointers,
				      &s) < 0)) {
		error_to(err, "cannot walk tree %s: %s", tree_hex,
			 repo_errmsg());
		goto cleanup;
	}
	if (s.gitlinks)
		warning("%s has %zu submodule%s (\"%s\"%s): gate checks out "
			"each as an empty directory, not its content; build "
			"steps that need it must fetch it themselves (e.g. "
			"\"git submodule update --init\" in \"build\")", what,
			s.gitlinks, s.gitlinks == 1 ? "" : "s",
			s.first_gitlink, s.gitlinks == 1 ? "" : ", ...");
	if (s.pointers)
		warning("%s has %zu Git LFS pointer file%s (\"%s\"%s): gate "
			"checks out the pointer text, not the LFS content; a "
			"benchmark reading them measures the wrong data "
			"(fetch the content in \"build\", e.g. \"git lfs "
			"pull\", or keep benchmark data out of LFS)", what,
			s.pointers, s.pointers == 1 ? "" : "s",
			s.first_pointer, s.pointers == 1 ? "" : ", ...");
	else if (s.attrs)
		warning("%s's \"%s\" routes files through Git LFS: gate checks "
			"out pointer text, not LFS content", what, s.first_attr);
	ret = 0;
cleanup:
	free(s.first_gitlink);
	free(s.first_pointer);
	free(s.first_attr);
	git_odb_free(s.odb);
	git_tree_free(tree);
	return ret;
}
