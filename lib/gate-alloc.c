/*
 * libgate-alloc.so: preloaded into a benchmark's processes to count heap
 * allocations. Each process appends one fixed-size record to the file named
 * by GATE_ALLOC_OUT when it exits; nothing touches stdout or stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if !defined(__GLIBC__)
#error "libgate-alloc.so needs glibc's __libc_malloc family"
#endif

/*
 * glibc's own entry points: forwarding to them needs no dlsym, so nothing
 * here can recurse into malloc while resolving the next definition.
 */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);
extern void __libc_free(void *);

static unsigned long long n_allocs, n_bytes, n_frees;
static char out_path[4096];

#define COUNT(bytes)                                                         \
	do {                                                                 \
		__atomic_fetch_add(&n_allocs, 1, __ATOMIC_RELAXED);          \
		__atomic_fetch_add(&n_bytes, (unsigned long long)(bytes),    \
				   __ATOMIC_RELAXED);                        \
	} while (0)

void *malloc(size_t n)
{
	COUNT(n);
	return __libc_malloc(n);
}

void *calloc(size_t m, size_t n)
{
	COUNT(m * n);
	return __libc_calloc(m, n);
}

void *realloc(void *p, size_t n)
{
	COUNT(n);
	return __libc_realloc(p, n);
}

void *memalign(size_t align, size_t n)
{
	COUNT(n);
	return __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	COUNT(n);
	return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	COUNT(n);
	p = __libc_memalign(align, n);
	if (!p && n)
		return ENOMEM;
	*out = p;
	return 0;
}

void *valloc(size_t n)
{
	COUNT(n);
	return __libc_valloc(n);
}

void *pvalloc(size_t n)
{
	COUNT(n);
	return __libc_pvalloc(n);
}

void free(void *p)
{
	if (p)
		__atomic_fetch_add(&n_frees, 1, __ATOMIC_RELAXED);
	__libc_free(p);
}

/* A forked child starts from zero: its parent reports its own counts. */
static void reset_in_child(void)
{
	n_allocs = n_bytes = n_frees = 0;
}

__attribute__((constructor)) static void gate_alloc_init(void)
{
	const char *p = getenv("GATE_ALLOC_OUT");

	/* copied now: the program may change its environment later */
	if (p && strlen(p) < sizeof(out_path))
		memcpy(out_path, p, strlen(p) + 1);
	pthread_atfork(NULL, NULL, reset_in_child);
}

__attribute__((destructor)) static void gate_alloc_report(void)
{
	char rec[96];
	int fd, n, saved = errno;

	if (!out_path[0])
		return;
	/* one write below PIPE_BUF with O_APPEND: records never interleave */
	n = snprintf(rec, sizeof(rec), "%20llu %20llu %20llu %10ld\n",
		     __atomic_load_n(&n_allocs, __ATOMIC_RELAXED),
		     __atomic_load_n(&n_bytes, __ATOMIC_RELAXED),
		     __atomic_load_n(&n_frees, __ATOMIC_RELAXED),
		     (long)getpid());
	fd = open(out_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, rec, (size_t)n) != n)
			n = 0;	/* nowhere to say so: gate sees a short file */
		close(fd);
	}
	errno = saved;
}
