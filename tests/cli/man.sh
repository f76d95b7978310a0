# The man pages: mandoc -Tlint finds nothing at any level (style included,
# cross-references resolved among the pages themselves); they agree with
# gate's --help, command by command and option by option, and gate.json(5)
# with the keys, metrics and formats gate knows (tests/cli/man-check.py);
# the configuration in gate.json(5)'s EXAMPLES is one gate accepts.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v mandoc >/dev/null || fail "no mandoc: run ci/install-deps"

# lint as installed: man1/, man5/ and man7/ with a mandoc.db, so that .Xr finds
# the other pages and nothing outside them
M=$SCRATCH/man
mkdir -p "$M/man1" "$M/man5" "$M/man7"
cp "$root"/man/*.1 "$M/man1/"
cp "$root"/man/*.5 "$M/man5/"
cp "$root"/man/*.7 "$M/man7/"
n=$(ls "$M"/man1 "$M"/man5 "$M"/man7 | grep -c '\.[157]$')
[ "$n" -ge 7 ] || fail "only $n man pages in man/"
makewhatis "$M" || fail "makewhatis $M failed"
mandoc -Tlint -W style -M "$M" "$M"/man1/*.1 "$M"/man5/*.5 "$M"/man7/*.7 >"$OUT" 2>&1 ||
	fail "mandoc -Tlint exited $?"
[ ! -s "$OUT" ] || fail "mandoc -Tlint is not clean"
# and the lint does find faults: a page with a misspelt macro and a
# reference to a page that does not exist
printf '.Dd November 30, 2026\n.Dt GATE-X 1\n.Os\n.Sh NAME\n.Nm gate-x\n.Nd x\n.Sh DESCRIPTION\n.Xx y\n.Sh SEE ALSO\n.Xr gate-nothing 1\n' \
	>"$SCRATCH/bad.1"
mandoc -Tlint -W style -M "$M" "$SCRATCH/bad.1" >"$OUT" 2>&1 &&
	fail "mandoc -Tlint passed a broken page"
expect_in "$OUT" "gate-nothing"
expect_in "$OUT" "Xx"

# a repository for the configuration probes
R=$SCRATCH/repo
new_repo "$R"
echo x >"$R/file"
commit_all "$R" one
python3 "$root/tests/cli/man-check.py" "$GATE" "$root/man" "$R" >"$OUT" 2>"$ERR" ||
	fail "the man pages and gate disagree"

# the check does fail: a page that lacks an option, and one that adds one
cp -R "$root/man" "$SCRATCH/man-edit"
sed -i '/^\.It Fl -no-scratch$/d; /^\.Op Fl -no-scratch$/d' "$SCRATCH/man-edit/gate-run.1"
sed -i 's/^\.It Fl -force$/.It Fl -force\n.It Fl -everything/' "$SCRATCH/man-edit/gate-init.1"
sed -i '/^\.It Cm resamples$/d' "$SCRATCH/man-edit/gate.json.5"
python3 "$root/tests/cli/man-check.py" "$GATE" "$SCRATCH/man-edit" "$R" >"$OUT" 2>"$ERR" &&
	fail "man-check.py passed pages that disagree with gate"
expect_in "$OUT" "gate-run(1): --help has --no-scratch"
expect_in "$OUT" "gate-init(1): the page names --everything"
expect_in "$OUT" "Suite-wide keys: gate knows resamples"

# gate-compare(1)'s --format list is gate's format table (gate/format/:
# every format that reads output; gate.json(5)'s list is checked above)
"$GATE" compare --format zzzzzzzz a b >"$OUT" 2>"$ERR"
want=$(sed -n 's/.*--format must be one of \(.*\); got.*/\1/p' "$ERR" |
	tr -d , | tr ' ' '\n' | LC_ALL=C sort)
[ -n "$want" ] || fail "gate compare --format names no list"
have=$(sed -n '/^\.It Fl -format Ar f$/,/^\.It Fl -metric/p' "$root/man/gate-compare.1" |
	sed -n 's/^\.Cm \([a-z]*\).*/\1/p' | LC_ALL=C sort)
[ "$have" = "$want" ] ||
	fail "gate-compare(1)'s --format lists [$(echo $have)], gate's table [$(echo $want)]"

# gate.json(5)'s list of who decides each key is gate's own key table,
# as gate help gate.json --mdoc prints it (regenerate it with that)
sed -n '/^\.\\" generated: gate help gate.json --mdoc/,/^\.\\" end of generated list/p' \
	"$root/man/gate.json.5" | sed '1d;$d' >"$SCRATCH/keys.page"
[ -s "$SCRATCH/keys.page" ] || fail "gate.json(5) has no generated key list"
"$GATE" help gate.json --mdoc >"$SCRATCH/keys.gate" || fail "gate help gate.json --mdoc failed"
diff -u "$SCRATCH/keys.page" "$SCRATCH/keys.gate" >"$OUT" ||
	fail "gate.json(5)'s key list differs from gate help gate.json --mdoc"
# every policy key's line says so, and the text form lists every key
"$GATE" help gate.json >"$SCRATCH/keys.txt" || fail "gate help gate.json failed"
for k in min_effect pass_excludes gate rule confidence max_pairs target_halfwidth \
	ignore expect parity statistic interval resamples budget artifacts sources writable; do
	grep -q "^$k  *[a-z, ]*  *policy\$" "$SCRATCH/keys.txt" || fail "$k is not a policy key"
done
for k in build run check format; do
	grep -q "^$k  *[a-z, ]*  *definition\$" "$SCRATCH/keys.txt" || fail "$k is not a definition key"
done

# gate(7)'s exact counts are the metrics gate decides exactly: those whose
# floor below 0.002 it refuses, of every metric gate.json(5) lists
exact=
for m in $(sed -n '/^\.Ss Metrics/,/^\.Ss Suite formats/p' "$root/man/gate.json.5" |
	sed -n 's/^\.It Cm \([a-z_]*\)$/\1/p'); do
	printf '{"version": 1, "benchmarks": [{"name": "b", "run": ["true"],
	  "metrics": ["%s"], "min_effect": {"%s": 0.001}}]}\n' "$m" "$m" >"$SCRATCH/m.json"
	"$GATE" -C "$R" run --list --config "$SCRATCH/m.json" --base HEAD --head HEAD \
		>"$OUT" 2>"$ERR"
	grep -q "are decided exactly" "$ERR" && exact="$exact $m"
done
[ -n "$exact" ] || fail "no metric is decided exactly"
page=$(sed -n '/^\.Sy Exact counts$/,/^decide without/p' "$root/man/gate.7" |
	sed -n 's/^\.Pf ( Cm \([a-z_]*\).*/\1/p; s/^\.Cm \([a-z_]*\).*/\1/p' | tr '\n' ' ')
[ "$(echo $page)" = "$(echo $exact)" ] ||
	fail "gate(7)'s exact counts are [$(echo $page)], gate decides [$(echo $exact)] exactly"

# gate.json(5)'s example is a configuration gate accepts: it gets as far
# as building (which fails: the repository has no Makefile)
sed -n '/^\.Sh EXAMPLES/,/^\.Sh/p' "$root/man/gate.json.5" |
	sed -n '/^\.Bd -literal/,/^\.Ed/p' | sed '1d;$d' >"$SCRATCH/example.json"
grep -q '"benchmarks"' "$SCRATCH/example.json" || fail "no example in gate.json(5)"
gate_run 3 -C "$R" run --config "$SCRATCH/example.json" --base HEAD --head HEAD
expect_not_in "$ERR" "example.json:"
if [ -n "${GATE_OS_STUB:-}" ]; then
	# its allocation metric stops it first where they cannot be counted
	expect_in "$ERR" "allocation counting is not available on this system"
else
	expect_in "$ERR" "building base and head"
fi
exit 0
