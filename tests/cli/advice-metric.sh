# A wall-time benchmark that ends noisy gets metric advice beside its
# verdict, for the next run, never a switch: here its wall time jumps by
# 100 ms in every other process (a sleep on odd pids) while its CPU work is
# the same, so cpu time reaches the floor within max_pairs and wall time
# cannot; a mostly sleeping one gets no cpu advice but, with valgrind
# there (GATE_VALGRIND), a count's; without valgrind, none.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
i=0
while [ $i -lt ${SPIN:-40000} ]; do i=$((i+1)); done
[ $(($$ % 2)) = 1 ] && sleep ${NAP:-0.1}
exit 0
SH
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<'JSON'
{
  "version": 1,
  "defaults": { "pairs": 10, "max_pairs": 20, "warmup": 1, "min_effect": 0.2,
                "timeout": 20 },
  "benchmarks": [
    { "name": "spin", "run": ["./bench.sh"] },
    { "name": "nap", "run": ["sh", "-c", "SPIN=300 NAP=0.2 ./bench.sh"] }
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
if [ "$(verdict spin)" = noisy ]; then
	n=$(note spin)
	case $n in
	*"cpu time would decide where wall time cannot"*'"metric": "cpu"'*) ;;
	*) fail "no cpu advice beside spin's noisy verdict: $n" ;;
	esac
fi
[ "$(verdict nap)" = noisy ] || fail "nap: $(verdict nap), want noisy"
n=$(note nap)
case $n in
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
