# A run that stops before its verdict says why once on stderr, and its
# JSON report's run-level "error" carries the same words: the last
# "gate: error:" message (to the end of stderr: a build error quotes its
# log's tail). One failure path per stage before measuring.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo

# same_error WHAT: the report's "error" is the last error on stderr.
same_error() {
	python3 - "$ERR" "$SCRATCH/r.json" "$1" <<'PY' || fail "$1: the report's error differs from stderr's"
import json, sys
err = open(sys.argv[1]).read()
said = err[err.rindex("gate: error: ") + len("gate: error: "):]
said = said[:-1] if said.endswith("\n") else said  # error()'s newline
got = json.load(open(sys.argv[2]))["error"]
if got != said:
    sys.exit("%s:\n  stderr: %r\n  report: %r" % (sys.argv[3], said, got))
PY
	[ "$(grep -c '^gate: error: ' "$ERR")" -ge 1 ] || fail "$1: no error said"
}

# run_fails WHAT EXPECTED-TEXT ARGS...: gate run exits 3, says TEXT, and
# its report's error is what it said.
run_fails() {
	what=$1 text=$2
	shift 2
	rm -f "$SCRATCH/r.json"
	gate_run 3 -C "$R" run --json "$SCRATCH/r.json" "$@"
	expect_in "$ERR" "$text"
	[ -s "$SCRATCH/r.json" ] || fail "$what: no JSON report"
	same_error "$what"
}

fixture "$R" 0.01 0.01
# an unknown revision (git/, resolving base)
run_fails "unknown revision" 'unknown revision "nosuch"' --base nosuch
# an invalid --filter (the plan)
run_fails "bad filter" 'is not a valid POSIX extended regular expression' \
	--base HEAD~1 --head HEAD --filter '('
# --pin that is no CPU list (the workspace's layout)
if [ -z "${GATE_OS_STUB:-}" ]; then
	run_fails "bad pin" 'is not a CPU list' --base HEAD~1 --head HEAD \
		--pin 0-x
fi

# head's gate.json is not valid JSON (the config, read from head's tree)
printf '{ "benchmarks": [ \n' >"$R/gate.json"
commit_all "$R" "broken config"
run_fails "bad gate.json in head" 'gate.json:2:' --base HEAD~1 --head HEAD

# base's gate.json is a link: it cannot be read, so its policy cannot
# decide (two errors printed: the report quotes the last)
git -C "$R" checkout -q HEAD~2
mv "$R/gate.json" "$R/real.json"
ln -s real.json "$R/gate.json"
commit_all "$R" "base's gate.json is a link"
git -C "$R" tag linkbase
rm "$R/gate.json"
cp "$R/real.json" "$R/gate.json"
commit_all "$R" "a file again"
run_fails "base config unreadable" 'its gate.json cannot be read' \
	--base linkbase --head HEAD
[ "$(grep -c '^gate: error: ' "$ERR")" -eq 2 ] ||
	fail "base config unreadable: want the link's error and base's"

# both builds fail: both said, the report quotes head's (the last),
# whole: 12 lines of 100 characters of its log, then the last one
cat >"$R/build.sh" <<'EOF2'
#!/bin/sh
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	printf 'warning %02d: %090d\n' "$i" 0 >&2
done
echo "broken in $0" >&2
exit 2
EOF2
python3 - "$R/gate.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["build"] = "sh build.sh"
json.dump(c, open(sys.argv[1], "w"))
PY
commit_all "$R" "a build that fails"
run_fails "build failure" 'the build of head (HEAD) exited with code 2' \
	--base HEAD --head HEAD --fixed-arms
expect_in "$ERR" "the build of base (HEAD) exited with code 2"
expect_in "$SCRATCH/r.json" "warning 12: 000"
expect_in "$SCRATCH/r.json" "broken in build.sh"

# --shard: two suites whose harness cannot list their cases (the listing
# runs after the build): both said, the report quotes the last
S=$SCRATCH/shard
new_repo "$S"
printf '#!/bin/sh\n[ -n "${GATE_LIST-}" ] && exit 4\necho "c01 10 ms"\n' \
	>"$S/suite.sh"
chmod +x "$S/suite.sh"
cat >"$S/gate.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0 },
  "benchmarks": [
    { "name": "s1", "format": "lines", "run": ["./suite.sh"] },
    { "name": "s2", "format": "lines", "run": ["./suite.sh"] } ] }
JSON
commit_all "$S" suites
R=$S
run_fails "shard listing" 'benchmark "s2": the listing run of its cases' \
	--base HEAD --head HEAD -q --shard 1/2
expect_in "$ERR" 'benchmark "s1": the listing run of its cases'
exit 0
