#!/usr/bin/env python3
# carta's side of save to screen, without a browser: starts `carta watch
# --serve` in WS, renames the first card of GAME's first card file ROUNDS
# times (PAUSE seconds apart, default 0.6), and prints the medians of the
# time from the write to the server's event, of fetching the page after it,
# and of the watch process's CPU time per round (docs/performance.md).
#   scripts/watch-round.py CARTA WS GAME [ROUNDS]
import subprocess, sys, time, threading, urllib.request, re, os, shutil, statistics
carta, ws, game = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 10
p = subprocess.Popen([carta, "watch", "--serve", "--port", "0"], cwd=ws, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=dict(os.environ, NO_COLOR="1"))
url = None
for line in p.stderr:
    m = re.search(r"http://\S+", line)
    if m: url = m.group(0); break
threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
events = []
def sse():
    r = urllib.request.urlopen(url + "events")
    for line in r:
        if line.startswith(b"data:"): events.append((time.time(), line.strip()))
threading.Thread(target=sse, daemon=True).start()
time.sleep(0.5)
files = sorted(f for f in subprocess.check_output(["find", f"{ws}/cards/{game}", "-name", "*.toml", "-not", "-path", "*/decks/*", "-not", "-path", "*/i18n/*", "-not", "-name", "game.toml"], text=True).split())
f = next(f for f in files if "[[card]]" in open(f).read())
text = open(f).read()
m = re.search(r'\[\[card\]\][\s\S]*?\nname = "([^"]*)"', text)
name = m.group(1)
def cpu():
    st = open(f"/proc/{p.pid}/stat").read().split(") ")[1].split()
    return (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")
tell, fetch, cpus = [], [], []
for i in range(rounds + 2):
    n = len(events); c0 = cpu()
    t0 = time.time()
    open(f, "w").write(text.replace(f'name = "{name}"', f'name = "Bench {i}"', 1))
    while len(events) == n: time.sleep(0.002)
    t1 = events[n][0]
    body = urllib.request.urlopen(url + f"g/{game}/").read()
    t2 = time.time()
    time.sleep(float(os.environ.get("PAUSE", "0.6")))
    if i >= 2:
        tell.append((t1 - t0) * 1000); fetch.append((t2 - t1) * 1000); cpus.append((cpu() - c0) * 1000)
open(f, "w").write(text)
p.kill()
q = lambda xs: f"p50 {statistics.median(xs):.0f} max {max(xs):.0f}"
print(f"{game}: write->event {q(tell)} ms; event->page fetched {q(fetch)} ms ({len(body)} B); carta CPU/round {q(cpus)} ms")
