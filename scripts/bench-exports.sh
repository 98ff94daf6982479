#!/usr/bin/env bash
# Export benchmark (docs/performance.md, "Exports"): the three exports of
# issue 24 timed against a baseline measured in the same run — Chromium
# printing the same cards' sheets to PDF once (`carta print`, then
# `chromium --headless --print-to-pdf` of its index.html):
#
#   - PNG cards per second at 300 dpi: `carta export png` of a shipped pack
#     replicated to PNG_CARDS cards (examples/replicate.rs);
#   - a 60-card TTS deck: `carta export tts` of intrépidos's deck
#     `furia-de-aries.toml` (60 cards besides its setup and team zones);
#   - a 500-card PDF: `carta export pdf` of the pack replicated until its
#     pool prints about PDF_CARDS copies;
#   - a re-export after a one-card edit: `carta export png` again after one
#     card's name changed, against the export from nothing (every other
#     figure is measured from nothing: the kept card images are removed).
#
# Each export runs with CARTA_CHROMIUM pointing at a wrapper that counts the
# browsers it starts ("one browser per export run"). Prints a Markdown table
# of the best of RUNS wall times (seconds), the ratio to the baseline, the
# browsers started, and the figure against its target.
#
#   scripts/bench-exports.sh
#   RUNS=3 PACK=covil PNG_CARDS=210 PDF_CARDS=500 scripts/bench-exports.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
pack=${PACK:-covil}
png_cards=${PNG_CARDS:-210}
pdf_cards=${PDF_CARDS:-500}
chromium=$(command -v "${CHROMIUM:-chromium}" || command -v chromium-browser || true)
[ -x "$chromium" ] || { echo "no chromium (scripts/install-test-deps.sh installs it)" >&2; exit 2; }
command -v pdfinfo > /dev/null || { echo "no pdfinfo (poppler-utils)" >&2; exit 2; }
cargo build --release --quiet --example replicate
cargo build --release --quiet
carta=$PWD/target/release/carta
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A browser that counts its starts in $work/starts.
cat > "$work/chromium" <<EOF
#!/bin/sh
echo x >> "$work/starts"
exec "$chromium" "\$@"
EOF
chmod +x "$work/chromium"
export CARTA_CHROMIUM="$work/chromium"

# best wall time (s) of a command over $runs runs; the browsers one run
# started in $work/browsers
measure() {
    local best="" t
    for _ in $(seq "$runs"); do
        # Every run from nothing: no card image kept by the last one.
        rm -rf "$work"/*/build/.cache/shots "$PWD/build/.cache/shots"
        : > "$work/starts"
        /usr/bin/time -f "%e" -o "$work/time" "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
        t=$(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    done
    wc -l < "$work/starts" > "$work/browsers"
    echo "$best"
}

# The baseline: the sheets of the same cards (`carta print` of TARGET in
# workspace WS, into OUT), printed to PDF by one Chromium.
baseline() {
    local ws=$1 target=$2 index=$3
    "$carta" -C "$ws" -q print "$target" --out "$work/sheets" > /dev/null
    measure "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-dev-shm-usage --no-pdf-header-footer \
        --user-data-dir="$work/profile" \
        --print-to-pdf="$work/baseline.pdf" "file://$work/sheets/$index"
}

ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
verdict() { awk "BEGIN{ print ($1 $2 $3) ? \"met\" : \"missed\" }"; }

# The packs, replicated: distinct cards for the PNGs; for the PDF, as many
# distinct cards as give about PDF_CARDS printed copies.
"$PWD/target/release/examples/replicate" --game "$pack" --cards "$png_cards" --out "$work/png" > /dev/null
"$PWD/target/release/examples/replicate" --game "$pack" --cards "$pdf_cards" --out "$work/pdf" > /dev/null
copies=$("$carta" -C "$work/pdf" -q print "$pack" --out "$work/count" > /dev/null && grep -o 'carta-card carta-face' "$work/count/$pack/sheets/index.html" | wc -l)
cut=$(awk "BEGIN{ printf \"%d\", $pdf_cards * $pdf_cards / $copies }")
rm -rf "$work/pdf" "$work/count"
"$PWD/target/release/examples/replicate" --game "$pack" --cards "$cut" --out "$work/pdf" > /dev/null
"$carta" -C "$work/pdf" -q print "$pack" --out "$work/count" > /dev/null
copies=$(grep -o 'carta-card carta-face' "$work/count/$pack/sheets/index.html" | wc -l)

echo "| export | cards | baseline: chromium prints the sheets | export | ÷ baseline | browsers started | figure | target |"
echo "|---|---|---|---|---|---|---|---|"

# PNG at 300 dpi: cards (faces) per second.
png_faces=$("$carta" -C "$work/png" -q print "$pack" --out "$work/count" > /dev/null && grep -o 'carta-card carta-face' "$work/count/$pack/sheets/index.html" | wc -l)
base=$(baseline "$work/png" "$pack" "$pack/sheets/index.html")
distinct=$(find "$work/png/cards/$pack" -name 'r*.toml' -exec grep -c '^\[\[card\]\]' {} + | awk -F: '{ s += $NF } END { print s }')
t=$(measure "$carta" -C "$work/png" -q export png "$pack" --dpi 300 --out "$work/out-png")
rate=$(awk "BEGIN{ printf \"%.1f\", $distinct / $t }")
echo "| png, 300 dpi | $distinct faces (+ backs) | $base s ($png_faces printed) | $t s | $(ratio "$t" "$base") | $(cat "$work/browsers") | $rate cards/s | ≥ 50 cards/s: $(verdict "$rate" ">=" 50) |"

# A 60-card TTS deck (intrépidos, real templates and art).
deck=cards/intrepidos/decks/furia-de-aries.toml
base=$(baseline "$PWD" "$deck" "intrepidos/decks/furia-de-aries/index.html")
t=$(measure "$carta" -q export tts "$deck" --out "$work/out-tts")
echo "| tts, 60-card deck | 60 + setup | $base s | $t s | $(ratio "$t" "$base") | $(cat "$work/browsers") | $t s | ≤ 3 s: $(verdict "$t" "<=" 3) |"

# A PDF of about 500 printed cards.
base=$(baseline "$work/pdf" "$pack" "$pack/sheets/index.html")
t=$(measure "$carta" -C "$work/pdf" -q export pdf "$pack" --out "$work/out-pdf")
pages=$(pdfinfo "$work/out-pdf/$pack/pdf/$pack.pdf" | awk '/^Pages:/ { print $2 }')
echo "| pdf | $copies printed ($pages pages) | $base s | $t s | $(ratio "$t" "$base") | $(cat "$work/browsers") | $t s | ≤ 5 s: $(verdict "$t" "<=" 5) |"

# A PNG re-export after a one-card edit, against the export from nothing.
cold=$(measure "$carta" -C "$work/png" -q export png "$pack" --dpi 300 --out "$work/out-png")
file=$(find "$work/png/cards/$pack" -name 'r*.toml' | sort | head -n 1)
cp "$file" "$work/saved.toml"
best=""
for _ in $(seq "$runs"); do
    cp "$work/saved.toml" "$file"
    "$carta" -C "$work/png" -q export png "$pack" --dpi 300 --out "$work/out-png" > /dev/null 2>&1
    # The file's second card: the first is a rules card no export draws.
    awk '/^name = "/ { n++; if (n == 2) sub(/^name = "/, "name = \"Z ") } { print }' "$work/saved.toml" > "$file"
    /usr/bin/time -f "%e" -o "$work/time" "$carta" -C "$work/png" export png "$pack" --dpi 300 --out "$work/out-png" > /dev/null 2> "$work/said"
    t=$(tail -n 1 "$work/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
done
cp "$work/saved.toml" "$file"
said=$(grep -o '[0-9]* card images\? drawn, [0-9]* reused' "$work/said" | head -n 1)
share=$(awk "BEGIN{ printf \"%.0f\", 100 * $best / $cold }")
echo "| png re-export, one card renamed | $distinct faces ($said) | $cold s (the export from nothing) | $best s | $(ratio "$best" "$cold") | - | $share% | ≤ 10%: $(verdict "$share" "<=" 10) |"
