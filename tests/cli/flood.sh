# A benchmark that prints a flood (256 MiB to stdout per sample, 1 GiB in
# the run; GATE_TEST_FLOOD_MIB changes it) and one that floods stderr with NUL
# bytes and fails: gate streams both, so its own peak memory stays small (checked
# structurally: far below one sample's output), and the error shows only
# the tail of stderr.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
mib=${GATE_TEST_FLOOD_MIB:-256}
cat >"$SCRATCH/flood.json" <<JSON
{ "defaults": { "pairs": 2, "warmup": 0, "min_effect": 5, "timeout": 600 },
  "benchmarks": [ { "name": "flood", "run": "head -c ${mib}M /dev/zero" } ] }
JSON
# peak RSS (KiB) of gate, from wait4: gate's own and any child's maximum
peak_rss() {
	python3 -c '
import os, subprocess, sys
p = subprocess.Popen(sys.argv[2:], stdout=open(sys.argv[1] + "/out", "w"),
                     stderr=open(sys.argv[1] + "/err", "w"))
_, status, ru = os.wait4(p.pid, 0)
print(os.waitstatus_to_exitcode(status), ru.ru_maxrss)' "$SCRATCH" "$@"
}
set -- $(peak_rss "$GATE" -C "$R" run --base HEAD --config "$SCRATCH/flood.json" --json "$SCRATCH/r.json")
[ "$1" -eq 0 ] || fail "flood: gate exited $1, want 0"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["verdict"]')" = pass ] || fail "verdict"
# under valgrind or ASan gate itself is larger; 100 MiB is still well
# below one sample's output, which buffering would need
limit=$((100 * 1024))
[ "$2" -lt "$limit" ] || fail "gate's peak RSS was $2 KiB for ${mib} MiB per sample"
echo "flood: ${mib} MiB per sample, 4 samples, gate's peak RSS $2 KiB" >&2

cat >"$SCRATCH/flood.json" <<JSON
{ "defaults": { "pairs": 2, "warmup": 0, "timeout": 600 },
  "benchmarks": [ { "name": "noisy", "run": "head -c ${mib}M /dev/zero >&2; echo THE-END >&2; exit 2" } ] }
JSON
set -- $(peak_rss "$GATE" -C "$R" run --base HEAD --config "$SCRATCH/flood.json")
[ "$1" -eq 3 ] || fail "stderr flood: gate exited $1, want 3"
[ "$2" -lt "$limit" ] || fail "gate's peak RSS was $2 KiB for ${mib} MiB of stderr"
expect_in "$OUT" "exited with code 2"
# NUL bytes in stderr must not hide its tail (they are shown as '?')
expect_in "$OUT" "THE-END"
expect_not_in "$OUT" "stderr was empty"
[ "$(wc -c <"$OUT")" -lt 100000 ] || fail "the error quoted more than the tail of stderr"
exit 0
