# Shared helpers for the CLI tests: each test builds its own fixture
# repository in a scratch directory, runs the real gate binary, and fails
# (exit 1, with a message) on the first check that does not hold.
set -u
: "${GATE:?run through tests/run-all, or set GATE=/path/to/gate}"
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/gate-test.XXXXXX")
OUT=$SCRATCH/out
ERR=$SCRATCH/err
trap 'rm -rf "$SCRATCH"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$SCRATCH/home"
mkdir -p "$HOME"
git config --global user.name tester
git config --global user.email tester@example.invalid
git config --global init.defaultBranch main
git config --global advice.detachedHead false
# the tests run outside GitHub Actions whatever the machine
unset GITHUB_ACTIONS GITHUB_EVENT_NAME GITHUB_BASE_REF
# python3 is the interpreter run-all found python3 to run, called
# directly: through pyenv's shim each call cost ten times the CPU
if [ -x "${GATE_TEST_PYTHON:-}" ]; then
	python3() { "$GATE_TEST_PYTHON" "$@"; }
fi

fail() {
	echo "FAIL: $*" >&2
	for f in "$OUT" "$ERR"; do
		[ -s "$f" ] && { echo "--- $(basename "$f"):" >&2; tail -n 40 "$f" >&2; }
	done
	exit 1
}

# skip WHY: this test cannot run here; tests/run-all reports it as skipped
# (exit 77), never as passed.
skip() {
	echo "skip: $*"
	exit 77
}

# needs_probe: the test counts per case: it needs valgrind and the probe
# library beside gate (built only where valgrind's headers were)
needs_probe() {
	command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
	[ -f "$(dirname "$GATE")/libgate-probe.so" ] ||
		skip "no libgate-probe.so (valgrind's headers were missing at build)"
}

# needs_os WHAT: the test needs a facility of Linux's OS layer (WHAT says
# which: "perf counters", "allocation counting", "CPU pinning", "/proc and
# /sys"); with GATE_OS_STUB=1 (make check-os-stub: gate built on the
# layer's stub, which has none of them) it is skipped.
needs_os() {
	[ -z "${GATE_OS_STUB:-}" ] ||
		skip "needs Linux's $* (gate is built on the OS layer's stub)"
}

# sandbox_starts: bubblewrap can start a sandbox like an arm's here (it is
# installed and user namespaces are allowed), so gate isolates each arm
# in one unless GATE_SANDBOX says otherwise.
sandbox_starts() {
	bwrap --unshare-user --unshare-pid --unshare-net --ro-bind / / \
		--dev /dev --proc /proc -- true >/dev/null 2>&1
}

# gate_run WANT ARGS...: run gate, keep stdout/stderr, check the exit code.
gate_run() {
	want=$1
	shift
	"$GATE" "$@" >"$OUT" 2>"$ERR"
	got=$?
	[ "$got" -eq "$want" ] || fail "gate $* exited $got, want $want"
}

# gate_measured ARGS...: gate measured and gave a verdict (exit 0, 1 or 2)
# — for tests about something other than the verdict, which on identical
# code under heavy load may honestly be noisy.
gate_measured() {
	"$GATE" "$@" >"$OUT" 2>"$ERR"
	got=$?
	[ "$got" -le 2 ] || fail "gate $* exited $got, want a verdict (0, 1 or 2)"
}

# expect_in FILE TEXT: FILE contains TEXT (fixed string).
expect_in() {
	grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks: $2"
}

expect_not_in() {
	! grep -qF -- "$2" "$1" || fail "$(basename "$1") has: $2"
}

# new_repo DIR: an empty repository with one commit to come.
new_repo() {
	mkdir -p "$1"
	git -C "$1" init -q
}

commit_all() {
	git -C "$1" add -A
	git -C "$1" commit -q -m "$2"
}

# write_bench REPO SECONDS: bench.sh sleeps SECONDS (a structural, not a
# measured, difference: 2x the sleep is 2x the time on any machine).
# GATE_TEST_TIME_SCALE stretches the sleeps where gate's own overhead is
# large (valgrind: `make memcheck` sets 5).
write_bench() {
	secs=$(awk "BEGIN { print $2 * ${GATE_TEST_TIME_SCALE:-1} }")
	printf '#!/bin/sh\nsleep %s\necho done\n' "$secs" >"$1/bench.sh"
	chmod +x "$1/bench.sh"
}

# write_value REPO MS: bench.sh prints its own time, MS ms, as the lines
# protocol's one case "t" (with write_config REPO '"format": "lines"': the
# benchmark "sleep" is reported as "sleep/t"). Its verdict cannot depend
# on how long a pair takes: for tests of what gate does with a verdict.
write_value() {
	printf '#!/bin/sh\necho "t %s ms"\n' "$2" >"$1/bench.sh"
	chmod +x "$1/bench.sh"
}

# write_config REPO [EXTRA_BENCH_KEYS]: one benchmark "sleep" with a wide
# floor so noise can never fail identical code.
write_config() {
	cat >"$1/gate.json" <<JSON
{
  "version": 1,
  "defaults": { "pairs": 6, "max_pairs": 6, "warmup": 1, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [
    { "name": "sleep", "run": ["./bench.sh"]${2:+, $2} }
  ]
}
JSON
}

# fixture REPO BASE_SECONDS HEAD_SECONDS: two commits, main~1 = base.
fixture() {
	new_repo "$1"
	write_bench "$1" "$2"
	write_config "$1"
	commit_all "$1" base
	write_bench "$1" "$3"
	echo "changed" >"$1/NOTES"
	commit_all "$1" head
}

# fixture_value REPO BASE_MS HEAD_MS: fixture's two commits, with a
# benchmark that prints its own time (write_value), so its verdict is the
# same on any machine: fail for 2x the floor or more, pass for equal times.
fixture_value() {
	new_repo "$1"
	write_value "$1" "$2"
	write_config "$1" '"format": "lines"'
	commit_all "$1" base
	write_value "$1" "$3"
	echo "changed" >"$1/NOTES"
	commit_all "$1" head
}

# json_get FILE EXPR: a value from a JSON report (python3 is in Debian's
# base images; used only to read reports in tests).
json_get() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# no_process PATTERN: no process whose command line matches is left.
# Patterns are unique to their test (CLI tests run two at a time), and a
# leftover is killed by the pids listed, never by pattern.
no_process() {
	# a killed process may take a moment to go on a loaded machine: up to
	# 3 s (the processes these tests leak would live 6 s or more)
	i=0
	while pgrep -f -- "$1" >/dev/null && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	left=$(pgrep -f -- "$1")
	if [ -n "$left" ]; then
		pgrep -af -- "$1" >&2
		# shellcheck disable=SC2086 # one pid a word
		kill -9 $left 2>/dev/null
		fail "a process matching '$1' outlived gate"
	fi
}

# user_state REPO: everything of the user's that gate must never change —
# the working tree's files (content and mtime), the index (bytes and
# mtime), HEAD, every ref, the stash, the config — one line each.
# GIT_OPTIONAL_LOCKS=0: git status must not refresh the index itself.
user_state() {
	( cd "$1" && export GIT_OPTIONAL_LOCKS=0 &&
	  git status --porcelain --untracked-files=all --ignored &&
	  git rev-parse HEAD && git symbolic-ref -q HEAD;
	  git stash list && git for-each-ref &&
	  sha256sum .git/index .git/config .git/HEAD &&
	  stat -c '%Y %n' .git/index &&
	  find . -path ./.git -prune -o -type f -print | sort |
		xargs -r sha256sum &&
	  find . -path ./.git -prune -o -print | sort |
		xargs -r stat -c '%Y %a %s %n' )
}

# wait_for CMD...: poll (up to 60 s, for valgrind) until CMD succeeds.
wait_for() {
	i=0
	while ! "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 600 ] || return 1
		sleep 0.1
	done
}

# shards_match_whole DIR: the merged report DIR/m.json has the benchmarks
# and verdicts of the unsharded DIR/all.json, and shards DIR/s1..s3.json
# dealt every benchmark of it exactly once
shards_match_whole() {
	python3 - "$1" <<'PY' || fail "the merged shards differ from the unsharded run"
import json, sys
d = sys.argv[1]
a = json.load(open(d + "/all.json"))
m = json.load(open(d + "/m.json"))
shards = [json.load(open("%s/s%d.json" % (d, i))) for i in range(1, 4)]
names = lambda r: sorted(b["name"] for b in r["benchmarks"])
assert names(m) == names(a), (names(m), names(a))
assert sorted(n for s in shards for n in names(s)) == names(a)
va = {b["name"]: b["verdict"] for b in a["benchmarks"]}
vm = {b["name"]: b["verdict"] for b in m["benchmarks"]}
assert va == vm, (va, vm)
PY
}
