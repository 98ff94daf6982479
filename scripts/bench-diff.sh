#!/usr/bin/env bash
# `carta diff` at scale (docs/performance.md): the shipped intrépidos pack
# replicated to N cards (examples/replicate.rs) as the old version, a copy
# with every text that says "pontos de vida" reworded (about a fifth of
# the cards) and the items' copy limit raised as the new one; times `carta diff OLD` (both versions compiled,
# encoded and compared, the example decks judged under both) against a
# `carta check --no-cache` of the new version, in one run, and prints a
# Markdown row with the ratio (best of RUNS wall times, seconds).
#
#   scripts/bench-diff.sh [N]          default: 20000
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
runs=${RUNS:-3}
build_release replicate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=${1:-20000}

"$examples/replicate" --game intrepidos --cards "$n" --out "$work/old" > /dev/null
cp -r "$work/old" "$work/new"
sed -i 's/pontos de vida/pontos de vida inteiros/' "$work"/new/cards/intrepidos/r*.toml
sed -i 's/^max = 3$/max = 4/' "$work/new/cards/intrepidos/game.toml"
check=$(measure "$carta" -C "$work/new" -q check --no-cache)
diff=$(measure "$carta" -C "$work/new" -q diff "$work/old")
echo "| cards | carta check --no-cache | carta diff | diff ÷ check |"
echo "|---|---|---|---|"
echo "| $n | $check | $diff | $(awk "BEGIN{printf \"%.2f\", $diff / $check}") |"
