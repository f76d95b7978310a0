/* An array (base) against a linked list whose nodes were allocated in a
   shuffled order (head): summing 1 M values, 8 passes. Pointer chasing
   across 32 MiB misses the caches on each node. */
#include <stdio.h>
#include <stdlib.h>
#ifndef HEAD
#define HEAD 0
#endif
#define N (1 << 20)
#define PASSES 8

struct node { struct node *next; long v; char pad[16]; };

int main(void)
{
	long sum = 0;
	int i, k;
#if HEAD
	struct node *pool = calloc(N, sizeof(*pool)), *head = NULL, *n;
	unsigned *perm = malloc(N * sizeof(*perm));
	unsigned long r = 7;

	for (i = 0; i < N; i++)
		perm[i] = (unsigned)i;
	for (i = N - 1; i > 0; i--) {
		unsigned j, t;

		r = r * 6364136223846793005ul + 1442695040888963407ul;
		j = (unsigned)((r >> 33) % (unsigned long)(i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < N; i++) {
		pool[perm[i]].v = i & 255;
		pool[perm[i]].next = head;
		head = &pool[perm[i]];
	}
	for (k = 0; k < PASSES; k++)
		for (n = head; n; n = n->next)
			sum += n->v;
	free(perm);
	free(pool);
#else
	long *v = malloc(N * sizeof(*v));

	for (i = 0; i < N; i++)
		v[i] = i & 255;
	for (k = 0; k < PASSES; k++)
		for (i = 0; i < N; i++)
			sum += v[i];
	free(v);
#endif
	printf("%ld\n", sum);
	return 0;
}
