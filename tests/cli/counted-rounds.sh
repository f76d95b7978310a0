# A counted metric whose counts vary gets its count in every pair that
# adaptive rounds add (valgrind backend, timed runs too): the decision and
# the report use the pairs that carry it, never claim the others. An
# exact-only benchmark keeps its 3 pairs though "defaults" asks for 20.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
command -v cc >/dev/null 2>&1 || skip "no C compiler"
R=$SCRATCH/repo
new_repo "$R"
# vary.c: a loop whose length is drawn per run, so the count varies a lot;
# stdout is the same every run (output parity holds)
cat >"$R/vary.c" <<'C'
#include <stdio.h>
int main(void)
{
	FILE *f = fopen("/dev/urandom", "rb");
	volatile unsigned long sum = 0;
	unsigned long i, n = 1000;

	if (f) {
		n += 1000 * (unsigned long)fgetc(f);
		fclose(f);
	}
	for (i = 0; i < n; i++)
		sum += i;
	puts("done");
	return 0;
}
C
cat >"$R/gate.json" <<'JSON'
{ "build": "cc -O0 -o vary vary.c",
  "benchmarks": [ { "name": "vary", "run": ["./vary"],
    "metrics": ["instructions", "wall"], "gate": ["instructions"],
    "counter": "valgrind", "pairs": 4, "max_pairs": 8, "warmup": 0 } ] }
JSON
commit_all "$R" base
echo changed >"$R/NOTES"
commit_all "$R" head
# looks at 4, 6, 8: 3 counted pairs of the first 4, then every pair added
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/a.json"
/usr/bin/python3 - "$SCRATCH/a.json" <<'PY' || fail "counted pairs"
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
m = {x["name"]: x for x in b["metrics"]}
assert b["pairs"] == 8, b["pairs"]
assert b["looks"] == 3, b["looks"]
has = [s["base_values"]["instructions"] is not None and
       s["head_values"]["instructions"] is not None for s in b["samples"]]
assert has == [True] * 3 + [False] + [True] * 4, has
assert m["instructions"]["pairs"] == 7, m["instructions"]["pairs"]
assert m["wall"]["pairs"] == 8, m["wall"]["pairs"]
PY
expect_in "$OUT" "7 of 8 pairs (4..8)"
expect_in "$OUT" "and in every pair of later rounds when the counts vary"

# exact-only: "defaults" pairs 20 size timed benchmarks, not this one
cat >"$SCRATCH/exact.json" <<'JSON'
{ "build": "cc -O0 -o vary vary.c",
  "defaults": { "pairs": 20, "warmup": 2 },
  "benchmarks": [ { "name": "count", "run": ["./vary"],
    "metric": "instructions", "counter": "valgrind" } ] }
JSON
sed -i 's/n += 1000 \* (unsigned long)fgetc(f);/n += 0 * (unsigned long)fgetc(f);/' "$R/vary.c"
commit_all "$R" fixed
gate_run 0 -C "$R" run -v --base HEAD --head HEAD --config "$SCRATCH/exact.json" --json "$SCRATCH/b.json"
[ "$(json_get "$SCRATCH/b.json" '(d["benchmarks"][0]["pairs"], d["benchmarks"][0]["warmup"])')" = "(3, 0)" ] ||
	fail "exact-only should keep 3 pairs and no warm-up"
exit 0
