/*
 * The one recursive delete (rm -rf) of gate: arms, scratch directories,
 * checkouts, gate's object store. See tree.h.
 */
#include "common/tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/banned.h"

/*
 * Unlink every entry of directory fd but its subdirectories; *sub is set
 * to one of those (malloc'd), or NULL when none is left. Never follows a
 * symlink: a link is unlinked, whatever it points to.
 */
static int remove_entries(int fd, const char *path, char **sub,
			  struct gate_err *err)
{
	int dfd = dup(fd);
	struct dirent *e;
	struct stat st;
	DIR *d;

	*sub = NULL;
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return error_to(err, "cannot read a directory under \"%s\":",
				path);
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT)
				continue;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			if (!*sub)
				*sub = xstrdup(e->d_name);
		} else if (unlinkat(fd, e->d_name, 0) < 0 && errno != ENOENT) {
			break;
		}
	}
	if (e) {
		error_to(err, "cannot remove \"%s\" under \"%s\":", e->d_name,
			 path);
		closedir(d);
		free(*sub);
		*sub = NULL;
		return -1;
	}
	closedir(d);
	return 0;
}

/* Open subdirectory name of fd, never through a symlink, made writable
 * (a benchmark may leave a read-only directory). */
static int open_sub(int fd, const char *name)
{
	int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int child = openat(fd, name, flags);

	if (child < 0 && errno == EACCES && fchmodat(fd, name, 0700, 0) == 0)
		child = openat(fd, name, flags);
	if (child >= 0)
		fchmod(child, 0700);
	return child;
}

/* One directory entered on the way down: its name, its parent's identity. */
struct rm_level {
	char *name;
	dev_t dev;
	ino_t ino;
};

/* The directories tree_remove is inside, top first. */
struct rm_path {
	struct rm_level *up;
	size_t depth, cap;
};

/* Down from fd (then closed) into its subdirectory sub (owned): the
   child's fd, or -1 after error_to(err) with fd still open. */
static int rm_descend(int fd, char *sub, const char *path, struct rm_path *rp,
		      struct gate_err *err)
{
	struct stat st;
	int child = open_sub(fd, sub);

	if (child < 0 || fstat(fd, &st) < 0) {
		error_to(err, "cannot remove \"%s\" under \"%s\":", sub, path);
		free(sub);
		if (child >= 0)
			close(child);
		return -1;
	}
	XGROW(rp->up, rp->cap, rp->depth + 1);
	rp->up[rp->depth].name = sub;
	rp->up[rp->depth].dev = st.st_dev;
	rp->up[rp->depth++].ino = st.st_ino;
	close(fd);
	return child;
}

/* fd is empty: back up (fd closed) to its parent, checked to be the one
   it came down from, and remove it there. The parent's fd, or -1 after
   error_to(err). */
static int rm_ascend(int fd, const char *path, struct rm_path *rp,
		     struct gate_err *err)
{
	struct rm_level *top = &rp->up[rp->depth - 1];
	struct stat st;
	int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	close(fd);
	if (parent < 0 || fstat(parent, &st) < 0 || st.st_dev != top->dev ||
	    st.st_ino != top->ino) {
		error_to(err, "cannot remove \"%s\": a directory under it moved "
			 "while it was removed", path);
		if (parent >= 0)
			close(parent);
		return -1;
	}
	if (unlinkat(parent, top->name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
		error_to(err, "cannot remove \"%s\" under \"%s\":", top->name,
			 path);
		close(parent);
		return -1;
	}
	free(top->name);
	rp->depth--;
	return parent;
}

/*
 * Depth first with one directory open at a time, so that any depth works
 * (deeper than PATH_MAX, more levels than open files): down into the first
 * subdirectory left, back up through ".." (checked to be the directory
 * it came from) once a directory is empty.
 */
int tree_remove(const char *path, struct gate_err *err)
{
	struct rm_path rp = { NULL, 0, 0 };
	struct stat st;
	char *sub;
	int fd, ret = -1;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 :
		       error_to(err, "cannot remove \"%s\":", path);
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 && errno != ENOENT ?
		       error_to(err, "cannot remove \"%s\":", path) : 0;
	chmod(path, 0700);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error_to(err, "cannot remove \"%s\":", path);
	for (;;) {
		int down, next;

		if (remove_entries(fd, path, &sub, err) < 0)
			goto cleanup;
		if (!sub && rp.depth == 0)
			break;
		down = sub != NULL;
		next = down ? rm_descend(fd, sub, path, &rp, err) :
			      rm_ascend(fd, path, &rp, err);
		if (next < 0) {
			/* rm_descend leaves fd open, rm_ascend closed it */
			if (!down)
				fd = -1;
			goto cleanup;
		}
		fd = next;
	}
	close(fd);
	fd = -1;
	if (rmdir(path) < 0 && errno != ENOENT)
		error_to(err, "cannot remove \"%s\":", path);
	else
		ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	while (rp.depth > 0)
		free(rp.up[--rp.depth].name);
	free(rp.up);
	return ret;
}
