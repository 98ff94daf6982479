#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust; does nothing when it is there.
set -euo pipefail
