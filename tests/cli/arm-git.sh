# Git inside an arm sees that arm (issue 14 item 3): `git rev-parse HEAD`
# in a build prints the arm's commit, `git describe` sees the tags, a
# submodule can be initialised, and a benchmark that runs update-ref, sets
# a config alias and writes a hook leaves the user's repository
# byte-identical (refs, config, hooks, HEAD, index, working tree).
. "$(dirname "$0")/lib.sh"
# the fallback's seals (Landlock, manifests): this test's builds write to
# files outside their arm (or read a repository there), which a sandbox
# per arm hides; gaming-sandbox.sh tests the sandbox
[ -n "${GATE_SANDBOX:-}" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
git config --global protocol.file.allow always
R=$SCRATCH/repo
S=$SCRATCH/sub
new_repo "$S"
echo sub >"$S/file"
commit_all "$S" sub
fixture "$R" 0.01 0.01
git -C "$R" tag v1.0 HEAD~1
git -C "$R" -c protocol.file.allow=always submodule add -q "$S" sub >/dev/null 2>&1 ||
	fail "cannot add the submodule"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
git update-ref refs/heads/evil HEAD 2>/dev/null
git config alias.evil '!echo pwned' 2>/dev/null
hooks=$(git rev-parse --git-path hooks 2>/dev/null) &&
	mkdir -p "$hooks" && printf '#!/bin/sh\necho pwned\n' >"$hooks/post-checkout"
echo done
SH
commit_all "$R" "a benchmark that reaches for git"
cat >"$SCRATCH/git.json" <<'JSON'
{ "build": "git rev-parse HEAD >version.txt && git describe --tags --always >describe.txt && git submodule update --init -q >sub.log 2>&1; echo $? >sub.rc",
  "defaults": { "pairs": 2, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
hooks() { (cd "$R/.git" && find hooks -type f | sort | xargs -r sha256sum); }
before=$(user_state "$R")
hooks_before=$(hooks)
gate_measured -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/git.json"
[ "$before" = "$(user_state "$R")" ] || fail "the user's repository changed"
[ "$hooks_before" = "$(hooks)" ] || fail "the user's hooks changed"
git -C "$R" config alias.evil >/dev/null && fail "the alias reached the user's config"
git -C "$R" rev-parse -q --verify refs/heads/evil >/dev/null &&
	fail "update-ref reached the user's refs"
want=$(printf '%s\n%s\n' "$(git -C "$R" rev-parse HEAD~1)" \
	"$(git -C "$R" rev-parse HEAD)" | sort)
got=$(cat "$R/.git/gate/a/version.txt" "$R/.git/gate/b/version.txt" | sort)
[ "$want" = "$got" ] || fail "git rev-parse HEAD in the arms gave $got, want $want"
grep -q '^v1.0' "$R/.git/gate/a/describe.txt" "$R/.git/gate/b/describe.txt" ||
	fail "git describe in the arms does not see the tags"
for arm in a b; do
	[ "$(cat "$R/.git/gate/$arm/sub.rc")" = 0 ] || {
		cat "$R/.git/gate/$arm/sub.log" >&2
		fail "git submodule update --init failed in $arm"
	}
done
[ -f "$R/.git/gate/a/sub/file" ] || [ -f "$R/.git/gate/b/sub/file" ] ||
	fail "the submodule was not initialised in head's arm"
exit 0
