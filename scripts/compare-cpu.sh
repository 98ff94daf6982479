#!/usr/bin/env bash
# Same-run comparison of commands by CPU time to the millisecond
# (docs/performance.md): runs each command in turn, ROUNDS times — A, B, C,
# A, B, C, … — under `perf stat`, then prints per command the median and
# best task-clock (user + system CPU of every thread) and the median count
# of page faults. `scripts/compare.sh` gives wall time and peak memory;
# this gives the CPU time a loaded machine cannot inflate much.
#
#   scripts/compare-cpu.sh 12 "old/carta -C ws -q check --no-cache" "target/release/carta -C ws -q check --no-cache"
set -euo pipefail
rounds=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq "$rounds"); do
    i=0
    for command in "$@"; do
        perf stat -x, -e task-clock,page-faults sh -c "$command" 2>&1 >/dev/null |
            awk -F, -v i="$i" '/task-clock/ {t = $1} /page-faults/ {f = $1} END {print i, t, f}' >> "$log"
        i=$((i + 1))
    done
done
python3 - "$log" "$@" <<'PY'
import statistics as st
import sys

rows = [line.split() for line in open(sys.argv[1])]
for i, command in enumerate(sys.argv[2:]):
    mine = [r for r in rows if r[0] == str(i)]
    cpu = [float(r[1]) for r in mine]
    faults = [float(r[2]) for r in mine]
    print(f"CPU {st.median(cpu):.1f} ms median, {min(cpu):.1f} ms best, "
          f"{st.median(faults):.0f} page faults | {command}")
PY
