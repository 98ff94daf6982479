#!/usr/bin/env bash
# Spreadsheet benchmark (docs/performance.md): the replicated intrépidos pack
# (examples/replicate.rs, real schemas) as TOML (its 264 files, and all in
# one file), as one CSV file and as one XLSX workbook (a sheet per TOML file;
# all written by `carta convert` from the TOML), checked side
# by side in one run with `carta check --no-cache` (every file parsed and
# validated: a sheet is never answered for by its stamp). Prints a Markdown
# table of the best of RUNS wall times (s), peak memory (MiB), and the
# ratios to TOML.
#
#   scripts/bench-spreadsheets.sh [CARDS]     default: 20000
#   RUNS=5 scripts/bench-spreadsheets.sh 20000
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${RUNS:-3}
cargo build --release --quiet --example replicate
cargo build --release --quiet
carta=$PWD/target/release/carta
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best wall time (s) and peak RSS (MiB) of a command over $runs runs
measure() {
    local best="" mem=0 t m
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
        read -r t m < <(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
        [ "$m" -gt "$mem" ] && mem=$m
    done
    echo "$best $((mem / 1024))"
}

target/release/examples/replicate --game intrepidos --cards "$n" --out "$work/toml" > /dev/null
"$carta" -C "$work/toml" convert cards/intrepidos --to csv -o cards.csv > /dev/null 2>&1
"$carta" -C "$work/toml" convert cards/intrepidos --to xlsx -o cards.xlsx > /dev/null 2>&1
"$carta" -C "$work/toml" convert cards/intrepidos --to toml -o cards.toml > /dev/null 2>&1
for form in toml1 csv xlsx; do
    cp -r "$work/toml" "$work/$form"
    rm -rf "$work/$form/build"
    find "$work/$form/cards/intrepidos" -maxdepth 1 -name 'r*.toml' -delete
    ext=${form%1}
    mv "$work/$form/cards.$ext" "$work/$form/cards/intrepidos/cards.$ext"
done
size() { du -k "$1" | cut -f1; }
read -r t_toml m_toml < <(measure "$carta" -C "$work/toml" check --no-cache intrepidos)
read -r t_one m_one < <(measure "$carta" -C "$work/toml1" check --no-cache intrepidos)
read -r t_csv m_csv < <(measure "$carta" -C "$work/csv" check --no-cache intrepidos)
read -r t_xlsx m_xlsx < <(measure "$carta" -C "$work/xlsx" check --no-cache intrepidos)
ratio() { awk "BEGIN{printf \"%.2f\", $1 / $2}"; }
echo "| $n cards as | file(s) | carta check --no-cache | peak memory | time ÷ TOML | memory ÷ TOML |"
echo "|---|---|---|---|---|---|"
echo "| TOML | $(du -ck "$work"/toml/cards/intrepidos/r*.toml | tail -1 | cut -f1) KiB in $(ls "$work"/toml/cards/intrepidos/r*.toml | wc -l) files | ${t_toml} s | ${m_toml} MiB | 1.00 | 1.00 |"
echo "| TOML, one file | $(size "$work/toml1/cards/intrepidos/cards.toml") KiB | ${t_one} s | ${m_one} MiB | $(ratio "$t_one" "$t_toml") | $(ratio "$m_one" "$m_toml") |"
echo "| CSV | $(size "$work/csv/cards/intrepidos/cards.csv") KiB | ${t_csv} s | ${m_csv} MiB | $(ratio "$t_csv" "$t_toml") | $(ratio "$m_csv" "$m_toml") |"
echo "| XLSX | $(size "$work/xlsx/cards/intrepidos/cards.xlsx") KiB | ${t_xlsx} s | ${m_xlsx} MiB | $(ratio "$t_xlsx" "$t_toml") | $(ratio "$m_xlsx" "$m_toml") |"
