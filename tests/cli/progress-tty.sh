# Issue 26 item 2: the progress line on a terminal (script(1) gives gate a
# pty) at COLUMNS 60, 80 and 120. Every redraw fits the width less one
# column; each shows the whole run's elapsed time ("run M:SS") and what is
# left ("about M:SS left" or "M:SS to M:SS left", low bound first); a bar
# where the name fits beside it (120). [i/N] counts the benchmarks measured
# this round: a benchmark new in head (not measured) takes no place, so
# the first round is [1/2] then [2/2] (it was [1/3] then [3/3]), and within
# a round i goes up by one; with a suite whose cases take rounds, the cases
# the suite measures together are one place (they were each counted, and
# [i/N] ran over every case: [1/4], [3/4]). In a pipe: one line per
# benchmark, no redraws.
# Structural checks only: no figure of time is asserted.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null 2>&1 || skip "no script(1) to give gate a terminal"
R=$SCRATCH/repo
long=third-with-a-name-long-enough-to-be-cut-at-sixty-columns
new_repo "$R"
write_bench "$R" 0.02
cat >"$R/gate.json" <<JSON
{
  "version": 1,
  "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 1, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [
    { "name": "first", "run": ["./bench.sh"] },
    { "name": "$long", "run": ["./bench.sh"] }
  ]
}
JSON
commit_all "$R" base
# head adds a benchmark between the two: new, so never measured
sed -i 's/{ "name": "first"/{ "name": "second-new", "run": [".\/bench.sh"] },\n    &/' "$R/gate.json"
grep -q second-new "$R/gate.json" || fail "the fixture has no new benchmark"
commit_all "$R" head

cat >"$SCRATCH/check.py" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
width = int(sys.argv[2])
line = re.compile(r"^(?:gate: )?\[(\d+)/(\d+)\] .* run (\d+(?::\d\d)+), "
                  r"(?:about (\d+(?::\d\d)+)|(\d+(?::\d\d)+) to (\d+(?::\d\d)+)) left$")
def secs(s):
    t = 0
    for part in s.split(":"):
        t = t * 60 + int(part)
    return t
bad, seen = [], []
for seg in re.split(r"[\r\n]", text):
    seg = seg.replace("\x1b[K", "")
    if not re.match(r"^(?:gate: )?\[\d+/\d+\] ", seg) or " pairs: " in seg:
        continue
    m = line.match(seg)
    if not m:
        bad.append("not a progress line: %r" % seg)
        continue
    if len(seg) > width - 1:
        bad.append("%d columns at COLUMNS=%d: %r" % (len(seg), width, seg))
    if m.group(5) and secs(m.group(5)) > secs(m.group(6)):
        bad.append("the bounds are the wrong way round: %r" % seg)
    seen.append((int(m.group(1)), int(m.group(2)), seg))
if not seen:
    bad.append("no progress line drawn")
first = int(sys.argv[3])
if any(n != first for i, n, s in seen[:1]) or not any(i == first for i, n, s in seen):
    bad.append("the first round is not [1/%d] .. [%d/%d]: %r" % (first, first, first, [s for i, n, s in seen]))
for (i0, n0, s0), (i1, n1, s1) in zip(seen, seen[1:]):
    if (i1, n1) != (i0, n0) and i1 != 1 and (i1 != i0 + 1 or n1 != n0):
        bad.append("[i/N] jumps: %r then %r" % (s0, s1))
    if i1 > n1:
        bad.append("past its count: %r" % s1)
if width >= 120 and not any(re.search(r" \[=*>? *\] run ", s) for i, n, s in seen):
    bad.append("no bar at 120 columns")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# check_tty WIDTH FIRST: the transcript's progress lines (FIRST: the first
# round's count)
check_tty() {
	python3 "$SCRATCH/check.py" "$SCRATCH/tty" "$1" "$2" >"$SCRATCH/why" 2>&1 ||
		fail "COLUMNS=$1: $(cat "$SCRATCH/why")"
}
# on_tty WIDTH REPO ARGS...: gate run in REPO on a terminal of WIDTH
on_tty() {
	w=$1 repo=$2
	shift 2
	COLUMNS=$w script -qec "\"$GATE\" -C \"$repo\" run $*" \
		"$SCRATCH/tty" >/dev/null 2>&1 </dev/null
	got=$?	# script -e: gate's own exit code
	[ "$got" -le 2 ] || fail "COLUMNS=$w: gate exited $got on a terminal: $(tail -n 5 "$SCRATCH/tty")"
}

for w in 60 80 120; do
	on_tty "$w" "$R" --base HEAD~1 --head HEAD
	check_tty "$w" 2
done

# a suite whose cases need rounds (n and m vary, c does not) beside a plain
# benchmark: a round counts the suite's cases measured together once
S=$SCRATCH/suite
new_repo "$S"
cat >"$S/suite.sh" <<EOF2
#!/bin/sh
k=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count"
sleep 0.02
for c in c n m; do
	if [ -n "\${GATE_FILTER+x}" ] && ! echo "\$c" | grep -Eq "\$GATE_FILTER"; then
		continue
	fi
	case \$c in
	c) echo "c 10 ms" ;;
	n) echo "n \$((10 + k % 3)) ms" ;;
	m) echo "m \$((10 + k % 4)) ms" ;;
	esac
done
EOF2
chmod +x "$S/suite.sh"
write_bench "$S" 0.02
cat >"$S/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 16, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "plain", "run": ["./bench.sh"] },
                  { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$S" base
# its suite writes its count outside the checkout: unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
on_tty 100 "$S" --base HEAD --head HEAD --seed 7
check_tty 100 1
grep -q 'round 1: more pairs' "$SCRATCH/tty" || fail "the suite fixture took no round"

# in a pipe: one line per compared benchmark and the new one, no redraws
gate_measured -C "$R" run --base HEAD~1 --head HEAD
! grep -q "$(printf '\r')" "$ERR" || fail "a redraw in a pipe"
[ "$(grep -c '^gate: \[[1-3]/3\] ' "$ERR")" -eq 3 ] ||
	fail "not one line per benchmark in a pipe"
exit 0
