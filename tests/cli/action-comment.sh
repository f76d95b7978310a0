# Issue 37: examples/workflows/comment.yml's shell steps, run as the runner
# runs them (bash -eo pipefail, each step's env with its ${{ }} expressions
# taken from a faked workflow_run event, gh faked over files), against a
# forged artifact: a fork's gating run uploaded a report naming another
# pull request, with @mentions, links and HTML in its names. The comment
# goes to the pull request GitHub's data names (head SHA and repository),
# nothing of the artifact is live Markdown, it says where its numbers come
# from, and a run that matches no pull request comments nowhere.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
wf=$root/examples/workflows/comment.yml
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
command -v jq >/dev/null || skip "jq is not installed"

# the faked GitHub: open pull requests of the base repository o/r
G=$SCRATCH/github
mkdir -p "$G/bin" "$G/posted"
cat >"$G/pulls.json" <<'EOF'
[
 {"number": 7, "head": {"sha": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "repo": {"full_name": "fork/r"}}},
 {"number": 9, "head": {"sha": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "repo": {"full_name": "other/r"}}},
 {"number": 8, "head": {"sha": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "repo": {"full_name": "o/r"}}}
]
EOF
echo '[]' >"$G/comments.json"
# gh api: the pull requests (any head filter: the workflow must match the
# SHA and repository itself), the comments, and a POST or PATCH recorded
cat >"$G/bin/gh" <<'EOF'
#!/bin/sh
G=${FAKE_GITHUB:?}
echo "gh $*" >>"$G/calls"
[ "$1" = api ] || exit 1
shift
method=GET path= jq= body=
while [ $# -gt 0 ]; do
	case $1 in
	-X|--method) method=$2; shift ;;
	--jq) jq=$2; shift ;;
	-F) case $2 in body=@*) body=${2#body=@} ;; esac; shift ;;
	-f) shift ;;
	--paginate) ;;
	*) path=$1 ;;
	esac
	shift
done
case "$method $path" in
"GET repos/o/r/pulls") out=$G/pulls.json ;;
"GET repos/o/r/issues/"*/comments) out=$G/comments.json ;;
"POST repos/o/r/issues/"*/comments)
	n=${path#repos/o/r/issues/}; n=${n%/comments}
	cp "$body" "$G/posted/$n.md"; echo '{}'; exit 0 ;;
"PATCH repos/o/r/issues/comments/"*)
	cp "$body" "$G/posted/patched-${path##*/}.md"; echo '{}'; exit 0 ;;
*) echo "gh: unexpected $method $path" >&2; exit 1 ;;
esac
if [ -n "$jq" ]; then jq -r "$jq" "$out"; else cat "$out"; fi
EOF
chmod +x "$G/bin/gh"

# run_steps EVENT.json DIR: every step of the job with a run, in order,
# in DIR, each step's env evaluated from the event (the ${{ }} forms the
# workflow uses), skipped when its "if" is false; actions/download-artifact
# is the forged artifact copied to its path
run_steps() {
	python3 - "$wf" "$1" "$2" "$G" "$root" <<'PY'
import json, os, re, subprocess, sys, yaml, shutil
wf, event, work, g, root = sys.argv[1:]
doc = yaml.safe_load(open(wf))
ctx = {"github": {"token": "tok", "repository": "o/r",
                  "event": json.load(open(event))}, "steps": {}}
def value(expr):
    expr = expr.strip()
    m = re.fullmatch(r"steps\.(\w+)\.outputs\.([\w-]+)", expr)
    if m:
        return ctx["steps"].get(m.group(1), {}).get(m.group(2), "")
    v = ctx
    for part in expr.split("."):
        if not isinstance(v, dict) or part not in v:
            raise SystemExit("unknown expression " + expr)
        v = v[part]
    return "" if v is None else str(v)
def expand(s):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: value(m.group(1)), str(s))
def cond(s):
    m = re.fullmatch(r"\s*(.+?)\s*!=\s*''\s*", s)
    return value(m.group(1)) != "" if m else bool(expand(s))
job = doc["jobs"]["comment"]
assert "workflow_run.event == 'pull_request'" in job["if"]
for st in job["steps"]:
    if "if" in st and not cond(st["if"]):
        continue
    if "uses" in st:
        assert st["uses"].startswith("actions/download-artifact@"), st
        src = os.path.join(g, "artifact")
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(work, st["with"]["path"]))
        continue
    run = st["run"]
    if "${{" in run:
        raise SystemExit("step %r expands an expression in its shell" % st.get("name"))
    out = os.path.join(work, "output-%s" % st.get("id", "x"))
    open(out, "w").close()
    env = dict(os.environ, GITHUB_OUTPUT=out,
               PATH=os.path.join(g, "bin") + ":" + os.environ["PATH"])
    env.update({k: expand(v) for k, v in st.get("env", {}).items()})
    script = os.path.join(work, "step.sh")
    open(script, "w").write(run)
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail",
                        script], cwd=work, env=env)
    if r.returncode:
        raise SystemExit("step %r exited %d" % (st.get("name"), r.returncode))
    if "id" in st:
        ctx["steps"][st["id"]] = dict(l.split("=", 1) for l in
                                      open(out).read().splitlines() if "=" in l)
PY
}

# the forged artifact: a "pass" report whose names carry a mention, a
# link, an image and raw HTML, and a gate-pr number naming pull request 8
mkdir -p "$G/artifact" "$G/gate-pr"
echo 8 >"$G/gate-pr/number"
cp "$G/gate-pr/number" "$G/artifact/number"
cat >"$G/artifact/report.json" <<'EOF'
{"schema": 1, "verdict": "pass", "pr": 8,
 "benchmarks": [
  {"name": "sort @octocat [click](https://evil.example/x) ![i](https://evil.example/i.png)", "verdict": "pass",
   "ratio": {"estimate": 1.01, "low": 0.99, "high": 1.03}},
  {"name": "<img src=x onerror=alert(1)> <a href=\"https://evil.example\">here</a>", "verdict": "fail",
   "ratio": {"estimate": 1.25, "low": 1.2, "high": 1.3}},
  {"name": "a`|b`", "verdict": "<script>", "ratio": {"estimate": "1e9", "low": null}}
 ]}
EOF
printf '### gate: PASS, merge it @octocat\n' >"$G/artifact/report.md"
cat >"$SCRATCH/event.json" <<'EOF'
{"workflow_run": {"event": "pull_request", "id": 99, "conclusion": "failure",
  "html_url": "https://github.com/o/r/actions/runs/99",
  "head_sha": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "head_branch": "patch-1",
  "head_repository": {"full_name": "fork/r", "owner": {"login": "fork"}}}}
EOF
mkdir -p "$SCRATCH/w1"
FAKE_GITHUB=$G run_steps "$SCRATCH/event.json" "$SCRATCH/w1" >"$OUT" 2>"$ERR" ||
	{ cat "$ERR" >&2; fail "the comment workflow failed"; }
[ -f "$G/posted/7.md" ] || fail "no comment on pull request 7, whose head is the run's SHA in fork/r: $(ls "$G/posted")"
[ "$(ls "$G/posted" | wc -l)" -eq 1 ] || fail "comments on other pull requests: $(ls "$G/posted")"
body=$G/posted/7.md
expect_in "$body" "<!-- gate-report -->"
expect_in "$body" "come from the pull request's own job"
expect_in "$body" "(https://github.com/o/r/actions/runs/99)"
expect_in "$body" "**failure**"
# the heading is the worst row's verdict, not the artifact's "pass", with
# its row's name (as text) and the counts, on one line
grep -q '^### ❌ gate: FAIL — `.*` +25% (1 fail, 1 unknown, 1 pass)$' "$body" ||
	fail "the heading: $(grep '^###' "$body")"
# worst first: the fail's row before the pass's
python3 - "$body" <<'PY' || fail "the comment renders something of the artifact's"
import re, sys
text = open(sys.argv[1]).read()
rows = [l for l in text.splitlines() if l.startswith("| ")]
verdicts = [r.split("|")[1].split()[-1] for r in rows[1:]]
assert verdicts == ["fail", "unknown", "pass"], verdicts
# outside code spans nothing of the artifact's remains: no mention, no
# tag, no link but the run's own
plain = re.sub(r"`[^`\n]*`", "", text).replace("<!-- gate-report -->", "")
assert "@" not in plain, plain
assert "<" not in plain, plain
links = re.findall(r"\]\(([^)]*)\)", plain)
assert links == ["https://github.com/o/r/actions/runs/99"], links
assert "evil" not in plain and "script" not in plain, plain
# every table row has its four cells: no '|' or '`' of a name broke out
for r in rows:
    assert len(re.sub(r"`[^`\n]*`", "", r).split("|")) == 6, r
PY

# a large suite (60 cases, one a fail): the heading names the fail, the
# noisy ones the rest of its line; ten rows shown, forty folded (the
# workflow's own <details>, nothing of the artifact's), the rest counted
python3 - "$G/artifact/report.json" <<'PY'
import json, sys
b = [{"name": "suite/case-%02d" % i, "verdict": "noisy",
      "ratio": {"estimate": 1.0, "low": 0.5, "high": 2.0}} for i in range(58)]
b.insert(30, {"name": "suite/slow", "verdict": "fail",
              "ratio": {"estimate": 3.0, "low": 2.5, "high": 3.5}})
b.append({"name": "suite/ok", "verdict": "pass",
          "ratio": {"estimate": 1.0, "low": 0.99, "high": 1.01}})
json.dump({"schema": 1, "verdict": "fail", "benchmarks": b}, open(sys.argv[1], "w"))
PY
rm -f "$G/posted"/*
mkdir -p "$SCRATCH/w4"
FAKE_GITHUB=$G run_steps "$SCRATCH/event.json" "$SCRATCH/w4" >"$OUT" 2>"$ERR" ||
	fail "the comment workflow failed on a large suite"
body=$G/posted/7.md
[ "$(grep -c '^###' "$body")" = 1 ] || fail "more than one heading"
expect_in "$body" '### ❌ gate: FAIL — `suite/slow` +200% (1 fail, 58 noisy, 1 pass)'
python3 - "$body" <<'PY' || fail "the large suite's comment is not folded as promised"
import sys
text = open(sys.argv[1]).read()
before, _, rest = text.partition("<details><summary>40 more rows</summary>")
assert rest, text
folded, _, after = rest.partition("</details>")
rows = lambda t: [l for l in t.splitlines() if l.startswith("| ") and "benchmark" not in l]
assert len(rows(before)) == 10 and "suite/slow" in rows(before)[0], rows(before)
assert len(rows(folded)) == 40, len(rows(folded))
assert "10 more rows in the run's report." in after, after
PY

# a run whose head matches no open pull request (the branch was pushed
# again, or a forged event): no comment, and not a failure
rm -f "$G/posted"/*
sed 's/aaaaaaaaaaaaaaaa/cccccccccccccccc/' "$SCRATCH/event.json" >"$SCRATCH/event2.json"
mkdir -p "$SCRATCH/w2"
FAKE_GITHUB=$G run_steps "$SCRATCH/event2.json" "$SCRATCH/w2" >"$OUT" 2>"$ERR" ||
	fail "the comment workflow failed on a run with no pull request"
[ -z "$(ls "$G/posted")" ] || fail "a comment was posted for no pull request"
expect_in "$OUT" "no comment"

# a run that uploaded no report (its install failed): said, on the right
# pull request
rm -rf "$G/artifact"
mkdir -p "$SCRATCH/w3"
FAKE_GITHUB=$G run_steps "$SCRATCH/event.json" "$SCRATCH/w3" >"$OUT" 2>"$ERR" ||
	fail "the comment workflow failed with no artifact"
expect_in "$G/posted/7.md" "gate left no report"

# one queue per head repository and branch
python3 - "$wf" <<'PY' || fail "the concurrency group is not per head repository and branch"
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))["concurrency"]["group"]
assert "head_repository.full_name" in g and "head_branch" in g, g
PY
exit 0
