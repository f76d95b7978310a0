# rustup's proxies in ~/.cargo/bin (how Rust is installed on GitHub's
# runners and most machines) find their toolchains in ~/.rustup, which the
# sandbox's private HOME hid: every cargo build failed with "rustup could
# not choose a version of cargo". The sandbox shows the user's rustup
# directory read-only and names it in RUSTUP_HOME. Here a stand-in proxy on
# PATH under a HOME of its own reads its settings the way rustup does.
. "$(dirname "$0")/lib.sh"
sandbox_starts || skip "bubblewrap cannot start here"
H=$HOME	# lib.sh's, a directory of its own
PATH=$H/.cargo/bin:$PATH
export PATH
mkdir -p "$H/.cargo/bin" "$H/.rustup"
echo 'default_toolchain = "stable"' >"$H/.rustup/settings.toml"
cat >"$H/.cargo/bin/proxy" <<'SH'
#!/bin/sh
cat "${RUSTUP_HOME:-$HOME/.rustup}/settings.toml" || exit 9
SH
chmod +x "$H/.cargo/bin/proxy"
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/gate.json" <<'JSON'
{ "version": 1, "build": "proxy >built.txt",
  "defaults": { "pairs": 3, "max_pairs": 3, "warmup": 0, "timeout": 20 },
  "benchmarks": [ { "name": "proxy", "run": "proxy >/dev/null" } ] }
JSON
commit_all "$R" base
echo more >"$R/README"
commit_all "$R" head
gate_measured -C "$R" run --base HEAD~1 --measure-identical
expect_not_in "$ERR" "exited with code"
expect_not_in "$OUT" "ERROR"
# and it is read-only: a build cannot change the user's toolchains
cat >"$R/gate.json" <<'JSON'
{ "version": 1, "build": "echo x >>\"$RUSTUP_HOME/settings.toml\"",
  "benchmarks": [ { "name": "proxy", "run": "proxy >/dev/null" } ] }
JSON
commit_all "$R" "head writes rustup"
gate_run 3 -C "$R" run --base HEAD~1
expect_in "$ERR" "the build of head"
[ "$(wc -l <"$H/.rustup/settings.toml")" -eq 1 ] ||
	fail "a build appended to the user's rustup settings"
exit 0
