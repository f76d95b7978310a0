# A "writable" path that holds the repository (here its parent) would
# give one arm's benchmark the other arm's checkout: refused before any
# build, whichever isolation is in force. In a sandbox per arm its bind
# brought back the checkout the sandbox hides, and a benchmark of one arm
# wrote into the other's with no word (the sandbox's first version).
. "$(dirname "$0")/lib.sh"
needs_os "namespaces"
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\ntouch "$(dirname "$PWD")"/b/x 2>/dev/null\necho done\n' >"$R/bench.sh"
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<JSON
{ "version": 1, "writable": ["$SCRATCH"],
  "defaults": { "pairs": 2, "warmup": 0 },
  "benchmarks": [ { "name": "b", "run": ["./bench.sh"] } ] }
JSON
commit_all "$R" base
echo x >"$R/NOTES"
commit_all "$R" head
modes=landlock
sandbox_starts && modes="bwrap landlock"
for m in $modes; do
	GATE_SANDBOX=$m gate_run 3 -C "$R" run --base HEAD~1 --head HEAD \
		--measure-identical
	expect_in "$ERR" "\"writable\" lists \"$SCRATCH\""
	expect_in "$ERR" "the other arm's checkout"
	[ ! -e "$R/.git/gate/b/x" ] || fail "$m: a benchmark wrote into the other arm"
done
exit 0
