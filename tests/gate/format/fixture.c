/*
 * What the tests of gate/format/ share (fixture.h).
 */
#include "tests/gate/format/fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "gate/report/load.h"
#include "tests/harness.h"
#include "common/banned.h"

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "cannot read %s\n", path);
		abort();
	}
	buf = xmalloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int parse(struct fmt_table *t, enum format f, const char *text, size_t len,
	  char *msg, size_t size, int cpu)
{
	struct fmt_opts o = { cpu, 0, NULL, report_format_parse };
	struct gate_err err = { "" };
	struct fmt_table again = FMT_TABLE_INIT;
	char printed[4096] = "";
	int rc;

	msg[0] = '\0';
	error_capture(msg, size, 1);
	rc = format_parse(t, f, text, len, "out", &o);
	error_capture(NULL, 0, 0);
	if (rc < 0) {
		o.err = &err;
		error_capture(printed, sizeof(printed), 1);
		CHECK(format_parse(&again, f, text, len, "out", &o) < 0);
		error_capture(NULL, 0, 0);
		CHECK_STR(printed, "");
		CHECK_STR(err.msg, msg);
		fmt_table_release(&again);
	}
	return rc;
}
