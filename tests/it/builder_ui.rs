//! The deck builder at the table (issue 25): driven in headless Chromium
//! through chromedriver by keys alone, at a phone's width and at 200% zoom,
//! and checked by axe-core on every page the servers show (the builder, the
//! cards, the organisers' page, `watch --serve`'s preview). Search ranks
//! names first and filters by every facet the schemas declare; "add ×N"
//! stops at the copy limit; undo and redo; the large card view; messages a
//! player reads (no markdown markers, names not ids, the culprit marked).
//!
//! axe-core comes from npm, installed by scripts/install-test-deps.sh into
//! the test tools' folder (`harness::test_tools`, `node_modules/axe-core`;
//! or `$CARTA_AXE`); without it these
//! tests fail, never skip. With `CARTA_BLESS=1` they write the phone
//! layout's screenshot to `docs/img/`.

use std::time::Duration;

use fantoccini::Client;
use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::key::Key;
use serde_json::{Value, json};

use crate::harness::{Workspace, repo, test_tools};
use crate::serve::{
    click, count_of, http, js, lines_of, query_value, screenshot, settled, start_serve, status,
    wait_js,
};
use crate::watch::{browser, page_text};

/// axe-core's script, as npm ships it.
fn axe_source() -> String {
    let path = std::env::var_os("CARTA_AXE").map_or_else(
        || test_tools().join("node_modules/axe-core/axe.min.js"),
        std::path::PathBuf::from,
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no axe-core at {} ({e}): run scripts/install-test-deps.sh (the browser tests never skip)",
            path.display()
        )
    })
}

/// Runs axe-core in the page as it is now; its serious and critical
/// violations, one line each (rule, help, where). The colours of a card's
/// printed face are the game's print design, shown as a picture of the
/// card (WCAG 1.4.3 exempts text in a picture): their contrast is not the
/// page's, so `color-contrast` leaves out what lies inside `.carta-card`;
/// every other rule checks the faces too.
async fn axe(client: &Client, axe: &str) -> Vec<String> {
    let script = format!(
        "{axe}\n;return axe.run(document).then(function (r) {{ return r.violations\
         .map(function (v) {{ if (v.id === 'color-contrast') v.nodes = v.nodes.filter(function (n) {{\
         var e = document.querySelector(n.target[0]); return !(e && e.closest('.carta-card')); }}); return v; }})\
         .filter(function (v) {{ return v.nodes.length && (v.impact === 'serious' || v.impact === 'critical'); }})\
         .map(function (v) {{ return v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 4)\
         .map(function (n) {{ return n.target.join(' '); }}).join(', '); }}); }})"
    );
    let found = js(client, &script).await;
    found
        .as_array()
        .unwrap_or_else(|| panic!("axe ran: {found}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// Asserts that axe-core finds nothing serious or critical on the page.
async fn accessible(client: &Client, axe_js: &str, what: &str) {
    let found = axe(client, axe_js).await;
    assert!(
        found.is_empty(),
        "axe-core on {what}:\n{}",
        found.join("\n")
    );
}

/// Presses a chord (modifiers first) on whatever has the focus.
async fn press(client: &Client, chord: &[char]) {
    let mut keys = KeyActions::new("keyboard".into());
    for &k in chord {
        keys = keys.then(KeyAction::Down { value: k });
    }
    for &k in chord.iter().rev() {
        keys = keys.then(KeyAction::Up { value: k });
    }
    client.perform_actions(keys).await.unwrap();
}

/// Types `text` into whatever has the focus.
async fn type_keys(client: &Client, text: &str) {
    let mut keys = KeyActions::new("keyboard".into());
    for c in text.chars() {
        keys = keys
            .then(KeyAction::Down { value: c })
            .then(KeyAction::Up { value: c });
    }
    client.perform_actions(keys).await.unwrap();
}

/// What has the focus: `zone|card` of an add button, or its key.
async fn focused(client: &Client) -> String {
    js(
        client,
        "var a=document.activeElement;return a.dataset.key||a.id||a.tagName",
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

/// Card names by id, from the game's API.
fn names(url: &str, game: &str) -> Value {
    let (code, summary) = http(url, "GET", &format!("/api/games/{game}"), &Value::Null);
    assert_eq!(code, 200);
    summary
}

/// Card `id` of a game's summary.
fn card_of<'s>(summary: &'s Value, id: &str) -> &'s Value {
    summary["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no card {id}"))
}

fn name_of(summary: &Value, id: &str) -> String {
    card_of(summary, id)["name"].as_str().unwrap().to_owned()
}

/// The code of a shipped deck file, asked from the server.
fn code_of(url: &str, game: &str, rel: &str) -> String {
    let mut zones = serde_json::Map::new();
    for (zone, card, n) in lines_of(rel) {
        zones
            .entry(zone)
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .unwrap()
            .insert(card, json!(n));
    }
    let deck = json!({"name": "Deck", "zones": zones});
    let (code, v) = http(url, "POST", &format!("/api/games/{game}/verdict"), &deck);
    assert_eq!(code, 200, "{v}");
    v["code"].as_str().unwrap().to_owned()
}

/// Issue 25, done when: on a phone-sized window, a legal deck of every
/// shipped game that has decks is built, checked and shared with the
/// keyboard alone — the search by `/`, the best match's add button by `↓`,
/// copies by `Enter`, undo and redo, then `Tab` to the share link and
/// `Enter` on it, which opens the same legal deck.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legal_deck_of_each_game_is_built_and_shared_with_the_keyboard_only_at_phone_width() {
    let ws = Workspace::shipped(&["kingdoms", "intrepidos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;
    client.set_window_size(390, 844).await.unwrap();
    for (game, deck) in [
        ("kingdoms", "cards/kingdoms/decks/aurora-de-valaria.toml"),
        ("intrepidos", "cards/intrepidos/decks/furia-de-aries.toml"),
    ] {
        let lines = lines_of(deck);
        build_by_keyboard(&client, &url, game, &lines).await;
        wait_js(&client, VERDICT_IN_VIEW).await;
        no_sideways_scroll(&client, &format!("{game} built at 390 px")).await;
        share_by_keyboard(&client, game).await;
        for (zone, card, n) in &lines {
            assert_eq!(count_of(&client, zone, card).await, u64::from(*n));
        }
    }
    client.close().await.unwrap();
}

/// Builds `lines` in `game`'s builder by the keyboard alone, checks the
/// verdict (legal, announced), and undoes and redoes the last copy.
async fn build_by_keyboard(
    client: &Client,
    url: &str,
    game: &str,
    lines: &[(String, String, u32)],
) {
    let summary = names(url, game);
    client.goto(&format!("{url}{game}/deck")).await.unwrap();
    settled(client).await;
    let ctrl: char = Key::Control.into();
    let down: char = Key::Down.into();
    let enter: char = Key::Enter.into();
    for (zone, card, n) in lines {
        // "/" finds the search, the name replaces what it held, the down
        // arrow goes to the best match's add button, Enter adds a copy.
        press(client, &['/']).await;
        assert_eq!(focused(client).await, "cb-search");
        press(client, &[ctrl, 'a']).await;
        type_keys(client, &name_of(&summary, card)).await;
        press(client, &[down]).await;
        let key = format!("add|{zone}|{card}");
        assert_eq!(focused(client).await, key, "the best match comes first");
        for i in 1..=*n {
            press(client, &[enter]).await;
            wait_js(
                client,
                &format!("var l=document.querySelector('[data-line=\"{zone}/{card}\"] .cb-n');return !!l && l.textContent==='{i}'"),
            )
            .await;
            settled(client).await;
            assert_eq!(focused(client).await, key, "the focus stays on the card");
        }
    }
    assert_eq!(status(client).await, "Legal", "{}", page_text(client).await);
    let heard = js(client, "var a=document.getElementById('cb-announce');return [a.getAttribute('aria-live'), a.textContent]").await;
    assert_eq!(heard[0], "polite");
    assert!(
        heard[1].as_str().unwrap().starts_with("Legal, Deck "),
        "{heard}"
    );
    // Undo and redo from the keyboard (the focus on a button, not a field).
    let (zone, card, n) = lines.last().unwrap();
    let shift: char = Key::Shift.into();
    press(client, &[ctrl, 'z']).await;
    wait_js(client, &format!("var l=document.querySelector('[data-line=\"{zone}/{card}\"] .cb-n');return (l?Number(l.textContent):0)==={}", n - 1)).await;
    press(client, &[ctrl, shift, 'z']).await;
    wait_js(client, &format!("var l=document.querySelector('[data-line=\"{zone}/{card}\"] .cb-n');return (l?Number(l.textContent):0)==={n}")).await;
    settled(client).await;
    assert_eq!(status(client).await, "Legal");
}

/// `Tab` until the share link has the focus, then `Enter` on it: the link
/// opens the same deck, legal.
async fn share_by_keyboard(client: &Client, game: &str) {
    let tab: char = Key::Tab.into();
    let enter: char = Key::Enter.into();
    let mut tabs = 0;
    while focused(client).await != "cb-link" {
        tabs += 1;
        assert!(tabs < 400, "no share link in the tab order");
        press(client, &[tab]).await;
    }
    let link = js(client, "return document.getElementById('cb-link').href").await;
    let link = link.as_str().unwrap().to_owned();
    assert!(link.contains(&format!("/play/{game}/deck?code=")), "{link}");
    press(client, &[enter]).await;
    wait_js(client, &format!("return location.href==={}", json!(link))).await;
    settled(client).await;
    assert_eq!(status(client).await, "Legal");
}

/// The page is no wider than the window (nothing scrolls sideways).
async fn no_sideways_scroll(client: &Client, what: &str) {
    let widths = js(
        client,
        "return [document.scrollingElement.scrollWidth, window.innerWidth]",
    )
    .await;
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "{what} scrolls sideways: {widths}"
    );
}

/// Whether the verdict's status line lies wholly inside the window.
const VERDICT_IN_VIEW: &str = "var s=document.getElementById('cb-status');if(!s)return false;var r=s.getBoundingClientRect();return r.top>=0&&r.left>=0&&r.bottom<=window.innerHeight&&r.right<=window.innerWidth";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_and_200_percent_zoom_nothing_scrolls_sideways_and_the_verdict_stays_in_view()
 {
    let ws = Workspace::shipped(&["intrepidos", "kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let code = code_of(
        &url,
        "intrepidos",
        "cards/intrepidos/decks/furia-de-aries.toml",
    );
    let (_driver, client) = browser(profile.path()).await;
    // 390 px: a phone; 600 px: a 1200 px window at 200% zoom.
    for width in [390, 600] {
        client.set_window_size(width, 844).await.unwrap();
        client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
        settled(&client).await;
        let inner = js(&client, "return window.innerWidth").await;
        assert!(
            inner.as_u64().unwrap() <= u64::from(width),
            "the window is {inner} px wide"
        );
        wait_js(&client, VERDICT_IN_VIEW).await;
        // A card added from far down the pool: the verdict is still in view.
        js(&client, "window.scrollTo(0, document.body.scrollHeight);document.querySelector('.cb-row:last-child button[data-add]').scrollIntoView({block:'center'});return true").await;
        click(&client, ".cb-row:last-child button[data-add]").await;
        settled(&client).await;
        wait_js(&client, VERDICT_IN_VIEW).await;
        no_sideways_scroll(&client, &format!("the builder at {width} px")).await;

        // A whole legal deck, opened from its link.
        client
            .goto(&format!("{url}intrepidos/deck?code={}", query_value(&code)))
            .await
            .unwrap();
        assert_eq!(status(&client).await, "Legal");
        wait_js(&client, VERDICT_IN_VIEW).await;
        no_sideways_scroll(&client, &format!("a full deck at {width} px")).await;
        if width == 390 {
            screenshot(&client, "serve-phone.png").await;
        }
        for page in ["", "intrepidos/cards", "kingdoms/cards", "organize"] {
            client.goto(&format!("{url}{page}")).await.unwrap();
            wait_js(&client, "return document.getElementById('cb-main').children.length>1 || !!document.querySelector('#cb-main h1')").await;
            tokio::time::sleep(Duration::from_millis(200)).await;
            no_sideways_scroll(&client, &format!("/play/{page} at {width} px")).await;
        }
    }
    client.close().await.unwrap();
}

/// A browser keeps at most six connections to a server: each page left
/// must close its event stream, or the seventh page waits for one to time
/// out (about a minute).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_left_frees_its_connection_for_the_next_one() {
    let ws = Workspace::shipped(&["intrepidos", "kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;
    for i in 0..10 {
        let game = ["intrepidos", "kingdoms"][i % 2];
        let page = ["cards", "deck"][i / 2 % 2];
        let started = std::time::Instant::now();
        client.goto(&format!("{url}{game}/{page}")).await.unwrap();
        // A page that waited for a connection waited for a stream of an
        // earlier page to time out: tens of seconds, not a moment.
        let waited = started.elapsed();
        assert!(
            waited < Duration::from_secs(15),
            "page {i} ({game}/{page}) took {waited:?} to load"
        );
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_core_finds_nothing_serious_on_any_page() {
    let axe_js = axe_source();
    // Every shipped game: their printed faces are on the cards pages.
    let ws = Workspace::shipped(&[]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let code = code_of(
        &url,
        "intrepidos",
        "cards/intrepidos/decks/furia-de-aries.toml",
    );
    let (_, games) = http(&url, "GET", "/api/games", &Value::Null);
    let games = games.as_array().unwrap().clone();
    assert_eq!(games.len(), 5, "{games:?}");
    let (_driver, client) = browser(profile.path()).await;

    client.goto(&url).await.unwrap();
    wait_js(&client, "return !!document.querySelector('.cb-games li')").await;
    accessible(&client, &axe_js, "the games").await;
    for g in &games {
        let game = g["id"].as_str().unwrap();
        client.goto(&format!("{url}{game}/cards")).await.unwrap();
        wait_js(
            &client,
            "return !!document.querySelector('#cb-grid figure')",
        )
        .await;
        accessible(&client, &axe_js, &format!("{game}'s cards")).await;
        if g["zones"] == 0 {
            continue;
        }
        client.goto(&format!("{url}{game}/deck")).await.unwrap();
        settled(&client).await;
        accessible(&client, &axe_js, &format!("{game}'s empty deck")).await;
    }
    // A deck with broken rules, its filters open and the large card view.
    client
        .goto(&format!("{url}intrepidos/deck?code={}", query_value(&code)))
        .await
        .unwrap();
    settled(&client).await;
    click(&client, "[data-line=\"main/escudo-orc\"] button[data-inc]").await;
    assert_eq!(status(&client).await, "Illegal");
    click(&client, ".cb-filters summary").await;
    accessible(&client, &axe_js, "an illegal deck").await;
    click(&client, "[data-line=\"main/escudo-orc\"] .cb-name").await;
    wait_js(&client, "return !document.getElementById('cb-big').hidden").await;
    accessible(&client, &axe_js, "the large card view").await;
    client.set_window_size(390, 844).await.unwrap();
    client.refresh().await.unwrap();
    settled(&client).await;
    accessible(&client, &axe_js, "the builder at 390 px").await;
    client.set_window_size(1200, 900).await.unwrap();

    client.goto(&format!("{url}organize")).await.unwrap();
    accessible(&client, &axe_js, "the organisers' page").await;
    client
        .find(fantoccini::Locator::Id("cb-codes"))
        .await
        .unwrap()
        .send_keys(&format!("{code}\nnot-a-code"))
        .await
        .unwrap();
    click(&client, "#cb-judge").await;
    wait_js(&client, "return !!document.getElementById('cb-table')").await;
    accessible(&client, &axe_js, "the organisers' verdicts").await;

    // `carta watch --serve`: the preview's index and a game's page.
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let (_watch, preview) = crate::watch::start_watch(&tmp.path().join("live"));
    client.goto(&preview).await.unwrap();
    wait_js(&client, "return document.readyState==='complete'").await;
    accessible(&client, &axe_js, "the preview's index").await;
    client.goto(&format!("{preview}g/live/")).await.unwrap();
    wait_js(&client, "return document.readyState==='complete'").await;
    accessible(&client, &axe_js, "the preview of a game").await;
    client
        .goto(&format!("{preview}play/live/deck"))
        .await
        .unwrap();
    settled(&client).await;
    accessible(&client, &axe_js, "watch --serve's builder").await;
    client.close().await.unwrap();
}

/// The cards the pool shows, in order.
async fn pool(client: &Client) -> Vec<String> {
    let ids = js(
        client,
        "return [...document.querySelectorAll('#cb-pool .cb-row')].map(r=>r.dataset.card)",
    )
    .await;
    ids.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// Waits until the pool shows something else than `before`; what it shows.
async fn pool_changed(client: &Client, before: &[String]) -> Vec<String> {
    for _ in 0..200 {
        let now = pool(client).await;
        if now != before {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the pool never changed:\n{}", page_text(client).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_ranks_the_name_first_and_the_builder_filters_by_every_facet() {
    let ws = Workspace::shipped(&["intrepidos", "kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let kingdoms = names(&url, "kingdoms");
    let facet = |field: &str| {
        kingdoms["facets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["field"] == field)
            .unwrap_or_else(|| panic!("no facet {field}: {}", kingdoms["facets"]))["kind"]
            .clone()
    };
    assert_eq!(facet("kingdom"), "enum");
    assert_eq!(facet("level"), "integer");
    for flag in ["mercenary", "unique", "solitary"] {
        assert_eq!(facet(flag), "boolean", "{flag}");
    }
    let (_driver, client) = browser(profile.path()).await;

    // "Frixo": Rei Frixo first, then the cards whose text names him.
    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    settled(&client).await;
    let all = pool(&client).await;
    client
        .find(fantoccini::Locator::Id("cb-search"))
        .await
        .unwrap()
        .send_keys("Frixo")
        .await
        .unwrap();
    let found = pool_changed(&client, &all).await;
    assert_eq!(found[0], "rei-frixo", "{found:?}");
    assert!(found.len() > 1, "other cards name Frixo: {found:?}");

    // Kingdoms: the flag facet keeps the mercenaries; searching the flag's
    // title finds each of them, the best matches first.
    let mercenaries: Vec<String> = kingdoms["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["values"]["mercenary"] == true)
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(!mercenaries.is_empty());
    client.goto(&format!("{url}kingdoms/deck")).await.unwrap();
    settled(&client).await;
    let all = pool(&client).await;
    click(&client, ".cb-filters summary").await;
    click(
        &client,
        "select[data-facet=\"mercenary\"] option[value=\"yes\"]",
    )
    .await;
    let mut shown = pool_changed(&client, &all).await;
    shown.sort();
    let mut want = mercenaries.clone();
    want.sort();
    assert_eq!(shown, want, "the mercenaries, and only them");
    click(
        &client,
        "select[data-facet=\"mercenary\"] option[value=\"\"]",
    )
    .await;
    let again = pool_changed(&client, &shown).await;
    assert_eq!(again.len(), all.len());
    client
        .find(fantoccini::Locator::Id("cb-search"))
        .await
        .unwrap()
        .send_keys("mercenário")
        .await
        .unwrap();
    let found = pool_changed(&client, &again).await;
    assert!(found.len() < all.len(), "{found:?}");
    for id in &mercenaries {
        assert!(found.contains(id), "{id} is found by its flag: {found:?}");
    }
    // An integer facet: level 1 only.
    client.goto(&format!("{url}kingdoms/deck")).await.unwrap();
    settled(&client).await;
    click(&client, ".cb-filters summary").await;
    let level = |end: &str| format!("input[data-facet=\"level.{end}\"]");
    for end in ["min", "max"] {
        client
            .find(fantoccini::Locator::Css(&level(end)))
            .await
            .unwrap()
            .send_keys("1")
            .await
            .unwrap();
    }
    let ones = pool_changed(&client, &all).await;
    for id in &ones {
        let card = kingdoms["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id.as_str())
            .unwrap();
        assert_eq!(card["values"]["level"], 1, "{id}");
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_times_n_stops_at_the_copy_limit_and_undo_redo_and_focus_follow() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let summary = names(&url, "intrepidos");
    let shield = summary["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "escudo-orc")
        .unwrap();
    assert_eq!(shield["limits"][""]["main"], 3, "{shield}");
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    settled(&client).await;
    let times = client
        .find(fantoccini::Locator::Id("cb-times"))
        .await
        .unwrap();
    times.clear().await.unwrap();
    times.send_keys("5").await.unwrap();
    let add = ".cb-row[data-card=\"escudo-orc\"] button[data-add=\"main\"]";
    click(&client, add).await;
    settled(&client).await;
    assert_eq!(
        count_of(&client, "main", "escudo-orc").await,
        3,
        "up to the limit"
    );
    click(&client, add).await;
    wait_js(
        &client,
        "return document.getElementById('cb-times-help').textContent.includes('its limit')",
    )
    .await;
    assert_eq!(
        count_of(&client, "main", "escudo-orc").await,
        3,
        "no more than the limit"
    );

    // Undo and redo, by the buttons.
    click(&client, "#cb-undo").await;
    settled(&client).await;
    assert_eq!(count_of(&client, "main", "escudo-orc").await, 0);
    click(&client, "#cb-redo").await;
    settled(&client).await;
    assert_eq!(count_of(&client, "main", "escudo-orc").await, 3);
    assert_eq!(
        js(
            &client,
            "return document.getElementById('cb-redo').disabled"
        )
        .await,
        true
    );

    // The focus stays on "one less" as copies go, then moves to the card's
    // add button when its line goes.
    let less = "dec|main|escudo-orc";
    js(
        &client,
        &format!("document.querySelector('[data-key=\"{less}\"]').focus();return true"),
    )
    .await;
    let enter: char = Key::Enter.into();
    for left in [2, 1] {
        press(&client, &[enter]).await;
        wait_js(&client, &format!("var l=document.querySelector('[data-line=\"main/escudo-orc\"] .cb-n');return !!l&&l.textContent==='{left}'")).await;
        settled(&client).await;
        assert_eq!(focused(&client).await, less);
    }
    press(&client, &[enter]).await;
    wait_js(
        &client,
        "return !document.querySelector('[data-line=\"main/escudo-orc\"]')",
    )
    .await;
    settled(&client).await;
    assert_eq!(focused(&client).await, "add|main|escudo-orc");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_large_card_view_opens_by_keyboard_and_closes_on_escape_and_when_the_pointer_leaves() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    settled(&client).await;
    let name = "show|pool|leonidas";
    js(
        &client,
        &format!("document.querySelector('[data-key=\"{name}\"]').focus();return true"),
    )
    .await;
    let enter: char = Key::Enter.into();
    let open = "var b=document.getElementById('cb-big');return !b.hidden && b.dataset.card==='leonidas' && !!b.querySelector('.carta-card[data-card=\"leonidas\"]')";
    press(&client, &[enter]).await;
    wait_js(&client, open).await;
    assert_eq!(focused(&client).await, "BUTTON", "the focus is on Close");
    let label = js(
        &client,
        "return document.activeElement.getAttribute('aria-label')",
    )
    .await;
    assert_eq!(label, "Close Leônidas");
    // The view is larger than the pool's preview.
    let width = js(
        &client,
        "return document.querySelector('#cb-big .cb-face').getBoundingClientRect().width",
    )
    .await;
    assert!(width.as_f64().unwrap() > 300.0, "{width}");
    press(&client, &[Key::Escape.into()]).await;
    wait_js(&client, "return document.getElementById('cb-big').hidden").await;
    assert_eq!(
        focused(&client).await,
        name,
        "the focus goes back to the card"
    );

    // Opened again, it closes when the pointer leaves it.
    press(&client, &[enter]).await;
    wait_js(&client, open).await;
    let big = client
        .find(fantoccini::Locator::Id("cb-big"))
        .await
        .unwrap();
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: big,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::MoveTo {
            duration: None,
            x: 2.0,
            y: 2.0,
        });
    client.perform_actions(mouse).await.unwrap();
    wait_js(&client, "return document.getElementById('cb-big').hidden").await;
    // And when a click lands beside it.
    assert_eq!(focused(&client).await, name);
    press(&client, &[enter]).await;
    wait_js(&client, open).await;
    let beside = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: 4.0,
            y: 60.0,
        })
        .then(PointerAction::Down {
            button: fantoccini::actions::MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: fantoccini::actions::MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(beside).await.unwrap();
    wait_js(&client, "return document.getElementById('cb-big').hidden").await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_read_as_words_name_cards_and_mark_the_card_added() {
    let ws = Workspace::shipped(&["intrepidos", "kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let rel = "cards/intrepidos/decks/furia-de-aries.toml";
    let code = code_of(&url, "intrepidos", rel);
    let summary = names(&url, "intrepidos");
    let lines = lines_of(rel);
    let extra = summary["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "action" && !lines.iter().any(|l| c["id"] == l.1.as_str()))
        .expect("an action the deck lacks")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_driver, client) = browser(profile.path()).await;
    client
        .goto(&format!("{url}intrepidos/deck?code={}", query_value(&code)))
        .await
        .unwrap();
    assert_eq!(status(&client).await, "Legal");

    // A 31st action: only it is marked, beside the count and size rules.
    click(
        &client,
        &format!(".cb-row[data-card=\"{extra}\"] button[data-add=\"main\"]"),
    )
    .await;
    assert_eq!(status(&client).await, "Illegal");
    wait_js(
        &client,
        "return !!document.querySelector('#cb-problems li[data-rule=\"split-actions\"]')",
    )
    .await;
    let marked = js(
        &client,
        "return [...document.querySelectorAll('.cb-line.cb-bad')].map(l=>l.dataset.line)",
    )
    .await;
    assert_eq!(
        marked,
        json!([format!("main/{extra}")]),
        "only the card added"
    );
    let verdict = js(
        &client,
        "return document.getElementById('cb-verdict').innerText",
    )
    .await;
    let verdict = verdict.as_str().unwrap();
    assert!(
        !verdict.contains('`') && !verdict.contains('*'),
        "{verdict}"
    );
    let count = js(
        &client,
        "return document.querySelector('li[data-rule=\"split-actions\"] .cb-numbers').textContent",
    )
    .await;
    assert_eq!(
        count, "has 31 Ação cards; requires exactly 30",
        "the kind by its name"
    );
    let size = js(&client, "return document.querySelector('li[data-rule=\"deck-size\"] [data-zone-size=\"main\"]').textContent").await;
    assert_eq!(size, " · Deck: 61 cards", "the size the rule counts");
    let head = js(
        &client,
        "return document.getElementById('cb-status').innerText",
    )
    .await;
    assert!(head.as_str().unwrap().contains("Deck 61"), "{head}");
    assert!(
        !head.as_str().unwrap().contains("70"),
        "no total of every zone: {head}"
    );
    let numbers = js(&client, "return [...document.querySelectorAll('#cb-problems > li')].map(li=>li.querySelectorAll('.cb-numbers').length)").await;
    assert!(
        numbers.as_array().unwrap().iter().all(|n| n == 1),
        "one tally per rule: {numbers}"
    );

    // Two items over their limit break one rule twice: one entry, one tally.
    for card in ["escudo-orc", "elmo-de-bronze"] {
        click(
            &client,
            &format!("[data-line=\"main/{card}\"] button[data-inc]"),
        )
        .await;
        settled(&client).await;
    }
    wait_js(&client, "var li=document.querySelectorAll('#cb-problems > li[data-rule=\"item-copies\"]');return li.length===1 && li[0].querySelectorAll('.cb-message').length===2").await;

    // Kingdoms: the bind message names the cards, never their ids.
    client.goto(&format!("{url}kingdoms/deck")).await.unwrap();
    settled(&client).await;
    for card in ["valaria", "vorkath-rei-sepulcral"] {
        click(
            &client,
            &format!(".cb-row[data-card=\"{card}\"] button[data-add=\"main\"]"),
        )
        .await;
        settled(&client).await;
    }
    wait_js(
        &client,
        "return !!document.querySelector('#cb-problems li[data-rule=\"hero-of-the-city\"]')",
    )
    .await;
    let bind = js(&client, "return document.querySelector('#cb-problems li[data-rule=\"hero-of-the-city\"]').innerText").await;
    let bind = bind.as_str().unwrap();
    let kingdoms = names(&url, "kingdoms");
    assert!(
        bind.contains(&name_of(&kingdoms, "vorkath-rei-sepulcral")),
        "{bind}"
    );
    assert!(bind.contains(&name_of(&kingdoms, "valaria")), "{bind}");
    assert!(
        !bind.contains("vorkath-rei-sepulcral") && !bind.contains('`'),
        "{bind}"
    );
    client.close().await.unwrap();
}

/// The copy limits the page's "add ×N" stops at: per rule set (the game's
/// own under `""`, each format's), per zone; a format that drops the limit
/// has none.
#[test]
fn each_card_carries_its_copy_limit_under_the_games_rules_and_each_format() {
    let ws = Workspace::empty();
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let (_server, url) = start_serve(ws.path());
    let (code, game) = http(&url, "GET", "/api/games/mosaico", &Value::Null);
    assert_eq!(code, 200);
    let limits = |id: &str| {
        game["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()["limits"]
            .clone()
    };
    // Liga keeps the game's rules and tightens them; relâmpago replaces them.
    assert_eq!(
        limits("azul-flor"),
        json!({"": {"main": 3}, "liga": {"main": 2}})
    );
    assert_eq!(
        limits("azul-estrela"),
        json!({"": {"main": 1}, "liga": {"main": 1}})
    );
    assert_eq!(limits("dona-azul"), json!({}), "a patron has no copy rule");
}

/// The text of the first element `css` matches.
async fn text_of(client: &Client, css: &str) -> String {
    let script = format!(
        "var e=document.querySelector({});return e?e.textContent:null",
        json!(css)
    );
    let found = js(client, &script).await;
    match found.as_str() {
        Some(text) => text.to_owned(),
        None => panic!("no `{css}`:\n{}", page_text(client).await),
    }
}

/// Issue 25, language: the builder opens in the game's own language
/// (Portuguese for intrépidos: the page's `lang`, a button, the verdict,
/// a zone's count by Fluent's plural), its header's labelled language
/// menu — used by the keyboard — turns it to English with the deck kept
/// (its code and `ui=en` in the address, kept by the links), the cards in
/// the game's English translation; zodiacos opens in Spanish; a language
/// carta does not speak is said once, in English. axe-core finds nothing
/// serious or critical in each language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_builder_speaks_the_games_language_and_switches_to_english() {
    let axe_js = axe_source();
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = crate::watch::start_server(ws.path(), &["serve", "--port", "0"]);
    let english = names(&format!("{url}?ui=en"), "intrepidos?ui=en");
    let (_driver, client) = browser(profile.path()).await;
    let lang = "return document.documentElement.lang";

    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    settled(&client).await;
    assert_eq!(js(&client, lang).await, "pt-BR");
    assert_eq!(text_of(&client, "#cb-undo").await, "Desfazer");
    assert_eq!(text_of(&client, "[data-total=\"main\"]").await, "0 cartas");
    for _ in 0..3 {
        click(
            &client,
            ".cb-row[data-card=\"golpe-certeiro\"] button[data-add=\"main\"]",
        )
        .await;
    }
    assert_eq!(status(&client).await, "Inválido");
    assert_eq!(text_of(&client, "[data-total=\"main\"]").await, "3 cartas");
    let copies = "[data-rule=\"action-copies\"] .cb-numbers";
    assert_eq!(
        text_of(&client, copies).await,
        "tem 3 cópias; exige no máximo 2"
    );
    accessible(&client, &axe_js, "the builder in Portuguese").await;
    // Portuguese words are longer: at a phone's width nothing is wider
    // than the window, and the verdict stays in view.
    client.set_window_size(390, 844).await.unwrap();
    settled(&client).await;
    no_sideways_scroll(&client, "the builder in Portuguese at 390 px").await;
    wait_js(&client, VERDICT_IN_VIEW).await;
    screenshot(&client, "serve-phone-pt.png").await;
    client.set_window_size(1200, 900).await.unwrap();

    // The menu, by the keyboard: focus it, pick English, and the page is
    // drawn again in English with the same deck.
    assert_eq!(
        js(
            &client,
            "return document.getElementById('cb-ui').labels[0].firstChild.textContent"
        )
        .await,
        "Idioma "
    );
    js(&client, "document.getElementById('cb-ui').focus()").await;
    // English is the first language, just above Portuguese.
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down {
            value: Key::Up.into(),
        })
        .then(KeyAction::Up {
            value: Key::Up.into(),
        });
    client.perform_actions(keys).await.unwrap();
    wait_js(&client, "return document.documentElement.lang==='en'").await;
    settled(&client).await;
    let address = js(&client, "return location.search").await;
    let address = address.as_str().unwrap();
    assert!(
        address.contains("ui=en") && address.contains("code="),
        "{address}"
    );
    assert_eq!(status(&client).await, "Illegal");
    assert_eq!(text_of(&client, "#cb-undo").await, "Undo");
    assert_eq!(
        text_of(&client, copies).await,
        "has 3 copies; requires at most 2"
    );
    assert_eq!(text_of(&client, "[data-total=\"main\"]").await, "3 cards");
    let name = name_of(&english, "golpe-certeiro");
    assert_ne!(name, "Golpe Certeiro");
    assert_eq!(
        text_of(&client, "[data-line=\"main/golpe-certeiro\"] .cb-name").await,
        name
    );
    let nav = js(
        &client,
        "return document.querySelector('#cb-nav a').getAttribute('href')",
    )
    .await;
    assert!(nav.as_str().unwrap().ends_with("?ui=en"), "{nav}");
    accessible(&client, &axe_js, "the builder in English").await;

    client.goto(&format!("{url}zodiacos/cards")).await.unwrap();
    wait_js(
        &client,
        "return !!document.querySelector('#cb-grid figure')",
    )
    .await;
    assert_eq!(js(&client, lang).await, "es");
    assert_eq!(text_of(&client, "#cb-search").await, "");
    assert!(text_of(&client, "#cb-count").await.ends_with(" cartas"));
    accessible(&client, &axe_js, "the cards in Spanish").await;

    client.goto(&format!("{url}organize?ui=xx")).await.unwrap();
    wait_js(&client, "return !!document.getElementById('cb-judge')").await;
    assert_eq!(js(&client, lang).await, "en");
    assert_eq!(
        text_of(&client, "#cb-ui-unknown").await,
        "The language “xx” is not available: the page is in English."
    );
    assert_eq!(
        js(
            &client,
            "return document.querySelectorAll('#cb-ui-unknown').length"
        )
        .await,
        1
    );
    accessible(&client, &axe_js, "the organisers' page, asked in xx").await;
    client.close().await.unwrap();
}

/// The ids of the sample hand, in the order drawn.
async fn hand(client: &Client) -> Vec<String> {
    js(
        client,
        "return Array.from(document.querySelectorAll('#cb-hand li')).map(function (l) { return l.dataset.card; })",
    )
    .await
    .as_array()
    .unwrap()
    .iter()
    .map(|v| v.as_str().unwrap().to_owned())
    .collect()
}

/// Every card of `drawn` is a card of the deck's `lines`, no more often
/// than the deck holds it.
fn of_the_deck(drawn: &[String], lines: &[(String, String, u32)]) {
    for card in drawn {
        let have = lines
            .iter()
            .find(|(z, c, _)| z == "main" && c == card)
            .map_or(0, |l| l.2);
        let times = drawn.iter().filter(|c| *c == card).count();
        assert!(
            times <= usize::try_from(have).unwrap(),
            "{card} drawn {times}× of {have}: {drawn:?}"
        );
    }
}

/// Issue 25, playtest figures: the panel deals a sample hand of the
/// game's declared size from the deck (a mulligan of its declared four,
/// one more card), repeatable with `?seed=`; its odds are the API's; its
/// curve counts every card of the zone; axe-core finds nothing serious
/// with it open, at a desktop's width and a phone's. A game without an
/// opening hand says so and takes the hand size typed. Issue 52: the
/// opening formation is never dealt, kingdoms allows one mulligan, and
/// intrépidos, whose rulebook has none, offers no mulligan.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_playtest_panel_deals_a_hand_and_shows_the_odds_the_api_computes() {
    let ws = Workspace::shipped(&["kingdoms", "intrepidos"]);
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let rel = "cards/kingdoms/decks/aurora-de-valaria.toml";
    let code = code_of(&url, "kingdoms", rel);
    let lines = lines_of(rel);
    let axe_js = axe_source();
    let (_driver, client) = browser(profile.path()).await;
    client.set_window_size(1200, 1000).await.unwrap();
    let page = format!("{url}kingdoms/deck?code={}&seed=7", query_value(&code));
    client.goto(&page).await.unwrap();
    assert_eq!(status(&client).await, "Legal");
    click(&client, "#cb-play summary").await;
    let rules = js(
        &client,
        "return document.getElementById('cb-play-rules').textContent",
    )
    .await;
    assert!(
        rules
            .as_str()
            .unwrap()
            .contains("Opening hand: 5 cards from Deck (after a mulligan: 4)"),
        "{rules}"
    );

    // A hand of the declared five, all cards of the deck; a mulligan
    // deals the declared four; one more card makes five again.
    click(&client, "#cb-draw").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-hand li').length===5",
    )
    .await;
    let first = hand(&client).await;
    of_the_deck(&first, &lines);
    let said = js(&client, "var s=document.getElementById('cb-hand-status');return [s.getAttribute('aria-live'), s.textContent]").await;
    assert_eq!(said[0], "polite");
    assert!(
        said[1]
            .as_str()
            .unwrap()
            .starts_with("New hand of 5, 48 left in Deck"),
        "{said}"
    );
    click(&client, "#cb-mulligan").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-hand li').length===4",
    )
    .await;
    of_the_deck(&hand(&client).await, &lines);
    click(&client, "#cb-next").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-hand li').length===5",
    )
    .await;
    let five = hand(&client).await;
    of_the_deck(&five, &lines);
    // The one mulligan is spent: a second one deals nothing, and says why.
    click(&client, "#cb-mulligan").await;
    wait_js(&client, "return document.getElementById('cb-hand-status').textContent.indexOf('allows one mulligan a game')>=0").await;
    assert_eq!(hand(&client).await, five, "no second mulligan");
    // The city and the hero start on the table: no deal holds them.
    for _ in 0..20 {
        click(&client, "#cb-draw").await;
        let kinds = js(&client, "return Array.from(document.querySelectorAll('#cb-hand li .cb-kind')).map(function (k) { return k.textContent; })").await;
        let kinds = kinds.as_array().unwrap();
        assert_eq!(kinds.len(), 5);
        assert!(
            !kinds.iter().any(|k| k == "Cidade" || k == "Herói"),
            "dealt from the table: {kinds:?}"
        );
    }
    // The same seed deals the same hand.
    client.goto(&page).await.unwrap();
    assert_eq!(status(&client).await, "Legal");
    click(&client, "#cb-play summary").await;
    click(&client, "#cb-draw").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-hand li').length===5",
    )
    .await;
    assert_eq!(hand(&client).await, first, "?seed= repeats the deal");

    // At least two actions by turn 3: the page shows the API's figure.
    js(&client, "var g=document.getElementById('cb-odds-group');g.value=JSON.stringify({field:'kind',value:'action'});\
        document.getElementById('cb-odds-k').value='2';var t=document.getElementById('cb-odds-turn');t.value='3';\
        t.dispatchEvent(new Event('input'));return true").await;
    wait_js(&client, "var o=document.getElementById('cb-odds');return o.dataset.probability!==undefined && o.textContent.indexOf('by turn 3')>=0").await;
    let shown = js(&client, "var o=document.getElementById('cb-odds');return [Number(o.dataset.probability), o.textContent, o.getAttribute('aria-live')]").await;
    let mut zones = serde_json::Map::new();
    for (zone, card, n) in &lines {
        zones
            .entry(zone.clone())
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .unwrap()
            .insert(card.clone(), json!(n));
    }
    let ask = json!({"deck": {"name": "Deck", "zones": zones}, "group": {"field": "kind", "value": "action"}, "at_least": 2, "by_turn": 3});
    let (status_code, odds) = http(&url, "POST", "/api/games/kingdoms/odds", &ask);
    assert_eq!(status_code, 200, "{odds}");
    assert_eq!(
        shown[0].as_f64(),
        odds["probability"].as_f64(),
        "{shown} vs {odds}"
    );
    let text = shown[1].as_str().unwrap();
    assert!(text.contains("7 cards seen of the 53 in Deck"), "{text}");
    assert_eq!(shown[2], "polite");

    // The curve of an integer field counts every card of the zone.
    let rows = js(&client, "var s=document.getElementById('cb-curve-field');s.value='level';s.dispatchEvent(new Event('change'));\
        return Array.from(document.querySelectorAll('#cb-curve tbody tr')).map(function (r) { return [r.cells[0].textContent, Number(r.cells[1].textContent)]; })").await;
    let rows = rows.as_array().unwrap();
    let counted: u64 = rows.iter().map(|r| r[1].as_u64().unwrap()).sum();
    assert_eq!(counted, 60, "{rows:?}");
    assert!(
        rows.iter().any(|r| r[0] == "1"),
        "level 1 characters: {rows:?}"
    );

    js(
        &client,
        "document.getElementById('cb-play').scrollIntoView();return true",
    )
    .await;
    if std::env::var_os("CARTA_BLESS").is_some() {
        let panel = client
            .find(fantoccini::Locator::Css("#cb-play"))
            .await
            .unwrap();
        std::fs::write(
            repo().join("docs/img/serve-odds.png"),
            panel.screenshot().await.unwrap(),
        )
        .unwrap();
    }
    accessible(&client, &axe_js, "the builder with the playtest panel open").await;
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let wide = js(&client, "return Array.from(document.querySelectorAll('#cb-main *')).filter(function (e) { return e.getBoundingClientRect().right > window.innerWidth; })\
        .slice(0, 6).map(function (e) { return e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right); })").await;
    assert_eq!(wide, json!([]), "wider than the window at 390 px");
    no_sideways_scroll(&client, "the playtest panel at 390 px").await;
    accessible(&client, &axe_js, "the playtest panel at 390 px").await;

    // Intrépidos has no mulligan: no button offers one.
    client.set_window_size(1200, 1000).await.unwrap();
    let rel = "cards/intrepidos/decks/furia-de-aries.toml";
    let code = code_of(&url, "intrepidos", rel);
    client
        .goto(&format!("{url}intrepidos/deck?code={}", query_value(&code)))
        .await
        .unwrap();
    assert_eq!(status(&client).await, "Legal");
    click(&client, "#cb-play summary").await;
    let buttons = js(
        &client,
        "return [!!document.getElementById('cb-draw'), !!document.getElementById('cb-mulligan')]",
    )
    .await;
    assert_eq!(buttons, json!([true, false]), "a hand, and no mulligan");

    // A game without `[play]` says so, and deals and reckons with the hand
    // size the player types.
    let azul = json!({"name": "Azul", "zones": {"main": {"azul-flor": 3, "verde-flor": 3, "ocre-flor": 2}, "patron": {"dona-azul": 1}}});
    let (_, verdict) = http(&url, "POST", "/api/games/mosaico/verdict", &azul);
    let code = verdict["code"].as_str().unwrap();
    client
        .goto(&format!("{url}mosaico/deck?code={}", query_value(code)))
        .await
        .unwrap();
    settled(&client).await;
    click(&client, "#cb-play summary").await;
    let rules = js(&client, "return [document.getElementById('cb-play-rules').textContent, document.getElementById('cb-hand-size').value]").await;
    assert!(
        rules[0]
            .as_str()
            .unwrap()
            .contains("declares no opening hand"),
        "{rules}"
    );
    assert_eq!(rules[1], "", "no hand size until the player types one");
    wait_js(
        &client,
        "return document.getElementById('cb-odds').textContent==='Type a hand size first.'",
    )
    .await;
    click(&client, "#cb-hand-size").await;
    type_keys(&client, "2").await;
    wait_js(
        &client,
        "return document.getElementById('cb-odds').dataset.probability!==undefined",
    )
    .await;
    click(&client, "#cb-draw").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-hand li').length===2",
    )
    .await;
    client.close().await.unwrap();
}

/// The collection's message under the search (where it read or wrote).
const OWNED_MSG: &str = "((document.getElementById('cb-owned-msg')||{}).textContent||'')";

/// Waits until card `card`'s row shows `n` copies owned.
async fn owned_shown(client: &Client, card: &str, n: u32) {
    wait_js(
        client,
        &format!("var o=document.querySelector('.cb-row[data-card=\"{card}\"] .cb-owned');return !!o && o.dataset.owned==='{n}'"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_collection_keeps_owned_cards_shows_missing_copies_and_is_edited_from_the_page() {
    let axe_js = axe_source();
    let ws = Workspace::shipped(&["intrepidos"]);
    let rel = "decks/intrepidos/collection.toml";
    ws.write(
        rel,
        "game = \"intrepidos\"\n\n[cards]\nescudo-orc = 1\ngolpe-certeiro = 2\n",
    );
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    settled(&client).await;
    wait_js(
        &client,
        &format!("return ({OWNED_MSG}).indexOf('{rel}')>=0"),
    )
    .await;

    // "Owned only" keeps exactly the cards the collection holds.
    let all = pool(&client).await;
    click(&client, "#cb-owned-only").await;
    let mut owned = pool_changed(&client, &all).await;
    owned.sort();
    assert_eq!(owned, ["escudo-orc", "golpe-certeiro"]);

    // Three copies of a card owned once: "missing 2 copies" by the verdict.
    for _ in 0..3 {
        click(
            &client,
            ".cb-row[data-card=\"escudo-orc\"] button[data-add=\"main\"]",
        )
        .await;
        settled(&client).await;
    }
    wait_js(&client, "var m=document.querySelector('#cb-verdict #cb-missing li[data-card=\"escudo-orc\"]');return !!m && m.dataset.missing==='2'").await;
    let said = js(
        &client,
        "var m=document.getElementById('cb-missing');return [m.dataset.total, m.textContent]",
    )
    .await;
    assert_eq!(said[0], "2", "{said}");
    assert!(
        said[1]
            .as_str()
            .unwrap()
            .contains("Missing 2 copies of 1 card"),
        "{said}"
    );
    accessible(&client, &axe_js, "the builder with a collection").await;

    // Edited from the page, by mouse and by keyboard: the file follows,
    // the page says where it wrote, and nothing is missing any more.
    click(&client, "#cb-owned-edit").await;
    owned_shown(&client, "escudo-orc", 1).await;
    click(
        &client,
        ".cb-row[data-card=\"escudo-orc\"] button[data-own=\"+\"]",
    )
    .await;
    owned_shown(&client, "escudo-orc", 2).await;
    js(&client, "document.querySelector('.cb-row[data-card=\"escudo-orc\"] button[data-own=\"+\"]').focus();return true").await;
    let enter: char = Key::Enter.into();
    press(&client, &[enter]).await;
    owned_shown(&client, "escudo-orc", 3).await;
    assert_eq!(
        focused(&client).await,
        "own+|pool|escudo-orc",
        "the focus stays"
    );
    wait_js(
        &client,
        "return !!document.querySelector('#cb-missing .cb-ok')",
    )
    .await;
    assert!(
        ws.read(rel).contains("escudo-orc = 3\n"),
        "{}",
        ws.read(rel)
    );
    let msg = js(&client, &format!("return {OWNED_MSG}")).await;
    assert_eq!(msg, format!("saved in {rel}"));
    let name = js(&client, "return document.querySelector('.cb-row[data-card=\"escudo-orc\"] button[data-own=\"-\"]').getAttribute('aria-label')").await;
    assert_eq!(name, "One less owned copy of Escudo Orc");
    accessible(&client, &axe_js, "the collection being edited").await;

    // Down to none: the card leaves the owned-only pool and the file.
    for n in [1, 0] {
        click(
            &client,
            ".cb-row[data-card=\"golpe-certeiro\"] button[data-own=\"-\"]",
        )
        .await;
        if n > 0 {
            owned_shown(&client, "golpe-certeiro", n).await;
        }
    }
    wait_js(
        &client,
        "return !document.querySelector('.cb-row[data-card=\"golpe-certeiro\"]')",
    )
    .await;
    assert!(!ws.read(rel).contains("golpe-certeiro"), "{}", ws.read(rel));

    // At a phone's width, editing: nothing scrolls sideways.
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    no_sideways_scroll(&client, "the collection at 390 px").await;
    accessible(&client, &axe_js, "the collection at 390 px").await;
    client.close().await.unwrap();
    ws.run(["check"]).succeeds();
}

/// Issue 25, the builder in the player's language: on a pt-BR page the
/// playtest panel and the collection's controls speak Portuguese (the
/// missing copies with their plurals, one and many), and axe-core finds
/// nothing serious or critical there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_playtest_panel_and_the_collection_speak_portuguese_on_a_pt_br_page() {
    let axe_js = axe_source();
    let ws = Workspace::shipped(&["intrepidos"]);
    let rel = "decks/intrepidos/collection.toml";
    ws.write(
        rel,
        "game = \"intrepidos\"\n\n[cards]\nescudo-orc = 1\ngolpe-certeiro = 2\n",
    );
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = browser(profile.path()).await;
    client
        .goto(&format!("{url}intrepidos/deck?ui=pt-BR&seed=3"))
        .await
        .unwrap();
    settled(&client).await;
    assert_eq!(
        js(&client, "return document.documentElement.lang").await,
        "pt-BR"
    );
    wait_js(&client, &format!("return ({OWNED_MSG})==='coleção: {rel}'")).await;
    let label = "return document.getElementById('cb-owned-only').parentNode.textContent";
    assert_eq!(js(&client, label).await, " Só as que tenho");

    // Escudo Orc: 3 in the deck, 1 owned; Golpe Certeiro: 3 and 2.
    for card in ["escudo-orc", "golpe-certeiro"] {
        for _ in 0..3 {
            click(
                &client,
                &format!(".cb-row[data-card=\"{card}\"] button[data-add=\"main\"]"),
            )
            .await;
            settled(&client).await;
        }
    }
    wait_js(
        &client,
        "var m=document.getElementById('cb-missing');return !!m && m.dataset.total==='3'",
    )
    .await;
    let lines = js(
        &client,
        "var m=document.getElementById('cb-missing');return [m.querySelector('.cb-missing-title').textContent]\
         .concat(Array.prototype.map.call(m.querySelectorAll('li'), function (l) { return l.textContent; }))",
    )
    .await;
    assert_eq!(
        lines,
        serde_json::json!([
            "Faltam 3 cópias de 2 cartas na sua coleção",
            "Escudo Orc: faltam 2 (o baralho precisa de 3, você tem 1)",
            "Golpe Certeiro: falta 1 (o baralho precisa de 3, você tem 2)"
        ])
    );
    click(&client, "#cb-owned-edit").await;
    owned_shown(&client, "escudo-orc", 1).await;
    let name = js(&client, "return document.querySelector('.cb-row[data-card=\"escudo-orc\"] button[data-own=\"+\"]').getAttribute('aria-label')").await;
    assert_eq!(name, "Mais uma cópia de Escudo Orc na coleção");

    // The playtest panel: its rules, its buttons and a hand, in Portuguese.
    click(&client, "#cb-play summary").await;
    assert_eq!(text_of(&client, "#cb-play summary").await, "Teste de jogo");
    assert_eq!(text_of(&client, "#cb-draw").await, "Comprar uma mão");
    assert_eq!(
        text_of(&client, "#cb-next").await,
        "Comprar a próxima carta"
    );
    let rules = text_of(&client, "#cb-play-rules").await;
    assert!(rules.starts_with("Mão inicial: 5 cartas de "), "{rules}");
    click(&client, "#cb-draw").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-hand li').length===5",
    )
    .await;
    let said = text_of(&client, "#cb-hand-status").await;
    assert!(said.starts_with("Nova mão de 5, resta 1 em "), "{said}");
    accessible(
        &client,
        &axe_js,
        "the playtest panel and the collection in Portuguese",
    )
    .await;
    client.close().await.unwrap();
}

/// The code of shipped deck file `rel` under its own name, with one more
/// copy of card `more` when given, asked from the server.
fn named_code(url: &str, rel: &str, more: Option<&str>) -> String {
    let text = std::fs::read_to_string(repo().join(rel)).unwrap();
    let deck: toml::Table = toml::from_str(&text).unwrap();
    let mut zones = serde_json::Map::new();
    for (zone, card, n) in lines_of(rel) {
        let n = if more == Some(card.as_str()) {
            n + 1
        } else {
            n
        };
        zones
            .entry(zone)
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .unwrap()
            .insert(card, json!(n));
    }
    let game = deck["game"].as_str().unwrap();
    let body = json!({"name": deck["name"].as_str().unwrap(), "zones": zones});
    let (status, v) = http(url, "POST", &format!("/api/games/{game}/verdict"), &body);
    assert_eq!(status, 200, "{v}");
    v["code"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organisers_table_judges_legal_illegal_and_identical_decks() {
    let ws = Workspace::shipped(&["intrepidos", "kingdoms"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let furia = named_code(&url, "cards/intrepidos/decks/furia-de-aries.toml", None);
    let aurora = named_code(&url, "cards/kingdoms/decks/aurora-de-valaria.toml", None);
    // Fúria with a fourth copy of an item: over its copy limit.
    let over = named_code(
        &url,
        "cards/intrepidos/decks/furia-de-aries.toml",
        Some("escudo-orc"),
    );
    let pasted = format!(
        "// the Saturday league\nAna Lima: {furia}\nBruno Reis: {over}\nCarla Dias: {url}intrepidos/deck?code={furia}\nDavi Melo: {aurora}\nEva Souza: not-a-code\n"
    );
    let (_driver, client) = browser(profile.path()).await;
    client.set_window_size(1400, 1000).await.unwrap();
    client.goto(&format!("{url}organize")).await.unwrap();
    client
        .find(fantoccini::Locator::Id("cb-codes"))
        .await
        .unwrap()
        .send_keys(&pasted)
        .await
        .unwrap();
    click(&client, "#cb-judge").await;
    wait_js(&client, "return !!document.getElementById('cb-table')").await;
    let rows = js(&client, "return [...document.querySelectorAll('#cb-table tr[data-n]')].map(r=>[...r.children].map(c=>c.textContent))").await;
    let rows = rows.as_array().unwrap();
    let at = |n: usize, col: usize| rows[n][col].as_str().unwrap().to_owned();
    assert_eq!(rows.len(), 5, "{rows:?}");
    let players: Vec<String> = (0..5).map(|n| at(n, 2)).collect();
    assert_eq!(
        players,
        [
            "Ana Lima",
            "Bruno Reis",
            "Carla Dias",
            "Davi Melo",
            "Eva Souza"
        ]
    );
    let verdicts: Vec<String> = (0..5).map(|n| at(n, 6)).collect();
    assert_eq!(verdicts, ["legal", "illegal", "legal", "legal", "invalid"]);
    assert!(at(1, 8).contains("copies"), "the broken rule: {}", at(1, 8));
    assert_eq!(at(0, 10), "#3", "Ana's deck is Carla's");
    assert_eq!(at(2, 10), "#1");
    assert_eq!(at(1, 10), "", "one card more is another deck");
    let summary = js(
        &client,
        "return document.getElementById('cb-summary').textContent",
    )
    .await;
    assert!(
        summary.as_str().unwrap().starts_with("3 of 5 decks legal"),
        "{summary}"
    );
    screenshot(&client, "serve-organiser.png").await;
    client.close().await.unwrap();
}

/// The buttons and checkboxes shown that are smaller than 24 × 24 px (WCAG
/// 2.2 target size), each as what it is and its size; and how many were
/// measured.
async fn small_targets(client: &Client) -> (Vec<Value>, u64) {
    let found = js(
        client,
        "var all=Array.from(document.querySelectorAll('button, input[type=checkbox]'))\
         .filter(function(e){return e.getClientRects().length>0;});\
         return [all.map(function(e){var r=e.getBoundingClientRect();\
         return [e.id||e.dataset.key||e.className||e.textContent, r.width, r.height];})\
         .filter(function(x){return x[1]<24||x[2]<24;}), all.length]",
    )
    .await;
    (
        found[0].as_array().unwrap().clone(),
        found[1].as_u64().unwrap(),
    )
}

/// Issue 53: the deck builder's first tab stop is a link to the deck (past
/// the search, the filters and every card of the pool), in sight once it
/// has the focus; and every button and checkbox shown — card names, the
/// owned count's − and +, the collection's two checkboxes — is a target of
/// at least 24 × 24 px, at a desktop's width and a phone's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skip_link_leads_to_the_deck_and_every_target_is_at_least_24_px() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let code = code_of(
        &url,
        "intrepidos",
        "cards/intrepidos/decks/furia-de-aries.toml",
    );
    let (_driver, client) = browser(profile.path()).await;
    client.set_window_size(1200, 900).await.unwrap();
    let page = format!("{url}intrepidos/deck?code={}", query_value(&code));
    client.goto(&page).await.unwrap();
    assert_eq!(status(&client).await, "Legal");
    let tab: char = Key::Tab.into();
    let enter: char = Key::Enter.into();
    press(&client, &[tab]).await;
    assert_eq!(focused(&client).await, "cb-skip");
    let in_sight = "var r=document.getElementById('cb-skip').getBoundingClientRect();\
                    return r.top>=0 && r.bottom<=innerHeight && r.width>0";
    assert_eq!(js(&client, in_sight).await, true);
    press(&client, &[enter]).await;
    assert_eq!(focused(&client).await, "cb-zones");
    // The next stop is the deck's first line, not the pool's cards.
    press(&client, &[tab]).await;
    let next = focused(&client).await;
    assert!(next.starts_with("dec|main|"), "{next}");

    click(&client, ".cb-filters summary").await;
    click(&client, "#cb-play summary").await;
    click(&client, "#cb-owned-edit").await;
    wait_js(
        &client,
        "return !!document.querySelector('[data-own=\"+\"]')",
    )
    .await;
    for (width, height) in [(1200, 900), (390, 844)] {
        client.set_window_size(width, height).await.unwrap();
        settled(&client).await;
        let (small, measured) = small_targets(&client).await;
        assert!(measured > 100, "{measured} targets measured at {width} px");
        assert!(
            small.is_empty(),
            "smaller than 24 px at {width} px: {small:?}"
        );
    }
    client.close().await.unwrap();
}

/// Issue 53: an enum filter's options read as the game's labels, not its
/// values (the translation's labels on a translated page), and so do the
/// odds panel's groups; the odds panel starts on a group the deck draws —
/// a chance above nothing before the player picks a group, and with an
/// empty deck a kind of the zone drawn from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_read_labels_and_the_odds_start_on_a_group_the_deck_draws() {
    let ws = Workspace::shipped(&["kingdoms", "intrepidos"]);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = crate::watch::start_server(ws.path(), &["serve", "--port", "0"]);
    let (_driver, client) = browser(profile.path()).await;
    client.set_window_size(1200, 900).await.unwrap();
    for (game, ui, deck) in [
        (
            "kingdoms",
            "",
            "cards/kingdoms/decks/aurora-de-valaria.toml",
        ),
        (
            "intrepidos",
            "?ui=en",
            "cards/intrepidos/decks/furia-de-aries.toml",
        ),
    ] {
        let summary = names(&url, &format!("{game}{ui}"));
        client.goto(&format!("{url}{game}/deck{ui}")).await.unwrap();
        settled(&client).await;
        let mut labelled = Vec::new();
        for facet in summary["facets"].as_array().unwrap() {
            if facet["kind"] != "enum" {
                continue;
            }
            let field = facet["field"].as_str().unwrap();
            let shown = js(
                &client,
                &format!(
                    "return Array.from(document.querySelectorAll('select[data-facet=\"{field}\"] option'))\
                     .slice(1).map(function(o){{return [o.value, o.textContent];}})"
                ),
            )
            .await;
            let want: Vec<Value> = facet["values"]
                .as_array()
                .unwrap()
                .iter()
                .zip(facet["labels"].as_array().unwrap())
                .map(|(v, l)| json!([v, l]))
                .collect();
            assert_eq!(shown, Value::Array(want.clone()), "{game}{ui}: {field}");
            labelled.extend(
                want.into_iter()
                    .filter(|p| p[0] != p[1])
                    .map(|p| p[1].clone()),
            );
            // The odds panel's group of each value reads as its label too.
            let groups = js(
                &client,
                &format!(
                    "return Array.from(document.querySelectorAll('#cb-odds-group option'))\
                     .filter(function(o){{return JSON.parse(o.value).field==='{field}';}})\
                     .map(function(o){{return o.textContent;}})"
                ),
            )
            .await;
            let title = facet["title"].as_str().unwrap();
            let labels: Vec<String> = facet["labels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| format!("{title}: {}", l.as_str().unwrap()))
                .collect();
            assert_eq!(groups, json!(labels), "{game}{ui}: {field}");
        }
        assert!(!labelled.is_empty(), "{game}{ui} labels its values");
        if ui == "?ui=en" {
            assert!(labelled.contains(&json!("Shield")), "{labelled:?}");
        }

        // An empty deck: the panel starts on a kind of the zone drawn from.
        click(&client, "#cb-play summary").await;
        let start = js(
            &client,
            "return JSON.parse(document.getElementById('cb-odds-group').value)",
        )
        .await;
        let draw = summary["play"]["draw_from"].as_str().unwrap();
        let zone = summary["zones"]
            .as_array()
            .unwrap()
            .iter()
            .find(|z| z["id"] == draw)
            .unwrap();
        assert_eq!(start["field"], "kind", "{game}: {start}");
        assert!(
            zone["kinds"].as_array().unwrap().contains(&start["value"]),
            "{game}: starts on {start}, which {draw} does not take"
        );

        // A deck: the chance the panel first shows is above nothing.
        let code = code_of(&url, game, deck);
        client
            .goto(&format!(
                "{url}{game}/deck?code={}{}",
                query_value(&code),
                ui.replace('?', "&")
            ))
            .await
            .unwrap();
        settled(&client).await;
        click(&client, "#cb-play summary").await;
        wait_js(
            &client,
            "return document.getElementById('cb-odds').dataset.probability!==undefined",
        )
        .await;
        let p = js(
            &client,
            "return Number(document.getElementById('cb-odds').dataset.probability)",
        )
        .await;
        let group = js(&client, "var s=document.getElementById('cb-odds-group');return s.options[s.selectedIndex].textContent").await;
        assert!(p.as_f64().unwrap() > 0.0, "{game}: {group} starts at {p}");
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_builder_shows_a_cards_history_and_marks_the_cards_changed_since_a_version() {
    use crate::sheets::{card, mini};
    let errata = "[[card.errata]]\nversion = \"1.2\"\ndate = 2025-01-15\nnote = \"Texto novo.\"\nwas = { text = \"velho\" }\n\n[[card.errata]]\nversion = \"1.10\"\ndate = \"2025-06-01\"\n";
    let ws = mini(&format!(
        "{}\n{errata}\n{}\n{}",
        card("a", "text = \"novo\""),
        card("b", "text = \"igual\""),
        card(
            "c",
            "[[card.errata]]\nversion = \"1.2\"\ndate = 2025-01-15\n"
        )
    ));
    let (_server, url) = start_serve(ws.path());

    // The API: each changed card's history and version, and every version
    // the errata name, in order.
    let (code, game) = http(&url, "GET", "/api/games/mini", &Value::Null);
    assert_eq!(code, 200);
    assert_eq!(game["versions"], json!(["1.2", "1.10"]));
    let of = |id: &str| card_of(&game, id);
    assert_eq!(of("a")["version"], "1.10");
    assert_eq!(of("a")["errata"][0]["was"], json!({"text": "velho"}));
    assert!(of("b").get("errata").is_none() && of("b").get("version").is_none());

    let profile = tempfile::tempdir().unwrap();
    let (_driver, client) = browser(profile.path()).await;
    let since = |v: &str| {
        format!(
            "var s = document.getElementById('cb-since'); s.value = '{v}'; s.dispatchEvent(new Event('change'));"
        )
    };
    let changed = |list: &str| {
        format!(
            "return Array.from(document.querySelectorAll('{list} .cb-changed')).map(function (e) {{ return e.dataset.card + ': ' + e.querySelector('.cb-changed-mark').textContent; }})"
        )
    };

    // The card browser: nothing marked until a version is chosen.
    client.goto(&format!("{url}mini/cards")).await.unwrap();
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-grid figure').length === 3",
    )
    .await;
    assert_eq!(js(&client, &changed("#cb-grid")).await, json!([]));
    js(&client, &since("1.2")).await;
    assert_eq!(
        js(&client, &changed("#cb-grid")).await,
        json!(["a: changed in 1.10"])
    );
    js(&client, &since("1.10")).await;
    assert_eq!(js(&client, &changed("#cb-grid")).await, json!([]));
    js(&client, &since("")).await;
    assert_eq!(js(&client, &changed("#cb-grid")).await, json!([]));
    // The history, newest first, with what each change replaced.
    let entries = js(
        &client,
        "return Array.from(document.querySelectorAll('#cb-grid [data-card=a] .cb-history li')).map(function (li) { return li.textContent; })",
    )
    .await;
    assert_eq!(
        entries,
        json!([
            "1.10 (2025-06-01)",
            "1.2 (2025-01-15) Texto novo.was: text: velho"
        ])
    );
    assert_eq!(
        js(
            &client,
            "return document.querySelectorAll('#cb-grid [data-card=b] .cb-history').length"
        )
        .await,
        json!(0),
        "a card never changed has no history"
    );

    // The deck builder: the pool marks the changed cards, and the large
    // card view opens on the card's history.
    client.goto(&format!("{url}mini/deck")).await.unwrap();
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-pool .cb-row').length === 3",
    )
    .await;
    js(&client, &since("1.2")).await;
    assert_eq!(
        js(&client, &changed("#cb-pool")).await,
        json!(["a: changed in 1.10"]),
        "c changed in 1.2 itself, not since"
    );
    click(&client, "#cb-pool [data-card=a] .cb-name").await;
    wait_js(&client, "var h = document.querySelector('#cb-big .cb-history'); return !!h && h.open && h.querySelectorAll('li').length === 2").await;
}
