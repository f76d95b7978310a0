# Arms sealed by Landlock (issue 22, section 3): head's benchmark tries to
# write into base's checkout (found beside its own: ../<other slot>/) -
# base's tracked script, and an untracked build output of base's - and
# exits 1 when a write succeeds. Under Landlock every such write fails, so
# the run goes on and decides the honest regression (+100%: exit 1), and
# base's files are as built. Today's gate lets the writes through (the
# sample fails: exit 3). Skipped where Landlock is absent; the manifests
# that stand in for it there are tested by seal-manifest.sh.
. "$(dirname "$0")/lib.sh"
# Landlock, the fallback where a sandbox per arm cannot start (which
# makes the sample's own checkout read-only too: gaming-sandbox.sh)
[ -n "${GATE_SANDBOX:-}" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
needs_os "Landlock"
[ "${GATE_SANDBOX:-}" != off ] ||
	skip "the sandbox is off (GATE_SANDBOX=off: make memcheck, whose valgrind knows no Landlock call)"
python3 -c 'import ctypes,sys; sys.exit(ctypes.CDLL(None).syscall(444, None, 0, 1) < 1)' ||
	skip "needs Landlock (Linux 5.13+ with it enabled)"
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.05
write_config "$R"
python3 - "$R/gate.json" <<'PY'
import json, sys
p = sys.argv[1]; c = json.load(open(p))
c["build"] = "echo built >out.txt"
json.dump(c, open(p, "w"))
PY
commit_all "$R" base
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
sleep 0.4
for d in ../*/; do
	[ "$d" -ef . ] && continue
	[ -f "$d/bench.sh" ] || continue
	if printf '# tampered\n' 2>/dev/null >>"$d/bench.sh"; then exit 1; fi
	if printf 'poisoned\n' 2>/dev/null >"$d/out.txt"; then exit 1; fi
	if true 2>/dev/null >"$d/new-file"; then exit 1; fi
	if mv "$d/out.txt" "$d/moved.txt" 2>/dev/null; then exit 1; fi
done
# its own checkout and the scratch directory stay writable
echo ok >own.txt || exit 2
echo ok >"$GATE_TMPDIR/x" || exit 2
t=$(mktemp) && rm "$t" || exit 2
echo done
SH
commit_all "$R" "head tries to write into base"
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --pairs 6
expect_in "$OUT" "verdict: FAIL"
for s in "$R"/.git/gate/?/; do
	[ -f "$s/bench.sh" ] || continue
	! grep -qx '# tampered' "$s/bench.sh" || fail "a write reached $s/bench.sh"
	grep -qx built "$s/out.txt" || fail "a write reached $s/out.txt"
done

# a sample that fails names the seal only when the failure may be the
# seal's: a refused write ("Permission denied"), or nothing said; not a
# failure that names its own cause
S=$SCRATCH/said
new_repo "$S"
write_bench "$S" 0.01
write_config "$S"
commit_all "$S" base
printf '#!/bin/sh\necho x >"../$(basename "$PWD").x"\n' >"$S/bench.sh"
commit_all "$S" "head writes beside its checkout"
gate_run 3 -C "$S" run --base HEAD~1 --head HEAD --pairs 2
expect_in "$OUT" "it ran sealed: a write outside its checkout"
expect_in "$OUT" "ermission denied"
printf '#!/bin/sh\necho "No module named pytest" >&2\nexit 1\n' >"$S/bench.sh"
commit_all "$S" "head misses a module"
gate_run 3 -C "$S" run --base HEAD~2 --head HEAD --pairs 2
expect_in "$OUT" "No module named pytest"
expect_not_in "$OUT" "it ran sealed"
# a write refused by a program that says nothing of it
printf '#!/bin/sh\n{ echo x >"../$(basename "$PWD").x"; } 2>/dev/null || exit 1\n' \
	>"$S/bench.sh"
commit_all "$S" "head writes beside its checkout, silently"
gate_run 3 -C "$S" run --base HEAD~3 --head HEAD --pairs 2
expect_in "$OUT" "it ran sealed: a write outside its checkout"
exit 0
