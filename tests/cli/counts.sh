# Counted metrics decide exactly: head doing 2% more loop iterations fails
# on "instructions" (valgrind backend) in every run, head allocating once
# more per item fails on "allocs", and a head identical in work passes every
# count with a ratio of exactly 1. Small programs: valgrind is ~50x slower.
. "$(dirname "$0")/lib.sh"
needs_os "allocation counting"
R=$SCRATCH/repo
new_repo "$R"
# work.c: ITERS items, each one malloc (two with EXTRA); prints a checksum.
# Built with -O0 so the compiler keeps every malloc and loop round.
write_work() {
	cat >"$R/work.c" <<C
#include <stdio.h>
#include <stdlib.h>
/* $3 */
int main(void)
{
	unsigned long sum = 0;
	long i;

	for (i = 0; i < $1; i++) {
		char *p = malloc(16);

		p[0] = (char)i;
		sum += (unsigned char)p[0];
		if ($2) {
			char *q = malloc(8);

			q[0] = 1;
			sum += (unsigned char)q[0];
			free(q);
		}
		free(p);
	}
	printf("%lu\n", sum % 7);
	return 0;
}
C
}
write_work 5000 0 base
cat >"$R/gate.json" <<'JSON'
{ "build": "cc -O0 -o work work.c",
  "benchmarks": [ { "name": "work", "run": ["./work"],
    "metrics": ["instructions", "allocs", "alloc_bytes", "wall"],
    "gate": ["instructions", "allocs", "alloc_bytes"],
    "counter": "auto", "pairs": 2, "warmup": 0 } ] }
JSON
commit_all "$R" base
write_work 5100 0 more-iterations
commit_all "$R" more-iterations
write_work 5000 1 one-more-alloc
commit_all "$R" one-more-alloc
write_work 5000 0 "identical work, different comment"
commit_all "$R" identical
# the same backend on every machine: perf may exist on some CI runners
export GATE_PERF=0

# check REPORT PYTHON-EXPR...: each expression holds for the report's
# benchmark b and its metrics m[0..] (one python3 start per report)
check() {
	report=$1
	shift
	/usr/bin/python3 - "$report" "$@" <<'PY' || fail "report check failed"
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
m = b["metrics"]
for e in sys.argv[2:]:
    if not eval(e):
        print("does not hold:", e, json.dumps(m, indent=1)[:3000], file=sys.stderr)
        sys.exit(1)
PY
}

# 2% more iterations: instructions about +1.7% (startup is shared), exactly,
# above the 1% floor
gate_run 1 -C "$R" run -v --base HEAD~3 --head HEAD~2 --json "$SCRATCH/a.json"
expect_in "$OUT" "exact: head counts +1."
expect_in "$ERR" "counting under valgrind"
expect_in "$OUT" "counter valgrind"
expect_in "$OUT" "in the first 2 pairs, and in every pair of later rounds when the counts vary, also one run under valgrind"
check "$SCRATCH/a.json" \
	'm[0]["name"] == "instructions" and m[0]["verdict"] == "fail"' \
	'm[0]["method"] == "exact" and m[0]["counter"] == "valgrind"' \
	'm[0]["pairs"] == 2 and 1.012 < m[0]["ratio"]["median"] < 1.02' \
	'm[1]["name"] == "allocs" and m[1]["verdict"] == "fail"' \
	'm[3]["name"] == "wall" and not m[3]["gating"]' \
	'b["verdict"] == "fail"'

# one more allocation per item: allocs doubles (no valgrind: allocs only)
sed 's/"instructions", "allocs", "alloc_bytes", "wall"/"allocs"/; s/"gate": \[[^]]*\],//' \
	"$R/gate.json" >"$SCRATCH/allocs.json"
gate_run 1 -C "$R" run -v --base HEAD~3 --head HEAD~1 --config "$SCRATCH/allocs.json" \
	--json "$SCRATCH/b.json"
expect_not_in "$ERR" "valgrind"
check "$SCRATCH/b.json" 'len(m) == 1 and m[0]["verdict"] == "fail"' \
	'm[0]["method"] == "exact" and 1.9 < m[0]["ratio"]["median"] < 2.1'

# identical work: every count passes with a ratio of exactly 1
gate_run 0 -C "$R" run -v --base HEAD~3 --head HEAD --json "$SCRATCH/c.json"
expect_in "$OUT" "head counts exactly what base counts"
check "$SCRATCH/c.json" \
	'all(x["ratio"]["median"] == 1 and x["method"] == "exact" for x in m[:3])' \
	'all(x["ratio"]["low"] == 1 == x["ratio"]["high"] for x in m[:3])'
exit 0
