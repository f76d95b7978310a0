# A Google Benchmark suite whose cases' real_time is noisy while their
# cpu_time holds (the load's doing) ends noisy on wall time; beside the
# first noisy case gate names the harness's own cpu_time and, with
# valgrind there (GATE_VALGRIND), per-case counts with the time a counted
# run would take; the suite's other noisy case points to it. Without
# valgrind the counts are not named. Advice only: the verdicts stand.
# gate calibrate measures the same suite against itself and proposes the
# counts, with a counted run's estimated time, where time cannot decide.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
STATE=$SCRATCH/state
mkdir -p "$STATE"
export STATE
# each arm's k-th process doubles its real_time by turns (base's even
# processes, head's odd ones; head's tree has NOTES): every pair ratio is
# 2 or 1/2, so no number of pairs decides on real_time, while cpu_time
# never moves
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
arm=a
[ -f NOTES ] && arm=b
f=$STATE/$arm
k=0
[ -f "$f" ] && read -r k <"$f"
echo $((k + 1)) >"$f"
w=1000
case $arm$((k % 2)) in a0|b1) w=2000 ;; esac
printf '{"benchmarks": [
 {"name": "BM_a", "run_type": "iteration", "iterations": 10, "real_time": %d, "cpu_time": 1000, "time_unit": "ns"},
 {"name": "BM_b", "run_type": "iteration", "iterations": 10, "real_time": %d, "cpu_time": 500, "time_unit": "ns"}]}\n' $w $((w / 2))
SH
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<JSON
{
  "version": 1,
  "writable": ["$STATE"], "pass_env": ["STATE"],
  "defaults": { "pairs": 8, "max_pairs": 8, "warmup": 0, "min_effect": 0.05,
                "timeout": 20 },
  "benchmarks": [
    { "name": "gb", "format": "gbench", "run": ["./bench.sh"] }
  ]
}
JSON
commit_all "$R" base
echo "changed" >"$R/NOTES"
commit_all "$R" head
note() {
	json_get "$1" "[b.get('environment_note') or '' for b in d['benchmarks'] if b['name'] == '$2'][0]"
}
GATE_VALGRIND=/bin/true gate_measured -C "$R" run --base HEAD~1 --head HEAD \
	--json "$SCRATCH/r.json"
[ "$(json_get "$SCRATCH/r.json" '[b["verdict"] for b in d["benchmarks"]]')" = "['noisy', 'noisy']" ] ||
	fail "both cases should end noisy: $(json_get "$SCRATCH/r.json" '[b["verdict"] for b in d["benchmarks"]]')"
n=$(note "$SCRATCH/r.json" gb/BM_a)
case $n in
*'"metrics": ["instructions"] on suite "gb"'*'counted pairs of the whole suite'*'reports each case'"'"'s cpu_time: "metric": "cpu"'*) ;;
*) fail "BM_a should get counts and cpu_time advised: $n" ;;
esac
n=$(note "$SCRATCH/r.json" gb/BM_b)
case $n in
*'per-case counts would decide it, as advised beside gb/BM_a'*) ;;
*) fail "BM_b should point to BM_a's advice: $n" ;;
esac
# no valgrind: cpu_time alone
rm -f "$STATE"/*
GATE_VALGRIND=/nonexistent gate_measured -C "$R" run --base HEAD~1 --head HEAD \
	--json "$SCRATCH/n.json"
n=$(note "$SCRATCH/n.json" gb/BM_a)
case $n in
*instructions*) fail "counts advised without valgrind: $n" ;;
*'cpu_time: "metric": "cpu"'*) ;;
*) fail "BM_a should get cpu_time advised: $n" ;;
esac
n=$(note "$SCRATCH/n.json" gb/BM_b)
case $n in
*"its cpu_time would decide it, as advised beside gb/BM_a"*) ;;
*) fail "BM_b should point to BM_a's advice: $n" ;;
esac
# calibrate: one revision against itself (both arms base's), real_time
# doubling every other process
rm -f "$STATE"/*
GATE_VALGRIND=/bin/true gate_run 0 -C "$R" calibrate --rev HEAD~1 --pairs 8 --seed 5
expect_in "$OUT" "beyond the budget"
case $(cat "$OUT") in
*'cases cannot reach the floor on time'*'"metrics": ["instructions"]'*'such a run takes about'*'or "metric": "cpu"'*) ;;
*) fail "calibrate should propose per-case counts and cpu_time: $(cat "$OUT")" ;;
esac
GATE_VALGRIND=/nonexistent gate_run 0 -C "$R" calibrate --rev HEAD~1 --pairs 8 --seed 5
expect_in "$OUT" 'need valgrind, not on PATH'
exit 0
