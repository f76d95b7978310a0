# Issue 26 item 6: action.yml's own shell steps, run as the runner runs
# them (bash -eo pipefail, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ENV
# faked files), for a pass, a fail, an error, an error under advisory, a
# fail under advisory and a merge refusal: every path leaves the outputs
# and a job summary, advisory never fails the step, and the cache keys
# are gate's source, per shard, with no restore-key for gate's build.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
# the shell of a step by its name, as the runner would write it to a file
step() {
	python3 - "$root/action.yml" "$1" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for s in doc["runs"]["steps"]:
    if s.get("name") == sys.argv[2]:
        sys.stdout.write(s["run"])
        break
else:
    sys.exit("no step " + sys.argv[2])
PY
}
step "Run gate" >"$SCRATCH/run.sh" || fail "action.yml has no step \"Run gate\""
step "Find gate's workspace" >"$SCRATCH/ws.sh" || fail "no step \"Find gate's workspace\""
grep -q '\${{' "$SCRATCH/run.sh" && fail "the run step expands an expression in its shell (inputs must come through env)"
# the action's directory with the gate under test in build/
A=$SCRATCH/action
mkdir -p "$A/build"
ln -s "$GATE" "$A/build/gate"

# run_step REPO WANT_STEP_EXIT [VAR=VALUE...]: the run step in REPO
run_step() {
	repo=$1 want=$2
	shift 2
	rm -rf "$SCRATCH/runner"
	mkdir -p "$SCRATCH/runner/temp"
	: >"$SCRATCH/runner/output"
	: >"$SCRATCH/runner/summary"
	: >"$SCRATCH/runner/env"
	(cd "$repo" && env GITHUB_ACTIONS=true GITHUB_ACTION_PATH="$A" \
		RUNNER_TEMP="$SCRATCH/runner/temp" \
		GITHUB_OUTPUT="$SCRATCH/runner/output" \
		GITHUB_STEP_SUMMARY="$SCRATCH/runner/summary" \
		GITHUB_ENV="$SCRATCH/runner/env" \
		GATE_CONFIG= GATE_BASE=HEAD~1 GATE_HEAD= GATE_ADVISORY=false \
		GATE_NOISY=failure GATE_ARGS=-q GATE_SHARD= GATE_MERGE= "$@" \
		bash --noprofile --norc -eo pipefail "$SCRATCH/run.sh" >"$OUT" 2>"$ERR")
	got=$?
	[ "$got" -eq "$want" ] || fail "the run step ($*) exited $got, want $want"
}
# output NAME: the value of a step output (name=value or heredoc)
output() {
	python3 - "$SCRATCH/runner/output" "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith(sys.argv[2] + "="):
        print(l.split("=", 1)[1]); break
    if l.startswith(sys.argv[2] + "<<"):
        d = l.split("<<", 1)[1]; j = lines.index(d, i + 1)
        print("\n".join(lines[i + 1:j])); break
    i += 1
PY
}
check_outputs() {
	[ "$(output verdict)" = "$1" ] || fail "verdict output is \"$(output verdict)\", want $1"
	[ "$(output exit-code)" = "$2" ] || fail "exit-code output is \"$(output exit-code)\", want $2"
	[ -n "$(output report)" ] || fail "no report output"
	[ -s "$SCRATCH/runner/summary" ] || fail "no job summary"
	[ -n "$(output report-dir)" ] || fail "no report-dir output"
}

# the benchmarks print their own times (fixture_value): a pass and a fail
# on any machine (sleeps of 0.01 s against 0.2 s came out noisy under a
# load of 30, where spawning a process costs more than the sleep)
P=$SCRATCH/pass
fixture_value "$P" 10 10
run_step "$P" 0
check_outputs pass 0

F=$SCRATCH/fail
fixture_value "$F" 10 50
run_step "$F" 1
check_outputs fail 1
expect_in "$OUT" "::error"
# advisory: the same fail passes the step (gate --advisory exits 0 and
# says so), with the verdict output still "fail"
run_step "$F" 0 GATE_ADVISORY=true
[ "$(output verdict)" = fail ] || fail "advisory changed the verdict output"
# issue 37: exit-code is the verdict's code under advisory too, as the
# action's description says (it was 0 for a fail but 3 for an error)
[ "$(output exit-code)" = 1 ] || fail "exit-code under advisory is \"$(output exit-code)\", want 1"
expect_in "$OUT" "advisory: exit 0 instead of 1"

# an error before a report (a base that does not exist): outputs, summary,
# an annotation; under advisory the step still passes
run_step "$P" 3 GATE_BASE=no-such-revision
check_outputs error 3
expect_in "$OUT" "::error title=gate%3A could not measure::"
expect_in "$SCRATCH/runner/summary" "no-such-revision"
run_step "$P" 0 GATE_BASE=no-such-revision GATE_ADVISORY=true
check_outputs error 3
expect_in "$OUT" "::warning title=gate: advisory::gate exited 3"

# issue 37: an install or a build that failed (their steps go on, with
# continue-on-error) is reported by the run step like any error: outputs,
# summary, annotation; advisory keeps the step green
mv "$A/build/gate" "$A/build/gate.kept"
run_step "$P" 3 GATE_DEPS=failure GATE_BUILD=skipped
check_outputs error 3
expect_in "$SCRATCH/runner/summary" "build dependencies could not be installed"
expect_in "$OUT" "::error title=gate: error (exit 3)::"
run_step "$P" 0 GATE_DEPS=failure GATE_BUILD=skipped GATE_ADVISORY=true
check_outputs error 3
run_step "$P" 3 GATE_DEPS=success GATE_BUILD=failure
check_outputs error 3
expect_in "$SCRATCH/runner/summary" "gate could not be built"
run_step "$P" 0 GATE_DEPS=success GATE_BUILD=failure GATE_ADVISORY=true
check_outputs error 3
mv "$A/build/gate.kept" "$A/build/gate"
# an exact cache hit whose install failed still runs gate (advisory: the
# verdict of identical code on a loaded machine may be noisy)
run_step "$P" 0 GATE_DEPS=failure GATE_BUILD=skipped GATE_ADVISORY=true
[ "$(output verdict)" != error ] || fail "gate did not run after a failed install with gate built"
# the install and build steps go on to the run step, which reads them;
# the build makes the allocation library too and is skipped on an exact
# hit, saved only whole and once; the key has the runner's image; the
# kept builds are not saved again on a re-run (the "Cache save failed"
# warning)
python3 - "$root/action.yml" <<'PY' || fail "the install, build and cache steps are not as promised"
import sys, yaml
steps = {s.get("name"): s for s in yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]}
deps = steps["Install gate's build dependencies"]
build = steps["Build gate"]
assert deps["continue-on-error"] is True and build["continue-on-error"] is True
import re
assert re.search(r"^\s*make -C \S+ -j2 all$", build["run"], re.M), build["run"]
assert "steps.gatecache.outputs.cache-hit != 'true'" in build["if"], build
run = steps["Run gate"]["env"]
assert run["GATE_DEPS"] == "${{ steps.deps.outcome }}", run
assert run["GATE_BUILD"] == "${{ steps.build.outcome }}", run
save = steps["Save the gate build"]
assert "steps.build.outcome == 'success'" in save["if"], save
# of parallel shard jobs, one saves the build (the others would warn)
assert "startsWith(inputs.shard, '1/')" in save["if"], save
for n in ("Restore the gate build", "Save the gate build"):
    assert "steps.src.outputs.image" in steps[n]["with"]["key"], n
assert "keptcache.outputs.cache-hit != 'true'" in steps["Save gate's kept builds"]["if"]
PY
step "Identify gate's source" >"$SCRATCH/src.sh"
mkdir -p "$SCRATCH/src"
(cd "$SCRATCH/src" && GITHUB_ACTION_PATH="$root" GITHUB_OUTPUT="$SCRATCH/src.out" \
	ImageOS=ubuntu24 ImageVersion=20250105.1.0 \
	bash --noprofile --norc -eo pipefail "$SCRATCH/src.sh") >"$OUT" 2>"$ERR" ||
	fail "the source step failed"
expect_in "$SCRATCH/src.out" "image=ubuntu24-20250105.1.0"

# a merge with no shard reports: a refusal, reported like any error
run_step "$P" 3 GATE_MERGE="shards/*/report.json"
check_outputs error 3
expect_in "$OUT" "::error title=gate: error (exit 3)::"

# outside a repository: said, with outputs, not a "fatal:" and a success
mkdir -p "$SCRATCH/norepo"
run_step "$SCRATCH/norepo" 3
check_outputs error 3
expect_in "$SCRATCH/runner/summary" "not a git repository"

# a working-directory that does not exist: the run step cds itself and
# reports it like any error (a step's working-directory would end the
# job before it, red under advisory, with no outputs); the workspace
# step finds no directory and goes on
run_step "$P" 0 GATE_WORKDIR=no-such-dir GATE_ADVISORY=true
check_outputs error 3
expect_in "$SCRATCH/runner/summary" 'working-directory "no-such-dir" is not a directory'
(cd "$P" && GITHUB_OUTPUT="$SCRATCH/ws-missing.out" GATE_WORKDIR=no-such-dir \
	GATE_SHARD= GATE_MERGE= bash --noprofile --norc -eo pipefail "$SCRATCH/ws.sh") \
	>"$OUT" 2>"$ERR" || fail "the workspace step failed on a missing working-directory"
expect_not_in "$SCRATCH/ws-missing.out" "dir="
# a working-directory below the workspace: gate runs there
mkdir -p "$SCRATCH/ws-root"
mv "$P" "$SCRATCH/ws-root/sub"
P=$SCRATCH/ws-root/sub
run_step "$SCRATCH/ws-root" 0 GATE_WORKDIR=sub GATE_KEPT_DIR="$P/.git/gate"
check_outputs pass 0
# the kept builds are saved when gate made them, not after a failed
# install (no directory: a "Path Validation Error" warning)
[ "$(output kept)" = true ] || fail "no kept=true output after a run that kept its builds"
mv "$A/build/gate" "$A/build/gate.kept"
run_step "$P" 3 GATE_DEPS=failure GATE_BUILD=skipped GATE_KEPT_DIR="$SCRATCH/no-kept-builds"
mv "$A/build/gate.kept" "$A/build/gate"
[ -z "$(output kept)" ] || fail "kept=true with no kept builds"
python3 - "$root/action.yml" <<'PY' || fail "the steps use working-directory, or the kept builds are saved without kept"
import sys, yaml
steps = {s.get("name"): s for s in yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]}
for n in ("Find gate's workspace", "Run gate"):
    assert "working-directory" not in steps[n], n
    assert steps[n]["env"]["GATE_WORKDIR"] == "${{ inputs.working-directory }}", n
assert "steps.run.outputs.kept == 'true'" in steps["Save gate's kept builds"]["if"]
PY

# the workspace step outside a repository and in a merge job: no
# directory (its cache steps skip), no failure; per-shard cache tag
(cd "$SCRATCH/norepo" && GITHUB_OUTPUT="$SCRATCH/ws.out" GATE_SHARD=2/4 GATE_MERGE= \
	bash --noprofile --norc -eo pipefail "$SCRATCH/ws.sh") >"$OUT" 2>"$ERR" ||
	fail "the workspace step failed outside a repository"
expect_not_in "$SCRATCH/ws.out" "dir="
expect_in "$SCRATCH/ws.out" "tag=shard-2-4"
# the caches: gate's build keyed by its source, no restore-keys; kept
# builds per shard
python3 - "$root/action.yml" <<'PY' || fail "the cache keys are not as promised"
import sys, yaml
steps = {s.get("name"): s for s in yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]}
b = steps["Restore the gate build"]["with"]
assert "steps.src.outputs.hash" in b["key"], b
assert "restore-keys" not in b, b
for n in ("Restore gate's kept builds", "Save gate's kept builds"):
    assert "steps.ws.outputs.tag" in steps[n]["with"]["key"], n
PY
exit 0
