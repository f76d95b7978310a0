/*
 * SHA-256 (FIPS 180-4): the digest gate records of a build's artifacts,
 * so that a user can compare them with sha256sum's.
 */
#ifndef COMMON_SHA256_H
#define COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;		/* hashed so far */
	unsigned char buf[64];
	size_t fill;		/* bytes waiting in buf */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL, into hex[65]. */
void sha256_final_hex(struct sha256 *s, char hex[65]);
/* A file's digest into hex[65]: 0, or -1 with errno set. */
int sha256_file(const char *path, char hex[65]);

#endif
