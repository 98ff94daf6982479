//! `carta serve` driven as a player would: headless Chromium through
//! chromedriver clicks cards into a deck, reads the verdict, breaks a
//! rule, shares the deck as a code and a link, and saves it; the saved file
//! then passes `carta deck check`. The server's refusals (unknown game,
//! card, zone, bad count, oversize body) are asked from the page itself.
//!
//! With `CARTA_BLESS=1` the tests write the README's screenshots to
//! `docs/img/`.

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::harness::{Workspace, repo};
use crate::watch::{Killed, browser, page_text, wait_for};

/// How long any one step may take to show.
const STEP: Duration = Duration::from_secs(10);

/// Starts `carta serve --port 0` in `root`; the process and the builder's URL.
fn start_serve(root: &Path) -> (Killed, String) {
    let (server, url) = crate::watch::start_server(root, &["serve", "--port", "0"]);
    assert!(url.ends_with("/play/"), "{url}");
    (server, url)
}

/// Clicks the element `css` (found afresh: the lists are redrawn after
/// every verdict).
async fn click(client: &Client, css: &str) {
    let start = Instant::now();
    loop {
        let why = match client.find(Locator::Css(css)).await {
            Ok(e) => match e.click().await {
                Ok(()) => return,
                Err(e) => e.to_string(),
            },
            Err(e) => e.to_string(),
        };
        assert!(
            start.elapsed() <= STEP,
            "cannot click `{css}`: {why}\n{}",
            page_text(client).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs `script` in the page and returns its value.
async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// Waits until `script` is truthy in the page.
async fn wait_js(client: &Client, script: &str) {
    let start = Instant::now();
    loop {
        let v = js(client, script).await;
        if v.as_bool() == Some(true) {
            return;
        }
        assert!(
            start.elapsed() <= STEP,
            "`{script}` never held:\n{}",
            page_text(client).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits for the verdict of the deck as it is now.
async fn settled(client: &Client) {
    wait_js(
        client,
        "var s=document.getElementById('cb-status');return !!s && document.body.dataset.checked!==undefined",
    )
    .await;
    // The latest change's answer has arrived once no request is pending.
    tokio::time::sleep(Duration::from_millis(150)).await;
}

async fn status(client: &Client) -> String {
    settled(client).await;
    js(
        client,
        "return document.getElementById('cb-status').firstChild.textContent",
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

/// Adds each (zone, card, copies) by clicking the card's "+ zone" button.
async fn add_all(client: &Client, lines: &[(String, String, u32)]) {
    for (zone, card, n) in lines {
        for _ in 0..*n {
            click(
                client,
                &format!(".cb-row[data-card=\"{card}\"] button[data-add=\"{zone}\"]"),
            )
            .await;
        }
    }
}

/// The lines of a shipped deck file: (zone, card, copies).
fn lines_of(rel: &str) -> Vec<(String, String, u32)> {
    let text = std::fs::read_to_string(repo().join(rel)).unwrap();
    let doc: toml::Table = text.parse().unwrap();
    let mut out = Vec::new();
    for (zone, v) in &doc {
        if let Some(t) = v.as_table() {
            for (card, n) in t {
                out.push((
                    zone.clone(),
                    card.clone(),
                    u32::try_from(n.as_integer().unwrap()).unwrap(),
                ));
            }
        }
    }
    out
}

/// The count shown on the deck line `zone/card` (0 when absent).
async fn count_of(client: &Client, zone: &str, card: &str) -> u64 {
    let v = js(
        client,
        &format!(
            "var l=document.querySelector('[data-line=\"{zone}/{card}\"] .cb-n');return l?Number(l.textContent):0"
        ),
    )
    .await;
    v.as_u64().unwrap()
}

async fn screenshot(client: &Client, name: &str) {
    if std::env::var_os("CARTA_BLESS").is_some() {
        js(client, "window.scrollTo(0, 0); document.querySelectorAll('.cb-pool').forEach(p => p.scrollTop = 0); return true").await;
        let png = client.screenshot().await.unwrap();
        std::fs::write(repo().join("docs/img").join(name), png).unwrap();
    }
}

/// Exports the code, opens the share link in a fresh page, and checks that
/// the same deck is there.
async fn share_round_trip(client: &Client, lines: &[(String, String, u32)]) -> String {
    let code = js(client, "return document.getElementById('cb-code').value").await;
    let code = code.as_str().unwrap().to_owned();
    assert!(!code.is_empty());
    let href = js(client, "return document.getElementById('cb-link').href").await;
    let href = href.as_str().unwrap().to_owned();
    assert!(href.contains(&code), "{href}");
    client.goto("about:blank").await.unwrap();
    client.goto(&href).await.unwrap();
    settled(client).await;
    let again = js(client, "return document.getElementById('cb-code').value").await;
    assert_eq!(
        again.as_str(),
        Some(code.as_str()),
        "the link opens the same deck"
    );
    for (zone, card, n) in lines {
        assert_eq!(
            count_of(client, zone, card).await,
            u64::from(*n),
            "{zone}/{card}"
        );
    }
    code
}

/// Saves under `name`; the message says where.
async fn save(client: &Client, name: &str) -> String {
    client
        .find(Locator::Id("cb-file"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    click(client, "#cb-save").await;
    wait_js(
        client,
        "var m=document.getElementById('cb-save-msg');return m.textContent!=='saving…' && m.textContent!==''",
    )
    .await;
    js(
        client,
        "return document.getElementById('cb-save-msg').textContent",
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_builds_breaks_shares_and_saves_an_intrepidos_deck() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;

    // The card browser: every card's printed face, search and facets.
    client
        .goto(&format!("{url}intrepidos/cards"))
        .await
        .unwrap();
    wait_for(&client, STEP, "the cards", |t| t.contains("of 76 cards")).await;
    let faces = js(
        &client,
        "return document.querySelectorAll('#cb-grid .card.face.kind-intrepido').length",
    )
    .await;
    assert_eq!(
        faces.as_u64(),
        Some(12),
        "the twelve intrépidos, printed by their template"
    );
    screenshot(&client, "serve-cards.png").await;
    let search = client.find(Locator::Id("cb-search")).await.unwrap();
    search.send_keys("Leônidas").await.unwrap();
    wait_for(&client, STEP, "one card", |t| t.contains("1 of 76 cards")).await;
    client.refresh().await.unwrap();
    wait_for(&client, STEP, "the cards", |t| t.contains("of 76 cards")).await;
    click(&client, "select#cb-kind option[value=\"tower\"]").await;
    let towers = js(
        &client,
        "return document.querySelectorAll('#cb-grid figure').length",
    )
    .await;
    assert!(towers.as_u64().unwrap() >= 2);
    let kinds = js(&client, "return [...document.querySelectorAll('#cb-grid .card.face')].every(c=>c.classList.contains('kind-tower'))").await;
    assert_eq!(kinds, Value::Bool(true), "the kind facet keeps towers only");

    // The builder: 30 actions, 30 items, the team and the setup → legal.
    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    assert_eq!(
        status(&client).await,
        "Illegal",
        "an empty deck is not legal"
    );
    let name = client.find(Locator::Id("cb-name")).await.unwrap();
    name.clear().await.unwrap();
    name.send_keys("Fúria de Áries").await.unwrap();
    let lines = lines_of("cards/intrepidos/decks/furia-de-aries.toml");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.0 == "main")
            .map(|l| l.2)
            .sum::<u32>(),
        60
    );
    add_all(&client, &lines).await;
    assert_eq!(
        status(&client).await,
        "Legal",
        "{}",
        page_text(&client).await
    );

    // A 4th copy of an item breaks the copy rule at that card.
    click(&client, "[data-line=\"main/escudo-orc\"] button[data-inc]").await;
    assert_eq!(status(&client).await, "Illegal");
    wait_js(
        &client,
        "return !!document.querySelector('#cb-problems li[data-rule=\"item-copies\"][data-card=\"escudo-orc\"]')",
    )
    .await;
    wait_js(
        &client,
        "return document.querySelector('[data-line=\"main/escudo-orc\"]').classList.contains('cb-bad')",
    )
    .await;
    let problem = js(
        &client,
        "return document.querySelector('#cb-problems li[data-rule=\"item-copies\"]').innerText",
    )
    .await;
    let problem = problem.as_str().unwrap();
    assert!(
        problem.contains("4 copies") && problem.contains("at most 3"),
        "{problem}"
    );
    assert!(
        problem.contains("rulebook: EDIÇÃO DE DECK"),
        "the rule's source: {problem}"
    );
    screenshot(&client, "serve-builder.png").await;
    click(&client, "[data-line=\"main/escudo-orc\"] button[data-dec]").await;
    assert_eq!(status(&client).await, "Legal");
    // A full deck: one more card of the deck would break its size.
    let full = js(&client, "return document.querySelector('.cb-row[data-card=\"escudo-orc\"]').classList.contains('cb-unavailable')").await;
    assert_eq!(
        full,
        Value::Bool(true),
        "a card that would break a limit is shown unavailable"
    );

    // Share: the code and the link open the same deck in a fresh page.
    let code = share_round_trip(&client, &lines).await;
    assert_eq!(status(&client).await, "Legal");

    // Save, then `carta deck check` the file; saving again asks first.
    let said = save(&client, "Fúria de Áries (cópia)").await;
    let rel = "cards/intrepidos/decks/furia-de-aries-copia.toml";
    assert_eq!(said, format!("saved as {rel}"));
    ws.run(["deck", "check", rel]).succeeds();
    let written = ws.read(rel);
    let said = save(&client, "").await;
    assert!(said.contains("exists"), "{said}");
    assert_eq!(
        ws.read(rel),
        written,
        "nothing is overwritten without asking"
    );
    click(&client, "#cb-replace").await;
    wait_js(
        &client,
        "return document.getElementById('cb-save-msg').textContent.startsWith('saved as')",
    )
    .await;

    // The organisers' page judges the code and a broken one, with a CSV.
    client.goto(&format!("{url}organize")).await.unwrap();
    let codes = client.find(Locator::Id("cb-codes")).await.unwrap();
    codes
        .send_keys(&format!("{code}\nnot-a-code"))
        .await
        .unwrap();
    click(&client, "#cb-judge").await;
    wait_for(&client, STEP, "the verdicts", |t| {
        t.contains("1 of 2 decks legal")
    })
    .await;
    let csv = js(
        &client,
        "return fetch(document.getElementById('cb-csv').href).then(r=>r.text())",
    )
    .await;
    let csv = csv.as_str().unwrap();
    assert!(
        csv.starts_with("deck,game,name,verdict,cards,problems\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains("line 1,intrepidos,Fúria de Áries,legal,69,"),
        "{csv}"
    );
    assert!(
        csv.contains("line 2,,,invalid,0,this is not a deck code"),
        "{csv}"
    );
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kingdoms_deck_shows_its_type_shares_and_the_hero_bound_to_the_city() {
    let ws = Workspace::shipped(&["kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}kingdoms/deck")).await.unwrap();
    settled(&client).await;
    let lines = lines_of("cards/kingdoms/decks/aurora-de-valaria.toml");
    add_all(&client, &lines).await;
    assert_eq!(
        status(&client).await,
        "Legal",
        "{}",
        page_text(&client).await
    );

    // The chart: each type's share against the 50% cap.
    let share = |group: &str| {
        format!(
            "var s=document.querySelector('[data-figure=\"type-share/{group}\"]');return s?s.nextElementSibling.nextElementSibling.textContent:''"
        )
    };
    let item = js(&client, &share("Item")).await;
    assert_eq!(item.as_str(), Some("33.3% (≤ 50%)"));
    let action = js(&client, &share("Ação")).await;
    assert_eq!(action.as_str(), Some("31.7% (≤ 50%)"));
    screenshot(&client, "serve-kingdoms.png").await;

    // Another kingdom's hero is unavailable; taken anyway, the binding
    // rule names it.
    click(&client, "[data-line=\"main/sir-aldric\"] button[data-dec]").await;
    settled(&client).await;
    let row = "document.querySelector('.cb-row[data-card=\"vorkath-rei-sepulcral\"]')";
    wait_js(
        &client,
        &format!("return {row}.classList.contains('cb-unavailable')"),
    )
    .await;
    let why = js(&client, &format!("return {row}.title")).await;
    assert!(
        why.as_str().unwrap().contains("Herói do reino da cidade"),
        "{why}"
    );
    let own = js(&client, "return document.querySelector('.cb-row[data-card=\"lyanna-arquimaga\"]').classList.contains('cb-unavailable')").await;
    assert_eq!(
        own,
        Value::Bool(false),
        "a hero of the city's kingdom stays available"
    );
    click(
        &client,
        ".cb-row[data-card=\"vorkath-rei-sepulcral\"] button[data-add=\"main\"]",
    )
    .await;
    assert_eq!(status(&client).await, "Illegal");
    wait_js(
        &client,
        "return !!document.querySelector('#cb-problems li[data-rule=\"hero-of-the-city\"]')",
    )
    .await;
    let bound = js(&client, "return document.querySelector('[data-line=\"main/vorkath-rei-sepulcral\"]').classList.contains('cb-bad')").await;
    assert_eq!(bound, Value::Bool(true), "the off-kingdom hero is marked");

    // Back to the legal deck, shared and saved.
    click(
        &client,
        "[data-line=\"main/vorkath-rei-sepulcral\"] button[data-dec]",
    )
    .await;
    click(
        &client,
        ".cb-row[data-card=\"sir-aldric\"] button[data-add=\"main\"]",
    )
    .await;
    assert_eq!(status(&client).await, "Legal");
    share_round_trip(&client, &lines).await;
    let said = save(&client, "").await;
    let rel = "cards/kingdoms/decks/new-deck.toml";
    assert_eq!(said, format!("saved as {rel}"));
    ws.run(["deck", "check", rel]).succeeds();

    // Every bad request is a 4xx with a JSON error, asked from the page.
    let ask = |method: &str, path: &str, body: Value| {
        format!(
            "return fetch('{path}',{{method:'{method}',headers:{{'content-type':'application/json'}},body:{}}}).then(r=>r.json().then(j=>[r.status,j.error||'']))",
            if body.is_null() {
                "undefined".to_owned()
            } else {
                format!("JSON.stringify({body})")
            }
        )
    };
    let cases = [
        ("POST", "/api/games/nope/verdict", json!({"zones": {}}), 404),
        (
            "POST",
            "/api/games/kingdoms/verdict",
            json!({"zones": {"sideboard": {}}}),
            422,
        ),
        (
            "POST",
            "/api/games/kingdoms/verdict",
            json!({"zones": {"main": {"nope": 1}}}),
            422,
        ),
        (
            "POST",
            "/api/games/kingdoms/verdict",
            json!({"zones": {"main": {"valaria": 0}}}),
            422,
        ),
        (
            "POST",
            "/api/games/kingdoms/verdict",
            json!({"zones": {"main": {"valaria": 10001}}}),
            422,
        ),
        (
            "POST",
            "/api/games/kingdoms/verdict",
            json!({"zones": {"main": {"valaria": "x"}}}),
            400,
        ),
        (
            "POST",
            "/api/games/kingdoms/decode",
            json!({"code": "###"}),
            422,
        ),
        (
            "POST",
            "/api/games/kingdoms/save",
            json!({"deck": {"zones": {"main": {"nope": 1}}}}),
            422,
        ),
        ("GET", "/api/nothing", Value::Null, 404),
    ];
    for (method, path, body, want) in cases {
        let got = js(&client, &ask(method, path, body.clone())).await;
        assert_eq!(got[0].as_u64(), Some(want), "{method} {path} {body}: {got}");
        assert!(!got[1].as_str().unwrap().is_empty(), "{got}");
    }
    let big = js(&client, "return fetch('/api/organize',{method:'POST',headers:{'content-type':'application/json'},body:'x'.repeat(2<<20)}).then(r=>r.json().then(j=>[r.status,j.error]))").await;
    assert_eq!(big[0].as_u64(), Some(413), "{big}");
    let outside = js(
        &client,
        "return fetch('/play/kingdoms/img/..%2F..%2Fgame.toml').then(r=>r.status)",
    )
    .await;
    assert_eq!(outside.as_u64(), Some(404));
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_serve_runs_the_builder_on_its_server_and_follows_saves() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("live");
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let (_watch, url) = crate::watch::start_watch(&root);
    let (_driver, client) = browser(&tmp.path().join("profile")).await;
    client.goto(&format!("{url}play/live/cards")).await.unwrap();
    wait_for(&client, STEP, "the card", |t| t.contains("Ember Shield")).await;

    // A save on disk reaches the builder's cards with the next rebuild.
    let spells = root.join("cards/live/spells.toml");
    let good = std::fs::read_to_string(&spells).unwrap();
    std::fs::write(&spells, good.replace("Ember Shield", "Ember Wall")).unwrap();
    let start = Instant::now();
    loop {
        client.refresh().await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        if page_text(&client).await.contains("Ember Wall") {
            break;
        }
        assert!(
            start.elapsed() < STEP,
            "the builder never showed the new name"
        );
    }
    client.close().await.unwrap();
}

/// One HTTP/1.1 request to the server (no client library needed); the
/// status and the JSON body.
fn http(base: &str, method: &str, path: &str, body: &Value) -> (u16, Value) {
    use std::io::{Read, Write};
    let host = base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    let text = body.to_string();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let (head, rest) = answer.split_once("\r\n\r\n").unwrap();
    // Small answers may come chunked: take the JSON between the braces.
    let json = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let start = rest.find(['{', '[']).unwrap();
        let end = rest.rfind(['}', ']']).unwrap();
        &rest[start..=end]
    } else {
        rest
    };
    (status, serde_json::from_str(json).unwrap())
}

#[test]
fn a_deck_is_judged_by_the_format_it_opts_into_and_saved_with_it() {
    let ws = Workspace::empty();
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let (_server, url) = start_serve(ws.path());
    let azul = json!({
        "name": "Azul",
        "zones": {
            "main": {"azul-flor": 3, "azul-estrela": 1, "verde-flor": 3, "verde-onda": 2, "ocre-flor": 2, "ocre-onda": 3},
            "patron": {"dona-azul": 1}
        }
    });
    let (status, own) = http(&url, "POST", "/api/games/mosaico/verdict", &azul);
    assert_eq!(status, 200, "{own}");
    let mut liga = azul.clone();
    liga["format"] = json!("liga");
    let (status, league) = http(&url, "POST", "/api/games/mosaico/verdict", &liga);
    assert_eq!(status, 200, "{league}");
    let rules = |v: &Value| -> Vec<String> {
        v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["rule"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(!rules(&own).contains(&"league-copies".to_owned()), "{own}");
    assert!(
        rules(&league).contains(&"league-copies".to_owned()),
        "the league's own rule: {league}"
    );
    let mut unknown = azul.clone();
    unknown["format"] = json!("ligga");
    let (status, error) = http(&url, "POST", "/api/games/mosaico/verdict", &unknown);
    assert_eq!(status, 422);
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("`ligga` is not a format"),
        "{error}"
    );

    // Saved, the deck keeps its format, and `carta deck check` agrees.
    let (status, saved) = http(
        &url,
        "POST",
        "/api/games/mosaico/save",
        &json!({"deck": liga, "file": "Azul (liga)"}),
    );
    assert_eq!(status, 201, "{saved}");
    let rel = saved["file"].as_str().unwrap();
    assert_eq!(rel, "cards/mosaico/decks/azul-liga.toml");
    assert!(
        ws.read(rel).contains("\nformat = \"liga\"\n"),
        "{}",
        ws.read(rel)
    );
    let legal = league["legal"].as_bool().unwrap();
    let run = ws.run(["deck", "check", rel]);
    if legal { run.succeeds() } else { run.code(1) }.stderr_has("league-copies");
}

/// One GET request without a body; the status and the response head.
fn get_head(base: &str, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let host = base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let head = answer
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .to_ascii_lowercase();
    (answer[9..12].parse().unwrap(), head)
}

#[test]
fn serve_front_pages_lead_to_the_builder_not_to_an_empty_preview() {
    let ws = crate::sheets::mini(&crate::sheets::card("a", ""));
    let (_server, url) = start_serve(ws.path());
    let (status, head) = get_head(&url, "/");
    assert_eq!(status, 303, "{head}");
    assert!(head.contains("\r\nlocation: /play/\r\n"), "{head}");
    // A game's preview page would say no build succeeded: it is the game's cards.
    let (status, head) = get_head(&url, "/g/mini/");
    assert_eq!(status, 303, "{head}");
    assert!(
        head.contains("\r\nlocation: /play/mini/cards\r\n"),
        "{head}"
    );
    let (status, head) = get_head(&url, "/g/no-such-game/");
    assert_eq!(
        (status, head.contains("location: /play/\r\n")),
        (303, true),
        "{head}"
    );
    let (status, head) = get_head(&url, "/play/mini/cards");
    assert_eq!(status, 200, "{head}");
}

/// Starts `carta serve --open` in `root` with `env` (and without the
/// variables in `unset`) and returns the first stderr line that contains
/// `wanted`.
fn open_says(root: &Path, env: &[(&str, &str)], unset: &[&str], wanted: &str) -> String {
    let (_process, mut lines) =
        crate::watch::spawn_carta(root, &["serve", "--open", "--port", "0"], env, unset);
    lines
        .find(|line| line.contains(wanted))
        .expect("carta serve --open says why no browser opened")
}

#[test]
fn open_without_a_browser_says_so_and_how_to_open_the_page() {
    let ws = crate::sheets::mini(&crate::sheets::card("a", ""));
    // No display: nothing is started.
    let line = open_says(
        ws.path(),
        &[],
        &["DISPLAY", "WAYLAND_DISPLAY"],
        "no browser to open",
    );
    assert!(
        line.contains("has no display") && line.contains("http://127.0.0.1:"),
        "{line}"
    );
    // A display, and an opener that fails (as xdg-open does with no browser).
    let bin = tempfile::tempdir().unwrap();
    let opener = bin.path().join("xdg-open");
    std::fs::write(&opener, "#!/bin/sh\nexit 3\n").unwrap();
    let mut perms = std::fs::metadata(&opener).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&opener, perms).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let line = open_says(
        ws.path(),
        &[("PATH", &path), ("DISPLAY", ":99")],
        &["WAYLAND_DISPLAY"],
        "opened no browser",
    );
    assert!(
        line.contains("`xdg-open` opened no browser") && line.contains("in a browser"),
        "{line}"
    );
}
