# Counted runs see one path whichever slot they ran in (doc/counted.md):
# a batch's counted runs each have a directory of their own (p000,
# p001, ...), and a sandbox binds it at one fixed path. Here case "p"
# works by how its $GATE_TMPDIR reads, as a Python case whose sets or
# dicts hold that path does: at the real path its count differs from
# process to process of one arm, and identical code was noisy; bound at
# one path every count repeats, and the case passes exactly.
. "$(dirname "$0")/lib.sh"
needs_probe
command -v cc >/dev/null 2>&1 || skip "no C compiler"
sandbox_starts || skip "bubblewrap cannot start a sandbox here"
[ -z "${GATE_SANDBOX:-}" ] || skip "GATE_SANDBOX=$GATE_SANDBOX: no sandbox"
R=$SCRATCH/repo
new_repo "$R"
cp lib/gate-probe.h "$R/"
cat >"$R/h.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "gate-probe.h"
static volatile unsigned long sink;
int main(void)
{
	const char *t = getenv("GATE_TMPDIR"), *c;
	unsigned long i, n = 20000;

	/* 20,000 rounds, and 1,000 more for each byte's value mod 7 */
	for (c = t ? t : ""; *c; c++)
		n += 1000 * ((unsigned char)*c % 7);
	gate_probe_start("p");
	for (i = 0; i < n; i++)
		sink += i;
	gate_probe_stop("p");
	printf("p 1 ms\n%s\n", t ? t : "-");
	return 0;
}
C
cat >"$R/gate.json" <<'JSON'
{
  "build": "cc -O1 -o h h.c -ldl",
  "defaults": { "warmup": 0, "max_pairs": 6, "timeout": 60 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./h"],
                    "metrics": ["instructions"] } ]
}
JSON
commit_all "$R" base
echo "a comment" >"$R/NOTES"
commit_all "$R" head
gate_run 0 -C "$R" run --measure-identical --base HEAD~1 --head HEAD \
	--json "$SCRATCH/r.json"
expect_in "$OUT" "exact"
/usr/bin/python3 - "$SCRATCH/r.json" <<'PY' || fail "one count in every process"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
p = b["s/p"]
assert p["verdict"] == "pass", p["verdict"]
assert p["ratio"]["median"] == 1, p["ratio"]
vals = [s[k]["value"] for s in p["samples"]
        for k in ("base_values", "head_values")]
assert len(vals) == 6 and len(set(vals)) == 1, vals
PY
