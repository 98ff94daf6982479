//! `carta watch --serve` driven for real: headless Chromium through
//! chromedriver watches the preview while the test edits, breaks and fixes
//! a card on disk, never reloading the page itself.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};

use crate::harness::{repo, run_in};

/// A program the test needs: `$VAR`, or `name` in /usr/bin or on the PATH.
pub(crate) fn program(var: &str, names: &[&str]) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    let paths = std::env::var_os("PATH").unwrap_or_default();
    names
        .iter()
        .flat_map(|n| std::env::split_paths(&paths).map(move |d| d.join(n)))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("no {names:?} on the PATH: run scripts/install-test-deps.sh (the browser tests never skip)")
        })
}

/// Kills a child process when dropped (a failing test leaves none behind).
pub(crate) struct Killed(pub(crate) Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `carta watch --serve --port 0` in `root`; the process and the
/// preview's URL.
pub(crate) fn start_watch(root: &Path) -> (Killed, String) {
    start_server(root, &["watch", "--serve", "--port", "0"])
}

/// Starts carta with `args` in `root` and waits for the address its server
/// prints (on loopback); the process and that URL.
pub(crate) fn start_server(root: &Path, args: &[&str]) -> (Killed, String) {
    start_server_with(root, args, &[])
}

/// [`start_server`] with more environment variables (the server's limits).
pub(crate) fn start_server_with(
    root: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Killed, String) {
    let (process, mut lines) = spawn_carta(root, args, env, &[]);
    let url = lines
        .find_map(|line| {
            let at = line.find("http://")?;
            Some(line[at..].split_whitespace().next()?.to_owned())
        })
        .unwrap_or_else(|| panic!("carta {} prints its address", args[0]));
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (process, url)
}

/// Starts carta with `args` in `root`, with `env` and without the variables
/// `unset`; the process and its stderr, line by line (an iterator that
/// ends after two minutes without a line).
pub(crate) fn spawn_carta(
    root: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    unset: &[&str],
) -> (Killed, impl Iterator<Item = String>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_carta"));
    cmd.args(args)
        .current_dir(root)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for var in unset {
        cmd.env_remove(var);
    }
    let mut child = cmd.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    // Keeps draining stderr so that the server never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let lines = std::iter::from_fn(move || rx.recv_timeout(Duration::from_mins(2)).ok());
    (Killed(child), lines)
}

/// Starts chromedriver and a headless Chromium session.
pub(crate) async fn browser(profile: &Path) -> (Killed, Client) {
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

pub(crate) async fn page_text(client: &Client) -> String {
    client
        .execute(
            "return document.body ? document.body.innerText : ''",
            vec![],
        )
        .await
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Waits up to `limit` for the page's text to satisfy `ok`.
pub(crate) async fn wait_for(
    client: &Client,
    limit: Duration,
    what: &str,
    ok: impl Fn(&str) -> bool,
) {
    let start = Instant::now();
    loop {
        let text = page_text(client).await;
        if ok(&text) {
            return;
        }
        assert!(
            start.elapsed() <= limit,
            "after {limit:?} the page still does not show {what}:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Line (1-based) of the first line of `text` equal to `line`.
fn line_of(text: &str, line: &str) -> usize {
    text.lines()
        .position(|l| l == line)
        .expect("the line is there")
        + 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_follows_edits_and_shows_broken_sources_over_the_last_good_build() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("live");
    run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let (_watch, url) = start_watch(&root);
    let (_driver, client) = browser(&tmp.path().join("profile")).await;
    client.goto(&format!("{url}g/live/")).await.unwrap();
    wait_for(&client, Duration::from_secs(5), "the card", |t| {
        t.contains("Ember Shield")
    })
    .await;
    assert!(
        page_text(&client).await.contains("legal"),
        "the deck's verdict is shown"
    );

    // Rename a card on disk: the page shows the new name within 2 s, by itself.
    let spells = root.join("cards/live/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replace("Ember Shield", "Ember Wall")).unwrap();
    wait_for(&client, Duration::from_secs(2), "the new name", |t| {
        t.contains("Ember Wall") && !t.contains("Ember Shield")
    })
    .await;

    // Break it: the overlay names the file and line, over the last good build.
    let renamed = good.replace("Ember Shield", "Ember Wall");
    let line = line_of(&renamed, "cost = 1");
    let broken = renamed.replacen("cost = 1\n", "cost = \"one\"\n", 1);
    std::fs::write(&spells, &broken).unwrap();
    let place = format!("cards/live/spells.toml:{line}:8");
    wait_for(&client, Duration::from_secs(2), &place, |t| {
        t.contains(&place) && t.contains("must be an integer") && t.contains("Ember Wall")
    })
    .await;
    if std::env::var_os("CARTA_BLESS").is_some() {
        let png = client.screenshot().await.unwrap();
        std::fs::write(repo().join("docs/img/watch-preview.png"), png).unwrap();
    }

    // Fix it: the overlay goes.
    std::fs::write(&spells, &renamed).unwrap();
    wait_for(&client, Duration::from_secs(2), "no overlay", |t| {
        !t.contains(&place) && t.contains("Ember Wall")
    })
    .await;
    client.close().await.unwrap();
}

/// Waits up to `limit` for `ok`.
fn wait_until(limit: Duration, what: &str, ok: impl Fn() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "after {limit:?}: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn modified(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

#[test]
fn watch_rebuilds_only_the_game_a_save_touches_and_a_broken_save_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    run_in(tmp.path(), ["init", "--game", "alpha"]).succeeds();
    run_in(tmp.path(), ["init", "--game", "beta"]).succeeds();
    let mut child = Command::new(env!("CARGO_BIN_EXE_carta"))
        .arg("watch")
        .current_dir(tmp.path())
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let _watch = Killed(child);
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut log = sink.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    let seen = |text: &str| log.lock().unwrap().contains(text);
    wait_until(Duration::from_mins(1), "watching", || {
        seen("watching cards/")
    });
    let alpha = tmp.path().join("build/alpha/alpha.carta");
    let beta = tmp.path().join("build/beta/beta.carta");
    let (alpha_before, beta_before) = (modified(&alpha), modified(&beta));

    let spells = tmp.path().join("cards/alpha/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replace("Fireball", "Firestorm")).unwrap();
    wait_until(Duration::from_secs(5), "alpha rebuilt", || {
        modified(&alpha) != alpha_before
    });
    assert_eq!(
        modified(&beta),
        beta_before,
        "beta was not touched, so not rebuilt"
    );
    let decompiled = run_in(tmp.path(), ["decompile", "build/alpha/alpha.carta"]).succeeds();
    assert!(decompiled.stdout.contains("Firestorm"));

    // A broken save: the error is printed, and the last good bundle stays.
    let alpha_good = modified(&alpha);
    std::fs::write(&spells, good.replace("cost = 3", "cost = \"three\"")).unwrap();
    wait_until(Duration::from_secs(5), "the error printed", || {
        seen("must be an integer") && seen("nothing rebuilt")
    });
    assert_eq!(modified(&alpha), alpha_good, "a broken save writes nothing");
    let decompiled = run_in(tmp.path(), ["decompile", "build/alpha/alpha.carta"]).succeeds();
    assert!(decompiled.stdout.contains("Firestorm"));
}

#[test]
fn a_busy_port_or_a_foreign_address_names_the_option_that_changes_it() {
    let ws = crate::harness::Workspace::shipped(&["zodiacos"]);
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let in_use = format!("port {port} is in use on 127.0.0.1: choose another with `--port N`");
    for args in [
        &["serve", "--port", &port][..],
        &["watch", "--serve", "--port", &port],
    ] {
        ws.run(args)
            .code(2)
            .stderr_has(&in_use)
            .stderr_has("--port 0");
    }
    let json = ws.run(["--message-format", "json", "serve", "--port", &port]);
    let json = json.code(2).json();
    let last = json.last().unwrap();
    assert_eq!(last["code"], "watch::failed");
    assert!(
        last["message"].as_str().unwrap().contains(&in_use),
        "{last}"
    );
    // 192.0.2.1 (TEST-NET-1) is no machine's; `watch` says `--host` as
    // `serve` does, and still takes `--bind`, its former name.
    let foreign = "192.0.2.1 is not an address of this machine: choose one with `--host IP`";
    for args in [
        &["serve", "--host", "192.0.2.1", "--port", "0"][..],
        &["watch", "--serve", "--host", "192.0.2.1", "--port", "0"],
        &["watch", "--serve", "--bind", "192.0.2.1", "--port", "0"],
    ] {
        ws.run(args).code(2).stderr_has(foreign);
    }
    let help = ws.run(["watch", "--help"]).succeeds();
    assert!(help.stdout.contains("--host <IP>") && !help.stdout.contains("--bind <IP>"));
    drop(busy);
}

/// The body of a GET of `path` on the server at `base` (HTTP/1.0, so it
/// comes whole, not chunked).
pub(crate) fn get_body(base: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let host = base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    body.to_owned()
}

/// Starts `carta [-v] watch --serve` on a game whose rules name no
/// `source`, with a card broken; the overlay's HTML once it shows the error.
fn broken_overlay(verbose: bool) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("live");
    run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let spells = root.join("cards/live/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replacen("cost = 1\n", "cost = \"one\"\n", 1)).unwrap();
    let args: &[&str] = if verbose {
        &["-v", "watch", "--serve", "--port", "0"]
    } else {
        &["watch", "--serve", "--port", "0"]
    };
    let (_watch, url) = start_server(&root, args);
    // The first round ran before the address was printed.
    get_body(&url, "/")
}

#[test]
fn the_overlay_shows_errors_first_and_advice_only_with_verbose_folded_away() {
    let page = broken_overlay(false);
    assert!(page.contains("schema::type"), "{page}");
    assert!(
        !page.contains("rules::source"),
        "advice nags on every save without -v: {page}"
    );
    let page = broken_overlay(true);
    let error = page.find("schema::type").expect(&page);
    let details = page.find("<details><summary>").expect(&page);
    let advice = page.find("rules::source").expect(&page);
    assert!(error < details && details < advice, "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_puts_an_edit_in_place_without_reloading_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("live");
    run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let (_watch, url) = start_watch(&root);
    let (_driver, client) = browser(&tmp.path().join("profile")).await;
    client.goto(&format!("{url}g/live/")).await.unwrap();
    wait_for(&client, Duration::from_secs(5), "the card", |t| {
        t.contains("Ember Shield")
    })
    .await;
    // Something only this page load has: a reload would lose it.
    client
        .execute("window.cartaMark = 'same page'; return null", vec![])
        .await
        .unwrap();
    let spells = root.join("cards/live/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replace("Ember Shield", "Ember Wall")).unwrap();
    wait_for(&client, Duration::from_secs(2), "the new name", |t| {
        t.contains("Ember Wall") && !t.contains("Ember Shield")
    })
    .await;
    let mark = client
        .execute("return window.cartaMark || null", vec![])
        .await
        .unwrap();
    assert_eq!(
        mark,
        serde_json::json!("same page"),
        "the page was not reloaded"
    );
    // The sheets' own script ran again on the new body (it sizes `.fit`
    // text), and the live script is there once.
    let scripts = client
        .execute(
            "return [document.querySelectorAll('script[data-carta-live]').length, document.querySelectorAll('script:not([data-carta-live])').length]",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(scripts, serde_json::json!([1, 1]));
    client.close().await.unwrap();
}

/// Runs `script` in the page and returns its value.
async fn js(client: &Client, script: &str) -> serde_json::Value {
    client.execute(script, vec![]).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_replaces_only_the_sheets_an_edit_changed_and_fits_those_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("live");
    run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let (_watch, url) = start_watch(&root);
    let (_driver, client) = browser(&tmp.path().join("profile")).await;
    client.goto(&format!("{url}g/live/")).await.unwrap();
    wait_for(&client, Duration::from_secs(5), "the card", |t| {
        t.contains("Ember Shield")
    })
    .await;
    // Each sheet as it is now, the scroll position, and what the fit
    // script is given from now on.
    let before = js(
        &client,
        "var s = document.querySelectorAll('section.carta-sheet');
         s.forEach(function (e) { e.cartaOld = true; });
         window.scrollTo(0, 600);
         var fit = window.cartaFit; window.cartaFitted = [];
         window.cartaFit = function (roots) { window.cartaFitted.push(roots.length); fit(roots); };
         return [s.length, window.scrollY];",
    )
    .await;
    let sheets = before[0].as_u64().unwrap();
    assert!(sheets >= 3, "a cover, faces and backs: {before}");
    assert_eq!(before[1], 600, "the page scrolls: {before}");
    let spells = root.join("cards/live/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replace("Ember Shield", "Ember Wall")).unwrap();
    wait_for(&client, Duration::from_secs(5), "the new name", |t| {
        t.contains("Ember Wall") && !t.contains("Ember Shield")
    })
    .await;
    // The name is on its faces page and in the cover's list: those two
    // sheets are new, every other one is the element it was.
    let after = js(
        &client,
        "var s = Array.prototype.slice.call(document.querySelectorAll('section.carta-sheet'));
         var fresh = s.filter(function (e) { return !e.cartaOld; });
         return [s.length, fresh.length, fresh.filter(function (e) { return e.textContent.indexOf('Ember Wall') >= 0; }).length,
                 window.scrollY, window.cartaFitted];",
    )
    .await;
    assert_eq!(after, serde_json::json!([sheets, 2, 2, 600, [2]]));
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_deck_builder_takes_a_renamed_card_and_keeps_the_deck_being_built() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("live");
    run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let (_watch, url) = start_watch(&root);
    let (_driver, client) = browser(&tmp.path().join("profile")).await;
    client.goto(&format!("{url}play/live/deck")).await.unwrap();
    checked(&client, "1").await;
    // A deck being built: two copies of the card, a name of its own.
    js(
        &client,
        "var add = document.querySelector('.cb-row[data-card=\"ember-shield\"] button[data-add=\"main\"]');
         add.click(); add.click();
         var name = document.getElementById('cb-name'); name.value = 'My deck';
         name.dispatchEvent(new Event('input')); window.cartaMark = 'same page'; return null;",
    )
    .await;
    // Judged: the first deck, two adds and the name.
    checked(&client, "4").await;
    let spells = root.join("cards/live/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replace("Ember Shield", "Ember Wall")).unwrap();
    // The pool, the deck's line and the verdict follow, without a reload.
    wait_for(&client, Duration::from_secs(10), "the new name", |t| {
        t.contains("Ember Wall") && !t.contains("Ember Shield")
    })
    .await;
    let line = ".cb-line[data-line=\"main/ember-shield\"]";
    let state = js(
        &client,
        &format!(
            "var l = document.querySelector('{line}');
             return [window.cartaMark || null, document.getElementById('cb-name').value,
                     l ? l.querySelector('.cb-n').textContent : null, l ? l.textContent.indexOf('Ember Wall') >= 0 : null];"
        ),
    )
    .await;
    assert_eq!(
        state,
        serde_json::json!(["same page", "My deck", "2", true])
    );
    // The deck was judged again, by the new catalog.
    checked(&client, "5").await;
    client.close().await.unwrap();
}

/// Waits until the deck builder shows the verdict of its change `n`.
async fn checked(client: &Client, n: &str) {
    let start = Instant::now();
    loop {
        let now = js(client, "return document.body.dataset.checked || ''").await;
        if now == n {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the deck builder shows the verdict of change {now}, not {n}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Each card's face in the deck builder's catalog of `game`, by id.
fn builder_faces(url: &str, game: &str) -> std::collections::BTreeMap<String, String> {
    let (status, body) = crate::serve::http(
        url,
        "GET",
        &format!("/api/games/{game}"),
        &serde_json::Value::Null,
    );
    assert_eq!(status, 200, "{body}");
    body["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["face"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_deck_builders_faces_of_a_later_round_follow_the_cards_they_show() {
    use crate::sheets::{card, mini};
    let ws = mini(&format!(
        "{}{}{}",
        card("a", "text = \"x\""),
        card("b", "text = \"y\"\nally = \"a\""),
        card("c", "text = \"z\"")
    ));
    let schema = ws.read("schemas/mini/card.schema.json").replace(
        "\"art\": { \"type\": \"string\" }",
        "\"art\": { \"type\": \"string\" },\n    \"ally\": { \"type\": \"string\", \"x-carta-ref\": \"card\" }",
    );
    ws.write("schemas/mini/card.schema.json", schema).write(
        "templates/mini/card.hbs",
        "<p>{{name}}{{#if fields.ally}} ally of {{fields.ally}}{{/if}}</p>\n",
    );
    let (_watch, url) = start_watch(ws.path());
    let faces = builder_faces(&url, "mini");
    assert!(faces["b"].contains("Carta b ally of Carta a"), "{faces:?}");
    // b's card is unchanged: the face remembered from the last round
    // would show a's old name; it follows the rename.
    let cards = ws.read("cards/mini/cards.toml");
    ws.write(
        "cards/mini/cards.toml",
        cards.replacen("\"Carta a\"", "\"Ana\"", 1),
    );
    wait_until(
        Duration::from_secs(20),
        "the builder shows the new name",
        || builder_faces(&url, "mini")["a"].contains("<p>Ana"),
    );
    let faces = builder_faces(&url, "mini");
    assert!(faces["b"].contains("Carta b ally of Ana"), "{faces:?}");
    assert!(faces["c"].contains("<p>Carta c</p>"), "{faces:?}");
    // A template edit: no face is taken from the last round.
    ws.write(
        "templates/mini/card.hbs",
        "<p class=\"again\">{{name}}</p>\n",
    );
    wait_until(
        Duration::from_secs(20),
        "the builder shows the new template",
        || {
            builder_faces(&url, "mini")
                .values()
                .all(|f| f.contains("class=\"again\""))
        },
    );
}
