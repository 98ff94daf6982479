#!/usr/bin/env bash
# Deck-builder verdict latency (docs/performance.md, "Deck builder: verdict
# latency"): `carta serve` on the intrépidos pack replicated to CARDS cards
# (examples/replicate.rs, real schemas and rules), then N verdict requests
# (POST /api/games/<g>/verdict, the request the page makes on every edit)
# of a replicated example deck on one keep-alive connection, against a
# baseline measured in the same run: N requests of the cheapest route
# (GET /api/games, no judging). With BEFORE=<another carta binary> (an
# older build, say main's), that binary serves a copy of the workspace too
# and its verdicts are timed in the same run, rounds interleaved, so both
# see the same load. Prints p50, p99 and max of each in ms, the server's
# CPU time per request, the answer's size, and the ratios to BEFORE.
#
#   scripts/bench-verdict.sh
#   CARDS=20000 N=1000 PORT=7899 BEFORE=old/carta scripts/bench-verdict.sh
#   CARTA=new/carta REPLICATE=new/replicate BEFORE=old/carta scripts/bench-verdict.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${CARDS:-20000}
n=${N:-1000}
port=${PORT:-7899}
before=${BEFORE:-}
game=intrepidos
# CARTA and REPLICATE name binaries built already (copies kept aside while
# the sources change); by default both are built here.
carta=${CARTA:-}
replicate=${REPLICATE:-}
if [ -z "$replicate" ]; then
    cargo build --release --quiet --example replicate
    replicate=target/release/examples/replicate
fi
if [ -z "$carta" ]; then
    cargo build --release --quiet
    carta=target/release/carta
fi
work=$(mktemp -d)
servers=()
cleanup() {
    for s in "${servers[@]}"; do kill "$s" 2> /dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
"$replicate" --game "$game" --cards "$cards" --out "$work/ws" > /dev/null
"$carta" -C "$work/ws" serve "$game" --port "$port" > "$work/serve.log" 2>&1 &
servers+=($!)
targets="after:$port:$!"
if [ -n "$before" ]; then
    cp -r "$work/ws" "$work/ws-before"
    "$before" -C "$work/ws-before" serve "$game" --port $((port + 1)) > "$work/serve-before.log" 2>&1 &
    servers+=($!)
    targets="before:$((port + 1)):$! $targets"
fi
python3 - "$work/ws" "$game" "$n" $targets <<'PY'
import glob, http.client, json, os, sys, time, tomllib
ws, game, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
servers = [t.split(":") for t in sys.argv[4:]]  # name, port, pid
tick = os.sysconf("SC_CLK_TCK")

def connect(port):
    deadline = time.time() + 600
    while True:  # the server compiles the game before it listens
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("GET", "/api/games")
            c.getresponse().read()
            return c
        except OSError:
            if time.time() > deadline:
                sys.exit(f"carta serve on port {port} did not answer")
            time.sleep(0.5)

def cpu(pid):
    """The process's user + system CPU seconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick

conns = {name: (connect(int(port)), int(port), pid) for name, port, pid in servers}
path = sorted(glob.glob(f"{ws}/cards/{game}/decks/*.toml"))[0]
deck = tomllib.load(open(path, "rb"))
zones = {k: v for k, v in deck.items() if isinstance(v, dict)}
body = json.dumps({"name": deck.get("name", ""), "zones": zones}).encode()

def run(name, method, url, data, count, out):
    c, port, pid = conns[name]
    headers = {"Host": f"127.0.0.1:{port}"}
    if data:
        headers["Content-Type"] = "application/json"
    start = cpu(pid)
    for _ in range(count):
        t = time.perf_counter()
        c.request(method, url, body=data, headers=headers)
        r = c.getresponse()
        payload = r.read()
        out["ms"].append((time.perf_counter() - t) * 1000)
        if r.status != 200:
            sys.exit(f"{name} {url}: {r.status} {payload[:200]!r}")
    out["cpu"] += cpu(pid) - start
    out["payload"] = payload

# Interleaved rounds: every series sees the same load.
series = {"baseline": ("after", "GET", "/api/games", None)}
for name in conns:
    series[name] = (name, "POST", f"/api/games/{game}/verdict", body)
results = {s: {"ms": [], "cpu": 0.0, "payload": b""} for s in series}
rounds = 10
for r in range(rounds):
    for s, (name, method, url, data) in series.items():
        run(name, method, url, data, n // rounds, results[s])

def stats(s):
    ms = sorted(results[s]["ms"])
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))], ms[-1]

cards = sum(sum(z.values()) for z in zones.values())
legal = json.loads(results["after"]["payload"]).get("legal")
print(f"{n} requests each, {rounds} interleaved rounds; deck `{path.rsplit('/', 1)[-1]}` ({cards} cards, legal: {legal})")
print("| request | p50 | p99 | max | server CPU per request | answer |")
print("|---|---|---|---|---|---|")
for s in series:
    p50, p99, mx = stats(s)
    label = "baseline: GET /api/games" if s == "baseline" else f"verdict ({s})"
    per = results[s]["cpu"] * 1000 / len(results[s]["ms"])
    size = len(results[s]["payload"])
    print(f"| {label} | {p50:.2f} ms | {p99:.2f} ms | {mx:.2f} ms | {per:.2f} ms | {size:,} B |")
if "before" in results:
    if results["before"]["payload"] != results["after"]["payload"]:
        print("the two builds answer differently")
    b, a = stats("before"), stats("after")
    print(f"after ÷ before: p50 {a[0] / b[0]:.3f}, p99 {a[1] / b[1]:.3f}")
PY
