#!/usr/bin/env bash
# The whole test suite: installs what the tests need (idempotent), checks
# formatting and lints (rustfmt, clippy with warnings as errors), then runs
# every target's tests and ends with the total over all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-deps.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo fmt --check || status=$?
cargo clippy --all-targets --quiet -- -D warnings || status=$?
cargo test --all-targets 2>&1 | tee "$log" || status=$?
cargo test --doc 2>&1 | tee -a "$log" || status=$?
# cargo prints one "test result" line per target, the last often a bench
# with no tests; the total says what ran.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
