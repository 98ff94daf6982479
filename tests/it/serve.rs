//! `carta serve` driven as a player would: headless Chromium through
//! chromedriver clicks cards into a deck, reads the verdict, breaks a
//! rule, shares the deck as a code and a link, and saves it; the saved file
//! then passes `carta deck check`. The server's refusals (unknown game,
//! card, zone, bad count, oversize body) are asked from the page itself.
//! The defects of issue 25 each have a test: one verdict with the command,
//! the format a code carries, a verdict marked out of date when the server
//! does not answer, and players' decks saved apart from the game's.
//!
//! With `CARTA_BLESS=1` the tests write the README's screenshots to
//! `docs/img/`.

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::harness::{Workspace, repo};
use crate::watch::{Killed, browser, page_text, wait_for};

/// How long any one step may take to show: a bound on a hang, not a
/// speed test. The debug server shares CI's two cores with three other
/// tests (one of them judging 50,000 decks), and a first verdict there
/// has taken over 10 s.
pub(crate) const STEP: Duration = Duration::from_secs(30);

/// Starts `carta serve --port 0` in `root`, its pages in English and its
/// cards in each game's own language (`--ui-lang en --lang pt-BR`: these
/// tests read the builder's English words beside the shipped games'
/// Portuguese or Spanish cards; the language tests start theirs without
/// them); the process and the builder's URL.
pub(crate) fn start_serve(root: &Path) -> (Killed, String) {
    let args = ["serve", "--port", "0", "--ui-lang", "en", "--lang", "pt-BR"];
    let (server, url) = crate::watch::start_server(root, &args);
    assert!(url.ends_with("/play/"), "{url}");
    (server, url)
}

/// Clicks the element `css` (found afresh: the lists are redrawn after
/// every verdict).
pub(crate) async fn click(client: &Client, css: &str) {
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
pub(crate) async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// Waits until `script` is truthy in the page.
pub(crate) async fn wait_js(client: &Client, script: &str) {
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
pub(crate) async fn settled(client: &Client) {
    wait_js(
        client,
        "var s=document.getElementById('cb-status');return !!s && document.body.dataset.checked!==undefined",
    )
    .await;
    // The latest change's answer has arrived once no request is pending.
    tokio::time::sleep(Duration::from_millis(150)).await;
}

pub(crate) async fn status(client: &Client) -> String {
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
pub(crate) async fn add_all(client: &Client, lines: &[(String, String, u32)]) {
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
pub(crate) fn lines_of(rel: &str) -> Vec<(String, String, u32)> {
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
pub(crate) async fn count_of(client: &Client, zone: &str, card: &str) -> u64 {
    let v = js(
        client,
        &format!(
            "var l=document.querySelector('[data-line=\"{zone}/{card}\"] .cb-n');return l?Number(l.textContent):0"
        ),
    )
    .await;
    v.as_u64().unwrap()
}

pub(crate) async fn screenshot(client: &Client, name: &str) {
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
        "return document.querySelectorAll('#cb-grid .carta-card.carta-face.carta-kind-intrepido').length",
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
    // The card of that name first, then the cards that name it (allies).
    wait_for(&client, STEP, "fewer cards", |t| {
        !t.contains("76 of 76 cards")
    })
    .await;
    let first = js(
        &client,
        "return document.querySelector('#cb-grid figure').dataset.card",
    )
    .await;
    assert_eq!(first, "leonidas");
    client.refresh().await.unwrap();
    wait_for(&client, STEP, "the cards", |t| t.contains("of 76 cards")).await;
    click(&client, "select#cb-kind option[value=\"tower\"]").await;
    let towers = js(
        &client,
        "return document.querySelectorAll('#cb-grid figure').length",
    )
    .await;
    assert!(towers.as_u64().unwrap() >= 2);
    let kinds = js(&client, "return [...document.querySelectorAll('#cb-grid .carta-card.carta-face')].every(c=>c.classList.contains('carta-kind-tower'))").await;
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
    let rel = "decks/intrepidos/furia-de-aries-copia.toml";
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
        csv.starts_with(
            "n,source,player,game,deck,format,verdict,cards,errors,warnings,same_as,code\r\n"
        ),
        "{csv}"
    );
    assert!(
        csv.contains("\r\n1,line 1,,intrepidos,Fúria de Áries,,legal,69,,,,"),
        "{csv}"
    );
    assert!(
        csv.contains("\r\n2,line 2,,,,,invalid,0,deck::code: this is not a deck code"),
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
    let rel = "decks/kingdoms/new-deck.toml";
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
    // Past a route's body limit (1 MiB; the organisers' 16 MiB), 413.
    for (path, size) in [
        ("/api/games/kingdoms/verdict", "2<<20"),
        ("/api/organize", "17<<20"),
    ] {
        let big = js(&client, &format!("return fetch('{path}',{{method:'POST',headers:{{'content-type':'application/json'}},body:'x'.repeat({size})}}).then(r=>r.json().then(j=>[r.status,j.error]))")).await;
        assert_eq!(big[0].as_u64(), Some(413), "{path}: {big}");
    }
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

/// The `host:port` of a server's address.
pub(crate) fn host_of(url: &str) -> String {
    url.trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_owned()
}

/// One HTTP/1.1 request to the server (no client library needed); the
/// status and the JSON body.
pub(crate) fn http(base: &str, method: &str, path: &str, body: &Value) -> (u16, Value) {
    use std::io::{Read, Write};
    let host = base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    // A GET carries no body: a server that answers without reading one
    // and closes resets the connection under the client's read.
    let text = if method == "GET" {
        String::new()
    } else {
        body.to_string()
    };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    // A body past the route's bound is refused from its length alone: the
    // server answers and closes before reading it, and the rest of the
    // write meets a closed socket. The answer is read all the same.
    if let Err(e) = stream.write_all(request.as_bytes()) {
        use std::io::ErrorKind::{BrokenPipe, ConnectionReset};
        assert!(matches!(e.kind(), BrokenPipe | ConnectionReset), "{e}");
    }
    let mut bytes = Vec::new();
    if let Err(e) = stream.read_to_end(&mut bytes) {
        assert!(!bytes.is_empty(), "no answer: {e}");
    }
    let answer = String::from_utf8(bytes).unwrap();
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
    assert_eq!(rel, "decks/mosaico/azul-liga.toml");
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

/// Issue 25, defect 1: a deck the command finds illegal is never legal in
/// the builder or on the organisers' page, and gets no code.
#[test]
fn a_deck_of_a_game_without_zones_is_judged_alike_by_the_command_and_the_server() {
    let ws = Workspace::shipped(&["zodiacos"]);
    let text = "game = \"zodiacos\"\nname = \"Sem zonas\"\n";
    ws.write("sem-zonas.toml", text);
    ws.run(["deck", "check", "sem-zonas.toml"])
        .code(1)
        .stderr_has("deck::no-zones");
    let (_server, url) = start_serve(ws.path());
    let (status, answer) = http(
        &url,
        "POST",
        "/api/games/zodiacos/verdict",
        &json!({"name": "Sem zonas"}),
    );
    assert_eq!(status, 422, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains("deck::no-zones"), "{answer}");
    assert!(answer.get("code").is_none(), "no code for it: {answer}");
    let (status, table) = http(
        &url,
        "POST",
        "/api/organize",
        &json!({"decks": [{"label": "sem-zonas.toml", "text": text}]}),
    );
    assert_eq!(status, 200, "{table}");
    let row = &table["rows"][0];
    assert_eq!(row["verdict"], "illegal", "as the command says: {table}");
    assert_eq!(row["errors"][0]["code"], "deck::no-zones", "{table}");
}

/// Issue 25, defect 4: a player's illegal deck saved by the builder goes
/// to `decks/<game>/`, which the game's own check does not fail on.
#[test]
fn a_players_illegal_deck_is_saved_apart_and_the_games_check_stays_clean() {
    let ws = Workspace::shipped(&["kingdoms"]);
    let (_server, url) = start_serve(ws.path());
    let deck = json!({"name": "Two cards", "zones": {"main": {"valaria": 1}}});
    let (status, verdict) = http(&url, "POST", "/api/games/kingdoms/verdict", &deck);
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(verdict["legal"], false, "{verdict}");
    let (status, saved) = http(
        &url,
        "POST",
        "/api/games/kingdoms/save",
        &json!({"deck": deck}),
    );
    assert_eq!(status, 201, "{saved}");
    let rel = saved["file"].as_str().unwrap();
    assert_eq!(rel, "decks/kingdoms/two-cards.toml");
    ws.run(["deck", "check", rel]).code(1);
    ws.run(["check"]).succeeds();
    let (_, game) = http(&url, "GET", "/api/games/kingdoms", &Value::Null);
    assert_eq!(game["save_to"], "decks/kingdoms", "the page says where");
}

/// A deck code as a URL query value.
pub(crate) fn query_value(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Issue 25, defect 2: a code carries its format, from a link without
/// `&format=` and when pasted into Import.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_keeps_its_format_from_a_link_and_from_import() {
    let ws = Workspace::empty();
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let liga = json!({
        "name": "Azul",
        "format": "liga",
        "zones": {
            "main": {"azul-flor": 3, "azul-estrela": 1, "verde-flor": 3, "verde-onda": 2, "ocre-flor": 2, "ocre-onda": 3},
            "patron": {"dona-azul": 1}
        }
    });
    let (answered, league) = http(&url, "POST", "/api/games/mosaico/verdict", &liga);
    assert_eq!(answered, 200, "{league}");
    let code = league["code"].as_str().unwrap().to_owned();
    let shown = if league["legal"] == true {
        "Legal"
    } else {
        "Illegal"
    };
    let (_driver, client) = browser(profile.path()).await;
    let format = "return document.getElementById('cb-format').value";
    let code_now = "return document.getElementById('cb-code').value";

    client
        .goto(&format!("{url}mosaico/deck?code={}", query_value(&code)))
        .await
        .unwrap();
    assert_eq!(status(&client).await, shown);
    assert_eq!(js(&client, format).await, "liga", "the link's deck format");
    assert_eq!(js(&client, code_now).await, code.as_str(), "the same code");
    let href = js(&client, "return document.getElementById('cb-link').href").await;
    assert!(!href.as_str().unwrap().contains("format="), "{href}");

    client.goto(&format!("{url}mosaico/deck")).await.unwrap();
    settled(&client).await;
    assert_eq!(js(&client, format).await, "");
    client
        .find(Locator::Id("cb-import-text"))
        .await
        .unwrap()
        .send_keys(&code)
        .await
        .unwrap();
    click(&client, "#cb-import").await;
    wait_js(
        &client,
        &format!("return document.getElementById('cb-code').value==={code:?}"),
    )
    .await;
    assert_eq!(js(&client, format).await, "liga", "the imported format");
    assert_eq!(status(&client).await, shown);
    client.close().await.unwrap();
}

/// Issue 25, defect 3: with the server gone, a change marks the verdict out
/// of date (no stale code), Save says it did not save, and once the server
/// is back the page retries by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_request_marks_the_verdict_out_of_date_and_is_retried() {
    let ws = Workspace::shipped(&["kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let port = crate::watch::free_port().to_string();
    let args = ["serve", "--port", port.as_str(), "--ui-lang", "en"];
    let (server, url) = crate::watch::start_server(ws.path(), &args);
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}kingdoms/deck")).await.unwrap();
    settled(&client).await;
    let first = ".cb-row button[data-add]";
    click(&client, first).await;
    let before = status(&client).await;
    assert!(before == "Legal" || before == "Illegal", "{before}");

    drop(server);
    click(&client, first).await;
    wait_js(
        &client,
        "var s=document.getElementById('cb-status');return document.body.dataset.stale!==undefined && s.firstChild.textContent==='Out of date' && !!document.getElementById('cb-outdated')",
    )
    .await;
    assert_eq!(
        js(&client, "return document.getElementById('cb-code').value").await,
        ""
    );
    let said = save(&client, "gone").await;
    assert!(said.starts_with("not saved"), "{said}");

    let (_server, _) = crate::watch::start_server(ws.path(), &args);
    wait_js(
        &client,
        "var s=document.getElementById('cb-status');return document.body.dataset.stale===undefined && !!s && s.firstChild.textContent!=='Out of date' && document.getElementById('cb-code').value!==''",
    )
    .await;
    client.close().await.unwrap();
}

/// The mutations of a deck file the differential test judges: the deck,
/// and the deck broken one way each (no zones, an unknown card, zone or
/// format, a line removed, counts raised, zero or moved to another zone).
fn mutations(base: &toml::Table) -> Vec<toml::Table> {
    let zones: Vec<String> = base
        .iter()
        .filter(|(_, v)| v.is_table())
        .map(|(k, _)| k.clone())
        .collect();
    let mut out = vec![base.clone()];
    let mut bare = base.clone();
    bare.retain(|_, v| !v.is_table());
    out.push(bare);
    let mut nope = base.clone();
    nope.insert("format".into(), "nope".into());
    out.push(nope);
    let Some(first) = zones.first() else {
        return out;
    };
    let line = |t: &toml::Table| {
        let z = t[first].as_table().unwrap();
        z.iter()
            .next()
            .map(|(c, n)| (c.clone(), n.as_integer().unwrap()))
    };
    let edit = |f: &dyn Fn(&mut toml::Table)| {
        let mut t = base.clone();
        f(&mut t);
        t
    };
    let zone = |t: &mut toml::Table| {
        t.get_mut(first.as_str())
            .unwrap()
            .as_table_mut()
            .unwrap()
            .clone()
    };
    let Some((card, n)) = line(base) else {
        return out;
    };
    for (key, count) in [
        (card.clone(), n + 3),
        (card.clone(), 0),
        ("no-such-card".into(), 1),
    ] {
        out.push(edit(&|t| {
            let mut z = zone(t);
            z.insert(key.clone(), count.into());
            t.insert(first.clone(), z.into());
        }));
    }
    out.push(edit(&|t| {
        let mut z = zone(t);
        z.remove(&card);
        t.insert(first.clone(), z.into());
    }));
    out.push(edit(&|t| {
        let mut z = zone(t);
        for (_, v) in &mut z {
            *v = (v.as_integer().unwrap() * 10).min(10_000).into();
        }
        t.insert(first.clone(), z.into());
    }));
    out.push(edit(&|t| {
        let mut lost = toml::Table::new();
        lost.insert(card.clone(), 1.into());
        t.insert("nowhere".into(), lost.into());
    }));
    if let Some(last) = zones.last().filter(|l| *l != first) {
        out.push(edit(&|t| {
            let mut z = t[last.as_str()].as_table().unwrap().clone();
            z.insert(card.clone(), 1.into());
            t.insert(last.clone(), z.into());
        }));
    }
    out
}

/// Issue 25: on every shipped deck and its mutations, the builder's verdict
/// and the organisers' rows say what `carta deck check` says — the same
/// legality and, where the deck could be judged, the same broken rules.
#[test]
fn the_builder_the_organisers_and_the_command_agree_on_shipped_decks_and_their_mutations() {
    let ws = Workspace::shipped(&[]);
    let mut bases = Vec::new();
    for game in ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"] {
        let mut bare = toml::Table::new();
        bare.insert("game".into(), game.into());
        bare.insert("name".into(), "Vazio".into());
        bases.push(bare);
        let dir = ws.path().join("cards").join(game).join("decks");
        for entry in std::fs::read_dir(dir).into_iter().flatten() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            bases.push(text.parse::<toml::Table>().unwrap());
        }
    }
    let decks: Vec<toml::Table> = bases.iter().flat_map(mutations).collect();
    assert!(decks.len() > 60, "{} decks", decks.len());
    let mut files = Vec::new();
    for (i, d) in decks.iter().enumerate() {
        let rel = format!("decks/m/{i}.toml");
        ws.write(&rel, toml::to_string(d).unwrap());
        files.push(rel);
    }
    let args = ["--message-format", "json", "deck", "check"];
    let run = ws.run(args.iter().copied().chain(files.iter().map(String::as_str)));
    let diags = run.json();
    let (_server, url) = start_serve(ws.path());
    let submissions: Vec<Value> = decks
        .iter()
        .map(|d| json!({"text": toml::to_string(d).unwrap()}))
        .collect();
    let (_, table) = http(
        &url,
        "POST",
        "/api/organize",
        &json!({"decks": submissions}),
    );
    // Legal decks, decks judged illegal and decks refused are all seen.
    let mut seen = [0_u32; 3];
    for (i, d) in decks.iter().enumerate() {
        let mine: Vec<&Value> = diags
            .iter()
            .filter(|g| g["file"] == files[i].as_str() && g["severity"] != "advice")
            .collect();
        let legal = !mine.iter().any(|g| g["severity"] == "error");
        let mut codes: Vec<String> = mine
            .iter()
            .map(|g| {
                format!(
                    "{} {}",
                    g["severity"].as_str().unwrap(),
                    g["code"].as_str().unwrap()
                )
            })
            .collect();
        codes.sort();
        let row = &table["rows"][i];
        assert_eq!(
            row["verdict"] == "legal",
            legal,
            "organisers, deck {i} {d:?}: {row} vs {codes:?}"
        );
        let mut input = json!({"name": d["name"].as_str().unwrap(), "zones": {}});
        if let Some(f) = d.get("format") {
            input["format"] = json!(f.as_str().unwrap());
        }
        for (k, v) in d.iter().filter(|(_, v)| v.is_table()) {
            input["zones"][k] = serde_json::to_value(v).unwrap();
        }
        let game = d["game"].as_str().unwrap();
        let (status, verdict) = http(&url, "POST", &format!("/api/games/{game}/verdict"), &input);
        if status == 422 {
            assert!(!legal, "deck {i} {d:?}: {verdict}");
            let error = verdict["error"].as_str().unwrap();
            if let Some(code) = error
                .rsplit_once("(deck::")
                .map(|(_, c)| c.split(')').next().unwrap())
            {
                assert!(
                    codes.iter().any(|c| c.ends_with(&format!("deck::{code}"))),
                    "deck {i}: {error} vs {codes:?}"
                );
            }
            seen[2] += 1;
            continue;
        }
        assert_eq!(status, 200, "deck {i} {d:?}: {verdict}");
        assert_eq!(
            verdict["legal"], legal,
            "builder, deck {i} {d:?}: {verdict} vs {codes:?}"
        );
        let mut broken: Vec<String> = verdict["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{} {}",
                    p["severity"].as_str().unwrap(),
                    p["code"].as_str().unwrap()
                )
            })
            .collect();
        broken.sort();
        assert_eq!(broken, codes, "deck {i} {d:?}");
        seen[usize::from(!legal)] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// The broken copy rule of a verdict.
fn copy_problem(v: &Value) -> Value {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "deck::copy-limit")
        .unwrap_or_else(|| panic!("no copy rule broken: {v}"))
        .clone()
}

/// The builder's language (issue 25): the verdict's engine words — "has
/// X; requires Y", a broken rule's message, a deck that cannot be judged —
/// come in the game's own language (pt-BR for intrépidos, es for
/// zodiacos), in English with `?ui=en`, in `--ui-lang`'s when the page asks
/// for none, and in English for a language carta does not speak (which
/// `--ui-lang` says once). The rule ids, codes and legality do not change.
#[test]
fn the_api_words_the_verdict_in_the_pages_language() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    let (_server, url) = crate::watch::start_server(ws.path(), &["serve", "--port", "0"]);
    let deck = json!({"name": "x", "zones": {"main": {"golpe-certeiro": 3}}});
    let (code, pt) = http(&url, "POST", "/api/games/intrepidos/verdict", &deck);
    assert_eq!(code, 200, "{pt}");
    let p = copy_problem(&pt);
    assert_eq!(p["actual"], "3 cópias");
    assert_eq!(p["expected"], "no máximo 2");
    assert!(
        p["message"]
            .as_str()
            .unwrap()
            .ends_with("exige no máximo 2"),
        "{p}"
    );
    let (_, en) = http(&url, "POST", "/api/games/intrepidos/verdict?ui=en", &deck);
    let e = copy_problem(&en);
    assert_eq!(
        (e["actual"].as_str(), e["expected"].as_str()),
        (Some("3 copies"), Some("at most 2"))
    );
    assert_eq!(
        (e["rule"].clone(), e["code"].clone()),
        (p["rule"].clone(), p["code"].clone())
    );
    assert_eq!(en["legal"], pt["legal"]);
    let ids = |v: &Value| -> Vec<Value> {
        v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["rule"].clone())
            .collect()
    };
    assert_eq!(ids(&en), ids(&pt));
    // Not judged at all: the deck's error in the page's language, its code kept.
    let unknown = json!({"zones": {"main": {"golpe-certero": 1}}});
    let (code, v) = http(&url, "POST", "/api/games/intrepidos/verdict", &unknown);
    assert_eq!(code, 422);
    assert_eq!(
        v["error"],
        "`golpe-certero` não é uma carta de `intrepidos` (deck::unknown-card): você quis dizer `golpe-certeiro`?"
    );
    let (_, v) = http(
        &url,
        "POST",
        "/api/games/intrepidos/verdict?ui=es",
        &unknown,
    );
    assert_eq!(
        v["error"],
        "`golpe-certero` no es una carta de `intrepidos` (deck::unknown-card): ¿quisiste decir `golpe-certeiro`?"
    );
    let (_, v) = http(
        &url,
        "POST",
        "/api/games/intrepidos/verdict?ui=fr",
        &unknown,
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("`golpe-certero` is not a card"),
        "{v}"
    );
    // A pasted text list's problems, and its did-you-mean, too.
    let list = json!({"text": "Deck:\n2 Golpe Certero\n"});
    let (code, v) = http(&url, "POST", "/api/games/intrepidos/list/parse", &list);
    assert_eq!(code, 200, "{v}");
    let problem = &v["problems"][0];
    assert_eq!(problem["code"], "list::unknown-card");
    assert_eq!(
        problem["message"],
        "`Golpe Certero` não é uma carta de `intrepidos`"
    );
    assert_eq!(problem["help"], "você quis dizer `Golpe Certeiro`?");
    assert_eq!(problem["suggestion"], "Golpe Certeiro");
    let (_, v) = http(
        &url,
        "POST",
        "/api/games/intrepidos/list/parse?ui=en",
        &list,
    );
    assert_eq!(v["problems"][0]["help"], "did you mean `Golpe Certeiro`?");
    // zodiacos is Spanish, and declares no deck zones: the builder says so
    // in Spanish.
    let (code, v) = http(
        &url,
        "POST",
        "/api/games/zodiacos/verdict",
        &json!({"zones": {}}),
    );
    assert_eq!(code, 422);
    assert_eq!(
        v["error"],
        "el juego `zodiacos` no declara zonas de mazo, así que no tiene mazos (deck::no-zones)"
    );

    // `--ui-lang` words every page that asks for none; an unknown one is
    // said once, and the pages are in English.
    let (_es, url) =
        crate::watch::start_server(ws.path(), &["serve", "--port", "0", "--ui-lang", "es"]);
    let (_, v) = http(&url, "POST", "/api/games/intrepidos/verdict", &deck);
    assert_eq!(copy_problem(&v)["actual"], "3 copias");
    let (_xx, lines) = crate::watch::spawn_carta(
        ws.path(),
        &["serve", "--port", "0", "--ui-lang", "xx"],
        &[],
        &[],
    );
    let said: Vec<String> = lines
        .take_while(|l| !l.contains("serving the deck builder"))
        .collect();
    let warned: Vec<&String> = said.iter().filter(|l| l.contains("`xx`")).collect();
    assert_eq!(warned.len(), 1, "{said:?}");
    assert!(warned[0].contains("in English"), "{said:?}");
}

/// Issue 53: a page whose cards are in a translation speaks it
/// throughout: a broken rule names the card, and the rule, as the page
/// shows them; a pasted list is read by those names and headings (and
/// still by the game's own), and a misspelt one is offered as the page
/// shows it. The verdict is the game's own.
#[test]
fn a_translated_page_names_cards_in_its_language_in_verdicts_and_lists() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let (_server, url) = crate::watch::start_server(ws.path(), &["serve", "--port", "0"]);
    let (_, english) = http(&url, "GET", "/api/games/intrepidos?ui=en", &Value::Null);
    let name_of = |id: &str| -> String {
        english["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (strike, frixo) = (name_of("golpe-certeiro"), name_of("rei-frixo"));
    assert_ne!(strike, "Golpe Certeiro");
    let deck = json!({"name": "x", "zones": {"main": {"golpe-certeiro": 3}}});
    let (_, en) = http(&url, "POST", "/api/games/intrepidos/verdict?ui=en", &deck);
    let (_, pt) = http(&url, "POST", "/api/games/intrepidos/verdict", &deck);
    let (e, p) = (copy_problem(&en), copy_problem(&pt));
    let message = e["message"].as_str().unwrap();
    assert!(message.starts_with(&format!("`{strike}`: 3 copies")), "{e}");
    assert!(!message.contains("Golpe"), "{e}");
    let rule = english["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == e["rule"])
        .unwrap();
    assert_eq!(e["name"], rule["name"], "the rule as the page lists it");
    assert_ne!(e["name"], p["name"], "the rule's English name");
    assert!(
        p["message"]
            .as_str()
            .unwrap()
            .starts_with("`Golpe Certeiro`")
    );
    assert_eq!(
        (en["legal"].clone(), en["code"].clone()),
        (pt["legal"].clone(), pt["code"].clone())
    );

    let text = format!("Deck:\n2 {strike}\n1 Contragolpe\n\nIntrepids:\n1 {frixo}\n");
    let (_, v) = http(
        &url,
        "POST",
        "/api/games/intrepidos/list/parse?ui=en",
        &json!({"text": text}),
    );
    assert_eq!(v["problems"], json!([]), "{v}");
    assert_eq!(v["deck"]["zones"]["main"]["golpe-certeiro"], 2, "{v}");
    assert_eq!(v["deck"]["zones"]["main"]["contragolpe"], 1, "{v}");
    assert_eq!(v["deck"]["zones"]["team"]["rei-frixo"], 1, "{v}");
    let misspelt: String = strike.chars().filter(|c| *c != 'e').collect();
    let (_, v) = http(
        &url,
        "POST",
        "/api/games/intrepidos/list/parse?ui=en",
        &json!({"text": format!("Deck:\n2 {misspelt}\n")}),
    );
    assert_eq!(v["problems"][0]["suggestion"], json!(strike), "{v}");
}

/// The pages themselves: `lang` follows the language, the title and the
/// page's messages are worded in it, and the cards of a game that ships a
/// translation into it come in that translation (their ids unchanged).
#[test]
fn a_page_and_its_cards_come_in_the_asked_language() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let (_server, url) = crate::watch::start_server(ws.path(), &["serve", "--port", "0"]);
    let host = host_of(&url);
    let page = |path: &str| -> String {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&host).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    };
    let pt = page("/play/intrepidos/deck");
    assert!(pt.contains("<html lang=\"pt-BR\">"), "{pt}");
    assert!(pt.contains("<title>Zodiacus Intrépidos — construtor de baralhos</title>"));
    assert!(pt.contains("\"ui-undo\":\"Desfazer\""));
    let en = page("/play/intrepidos/deck?ui=en");
    assert!(en.contains("<html lang=\"en\">"));
    assert!(en.contains("\"ui-undo\":\"Undo\""));
    let xx = page("/play/intrepidos/deck?ui=%3C%2Fscript%3Exx");
    assert!(xx.contains("<html lang=\"en\">"));
    assert!(!xx.contains("</script>xx"), "the asked language is escaped");
    assert!(xx.contains("\"unknown\":\"\\u003c/script>xx\""), "{xx}");

    let card = |v: &Value, id: &str| -> Value {
        v["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone()
    };
    let (_, own) = http(&url, "GET", "/api/games/intrepidos", &Value::Null);
    let (_, english) = http(&url, "GET", "/api/games/intrepidos?ui=en", &Value::Null);
    let (a, b) = (
        card(&own, "golpe-certeiro"),
        card(&english, "golpe-certeiro"),
    );
    assert_eq!(a["name"], "Golpe Certeiro");
    assert_ne!(b["name"], a["name"], "the English translation's name");
    assert_ne!(b["face"], a["face"], "the face printed in English");
    assert_eq!(
        own["cards"].as_array().unwrap().len(),
        english["cards"].as_array().unwrap().len()
    );
    // `--lang` keeps the cards in its language whatever the page's.
    let (_es, url) =
        crate::watch::start_server(ws.path(), &["serve", "--port", "0", "--lang", "es"]);
    let (_, spanish) = http(&url, "GET", "/api/games/intrepidos?ui=en", &Value::Null);
    let c = card(&spanish, "golpe-certeiro");
    assert_ne!(c["name"], a["name"]);
    assert_ne!(c["name"], b["name"]);
    let (_, pt) = http(&url, "GET", "/api/games/intrepidos", &Value::Null);
    assert_eq!(card(&pt, "golpe-certeiro")["name"], c["name"]);
}

/// `C(n, r)` exactly (small decks).
fn choose(n: u64, r: u64) -> u128 {
    if r > n {
        return 0;
    }
    (0..r.min(n - r)).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// The chance of at least `k` of `group` among `seen` of `deck` cards, as
/// an exact fraction turned into a float: the test's own arithmetic.
fn hypergeometric_tail(deck: u64, group: u64, seen: u64, k: u64) -> f64 {
    let seen = seen.min(deck);
    let num: u128 = (k..=seen.min(group))
        .filter(|x| seen - x <= deck - group)
        .map(|x| choose(group, x) * choose(deck - group, seen - x))
        .sum();
    num as f64 / choose(deck, seen) as f64
}

/// The deck of a shipped deck file as the API takes it, and its card
/// count in `zone`.
fn deck_json(rel: &str, zone: &str) -> (Value, Vec<(String, u64)>) {
    let mut zones = serde_json::Map::new();
    let mut drawn = Vec::new();
    for (z, card, n) in lines_of(rel) {
        if z == zone {
            drawn.push((card.clone(), u64::from(n)));
        }
        zones
            .entry(z)
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .unwrap()
            .insert(card, json!(n));
    }
    (json!({"name": "Deck", "zones": zones}), drawn)
}

/// Issue 25, playtest figures: the odds of a kingdoms deck by a card, a
/// kind, an enum value and a flag, against the test's own exact fractions,
/// with the game's `[play]` (a hand of 5, one card a turn, from `main`,
/// the opening formation on the table: issue 52).
#[test]
fn draw_odds_of_a_deck_by_card_kind_enum_value_and_flag_are_exact() {
    let ws = Workspace::shipped(&["kingdoms"]);
    let (_server, url) = start_serve(ws.path());
    let (_, game) = http(&url, "GET", "/api/games/kingdoms", &Value::Null);
    assert_eq!(
        game["play"],
        json!({"opening_hand": 5, "mulligans": 1, "mulligan": 4, "draws_per_turn": 1, "draw_from": "main",
            "start_on_table": game["play"]["start_on_table"].clone()}),
        "the rulebook's hand and its one mulligan"
    );
    let table = game["play"]["start_on_table"].as_array().unwrap();
    assert_eq!(
        table.iter().map(|t| t["count"].clone()).collect::<Vec<_>>(),
        [json!(null), json!(null), json!(3), json!(2)],
        "the city, the hero, three level-1 and two level-2 characters"
    );
    let cards = game["cards"].as_array().unwrap();
    let field = |id: &str, f: &str| -> Value {
        let c = cards.iter().find(|c| c["id"] == id).unwrap();
        if f == "kind" {
            c["kind"].clone()
        } else {
            c["values"].get(f).cloned().unwrap_or(Value::Null)
        }
    };
    let (deck, mut drawn) = deck_json("cards/kingdoms/decks/aurora-de-valaria.toml", "main");
    // FORMAÇÃO INICIAL: the cards that start on the table are never drawn,
    // each entry's taken in the deck's order.
    let lined_up = |id: &str, level: i64| {
        field(id, "kind") == json!("character")
            && field(id, "level") == json!(level)
            && field(id, "mercenary") != json!(true)
    };
    let mut take = |on_table: &dyn Fn(&str) -> bool, mut most: u64| {
        for (id, n) in &mut drawn {
            let t = (*n).min(most);
            if on_table(id) && t > 0 {
                *n -= t;
                most -= t;
            }
        }
    };
    take(&|id| field(id, "kind") == json!("city"), u64::MAX);
    take(&|id| field(id, "kind") == json!("hero"), u64::MAX);
    take(&|id| lined_up(id, 1), 3);
    take(&|id| lined_up(id, 2), 2);
    let total: u64 = drawn.iter().map(|(_, n)| n).sum();
    assert_eq!(total, 53, "60 cards, 7 of them on the table");
    let count = |f: &str, v: &Value| -> u64 {
        drawn
            .iter()
            .filter(|(id, _)| {
                let have = field(id, f);
                if v.is_boolean() {
                    (have == json!(true)) == (v == &json!(true))
                } else {
                    &have == v
                }
            })
            .map(|(_, n)| n)
            .sum()
    };
    let kingdom = field("valaria", "kingdom");
    for (group, k, turn, want_group) in [
        (
            json!({"field": "kind", "value": "action"}),
            2,
            3,
            count("kind", &json!("action")),
        ),
        (json!({"field": "id", "value": "espada-longa"}), 1, 1, 3),
        (
            json!({"field": "kingdom", "value": kingdom}),
            4,
            2,
            count("kingdom", &kingdom),
        ),
        (
            json!({"field": "mercenary"}),
            1,
            10,
            count("mercenary", &json!(true)),
        ),
        (
            json!({"field": "mercenary", "value": false}),
            6,
            2,
            count("mercenary", &json!(false)),
        ),
    ] {
        let body = json!({"deck": deck, "group": group, "at_least": k, "by_turn": turn});
        let (status, odds) = http(&url, "POST", "/api/games/kingdoms/odds", &body);
        assert_eq!(status, 200, "{odds}");
        let seen = 5 + (turn - 1);
        assert_eq!(odds["deck"], total, "{odds}");
        assert_eq!(odds["on_table"], 7, "{odds}");
        assert_eq!(odds["group"], want_group, "{group}: {odds}");
        assert_eq!(odds["seen"], seen, "{odds}");
        assert_eq!(odds["zone"], "main");
        let want = hypergeometric_tail(total, want_group, seen, k);
        let got = odds["probability"].as_f64().unwrap();
        assert!(
            (got - want).abs() <= 1e-12,
            "{group} k={k} t={turn}: {got} vs {want}"
        );
    }
    assert!(count("kind", &json!("action")) > 0 && count("mercenary", &json!(true)) < total);

    // A hand the player types, more cards a turn, a hand past the deck.
    let body = json!({"deck": deck, "group": {"field": "kind", "value": "item"},
        "at_least": 3, "by_turn": 2, "hand": 7, "draws": 2});
    let (_, odds) = http(&url, "POST", "/api/games/kingdoms/odds", &body);
    assert_eq!(odds["seen"], 9, "{odds}");
    let items = count("kind", &json!("item"));
    let want = hypergeometric_tail(total, items, 9, 3);
    assert!(
        (odds["probability"].as_f64().unwrap() - want).abs() <= 1e-12,
        "{odds}"
    );
    // Every card drawn, but the hero: it starts on the table.
    let body = json!({"deck": deck, "group": {"field": "kind", "value": "hero"},
        "at_least": 1, "by_turn": 1, "hand": 1000});
    let (_, odds) = http(&url, "POST", "/api/games/kingdoms/odds", &body);
    assert_eq!(
        (odds["seen"].as_u64(), odds["probability"].as_f64()),
        (Some(total), Some(0.0)),
        "{odds}"
    );
    let body = json!({"deck": deck, "group": {"field": "kind", "value": "action"},
        "at_least": 1, "by_turn": 1, "hand": 1000});
    let (_, odds) = http(&url, "POST", "/api/games/kingdoms/odds", &body);
    assert_eq!(odds["probability"].as_f64(), Some(1.0), "{odds}");

    // Refused, each with why.
    for (group, extra, why) in [
        (
            json!({"field": "kingdon", "value": "livre"}),
            json!({}),
            "did you mean `kingdom`?",
        ),
        (
            json!({"field": "kingdom", "value": "atlantida"}),
            json!({}),
            "is not a value of `kingdom`",
        ),
        (json!({"field": "kingdom"}), json!({}), "needs a value"),
        (
            json!({"field": "mercenary", "value": "talvez"}),
            json!({}),
            "is a flag",
        ),
        (
            json!({"field": "id", "value": "espada-longaa"}),
            json!({}),
            "did you mean `espada-longa`?",
        ),
        (
            json!({"field": "kind", "value": "action"}),
            json!({"by_turn": 0}),
            "the turn is from 1",
        ),
        (
            json!({"field": "kind", "value": "action"}),
            json!({"hand": 0}),
            "a hand is from 1",
        ),
    ] {
        let mut body = json!({"deck": deck, "group": group, "at_least": 1, "by_turn": 1});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (status, answer) = http(&url, "POST", "/api/games/kingdoms/odds", &body);
        assert_eq!(status, 422, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(why),
            "{why}: {answer}"
        );
    }
    let (status, _) = http(
        &url,
        "POST",
        "/api/games/kingdoms/odds",
        &json!({"deck": deck}),
    );
    assert_eq!(status, 400, "a request without its group");

    // The playtest panel asks in the page's language: a refusal a player
    // can meet (a turn or hand typed out of bounds) comes in it.
    for (ui, why) in [
        ("pt-BR", "o turno vai de 1 a 1000"),
        ("es", "el turno va de 1 a 1000"),
        ("en", "the turn is from 1 to 1000"),
    ] {
        let body = json!({"deck": deck, "group": {"field": "kind", "value": "action"},
            "at_least": 1, "by_turn": 1001});
        let (status, answer) = http(
            &url,
            "POST",
            &format!("/api/games/kingdoms/odds?ui={ui}"),
            &body,
        );
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some(why)),
            "{answer}"
        );
    }
}

/// A game whose manifest has no `[play]` has no opening hand: the odds
/// take the hand the player gives and say so without one; a game without
/// zones has nothing to draw.
#[test]
fn a_game_without_an_opening_hand_takes_the_hand_size_the_player_gives() {
    let ws = Workspace::shipped(&["zodiacos"]);
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let (_server, url) = start_serve(ws.path());
    let (_, game) = http(&url, "GET", "/api/games/mosaico", &Value::Null);
    assert_eq!(
        game["play"]["opening_hand"],
        Value::Null,
        "{}",
        game["play"]
    );
    assert_eq!(game["play"]["draw_from"], "main", "the first zone");
    let deck = json!({"name": "Azul", "zones": {"main": {"azul-flor": 3, "verde-flor": 3, "ocre-flor": 2}, "patron": {"dona-azul": 1}}});
    let ask = json!({"deck": deck, "group": {"field": "id", "value": "azul-flor"}, "at_least": 1, "by_turn": 1});
    let (status, answer) = http(&url, "POST", "/api/games/mosaico/odds", &ask);
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("declares no opening hand"),
        "{answer}"
    );
    let mut with_hand = ask.clone();
    with_hand["hand"] = json!(2);
    let (status, odds) = http(&url, "POST", "/api/games/mosaico/odds", &with_hand);
    assert_eq!(status, 200, "{odds}");
    assert_eq!(
        (odds["deck"].as_u64(), odds["group"].as_u64()),
        (Some(8), Some(3))
    );
    let want = 1.0 - (5.0 * 4.0) / (8.0 * 7.0);
    assert!(
        (odds["probability"].as_f64().unwrap() - want).abs() < 1e-12,
        "{odds}"
    );

    let (_, zodiacos) = http(&url, "GET", "/api/games/zodiacos", &Value::Null);
    assert_eq!(zodiacos["play"]["draw_from"], Value::Null);
    let ask = json!({"deck": {"name": "x"}, "group": {"field": "kind", "value": "zodiac"}, "at_least": 1, "by_turn": 1, "hand": 5});
    let (status, answer) = http(&url, "POST", "/api/games/zodiacos/odds", &ask);
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("deck::no-zones"),
        "{answer}"
    );
}

/// The owned counts of a collection answer, by card.
fn owned_counts(answer: &Value) -> Vec<(String, u64)> {
    answer["cards"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(id, n)| (id.clone(), n.as_u64().unwrap()))
        .collect()
}

#[test]
fn a_players_collection_is_edited_through_the_api_and_held_against_a_deck() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let (_server, url) = start_serve(ws.path());
    let api = "/api/games/intrepidos/collection";
    let (status, none) = http(&url, "GET", api, &Value::Null);
    assert_eq!(status, 200, "{none}");
    assert_eq!(none["exists"], false, "{none}");
    assert_eq!(none["file"], "decks/intrepidos/collection.toml");
    let deck = json!({"name": "Few", "zones": {"main": {"escudo-orc": 3, "elmo-de-bronze": 1}}});
    let (_, verdict) = http(&url, "POST", "/api/games/intrepidos/verdict", &deck);
    assert_eq!(
        verdict["collection"],
        Value::Null,
        "no collection: {verdict}"
    );

    // Counts set one card at a time; 0 removes the line; the file is made.
    for (card, n) in [
        ("escudo-orc", 2),
        ("elmo-de-bronze", 3),
        ("elmo-de-bronze", 0),
    ] {
        let (status, set) = http(&url, "POST", api, &json!({"card": card, "owned": n}));
        assert_eq!(status, 200, "{set}");
        assert_eq!(set["file"], "decks/intrepidos/collection.toml");
    }
    let rel = "decks/intrepidos/collection.toml";
    assert_eq!(
        ws.read(rel),
        "game = \"intrepidos\"\n\n[cards]\nescudo-orc = 2\n"
    );
    for (bad, status) in [
        (json!({"card": "escudo-orcc", "owned": 1}), 422),
        (json!({"card": "escudo-orc", "owned": -1}), 422),
        (json!({"card": "escudo-orc", "owned": 10_001}), 422),
        (json!({"card": "escudo-orc"}), 400),
    ] {
        let (got, answer) = http(&url, "POST", api, &bad);
        assert_eq!(got, status, "{bad}: {answer}");
    }

    // What the deck lacks, beside the verdict: each card and the total.
    let (_, verdict) = http(&url, "POST", "/api/games/intrepidos/verdict", &deck);
    let lacking = &verdict["collection"];
    assert_eq!(lacking["total"], 2, "{verdict}");
    assert_eq!(
        lacking["missing"],
        json!([
            {"card": "escudo-orc", "needed": 3, "owned": 2, "missing": 1},
            {"card": "elmo-de-bronze", "needed": 1, "owned": 0, "missing": 1}
        ])
    );
    // `carta deck check` says the same of the saved deck, as warnings.
    let (_, saved) = http(
        &url,
        "POST",
        "/api/games/intrepidos/save",
        &json!({"deck": deck}),
    );
    let deck_rel = saved["file"].as_str().unwrap();
    let run = ws.run(["--message-format", "json", "deck", "check", deck_rel]);
    let missing: Vec<String> = run
        .json()
        .iter()
        .filter(|d| d["code"] == "collection::missing")
        .map(|d| format!("{} {}", d["severity"], d["message"]))
        .collect();
    assert_eq!(missing.len(), 2, "{missing:?}");
    assert!(
        missing.iter().all(|m| m.starts_with("\"warning\"")),
        "{missing:?}"
    );
    ws.run(["check"]).succeeds();

    // The player's own comments stay through an edit.
    ws.write(
        rel,
        "# my shelf\ngame = \"intrepidos\"\n\n[cards]\nescudo-orc = 2 # foil\n",
    );
    let (status, _) = http(
        &url,
        "POST",
        api,
        &json!({"card": "escudo-orc", "owned": 3}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        ws.read(rel),
        "# my shelf\ngame = \"intrepidos\"\n\n[cards]\nescudo-orc = 3 # foil\n"
    );
    let (_, read) = http(&url, "GET", api, &Value::Null);
    assert_eq!(owned_counts(&read), [("escudo-orc".to_owned(), 3)]);

    // A file with problems is shown with them, and not changed from the page.
    let broken = "game = \"intrepidos\"\n[cards]\nescudo-orc = -2\n";
    ws.write(rel, broken);
    let (_, read) = http(&url, "GET", api, &Value::Null);
    assert_eq!(
        read["problems"][0]["code"], "collection::bad-count",
        "{read}"
    );
    assert_eq!(read["problems"][0]["line"], 3, "{read}");
    let (status, refused) = http(
        &url,
        "POST",
        api,
        &json!({"card": "escudo-orc", "owned": 1}),
    );
    assert_eq!(status, 422, "{refused}");
    assert_eq!(ws.read(rel), broken);
    ws.run(["check"])
        .code(1)
        .stderr_has("collection::bad-count");
    // Another game's collection is not held against the deck: the verdict says so.
    ws.write(rel, "game = \"kingdoms\"\n[cards]\nvalaria = 1\n");
    let (_, verdict) = http(&url, "POST", "/api/games/intrepidos/verdict", &deck);
    assert_eq!(
        verdict["collection"]["error"], "it is a collection of `kingdoms`",
        "{verdict}"
    );
    // In the page's language: the verdict's note and the route's refusals.
    let (_, verdict) = http(
        &url,
        "POST",
        "/api/games/intrepidos/verdict?ui=pt-BR",
        &deck,
    );
    assert_eq!(
        verdict["collection"]["error"], "é uma coleção de `kingdoms`",
        "{verdict}"
    );
    ws.write(rel, "game = \"intrepidos\"\n[cards]\n");
    for (ui, card, owned, why) in [
        (
            "pt-BR",
            "escudo-orc",
            10_001,
            "o número de cópias na coleção vai de 0 a 10000, não 10001",
        ),
        (
            "es",
            "escudo-orcc",
            1,
            "`escudo-orcc` no es una carta de `intrepidos`",
        ),
        (
            "en",
            "escudo-orc",
            -1,
            "a count of copies owned is from 0 to 10000, not -1",
        ),
    ] {
        let path = format!("{api}?ui={ui}");
        let (status, refused) = http(&url, "POST", &path, &json!({"card": card, "owned": owned}));
        assert_eq!(
            (status, refused["error"].as_str()),
            (422, Some(why)),
            "{refused}"
        );
    }
}

#[test]
fn a_collection_linked_out_of_the_workspace_is_neither_read_nor_written() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("collection.toml");
    let mine = "game = \"intrepidos\"\n[cards]\nescudo-orc = 1\n";
    std::fs::write(&victim, mine).unwrap();
    std::fs::create_dir_all(ws.path().join("decks/intrepidos")).unwrap();
    std::os::unix::fs::symlink(&victim, ws.path().join("decks/intrepidos/collection.toml"))
        .unwrap();
    let (_server, url) = start_serve(ws.path());
    let api = "/api/games/intrepidos/collection";
    let (_, read) = http(&url, "GET", api, &Value::Null);
    assert!(
        read["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("leads outside the workspace"),
        "{read}"
    );
    assert_eq!(owned_counts(&read), []);
    let (status, _) = http(
        &url,
        "POST",
        api,
        &json!({"card": "escudo-orc", "owned": 5}),
    );
    assert!((400..500).contains(&status), "{status}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), mine);
    ws.run(["check"])
        .code(1)
        .stderr_has("load::outside-workspace");
}
