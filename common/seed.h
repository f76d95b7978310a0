/*
 * Seeds: one run seed (printed, replayed by --seed), and every random
 * stream of the run derived from it by name, so that streams are apart
 * from each other and each one replays alone.
 */
#ifndef COMMON_SEED_H
#define COMMON_SEED_H

#include <stddef.h>

/*
 * The stream "name" (its k-th, e.g. the k-th look) of the run seeded with
 * seed: a 32-bit value, the same on every platform.
 */
unsigned long seed_derive(unsigned long seed, const char *name, size_t k);
/* A fresh run seed from /dev/urandom (else the clock and pid), 32 bits. */
unsigned long seed_fresh(void);

#endif
