/*
 * gate init for a Maven project with JMH: one jmh suite running the
 * benchmarks jar the build packages, JMH's JSON (-rf json) on stdout, each
 * fork one of gate's processes. Its work is JMH's iterations, sized short
 * (5 forks, 3 warm-up and 5 measurement iterations of 100 ms each, about
 * 0.8 s a case and fork); not measured here: a JVM project's build is too
 * slow to run once at init, and init says so.
 */
#include "gate/cmd/init.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/file.h"
#include "common/banned.h"

int init_scan_jmh(struct found *f, const char *top)
{
	const char *fin, *argv[4];
	char *jar, *cmd, *path = xasprintf("%spom.xml", top), *pom = NULL;
	size_t len;
	long idx;

	if (access(path, R_OK) != 0 ||
	    file_read(&pom, &len, path, (size_t)4 << 20) < 0)
		pom = NULL;
	free(path);
	if (!pom || !strstr(pom, "jmh-core")) {
		free(pom);
		return 0;
	}
	fin = strstr(pom, "<finalName>");
	f->system = "maven";
	f->build = "mvn -q -DskipTests package";
	if (fin) {
		fin += strlen("<finalName>");
		len = strcspn(fin, "<$ \t\r\n\"'");
		jar = len ? xasprintf("target/%.*s.jar", (int)len, fin) :
		      xstrdup("target/benchmarks.jar");
	} else {
		jar = xstrdup("target/benchmarks.jar");
	}
	free(pom);
	cmd = xasprintf("f=${GATE_TMPDIR:-$(mktemp -d)}/jmh.json; java -jar "
			"%s -f 5 -wi 3 -w 100ms -i 5 -r 100ms -rf json -rff "
			"\"$f\" ${GATE_FILTER:+\"$GATE_FILTER\"} >&2 && cat "
			"\"$f\"", jar);
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = cmd;
	argv[3] = NULL;
	idx = init_add_as(f, "jmh", "jmh", 0, argv,
			  xasprintf("JMH (jmh-core in pom.xml), the jar %s: 5 "
				    "forks of 3 warm-up and 5 measured "
				    "iterations of 100 ms, about 0.8 s a case "
				    "and fork; not measured by init (build "
				    "it, then check the jar's name)", jar));
	free(cmd);
	if (idx >= 0) {
		f->format[idx] = "jmh";
		if ((f->artifacts[0] = init_keep(f, jar)))
			f->nartifacts = 1;
		f->nsources = 0;
		f->sources[f->nsources++] = "pom.xml";
		if (init_exists(top, "src/main"))
			f->sources[f->nsources++] = "src/main";
		init_add_docs(f, top);
	} else {
		free(jar);
	}
	return idx >= 0;
}
