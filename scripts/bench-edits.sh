#!/usr/bin/env bash
# The edit-kind rows of `scripts/bench-check.sh edits` (issue 29): on the
# intrépidos pack replicated to N cards (examples/replicate.rs), after a
# warm `carta check`, the best of RUNS re-checks after each kind of edit to
# one card of r0.toml — nothing, a number the rules do not read
# (`min_level`), the rules text (`effect`), the name (which the rules'
# copy keys read), a new card file, that file deleted — against the best
# of RUNS full `check --no-cache` runs, per binary: this tree's release
# build and, with BEFORE=<carta binary>, that one, measured in turn. Each
# row gives the best wall time and the best CPU time (user + system),
# to a tenth of a millisecond; a second table gives the median and the
# slowest wall time of each kind, the re-check a designer waits for most
# often and at worst, against the median full check.
#
#   BEFORE=OLD/carta RUNS=5 scripts/bench-edits.sh 20000
#
# With GAME=starter, the game measured is instead the one `carta init`
# writes (spells and heroes with art) replicated to N cards: the number
# edited is a spell's `cost`, the name a spell's, the new card a spell.
#
#   GAME=starter BEFORE=OLD/carta RUNS=11 scripts/bench-edits.sh 2000
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${RUNS:-5}
cargo build --release --quiet --example replicate
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each binary is run from a copy in the work folder: the same binary ran
# 0.4-0.5 ms slower (wall and CPU, every edit kind) from where the linker
# wrote it than from a copy `cp` made, which the BEFORE binary usually is.
labels=(after)
sources=("$PWD/target/release/carta")
if [ -n "${BEFORE:-}" ]; then
    labels=(before after)
    sources=("$(realpath "$BEFORE")" "$PWD/target/release/carta")
fi
bins=()
for i in "${!sources[@]}"; do
    cp "${sources[$i]}" "$work/carta-${labels[$i]}"
    bins+=("$work/carta-${labels[$i]}")
done
# The game, where its replicas are copied from, and what each edit kind
# finds and writes in `r0.toml` (see `edit`).
if [ "${GAME:-intrepidos}" = starter ]; then
    game=duel
    mkdir -p "$work/init"
    target/release/carta -C "$work/init" init --game "$game" > /dev/null 2>&1
    from=(--from "$work/init")
    number='0,/^cost = [35]$/{s/^cost = 3$/cost = 5/;t;s/^cost = 5$/cost = 3/}'
    named=Fireball
    new_card='kind = "spell"\nname = "Bench %s"\ncost = 1\nelement = "fire"\neffect = "x"\n'
else
    game=intrepidos
    from=()
    # line 1057 is the first card with `min_level = 1`; 1 <-> 2
    number='1057s/min_level = 1/min_level = 2/;t;1057s/min_level = 2/min_level = 1/'
    named="Golpe Certeiro"
    new_card='kind = "action"\nname = "Bench %s"\neffect = "x"\nflavour = "y"\n'
fi
for i in "${!bins[@]}"; do
    target/release/examples/replicate --game "$game" --cards "$n" "${from[@]}" --out "$work/ws$i" > /dev/null
    "${bins[$i]}" -C "$work/ws$i" -q check > /dev/null || true
done
# The workspaces just written go to disk now, not during the runs: while
# a large writeback ran, each file a check created took 0.5-1.5 ms.
sync

# Microseconds of one run of carta, wall and CPU (user + system, from
# `wait4`'s rusage: the kernel's per-task runtime, not 10 ms ticks; on a
# loaded machine the wall time waits for a core): "wall cpu". Exit 0 or 1
# both count: a check that finds problems ran.
us() {
    python3 - "$@" <<'PY' || { echo "failed: $*" >&2; exit 1; }
import os, sys, time
null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=null)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
if os.waitstatus_to_exitcode(status) not in (0, 1):
    sys.exit(f"exit status {os.waitstatus_to_exitcode(status)}")
print(round(wall * 1e6), round((usage.ru_utime + usage.ru_stime) * 1e6))
PY
}

# Keeps the best (lowest) of each of the two figures under key $1.
keep() {
    local k=$1 wall=$2 cpu=$3
    if [ -z "${best[$k]:-}" ] || [ "$wall" -lt "${best[$k]}" ]; then best[$k]=$wall; fi
    if [ -z "${cpu_best[$k]:-}" ] || [ "$cpu" -lt "${cpu_best[$k]}" ]; then cpu_best[$k]=$cpu; fi
    walls[$k]+=" $wall"
}

# The median and the largest of the wall times kept under key $1: "p50 max".
spread() {
    tr ' ' '\n' <<< "${walls[$1]}" | sed '/^$/d' | sort -n | awk '{v[NR] = $1} END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[NR] }'
}

# One edit of kind $1, run $2, to workspace $3 (not timed).
edit() {
    local f="$3/cards/$game/r0.toml"
    case $1 in
        nothing) ;;
        number) sed -i "$number" "$f" ;;
        effect) sed -i "0,/^effect = \"/s//effect = \"($2) /" "$f" ;;
        name) sed -i "0,/^name = \"$named[^\"]*\"/s//name = \"$named $2\"/" "$f" ;;
        # shellcheck disable=SC2059
        new) printf "[[card]]\nid = \"bench-new-%s\"\n$new_card" "$2" "$2" \
            > "$3/cards/$game/bench-new.toml" ;;
        deleted) rm -f "$3/cards/$game/bench-new.toml" ;;
    esac
}

declare -A best cpu_best walls
# Which binary goes first swaps from round to round, and halfway
# through the two binaries swap workspaces (each then checks its new one
# twice, untimed, to make its caches there): the same binary measured
# 0.5-1 ms slower in every row, the unchanged ones too, on one of two
# workspaces made alike, whichever went first.
swap=0
for r in $(seq "$runs"); do
    if [ "${#bins[@]}" -gt 1 ] && [ "$swap" = 0 ] && [ $((2 * r)) -gt "$runs" ]; then
        swap=1
        for i in "${!bins[@]}"; do
            for _ in 1 2; do "${bins[$i]}" -C "$work/ws$((1 - i))" -q check > /dev/null || true; done
        done
    fi
    order=("${!bins[@]}")
    if [ "${#bins[@]}" -gt 1 ] && [ $((r % 2)) -eq 0 ]; then order=(1 0); fi
    for i in "${order[@]}"; do
        ws="$work/ws$(( (i + swap) % ${#bins[@]} ))"
        # shellcheck disable=SC2046
        keep "full$i" $(us "${bins[$i]}" -C "$ws" -q check --no-cache)
        for kind in nothing number effect name new deleted; do
            # A new card file needs none before it; a deleted one, one to delete.
            if [ "$kind" = deleted ]; then edit new "$r" "$ws"; "${bins[$i]}" -C "$ws" -q check > /dev/null || true; fi
            if [ "$kind" = new ]; then edit deleted "$r" "$ws"; "${bins[$i]}" -C "$ws" -q check > /dev/null || true; fi
            edit "$kind" "$r" "$ws"
            # shellcheck disable=SC2046
            keep "$kind$i" $(us "${bins[$i]}" -C "$ws" -q check)
        done
    done
done

pct() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f%%", 100 * a / b}'; }
# Microseconds as milliseconds, to a tenth.
msec() { awk -v u="$1" 'BEGIN{printf "%.1f ms", u / 1000}'; }
# Prints a table: its title cell, each binary's header cells (`@` its
# label), their rule, and the function giving a binary's cells of a row
# (from the edit kind and the binary's index).
table() {
    local head="| $1 |" rule="|---|" row l kind i
    for l in "${labels[@]}"; do head+=" ${2//@/$l} |"; rule+=$3; done
    echo "$head"
    echo "$rule"
    for kind in full nothing number effect name new deleted; do
        if [ "$kind" = full ]; then row="| full check (\`--no-cache\`) |"; else row="| $kind |"; fi
        for i in "${!bins[@]}"; do row+=" $("$4" "$kind" "$i") |"; done
        echo "$row"
    done
}
# The best wall and CPU times of kind $1 for binary $2, and their shares.
best_cells() {
    echo "$(msec "${best[$1$2]}") | $(pct "${best[$1$2]}" "${best[full$2]}") | $(msec "${cpu_best[$1$2]}") | $(pct "${cpu_best[$1$2]}" "${cpu_best[full$2]}")"
}
# The median wall time of kind $1 for binary $2, its share, and the slowest.
spread_cells() {
    local mid most full
    read -r mid most < <(spread "$1$2")
    read -r full _ < <(spread "full$2")
    echo "$(msec "$mid") | $(pct "$mid" "$full") | $(msec "$most")"
}
table "edit ($n cards, best of $runs; wall, CPU)" "@ | @ ÷ full | @ CPU | CPU ÷ full" "---:|---:|---:|---:|" best_cells
echo
table "edit ($n cards, $runs runs; wall)" "@ median | ÷ full median | @ slowest" "---:|---:|---:|" spread_cells
