/*
 * Removing a directory tree: the one recursive delete gate has.
 */
#ifndef COMMON_TREE_H
#define COMMON_TREE_H

struct gate_err;

/*
 * Remove path and everything under it, at any depth (deeper than PATH_MAX,
 * more levels than open files: one directory open at a time), never
 * following a symlink (a link is removed, not what it points to); a
 * directory left read-only is made writable first. Returns 0 (also when
 * path does not exist), or -1 after error_to(err).
 */
int tree_remove(const char *path, struct gate_err *err);

#endif
