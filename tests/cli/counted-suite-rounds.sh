# A counted suite's rounds run the whole suite (doc/counted.md): a case's
# count follows what ran before it in its process, so a round through
# the harness's filter, with only the unresolved cases, would count them
# in another context than their first look. Here case "b" uses a table
# that case "a" fills when it runs first, and varies a little from
# process to process (so it needs rounds); through the filter its rounds
# counted the table's filling too, about 4 times its first look's count.
. "$(dirname "$0")/lib.sh"
needs_probe
command -v cc >/dev/null 2>&1 || skip "no C compiler"
R=$SCRATCH/repo
new_repo "$R"
cp lib/gate-probe.h "$R/"
cat >"$R/h.c" <<'C'
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include "gate-probe.h"
static volatile unsigned long sink;
static unsigned long *table;

/* the case wanted by $GATE_FILTER (an anchored regex), or every case */
static int want(const char *name)
{
	const char *f = getenv("GATE_FILTER");
	regex_t rx;
	int ok;

	if (!f || !*f || regcomp(&rx, f, REG_EXTENDED | REG_NOSUB))
		return 1;
	ok = regexec(&rx, name, 0, NULL, 0) == 0;
	regfree(&rx);
	return ok;
}

static void fill(void)
{
	unsigned long i;

	if (table)
		return;
	table = malloc(300000 * sizeof(*table));
	for (i = 0; i < 300000; i++)
		table[i] = i * i;
}

int main(void)
{
	unsigned char r = 0;
	unsigned long i, n;
	FILE *f = fopen("/dev/urandom", "rb");

	if (!f || fread(&r, 1, 1, f) != 1)
		return 1;
	fclose(f);
	if (want("a")) {
		gate_probe_start("a");
		fill();
		gate_probe_stop("a");
		printf("a 1 ms\n");
	}
	if (want("b")) {
		/* 100,000 rounds and up to 700 more, drawn each process */
		n = 100000 + 100 * (r % 8);
		gate_probe_start("b");
		fill();
		for (i = 0; i < n; i++)
			sink += table[i];
		gate_probe_stop("b");
		printf("b 1 ms\n");
	}
	return 0;
}
C
cat >"$R/gate.json" <<'JSON'
{
  "build": "cc -O1 -o h h.c -ldl",
  "defaults": { "warmup": 0, "pairs": 3, "max_pairs": 6, "timeout": 60 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./h"],
                    "metrics": ["instructions"] } ]
}
JSON
commit_all "$R" base
echo "a comment" >"$R/NOTES"
commit_all "$R" head
# the plan says so (a suite with a time among its metrics keeps the filter)
gate_run 0 -C "$R" run --list --base HEAD~1 --head HEAD
expect_in "$OUT" "rounds of the whole suite"
gate_measured -C "$R" run --measure-identical --base HEAD~1 --head HEAD \
	--json "$SCRATCH/r.json"
expect_in "$ERR" "round 1: more pairs"
/usr/bin/python3 - "$SCRATCH/r.json" <<'PY' || fail "rounds in the first look's context"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
a, v = b["s/a"], b["s/b"]
# a repeats exactly: decided at the first look, no rounds
assert a["verdict"] == "pass" and a["pairs"] == 3, (a["verdict"], a["pairs"])
# b varies: rounds took it past its first 3 pairs ...
assert v["pairs"] > 3, v["pairs"]
assert v["verdict"] != "fail", v["verdict"]
# ... and every sample, first look and rounds, counted b alone: within
# its 0.7% of drawn rounds, never the table's filling on top
vals = [s[k]["value"] for s in v["samples"]
        for k in ("base_values", "head_values")]
assert len(vals) == 2 * v["pairs"], vals
assert max(vals) / min(vals) < 1.05, vals
PY
exit 0
