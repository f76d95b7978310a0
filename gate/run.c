/*
 * The run model's lifecycle: the entries of one run, their primary view
 * and their notes. What goes in them is decided elsewhere (measure.c,
 * adaptive.c, verdict.c); this file only allocates, refreshes and frees.
 */
#include "gate/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

void run_alloc(struct run_report *r, size_t n)
{
	r->b = xcalloc(n ? n : 1, sizeof(*r->b));
	r->n = n;
}

void run_release(struct run_report *r)
{
	size_t i;

	for (i = 0; r->b && i < r->n; i++) {
		bench_run_release(&r->b[i].run);
		bench_result_release(&r->b[i].result);
		free(r->b[i].note);
	}
	free(r->b);
	r->b = NULL;
	r->n = 0;
}

void run_bench_view(struct run_bench *b)
{
	size_t looks = b->primary.looks;
	enum stop_reason stop = b->primary.stop;

	bench_result_primary(&b->primary, &b->result);
	b->primary.looks = looks;
	b->primary.stop = stop;
	b->primary.note = b->note;
}

void run_bench_note(struct run_bench *b, const char *why)
{
	char *both = b->note ? xasprintf("%s; %s", b->note, why) :
		     xstrdup(why);

	free(b->note);
	b->note = both;
	run_bench_view(b);
}

/*
 * The cores the benchmarks themselves kept busy while they ran: their CPU
 * time over their wall time, over every sample. A multi-threaded
 * benchmark raises the load average by this much on its own.
 */
static double own_load(const struct run_report *r)
{
	double cpu = 0, wall = 0;
	size_t i, p;
	int a;

	for (i = 0; i < r->n; i++)
		for (p = 0; p < r->b[i].run.npairs; p++)
			for (a = 0; a < 2; a++) {
				const struct sample *s =
					&r->b[i].run.pairs[p].s[a];

				if (s->wall > 0 && s->cpu >= 0) {
					cpu += s->cpu;
					wall += s->wall;
				}
			}
	return wall > 0 ? cpu / wall : 0;
}

void run_note_load(struct run_report *r)
{
	const struct machine *m = &r->machine;
	double own = own_load(r);
	double rise = m->load_after[0] - m->load_before[0] - own;
	double limit = m->cores > 2 ? (double)m->cores / 2 : 1.0;
	char why[256];
	size_t i;

	/* sharp: more than the limit, and the machine now oversubscribed */
	if (!(m->load_before[0] >= 0) || !(rise > limit) ||
	    !(m->load_after[0] - own > (double)m->cores) ||
	    !(m->load_after[0] > 1.5 * m->load_before[0]))
		return;
	snprintf(why, sizeof(why), "the load average rose from %.2f to %.2f "
		 "during the run, more than the benchmarks' own %.1f busy "
		 "cores explain (a note: the verdict stands)",
		 m->load_before[0], m->load_after[0], own);
	for (i = 0; i < r->n; i++)
		if (r->b[i].primary.verdict != VERDICT_NEW &&
		    r->b[i].primary.verdict != VERDICT_ERROR)
			run_bench_note(&r->b[i], why);
}
