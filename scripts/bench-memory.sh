#!/usr/bin/env bash
# Parser memory benchmark (docs/security.md, "The limits"): the peak memory
# of one command on one large input of each kind carta parses whole —
# the replicated intrépidos pack (examples/replicate.rs) as one TOML card
# file and as one CSV sheet (`carta check --no-cache`), a deck file of
# LINES lines (`carta deck check`) and a pasted list of LINES lines
# (`carta deck import`), the last two against a game of 1,000 cards.
# Prints a Markdown table: the input's size, the peak RSS (MiB), and the
# peak per byte of input.
#
#   scripts/bench-memory.sh [CARDS] [LINES]     default: 20000 1000000
#   CARTA=path/to/carta REPLICATE=path/to/replicate scripts/bench-memory.sh 40000
#
# An input past its bound is refused: the row shows the refusal's peak.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
lines=${2:-1000000}
if [ -z "${CARTA:-}" ]; then
    cargo build --release --quiet
    CARTA=${CARGO_TARGET_DIR:-$PWD/target}/release/carta
fi
carta=$CARTA
replicate=${REPLICATE:-}
if [ -z "$replicate" ]; then
    cargo build --release --quiet --example replicate
    replicate=${CARGO_TARGET_DIR:-$PWD/target}/release/examples/replicate
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# peak RSS (KiB) of a command; its exit status does not matter
peak() {
    /usr/bin/time -f "%M" -o "$work/time" "$@" > /dev/null 2>&1 || true
    tail -n 1 "$work/time"
}

"$replicate" --game intrepidos --cards "$n" --out "$work/big" > /dev/null
for form in toml csv; do
    (cd "$work/big" && "$carta" convert cards/intrepidos --to "$form" -o "cards.$form" > /dev/null 2>&1)
done
rm -rf "$work/big/build"
for form in toml csv; do
    cp -r "$work/big" "$work/$form"
    rm -f "$work/$form/cards".*
    find "$work/$form/cards/intrepidos" -maxdepth 1 -name 'r*.toml' -delete
    mv "$work/big/cards.$form" "$work/$form/cards/intrepidos/cards.$form"
done
rm -rf "$work/big"
# The deck and the list are read against a game of 1,000 cards.
"$replicate" --game intrepidos --cards 1000 --out "$work/ws" > /dev/null
# The deck and the list name one real card per line, each a different id
# or name past the first few thousand, so every line is read and kept.
awk -v n="$lines" 'BEGIN { print "game = \"intrepidos\"\nname = \"Big\"\n\n[main]"
    for (i = 4; i < n; i++) printf "card-%d = 1\n", i }' > "$work/deck.toml"
awk -v n="$lines" 'BEGIN { print "Game: intrepidos\nName: Big\n\nMain"
    for (i = 4; i < n; i++) printf "1 Card %d\n", i }' > "$work/list.txt"

row() {
    local what=$1 file=$2 kib bytes
    shift 2
    kib=$(peak "$@")
    bytes=$(stat -c %s "$file")
    awk -v w="$what" -v b="$bytes" -v k="$kib" 'BEGIN {
        printf "| %s | %.1f MB | %d MiB | %.0f |\n", w, b / 1e6, k / 1024, k * 1024 / b }'
}
echo "| input | size | peak memory | peak ÷ size |"
echo "|---|---|---|---|"
echo "| a game of 1,000 cards (\`check --no-cache\`) | — | $(($(peak "$carta" -C "$work/ws" -q check --no-cache intrepidos) / 1024)) MiB | — |"
row "one TOML card file of $n cards (\`check --no-cache\`)" "$work/toml/cards/intrepidos/cards.toml" \
    "$carta" -C "$work/toml" -q check --no-cache intrepidos
row "one CSV sheet of $n cards (\`check --no-cache\`)" "$work/csv/cards/intrepidos/cards.csv" \
    "$carta" -C "$work/csv" -q check --no-cache intrepidos
row "a deck file of $lines lines (\`deck check\`)" "$work/deck.toml" \
    "$carta" -C "$work/ws" -q deck check "$work/deck.toml"
row "a list of $lines lines (\`deck import\`)" "$work/list.txt" \
    "$carta" -C "$work/ws" -q deck import "$work/list.txt"
