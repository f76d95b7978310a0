/*
 * The scanner's pieces shared by common/jsonpos.c (checking) and
 * common/jsonpos-find.c (finding by path); private to them.
 */
#ifndef GATE_JSONPOS_INTERNAL_H
#define GATE_JSONPOS_INTERNAL_H

#include <stddef.h>

/* JSON's four whitespace bytes. */
int jsonpos_is_ws(unsigned char c);
/* pos moved past any whitespace in s[0..len). */
size_t jsonpos_skip_ws(const unsigned char *s, size_t len, size_t pos);
/* The four hex digits at s[pos..pos+3] as a number, or -1. */
long jsonpos_hex4(const unsigned char *s, size_t len, size_t pos);

#endif
