#!/usr/bin/env bash
# Scale benchmark (docs/performance.md): for each size, write a game — the
# synthetic one (examples/synth.rs, one legal deck per 20 cards) or, with
# PACK=<game>, a shipped pack's cards replicated with its real schemas and
# decks (examples/replicate.rs) — then time side by side, in one run: the
# single-threaded floor (read, parse, parse+validate), `carta check`, a
# re-check after a one-card edit (with the check cache), `carta build` and
# `taplo check` against the equivalent single-file schema. Prints a Markdown
# table of the best of RUNS wall times (seconds), peak memory (MiB), and ratios.
#
#   scripts/bench-check.sh [SIZES…]        default: 1000 5000 20000 100000
#   TAPLO=/path/to/taplo RUNS=3 scripts/bench-check.sh 20000
#   PACK=intrepidos scripts/bench-check.sh 20000
#
# With `edits` first, it prints instead the re-check of each kind of
# one-card edit on the replicated intrépidos pack (issue 29), as a share of
# a full `check --no-cache` measured in the same run, for this tree's
# release binary and, with BEFORE=<another carta binary>, that one too,
# each in its own copy of the workspace (their caches differ):
#
#   BEFORE=OLD/carta RUNS=5 scripts/bench-check.sh edits 20000
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = edits ]; then
    shift
    exec scripts/bench-edits.sh "$@"
fi
sizes=("${@:-1000 5000 20000 100000}")
read -r -a sizes <<< "${sizes[*]}"
runs=${RUNS:-3}
# taplo on PATH, or TAPLO; without it the taplo column is left empty.
taplo=$(command -v "${TAPLO:-taplo}" || true)
cargo build --release --quiet --example synth --example floor --example replicate
cargo build --release --quiet
carta=target/release/carta
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best wall time (s) and peak RSS (MiB) of a command over $runs runs
measure() {
    local best="" mem=0 t m
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
        # GNU time prints "Command exited with non-zero status" first on failure.
        read -r t m < <(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
        [ "$m" -gt "$mem" ] && mem=$m
    done
    echo "$best $((mem / 1024))"
}

game=${PACK:-synth}
echo "| cards | read | parse | parse+validate (floor) | carta check | re-check | carta build | taplo check | check ÷ floor | taplo ÷ check | re-check ÷ check | build ÷ check |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    ws="$work/ws$n"
    if [ "$game" = synth ]; then
        target/release/examples/synth --cards "$n" --decks $((n / 20)) --out "$ws" > /dev/null 2>&1
        card_files=("$ws"/cards/synth/{hero,item,action,relic}/"*.toml")
        edited=$(find "$ws/cards/synth/item" -name '*.toml' | sort | head -n 1)
    else
        target/release/examples/replicate --game "$game" --cards "$n" --out "$ws" > /dev/null
        card_files=("$ws/cards/$game/r*.toml")
        edited="$ws/cards/$game/r0.toml"
    fi
    target/release/examples/floor "$ws" "$game" schema "$work/schema.json"
    read -r rd _ < <(measure target/release/examples/floor "$ws" "$game" read)
    read -r pa _ < <(measure target/release/examples/floor "$ws" "$game" parse)
    read -r va vm < <(measure target/release/examples/floor "$ws" "$game" validate)
    read -r ch cm < <(measure "$carta" -C "$ws" -q check --no-cache)
    # The cache is filled once; each timed run then edits one card file
    # (a comment appended: new content, the same cards) and checks again.
    "$carta" -C "$ws" -q check > /dev/null
    read -r re rm < <(measure sh -c 'echo "# edit $$" >> "$1" && exec "$2" -C "$3" -q check' sh "$edited" "$carta" "$ws")
    # Like the check column, without the cache (a rebuild from it skips
    # parsing the unchanged card files).
    read -r bu bm < <(measure "$carta" -C "$ws" -q build --no-cache --out "$work/out$n")
    if [ -x "$taplo" ] && [ "$game" != synth ]; then
        # A real pack's schemas (oneOf, $ref) are given to taplo as carta's
        # own editor schemas (draft 7, which taplo reads), found through the
        # .taplo.toml that carta check wrote at the workspace root.
        read -r ta tm < <(cd "$ws" && measure "$taplo" check "cards/$game/r*.toml")
    elif [ -x "$taplo" ]; then
        read -r ta tm < <(measure "$taplo" check --schema "file://$work/schema.json" "${card_files[@]}")
    else
        ta=nan tm=0
    fi
    ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
    echo "| $n | ${rd} s | ${pa} s | ${va} s, ${vm} MiB | ${ch} s, ${cm} MiB | ${re} s, ${rm} MiB | ${bu} s, ${bm} MiB | ${ta} s, ${tm} MiB | $(ratio "$ch" "$va") | $(ratio "$ta" "$ch") | $(ratio "$re" "$ch") | $(ratio "$bu" "$ch") |"
done
