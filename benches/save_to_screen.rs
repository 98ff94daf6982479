//! Save to screen: how long after a card file is written the preview of
//! `carta watch --serve` shows the change, in a real headless Chromium
//! (driven by chromedriver, as `tests/it/watch.rs` drives it).
//!
//! For each shipped game (and, with `CARTA_BENCH_WORKSPACE=DIR GAME`, a
//! workspace of one's own, such as the 20,000 cards `examples/replicate.rs`
//! makes), the bench starts `carta watch --serve`, opens the game's page,
//! and then, round after round, renames the first card of a card file. The
//! clock starts just before the file is written; it stops in the page, in
//! a `MutationObserver` whose batch of mutations adds the new name to the
//! document (its `Date.now()`, the same clock). Prints the median and the 95th
//! percentile per game, and each round in order: its time, when the
//! server told the page (its event's arrival), and the page's longest task
//! in the round (a `longtask` entry: the page's own work, layout or
//! script, that kept it from showing what it was told).
//!
//! ```sh
//! cargo bench --bench save_to_screen                 # every shipped game, 20 rounds
//! ROUNDS=40 cargo bench --bench save_to_screen -- intrepidos
//! cargo run --release --example replicate -- --game intrepidos --cards 20000 --out /tmp/real
//! PAUSE_MS=5000 CARTA_BENCH_WORKSPACE="/tmp/real intrepidos" cargo bench --bench save_to_screen
//! ```
//!
//! With `CARTA_BENCH_BASE=<another carta binary>`, each game is measured
//! with that binary first and then with this build's, in the same run, and
//! the ratio of their medians is printed (the machine is noisy: only a
//! ratio in one run compares).
//!
//! With `CARTA_BENCH_LOG=FILE`, carta's output from its address on goes to FILE, each line
//! after the Unix time it was read at, and the bench prints when it wrote
//! each round's save, on the same clock: a slow round can then be placed
//! against the rounds carta ran (each ends with its `built …` line).
//!
//! Without `--bench` (`cargo test --benches`, as `scripts/test.sh` runs it)
//! it is a smoke run: one game (zodiacos, the smallest; or the one named),
//! one round, no warm-up and no pause, still asserting that the page shows
//! the save.
//!
//! A missing chromium or chromedriver fails the bench: it never skips.
#![allow(clippy::too_many_lines)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fantoccini::{Client, ClientBuilder};

const GAMES: [&str; 5] = ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"];

/// Kills its process when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A program by environment variable or on the PATH.
fn program(var: &str, names: &[&str]) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    for name in names {
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            if dir.join(name).is_file() {
                return dir.join(name);
            }
        }
    }
    panic!(
        "no {} on the PATH: run scripts/install-test-deps.sh",
        names[0]
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Copies `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A workspace holding only shipped game `game`.
fn shipped(game: &str, dir: &Path) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for part in ["cards", "schemas", "templates"] {
        let from = repo.join(part).join(game);
        if from.is_dir() {
            copy_tree(&from, &dir.join(part).join(game));
        }
    }
}

/// `carta watch --serve` (the binary `carta`) in `root`, once it serves:
/// the process and its URL.
fn start_watch(carta: &Path, root: &Path) -> (Killed, String) {
    let mut child = Command::new(carta)
        .args(["watch", "--serve", "--port", "0"])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("carta starts");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let process = Killed(child);
    loop {
        let line = rx
            .recv_timeout(Duration::from_mins(5))
            .expect("carta watch serves within five minutes");
        if let Some(at) = line.find("http://") {
            let url = line[at..].split_whitespace().next().unwrap().to_owned();
            // Keeps draining stderr so that carta never blocks on a full pipe.
            let log = std::env::var_os("CARTA_BENCH_LOG")
                .map(|p| std::fs::File::create(p).expect("CARTA_BENCH_LOG can be written"));
            std::thread::spawn(move || drain(&rx, log));
            return (process, url);
        }
    }
}

/// Reads carta's output until it ends, into `log` (if any) with the time
/// each line was read.
fn drain(lines: &std::sync::mpsc::Receiver<String>, mut log: Option<std::fs::File>) {
    use std::io::Write as _;
    while let Ok(line) = lines.recv() {
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{:.3} {line}", now_ms() / 1e3);
        }
    }
}

/// chromedriver and a headless Chromium session.
async fn browser(profile: &Path) -> (Killed, Client) {
    let port = free_port();
    let driver = Command::new(program("CARTA_CHROMEDRIVER", &["chromedriver"]))
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Killed(driver);
    let chromium = program("CARTA_CHROMIUM", &["chromium", "chromium-browser"]);
    let caps = serde_json::json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1200,900",
                format!("--user-data-dir={}", profile.display()),
            ]
        }
    });
    let caps = caps.as_object().unwrap().clone();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ClientBuilder::native()
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return (driver, client),
            Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// The first card file of `game` (in path order) and the name of its
/// first card, as written (`name = "…"` after the first `[[card]]`).
fn first_card(root: &Path, game: &str) -> (PathBuf, String) {
    let mut files = Vec::new();
    let mut dirs = vec![root.join("cards").join(game)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("decks") && !path.ends_with("i18n") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "toml") && !path.ends_with("game.toml")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let Some(card) = text.find("[[card]]") else {
            continue;
        };
        if let Some(at) = text[card..].find("\nname = \"") {
            let start = card + at + "\nname = \"".len();
            let end = start + text[start..].find('"').unwrap();
            return (file, text[start..end].to_owned());
        }
    }
    panic!("game {game} has no card file with a named card");
}

/// Installs the observer that records when the page first shows `want`:
/// the time a batch of mutations is delivered, when a node it added or
/// changed holds the text (only those are read, so that the bench's own
/// reading does not grow with the page).
const OBSERVE: &str = "var want = arguments[0]; window.cartaSeenAt = null; window.cartaToldAt = null;
if (!window.cartaEvents) {
  window.cartaEvents = new EventSource('/events');
  window.cartaEvents.onmessage = function () { if (window.cartaToldAt === null) window.cartaToldAt = Date.now(); };
}
if (!window.cartaLong) {
  window.cartaLong = [];
  new PerformanceObserver(function (list) {
    list.getEntries().forEach(function (e) { window.cartaLong.push([performance.timeOrigin + e.startTime, e.duration]); });
  }).observe({ type: 'longtask' });
}
if (window.cartaObserver) window.cartaObserver.disconnect();
function has(n) { return n && n.textContent !== null && n.textContent.indexOf(want) >= 0; }
window.cartaObserver = new MutationObserver(function (records) {
  var at = Date.now();
  if (window.cartaSeenAt !== null) return;
  var seen = records.some(function (r) {
    return r.type === 'characterData' ? has(r.target) : Array.prototype.some.call(r.addedNodes, has);
  });
  if (seen) window.cartaSeenAt = at;
});
window.cartaObserver.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
return null;";

/// The longest task the page ran (a `longtask` entry) between two times:
/// how long its own work kept it from showing a change it was told of.
const LONGEST: &str = "var from = arguments[0], to = arguments[1];
return window.cartaLong.filter(function (t) { return t[0] < to && t[0] + t[1] > from; })
  .reduce(function (m, t) { return Math.max(m, t[1]); }, 0);";

/// Each measured round's save to screen, when the page was told, and the
/// page's longest task in it, in ms.
struct Rounds {
    times: Vec<f64>,
    told: Vec<f64>,
    blocked: Vec<f64>,
}

fn now_ms() -> f64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    since.as_secs_f64() * 1000.0
}

/// How a run is shaped: measured rounds, the warm-up rounds before them,
/// and the pause after each.
#[derive(Clone, Copy)]
struct Plan {
    rounds: usize,
    warm_up: usize,
    pause: Duration,
}

/// Saves a new name into the card `plan.rounds` times (after the warm-up
/// rounds) and measures each save to screen, in ms, and how long after the
/// save the server told the page (the rest is the browser's).
async fn measure(carta: &Path, root: &Path, game: &str, plan: Plan) -> Rounds {
    let (_watch, url) = start_watch(carta, root);
    let profile = tempfile::tempdir().unwrap();
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}g/{game}/")).await.unwrap();
    let (file, name) = first_card(root, game);
    let text = std::fs::read_to_string(&file).unwrap();
    let quoted = format!("name = \"{name}\"");
    let mut times = Vec::new();
    let mut told = Vec::new();
    let mut blocked = Vec::new();
    // The first rounds warm up (the first page, the caches).
    for round in 0..plan.warm_up + plan.rounds {
        let want = format!("Bench {game} {round}");
        client
            .execute(OBSERVE, vec![serde_json::json!(want)])
            .await
            .unwrap();
        let edited = text.replacen(&quoted, &format!("name = \"{want}\""), 1);
        let start = now_ms();
        std::fs::write(&file, edited).unwrap();
        if std::env::var_os("CARTA_BENCH_LOG").is_some() {
            println!("{:.3} wrote the save of round {round}", start / 1e3);
        }
        let deadline = Instant::now() + Duration::from_mins(2);
        let seen = loop {
            let at = client
                .execute("return window.cartaSeenAt", vec![])
                .await
                .unwrap();
            if let Some(at) = at.as_f64() {
                break at;
            }
            assert!(
                Instant::now() < deadline,
                "{game}: the page never showed `{want}`"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        if round >= plan.warm_up {
            times.push(seen - start);
            let at = client
                .execute("return window.cartaToldAt", vec![])
                .await
                .unwrap();
            told.push(at.as_f64().map_or(f64::NAN, |at| at - start));
        }
        // Let the round finish (the deck builder's catalog) before the next.
        tokio::time::sleep(plan.pause).await;
        if round >= plan.warm_up {
            // Read after the pause: the page delivers its long tasks late.
            let longest = client
                .execute(
                    LONGEST,
                    vec![serde_json::json!(start), serde_json::json!(seen)],
                )
                .await
                .unwrap();
            blocked.push(longest.as_f64().unwrap_or(f64::NAN));
        }
    }
    client.close().await.unwrap();
    std::fs::write(&file, text).unwrap();
    Rounds {
        times,
        told,
        blocked,
    }
}

/// How long to wait after a save is seen before the next: `PAUSE_MS`,
/// 400 ms unless set (a round at 20,000 cards goes on after the preview
/// shows it, making the deck builder's catalog).
fn pause() -> Duration {
    let ms = std::env::var("PAUSE_MS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(400);
    Duration::from_millis(ms)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    // Nearest rank.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and
    // then one round on one game checks that the bench runs.
    let full = std::env::args().any(|a| a == "--bench");
    let plan = if full {
        Plan {
            rounds: std::env::var("ROUNDS")
                .ok()
                .and_then(|r| r.parse().ok())
                .unwrap_or(20),
            warm_up: 2,
            pause: pause(),
        }
    } else {
        Plan {
            rounds: 1,
            warm_up: 0,
            pause: Duration::ZERO,
        }
    };
    let mut wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !full && wanted.is_empty() {
        wanted.push("zodiacos".to_owned());
    }
    let mut runs: Vec<(String, PathBuf, Option<tempfile::TempDir>)> = Vec::new();
    if let Ok(spec) = std::env::var("CARTA_BENCH_WORKSPACE") {
        let (dir, game) = spec
            .rsplit_once(' ')
            .expect("CARTA_BENCH_WORKSPACE=\"DIR GAME\"");
        runs.push((game.to_owned(), PathBuf::from(dir), None));
    } else {
        for game in GAMES
            .iter()
            .filter(|g| wanted.is_empty() || wanted.iter().any(|w| w == *g))
        {
            let tmp = tempfile::tempdir().unwrap();
            shipped(game, tmp.path());
            runs.push(((*game).to_owned(), tmp.path().to_path_buf(), Some(tmp)));
        }
    }
    let this = PathBuf::from(env!("CARGO_BIN_EXE_carta"));
    let base = std::env::var_os("CARTA_BENCH_BASE").map(PathBuf::from);
    for (game, root, _keep) in &runs {
        let mut medians = Vec::new();
        for (label, carta) in base
            .iter()
            .map(|b| ("base", b))
            .chain(std::iter::once(("this", &this)))
        {
            let Rounds {
                mut times,
                mut told,
                blocked,
            } = measure(carta, root, game, plan).await;
            // In order, so that a slow round can be placed (the first after
            // the page's load, or any).
            let each = |v: &[f64]| v.iter().map(|t| format!("{t:.0}")).collect::<Vec<_>>();
            println!(
                "{game} ({label}): each round, ms: {}",
                each(&times).join(" ")
            );
            println!(
                "{game} ({label}): told after, ms: {}",
                each(&told).join(" ")
            );
            println!(
                "{game} ({label}): the page's longest task, ms: {}",
                each(&blocked).join(" ")
            );
            times.sort_by(f64::total_cmp);
            told.sort_by(f64::total_cmp);
            let p50 = percentile(&times, 50.0);
            medians.push(p50);
            println!(
                "{game} ({label}): save to screen p50 {p50:.0} ms, p95 {:.0} ms, best {:.0} ms, worst {:.0} ms ({} rounds); the page told after p50 {:.0} ms",
                percentile(&times, 95.0),
                times[0],
                times[times.len() - 1],
                times.len(),
                percentile(&told, 50.0)
            );
        }
        if let [before, after] = medians[..] {
            println!("{game}: p50 this ÷ base {:.2}", after / before);
        }
    }
}
