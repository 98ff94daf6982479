#!/usr/bin/env bash
# Same-run comparison of commands (docs/performance.md): runs each command
# in turn, ROUNDS times — A, B, C, A, B, C, … — so that all of them see the
# same load on a shared machine, then prints per command the median and
# best wall time, the median CPU time (user + system) and the peak RSS.
#
#   scripts/compare.sh 10 "old/carta -C ws -q check --no-cache" "target/release/carta -C ws -q check --no-cache"
set -euo pipefail
rounds=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq "$rounds"); do
    i=0
    for command in "$@"; do
        /usr/bin/time -f "$i %e %U %S %M" -a -o "$log" sh -c "$command" > /dev/null 2>&1
        i=$((i + 1))
    done
done
python3 - "$log" "$@" <<'PY'
import statistics as st
import sys

rows = [line.split() for line in open(sys.argv[1]) if line[0].isdigit()]
for i, command in enumerate(sys.argv[2:]):
    mine = [r for r in rows if r[0] == str(i)]
    wall = [float(r[1]) for r in mine]
    cpu = [float(r[2]) + float(r[3]) for r in mine]
    rss = max(int(r[4]) for r in mine) // 1024
    print(f"{st.median(wall):.3f} s median, {min(wall):.3f} s best, "
          f"CPU {st.median(cpu):.3f} s, {rss} MiB | {command}")
PY
