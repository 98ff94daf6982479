#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust; does nothing when it is there.
set -euo pipefail

# The print-and-play sheets are printed to PDF by a real browser in the tests
# (tests/it/browser.rs): Debian's `chromium`, and poppler-utils for pdfinfo,
# pdftotext and pdftoppm. `apt-get update` runs at most once, and only when
# something is missing. The tests fail (never skip) without them.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdfinfo >/dev/null 2>&1 || missing+=(poppler-utils)
# The live preview's test drives Chromium through chromedriver (tests/it/watch.rs).
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
# The manual pages are rendered as `man` renders them (tests/it/help.rs).
command -v groff >/dev/null 2>&1 || missing+=(groff-base)
# The test browser's WebDriver client (fantoccini) links OpenSSL.
[ -f /usr/include/openssl/ssl.h ] || missing+=(libssl-dev pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
        "${missing[@]}" fonts-dejavu-core
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
