# gate writes and deletes only its own files (issue 14 items 1, 2, 10):
# a symlinked $GIT_DIR/gate or entry in it is refused and nothing of the
# user's changes; a build that puts a symlink where the tree has a
# directory does not make the next checkout write outside; a checkout
# with directories nested beyond PATH_MAX and a lost index recovers; the
# scratch directory of a SIGKILLed run is reclaimed by the next run.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01

# 1. $GIT_DIR/gate is a symlink to the working tree, which has an a/
mkdir -p "$R/a"
echo tracked >"$R/a/t"
commit_all "$R" "a dir"
echo untracked >"$R/a/u"
ln -s "$R" "$R/.git/gate"
before=$(user_state "$R")
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --pairs 2
expect_in "$ERR" "is a symbolic link"
[ "$before" = "$(user_state "$R")" ] || fail "the user's files changed"
[ -f "$R/a/u" ] && [ -f "$R/a/t" ] || fail "a/ lost files"
rm "$R/.git/gate"

# ... and an arm directory in it that is a symlink to a directory outside
mkdir -p "$SCRATCH/outside" "$R/.git/gate"
echo precious >"$SCRATCH/outside/keep"
ln -s "$SCRATCH/outside" "$R/.git/gate/a"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --pairs 2
expect_in "$ERR" "gate/a\": it is a symbolic link"
[ "$(cat "$SCRATCH/outside/keep")" = precious ] || fail "outside file lost"
rm "$R/.git/gate/a"

# 2. a build replaces the tracked directory d/ with a link to outside
mkdir -p "$R/d" "$SCRATCH/victim"
echo base >"$R/d/x"
commit_all "$R" "d/x base"
echo head >"$R/d/x"
commit_all "$R" "d/x head"
echo precious >"$SCRATCH/victim/x"
cat >"$SCRATCH/link.json" <<JSON
{ "build": "[ -L d ] || { rm -rf d && ln -s '$SCRATCH/victim' d; }",
  "defaults": { "pairs": 2, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
for seed in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed $seed \
		--config "$SCRATCH/link.json"
	[ "$(cat "$SCRATCH/victim/x")" = precious ] ||
		fail "the checkout wrote through a symlink (seed $seed)"
done

# 10. a build nests directories beyond PATH_MAX in its checkout (a
# sample's checkout is read-only in its sandbox), and the checkout index
# is lost: the next run starts afresh, not exit 3
cat >"$R/deep.sh" <<'SH'
#!/usr/bin/env python3
import os
for i in range(300):
    os.makedirs("n0123456789abcdef", exist_ok=True)
    os.chdir("n0123456789abcdef")
print("done")
SH
chmod +x "$R/deep.sh"
commit_all "$R" deep
cat >"$SCRATCH/deep.json" <<'JSON'
{ "build": "./deep.sh",
  "defaults": { "pairs": 2, "warmup": 0, "min_effect": 1, "parity": false },
  "benchmarks": [ { "name": "deep", "run": ["/bin/true"] } ] }
JSON
gate_measured -C "$R" run --base HEAD --head HEAD --fixed-arms \
	--config "$SCRATCH/deep.json"
rm -f "$R/.git/gate/a.git/index" "$R/.git/gate/b.git/index"
: >"$R/.git/gate/a/stale-output"
gate_measured -C "$R" run --base HEAD --head HEAD --fixed-arms \
	--config "$SCRATCH/deep.json"
[ ! -e "$R/.git/gate/a/stale-output" ] ||
	fail "the checkout with a lost index was not redone from scratch"

# 10. scratch directories of a SIGKILLed run are reclaimed
printf '#!/bin/sh\nsleep 0.3187\n' >"$R/slow.sh"
chmod +x "$R/slow.sh"
commit_all "$R" slow
cat >"$SCRATCH/slow.json" <<'JSON'
{ "defaults": { "pairs": 30, "warmup": 0, "min_effect": 1 },
  "benchmarks": [ { "name": "slow", "run": ["./slow.sh"] } ] }
JSON
# SIGKILL leaves the samples' temporary directory too: under $SCRATCH
TMPDIR=$SCRATCH "$GATE" -C "$R" run --base HEAD --head HEAD \
	--config "$SCRATCH/slow.json" >"$SCRATCH/slow.out" 2>&1 &
pid=$!
wait_for pgrep -f "sleep 0.3187" || { cat "$SCRATCH/slow.out"; fail "the benchmark never started"; }
kill -KILL $pid
wait $pid
left=$(ls -d "$R"/.git/gate/scratch-* 2>/dev/null)
[ -n "$left" ] || fail "a SIGKILLed run should leave its scratch directory"
# "0[.]3187": the pattern must not match the sh -c that runs pgrep (it did,
# and this waited wait_for's full 60 s every run, then carried on)
wait_for sh -c '! pgrep -f "sleep 0[.]3187"' ||
	fail "the killed run's benchmark never ended"
gate_measured -C "$R" run --base HEAD --head HEAD --pairs 2
for d in $left; do
	[ ! -e "$d" ] || fail "$d was not reclaimed"
done
exit 0
