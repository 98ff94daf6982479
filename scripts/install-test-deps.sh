#!/bin/sh
# Installs what the test suite needs beyond cargo, when it is missing:
# Debian's `chromium` (the print-and-play sheets are printed to PDF in a real
# browser) and `poppler-utils` (pdfinfo, pdftoppm). Idempotent: it does
# nothing when everything is there, and runs `apt-get update` at most once.
set -eu

missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v pdfinfo >/dev/null 2>&1 || missing="$missing poppler-utils"

if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing fonts-dejavu-core
fi
