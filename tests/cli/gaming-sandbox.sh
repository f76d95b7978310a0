# A hostile pull request cannot reach outside its arm's sandbox (issue 34):
# one fixture whose honest run fails (head sleeps 8 times longer), and
# attempts that each change only a file base's unchanged "build" or "run"
# runs. Each would have passed or hidden the regression with a seal of
# gate's own (the other arm rewritten during the builds, a program left
# in ~/.local/bin, the CI's files, gate's own stdout through /proc,
# leftovers deeper than the reaper's 64 generations, base's file times);
# in a sandbox per arm none reaches its target and every one fails.
. "$(dirname "$0")/lib.sh"
sandbox_starts || skip "bubblewrap cannot start a sandbox here (not installed, or user namespaces refused)"
needs_os "namespaces"
# the sandbox is demanded: a machine where it cannot start is an error,
# never a quiet fallback to the seals this test is about
GATE_SANDBOX=bwrap
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
mkdir -p "$R/data" "$HOME/.local/bin"
PATH="$HOME/.local/bin:$PATH"
export PATH
scale=${GATE_TEST_TIME_SCALE:-1}
awk "BEGIN { print 0.05 * $scale }" >"$R/data/t"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
sleep "$(cat data/t)"
# a helper the machine may have (none here): whoever can put one on PATH
# slows this arm down
if command -v gate-helper >/dev/null 2>&1; then gate-helper; fi
echo done
SH
printf '#!/bin/sh\nmkdir -p out\ncp bench.sh out/bench\n' >"$R/build.sh"
chmod +x "$R/bench.sh" "$R/build.sh"
echo out/ >"$R/.gitignore"
cat >"$R/gate.json" <<'JSON'
{ "version": 1,
  "build": "sh build.sh",
  "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 0, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [ { "name": "sleep", "run": ["./out/bench"] } ] }
JSON
commit_all "$R" base
git -C "$R" branch base

# the CI's files, as GitHub's runner names them: no arm may write them
for f in output summary env; do : >"$SCRATCH/gh-$f"; done
GITHUB_OUTPUT=$SCRATCH/gh-output GITHUB_STEP_SUMMARY=$SCRATCH/gh-summary \
GITHUB_ENV=$SCRATCH/gh-env
export GITHUB_OUTPUT GITHUB_STEP_SUMMARY GITHUB_ENV

n=0
# attempt NAME: a branch from base with the regression; the caller adds
# its trick, then run_attempt commits it and runs gate, which must fail
attempt() {
	git -C "$R" checkout -q -b "$1" base
	awk "BEGIN { print 0.4 * $scale }" >"$R/data/t"
}
run_attempt() {
	git -C "$R" add -A
	git -C "$R" commit -q -m "$1"
	n=$((n + 1))
	"$GATE" -C "$R" run -v --base base --head HEAD \
		--json "$SCRATCH/$n.json" >"$OUT" 2>"$ERR"
	got=$?
	echo "attempt $n ($1): exit $got"
	[ "$got" -eq 1 ] || fail "attempt $n ($1) exited $got, want 1 (fail)"
	expect_in "$OUT" "a sandbox per arm"
}

# 1. head's build rewrites base's checkout while both arms build: base's
#    data then says 0.9 s and head looks 2 times faster
attempt rewrite-other-arm
cat >>"$R/build.sh" <<'SH'
for d in .. ../.. "$GIT_DIR/.." "$GIT_DIR/../.."; do
	for t in "$d"/*/data/t "$d"/gate/*/data/t; do
		[ -f "$t" ] && ! [ "$t" -ef data/t ] && echo 0.9 >"$t" 2>/dev/null
	done
done
true
SH
run_attempt "rewrite base's data from head's build"
for t in "$R"/.git/gate/*/data/t; do
	grep -q 0.9 "$t" && fail "head's build rewrote $t"
done

# 2. head's build leaves a program on PATH (~/.local/bin, first on PATH on
#    GitHub's runners) that only base's samples would run
attempt local-bin
cat >>"$R/build.sh" <<'SH'
mkdir -p "$HOME/.local/bin" 2>/dev/null
printf '#!/bin/sh\nsleep 1\n' >"$HOME/.local/bin/gate-helper" 2>/dev/null
chmod +x "$HOME/.local/bin/gate-helper" 2>/dev/null
true
SH
run_attempt "a program in ~/.local/bin"
[ ! -e "$HOME/.local/bin/gate-helper" ] ||
	fail "head's build left ~/.local/bin/gate-helper on the machine"

# 3. head's build appends to the CI's files (a fake PASS, BASH_ENV for the
#    next steps) and writes workflow commands into gate's own output
#    through /proc
attempt ci-files
cat >>"$R/build.sh" <<'SH'
for f in "$GITHUB_OUTPUT" "$GITHUB_STEP_SUMMARY" "$GITHUB_ENV"; do
	[ -n "$f" ] && echo "verdict=pass forged" >>"$f" 2>/dev/null
done
for p in /proc/[0-9]*; do
	if tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q -- 'run -v --base'; then
		echo "::notice::forged PASS" >"$p/fd/1" 2>/dev/null
		echo "verdict: PASS forged" >"$p/fd/2" 2>/dev/null
	fi
done
true
SH
run_attempt "the CI's files and gate's stdout"
for f in output summary env; do
	[ ! -s "$SCRATCH/gh-$f" ] || fail "an arm wrote \$GITHUB_$f: $(cat "$SCRATCH/gh-$f")"
done
expect_not_in "$OUT" "forged"
expect_not_in "$ERR" "forged"

# 4. leftovers of head's build, 70 generations deep (past the reaper's 64),
#    that would stop base's samples; nothing of an arm outlives its sandbox
attempt leftovers
marker=$$.4242
cat >>"$R/build.sh" <<SH
chain() {
	if [ "\$1" -gt 0 ]; then
		( chain \$((\$1 - 1)) & ) 
	else
		exec sleep 300.$marker
	fi
}
chain 70 >/dev/null 2>&1 </dev/null
true
SH
run_attempt "leftovers 70 generations deep"
sleep 1
if pgrep -f "sleep 300.$marker" >/dev/null; then
	pkill -f "sleep 300.$marker"
	fail "a leftover of head's build outlived gate"
fi

# 5. head's sample sets base's file times back (its Python would compile
#    again) and evicts its data from the page cache
attempt file-times
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
for t in ../*/data/t ../../*/data/t /tmp/*/repo/.git/gate/*/data/t; do
	[ "$t" -ef data/t ] || touch -d 2001-01-01 "$t" 2>/dev/null
done
sleep "$(cat data/t)"
echo done
SH
run_attempt "base's file times from head's sample"
old=$(find "$R/.git/gate" -path '*/data/t' ! -newermt 2002-01-01)
[ -z "$old" ] || fail "head's sample changed the time of $old"

# 6. a declared build cache is each arm's own: head's build poisons it, and
#    base's build finds only what base wrote, run after run
git -C "$R" checkout -q base
sed -i 's|"build": "sh build.sh",|"build": "sh build.sh", "build_caches": ["~/.cache/gt"],|' "$R/gate.json"
printf 'echo "base $(ls ~/.cache/gt | wc -l)" >>~/.cache/gt/log\n' >>"$R/build.sh"
commit_all "$R" "a build cache"
git -C "$R" branch -f base
attempt cache
printf 'echo poison >~/.cache/gt/poison\n' >>"$R/build.sh"
run_attempt "head's build poisons the cache"
git -C "$R" commit -q --allow-empty -m again
run_attempt "again, another head"
[ ! -e "$HOME/.cache/gt" ] || fail "the arms' cache was the user's own"
c=$R/.git/gate/cache-base/0
[ -f "$c/log" ] && [ ! -e "$c/poison" ] || fail "base's cache has head's poison: $(ls "$c")"
[ -f "$R/.git/gate/cache-head/0/poison" ] || fail "head's cache was not kept"
exit 0
