/*
 * Parts of the protocol disclosure written once, as plain text (measuring
 * conditions, the output-parity statement), and printed by the terminal,
 * Markdown and HTML reports with their own escaping.
 */
#include "gate/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/banned.h"

size_t report_conditions(const struct run_report *r,
			 char *lines[REPORT_CONDITIONS_MAX])
{
	const struct layout *l = r->layout;
	size_t n = 0;

	if (r->arm_dir[0])
		lines[n++] = xasprintf("arms: base in %s, head in %s (%s)",
			r->arm_dir[ARM_BASE], r->arm_dir[ARM_HEAD],
			r->arms_random ? "drawn at random for this run"
				       : "fixed by --fixed-arms");
	if (l && l->env_pad)
		lines[n++] = xasprintf("layout: GATE_PAD of 0 to %d random "
			"bytes in the environment of each sample (mean %.0f), "
			"drawn independently of the arm", LAYOUT_PAD_MAX,
			l->samples ? (double)l->pad_total / l->samples : 0.0);
	else if (l)
		lines[n++] = xstrdup("layout: no environment padding "
				     "(--no-env-pad)");
	if (l && l->scratch)
		lines[n++] = xasprintf("scratch: a fresh, empty $GATE_TMPDIR=%s "
				       "for every sample of both arms",
				       l->scratch);
	if (r->pin)
		lines[n++] = xasprintf("pinned to CPUs %s%s", r->pin,
				       r->pin_warning ? ": not isolated, may "
				       "add variation" : "");
	return n;
}

void report_conditions_free(char *lines[REPORT_CONDITIONS_MAX], size_t n)
{
	while (n > 0)
		free(lines[--n]);
}

const char *report_parity(const struct bench_run *br, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!br->cfg->parity)
		snprintf(buf, size, ", stdout not checked (parity: false)");
	else if (br->nsamples[0] && br->nsamples[1])
		snprintf(buf, size, ", stdout identical within each arm (%zu "
			 "base, %zu head samples)%s", br->nsamples[0],
			 br->nsamples[1], br->parity_differs ? "; base and "
			 "head print different output" : "");
	return buf;
}
