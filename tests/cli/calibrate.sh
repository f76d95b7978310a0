# gate calibrate runs a revision against itself and recommends a floor and
# pairs; the record it leaves is read by gate run; --write updates
# gate.json keeping everything else; --rebuild builds twice.
. "$(dirname "$0")/lib.sh"
# its benchmark writes outside the checkout (a log in $SCRATCH, which holds
# the repository): the write sandbox would refuse it, so it runs unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
gate_run 0 -C "$R" calibrate --pairs 6 --seed 3
# 6 pairs, or up to 4x as many while the halves' advice differs (noise)
grep -Eq "^sleep: (6|12|24) A/A pairs" "$OUT" || fail "calibrate should measure 6 A/A pairs, or 12 or 24"
expect_in "$OUT" "smallest regression detectable"
expect_in "$OUT" "recommend: \"min_effect\""
[ -f "$R/.git/gate/calibration.json" ] || fail "no calibration record"
[ "$(json_get "$R/.git/gate/calibration.json" 'd["benchmarks"][0]["name"]')" = sleep ] ||
	fail "record names the benchmark"
# a floor of 0.01% that no pairs catch: the advice differs from what the
# benchmark has, so --write writes
write_config "$R" '"min_effect": 0.0001'
commit_all "$R" "a floor below the noise"
gate_run 0 -C "$R" calibrate --pairs 4 --rebuild -q --write
expect_in "$OUT" "built twice"
expect_in "$OUT" "wrote the recommendations"
[ "$(json_get "$R/gate.json" 'd["benchmarks"][0].get("min_effect") != 0.5 and d["defaults"]["timeout"] == 20')" = True ] ||
	fail "--write should not repeat the inherited min_effect, and keep the rest"
grep -q '	' "$R/gate.json" && fail "--write put tabs into a file indented with spaces"
gate_run 3 -C "$R" calibrate --rev no-such-rev
expect_in "$ERR" "no-such-rev"
gate_run 3 -C "$R" calibrate --pairs 1
# calibrate measures as gate run does (gate/workspace/workspace.c): the preflight
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
# the rest counts allocations
needs_os "allocation counting (for the --write cases that follow)"
# --write is a minimal textual edit. A counted metric (allocations: exact,
# never noisy) is stable from the first pairs and its own pairs (3 for an
# exact count) suffice: nothing to write.
W=$SCRATCH/write
new_repo "$W"
cat >"$W/work.c" <<'C'
#include <stdlib.h>
int main(void)
{
	int i;
	for (i = 0; i < 50; i++)
		free(malloc(64));
	return 0;
}
C
cat >"$W/gate.json" <<'JSON'
{
    "version": 1,
    "build": "cc -O0 -o work work.c",
    "defaults": {"warmup": 0,   "timeout": 20},
    "benchmarks": [
        {
            "name": "work",
            "run": [ "./work" ],
            "metric": "allocs"
        }
    ]
}
JSON
commit_all "$W" work
cp "$W/gate.json" "$SCRATCH/before.json"
cp "$W/gate.json" "$SCRATCH/allocs.json"
gate_run 0 -C "$W" calibrate --pairs 6 --seed 1 -q --write
# no noise: stable at once (no more pairs), a range of one value
expect_in "$OUT" "work: 6 A/A pairs"
expect_in "$OUT" "stable: each half of the 6 pairs recommends what all of them do"
grep -Eq "recommended floor's range: ([0-9.e-]+) to \1 " "$OUT" ||
	fail "an exact metric's recommended floor has no spread"
expect_in "$OUT" '"pairs": 3 (a regression'
expect_in "$OUT" "has the recommendations already"
cmp -s "$SCRATCH/before.json" "$W/gate.json" || fail "an unchanged advice changed the file"
# timed, at a floor of 0.01% in "defaults" that no pairs catch: the
# benchmark gets its own "min_effect" and "pairs" 40, added after its last
# key with the file's own indentation; every other byte stays
sed 's/"allocs"/"wall"/; s/"warmup": 0,/"warmup": 0, "min_effect": 0.0001,/' \
	"$SCRATCH/before.json" >"$W/gate.json"
commit_all "$W" timed
cp "$W/gate.json" "$SCRATCH/before.json"
gate_run 0 -C "$W" calibrate --pairs 6 --seed 1 -q --write
expect_in "$OUT" "wrote the recommendations"
X=$(json_get "$W/gate.json" 'd["benchmarks"][0]["min_effect"]')
sed "s/\"metric\": \"wall\"/&,\n            \"min_effect\": $X,\n            \"pairs\": 40/" \
	"$SCRATCH/before.json" >"$SCRATCH/want.json"
diff "$SCRATCH/want.json" "$W/gate.json" >&2 ||
	fail "--write should add only \"min_effect\" and \"pairs\": 40, laid out as the file is"
# an existing key is replaced where it stands, inline objects too
sed 's/"run": \[ "\.\/work" \],/"run": [ ".\/work" ], "pairs": 30,/' "$SCRATCH/before.json" >"$W/gate.json"
commit_all "$W" "pairs 30"
cp "$W/gate.json" "$SCRATCH/before.json"
gate_run 0 -C "$W" calibrate --pairs 6 --seed 1 -q --write
X=$(json_get "$W/gate.json" 'd["benchmarks"][0]["min_effect"]')
sed "s/\"pairs\": 30,/\"pairs\": 40,/; s/\"metric\": \"wall\"/&,\n            \"min_effect\": $X/" \
	"$SCRATCH/before.json" >"$SCRATCH/want.json"
diff "$SCRATCH/want.json" "$W/gate.json" >&2 || fail "--write should replace only the value of \"pairs\""
# a recommendation that is not stable: the allocations are exact for the
# first 6 runs (3 pairs) and vary after, so the halves of 6 pairs
# disagree; calibrate measures more, up to 4x, then says so. The runs
# count themselves in one file, so they go one at a time
# (GATE_COUNT_JOBS=1): counts-only runs of both arms at once raced on it
# and gave each run another count
U=$SCRATCH/unstable
new_repo "$U"
cat >"$U/work.c" <<C
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen("$SCRATCH/count", "r+");
	long r = 0, i, n;
	if (!f)
		f = fopen("$SCRATCH/count", "w+");
	if (fscanf(f, "%ld", &r) != 1)
		r = 0;
	r++;
	rewind(f);
	fprintf(f, "%ld\n", r);
	fclose(f);
	n = r <= 6 ? 50 : 50 + (r * 7919) % 97;
	for (i = 0; i < n; i++)
		free(malloc(64));
	return 0;
}
C
cp "$SCRATCH/allocs.json" "$U/gate.json"
commit_all "$U" unstable
GATE_COUNT_JOBS=1
export GATE_COUNT_JOBS
gate_run 0 -C "$U" calibrate --pairs 6 --seed 1
unset GATE_COUNT_JOBS
expect_in "$ERR" "the halves of the pairs disagree; measuring up to 12 pairs"
expect_in "$ERR" "measuring up to 24 pairs"
expect_in "$OUT" "work: 24 A/A pairs"
expect_in "$OUT" "not stable within 24 pairs"
gate_run 0 calibrate --help
expect_in "$OUT" "usage: gate [-C DIR] calibrate"
exit 0
