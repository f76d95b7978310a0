/*
 * gate init for an npm project with vitest bench: one vitest suite, its
 * JSON (--outputJson) on stdout and each case's median read per process,
 * rather than an npm script timed as one process (tinybench runs each
 * case for a fixed time, so a process's time cannot see a change). Not
 * measured here: vitest sizes each case by tinybench's time (500 ms by
 * default) in the bench files' options, and init says so.
 */
#include "gate/cmd/init.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

int init_scan_vitest(struct found *f, const char *top, const char *pkg)
{
	static const char *const argv[] = { "sh", "-c",
		"d=${GATE_TMPDIR:-$(mktemp -d)}; npx vitest bench --run "
		"--outputJson \"$d/vitest.json\" ${GATE_FILTER:+-t "
		"\"$GATE_FILTER\"} >&2 && cat \"$d/vitest.json\"", NULL };
	long idx;

	if (!strstr(pkg, "\"vitest\"") ||
	    (!strstr(pkg, "vitest bench") &&
	     !init_exists_glob(top, "*.bench.[jt]s") &&
	     !init_exists_glob(top, "*/*.bench.[jt]s") &&
	     !init_exists_glob(top, "*/*/*.bench.[jt]s")))
		return 0;
	idx = init_add_as(f, "vitest", "vitest", 0, argv,
			  xstrdup("vitest bench (a devDependency, with bench "
				  "files): each case's median per process; "
				  "not measured by init: each case runs for "
				  "tinybench's time (500 ms unless the bench "
				  "options set time or iterations), so set "
				  "them to about 100 ms a case"));
	if (idx < 0)
		return 0;
	f->format[idx] = "vitest";
	init_add_docs(f, top);
	return 1;
}
