# A wall-time benchmark that ends noisy gets metric advice beside its
# verdict, for the next run, never a switch: here its wall time jumps by
# 300 ms in every other sample while its CPU work stays the same, so cpu
# time reaches the floor within max_pairs and wall time cannot; a mostly
# sleeping one gets no cpu advice but, with valgrind there
# (GATE_VALGRIND), a count's; without valgrind, none.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
# The arms' k-th samples differ in wall time by a sleep, by turns (arm a's
# even samples, arm b's odd ones), and never in their CPU work: every pair
# ratio is the sleep's, up or down, so wall time stays noisy whatever the
# pairs (no chance in it: its interval spans both), while cpu time settles.
# The floor is wide (+50%): at +20% cpu time's own spread under a loaded
# CI machine once needed 39 pairs against max_pairs 30 (no cpu advice);
# the pairs a floor needs shrink with its square. The sleep (1 s) is long
# against the spin (about 35 ms of cpu): under make asan at load 12 the
# spin's wall time grew to 0.4 s beside a 0.3 s sleep, the ratios came
# near 1 and wall time passed; at 1 s they stay past x3 and x1/3, and
# wall time's interval past twice the floor.
STATE=$SCRATCH/state
mkdir -p "$STATE"
export STATE
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
f=$STATE/${PWD##*/}
k=$(cat "$f" 2>/dev/null || echo 0)
echo $((k + 1)) >"$f"
i=0
while [ $i -lt ${SPIN:-20000} ]; do i=$((i+1)); done
case ${PWD##*/}$((k % 2)) in a0|b1) sleep ${NAP:-1} ;; esac
exit 0
SH
# nap: mostly sleeping (0.2 s, and 0.3 s more by turns), a few ms of cpu
# in three processes: shell builtins only besides the sleeps
cat >"$R/nap.sh" <<'SH'
#!/bin/sh
f=$STATE/nap-${PWD##*/}
k=0
[ -f "$f" ] && read -r k <"$f"
echo $((k + 1)) >"$f"
sleep 0.2
case ${PWD##*/}$((k % 2)) in a0|b1) sleep 0.3 ;; esac
exit 0
SH
chmod +x "$R/bench.sh" "$R/nap.sh"
cat >"$R/gate.json" <<JSON
{
  "version": 1,
  "writable": ["$STATE"], "pass_env": ["STATE"],
  "defaults": { "pairs": 8, "max_pairs": 20, "warmup": 1, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [
    { "name": "spin", "run": ["./bench.sh"] },
    { "name": "nap", "run": ["./nap.sh"] }
  ]
}
JSON
commit_all "$R" base
echo "changed" >"$R/NOTES"
commit_all "$R" head
GATE_VALGRIND=/bin/true gate_measured -C "$R" run --base HEAD~1 --head HEAD \
	--json "$SCRATCH/r.json"
note() {
	json_get "$SCRATCH/r.json" "[b.get('environment_note') or '' for b in d['benchmarks'] if b['name'] == '$1'][0]"
}
verdict() {
	json_get "$SCRATCH/r.json" "[b['verdict'] for b in d['benchmarks'] if b['name'] == '$1'][0]"
}
# the metric stays wall: the advice is for the next run
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["metric"]')" = wall ] ||
	fail "the metric was switched"
[ "$(verdict spin)" = noisy ] || fail "spin: $(verdict spin), want noisy"
n=$(note spin)
case $n in
*"cpu time would decide where wall time cannot"*'"metric": "cpu"'*) ;;
*) fail "no cpu advice beside spin's noisy verdict: $n" ;;
esac
[ "$(verdict nap)" = noisy ] || fail "nap: $(verdict nap), want noisy"
n=$(note nap)
# under make memcheck (GATE_BIN set) valgrind's own work between fork and
# exec counts as the child's CPU time (18% of a sleep's wall time here),
# above the share that marks a benchmark that waits: not checked there
case ${GATE_BIN:+memcheck}$n in
memcheck*) ;;
*"cpu time would decide"*) fail "cpu advised for a benchmark that sleeps: $n" ;;
*'valgrind is on PATH: "instructions"'*) ;;
*) fail "no count advice for nap: $n" ;;
esac
# without valgrind no count is advised
GATE_VALGRIND=/nonexistent/valgrind gate_measured -C "$R" run --base HEAD~1 \
	--head HEAD --filter nap --json "$SCRATCH/r.json"
case $(note nap) in
*valgrind*) fail "a count advised without valgrind: $(note nap)" ;;
esac
exit 0
