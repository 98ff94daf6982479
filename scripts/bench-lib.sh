# Sourced by the benchmarks that time whole commands: `measure CMD…`
# prints the best wall time (s) of CMD over $runs runs, its output
# discarded, in the folder $work (which the caller makes).
measure() {
    local best="" t
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o "$work/time" "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
        t=$(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    done
    echo "$best"
}

# `build_release EXAMPLE…` builds carta and the named examples in release
# and sets $carta and $examples to where they are ($CARGO_TARGET_DIR or
# target/).
build_release() {
    local example
    for example in "$@"; do cargo build --release --quiet --example "$example"; done
    cargo build --release --quiet
    carta=${CARGO_TARGET_DIR:-$PWD/target}/release/carta
    examples=$(dirname "$carta")/examples
}
