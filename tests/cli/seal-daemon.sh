# Processes a build or a benchmark leaves behind in a session of their own
# (setsid, nohup, a double fork) are killed as soon as the run that
# started them is reaped (gate is their subreaper), so none keeps running
# beside the other arm: the benchmark fails when the build's daemon is
# still there, and none is left when gate ends. Today's gate kills only
# the run's process group, which a new session has left.
. "$(dirname "$0")/lib.sh"
needs_os "subreaper (prctl)"
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
if pgrep -f "sleep 61.3131" >/dev/null; then
	echo "the build's daemon still runs" >&2
	exit 1
fi
(setsid sleep 61.3232 >/dev/null 2>&1 &) &
nohup setsid sh -c 'sleep 61.3333' >/dev/null 2>&1 &
sleep 0.01
echo done
SH
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<'JSON'
{ "version": 1,
  "build": "(setsid sh -c 'sleep 61.3131' >/dev/null 2>&1 &) ; true",
  "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 1, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
commit_all "$R" base
start=$(date +%s)
gate_measured -C "$R" run --base HEAD --head HEAD
[ $(( $(date +%s) - start )) -lt 40 ] || fail "gate waited for the daemons"
no_process "sleep 61.3131"
no_process "sleep 61.3232"
no_process "sleep 61.3333"
exit 0
