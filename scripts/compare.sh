#!/usr/bin/env bash
# Same-run comparison of commands (docs/performance.md): runs each command
# in turn, ROUNDS times — A, B, C, A, B, C, … — so that all of them see the
# same load on a shared machine, then prints per command the median and
# best wall time, the median CPU time (user + system) and the peak RSS and,
# where `perf` is installed, the median and best task-clock (the CPU time
# of every thread, to the millisecond: what a loaded machine cannot
# inflate much) and the median count of page faults.
#
#   scripts/compare.sh 10 "old/carta -C ws -q check --no-cache" "target/release/carta -C ws -q check --no-cache"
set -euo pipefail
rounds=$1
shift
log=$(mktemp)
stat=$(mktemp)
trap 'rm -f "$log" "$stat"' EXIT
perf=()
if command -v perf > /dev/null; then
    perf=(perf stat -x, -e task-clock,page-faults -o "$stat")
fi
for _ in $(seq "$rounds"); do
    i=0
    for command in "$@"; do
        "${perf[@]}" /usr/bin/time -f "$i %e %U %S %M" -a -o "$log" sh -c "$command" > /dev/null 2>&1
        if [ ${#perf[@]} -gt 0 ]; then
            awk -F, -v i="$i" '/task-clock/ {t = $1} /page-faults/ {f = $1} END {print "cpu", i, t, f}' \
                "$stat" >> "$log"
        fi
        i=$((i + 1))
    done
done
python3 - "$log" "$@" <<'PY'
import statistics as st
import sys

lines = [line.split() for line in open(sys.argv[1])]
rows = [r for r in lines if r[0].isdigit()]
clocks = [r[1:] for r in lines if r[0] == "cpu"]
for i, command in enumerate(sys.argv[2:]):
    mine = [r for r in rows if r[0] == str(i)]
    wall = [float(r[1]) for r in mine]
    cpu = [float(r[2]) + float(r[3]) for r in mine]
    rss = max(int(r[4]) for r in mine) // 1024
    line = (f"{st.median(wall):.3f} s median, {min(wall):.3f} s best, "
            f"CPU {st.median(cpu):.3f} s, {rss} MiB")
    tasks = [(float(c[1]), float(c[2])) for c in clocks if c[0] == str(i)]
    if tasks:
        line += (f", task-clock {st.median(t for t, _ in tasks):.1f} ms median, "
                 f"{min(t for t, _ in tasks):.1f} ms best, "
                 f"{st.median(f for _, f in tasks):.0f} page faults")
    print(f"{line} | {command}")
PY
