/*
 * gate's own JSON report, as gate compare reads it: each benchmark a case,
 * the head arm's samples its values (the state that run measured). The
 * report is read by report_load, gate's one reader of its reports; the
 * format stage below recognises the file and calls this through
 * fmt_opts.gate_report.
 */
#include "gate/report/load.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "common/banned.h"

int report_format_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	struct run_report r;
	size_t i, p;
	int ret = -1;

	if (report_load_to(&r, text, len, origin, o->err) < 0)
		return -1;
	for (i = 0; i < r.n; i++) {
		const struct bench_run *br = &r.b[i].run;
		const char *unit = br->cfg->unit ? br->cfg->unit :
				   metric_unit(br->cfg->metric);

		if (br->error) {
			error_to(o->err, "%s: benchmark \"%s\" could not be "
				 "measured in that run: %s", origin,
				 br->cfg->name, br->error);
			goto cleanup;
		}
		/* a report's head arm is the state it measured */
		for (p = 0; p < br->npairs; p++) {
			double head = sample_value(&br->pairs[p].s[ARM_HEAD],
						   br->cfg->metric);

			if (!isfinite(head)) {
				error_to(o->err, "%s: benchmark \"%s\": a sample "
					 "has no number \"head\"", origin,
					 br->cfg->name);
				goto cleanup;
			}
			fmt_table_add(t, br->cfg->name, strlen(br->cfg->name),
				      unit, head);
		}
	}
	ret = 0;
cleanup:
	report_load_release(&r);
	return ret;
}
