#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust; does nothing when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# The print-and-play sheets are printed to PDF by a real browser in the tests
# (tests/it/browser.rs): Debian's `chromium`, and poppler-utils for pdfinfo,
# pdftotext and pdftoppm. `apt-get update` runs at most once, and only when
# something is missing. The tests fail (never skip) without them.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdfinfo >/dev/null 2>&1 || missing+=(poppler-utils)
# DriveThruCards' PDF/X is made by Ghostscript, and read back with it
# (tests/it/pod.rs).
command -v gs >/dev/null 2>&1 || missing+=(ghostscript)
# The live preview's test drives Chromium through chromedriver (tests/it/watch.rs).
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
# The manual pages are rendered as `man` renders them (tests/it/help.rs).
command -v groff >/dev/null 2>&1 || missing+=(groff-base)
# The README's advice on reading them is followed with `man` itself.
command -v man >/dev/null 2>&1 || missing+=(man-db)
# axe-core, the builder's accessibility check, comes from npm (below).
command -v npm >/dev/null 2>&1 || missing+=(npm)
# The free clients' exports are validated against Cockatrice's XSDs with
# xmllint (tests/it/clients.rs).
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
# The test browser's WebDriver client (fantoccini) links OpenSSL.
[ -f /usr/include/openssl/ssl.h ] || missing+=(libssl-dev pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
        "${missing[@]}" fonts-dejavu-core
fi

# scripts/test.sh runs the tests with cargo-nextest (CI's machines have it;
# elsewhere it is built from crates.io, once, into ~/.cargo/bin).
if ! cargo nextest --version >/dev/null 2>&1; then
    cargo install --locked --quiet cargo-nextest
fi

# The cross-language bundle test reads a bundle with Python's stock
# MessagePack library, following only docs/bundle-format.md.
if ! python3 -c 'import msgpack' 2>/dev/null; then
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check 'msgpack>=1,<2'
fi

# The editor tests run the real taplo (what VS Code's Even Better TOML runs)
# on the shipped cards: PyPI's `taplo` package ships its CLI binary.
if ! command -v taplo >/dev/null 2>&1; then
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check 'taplo>=0.9,<0.10'
fi

# The tools below live outside the checkout, in a folder that outlives it
# (a fresh clone, CI's too, finds them there and compiles nothing):
# `$CARTA_TEST_TOOLS`, by default ~/.cache/carta/test-tools. The tests look
# in the same folder (tests/it/editor.rs, tests/it/builder_ui.rs).
tools=${CARTA_TEST_TOOLS:-$HOME/.cache/carta/test-tools}
mkdir -p "$tools"

# The editor's language-server test (tests/it/editor.rs) drives `taplo lsp
# stdio`, which no registry ships prebuilt (PyPI's `taplo` and npm's
# `@taplo/cli` leave the server out; npm's `@taplo/lsp` is a JavaScript
# library, not a command): built from crates.io with its `lsp` feature,
# once per machine (minutes), in a build folder deleted after.
if ! "$tools/bin/taplo" lsp --help >/dev/null 2>&1; then
    CARGO_TARGET_DIR="$tools/build" cargo install --locked --quiet \
        taplo-cli --version 0.10.0 --features lsp --root "$tools"
    rm -rf "$tools/build"
fi

# The builder's accessibility tests (tests/it/builder_ui.rs) run axe-core in
# the test Chromium on every page: npm's `axe-core`, into the same folder
# (never into the repository).
if [ ! -f "$tools/node_modules/axe-core/axe.min.js" ]; then
    npm install --prefix "$tools" --no-save --no-audit --no-fund --silent 'axe-core@^4.10'
fi
