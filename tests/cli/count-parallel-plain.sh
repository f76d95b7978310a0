# A benchmark whose metrics are all counts (here the allocation counts,
# from the plain run's preload) runs its plain runs with both arms at
# once too, and the protocol says "runs 2 at a time"; one that also
# gates a time (wall) keeps them strictly one at a time. As in
# count-parallel.sh, each run marks its start and end and records how
# many runs were on 2 s after it started: runs that overlap, not a time.
. "$(dirname "$0")/lib.sh"
needs_os "allocation counting"
M=$SCRATCH/marks
mkdir -p "$M"
# repo DIR METRICS: a base and a head (a comment more) of the marking
# benchmark, measuring METRICS
repo() {
	new_repo "$1"
	cat >"$1/bench.sh" <<SH
#!/bin/sh
# a number of its own, claimed by creating a file that must not exist
# (set -C), not its pid: each arm's sandbox has a PID namespace of its own
set -C
id=0
while ! true >"$M/id.\$id" 2>/dev/null; do id=\$((id + 1)); done
set +C
: >"$M/on.\$id"
sleep 2
set -- "$M"/on.*
n=\$#
set -- "$M"/off.*
[ -e "\$1" ] || set --
echo \$((n - \$#)) >"$M/seen.\$id"
: >"$M/off.\$id"
echo done
SH
	chmod +x "$1/bench.sh"
	cat >"$1/gate.json" <<JSON
{ "writable": ["$M"],
  "benchmarks": [ { "name": "marks", "run": ["./bench.sh"],
    "metrics": [$2], "min_effect": 0.5,
    "pairs": 2, "max_pairs": 2, "warmup": 0 } ] }
JSON
	commit_all "$1" base
	echo "# head" >>"$1/bench.sh"
	commit_all "$1" head
}
R=$SCRATCH/counts
W=$SCRATCH/timed
repo "$R" '"allocs"'
repo "$W" '"allocs", "wall"'

most() {
	cat "$M"/seen.* | sort -n | tail -n 1
}

GATE_COUNT_JOBS=2 gate_measured -C "$R" run -v --base HEAD~1 --head HEAD
expect_in "$OUT" "runs 2 at a time (both arms at once"
[ "$(ls "$M" | grep -c '^seen\.')" -eq 4 ] || fail "not 4 runs: $(ls "$M")"
[ "$(most)" -eq 2 ] || fail "no two plain runs overlapped with only counts"

# a time among the metrics: strict alternation, whatever the CPUs
rm -f "$M"/*
GATE_COUNT_JOBS=2 gate_measured -C "$W" run -v --base HEAD~1 --head HEAD
expect_not_in "$OUT" "at a time"
[ "$(most)" -eq 1 ] || fail "plain runs overlapped with wall among the metrics"

# GATE_COUNT_JOBS=1: one at a time
rm -f "$M"/*
GATE_COUNT_JOBS=1 gate_measured -C "$R" run -v --base HEAD~1 --head HEAD
expect_not_in "$OUT" "at a time"
[ "$(most)" -eq 1 ] || fail "runs overlapped with GATE_COUNT_JOBS=1"
exit 0
