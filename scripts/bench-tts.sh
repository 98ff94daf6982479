#!/usr/bin/env bash
# A 60-card deck to Tabletop Simulator (issue 24; docs/performance.md,
# "### Exports: TTS"): the release binary's `carta export tts` of a shipped
# deck — intrépidos' Fúria de Áries, 60 cards in its main zone and 9 in
# its others, at the default 300 dpi — against a baseline measured in the
# same run: headless Chromium printing the same deck's sheets (`carta
# print`) to PDF once. Prints a Markdown table of the best of RUNS wall
# times (seconds) and the ratio. Target: the export within 3 s.
#
#   scripts/bench-tts.sh
#   RUNS=5 DECK=cards/kingdoms/decks/aurora-de-valaria.toml scripts/bench-tts.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
deck=${DECK:-cards/intrepidos/decks/furia-de-aries.toml}
chromium=$(command -v "${CARTA_CHROMIUM:-chromium}") || {
    echo "no chromium: apt-get install chromium" >&2
    exit 2
}
cargo build --release --quiet
carta=$PWD/target/release/carta
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best wall time (s) of a command over $runs runs; `{n}` in an argument
# becomes the run's number (a fresh browser profile each time).
best() {
    local best="" t
    for n in $(seq "$runs"); do
        local args=("${@//\{n\}/$n}")
        /usr/bin/time -f "%e" -o "$work/time" "${args[@]}" > /dev/null 2>&1 || {
            echo "failed: ${args[*]}" >&2
            exit 1
        }
        t=$(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    done
    echo "$best"
}

"$carta" -q print "$deck" --out "$work/sheets"
index=$(find "$work/sheets" -name index.html | head -n 1)
pdf=$(best "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile-{n}" --no-pdf-header-footer \
    --print-to-pdf="$work/sheets.pdf" "file://$index")
tts=$(best "$carta" -q export tts "$deck" --out "$work/tts")
sheets=$(find "$work/tts" -name 'sheet-*.png' | wc -l)
pixels=$(python3 - "$work/tts" <<'PY'
import pathlib, struct, sys
total = 0
for p in pathlib.Path(sys.argv[1]).rglob("*.png"):
    w, h = struct.unpack(">II", p.read_bytes()[16:24])
    total += w * h
print(f"{total / 1e6:.1f}")
PY
)
echo "| deck | sheets | image Mpx | Chromium prints the sheets to PDF (baseline) | carta export tts | export ÷ baseline |"
echo "|---|---|---|---|---|---|"
echo "| $(basename "$deck" .toml) | $sheets | $pixels | $pdf s | $tts s | $(awk "BEGIN{printf \"%.1f\", $tts / $pdf}") |"
