/*
 * gate init's model of a program it measures once (a Go package's test
 * binary, a Google Benchmark program): its cases and their cost, the
 * groups within 2x that share a suite, N, and the fit to the budget.
 */
#include "gate/cmd/init.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/config/config.h"
#include "common/banned.h"

/* Never below this when fitting the budget: shorter loops are at the
   mercy of every preemption on a busy runner. */
#define INIT_CASE_MIN_SECONDS 0.01
/* The share of the budget the first look may take: the rest is for the
   rounds an unresolved case gets. */
#define INIT_FIRST_LOOK_SHARE 0.5

struct init_case *init_case_find(struct init_prog *p, const char *name,
				 size_t len)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strlen(p->c[i].name) == len &&
		    !strncmp(p->c[i].name, name, len))
			return &p->c[i];
	return NULL;
}

void init_case_add(struct init_prog *p, const char *name, size_t len)
{
	if (init_case_find(p, name, len))
		return;
	XGROW(p->c, p->cap, p->n + 1);
	p->c[p->n].name = xstrndup(name, len);
	p->c[p->n].ns = 0;
	p->n++;
}

static int cmp_case(const void *a, const void *b)
{
	const struct init_case *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

void init_prog_sort(struct init_prog *p)
{
	if (p->n)
		qsort(p->c, p->n, sizeof(p->c[0]), cmp_case);
}

void init_prog_free(struct init_prog *p)
{
	size_t k;

	if (!p)
		return;
	for (k = 0; k < p->n; k++)
		free(p->c[k].name);
	free(p->c);
	free(p->dir);
	free(p->why);
	free(p);
}

size_t init_group_end(const struct init_prog *p, size_t g)
{
	size_t j;

	for (j = g; j < p->n && p->c[j].ns <= 2 * p->c[g].ns; j++)
		;
	return j;
}

double init_iterations(double t, double ns)
{
	double n = floor(t / (ns * 1e-9) + 1e-6);

	return n < 1 ? 1 : n;
}

/* Seconds one sample of every measured program's suites takes at case
   time t: each group is a suite, a process of its own (the program's
   overhead), its cases run extra + N times, N sized on its slowest. */
static double sample_seconds(struct init_prog *const *pk, size_t np,
			     double t)
{
	double s = 0, n;
	size_t i, j, g, k;

	for (i = 0; i < np; i++) {
		if (pk[i]->why)
			continue;
		for (g = 0; g < pk[i]->n; g = j) {
			j = init_group_end(pk[i], g);
			n = init_iterations(t, pk[i]->c[j - 1].ns);
			s += pk[i]->overhead;
			for (k = g; k < j; k++)
				s += (n + pk[i]->extra) * pk[i]->c[k].ns * 1e-9;
		}
	}
	return s;
}

double init_fit(struct init_prog *const *p, size_t np, double *pair)
{
	/* the first look: its pairs, and each arm's warm-ups (about one
	   pair's worth per run) */
	double look = CONFIG_DEFAULT_PAIRS + CONFIG_DEFAULT_WARMUP;
	double share = INIT_FIRST_LOOK_SHARE * CONFIG_DEFAULT_BUDGET;
	double t = INIT_CASE_SECONDS, per = 2 * sample_seconds(p, np, t);

	if (per * look > share) {
		double fixed = 2 * sample_seconds(p, np, 0);

		t *= (share / look - fixed) / (per - fixed);
		if (!(t >= INIT_CASE_MIN_SECONDS))
			t = INIT_CASE_MIN_SECONDS;
		per = 2 * sample_seconds(p, np, t);
	}
	*pair = per;
	return t;
}

char *init_anchored(const char *flag, const struct init_case *c, size_t n)
{
	size_t i, len = strlen(flag) + 4;
	char *out, *o;
	const char *s;

	for (i = 0; i < n; i++)
		len += 2 * strlen(c[i].name) + 1;
	out = o = xmalloc(len);
	o += snprintf(o, len, "%s^(", flag);
	for (i = 0; i < n; i++) {
		if (i)
			*o++ = '|';
		for (s = c[i].name; *s; *o++ = *s++)
			if (strchr("\\.[]()*+?{}|^$", *s))
				*o++ = '\\';
	}
	memcpy(o, ")$", 3);
	return out;
}
