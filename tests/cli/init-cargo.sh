# gate init on a cargo crate with criterion benches proposes a criterion
# suite per bench target (criterion's sample.json per case, read as the
# criterion format reads it), never cargo bench timed as one process:
# criterion runs each case for a fixed time, so a process's time cannot
# see a change. Each target is measured once, and its warm-up and
# measurement times are sized as init sizes Go's and Google Benchmark's
# work: whole seconds for criterion 0.3 (1 s each, the least it takes),
# about 0.1 s a case for criterion 0.5. The build makes the bench binaries
# (the artifacts) and the crate's build inputs are the sources, so a
# docs-only change passes unmeasured and a change to one case fails that
# case alone. A fake cargo on PATH stands in for cargo and criterion: its
# "bench binary" is a copy of src/lib.rs, and its cases cost what
# src/lib.rs says (fib 15 at 20 us, sum/1000 at 2 us, sum/4000 at 8 us).
. "$(dirname "$0")/lib.sh"
# the fake cargo lives outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
mkdir -p "$SCRATCH/bin"
cat >"$SCRATCH/bin/cargo" <<'SH'
#!/bin/sh
# cargo bench --no-run: each bench binary is bench.sh with src/lib.rs
[ "$*" = "bench --no-run" ] || { echo "fake cargo: $*" >&2; exit 2; }
echo "$*" >>"$(dirname "$0")/calls"
mkdir -p target/release/deps
for b in $(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | tail -n +2); do
	{ cat "$(dirname "$0")/bench.sh"; sed 's/^/# /' src/lib.rs; } \
		>"target/release/deps/$b-0123456789abcdef"
	chmod +x "target/release/deps/$b-0123456789abcdef"
	echo "dep-info of $PWD" >"target/release/deps/$b-0123456789abcdef.d"
done
SH
cat >"$SCRATCH/bin/bench.sh" <<'SH'
#!/bin/sh
# a criterion bench binary: --bench [criterion's flags] [FILTER]
echo "$0 $*" >>"$CALLS"
filter=
while [ $# -gt 0 ]; do
	case $1 in
	--warm-up-time|--measurement-time|--sample-size) shift ;;
	-*) ;;
	*) filter=$1 ;;
	esac
	shift
done
sed -n 's/^# \/\/ case \(.*\) \([0-9]*\)$/\1 \2/p' "$0" | while read -r id ns; do
	id=$(echo "$id" | tr _ ' ')
	[ -z "$filter" ] || echo "$id" | grep -Eq "$filter" || continue
	dir=$CRITERION_HOME/$(echo "$id" | tr ' /' '__')/new
	mkdir -p "$dir"
	printf '{"group_id":"%s","function_id":null,"value_str":null,"throughput":null,"full_id":"%s","directory_name":"%s","title":"%s"}' \
		"$id" "$id" "$id" "$id" >"$dir/benchmark.json"
	printf '{"sampling_mode":"Linear","iters":[10.0,20.0,30.0],"times":[%s.0,%s.0,%s.0]}' \
		$((10 * ns)) $((20 * ns)) $((30 * ns)) >"$dir/sample.json"
	echo "$id   time: [$ns ns]" >&2
done
SH
chmod +x "$SCRATCH/bin/cargo"
PATH=$SCRATCH/bin:$PATH
CALLS=$SCRATCH/bin/runs
export PATH CALLS

R=$SCRATCH/crate
new_repo "$R"
mkdir -p "$R/src" "$R/benches"
cat >"$R/Cargo.toml" <<'TOML'
[package]
name = "fixture"
version = "0.1.0"

[dev-dependencies]
criterion = { version = "0.3", default-features = false }

[[bench]]
name = "fib"
harness = false
TOML
printf '// case fib_15 20000\n// case sum/1000 2000\n// case sum/4000 8000\n' >"$R/src/lib.rs"
echo 'criterion_main!(benches);' >"$R/benches/fib.rs"
echo '# fixture' >"$R/README.md"
printf 'target/\ngate.json.*\n' >"$R/.gitignore"
commit_all "$R" crate

gate_run 0 -C "$R" init --stdout
expect_in "$OUT" '"format": "criterion"'
expect_in "$OUT" '"build": "cargo bench --no-run"'
expect_in "$OUT" 'b=$(ls -t target/release/deps/fib-???????????????? | head -n 1) && CRITERION_HOME=$d \"$b\" --bench --noplot --warm-up-time 1 --measurement-time 1 --sample-size 10 ${GATE_FILTER:+\"$GATE_FILTER\"} >&2'
expect_in "$OUT" 'CRITERION_HOME=$d'
expect_in "$OUT" '"artifacts": ["target/release/deps/fib-????????????????"]'
expect_in "$OUT" '"sources": ["src", "benches", "Cargo.toml", "*.md"]'
# never the whole cargo bench timed as one process
expect_not_in "$OUT" '"parity": false'
expect_in "$ERR" "fib: cargo bench target fib (criterion 0.3, whole seconds only): 3 cases of 2.00 us/iter to 20.0 us/iter (measured), each warmed up 1 s and sampled 10 times over 1 s"
expect_in "$ERR" "expected: about"
# built, then measured once as the suite runs, its files under /tmp
[ "$(grep -c -- '--measurement-time 1 ' "$CALLS")" = 1 ] || fail "fib measured other than once: $(cat "$CALLS")"
[ -z "$(git -C "$R" status --porcelain)" ] || fail "init changed the tree: $(git -C "$R" status --porcelain)"

# criterion 0.5 takes fractions of a second: about 0.1 s a case
sed 's/"0.3"/"0.5"/' "$R/Cargo.toml" >"$SCRATCH/toml" && cp "$SCRATCH/toml" "$R/Cargo.toml"
gate_run 0 -C "$R" init --stdout
expect_in "$OUT" '--warm-up-time 0.05 --measurement-time 0.1 --sample-size 10'
expect_in "$ERR" "(criterion): 3 cases"
git -C "$R" checkout -q Cargo.toml

# what init proposes gates: a docs-only change passes unmeasured, one
# case 1.5x slower fails that case alone
gate_run 0 -C "$R" init
git -C "$R" add gate.json && git -C "$R" commit -qm gate
echo 'more docs' >>"$R/README.md"
commit_all "$R" docs
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD --seed 3
expect_in "$OUT" "identical build"
sed 's/sum\/1000 2000/sum\/1000 3000/' "$R/src/lib.rs" >"$SCRATCH/lib" && cp "$SCRATCH/lib" "$R/src/lib.rs"
commit_all "$R" "sum/1000 slower"
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 3 --json "$SCRATCH/r.json"
python3 - "$SCRATCH/r.json" <<'PY' || fail "want fib/sum/1000 failing alone: $OUT"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {b["name"]: b["verdict"] for b in d["benchmarks"]}
bad = sorted(n for n, v in rows.items() if v == "fail")
assert bad == ["fib/sum/1000"], rows
PY
exit 0
