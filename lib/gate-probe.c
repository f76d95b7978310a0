/*
 * libgate-probe.so: brackets one benchmark case at a time for callgrind
 * (gate runs a counted suite under valgrind --tool=callgrind
 * --instr-atstart=no): the counts are zeroed and counting starts at
 * gate_probe_start; at gate_probe_stop counting stops and the counts are
 * dumped under the case's name, which gate/exec/probe.c reads back.
 * Outside valgrind every request is a no-op.
 */
#define _POSIX_C_SOURCE 200809L
#define GATE_PROBE_LINK
#include "lib/gate-probe.h"

#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

/* the case started and not yet stopped (owned), or NULL */
static char *open_case;

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
	CALLGRIND_ZERO_STATS;
	CALLGRIND_START_INSTRUMENTATION;
}

void gate_probe_stop(const char *name)
{
	char *desc;

	CALLGRIND_STOP_INSTRUMENTATION;
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
