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
# issue 26 item 6: every example bounds its time and its concurrent runs,
# pins a release tag, and the gating jobs need no write token (the
# comment is comment.yml's, on workflow_run, one per pull request)
for f in "$root"/examples/workflows/*.yml; do
	expect_in "$f" "concurrency:"
	expect_in "$f" "timeout-minutes:"
	expect_not_in "$f" "gate@main"
done
for f in pr-check required-status advisory sharded; do
	expect_not_in "$root/examples/workflows/$f.yml" ": write"
	expect_not_in "$root/examples/workflows/$f.yml" "gh pr comment"
done
expect_in "$root/examples/workflows/comment.yml" "workflow_run:"
expect_in "$root/examples/workflows/comment.yml" "<!-- gate-report -->"
expect_in "$root/examples/workflows/comment.yml" "--method PATCH"
# issue 37: the pull request comes from GitHub's data, never an artifact
expect_not_in "$root/examples/workflows/required-status.yml" "gate-pr"
expect_not_in "$root/examples/workflows/comment.yml" "name: gate-pr"
expect_in "$root/examples/workflows/comment.yml" "head_repository.full_name"
# every gating example triggers comment.yml: its name is in the list
python3 - "$root/examples/workflows" <<'PY' || fail "comment.yml does not follow every gating example"
import os, sys, yaml
d = sys.argv[1]
follows = yaml.safe_load(open(os.path.join(d, "comment.yml")))[True]["workflow_run"]["workflows"]
for f in ("pr-check.yml", "required-status.yml", "advisory.yml", "sharded.yml"):
    w = yaml.safe_load(open(os.path.join(d, f)))
    assert w["name"] in follows, (f, w["name"], follows)
    assert "pull_request" in w[True], f
PY
# the sharded merge job checks out before gate runs in it
python3 - "$root/examples/workflows/sharded.yml" <<'PY' || fail "sharded.yml's merge job does not check out first"
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["merge"]["steps"]
assert steps[0]["uses"].startswith("actions/checkout@"), steps[0]
PY
# the README pins the release tag the CHANGELOG lists
tag=$(sed -n 's/^## \[\(v[0-9.]*\)\].*/\1/p' "$root/CHANGELOG.md" | head -n 1)
[ -n "$tag" ] || fail "CHANGELOG.md names no release"
expect_in "$root/README.md" "gate@$tag"
# a broken workflow must fail, or the checks above prove nothing
if "$v" "$root/tests/cli/data/bad-workflow.yml" >"$OUT" 2>"$ERR"; then
	fail "the validator accepted a workflow with \"runs-onn\""
fi
expect_in "$ERR" "runs-onn"
exit 0
