# "build" and "run" commands that cannot run, or would not run the arm's
# own code: not there or not executable (exit 3, naming the command), or a
# path resolving outside the checkout (exit 3: base and head would run the
# same file; a shell string reaching out is warned about).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
printf '#!/bin/sh\necho built\n' >"$R/noexec.sh"	# no +x
commit_all "$R" "not executable"
C=$SCRATCH/c.json
config() {	# config BUILD RUN: a gate.json outside the repository
	printf '{ %s "defaults": { "pairs": 6, "warmup": 0, "min_effect": 5 },\n' "$1" >"$C"
	printf '  "benchmarks": [ { "name": "b", "run": %s } ] }\n' "$2" >>"$C"
}
run() { gate_run "$1" -C "$R" run --base HEAD --config "$C"; }

config '' '["./no-such-bench"]'
run 3
expect_in "$OUT" 'sample (pair 1) could not be started: No such file or directory'
config '' '["./noexec.sh"]'
run 3
expect_in "$OUT" "could not be started: Permission denied"
config '' '"./no-such-bench"'
run 3
expect_in "$OUT" "exited with code 127"
expect_in "$OUT" "not found"
config '"build": ["./no-such-build"],' '["./bench.sh"]'
run 3
expect_in "$ERR" "the build could not be started in base: No such file or directory"
config '"build": ["./noexec.sh"],' '["./bench.sh"]'
run 3
expect_in "$ERR" "Permission denied"
config '"build": "./no-such-build",' '["./bench.sh"]'
run 3
expect_in "$ERR" "the build of base (HEAD) exited with code 127"

# outside the checkout: ../ and the user's own working tree
config '' '["../../../bench.sh"]'
run 3
expect_in "$ERR" 'runs "../../../bench.sh", which resolves to'
expect_in "$ERR" "outside the checkout"
config '' "[\"$R/bench.sh\"]"
run 3
expect_in "$ERR" "base and head would run the same file"
config '"build": ["../../../bench.sh"],' '["./bench.sh"]'
run 3
expect_in "$ERR" '"build" runs "../../../bench.sh"'
# a symlink in the tree pointing out of it is resolved the same way
ln -s "$R/bench.sh" "$R/link.sh"
commit_all "$R" "link out"
config '' '["./link.sh"]'
run 3
expect_in "$ERR" "outside the checkout"
# absolute tools outside the repository are fine; shell strings are the
# config author's, warned about when they reach out
config '' '["/bin/sh", "bench.sh"]'
run 0
config '' '"../../../bench.sh"'
if sandbox_starts && [ -z "${GATE_SANDBOX:-}" ]; then
	# in a sandbox per arm the user's tree is not there at all
	run 3
	expect_in "$OUT" "not found"
fi
saved=${GATE_SANDBOX-}
[ -n "$saved" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
run 0
expect_in "$ERR" "may reach outside the checkout"
[ "$(grep -c "may reach outside" "$ERR")" -eq 1 ] || fail "warn once, not per arm"
[ -n "$saved" ] || unset GATE_SANDBOX
# "cd bld && ../configure" stays inside the checkout: no warning; one ".."
# more than the cd went down does reach out
config '"build": "mkdir -p bld && cd bld && ../bench.sh --prefix=../inst",' \
	'"cd bld && ../bench.sh"'
run 0
expect_not_in "$ERR" "may reach outside"
config '' '"cd bld/.. && ../bench.sh || ./bench.sh"'
run 0
expect_in "$ERR" "may reach outside the checkout"
# a benchmark sees only the descriptors gate itself inherited: none of
# gate's own (lock, pipes, build logs, libgit2's packs) leak to it
fds=$(sh -c 'ls /proc/self/fd | tr "\n" " "')
fds=${fds% }
config '' '"ls /proc/self/fd | tr \"\\n\" \" \" >&2; exit 1"'
run 3
expect_in "$OUT" "stderr: $fds"
exit 0
