# Every workflow and the action's YAML pass a real validator
# (@action-validator/cli, installed by ci/install-deps into tools/), and the
# validator does fail: a workflow with a misspelt key is rejected.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
v=$root/tools/node_modules/.bin/action-validator
[ -x "$v" ] || fail "no workflow validator at $v: run ci/install-deps"
n=0
for f in "$root/action.yml" "$root"/.github/workflows/*.yml \
	 "$root"/examples/workflows/*.yml; do
	"$v" "$f" >"$OUT" 2>"$ERR" || fail "$f does not validate"
	n=$((n + 1))
done
[ "$n" -ge 7 ] || fail "only $n workflow files found"
# the example a new project copies has the pieces the README promises
expect_in "$root/examples/workflows/pr-check.yml" "fetch-depth: 0"
expect_in "$root/examples/workflows/required-status.yml" "noisy:"
expect_in "$root/examples/workflows/advisory.yml" "advisory: true"
expect_in "$root/examples/workflows/nightly.yml" "gate record nightly.json"
expect_in "$root/examples/workflows/nightly.yml" "git push origin refs/notes/gate"
expect_in "$root/examples/workflows/sharded.yml" "shard: \${{ matrix.shard }}/4"
expect_in "$root/examples/workflows/sharded.yml" "merge: shards/*/report.json"
expect_in "$root/examples/workflows/sharded.yml" "pattern: gate-shard-*"
# the artifact names the shard jobs upload are the ones the merge downloads
expect_in "$root/action.yml" 'artifact="gate-shard-'
# a broken workflow must fail, or the checks above prove nothing
if "$v" "$root/tests/cli/data/bad-workflow.yml" >"$OUT" 2>"$ERR"; then
	fail "the validator accepted a workflow with \"runs-onn\""
fi
expect_in "$ERR" "runs-onn"
exit 0
