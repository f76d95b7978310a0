# Both arms are measured under the same conditions: checkouts at paths of
# equal length whose assignment to base and head is drawn per run (and
# replayed by --seed), random environment padding per sample, and a
# fresh, empty $GATE_TMPDIR at one path for every sample of both arms.
. "$(dirname "$0")/lib.sh"
# its benchmark writes outside the checkout (a log in $SCRATCH, which holds
# the repository): the write sandbox would refuse it, so it runs unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
LOG=$SCRATCH/samples.log
new_repo "$R"
cat >"$R/bench.sh" <<SH
#!/bin/sh
# record what this sample saw, outside stdout (parity stays intact)
n=\$(ls -A "\${GATE_TMPDIR:-/nonexistent}" 2>/dev/null | wc -l)
printf '%s %s %s %s\n' "\$(pwd)" "\${#GATE_PAD}" "\${GATE_TMPDIR:-none}" "\$n" >>"$LOG"
[ -n "\${GATE_TMPDIR:-}" ] && echo scratch >"\$GATE_TMPDIR/file"
sleep 0.01
SH
chmod +x "$R/bench.sh"
write_config "$R" '"min_effect": 5'
commit_all "$R" base

gate_measured -C "$R" run -v --base HEAD --head HEAD --seed 3 --json "$SCRATCH/r.json"
bd=$(json_get "$SCRATCH/r.json" 'd["protocol"]["conditions"]["base_dir"]')
hd=$(json_get "$SCRATCH/r.json" 'd["protocol"]["conditions"]["head_dir"]')
[ "${#bd}" -eq "${#hd}" ] || fail "arm paths differ in length: $bd $hd"
[ "$bd" != "$hd" ] || fail "both arms in one directory"
# 14 samples (1 warm-up + 6 pairs, two arms), all with one scratch path,
# each starting empty, and padding that varies
[ "$(wc -l <"$LOG")" -eq 14 ] || fail "expected 14 samples, got $(wc -l <"$LOG")"
[ "$(awk '{print $3}' "$LOG" | sort -u | wc -l)" -eq 1 ] || fail "scratch path differs between samples"
awk '{print $3}' "$LOG" | grep -q '^/' || fail "no GATE_TMPDIR"
[ "$(awk '$4 != 0' "$LOG" | wc -l)" -eq 0 ] || fail "a sample found a non-empty GATE_TMPDIR"
[ "$(awk '{print $2}' "$LOG" | sort -u | wc -l)" -ge 8 ] || fail "padding does not vary"
[ "$(awk -v d="$bd" '$1 == d' "$LOG" | wc -l)" -eq 7 ] || fail "base did not run 7 samples in $bd"
scratch=$(awk 'NR == 1 {print $3}' "$LOG")
[ ! -e "$scratch" ] || fail "scratch directory $scratch left behind"
expect_in "$OUT" "drawn at random"

# --seed replays the assignment; over seeds 1..8 both assignments occur
gate_measured -C "$R" run -v --base HEAD --head HEAD --seed 3 --json "$SCRATCH/r2.json" --pairs 2 --warmup 0
[ "$(json_get "$SCRATCH/r2.json" 'd["protocol"]["conditions"]["base_dir"]')" = "$bd" ] ||
	fail "--seed 3 did not replay the arm assignment"
seen=
for s in 1 2 3 4 5 6 7 8; do
	gate_measured -C "$R" run -v --base HEAD --head HEAD --seed $s --pairs 2 --warmup 0 --json "$SCRATCH/s.json"
	seen="$seen $(json_get "$SCRATCH/s.json" 'd["protocol"]["conditions"]["base_dir"][-1]')"
done
case "$seen" in *a*) ;; *) fail "base never in a: $seen" ;; esac
case "$seen" in *b*) ;; *) fail "base never in b: $seen" ;; esac

# each measure can be turned off, and the report says so
: >"$LOG"
gate_measured -C "$R" run -v --base HEAD --head HEAD --no-env-pad --no-scratch --fixed-arms --pairs 2 --warmup 0 --json "$SCRATCH/off.json"
[ "$(awk '{print $2 $3}' "$LOG" | sort -u)" = "0none" ] || fail "padding or scratch still on"
[ "$(json_get "$SCRATCH/off.json" 'd["protocol"]["conditions"]["arm_dirs"]')" = fixed ] || fail "arm_dirs"
json_get "$SCRATCH/off.json" 'd["protocol"]["conditions"]["base_dir"]' | grep -q '/a$' ||
	fail "--fixed-arms should put base in a"

# pinning: a CPU list works (with a warning on a shared core); junk is an
# error; without Linux's sched_setaffinity (the OS layer's stub) --pin is
# an error that says so
if [ -n "${GATE_OS_STUB:-}" ]; then
	gate_run 3 -C "$R" run -v --base HEAD --head HEAD --pin 0 --pairs 2 --warmup 0
	expect_in "$ERR" "CPU pinning is not available on this system"
	exit 0
fi
gate_measured -C "$R" run -v --base HEAD --head HEAD --pin 0 --pairs 2 --warmup 0 --json "$SCRATCH/pin.json"
[ "$(json_get "$SCRATCH/pin.json" 'd["protocol"]["conditions"]["pin"]')" = 0 ] || fail "pin not reported"
gate_run 3 -C "$R" run -v --base HEAD --head HEAD --pin 0-x
expect_in "$ERR" "is not a CPU list"
exit 0
