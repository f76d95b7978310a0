# The manifests (issue 22, section 3), where Landlock is absent (here
# turned off with GATE_SANDBOX=off, so this runs everywhere): head's
# benchmark rewrites base's untracked build output (out.txt, which base's
# benchmark reads) with the same size. Today's gate hashes only tracked
# files and gives a verdict; now the manifest taken after the build names
# base and the file: exit 3, no verdict. The poisoned kept build is not
# reused by the next run (it is built again), and the next run's honest
# verdict stands.
. "$(dirname "$0")/lib.sh"
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\nsleep "$(cat out.txt)"\necho done\n' >"$R/bench.sh"
chmod +x "$R/bench.sh"
write_config "$R"
python3 - "$R/gate.json" <<'PY'
import json, sys
p = sys.argv[1]; c = json.load(open(p))
c["build"] = "echo 0.30 >out.txt"
json.dump(c, open(p, "w"))
PY
commit_all "$R" base
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
for d in ../*/; do
	[ "$d" -ef . ] || [ ! -f "$d/out.txt" ] || echo 0.01 >"$d/out.txt"
done
sleep "$(cat out.txt)"
echo done
SH
commit_all "$R" "head poisons base's build output"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --pairs 2 --json "$SCRATCH/r.json"
expect_in "$ERR" "base's checkout"
expect_in "$ERR" '"out.txt" changed'
expect_not_in "$OUT" "verdict: PASS"
# a kept build poisoned between runs (as by a run killed before its
# check, or by hand), its mtime put back: the next run builds it again
git -C "$R" checkout -q -b honest HEAD~1
gate_measured -C "$R" run --base HEAD --head HEAD
for f in "$R"/.git/gate/?/out.txt; do
	touch -r "$f" "$SCRATCH/stamp"
	echo 0.01 >"$f"
	touch -r "$SCRATCH/stamp" "$f"
done
echo honest >"$R/NOTES"
commit_all "$R" "an honest change"
gate_measured -C "$R" run --base honest~1 --head honest
expect_in "$ERR" "changed since it was built (\"out.txt\" changed"
expect_not_in "$ERR" "by an earlier run: not building it again"
[ "$(cat "$R"/.git/gate/?/out.txt | sort -u)" = 0.30 ] ||
	fail "a poisoned build output was reused"
exit 0
