/*
 * libgate-probe.so: brackets one benchmark case at a time for callgrind
 * (gate runs a counted suite under valgrind --tool=callgrind
 * --instr-atstart=no --collect-atstart=no): at gate_probe_start the
 * counts are zeroed and collection switched on; at gate_probe_stop it is
 * switched off and the counts are dumped under the case's name, which
 * gate/exec/probe.c reads back.
 *
 * Start-up runs uninstrumented (fast). Instrumentation is switched on at
 * each case's start, and off at its end for the first PROBE_SWITCHED
 * cases only: each switch makes callgrind translate again all the code a
 * case runs, which a suite of hundreds of cases pays hundreds of times
 * (52 numpy cases: 32.1 s of CPU switched, 19.9 s instrumented
 * throughout), while a suite of a few cases would pay for instrumenting
 * what runs between them. Only collection decides what is counted, so a
 * case counts the same either way.
 */
#define _POSIX_C_SOURCE 200809L
#define GATE_PROBE_LINK
#include "lib/gate-probe.h"

#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

/* the case started and not yet stopped (owned), or NULL */
static char *open_case;
/* collection is on (gate_probe_start's toggle not yet undone) */
static int collecting;
/* instrumentation is on; and how many cases have started */
static int instrumented;
static unsigned long cases;

/* cases after which instrumentation stays on */
#define PROBE_SWITCHED 8

/*
 * The dump's description: "gate:" and the name with every byte outside
 * '!'..'~', and '%', written %XX, so that a name with a newline or a
 * space comes back whole from callgrind's one-line "desc:" (probe.c
 * decodes it); "gate!:" when stop's name is not the one started.
 */
static char *describe(const char *name, int paired)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(name), o;
	char *d = malloc(3 * n + 8);
	const unsigned char *s = (const unsigned char *)name;

	if (!d)
		return NULL;
	memcpy(d, paired ? "gate:" : "gate!:", paired ? 5 : 6);
	o = paired ? 5 : 6;
	for (; *s; s++) {
		if (*s > ' ' && *s <= '~' && *s != '%') {
			d[o++] = (char)*s;
		} else {
			d[o++] = '%';
			d[o++] = hex[*s >> 4];
			d[o++] = hex[*s & 15];
		}
	}
	d[o] = '\0';
	return d;
}

void gate_probe_start(const char *name)
{
	/* the copy is made before counting starts: outside the count */
	free(open_case);
	open_case = strdup(name ? name : "");
	if (!instrumented)
		CALLGRIND_START_INSTRUMENTATION;
	instrumented = 1;
	cases++;
	CALLGRIND_ZERO_STATS;
	if (!collecting)
		CALLGRIND_TOGGLE_COLLECT;
	collecting = 1;
}

void gate_probe_stop(const char *name)
{
	char *desc;

	if (collecting)
		CALLGRIND_TOGGLE_COLLECT;
	collecting = 0;
	if (instrumented && cases <= PROBE_SWITCHED) {
		CALLGRIND_STOP_INSTRUMENTATION;
		instrumented = 0;
	}
	if (!name)
		name = "";
	desc = describe(name, open_case && !strcmp(open_case, name));
	/* no memory: the case goes missing and gate says so */
	if (desc)
		CALLGRIND_DUMP_STATS_AT(desc);
	free(desc);
	free(open_case);
	open_case = NULL;
}
