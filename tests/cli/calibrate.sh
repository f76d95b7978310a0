# gate calibrate runs a revision against itself and recommends a floor and
# pairs; the record it leaves is read by gate run; --write updates
# gate.json keeping everything else; --rebuild builds twice.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
gate_run 0 -C "$R" calibrate --pairs 6 --seed 3
expect_in "$OUT" "sleep: 6 A/A pairs"
expect_in "$OUT" "smallest regression detectable"
expect_in "$OUT" "recommend: \"min_effect\""
[ -f "$R/.git/gate/calibration.json" ] || fail "no calibration record"
[ "$(json_get "$R/.git/gate/calibration.json" 'd["benchmarks"][0]["name"]')" = sleep ] ||
	fail "record names the benchmark"
gate_run 0 -C "$R" calibrate --pairs 4 --rebuild -q --write
expect_in "$OUT" "built twice"
expect_in "$OUT" "wrote the recommendations"
[ "$(json_get "$R/gate.json" '"min_effect" in d["benchmarks"][0] and d["defaults"]["timeout"] == 20')" = True ] ||
	fail "--write should add min_effect and keep the rest"
gate_run 3 -C "$R" calibrate --rev no-such-rev
expect_in "$ERR" "no-such-rev"
gate_run 3 -C "$R" calibrate --pairs 1
# calibrate measures as gate run does (gate/workspace.c): the preflight
# of "run" refuses a program outside the checkout, and every sample gets
# the layout's fresh $GATE_TMPDIR and environment padding
R2=$SCRATCH/repo2
fixture "$R2" 0.01 0.01
write_config "$R2"
sed -i "s|\"./bench.sh\"|\"$R2/bench.sh\"|" "$R2/gate.json"
commit_all "$R2" "run outside the checkout"
gate_run 3 -C "$R2" calibrate --pairs 4 -q
expect_in "$ERR" "outside the checkout"
CAL_LOG=$SCRATCH/calibrate-layout.log
printf '#!/bin/sh\nprintf "%%s %%s\\n" "${GATE_TMPDIR:-none}" "${#GATE_PAD}" >>"%s"\n' \
	"$CAL_LOG" >"$R2/bench.sh"
chmod +x "$R2/bench.sh"
write_config "$R2"
commit_all "$R2" "probe the layout"
gate_run 0 -C "$R2" calibrate --pairs 4 -q --seed 5
grep -q '^none ' "$CAL_LOG" && fail "a calibrate sample ran without \$GATE_TMPDIR"
[ "$(awk '$2 > 0' "$CAL_LOG" | wc -l)" -gt 0 ] ||
	fail "calibrate samples should get environment padding"
gate_run 0 calibrate --help
expect_in "$OUT" "usage: gate [-C DIR] calibrate"
exit 0
