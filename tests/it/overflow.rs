//! Text that does not fit its box is a warning, `sheets::overflow`, at the
//! card's field: `carta print` loads its sheets in headless Chromium,
//! `carta export` reads what its own pages measured, and `carta watch
//! --serve` hears it from the preview page in the user's browser. These
//! tests need Chromium and fail without it (`scripts/install-test-deps.sh`);
//! they never skip.

use serde_json::Value;

use crate::harness::{Run, Workspace, run_with};

const GAME: &str = r#"id = "mini"
name = "Mini"
language = "en"

[kinds.card]
name = "Card"
"#;

const SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "effect": { "type": "string" },
    "flavor": { "type": "string" }
  }
}"#;

/// A user's own face: the card's effect in a box 12 mm tall that clips.
const CUTTING: &str = r#"<div class="frame">
  <h2 class="title">{{name}}</h2>
  <div class="rules" style="height: 12mm; overflow: hidden; font-size: 3mm">{{fields.effect}}</div>
</div>
"#;

const SHORT: &str = r#"[[card]]
id = "short"
kind = "card"
name = "Short"
effect = "Draw a card."
"#;

/// A card whose effect, on line 11 of the file (after [`SHORT`]), is far
/// longer than the box.
const LONG: &str = r#"
[[card]]
id = "long"
kind = "card"
name = "Long"
effect = "Deal three damage to every creature and every player, then shuffle your graveyard into your library, draw seven cards, discard a card at random for each opponent, and take an extra turn after this one if you control fewer lands than any opponent does."
flavor = "Fire."
"#;

/// The game with `cards` and the face template `face`.
fn game(cards: &str, face: &str) -> Workspace {
    // A missing browser fails here, not as a missing warning.
    crate::browser::chromium();
    let ws = Workspace::empty();
    ws.write("cards/mini/game.toml", GAME)
        .write("schemas/mini/card.schema.json", SCHEMA)
        .write("cards/mini/cards.toml", cards)
        .write("templates/mini/card.hbs", face);
    ws
}

/// The `sheets::overflow` warnings of a JSON run.
fn overflows(run: &Run) -> Vec<Value> {
    run.json()
        .into_iter()
        .filter(|d| d["code"] == "sheets::overflow")
        .collect()
}

/// `(file, line, column)` of a JSON diagnostic.
fn place(d: &Value) -> (&str, u64, u64) {
    (
        d["file"].as_str().unwrap(),
        d["line"].as_u64().unwrap(),
        d["column"].as_u64().unwrap(),
    )
}

/// Asserts that `found` is the one warning of the long card's effect.
#[track_caller]
fn the_long_effect(found: &[Value]) {
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(place(d), ("cards/mini/cards.toml", 11, 10), "{d}");
    let message = d["message"].as_str().unwrap();
    assert!(
        message.starts_with("the text of `effect` of card `long` is ")
            && message.ends_with(" lines) taller than its box `div.rules`"),
        "{message}"
    );
    // Five or so lines of 3 mm text (11.3 px each) do not fit.
    let px: u32 = message["the text of `effect` of card `long` is ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((30..150).contains(&px), "{message}");
}

/// The human output with the measured figures replaced: `N px (M lines)`.
fn figures_masked(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let masked = match (line.find(" is "), line.find(" lines) taller")) {
            (Some(a), Some(b)) if a < b => {
                format!("{} is N px (M{}", &line[..a], &line[b..])
            }
            _ => line.to_owned(),
        };
        out.push_str(&masked);
        out.push('\n');
    }
    out
}

#[test]
fn print_warns_at_the_field_of_a_sentence_a_custom_template_cuts() {
    let ws = game(&format!("{SHORT}{LONG}"), CUTTING);
    let run = ws.run(["--message-format", "json", "print"]).succeeds();
    the_long_effect(&overflows(&run));
    // The sheets are written all the same: a warning never fails a build.
    assert!(ws.path().join("build/mini/sheets/index.html").is_file());

    let human = ws.run(["print"]).succeeds();
    let expected = r#"sheets::overflow

  ⚠ the text of `effect` of card `long` is N px (M lines) taller than its box
  │ `div.rules`
    ╭─[cards/mini/cards.toml:11:10]
 10 │ name = "Long"
 11 │ effect = "Deal three damage to every creature and every player, then shuffle your graveyard into your library, draw seven cards, discard a card at random for each opponent, and take an extra turn after this one if you control fewer lands than any opponent does."
    ·          ──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┬──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
    ·                                                                                                                                        ╰── does not fit
 12 │ flavor = "Fire."
    ╰────
  help: shorten it, or give its box more room in the template (a box of class
        `carta-fit` shrinks its text until it fits)

printed 1 set of sheets: 0 errors, 1 warning
text checked for overflow in Chromium: 1 of 1 set of sheets
"#;
    assert_eq!(figures_masked(&human.stderr), expected, "{}", human.stderr);
}

#[test]
fn export_pdf_png_and_tts_warn_at_the_same_field() {
    let ws = game(&format!("{SHORT}{LONG}"), CUTTING);
    for format in ["pdf", "png", "tts"] {
        let run = ws
            .run(["--message-format", "json", "export", format])
            .succeeds();
        the_long_effect(&overflows(&run));
    }
}

/// A face whose text box, 16 mm tall, shrinks its 9 pt text to fit.
const SHRINKING: &str = r#"<div class="frame">
  <h2 class="title">{{name}}</h2>
  <div class="box carta-fit" style="height: 16mm; overflow: hidden; font-size: 9pt">
    <p class="effect">{{fields.effect}}</p>
    {{#if fields.flavor}}<p class="flavor">{{fields.flavor}}</p>{{/if}}
  </div>
</div>
"#;

#[test]
fn text_the_fit_shrinks_below_the_readable_size_is_a_warning_at_the_field_that_took_the_room() {
    let ws = game(&format!("{SHORT}{LONG}"), SHRINKING);
    let small = |run: &Run| -> Vec<Value> {
        run.json()
            .into_iter()
            .filter(|d| d["code"] == "sheets::small-text")
            .collect()
    };
    for args in [&["print"][..], &["export", "png", "--dpi", "60"]] {
        let run = ws
            .run([&["--message-format", "json"][..], args].concat())
            .succeeds();
        assert!(
            overflows(&run).is_empty(),
            "it fits, shrunk: {}",
            run.stdout
        );
        let found = small(&run);
        assert_eq!(found.len(), 1, "{args:?}: {found:#?}");
        let d = &found[0];
        assert_eq!(d["severity"], "warning");
        // The long effect, not the flavour it pushed out.
        assert_eq!(place(d), ("cards/mini/cards.toml", 11, 10), "{d}");
        let message = d["message"].as_str().unwrap();
        let size: f64 = message
            .strip_prefix("the text of `effect` of card `long` is too long: it fits its box `div.box.carta-fit` only at ")
            .and_then(|m| m.strip_suffix(" pt, below the readable 6 pt"))
            .unwrap_or_else(|| panic!("{message}"))
            .parse()
            .unwrap();
        // 9 pt, shrunk in 6 % steps to fit, not to the 40 % floor (3.4 pt).
        assert!((3.6..6.0).contains(&size), "{message}");
        assert!(
            d["help"]
                .as_str()
                .unwrap()
                .contains("`min-text-size = 6` in `[print]`"),
            "{d}"
        );
    }
    // A game that reads smaller text says so in its manifest.
    ws.write(
        "cards/mini/game.toml",
        format!("{GAME}\n[print]\nmin-text-size = 3.5\n"),
    );
    let run = ws.run(["--message-format", "json", "print"]).succeeds();
    assert!(small(&run).is_empty(), "{}", run.stdout);
}

#[test]
fn a_card_that_fits_gives_no_warning_and_the_check_says_it_ran() {
    let ws = game(SHORT, CUTTING);
    let run = ws.run(["print"]).succeeds();
    assert!(!run.stderr.contains("sheets::overflow") && !run.stderr.contains('⚠'));
    run.stderr_has("0 errors, 0 warnings")
        .stderr_has("text checked for overflow in Chromium: 1 of 1 set of sheets");
    let pdf = ws.run(["--message-format", "json", "export", "pdf"]);
    assert!(overflows(&pdf.succeeds()).is_empty());
}

#[test]
fn a_cell_of_a_spreadsheet_card_file_is_where_its_text_does_not_fit() {
    let ws = game("", CUTTING);
    std::fs::remove_file(ws.path().join("cards/mini/cards.toml")).unwrap();
    ws.write(
        "cards/mini/cards.csv",
        "id,kind,name,effect\r\n\
         short,card,Short,Draw a card.\r\n\
         long,card,Long,\"Deal three damage to every creature and every player, then shuffle your graveyard into your library, draw seven cards, and take an extra turn after this one.\"\r\n",
    );
    let run = ws.run(["--message-format", "json", "print"]).succeeds();
    let found = overflows(&run);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["file"], "cards/mini/cards.csv");
    assert_eq!(found[0]["cell"], "D3");
}

#[test]
fn text_that_spills_or_runs_wide_is_found_and_a_box_marked_to_clip_is_not() {
    let face = r#"<div>
  <div class="name" style="width: 15mm; white-space: nowrap; font-size: 4mm">{{name}}</div>
  <div class="flavor" style="height: 4mm; font-size: 3mm">{{fields.flavor}}</div>
  <div class="teaser" data-carta-clip style="height: 4mm; overflow: hidden">{{fields.effect}}</div>
  <p class="caption" style="height: 4mm; overflow: hidden; font-size: 3mm">The words this template writes by itself, far too many for the little box it gives them here</p>
</div>
"#;
    let card = r#"[[card]]
id = "wide"
kind = "card"
name = "Extraordinarily Long Name"
effect = "A teaser the template cuts on purpose, however long it grows, line after line after line."
flavor = "A flavour text of many words that runs out of its short box and over whatever lies below it."
"#;
    let ws = game(card, face);
    let run = ws.run(["--message-format", "json", "print"]).succeeds();
    let found = overflows(&run);
    let by_box = |b: &str| {
        found
            .iter()
            .find(|d| d["message"].as_str().unwrap().contains(b))
            .unwrap_or_else(|| panic!("no warning for {b}: {found:#?}"))
    };
    let name = by_box("`div.name`");
    assert_eq!(place(name), ("cards/mini/cards.toml", 4, 8));
    assert!(name["message"].as_str().unwrap().contains(" px wider than"));
    // Overflow that shows (no clipping) is found too.
    let flavor = by_box("`div.flavor`");
    assert_eq!(place(flavor), ("cards/mini/cards.toml", 6, 10));
    assert!(
        flavor["message"]
            .as_str()
            .unwrap()
            .contains("the text of `flavor`")
    );
    // Text that is no field's is reported at the card.
    let caption = by_box("`p.caption`");
    assert_eq!(place(caption), ("cards/mini/cards.toml", 1, 1));
    assert!(
        caption["message"]
            .as_str()
            .unwrap()
            .starts_with("text of card `wide`")
    );
    assert_eq!(
        found.len(),
        3,
        "the box marked data-carta-clip is left alone: {found:#?}"
    );
}

#[test]
fn without_chromium_print_says_once_that_the_text_was_not_checked() {
    let ws = game(&format!("{SHORT}{LONG}"), CUTTING);
    let missing = [("CARTA_CHROMIUM", "/nonexistent/chromium")];
    let run = run_with(ws.path(), ["print", "mini"], &missing).succeeds();
    assert_eq!(
        run.stderr
            .matches("note: the text was not checked for overflow")
            .count(),
        1,
        "{}",
        run.stderr
    );
    run.stderr_has("or pass --no-fit-check");
    let skipped = run_with(ws.path(), ["print", "--no-fit-check"], &missing).succeeds();
    assert!(
        !skipped.stderr.contains("overflow"),
        "nothing said: {}",
        skipped.stderr
    );
    // With a browser but asked not to look: no warning either.
    let run = ws.run(["print", "--no-fit-check"]).succeeds();
    assert!(!run.stderr.contains("sheets::overflow"), "{}", run.stderr);
}

#[test]
fn the_shipped_games_print_with_no_text_overflowing_or_too_small() {
    let ws = Workspace::shipped(&[]);
    let run = ws.run(["--message-format", "json", "print"]).succeeds();
    let found = overflows(&run);
    assert!(found.is_empty(), "shipped cards that overflow: {found:#?}");
    let small: Vec<Value> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == "sheets::small-text")
        .collect();
    assert!(
        small.is_empty(),
        "shipped text too small to read: {small:#?}"
    );
    let human = ws.run(["print"]).succeeds();
    human.stderr_has("text checked for overflow in Chromium: 5 of 5 sets of sheets");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_serve_shows_it_in_the_preview_and_on_the_terminal() {
    use std::time::Duration;

    use crate::watch::{browser, page_text, spawn_carta, wait_for};

    let ws = game(&format!("{SHORT}{LONG}"), CUTTING);
    let profile = tempfile::tempdir().unwrap();
    let args = ["watch", "--serve", "--port", "0"];
    let (_watch, mut lines) = spawn_carta(ws.path(), &args, &[], &[]);
    let url = lines
        .find_map(|l| Some(l[l.find("http://")?..].trim().to_owned()))
        .expect("the preview's address");
    let (_driver, client) = browser(profile.path()).await;
    client.goto(&format!("{url}g/mini/")).await.unwrap();

    // The page measured itself and told the watcher, which says so in the
    // preview (a folded panel of warnings) and on the terminal.
    wait_for(&client, Duration::from_secs(10), "the warning", |t| {
        t.contains("1 warning")
    })
    .await;
    let panel = client
        .execute(
            "return document.getElementById('carta-warnings').textContent",
            vec![],
        )
        .await
        .unwrap();
    let panel = panel.as_str().unwrap();
    assert!(
        panel.contains("cards/mini/cards.toml:11:10")
            && panel.contains("warning[sheets::overflow]")
            && panel.contains("the text of `effect` of card `long` is "),
        "{panel}"
    );
    let terminal: Vec<String> = lines
        .by_ref()
        .take_while(|l| !l.starts_with("the preview measured the sheets"))
        .collect();
    assert!(
        terminal
            .iter()
            .any(|l| l.contains("╭─[cards/mini/cards.toml:11:10]")),
        "{terminal:#?}"
    );

    // Shortened, it fits: the warning goes.
    let short = format!("{SHORT}{LONG}").replace(
        "then shuffle your graveyard into your library, draw seven cards, discard a card at random for each opponent, and take an extra turn after this one if you control fewer lands than any opponent does.",
        "then stop.",
    );
    ws.write("cards/mini/cards.toml", short);
    wait_for(&client, Duration::from_secs(10), "no warning", |t| {
        !t.contains("warning") && t.contains("then stop.")
    })
    .await;
    assert!(!page_text(&client).await.contains("sheets::overflow"));
    client.close().await.unwrap();
}

#[test]
fn print_checks_the_sheets_of_each_language_against_its_translated_text() {
    let ws = game(SHORT, CUTTING);
    let manifest = GAME.replace(
        "language = \"en\"",
        "language = \"en\"\ntranslations = [\"pt-BR\"]",
    );
    let schema = SCHEMA.replace(
        r#""effect": { "type": "string" }"#,
        r#""effect": { "type": "string", "x-carta-translate": true }"#,
    );
    ws.write("cards/mini/game.toml", manifest)
        .write("schemas/mini/card.schema.json", schema)
        .write(
            "cards/mini/i18n/pt-BR.toml",
            "[cards.short]\neffect = \"Compre uma carta, depois descarte duas cartas, embaralhe o seu cemitério no seu grimório, compre sete cartas e jogue um turno extra depois deste se controlar menos terrenos que qualquer oponente.\"\n",
        );
    let run = ws
        .run(["--message-format", "json", "print", "--lang", "pt-BR"])
        .succeeds();
    let found = overflows(&run);
    assert_eq!(
        found.len(),
        1,
        "only the Portuguese sheets overflow: {found:#?}"
    );
    assert_eq!(place(&found[0]), ("cards/mini/cards.toml", 5, 10));
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the text of `effect` of card `short` is ")
            && message.contains(" taller in `pt-BR` than its box"),
        "{message}"
    );
    ws.run(["print", "--lang", "pt-BR"])
        .succeeds()
        .stderr_has("text checked for overflow in Chromium: 2 of 2 sets of sheets");
}

#[test]
fn an_enum_printed_as_its_label_is_found_at_its_field() {
    let face = r#"<div class="element" style="width: 12mm; white-space: nowrap; font-size: 3mm">{{fields.element}}</div>
"#;
    let ws = game(
        "[[card]]\nid = \"blaze\"\nkind = \"card\"\nname = \"Blaze\"\nelement = \"fire\"\n",
        face,
    );
    let schema = SCHEMA.replace(
        r#""flavor": { "type": "string" }"#,
        r#""flavor": { "type": "string" },
    "element": { "enum": ["fire"], "x-carta-labels": { "fire": "Inferno of the Burning Mountains" } }"#,
    );
    ws.write("schemas/mini/card.schema.json", schema);
    let run = ws.run(["--message-format", "json", "print"]).succeeds();
    let found = overflows(&run);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(place(&found[0]), ("cards/mini/cards.toml", 5, 11));
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("the text of `element` of card `blaze` is "),
        "{}",
        found[0]["message"]
    );
}
