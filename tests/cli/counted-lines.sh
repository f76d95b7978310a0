# A lines harness of one's own counted per case (issue 36, doc/counted.md):
# a C program marks each case with lib/gate-probe.h; "metrics":
# ["instructions"] counts each case's own loop under callgrind. "two"
# does twice "one"'s loop (counts in the ratio 2, start-up and the work
# between cases in neither); head doubles "two": it fails exactly, "one"
# passes with a ratio of exactly 1. A harness that marks nothing, and a
# Go suite, are errors saying what to do.
. "$(dirname "$0")/lib.sh"
needs_probe
command -v cc >/dev/null 2>&1 || skip "no C compiler"
R=$SCRATCH/repo
new_repo "$R"
cp lib/gate-probe.h "$R/"
# h.c: start-up work, then cases "one" (N rounds) and "two" (TWO rounds),
# each printed as a lines case; -O1 keeps every round
write_harness() {
	cat >"$R/h.c" <<C
#include <stdio.h>
#include "gate-probe.h"
static volatile unsigned long sink;
static void work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}
int main(void)
{
	work($1);	/* start-up: in no count */
	gate_probe_start("one");
	work(20000);
	gate_probe_stop("one");
	work(7777);	/* between cases: in none */
	gate_probe_start("two");
	work($2);
	gate_probe_stop("two");
	puts("one 1 ms");
	puts("two 2 ms");
	return 0;
}
C
}
write_harness 100000 40000
cat >"$R/gate.json" <<'JSON'
{
  "build": "cc -O1 -o h h.c -ldl",
  "defaults": { "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./h"],
                    "metrics": ["instructions"] } ]
}
JSON
commit_all "$R" base
# head: start-up 5x longer (outside every count), "two" doubled
write_harness 500000 80000
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "each case counted on its own under callgrind"
expect_in "$OUT" "gate_probe_start and gate_probe_stop"
expect_in "$OUT" "address-space randomisation off"
/usr/bin/python3 - "$SCRATCH/r.json" <<'PY' || fail "per-case counts"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert sorted(b) == ["s/one", "s/two"], sorted(b)
assert b["s/one"]["verdict"] == "pass", b["s/one"]["verdict"]
assert b["s/two"]["verdict"] == "fail", b["s/two"]["verdict"]
# start-up 5x longer in head: "one" is the very same count
assert b["s/one"]["ratio"]["median"] == 1, b["s/one"]["ratio"]
# the loop doubled: the count doubles, less the probe's few instructions
r = b["s/two"]["ratio"]["median"]
assert 1.99 < r <= 2, r
one = b["s/one"]["base"]["median"]
two = b["s/two"]["base"]["median"]
assert 1.99 < two / one <= 2, (one, two)
PY

# times and counts together: each case's time in every pair (stdout),
# its count in the counted pairs (callgrind); the time passes (the same
# printed value), the count of the doubled loop fails
cat >"$SCRATCH/mixed.json" <<'JSON'
{
  "build": "cc -O1 -o h h.c -ldl",
  "defaults": { "warmup": 0, "pairs": 6, "max_pairs": 6, "timeout": 60 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./h"],
                    "metrics": ["wall", "instructions"] } ]
}
JSON
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/mixed.json" --json "$SCRATCH/m.json"
/usr/bin/python3 - "$SCRATCH/m.json" <<'PY' || fail "times and counts"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
two = {m["name"]: m for m in b["s/two"]["metrics"]}
assert two["value"]["verdict"] == "pass", two["value"]
assert two["value"]["pairs"] == 6, two["value"]["pairs"]
assert two["instructions"]["verdict"] == "fail", two["instructions"]
assert two["instructions"]["pairs"] == 3, two["instructions"]["pairs"]
assert b["s/two"]["verdict"] == "fail" and b["s/one"]["verdict"] == "pass"
PY

# a harness that marks no case: an error saying how to mark them
sed -i 's/gate_probe_st[a-z]*("[a-z]*");//' "$R/h.c"
commit_all "$R" unmarked
gate_run 3 -C "$R" run -v --base HEAD --head HEAD
expect_in "$OUT" "no case was counted"
expect_in "$OUT" "gate_probe_start and gate_probe_stop (lib/gate-probe.h"

# Go: not counted per case, and gate says what to gate instead
cat >"$SCRATCH/go.json" <<'JSON'
{ "benchmarks": [ { "name": "g", "format": "gotest", "run": ["./h"],
                    "metrics": ["instructions"] } ] }
JSON
gate_run 3 -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/go.json"
expect_in "$ERR" "per-case counts of a Go suite"
expect_in "$ERR" "Go's runtime does not run reliably under valgrind"
exit 0
