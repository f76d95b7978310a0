# A suite takes the identical-build shortcut (issue 23 item 1): its
# declared artifacts byte-identical and the trees differing only in base's
# "sources" (a docs-only change), it is never run and passes as one row
# marked identical (its cases are known only from its output); sharded,
# that row is in one shard and the merge passes; --measure-identical runs
# it and compares each case; a file outside "sources" changed measures
# the cases, each saying why; a changed artifact measures the cases.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
mkdir -p "$SCRATCH/log"
L=$SCRATCH/log/samples.log
new_repo "$R"
# suite.sh: 3 cases; every run leaves a line in the log (outside the arm,
# where base's "writable" lets it write)
cat >"$R/suite.sh" <<EOF2
#!/bin/sh
echo run >>"$L"
for c in c1 c2 c3; do
	if [ -n "\${GATE_LIST-}" ]; then echo "\$c"; else echo "\$c 10 ms"; fi
done
EOF2
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<JSON
{ "version": 1,
  "build": "mkdir -p out && cp suite.sh out/suite && chmod +x out/suite",
  "artifacts": ["out/*"],
  "writable": ["$SCRATCH/log"],
  "sources": ["suite.sh", "README"],
  "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./out/suite"] } ] }
JSON
echo out/ >"$R/.gitignore"
commit_all "$R" base
echo "how to use it" >"$R/README"
commit_all "$R" "docs only"

gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/same.json"
J=$SCRATCH/same.json
[ "$(json_get "$J" "[(b['name'], b['verdict'], b['pairs'], len(b['samples'])) for b in d['benchmarks']]")" = \
  "[('s', 'pass', 0, 0)]" ] ||
	fail "an identical suite should be one unmeasured pass: $(json_get "$J" "[(b['name'], b['verdict'], b['pairs']) for b in d['benchmarks']]")"
json_get "$J" "d['benchmarks'][0]['reason']" | grep -q '^identical build: 1 file, sha256 ' ||
	fail "reason: $(json_get "$J" "d['benchmarks'][0]['reason']")"
expect_in "$OUT" "not run, so its cases pass as one row"
[ ! -s "$L" ] || fail "an identical suite was run: $(wc -l <"$L") times"

# sharded: the row in one shard only, the merge passes with it once
for i in 1 2; do
	gate_run 0 -C "$R" run --base HEAD~1 --head HEAD -q --shard "$i/2" \
		--json "$SCRATCH/s$i.json"
done
gate_run 0 -C "$R" merge "$SCRATCH/s1.json" "$SCRATCH/s2.json" --json "$SCRATCH/m.json"
[ "$(json_get "$SCRATCH/m.json" "[(b['name'], b['verdict']) for b in d['benchmarks']]")" = \
  "[('s', 'pass')]" ] || fail "merged: $(json_get "$SCRATCH/m.json" "[b['name'] for b in d['benchmarks']]")"
[ ! -s "$L" ] || fail "a shard ran the identical suite"

# --measure-identical runs it: every case compared
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD -q --measure-identical \
	--json "$SCRATCH/m2.json"
[ "$(json_get "$SCRATCH/m2.json" "sorted(b['name'] for b in d['benchmarks'])")" = \
  "['s/c1', 's/c2', 's/c3']" ] || fail "--measure-identical should compare the cases"
[ -s "$L" ] || fail "--measure-identical did not run the suite"

# identical artifacts, but a file outside base's "sources" differs: the
# suite is measured, and each case says why
: >"$L"
echo 1 >"$R/data.txt"
commit_all "$R" "data changed"
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD -q --json "$SCRATCH/o.json"
[ "$(json_get "$SCRATCH/o.json" "sorted(b['name'] for b in d['benchmarks'])")" = \
  "['s/c1', 's/c2', 's/c3']" ] || fail "a suite with a file outside sources changed should compare its cases"
[ "$(json_get "$SCRATCH/o.json" "sum('data.txt differs and is not among' in (b['environment_note'] or '') for b in d['benchmarks'])")" = 3 ] ||
	fail "each case should carry the artifacts' note: $(json_get "$SCRATCH/o.json" "[b['environment_note'] for b in d['benchmarks']]")"
[ -s "$L" ] || fail "the suite was not run"

# a changed artifact: measured, case by case
: >"$L"
echo "# changed" >>"$R/suite.sh"
commit_all "$R" "suite changed"
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD -q --json "$SCRATCH/d.json"
[ "$(json_get "$SCRATCH/d.json" "sorted(b['name'] for b in d['benchmarks'])")" = \
  "['s/c1', 's/c2', 's/c3']" ] || fail "a changed suite should compare its cases"
[ -s "$L" ] || fail "a changed suite was not run"
echo "identical-suite: ok"
