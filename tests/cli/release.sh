# ci/release tags a release only when the commit is one: on a copy of the
# files it reads, in a repository of its own, it refuses a dirty checkout,
# a CHANGELOG without the version's dated section, a debian/changelog of
# another version and a workflow pinning another tag, then tags vVERSION,
# and refuses to tag it twice.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
R=$SCRATCH/rel
mkdir -p "$R/ci" "$R/debian" "$R/examples"
cp "$root/ci/release" "$R/ci/"
cp "$root/Makefile" "$root/CHANGELOG.md" "$root/README.md" "$R/"
cp "$root/debian/changelog" "$R/debian/"
cp -r "$root/doc" "$root/examples/workflows" "$R/examples/" 2>/dev/null
mv "$R/examples/doc" "$R/doc"
v=$(sed -n 's/^VERSION = *//p' "$R/Makefile")
[ -n "$v" ] || fail "no VERSION in the Makefile"
git init -q "$R"
release() {
	git -C "$R" add -A && git -C "$R" commit -qm "$1" --allow-empty
	"$R/ci/release" >"$OUT" 2>"$ERR"
}
# the project's own files may be between releases: make them one
sed -i "s/^## \[Unreleased\]\$/## [v$v] - 2026-12-07/" "$R/CHANGELOG.md"
grep -q "^## \[v$v\] - " "$R/CHANGELOG.md" ||
	printf '\n## [v%s] - 2026-12-07\n' "$v" >>"$R/CHANGELOG.md"
find "$R/README.md" "$R/doc" "$R/examples" -type f -exec sed -i -E \
	"s/gate@v[0-9][0-9.]*/gate@v$v/g; s/--branch v[0-9][0-9.]*/--branch v$v/g" {} +
sed -i "1s/^gate ([^)]*)/gate ($v)/" "$R/debian/changelog"
# a workflow pinning another release
sed -i "s/gate@v$v/gate@v0.0.9/" "$R/examples/workflows/pr-check.yml"
release "stale pin" && fail "tagged with pr-check.yml pinning v0.0.9"
expect_in "$ERR" "pr-check.yml"
expect_in "$ERR" "gate@v0.0.9"
sed -i "s/gate@v0.0.9/gate@v$v/" "$R/examples/workflows/pr-check.yml"
# debian/changelog of another version
sed -i "1s/^gate ([^)]*)/gate (0.0.9)/" "$R/debian/changelog"
release "deb" && fail "tagged with debian/changelog at 0.0.9"
expect_in "$ERR" "dch -v $v"
sed -i "1s/^gate ([^)]*)/gate ($v)/" "$R/debian/changelog"
# no dated section
sed -i "s/^## \[v$v\] - .*/## [v$v]/" "$R/CHANGELOG.md"
release "undated" && fail "tagged without a dated CHANGELOG section"
expect_in "$ERR" "YYYY-MM-DD"
sed -i "s/^## \[v$v\]\$/## [v$v] - 2026-12-07/" "$R/CHANGELOG.md"
# uncommitted changes
git -C "$R" add -A && git -C "$R" commit -qm ready
echo "edit" >>"$R/README.md"
"$R/ci/release" >"$OUT" 2>"$ERR" && fail "tagged a dirty checkout"
expect_in "$ERR" "uncommitted"
git -C "$R" checkout -q README.md
# a release
"$R/ci/release" >"$OUT" 2>"$ERR" || fail "ci/release refused a release"
expect_in "$OUT" "tagged v$v"
[ "$(git -C "$R" cat-file -t "v$v")" = tag ] || fail "v$v is not an annotated tag"
[ "$(git -C "$R" rev-parse "v$v^{commit}")" = "$(git -C "$R" rev-parse HEAD)" ] ||
	fail "v$v does not tag HEAD"
"$R/ci/release" >"$OUT" 2>"$ERR" && fail "tagged v$v twice"
expect_in "$ERR" "exists already"
exit 0
