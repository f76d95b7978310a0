# Counted runs in parallel: with 2 usable CPUs (GATE_COUNT_JOBS=2) the
# runs under valgrind of both arms of a pair run at once, and the protocol
# says so; with GATE_COUNT_JOBS=1 they run one at a time as before. Each
# run marks its start and end in a shared directory and records how many
# runs were on 2 s after it started: a structural fact (runs that
# overlap), not a timing.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || [ -n "${GATE_VALGRIND:-}" ] ||
	skip "valgrind is not installed"
R=$SCRATCH/repo
M=$SCRATCH/marks
mkdir -p "$M"
new_repo "$R"
cat >"$R/bench.sh" <<SH
#!/bin/sh
# on.<pid> at the start, off.<pid> at the end (shell built-ins: every
# program started runs under valgrind too); after 2 s, the runs on and
# not yet off (this one included) go to seen.<pid>
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
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<JSON
{ "writable": ["$M"],
  "benchmarks": [ { "name": "marks", "run": ["./bench.sh"],
    "metric": "instructions", "counter": "valgrind", "min_effect": 0.5,
    "pairs": 2, "max_pairs": 2, "warmup": 0 } ] }
JSON
commit_all "$R" base
echo "# head" >>"$R/bench.sh"
commit_all "$R" head
export GATE_PERF=0

# the most marks any run saw
most() {
	cat "$M"/seen.* | sort -n | tail -n 1
}

GATE_COUNT_JOBS=2 gate_measured -C "$R" run -v --base HEAD~1 --head HEAD
expect_in "$OUT" "valgrind runs 2 at a time (both arms at once"
[ "$(ls "$M" | grep -c '^seen\.')" -eq 4 ] || fail "not 4 runs: $(ls "$M")"
[ "$(most)" -eq 2 ] || fail "no two runs overlapped with GATE_COUNT_JOBS=2"

rm -f "$M"/*
GATE_COUNT_JOBS=1 gate_measured -C "$R" run -v --base HEAD~1 --head HEAD
expect_not_in "$OUT" "at a time"
[ "$(most)" -eq 1 ] || fail "runs overlapped with GATE_COUNT_JOBS=1"
exit 0
