#!/usr/bin/env bash
# The edit-kind rows of `scripts/bench-check.sh edits` (issue 29): on the
# intrépidos pack replicated to N cards (examples/replicate.rs), after a
# warm `carta check`, the best of RUNS re-checks after each kind of edit to
# one card of r0.toml — nothing, a number the rules do not read
# (`min_level`), the rules text (`effect`), the name (which the rules'
# copy keys read), a new card file, that file deleted — against the best
# of RUNS full `check --no-cache` runs, per binary: this tree's release
# build and, with BEFORE=<carta binary>, that one, measured in turn. Each
# row gives the best wall time and the best CPU time (user + system).
#
#   BEFORE=OLD/carta RUNS=5 scripts/bench-edits.sh 20000
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${RUNS:-5}
cargo build --release --quiet --example replicate
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
labels=(after)
bins=("$PWD/target/release/carta")
if [ -n "${BEFORE:-}" ]; then
    labels=(before after)
    bins=("$(realpath "$BEFORE")" "$PWD/target/release/carta")
fi
for i in "${!bins[@]}"; do
    target/release/examples/replicate --game intrepidos --cards "$n" --out "$work/ws$i" > /dev/null
    "${bins[$i]}" -C "$work/ws$i" -q check > /dev/null || true
done

# Milliseconds of one run of carta, wall and CPU (user + system; on a
# loaded machine the wall time waits for a core): "wall cpu". Exit 0 or 1
# both count: a check that finds problems ran.
ms() {
    local rc=0
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > /dev/null 2>&1 || rc=$?
    [ "$rc" -le 1 ] || { echo "failed ($rc): $*" >&2; exit 1; }
    tail -n 1 "$work/time" | awk '{printf "%.0f %.0f", $1 * 1000, ($2 + $3) * 1000}'
}

# Keeps the best (lowest) of each of the two figures under key $1.
keep() {
    local k=$1 wall=$2 cpu=$3
    if [ -z "${best[$k]:-}" ] || [ "$wall" -lt "${best[$k]}" ]; then best[$k]=$wall; fi
    if [ -z "${cpu_best[$k]:-}" ] || [ "$cpu" -lt "${cpu_best[$k]}" ]; then cpu_best[$k]=$cpu; fi
}

# One edit of kind $1, run $2, to workspace $3 (not timed).
edit() {
    local f="$3/cards/intrepidos/r0.toml"
    case $1 in
        nothing) ;;
        # line 1057 is the first card with `min_level = 1`; 1 <-> 2
        number) sed -i '1057s/min_level = 1/min_level = 2/;t;1057s/min_level = 2/min_level = 1/' "$f" ;;
        effect) sed -i "0,/^effect = \"/s//effect = \"($2) /" "$f" ;;
        name) sed -i "0,/^name = \"Golpe Certeiro[^\"]*\"/s//name = \"Golpe Certeiro $2\"/" "$f" ;;
        new) printf '[[card]]\nid = "bench-new-%s"\nkind = "action"\nname = "Bench %s"\neffect = "x"\nflavour = "y"\n' "$2" "$2" \
            > "$3/cards/intrepidos/bench-new.toml" ;;
        deleted) rm -f "$3/cards/intrepidos/bench-new.toml" ;;
    esac
}

declare -A best cpu_best
for r in $(seq "$runs"); do
    for i in "${!bins[@]}"; do
        ws="$work/ws$i"
        # shellcheck disable=SC2046
        keep "full$i" $(ms "${bins[$i]}" -C "$ws" -q check --no-cache)
        for kind in nothing number effect name new deleted; do
            # A new card file needs none before it; a deleted one, one to delete.
            if [ "$kind" = deleted ]; then edit new "$r" "$ws"; "${bins[$i]}" -C "$ws" -q check > /dev/null || true; fi
            if [ "$kind" = new ]; then edit deleted "$r" "$ws"; "${bins[$i]}" -C "$ws" -q check > /dev/null || true; fi
            edit "$kind" "$r" "$ws"
            # shellcheck disable=SC2046
            keep "$kind$i" $(ms "${bins[$i]}" -C "$ws" -q check)
        done
    done
done

pct() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f%%", 100 * a / b}'; }
head="| edit ($n cards, best of $runs; wall, CPU) |"
rule="|---|"
for l in "${labels[@]}"; do head+=" $l | $l ÷ full | $l CPU | CPU ÷ full |"; rule+="---:|---:|---:|---:|"; done
echo "$head"
echo "$rule"
for kind in full nothing number effect name new deleted; do
    if [ "$kind" = full ]; then row="| full check (\`--no-cache\`) |"; else row="| $kind |"; fi
    for i in "${!bins[@]}"; do
        row+=" ${best[$kind$i]} ms | $(pct "${best[$kind$i]}" "${best[full$i]}") | ${cpu_best[$kind$i]} ms | $(pct "${cpu_best[$kind$i]}" "${cpu_best[full$i]}") |"
    done
    echo "$row"
done
