#!/usr/bin/env bash
# What a player's collection costs the deck builder's verdict
# (docs/performance.md, "Deck builder: the collection"): `carta serve` on
# the intrépidos pack replicated to CARDS cards (examples/replicate.rs),
# then N verdict requests of a replicated example deck on one keep-alive
# connection, in turn: with no collection file (the baseline, measured in
# the same run), and with a collection that owns every card of the pool
# (`decks/<game>/collection.toml`, CARDS lines: the verdict then also
# answers what the deck lacks from it). Then N collection reads
# (GET /api/games/<g>/collection). Prints p50, p99 and max of each in ms.
#
#   scripts/bench-collection.sh
#   CARDS=20000 N=1000 PORT=7898 scripts/bench-collection.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${CARDS:-20000}
n=${N:-1000}
port=${PORT:-7898}
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
import glob, http.client, json, os, sys, time, tomllib
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

verdict = f"/api/games/{game}/verdict"
without = times("POST", verdict, body)
c.request("GET", f"/api/games/{game}", headers={"Host": headers["Host"]})
ids = [card["id"] for card in json.loads(c.getresponse().read())["cards"]]
os.makedirs(f"{ws}/decks/{game}", exist_ok=True)
with open(f"{ws}/decks/{game}/collection.toml", "w") as f:
    f.write(f'game = "{game}"\n\n[cards]\n' + "".join(f"{i} = 1\n" for i in ids))
time.sleep(1.5)  # a file changed in the last second is read again each time
owned = times("POST", verdict, body)
lacking = json.loads(owned[3])["collection"]
read = times("GET", f"/api/games/{game}/collection", None)
cards = sum(sum(z.values()) for z in zones.values())
print(f"{n} requests each; deck `{path.rsplit('/', 1)[-1]}` ({cards} cards); "
      f"collection of {len(ids)} cards, {lacking['total']} copies missing")
print("| request | p50 | p99 | max |")
print("|---|---|---|---|")
print(f"| baseline: verdict, no collection | {without[0]:.2f} ms | {without[1]:.2f} ms | {without[2]:.2f} ms |")
print(f"| verdict with the collection | {owned[0]:.2f} ms | {owned[1]:.2f} ms | {owned[2]:.2f} ms |")
print(f"| GET the collection | {read[0]:.2f} ms | {read[1]:.2f} ms | {read[2]:.2f} ms |")
PY
