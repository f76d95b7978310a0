# git inside an arm never reaches the user's repository (issue 22, section
# 3), even with the arm's .git file deleted: a build, a check and a
# benchmark each delete .git, then run `git config x.y z`, `git tag evil`
# and `git update-ref` (and again with GIT_DIR and GIT_WORK_TREE unset: the
# search stops at GIT_CEILING_DIRECTORIES). The user's config, refs,
# packed-refs and HEAD are byte-identical after. Today's gate lets git find
# the user's .git above the arm. A later step still finds the arm's .git
# file (restored before each build, check and sample).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/evil.sh" <<'SH'
#!/bin/sh
# $1: what runs this (build, check, bench)
[ -f .git ] || { echo "no .git file before the $1" >&2; exit 1; }
rm -f .git
git config x.y "$1" 2>/dev/null
git tag "evil-$1" 2>/dev/null
git update-ref "refs/heads/evil-$1" HEAD 2>/dev/null
(unset GIT_DIR GIT_WORK_TREE
 git config x.w "$1" 2>/dev/null
 git tag "evil2-$1" 2>/dev/null
 git update-ref "refs/heads/evil2-$1" HEAD 2>/dev/null)
exit 0
SH
chmod +x "$R/evil.sh"
printf '#!/bin/sh\n./evil.sh bench && sleep 0.01 && echo done\n' >"$R/bench.sh"
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<'JSON'
{ "version": 1, "build": "./evil.sh build",
  "defaults": { "pairs": 2, "max_pairs": 2, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"],
                    "check": "./evil.sh check" } ] }
JSON
commit_all "$R" "git reaches for the user's repository"
echo changed >"$R/NOTES"
commit_all "$R" head
git -C "$R" pack-refs --all
state() {
	( cd "$R/.git" && cat config HEAD packed-refs 2>/dev/null;
	  find refs -type f | sort | xargs -r cat )
}
state >"$SCRATCH/before"
gate_measured -C "$R" run --base HEAD~1 --head HEAD
state >"$SCRATCH/after"
cmp -s "$SCRATCH/before" "$SCRATCH/after" || {
	diff "$SCRATCH/before" "$SCRATCH/after" >&2
	fail "git in an arm changed the user's repository"
}
expect_not_in "$ERR" "no .git file before"
[ -z "$(git -C "$R" tag -l 'evil*')" ] || fail "a tag reached the user's repository"
exit 0
