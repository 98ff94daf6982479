#!/usr/bin/env bash
# Deck-builder verdict latency (docs/performance.md, "Deck builder: verdict
# latency"): `carta serve` on the intrépidos pack replicated to CARDS cards
# (examples/replicate.rs, real schemas and rules), then N verdict requests
# (POST /api/games/<g>/verdict, the request the page makes on every edit)
# of a replicated example deck on one keep-alive connection, against a
# baseline measured in the same run: N requests of the cheapest route
# (GET /api/games, no judging). Prints p50, p99 and max of each in ms.
#
#   scripts/bench-verdict.sh
#   CARDS=20000 N=1000 PORT=7899 scripts/bench-verdict.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${CARDS:-20000}
n=${N:-1000}
port=${PORT:-7899}
game=intrepidos
cargo build --release --quiet --example replicate
cargo build --release --quiet
work=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
target/release/examples/replicate --game "$game" --cards "$cards" --out "$work/ws" > /dev/null
target/release/carta -C "$work/ws" serve "$game" --port "$port" > "$work/serve.log" 2>&1 &
server=$!
python3 - "$work/ws" "$game" "$port" "$n" <<'PY'
import glob, http.client, json, sys, time, tomllib
ws, game, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
deadline = time.time() + 600
while True:  # the server compiles the game before it listens
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        c.request("GET", "/api/games")
        c.getresponse().read()
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("carta serve did not answer")
        time.sleep(0.5)
path = sorted(glob.glob(f"{ws}/cards/{game}/decks/*.toml"))[0]
deck = tomllib.load(open(path, "rb"))
zones = {k: v for k, v in deck.items() if isinstance(v, dict)}
body = json.dumps({"name": deck.get("name", ""), "zones": zones}).encode()
headers = {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"}

def times(method, url, data):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        c.request(method, url, body=data, headers=headers if data else {"Host": headers["Host"]})
        r = c.getresponse()
        payload = r.read()
        out.append((time.perf_counter() - t) * 1000)
        if r.status != 200:
            sys.exit(f"{url}: {r.status} {payload[:200]!r}")
    out.sort()
    return out[len(out) // 2], out[min(len(out) - 1, int(len(out) * 0.99))], out[-1], payload

base = times("GET", "/api/games", None)
verdict = times("POST", f"/api/games/{game}/verdict", body)
cards = sum(sum(z.values()) for z in zones.values())
legal = json.loads(verdict[3]).get("legal")
print(f"{n} requests each; deck `{path.rsplit('/', 1)[-1]}` ({cards} cards, legal: {legal})")
print("| request | p50 | p99 | max |")
print("|---|---|---|---|")
print(f"| baseline: GET /api/games | {base[0]:.2f} ms | {base[1]:.2f} ms | {base[2]:.2f} ms |")
print(f"| verdict | {verdict[0]:.2f} ms | {verdict[1]:.2f} ms | {verdict[2]:.2f} ms |")
PY
