#!/usr/bin/env bash
# The whole test suite: installs what the tests need (idempotent), checks
# formatting (rustfmt), compiles every test target once (the dev profile)
# through clippy's driver, so that clippy's lints come out of the one build
# the tests run (any warning fails the suite), then runs every test: the
# library's, binaries', integration tests' and examples' under cargo-nextest
# (each test's time in its JUnit file), each benchmark once in its quick
# smoke mode (`cargo test --bench NAME`), and the doctests. It ends with
# nextest's summary, the 20 slowest tests and the total over all of them;
# the exit status is non-zero if anything failed.
#
# One test: `cargo nextest run -E 'test(name)'`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-deps.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
color=never
[ -t 1 ] && color=always
# nextest keeps its files under the workspace's target/nextest/, wherever
# CARGO_TARGET_DIR puts the build.
junit=target/nextest/ci/junit.xml
# Wall times in ms, from bash's own clock.
now() { echo $((${EPOCHREALTIME/./} / 1000)); }
phase() { echo "$1 $(($(now) - $2))" >>"$tmp/phases"; }

cargo fmt --check || status=$?

# One build for every test target, shared by the three runs below (the
# same profile, features and wrapper: nothing is compiled twice). Cargo
# runs carta's own crates (not its dependencies) through clippy-driver, as
# `cargo clippy` does, but with code generation: the lints of
# `cargo clippy --all-targets` without a second build. Its artifacts have
# their own names, so a plain `cargo test` afterwards rebuilds nothing of
# these and these nothing of its.
RUSTC_WORKSPACE_WRAPPER=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
export RUSTC_WORKSPACE_WRAPPER
start=$(now)
cargo test --no-run --lib --bins --tests --examples --benches 2>&1 | tee "$tmp/compile" || status=$?
# Cargo replays a fresh crate's warnings, so a lint is never hidden by a
# warm build.
if grep -q '^warning' "$tmp/compile"; then
    echo "=== clippy or rustc warned (above): warnings fail the suite"
    status=1
fi
phase "compile with clippy's lints (tests, benches, examples)" "$start"

start=$(now)
rm -f "$junit"
cargo nextest run --profile ci --color "$color" --lib --bins --tests --examples \
    2>&1 | tee "$tmp/nextest" || status=$?
phase "nextest (lib, bins, tests, examples)" "$start"

# Benchmarks with `harness = false` cannot be listed by nextest: each runs
# once, its smoke mode (no `--bench`), and counts as one test.
start=$(now)
cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
for t in json.load(sys.stdin)["packages"][0]["targets"]:
    if "bench" in t["kind"]:
        print(t["name"])' >"$tmp/bench-names"
while read -r bench; do
    echo "=== bench $bench (smoke run)"
    b=$(now)
    if cargo test --quiet --bench "$bench" </dev/null; then result=pass; else result=fail status=1; fi
    echo "$bench $result $(($(now) - b))" >>"$tmp/benches"
done <"$tmp/bench-names"
phase "benches (smoke)" "$start"

start=$(now)
cargo test --doc 2>&1 | tee "$tmp/doc" || status=$?
phase "doctests" "$start"

echo
echo "=== nextest's summary"
# From its Summary line on (its slow and failed tests after it).
sed 's/\x1b\[[0-9;]*m//g' "$tmp/nextest" | awk '/^ +Summary \[/ { on = 1 } on' || true
echo
python3 - "$junit" "$tmp/nextest" "$tmp/benches" "$tmp/doc" "$tmp/phases" <<'EOF'
import os, re, sys
import xml.etree.ElementTree as ET

junit, nextest, benches, doc, phases = sys.argv[1:]
times, passed, failed, not_run = [], 0, 0, 0
# nextest's summary: "Summary [ 349.1s] 652 tests run: 650 passed (3 slow), 2 failed, 0 skipped",
# or "431/652 tests run: …" when it stopped early.
log = re.sub(r"\x1b\[[0-9;]*m", "", open(nextest).read())
summary = re.search(r"Summary \[.*?\] (\d+)(?:/(\d+))? tests? run: (\d+) passed", log)
if summary:
    not_run = int(summary[2] or summary[1]) - int(summary[1])
if os.path.exists(junit):
    for case in ET.parse(junit).iter("testcase"):
        bad = case.find("failure") is not None or case.find("error") is not None
        failed += bad
        passed += not bad
        times.append((float(case.get("time", 0)), case.get("classname", "") + " " + case.get("name", ""), bad))
elif summary:
    print(f"no JUnit file at {junit}: the counts are from nextest's summary")
    passed, failed = int(summary[3]), int(summary[1]) - int(summary[3])
else:
    print(f"no JUnit file at {junit} and no summary: nextest did not run")
    failed += 1
for line in open(benches):
    name, result, ms = line.split()
    bad = result != "pass"
    failed += bad
    passed += not bad
    times.append((int(ms) / 1000, f"bench {name} (smoke run)", bad))
for m in re.finditer(r"^test result: \w+\. (\d+) passed; (\d+) failed", open(doc).read(), re.M):
    passed += int(m[1])
    failed += int(m[2])

print("=== the 20 slowest tests (nextest's JUnit file, the benches' smoke runs)")
for secs, name, bad in sorted(times, reverse=True)[:20]:
    print(f"{secs:8.1f} s  {name}{'  FAILED' if bad else ''}")
print(f"{sum(t for t, _, _ in times):8.1f} s  in all ({len(times)} tests, not counting doctests)")
print()
print("=== wall time per phase")
for line in open(phases):
    what, ms = line.rsplit(" ", 1)
    print(f"{int(ms) / 1000:8.1f} s  {what}")
print()
print(f"tests: {passed} passed, {failed} failed" + (f", {not_run} not run (nextest stopped)" if not_run else ""))
EOF
exit "$status"
