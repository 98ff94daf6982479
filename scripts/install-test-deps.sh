#!/usr/bin/env bash
# Installs what the test suite needs beyond cargo's crates. Idempotent: each
# step checks first and installs only what is missing. .ci/run calls it
# before `cargo test`; a test that needs a tool may call it too.
set -euo pipefail

# The cross-language bundle test reads a bundle with Python's stock
# MessagePack library, following only docs/bundle-format.md.
if ! python3 -c 'import msgpack' 2>/dev/null; then
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check 'msgpack>=1,<2'
fi
