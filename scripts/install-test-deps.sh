#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust; does nothing when it is there.
set -euo pipefail

# The cross-language bundle test reads a bundle with Python's stock
# MessagePack library, following only docs/bundle-format.md.
if ! python3 -c 'import msgpack' 2>/dev/null; then
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check 'msgpack>=1,<2'
fi
