/*
 * Hashing a file's content as git hashes a blob (libgit2's SHA-1 with
 * collision detection), for the arms' manifests: three times the speed
 * of common/sha256.c on this project's machine (make bench-seal).
 */
#ifndef GIT_HASH_H
#define GIT_HASH_H

/*
 * The blob hash of the regular file at path, read without following a
 * link and without blocking on a FIFO put in its place; 0, or -1 (not a
 * regular file, unreadable).
 */
int repo_hash_file(const char *path, char hex[41]);

#endif
