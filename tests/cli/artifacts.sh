# "artifacts" (issue 13 item 3): a benchmark whose build is byte-identical
# in both arms passes without being measured; a changed artifact is
# measured and the report names it; --measure-identical measures anyway;
# a pattern matching no file in either arm is an error; a difference
# outside base's "sources" (here gate.json itself, or a data file) is
# measured.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
# the samples log outside the checkout, where base's "writable" lets a
# sealed benchmark write (Landlock refuses any other path)
mkdir -p "$SCRATCH/log"
L=$SCRATCH/log/samples.log
new_repo "$R"
printf '#!/bin/sh\necho sample >>"%s"\nsleep 0.01\necho done\n' "$L" >"$R/prog.sh"
cat >"$R/gate.json" <<JSON
{ "version": 1,
  "build": "mkdir -p out && cp prog.sh out/prog && cp prog.sh out/copy && chmod +x out/prog",
  "artifacts": ["out/*"],
  "writable": ["$SCRATCH/log"],
  "sources": ["prog.sh", "README"],
  "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "p", "run": ["./out/prog"] } ] }
JSON
echo out/ >"$R/.gitignore"
commit_all "$R" base
echo "how to use it" >"$R/README"
commit_all "$R" "docs only"

# a docs-only change: identical build, a pass with no samples
gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/same.json"
J=$SCRATCH/same.json
[ "$(json_get "$J" "d['benchmarks'][0]['verdict']")" = pass ] || fail "identical build: verdict not pass"
[ "$(json_get "$J" "d['benchmarks'][0]['pairs']")" = 0 ] || fail "identical build: measured"
[ "$(json_get "$J" "len(d['benchmarks'][0]['samples'])")" = 0 ] || fail "identical build: samples taken"
json_get "$J" "d['benchmarks'][0]['reason']" | grep -q '^identical build: 2 files, sha256 [0-9a-f]\{12\}' ||
	fail "reason: $(json_get "$J" "d['benchmarks'][0]['reason']")"
want=$(sha256sum "$R/prog.sh" | cut -d' ' -f1)
[ "$(json_get "$J" "d['benchmarks'][0]['artifacts']['files'][1]['head']")" = "$want" ] ||
	fail "out/prog's digest is not sha256sum's"
[ "$(json_get "$J" "d['benchmarks'][0]['artifacts']['files'][1]['path']")" = out/prog ] ||
	fail "artifacts not sorted by path"
[ ! -s "$L" ] || fail "an identical build was run"
expect_in "$OUT" "identical build: 2 files, sha256"
# the loader reads the report back into the same bytes (test-load)
TEST_LOAD=$(dirname "${GATE_BIN:-$GATE}")/tests/gate/report/test-load
[ -x "$TEST_LOAD" ] || fail "no $TEST_LOAD: build it (make test does)"
GATE_TEST_REPORT=$J "$TEST_LOAD" round_trips >"$OUT" 2>"$ERR" ||
	fail "the loaded identical-build report does not write the same bytes"

# --measure-identical measures anyway
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --measure-identical --json "$SCRATCH/anyway.json"
J=$SCRATCH/anyway.json
[ "$(json_get "$J" "d['benchmarks'][0]['pairs'] >= 4")" = True ] || fail "--measure-identical did not measure"
[ "$(json_get "$J" "d['benchmarks'][0]['artifacts']['measured']")" = True ] || fail "not recorded as measured"
expect_in "$OUT" "measured anyway (--measure-identical)"

# a changed artifact is measured, and the report names the file
printf '#!/bin/sh\necho sample >>"%s"\nsleep 0.01\necho done # changed\n' "$L" >"$R/prog.sh"
commit_all "$R" "the program changes"
: >"$L"
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/diff.json"
J=$SCRATCH/diff.json
[ "$(json_get "$J" "d['benchmarks'][0]['pairs'] >= 4")" = True ] || fail "a changed build was not measured"
[ "$(json_get "$J" "[f['path'] for f in d['benchmarks'][0]['artifacts']['files'] if f['differ']]")" = "['out/copy', 'out/prog']" ] ||
	fail "differing files: $(json_get "$J" "d['benchmarks'][0]['artifacts']['files']")"
[ -s "$L" ] || fail "nothing ran"
expect_in "$OUT" "artifacts differ: out/copy, out/prog"
GATE_TEST_REPORT=$J "$TEST_LOAD" round_trips >"$OUT" 2>"$ERR" ||
	fail "the loaded report with differing artifacts does not write the same bytes"

# head cannot skip its own measuring by pointing "artifacts" at a file it
# does not change, nor by declaring its gate.json a source: both are
# base's ("artifacts" and "sources" are policy keys)
sed 's|"out/\*"|".gitignore"|; s|"README"\]|"README", "gate.json"]|' "$R/gate.json" >"$R/gate.json.new"
mv "$R/gate.json.new" "$R/gate.json"
commit_all "$R" "head points artifacts at an unchanged file"
: >"$L"
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/loose.json"
[ "$(json_get "$SCRATCH/loose.json" "d['benchmarks'][0]['pairs'] >= 4")" = True ] ||
	fail "head's own artifacts skipped the measuring"
gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --policy head --json "$SCRATCH/head.json"
[ "$(json_get "$SCRATCH/head.json" "d['benchmarks'][0]['pairs']")" = 0 ] ||
	fail "--policy head: head's artifacts should decide"

# a pattern that matches nothing in either arm is an error
sed 's|"\.gitignore"|"bin/*"|' "$R/gate.json" >"$SCRATCH/nothing.json"
gate_run 3 -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/nothing.json"
expect_in "$ERR" 'benchmark "p": "artifacts" pattern "bin/*" matches no file in either arm'
exit 0
