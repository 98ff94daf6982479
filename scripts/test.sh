#!/usr/bin/env bash
# The whole test suite: installs what the tests need (idempotent), then runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-deps.sh
cargo test --all-targets
