# A head that fails to build is an error (exit 3) naming head and showing
# the end of its build log; base's build is fine.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.01
printf '#!/bin/sh\necho building ok\n' >"$R/build.sh"
cat >"$R/gate.json" <<'JSON'
{ "build": "sh build.sh", "defaults": { "pairs": 2, "warmup": 0 },
  "benchmarks": [ { "name": "b", "run": ["./bench.sh"] } ] }
JSON
commit_all "$R" base
printf '#!/bin/sh\necho "error: missing semicolon in widget.c" >&2\nexit 2\n' >"$R/build.sh"
commit_all "$R" "broken build"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$ERR" "the build of head (HEAD) exited with code 2"
expect_in "$ERR" "missing semicolon in widget.c"
expect_not_in "$ERR" "the build of base"
[ "$(json_get "$SCRATCH/r.json" 'd["verdict"]')" = error ] || fail "JSON verdict should be error"
expect_in "$SCRATCH/r.json" "missing semicolon"
exit 0
