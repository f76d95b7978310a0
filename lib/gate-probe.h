/*
 * gate-probe.h: mark where a benchmark case starts and ends, so that gate
 * counts each case's own instructions when a suite asks for
 * "instructions" or "cycles" (doc/counted.md, "The lines protocol").
 *
 *	gate_probe_start("parse/small");
 *	parse(small);			<- counted, and nothing else
 *	gate_probe_stop("parse/small");
 *
 * Nothing to link: gate runs a counted suite with GATE_PROBE naming its
 * libgate-probe.so, and the first call here loads that library (dlopen;
 * add -ldl on glibc before 2.34). Without GATE_PROBE (a plain run, a
 * timed sample) both calls do nothing and cost a getenv once. Define
 * GATE_PROBE_LINK before including this header to call the library's own
 * functions instead (link with -lgate-probe); C++ may include it as it is.
 *
 * Rules: call both from one thread, in pairs, with the same name (the
 * case's name as the harness prints it); a case bracketed several times
 * in one process gets its mean count per bracket; what runs outside every
 * bracket (start-up, set-up between cases) is in no count.
 */
#ifndef GATE_PROBE_H
#define GATE_PROBE_H

#ifdef GATE_PROBE_LINK

#ifdef __cplusplus
extern "C" {
#endif
/* Zero the counts and start counting: case name begins. */
void gate_probe_start(const char *name);
/* Stop counting and keep the counts since gate_probe_start(name) as case
   name's (a name other than the one started is kept as an error). */
void gate_probe_stop(const char *name);
#ifdef __cplusplus
}
#endif

#else /* loaded at the first call, from $GATE_PROBE */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*gate_probe_fn)(const char *);

/* The library's function sym (0 start, 1 stop), or NULL outside gate. */
static inline gate_probe_fn gate_probe_fn_(int sym)
{
	static int tried;
	static gate_probe_fn fn[2];

	if (!tried) {
		const char *path = getenv("GATE_PROBE");
		void *h;

		tried = 1;
		h = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
		/* POSIX's way to take a function from dlsym's void * */
		if (h) {
			*(void **)&fn[0] = dlsym(h, "gate_probe_start");
			*(void **)&fn[1] = dlsym(h, "gate_probe_stop");
		} else if (path && *path) {
			/* gate will miss this process's cases: say why */
			fprintf(stderr, "gate-probe: cannot load GATE_PROBE "
				"(%s): %s\n", path, dlerror());
		}
	}
	return fn[sym];
}

static inline void gate_probe_start(const char *name)
{
	gate_probe_fn f = gate_probe_fn_(0);

	if (f)
		f(name);
}

static inline void gate_probe_stop(const char *name)
{
	gate_probe_fn f = gate_probe_fn_(1);

	if (f)
		f(name);
}

#endif /* GATE_PROBE_LINK */

#endif
