# metric "cpu" (user+sys) is selectable per benchmark: a head that spins
# four times as many iterations fails on CPU time.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
spin() {
	printf '#!/bin/sh\ni=0\nwhile [ $i -lt %s ]; do i=$((i+1)); done\n' "$2" >"$1/bench.sh"
	chmod +x "$1/bench.sh"
}
spin "$R" 30000
write_config "$R" '"metric": "cpu"'
commit_all "$R" base
spin "$R" 120000
commit_all "$R" head
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["metric"]')" = cpu ] || fail "metric"
exit 0
