# Builds are kept per tree (issue 13 item 5): a second run of the same
# base and head builds nothing, whatever the seed (asserted from the
# build log the build command appends to, not from timings); a new head
# builds once; "cache_builds" bounds the checkouts kept (least recently
# used evicted); a build's tracked file changed since is rebuilt; builds
# run both at once, or one after the other with "serial_build" (item 6).
. "$(dirname "$0")/lib.sh"
# the fallback's seals (Landlock, manifests): this test's builds write to
# files outside their arm (or read a repository there), which a sandbox
# per arm hides; gaming-sandbox.sh tests the sandbox
[ -n "${GATE_SANDBOX:-}" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
R=$SCRATCH/repo
L=$SCRATCH/builds.log
fixture "$R" 0.01 0.01
config() {
	serial=
	[ -n "${3:-}" ] && serial="\"serial_build\": $3,"
	cat >"$SCRATCH/c.json" <<JSON
{ "build": "echo start >>'$L'; sleep ${2:-0}; echo end >>'$L'",
  "cache_builds": ${1:-4}, $serial
  "defaults": { "pairs": 2, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
}
builds() { grep -c start "$L" 2>/dev/null || echo 0; }
config
gate_measured -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/c.json" --seed 1
[ "$(builds)" = 2 ] || fail "the first run built $(builds) times, want 2"
for seed in 2 3 4 5; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD \
		--config "$SCRATCH/c.json" --seed $seed
	[ "$(builds)" = 2 ] || fail "run with seed $seed rebuilt"
	expect_in "$ERR" "not building it again"
done
# a new head: one build (base kept)
echo more >>"$R/NOTES"
commit_all "$R" "head 2"
gate_measured -C "$R" run --base HEAD~2 --head HEAD --config "$SCRATCH/c.json"
[ "$(builds)" = 3 ] || fail "a new head built $(($(builds) - 2)) times, want 1"
# a tracked file changed in a kept checkout: rebuilt
for d in "$R"/.git/gate/[a-d]; do echo "# tampered" >>"$d/bench.sh"; done
gate_measured -C "$R" run --base HEAD~2 --head HEAD --config "$SCRATCH/c.json"
[ "$(builds)" = 5 ] || fail "changed checkouts were not rebuilt ($(builds))"
expect_in "$ERR" "building it again"
# at most cache_builds checkouts
config 2
gate_measured -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/c.json"
[ ! -e "$R/.git/gate/c" ] && [ ! -e "$R/.git/gate/d" ] ||
	fail "cache_builds 2 kept more than a and b"
# serial: one build ends before the other starts; parallel: both at once
: >"$L"
config 2 1 true
echo serial >>"$R/NOTES"
commit_all "$R" "head 3"
git -C "$R" commit -q --allow-empty -m "base 3"
gate_measured -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/c.json"
[ "$(tr '\n' ' ' <"$L")" = "start end start end " ] ||
	fail "serial_build interleaved: $(tr '\n' ' ' <"$L")"
: >"$L"
config 2 2
echo parallel >>"$R/NOTES"
commit_all "$R" "head 4"
git -C "$R" commit -q --allow-empty -m "base 4"
gate_measured -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/c.json"
[ "$(tr '\n' ' ' <"$L")" = "start start end end " ] ||
	fail "the builds did not run at once: $(tr '\n' ' ' <"$L")"
exit 0
