# gate compare reads a lines file as gate run reads one sample's output:
# one run of the harness, one process (issue 38 item 2). An audit found
# identical code failing in 25 of 100 comparisons of lines files whose
# cases were repeated inside one run (a per-process effect of sd 2%,
# unseen by repetitions) while the promise said 5%. Now: 60 such pairs of
# identical code (5 cases, 10 repetitions, seeded: 13 failed before) never
# fail (each time is noisy, saying why and how to mark runs); the same
# with 10 runs per file marked by "# run" lines are decided by the median
# of each run: 40 pairs of identical code fail at most 3 times (the
# promise's 5% and 3 standard errors), +20% fails 20 of 20.
. "$(dirname "$0")/lib.sh"
cat >"$SCRATCH/gen.py" <<'PY'
import math, random, sys
# DIR SEED RUNS REPS EFFECT N: N pairs oldK.txt newK.txt of 5 cases; each
# run a process in which each case has a factor of its own (log-sd 2%),
# each repetition inside it 0.5%; RUNS > 1: a "# run" line starts each run
d, seed, runs, reps, eff, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
rng = random.Random(seed)
for k in range(n):
    for side in ("old", "new"):
        with open("%s/%s%d.txt" % (d, side, k), "w") as f:
            for r in range(runs):
                if runs > 1:
                    f.write("# run %d\n" % (r + 1))
                p = [math.exp(rng.gauss(0, 0.02)) * (1 + eff if side == "new" else 1) for c in range(5)]
                for i in range(reps):
                    for c in range(5):
                        f.write("case%d %.6f ms\n" % (c, p[c] * math.exp(rng.gauss(0, 0.005))))
PY
# tally SEED RUNS REPS EFFECT N: "fails passes" over the N pairs
tally() {
	python3 "$SCRATCH/gen.py" "$SCRATCH" "$@" || fail "cannot generate"
	f=0 p=0 k=0
	while [ "$k" -lt "$5" ]; do
		"$GATE" compare "$SCRATCH/old$k.txt" "$SCRATCH/new$k.txt" >"$OUT" 2>"$ERR"
		rc=$?
		[ "$rc" -le 2 ] || fail "compare exited $rc: $(cat "$ERR")"
		[ "$rc" -eq 1 ] && f=$((f + 1))
		[ "$rc" -eq 0 ] && p=$((p + 1))
		k=$((k + 1))
	done
	echo "$f $p"
}
set -- $(tally 1 1 10 0 60)
[ "$1" -eq 0 ] || fail "identical code, one run per file: $1 of 60 failed (was 13)"
[ "$2" -eq 0 ] || fail "identical code, one run per file: $2 of 60 passed on repetitions"
expect_in "$OUT" "case0 [s]: not decided: the 10 values in $SCRATCH/old59.txt are repetitions inside one process"
expect_in "$OUT" 'a line "# run" before each run'"'"'s lines'
set -- $(tally 2 10 3 0 40)
[ "$1" -le 3 ] || fail "identical code, 10 marked runs per file: $1 of 40 failed"
[ "$2" -ge 20 ] || fail "identical code, 10 marked runs per file: only $2 of 40 passed"
expect_in "$OUT" "the process is the unit: medians of 10 and 10 processes' repetitions"
expect_not_in "$OUT" "one process"
set -- $(tally 3 10 3 0.20 20)
[ "$1" -eq 20 ] || fail "+20%, 10 marked runs per file: $1 of 20 failed"
# a marked file of one value per run against an unmarked one of the same
# values: the unmarked side is one process
for v in 1.00 1.01 0.99 1.02 0.98 1.005 0.995 1.015; do printf '# run\na %s ms\n' "$v"; done >"$SCRATCH/m.txt"
grep -v '^#' "$SCRATCH/m.txt" >"$SCRATCH/u.txt"
gate_run 0 compare "$SCRATCH/m.txt" "$SCRATCH/m.txt"
gate_run 2 compare "$SCRATCH/m.txt" "$SCRATCH/u.txt" --json "$SCRATCH/u.json"
json_get "$SCRATCH/u.json" 'd["note"]' | grep -q "^in $SCRATCH/u.txt, values are repetitions" ||
	fail "a marked file is several processes, an unmarked one one"
# a count is decided whatever the processes
for i in 1 2 3 4 5 6 7 8; do echo "a 100 allocs/op"; done >"$SCRATCH/c.txt"
gate_run 0 compare "$SCRATCH/c.txt" "$SCRATCH/c.txt"
exit 0
