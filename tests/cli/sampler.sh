# A sample in an arm's sandbox is timed by gate-sampler, which maps none
# of gate's libraries (libgit2 and what it loads: 14 ms of CPU a sample
# when gate itself timed it); a gate with no gate-sampler beside it (a
# binary copied alone) times its samples itself, and they still run. The
# benchmark reads its parent's memory map: the sampler's.
. "$(dirname "$0")/lib.sh"
sandbox_starts || skip "bubblewrap cannot start a sandbox here (not installed, or user namespaces refused)"
needs_os "namespaces"
GATE_SANDBOX=bwrap
export GATE_SANDBOX
B=$(cd "$(dirname "${GATE_BIN:-$GATE}")" && pwd)
[ -x "$B/gate-sampler" ] || fail "no gate-sampler beside $B/gate: run make"
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
grep -q libc /proc/$PPID/maps || { echo "no map of the sampler" >&2; exit 1; }
if grep -q libgit2 /proc/$PPID/maps; then got=gate; else got=small; fi
[ "$got" = "$GATE_TEST_SAMPLER" ] || { echo "sampled by $got" >&2; exit 1; }
echo done
SH
chmod +x "$R/bench.sh"
write_config "$R" '"pairs": 2, "max_pairs": 2, "warmup": 0'
commit_all "$R" base
echo "# head" >>"$R/README"
commit_all "$R" head
GATE_TEST_SAMPLER=small gate_measured -C "$R" run --base HEAD~1 --head HEAD -v
expect_in "$OUT" "a sandbox per arm"
# gate alone: the fallback, the same sample
mkdir "$SCRATCH/alone"
cp "$B/gate" "$SCRATCH/alone/gate"
GATE_TEST_SAMPLER=gate "$SCRATCH/alone/gate" -C "$R" run --base HEAD~1 \
	--head HEAD -v >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -le 2 ] || fail "gate without gate-sampler exited $rc"
expect_in "$OUT" "a sandbox per arm"
exit 0
