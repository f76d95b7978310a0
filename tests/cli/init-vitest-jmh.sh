# gate init on an npm project with vitest bench proposes a vitest suite
# (vitest's --outputJson on stdout, "$GATE_FILTER" as -t), and on a Maven
# project with JMH a jmh suite running its benchmarks jar (-rf json on
# stdout, "$GATE_FILTER" as JMH's include pattern, short forks); neither
# measured by init, which says so, and neither an npm script or mvn
# timed as one process. A package.json without vitest keeps its *bench*
# scripts, a pom.xml without JMH proposes nothing of its own.
. "$(dirname "$0")/lib.sh"
J=$SCRATCH/js
new_repo "$J"
mkdir -p "$J/bench"
cat >"$J/package.json" <<'JSON'
{ "name": "x", "scripts": { "bench": "vitest bench --run" },
  "devDependencies": { "vitest": "^2.1.0" } }
JSON
echo 'bench("fib 15", () => {})' >"$J/bench/fib.bench.js"
commit_all "$J" js
gate_run 0 -C "$J" init --stdout
expect_in "$OUT" '"format": "vitest"'
expect_in "$OUT" 'npx vitest bench --run --outputJson \"$d/vitest.json\" ${GATE_FILTER:+-t \"$GATE_FILTER\"} >&2 && cat \"$d/vitest.json\"'
expect_not_in "$OUT" '"npm", "run"'
expect_in "$ERR" "vitest: vitest bench (a devDependency, with bench files)"
expect_in "$ERR" "not measured by init"
# without vitest: the npm script, as before
printf '{ "scripts": { "bench": "node bench.js" } }\n' >"$J/package.json"
gate_run 0 -C "$J" init --stdout
expect_in "$OUT" '["npm", "run", "--silent", "bench"]'
expect_not_in "$OUT" '"vitest"'

M=$SCRATCH/jvm
new_repo "$M"
mkdir -p "$M/src/main/java"
cat >"$M/pom.xml" <<'XML'
<project><dependencies><dependency><groupId>org.openjdk.jmh</groupId>
<artifactId>jmh-core</artifactId></dependency></dependencies>
<build><finalName>perf</finalName></build></project>
XML
echo '# jvm' >"$M/README.md"
commit_all "$M" jvm
gate_run 0 -C "$M" init --stdout
expect_in "$OUT" '"format": "jmh"'
expect_in "$OUT" '"build": "mvn -q -DskipTests package"'
expect_in "$OUT" 'java -jar target/perf.jar -f 5 -wi 3 -w 100ms -i 5 -r 100ms -rf json -rff \"$f\" ${GATE_FILTER:+\"$GATE_FILTER\"} >&2 && cat \"$f\"'
expect_in "$OUT" '"artifacts": ["target/perf.jar"]'
expect_in "$OUT" '"sources": ["pom.xml", "src/main", "*.md"]'
expect_in "$ERR" "build system: maven"
sed 's/jmh-core/junit/' "$M/pom.xml" >"$SCRATCH/pom" && cp "$SCRATCH/pom" "$M/pom.xml"
gate_run 0 -C "$M" init --stdout
expect_not_in "$OUT" '"jmh"'
exit 0
