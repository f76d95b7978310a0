/*
 * A suite's cases through its harness's own filter (suite-filter.c): which
 * formats can re-run some cases, the command that does, and the one
 * builder of a harness command from what a format's row adds.
 */
#ifndef GATE_SUITE_FILTER_H
#define GATE_SUITE_FILTER_H

#include <stddef.h>

#include "gate/config/config.h"
#include "gate/format/format.h"

/*
 * 1 when a suite of cfg's format gets rounds of more pairs for its
 * unresolved cases (so "max_pairs" and --budget reach them), re-running
 * through its harness's filter: its row's select hook
 * (struct format_reader). 0: each case has one look.
 */
int suite_can_filter(const struct bench_cfg *cfg);
/*
 * The command run with e applied, into out (free with command_release):
 * e's arguments appended to argv when it needs no variable (no shell);
 * else through sh: gate_var=gate_value exported (keep: a value already
 * set wins, ${gate_var-value}), e's variable with its value put before any
 * it has, then run's shell text or "exec" with run's words, then e's
 * arguments, each word in single quotes.
 */
void harness_cmd(struct command *out, const struct command *run,
		 const struct fmt_cmd_edit *e, const char *gate_var,
		 const char *gate_value, int keep);
/*
 * The harness's filter for the cases names[0..n), into out (a copy of
 * cfg with its command changed; free with suite_filter_release), from
 * its row's select hook: gbench: --benchmark_filter=^(a|b)$; gotest:
 * -bench (-test.bench for a test binary) with format_go_pattern; lines
 * and hyperfine: the environment variable GATE_FILTER=^(a|b)$ (a POSIX
 * extended regex); pytest: GATE_FILTER and PYTEST_ADDOPTS="-k '(t.py and
 * test_a) or ...'" before any of its own. A shell command gets
 * GATE_FILTER exported and the arguments appended.
 */
void suite_filter_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		      const char *const *names, size_t n);
/*
 * The same for a shard's share of a suite's cases (gate run --shard): a
 * later filter still wins (go's and gbench's flag last; the lines
 * protocol's GATE_FILTER when a round has already set it), so a round of
 * more pairs runs only its cases.
 */
void suite_shard_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		     const char *const *names, size_t n);
void suite_filter_release(struct bench_cfg *out);

#endif
