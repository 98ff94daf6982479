#!/usr/bin/env bash
# What the overflow check (`sheets::overflow`, docs/sheets.md) costs
# `carta print` (docs/performance.md): on the five shipped games and on a
# synthetic game of 500 cards (examples/synth.rs), the best of RUNS wall
# times, side by side in one run, of `carta print --no-fit-check` (the HTML
# alone), `carta print` (the HTML, then each set of sheets loaded in the
# sealed Chromium and measured) and, as the baseline, Chromium printing the
# same `index.html` files to PDF once each (what a designer does next).
# Prints a Markdown table of seconds and ratios.
#
#   scripts/bench-fit-check.sh            RUNS=3 by default
#   RUNS=5 scripts/bench-fit-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
chromium=${CARTA_CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
cargo build --release --quiet --example synth
cargo build --release --quiet
carta=$PWD/target/release/carta
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh

# Chromium printing every built index.html under $1 to PDF, one run each.
pdf_all() {
    local profile
    for page in $(find "$1/build" -name index.html | sort); do
        profile=$(mktemp -d)
        "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --user-data-dir="$profile" --no-pdf-header-footer \
            --print-to-pdf="$1/out.pdf" "file://$page" > /dev/null 2>&1
        rm -rf "$profile"
    done
}
export -f pdf_all
export chromium

shipped="$work/shipped"
mkdir -p "$shipped"
cp -r cards schemas templates "$shipped"/
target/release/examples/synth --cards 500 --decks 0 --out "$work/synth" > /dev/null 2>&1

echo "| workspace | print --no-fit-check | print (fit checked) | Chromium PDF of the same sheets | check's cost | check ÷ PDF |"
echo "|---|---|---|---|---|---|"
for ws in "$shipped" "$work/synth"; do
    name=$(basename "$ws")
    cd "$ws"
    html=$(measure "$carta" print --no-fit-check)
    fit=$(measure "$carta" print)
    pdf=$(measure bash -c "pdf_all '$ws'")
    cd - > /dev/null
    awk -v n="$name" -v h="$html" -v f="$fit" -v p="$pdf" 'BEGIN {
        printf "| %s | %.2f s | %.2f s | %.2f s | %.2f s | %.2f× |\n", n, h, f, p, f - h, (f - h) / p }'
done
