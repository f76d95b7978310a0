/* Written for gate's bench (not libdivsufsort's): what its CMake build
   generates from include/divsufsort.h.cmake, reduced to the one function
   the driver calls, for 32-bit indexes. */
#ifndef _DIVSUFSORT_H
#define _DIVSUFSORT_H 1
#include <inttypes.h>
typedef uint8_t sauchar_t;
typedef int32_t saint_t;
typedef int32_t saidx_t;
#define PRIdSAINT_T PRId32
#define PRIdSAIDX_T PRId32
saint_t divsufsort(const sauchar_t *T, saidx_t *SA, saidx_t n);
saidx_t divbwt(const sauchar_t *T, sauchar_t *U, saidx_t *A, saidx_t n);
const char *divsufsort_version(void);
#endif
