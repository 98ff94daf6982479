//! `carta build` / `carta print`: the sheets' HTML, their diagnostics and
//! how they are written. The browser checks are in `browser.rs`.

use std::fs;

use crate::harness::Workspace;

const MINI_GAME: &str = r#"id = "mini"
name = "Mini"
language = "pt-BR"

# The tests' geometry is a print shop's: 3 mm of bleed on home sheets too.
[print]
margin = 5
bleed = 3

[icons]
AC = { label = "corpo a corpo", svg = '<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>' }

[kinds.card]
name = "Carta"

[kinds.card.print]
images = ["art"]

[zones.main]
name = "Main"
kinds = ["card"]

[zones.side]
name = "Side"
kinds = ["card"]
"#;

const MINI_SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "text": { "type": "string" },
    "art": { "type": "string" }
  }
}"#;

/// The first bytes of a PNG of `w` × `h` pixels: enough for carta, which
/// reads an image's size from its header.
pub(crate) fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    b.extend(w.to_be_bytes());
    b.extend(h.to_be_bytes());
    b.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

/// A one-kind game whose cards are written by each test.
pub(crate) fn mini(cards: &str) -> Workspace {
    let ws = Workspace::empty();
    ws.write("cards/mini/game.toml", MINI_GAME)
        .write("schemas/mini/card.schema.json", MINI_SCHEMA)
        .write("cards/mini/cards.toml", cards);
    ws
}

pub(crate) fn card(id: &str, extra: &str) -> String {
    format!("[[card]]\nid = \"{id}\"\nkind = \"card\"\nname = \"Carta {id}\"\n{extra}\n")
}

fn html(ws: &Workspace) -> String {
    ws.read("build/mini/sheets/index.html")
}

/// The first JSON diagnostic with `code`.
fn diag(run: &crate::harness::Run, code: &str) -> serde_json::Value {
    run.json()
        .into_iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in\n{}", run.stdout))
}

#[test]
fn build_writes_sheets_for_every_shipped_game() {
    let ws = Workspace::shipped(&[]);
    ws.run(["build"])
        .succeeds()
        .stderr_has("built bundles and sheets of 5 games");
    for g in ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"] {
        let page = ws.read(&format!("build/{g}/sheets/index.html"));
        assert!(page.starts_with("<!DOCTYPE html>"), "{g}");
        assert!(
            page.contains("class=\"carta-card carta-face"),
            "{g} has faces"
        );
        assert!(
            page.contains("class=\"carta-card carta-back"),
            "{g} has backs"
        );
        assert!(
            page.contains("<svg class=\"carta-marks\""),
            "{g} has crop marks"
        );
    }
    let mut names: Vec<_> = fs::read_dir(ws.path().join("build/intrepidos"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["intrepidos.carta", "sheets"],
        "no temporary folder is left behind"
    );
}

#[test]
fn the_same_sources_build_byte_identical_sheets() {
    let ws = Workspace::shipped(&["intrepidos", "kingdoms"]);
    ws.run(["build", "--out", "a"]).succeeds();
    ws.run(["build", "--out", "b"]).succeeds();
    for g in ["intrepidos", "kingdoms"] {
        let rel = format!("{g}/sheets/index.html");
        assert!(
            ws.read(&format!("a/{rel}")) == ws.read(&format!("b/{rel}")),
            "{g} differs between two builds"
        );
    }
}

#[test]
fn every_card_prints_copies_times_and_each_face_has_its_back() {
    let ws = mini(&(card("a", "copies = 3") + &card("b", "")));
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert_eq!(
        page.matches("class=\"carta-card carta-face carta-kind-card\" data-card=\"a\"")
            .count(),
        3
    );
    assert_eq!(
        page.matches("class=\"carta-card carta-back carta-kind-card\" data-card=\"a\"")
            .count(),
        3
    );
    assert_eq!(
        page.matches("class=\"carta-card carta-face carta-kind-card\" data-card=\"b\"")
            .count(),
        1
    );
    assert!(page.contains("@page { size: 210mm 297mm; margin: 0; }"));
}

#[test]
fn paper_orientation_duplex_and_ink_saver_come_from_flags() {
    let ws = mini(&card("a", ""));
    ws.run([
        "build",
        "--paper",
        "letter",
        "--landscape",
        "--duplex",
        "none",
        "--ink-saver",
    ])
    .succeeds();
    let page = html(&ws);
    assert!(
        page.contains("@page { size: 279.4mm 215.9mm; margin: 0; }"),
        "{page}"
    );
    assert!(page.contains(
        "<body class=\"carta-paper-letter carta-landscape carta-ink-saver\" data-carta-min-text=\"6\">"
    ));
    assert!(
        !page.contains("class=\"carta-card carta-back"),
        "no backs without duplex"
    );
}

#[test]
fn short_edge_duplex_mirrors_rows_and_long_edge_columns() {
    let ws = mini(&card("a", ""));
    ws.run(["build", "--duplex", "long"]).succeeds();
    // A4 portrait, poker + 3 mm bleed: 2 × 3 boxes of 69.5 × 94.9, centred:
    // x0 = (210 − 139) / 2, y0 = (297 − 284.7) / 2.
    let page = html(&ws);
    assert!(
        page.contains("data-slot=\"0\" style=\"left:35.5mm;top:6.15mm;"),
        "face"
    );
    assert!(page.contains("class=\"carta-card carta-back carta-kind-card\" data-card=\"a\" data-copy=\"1\" data-slot=\"0\" style=\"left:105mm;top:6.15mm;"), "back, columns mirrored");
    ws.run(["build", "--duplex", "short"]).succeeds();
    let page = html(&ws);
    assert!(page.contains("class=\"carta-card carta-back carta-kind-card\" data-card=\"a\" data-copy=\"1\" data-slot=\"0\" style=\"left:35.5mm;top:195.95mm;"), "back, rows mirrored");
}

#[test]
fn card_text_is_html_escaped() {
    let ws = mini(
        &card("a", "text = \"<script>alert(1)</script> & {AC}\"")
            .replace("name = \"Carta a\"", "name = \"<script>alert(2)</script>\""),
    );
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(
        !page.contains("<script>alert"),
        "no script of the card reaches the page"
    );
    assert!(page.contains(
        "&lt;script&gt;alert(1)&lt;/script&gt; &amp; <span class=\"carta-icon carta-icon-AC\""
    ));
    assert!(page.contains("&lt;script&gt;alert(2)&lt;/script&gt;"));
}

#[test]
fn an_unknown_icon_token_is_an_error_at_the_field() {
    let ws = mini(&card("a", "text = \"golpe {AD}\""));
    ws.run(["build"]).fails();
    let run = ws
        .run(["--message-format", "json", "build"])
        .fails()
        .stdout_has("\"code\":\"sheets::unknown-icon\"");
    let d = diag(&run, "sheets::unknown-icon");
    assert_eq!(d["file"], "cards/mini/cards.toml");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(5), Some(8))
    );
    assert_eq!(d["help"], "did you mean `{AC}`?");
    // Nothing but the cache of the files read, as `carta check` leaves it.
    assert!(!ws.path().join("build/mini").exists(), "nothing is written");
}

#[test]
fn art_is_copied_under_a_content_hashed_name() {
    let ws = mini(&(card("a", "art = \"art/a.png\"") + &card("b", "art = \"./art/a.png\"")));
    ws.write("cards/mini/art/a.png", png_header(1000, 1000));
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    let img = fs::read_dir(ws.path().join("build/mini/sheets/img"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(img.len(), 1, "one file for equal content: {img:?}");
    // carta names it: lowercase hex, then `.png`.
    assert!(
        img[0]
            .strip_suffix(".png")
            .is_some_and(|hex| hex.len() == 16)
    );
    assert!(page.contains(&format!("src=\"img/{}\"", img[0])));
}

#[test]
fn a_missing_image_is_a_warning_and_prints_a_placeholder() {
    let ws = mini(&(card("a", "art = \"art/nope.png\"") + &card("b", "")));
    for command in ["check", "build"] {
        let run = ws.run(["--message-format", "json", command]).succeeds();
        let d = diag(&run, "art::missing");
        assert_eq!(d["severity"], "warning", "{command}");
        assert_eq!(
            (d["file"].as_str(), d["line"].as_u64(), d["column"].as_u64()),
            (Some("cards/mini/cards.toml"), Some(5), Some(7)),
            "{command}"
        );
    }
    // The face shows carta's placeholder picture, copied like any art.
    let page = html(&ws);
    let img: Vec<_> = fs::read_dir(ws.path().join("build/mini/sheets/img"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(img.len(), 1, "{img:?}");
    assert!(
        std::path::Path::new(&img[0])
            .extension()
            .is_some_and(|e| e == "svg")
    );
    assert!(page.contains(&format!("<img class=\"carta-art\" src=\"img/{}\"", img[0])));
}

#[test]
fn check_reports_art_that_is_no_image_or_too_small() {
    let ws = mini(
        &(card("a", "art = \"art/text.png\"")
            + &card("b", "art = \"art/small.png\"")
            + &card("c", "art = \"art/big.png\"")
            + &card("d", "art = \"art/notes.txt\"")),
    );
    ws.write("cards/mini/art/text.png", "not a picture")
        .write("cards/mini/art/small.png", png_header(200, 150))
        .write("cards/mini/art/big.png", png_header(800, 600))
        .write("cards/mini/art/notes.txt", "x");
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let at = |id: &str, code: &str| -> serde_json::Value {
        run.json()
            .into_iter()
            .find(|d| d["code"] == code && d["message"].as_str().unwrap().contains(id))
            .unwrap_or_else(|| panic!("no {code} for {id} in\n{}", run.stdout))
    };
    let text = at("text.png", "art::not-an-image");
    assert_eq!(
        (text["severity"].as_str(), text["line"].as_u64()),
        (Some("error"), Some(5))
    );
    assert!(
        at("notes.txt", "art::not-an-image")["message"]
            .as_str()
            .unwrap()
            .contains("use png")
    );
    // 200 px across a 57.5 mm box (poker, 3 mm safe) is 88 dpi.
    let small = at("small.png", "art::low-resolution");
    assert_eq!(
        (small["severity"].as_str(), small["line"].as_u64()),
        (Some("warning"), Some(10))
    );
    assert!(
        small["message"]
            .as_str()
            .unwrap()
            .contains("200 × 150 px: 88 dpi across its 57.5 × 31.5 mm art box"),
        "{small}"
    );
    assert!(!run.stdout.contains("big.png"), "800 × 600 px is enough");
    // Full-bleed art covers the whole card: more pixels are needed.
    ws.write("cards/mini/cards.toml", card("c", "art = \"art/big.png\""));
    let game = ws.read("cards/mini/game.toml");
    ws.write(
        "cards/mini/game.toml",
        game.replace(
            "images = [\"art\"]",
            "images = [\"art\"]\nart = \"full-bleed\"",
        ),
    );
    let run = ws.run(["--message-format", "json", "check"]).succeeds();
    let d = diag(&run, "art::low-resolution");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("across its 69.5 × 94.9 mm art box"),
        "{d}"
    );
}

#[test]
fn image_paths_that_leave_the_workspace_are_refused() {
    for path in ["../../etc/passwd.png", "/etc/passwd.png", "art/../../x.png"] {
        let ws = mini(&card("a", &format!("art = \"{path}\"")));
        let run = ws.run(["--message-format", "json", "build"]).fails();
        let d = diag(&run, "sheets::path-escapes");
        assert_eq!(d["line"].as_u64(), Some(5), "{path}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_workspace_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.png"), b"x").unwrap();
    let ws = mini(&card("a", "art = \"s.png\""));
    std::os::unix::fs::symlink(
        outside.path().join("secret.png"),
        ws.path().join("cards/mini/s.png"),
    )
    .unwrap();
    let run = ws.run(["--message-format", "json", "build"]).fails();
    assert!(
        diag(&run, "sheets::path-escapes")["message"]
            .as_str()
            .unwrap()
            .contains("outside the workspace")
    );
}

#[test]
fn a_layout_that_does_not_fit_is_an_error_in_the_manifest() {
    let ws = mini(&card("a", ""));
    ws.write(
        "cards/mini/game.toml",
        MINI_GAME.replace(
            "images = [\"art\"]",
            "images = [\"art\"]\nsize = { width = 250, height = 100 }",
        ),
    );
    let run = ws.run(["--message-format", "json", "build"]).fails();
    let d = diag(&run, "sheets::layout");
    assert_eq!(d["file"], "cards/mini/game.toml");
    assert_eq!(d["line"].as_u64(), Some(16), "at [kinds.card.print]");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("do not fit on A4 portrait")
    );
    // Landscape fits.
    ws.run(["build", "--landscape"]).succeeds();
}

#[test]
fn a_user_template_overrides_one_file_and_keeps_the_other_defaults() {
    let ws = mini(&card("a", "text = \"olá {AC}\""));
    ws.write(
        "templates/mini/card.hbs",
        "<p class=\"mine\">{{name}}: {{text fields.text}}</p>\n",
    );
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(
        page.contains("<p class=\"mine\">Carta a: olá <span class=\"carta-icon carta-icon-AC\"")
    );
    assert!(
        page.contains("<div class=\"carta-default-back\">"),
        "the back is the default one"
    );
}

#[test]
fn a_template_syntax_error_points_at_the_template_line() {
    let ws = mini(&card("a", ""));
    ws.write(
        "templates/mini/card.hbs",
        "<h1>{{name}}</h1>\n<p>\n{{#if fields.text}}\n</p>\n",
    );
    let run = ws.run(["--message-format", "json", "build"]).fails();
    let d = diag(&run, "sheets::template-syntax");
    assert_eq!(d["file"], "templates/mini/card.hbs");
    assert!(d["line"].as_u64().unwrap() >= 3, "{d}");
}

#[test]
fn a_missing_field_in_strict_mode_points_at_the_template_line_and_the_card() {
    let ws = mini(&card("a", ""));
    ws.write(
        "templates/mini/card.hbs",
        "<h1>{{name}}</h1>\n<p>{{fields.text}}</p>\n",
    );
    let run = ws.run(["--message-format", "json", "build"]).fails();
    let d = diag(&run, "sheets::template-render");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("templates/mini/card.hbs"), Some(2)),
        "{d}"
    );
    assert_eq!(d["labels"][0]["file"], "cards/mini/cards.toml");
}

/// A partial spliced into the face that calls it still fails at its own
/// line: the face renders again as written, through handlebars' partials.
#[test]
fn a_missing_field_in_a_spliced_partial_points_at_the_partial_line() {
    let ws = mini(&card("a", ""));
    ws.write(
        "templates/mini/card.hbs",
        "<div>\n{{> _body n=name}}\n</div>\n",
    )
    .write(
        "templates/mini/_body.hbs",
        "<h1>{{n}}</h1>\n\n<p>{{fields.text}}</p>\n",
    );
    let run = ws.run(["--message-format", "json", "build"]).fails();
    let d = diag(&run, "sheets::template-render");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("templates/mini/_body.hbs"), Some(3)),
        "{d}"
    );
    assert_eq!(d["labels"][0]["file"], "cards/mini/cards.toml");
}

#[test]
fn a_misnamed_template_is_a_warning_with_a_suggestion() {
    let ws = mini(&card("a", ""));
    ws.write("templates/mini/cards.hbs", "x");
    ws.run(["build"])
        .succeeds()
        .stderr_has("did you mean `card.hbs`?");
}

#[test]
fn a_failed_build_leaves_the_previous_sheets_untouched() {
    let ws = mini(&card("a", ""));
    ws.run(["build"]).succeeds();
    let before = html(&ws);
    ws.write("cards/mini/cards.toml", card("a", "text = \"{ZZ}\""));
    ws.run(["build"]).fails();
    assert_eq!(html(&ws), before);
}

#[test]
fn print_a_deck_prints_its_cards_with_their_counts() {
    let ws = mini(&(card("a", "") + &card("b", "copies = 5") + &card("c", "")));
    ws.write(
        "cards/mini/decks/duo.toml",
        "game = \"mini\"\nname = \"Duo\"\n\n[main]\na = 2\nb = 1\n\n[side]\na = 1\n",
    );
    ws.run(["print", "cards/mini/decks/duo.toml"]).succeeds();
    let page = ws.read("build/mini/decks/duo/index.html");
    assert_eq!(
        page.matches("class=\"carta-card carta-face carta-kind-card\" data-card=\"a\"")
            .count(),
        3
    );
    assert_eq!(
        page.matches("class=\"carta-card carta-face carta-kind-card\" data-card=\"b\"")
            .count(),
        1
    );
    assert!(!page.contains("data-card=\"c\""));
    assert!(page.contains("Deck: Duo"));
}

#[test]
fn a_deck_naming_an_unknown_card_is_an_error_in_the_deck() {
    let ws = mini(&card("alpha", ""));
    ws.write(
        "cards/mini/decks/d.toml",
        "game = \"mini\"\nname = \"D\"\n\n[main]\nalpah = 2\n",
    );
    let run = ws
        .run([
            "--message-format",
            "json",
            "print",
            "cards/mini/decks/d.toml",
        ])
        .fails();
    let d = diag(&run, "deck::unknown-card");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("cards/mini/decks/d.toml"), Some(5))
    );
    assert_eq!(d["help"], "did you mean `alpha`?");
}

#[test]
fn home_sheets_fit_three_by_three_poker_cards_on_a4_and_letter_unless_the_game_asks_for_bleed() {
    let cards: String = (0..10).map(|i| card(&format!("c{i}"), "")).collect();
    let ws = mini(&cards);
    let no_bleed = MINI_GAME.replace("bleed = 3\n", "");
    ws.write("cards/mini/game.toml", &no_bleed);
    let sheets = |page: &str| {
        page.matches("<section class=\"carta-sheet carta-faces\"")
            .count()
    };
    for paper in ["a4", "letter"] {
        ws.run(["build", "--paper", paper]).succeeds();
        let page = html(&ws);
        // Ten cards: nine on the first sheet, edge to edge (63.5 mm apart).
        assert_eq!(sheets(&page), 2, "{paper}");
        assert!(
            page.contains("data-copy=\"1\" data-slot=\"8\""),
            "{paper}: a ninth slot"
        );
        assert!(!page.contains("data-slot=\"9\""), "{paper}: no tenth");
        assert!(page.contains("--bleed:0mm"), "{paper}: no bleed");
    }
    // A4 portrait, 3 × 3 boxes of 63.5 × 88.9 mm, centred:
    // x0 = (210 − 190.5) / 2, y0 = (297 − 266.7) / 2.
    ws.run(["build"]).succeeds();
    assert!(
        html(&ws).contains(
            "data-slot=\"0\" style=\"left:9.75mm;top:15.15mm;width:63.5mm;height:88.9mm;"
        )
    );
    // The game's own bleed is printed: six to an A4 page.
    ws.write("cards/mini/game.toml", MINI_GAME);
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert_eq!(sheets(&page), 2);
    assert!(page.contains("data-slot=\"5\""));
    assert!(!page.contains("data-slot=\"6\""));
}

#[test]
fn the_cover_lists_every_sheet_and_the_counts() {
    let ws = mini(&(card("a", "copies = 7") + &card("b", "")));
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    // 8 cards, 6 to a page: two sheets, faces and backs on pages 2–5.
    assert!(page.contains("<span class=\"carta-n\">1</span><span>2, 3</span>"));
    assert!(page.contains("<span class=\"carta-n\">2</span><span>4, 5</span>"));
    assert!(page.contains(
        "<span>Total</span><span class=\"carta-n\">2</span><span class=\"carta-n\">8</span>"
    ));
    assert!(page.contains("Carta a ×6"));
}

const LABELLED_SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "class": { "title": "Classe", "enum": ["a-b", "c"], "x-carta-labels": { "a-b": "Á B", "c": "Cê" } },
    "ally": { "title": "Aliado", "type": "string", "x-carta-ref": "card" },
    "cost": { "title": "Custo", "type": "integer" },
    "text": { "title": "Texto", "type": "string" },
    "quote": { "title": "Citação", "type": "string", "x-carta-flavor": true }
  }
}"#;

#[test]
fn templates_print_labels_and_names_and_reach_referenced_cards() {
    let ws = mini(
        &(card("a", "class = \"a-b\"\nally = \"b\"") + &card("b", "class = \"c\"\nally = \"a\"")),
    );
    ws.write("schemas/mini/card.schema.json", LABELLED_SCHEMA)
        .write(
            "templates/mini/card.hbs",
            "<p class=\"t\">{{fields.class}}|{{raw.class}}|{{fields.ally}}|{{#with (card raw.ally)}}{{name}}/{{fields.class}}/{{raw.class}}{{/with}}</p>",
        );
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(
        page.contains("<p class=\"t\">Á B|a-b|Carta b|Carta b/Cê/c</p>"),
        "{page}"
    );
    assert!(page.contains("<p class=\"t\">Cê|c|Carta a|Carta a/Á B/a-b</p>"));
}

#[test]
fn the_default_face_lays_out_a_card_from_the_schema() {
    let ws = mini(&card(
        "a",
        "class = \"a-b\"\nally = \"a\"\ncost = 3\ntext = \"Golpe {AC}\"\nquote = \"Era uma vez.\"\ncopies = 2",
    ));
    ws.write("schemas/mini/card.schema.json", LABELLED_SCHEMA);
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(
        page.contains("<div class=\"carta-type\">Carta · Á B</div>"),
        "type line"
    );
    assert!(
        page.contains(
            "<div class=\"carta-ref\"><span class=\"carta-label\">Aliado</span> Carta a</div>"
        ),
        "a reference with its field's title"
    );
    assert!(
        page.contains("<div class=\"carta-stat\"><b>3</b><span>Custo</span></div>"),
        "stat badge"
    );
    assert!(
        page.contains("<p class=\"carta-text\">Golpe <span class=\"carta-icon carta-icon-AC\""),
        "text with icons"
    );
    assert!(
        page.contains("<p class=\"carta-flavor\">Era uma vez.</p>"),
        "flavour"
    );
    assert!(
        page.contains("<div class=\"carta-placeholder\">"),
        "an art placeholder"
    );
    // The copy count belongs to the cover, not to a face.
    assert!(
        page.contains("<footer class=\"carta-foot\"><span>Mini</span><span></span></footer>"),
        "no copy count on the face"
    );
    assert!(page.contains("Carta a ×2"), "the cover counts the copies");
    // The back is neutral: the game's name, not the kind's.
    assert!(page.contains("<div class=\"carta-back-game\">Mini</div>"));
    assert!(
        !page.contains("<div class=\"carta-back-kind\">"),
        "no kind on a neutral back"
    );
    // A kind the manifest gives its own back prints that word under the name.
    let game = ws.read("cards/mini/game.toml").replace(
        "images = [\"art\"]",
        "images = [\"art\"]\nback = \"Preparação\"",
    );
    ws.write("cards/mini/game.toml", game);
    ws.run(["build"]).succeeds();
    assert!(html(&ws).contains("<div class=\"carta-back-kind\">Preparação</div>"));
}

#[test]
fn one_word_rules_text_prints_in_the_text_box_and_a_patterned_code_in_the_footer() {
    let ws = mini(
        &(card("a", "text = \"[[guard]]\"")
            + &card("b", "text = \"{AC}\"")
            + &card("c", "text = \"Flying.\"")
            + &card("d", "text = \"Flying.\"\nserial = \"MN-007\"")),
    );
    let game = MINI_GAME.replace(
        "[kinds.card]",
        "[keywords.guard]\nname = \"Guarda\"\n\n[kinds.card]",
    );
    let schema = MINI_SCHEMA.replace(
        "\"art\": { \"type\": \"string\" }",
        "\"art\": { \"type\": \"string\" },\n    \"serial\": { \"type\": \"string\", \"pattern\": \"^[A-Z]{2}-[0-9]{3}$\" }",
    );
    ws.write("cards/mini/game.toml", &game)
        .write("schemas/mini/card.schema.json", &schema);
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    let face = |id: &str| {
        let start = page
            .find(&format!("carta-face carta-kind-card\" data-card=\"{id}\""))
            .unwrap_or_else(|| panic!("no face of {id}"));
        let end = page[start..].find("</footer>").unwrap() + start;
        page[start..end].to_owned()
    };
    let foot =
        |codes: &str| format!("<footer class=\"carta-foot\"><span>Mini</span><span>{codes}</span>");
    for (id, drawn) in [
        ("a", "<strong class=\"carta-keyword\">Guarda</strong>"),
        ("b", "<span class=\"carta-icon carta-icon-AC\""),
        ("c", "<p class=\"carta-text\">Flying.</p>"),
    ] {
        let f = face(id);
        assert!(f.contains(drawn), "{id}: {f}");
        assert!(f.ends_with(&foot("")), "{id}: nothing in the footer: {f}");
    }
    let d = face("d");
    assert!(d.contains("<p class=\"carta-text\">Flying.</p>"), "{d}");
    assert!(d.ends_with(&foot("MN-007")), "{d}");
}

#[test]
fn a_game_template_that_names_layout_is_given_the_laid_out_card() {
    // The layout is made only for templates that can read it: the default
    // face, or a game whose templates name it (here through a partial).
    let ws = mini(&card("a", "text = \"Golpe\""));
    ws.write(
        "templates/mini/card.hbs",
        "<p class=\"l\">{{> _layout}}</p>\n",
    );
    ws.write(
        "templates/mini/_layout.hbs",
        "{{#if layout}}laid out: {{#each layout.other}}{{@key}};{{/each}}{{else}}plain{{/if}}",
    );
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(page.contains("<p class=\"l\">laid out: "), "{page}");
}

#[test]
fn a_picture_deleted_after_a_check_is_reported_by_the_next() {
    let ws = mini(&card("a", "art = \"art/a.png\""));
    ws.write("cards/mini/art/a.png", png_header(1000, 1000));
    for _ in 0..2 {
        let run = ws.run(["--message-format", "json", "check"]).succeeds();
        assert!(!run.stdout.contains("art::"), "{}", run.stdout);
    }
    fs::remove_file(ws.path().join("cards/mini/art/a.png")).unwrap();
    let run = ws.run(["--message-format", "json", "check"]).succeeds();
    assert_eq!(diag(&run, "art::missing")["line"], 5);
}

#[test]
fn keywords_print_bold_with_their_reminder_in_every_language() {
    let ws = Workspace::empty();
    ws.run(["init", "--game", "duel"]).succeeds();
    let game = ws.read("cards/duel/game.toml");
    ws.write(
        "cards/duel/game.toml",
        game.replace("language = \"en\"", "language = \"en\"\ntranslations = [\"pt-BR\"]"),
    )
    .write(
        "cards/duel/i18n/pt-BR.toml",
        "[keywords.burn]\nname = { text = \"Queimar\" }\nreminder = { text = \"no início do turno, sofre 1 de dano\" }\n\n\
         [cards.fireball]\neffect = { text = \"Cause **4** de dano. Ganha [[burn]].\" }\n",
    );
    ws.run(["build", "--lang", "pt-BR"]).succeeds();
    let en = ws.read("build/duel/sheets/index.html");
    assert!(en.contains(
        "Deal 4 damage to a hero. It gains <strong class=\"carta-keyword\">Burn</strong> \
         <em class=\"carta-reminder\">(at the start of its turn, it takes 1 damage)</em>."
    ));
    assert!(en.contains("Draw a card. <em>The mist hides you.</em>"));
    let pt = ws.read("build/duel/sheets/pt-BR/index.html");
    assert!(pt.contains(
        "Cause <strong>4</strong> de dano. Ganha <strong class=\"carta-keyword\">Queimar</strong> \
         <em class=\"carta-reminder\">(no início do turno, sofre 1 de dano)</em>."
    ));
}

#[test]
fn a_focal_point_keyword_must_be_a_boolean_and_its_value_a_position() {
    let ws = mini(&card(
        "a",
        "art = \"art/a.png\"\nfocus = \"50%;background:url(x)\"",
    ));
    ws.write("cards/mini/art/a.png", png_header(1000, 1000));
    let schema = MINI_SCHEMA.replace(
        "\"art\": { \"type\": \"string\" }",
        "\"art\": { \"type\": \"string\" },\n    \"focus\": { \"type\": \"string\", \"x-carta-focus\": \"yes\" }",
    );
    ws.write("schemas/mini/card.schema.json", &schema);
    let run = ws.run(["--message-format", "json", "check"]).fails();
    assert!(
        diag(&run, "schema::bad-display")["message"]
            .as_str()
            .unwrap()
            .contains("x-carta-focus")
    );
    // A value that is no position never reaches the page's CSS.
    ws.write(
        "schemas/mini/card.schema.json",
        schema.replace("\"x-carta-focus\": \"yes\"", "\"x-carta-focus\": true"),
    );
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(!page.contains("url(x)"), "the value is dropped");
    assert!(page.contains("<img class=\"carta-art\" src=\"img/"));
    ws.write(
        "cards/mini/cards.toml",
        card("a", "art = \"art/a.png\"\nfocus = \"50% 20%\""),
    );
    ws.run(["build"]).succeeds();
    assert!(html(&ws).contains("style=\"object-position: 50% 20%\""));
}

#[test]
fn the_sheets_render_from_the_templates_the_compile_read_and_checked() {
    use carta::emit::sheets::{Inputs, SheetOptions, SheetsEmitter};
    use carta::emit::{Emitter, Stage};
    use carta::game::{Decks, Keep, compile};

    let ws = mini(&card("a", "text = \"x\""));
    ws.write(
        "templates/mini/card.hbs",
        "<p class=\"mine\">{{> _name}}</p>\n",
    )
    .write("templates/mini/_name.hbs", "{{name}}")
    .write("templates/mini/style.css", ".mine { color: red }");
    let mut lib_ws = carta::load::Workspace::open(ws.path()).unwrap();
    let mut diags = carta::diag::Diagnostics::new();
    let game = compile(&mut lib_ws, "mini", Decks::Skip, Keep::All, &mut diags)
        .unwrap()
        .unwrap();
    assert!(!diags.has_errors());
    assert!(game.templates.sound);
    let names: Vec<&str> = game
        .templates
        .files
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["_name.hbs", "card.hbs"]);
    let out = ws.path().join("build");
    let mut stage = Stage::new(ws.path(), &out);
    SheetsEmitter::pool(&game, SheetOptions::default())
        .emit(&game, &mut lib_ws, &mut stage, &mut diags)
        .unwrap();
    assert!(!diags.has_errors());
    // Each template is in the source map once: the sheets did not read it again.
    for name in ["_name.hbs", "card.hbs", "style.css"] {
        let path = format!("templates/mini/{name}");
        let reads = lib_ws
            .sources
            .iter()
            .filter(|(_, f)| f.name == path)
            .count();
        assert_eq!(reads, 1, "{path} read {reads} times");
    }
    let inputs = Inputs::read(&mut lib_ws, &game, &mut diags).unwrap();
    let listed: Vec<&str> = inputs.templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(listed, ["_name.hbs", "card.hbs", "style.css"]);
    stage.commit().unwrap();
    assert!(html(&ws).contains("<p class=\"mine\">Carta a</p>"));
}

/// Builds with the faces cache, then without it into `fresh/`, and asserts
/// the two sheets folders are byte for byte the same.
fn assert_cached_build_is_fresh(ws: &Workspace, game: &str, why: &str) {
    ws.run(["build"]).succeeds();
    ws.run(["build", "--no-cache", "--out", "fresh"]).succeeds();
    let cached = ws.path().join("build").join(game).join("sheets");
    let fresh = ws.path().join("fresh").join(game).join("sheets");
    let mut names: Vec<_> = fs::read_dir(&fresh)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    for name in names {
        let (a, b) = (cached.join(&name), fresh.join(&name));
        if a.is_dir() {
            continue;
        }
        assert!(
            fs::read(&a).unwrap() == fs::read(&b).unwrap(),
            "{why}: {} differs from a build without the cache",
            name.to_string_lossy()
        );
    }
}

#[test]
fn a_rebuild_from_the_faces_cache_writes_the_sheets_of_a_build_without_it() {
    let ws = Workspace::shipped(&["intrepidos"]);
    assert_cached_build_is_fresh(&ws, "intrepidos", "first build");
    assert!(
        ws.path()
            .join("build/.cache/intrepidos.sheets.faces")
            .is_file()
    );
    let file = "cards/intrepidos/itens/pocoes.toml";
    let edit = |from: &str, to: &str| {
        let text = ws.read(file);
        assert!(text.contains(from), "{from} is in {file}");
        ws.write(file, text.replacen(from, to, 1));
    };
    edit("\"Poção de Cura\"", "\"Poção de Cura Maior\"");
    assert_cached_build_is_fresh(&ws, "intrepidos", "a renamed card");
    assert!(html_of(&ws, "intrepidos").contains("Poção de Cura Maior"));
    // One copy less of it and one more of a sword (the box holds 60 items):
    // the cards between them move by one slot, some onto another sheet.
    edit("copies = 2", "copies = 1");
    let swords = "cards/intrepidos/itens/armamentos.toml";
    let text = ws.read(swords);
    ws.write(swords, text.replacen("copies = 2", "copies = 3", 1));
    assert_cached_build_is_fresh(&ws, "intrepidos", "cards moved between sheets");
    // A new potion in place of the sword's extra copy.
    let new_card = "[[card]]\nid = \"elixir-novo\"\nkind = \"potion\"\nname = \"Elixir Novo\"\nclass = \"cura\"\nmin_level = 1\neffect = \"Novo.\"\n\n";
    edit(
        "[[card]]\nid = \"elixir-maior\"",
        &format!("{new_card}[[card]]\nid = \"elixir-maior\""),
    );
    ws.write(swords, text.clone());
    assert_cached_build_is_fresh(&ws, "intrepidos", "a new card");
    assert!(html_of(&ws, "intrepidos").contains("Elixir Novo"));
    edit(new_card, "");
    edit("copies = 1", "copies = 2");
    assert_cached_build_is_fresh(&ws, "intrepidos", "a deleted card");
    assert!(!html_of(&ws, "intrepidos").contains("Elixir Novo"));
    let template = "templates/intrepidos/_item.hbs";
    ws.write(
        template,
        ws.read(template)
            .replace("class=\"picture\"", "class=\"picture mine\""),
    );
    assert_cached_build_is_fresh(&ws, "intrepidos", "a template edit");
    assert!(html_of(&ws, "intrepidos").contains("picture mine"));
    // A byte changed in the eighth of sixteen sheets (the output's length
    // kept): the sheets around it are copied, it is written again.
    let output = ws.path().join("build/intrepidos/sheets/index.html");
    let mut bytes = fs::read(&output).unwrap();
    let marker = b"data-side=\"faces\"";
    let eighth = (0..bytes.len() - marker.len())
        .filter(|&i| bytes[i..].starts_with(marker))
        .nth(7)
        .unwrap();
    bytes[eighth + 500] ^= 1;
    fs::write(&output, bytes).unwrap();
    assert_cached_build_is_fresh(&ws, "intrepidos", "a damaged sheet among intact ones");
}

fn html_of(ws: &Workspace, game: &str) -> String {
    ws.read(&format!("build/{game}/sheets/index.html"))
}

#[test]
fn a_cached_face_follows_the_cards_it_shows_and_a_damaged_cache_is_not_trusted() {
    let ws = mini(&format!(
        "{}{}",
        card("a", "text = \"x\""),
        card("b", "text = \"y\"\nally = \"a\"")
    ));
    ws.write(
        "schemas/mini/card.schema.json",
        MINI_SCHEMA.replace(
            "\"art\": { \"type\": \"string\" }",
            "\"art\": { \"type\": \"string\" },\n    \"ally\": { \"type\": \"string\", \"x-carta-ref\": \"card\" }",
        ),
    )
    .write(
        "templates/mini/card.hbs",
        "<p>{{name}}{{#if fields.ally}} ally of {{fields.ally}}{{/if}}</p>\n",
    );
    assert_cached_build_is_fresh(&ws, "mini", "first build");
    assert!(html(&ws).contains("Carta b ally of Carta a"));
    // b's own file is unchanged: its face changes with the name of a.
    let cards = ws.read("cards/mini/cards.toml");
    ws.write(
        "cards/mini/cards.toml",
        cards.replacen("\"Carta a\"", "\"Ana\"", 1),
    );
    assert_cached_build_is_fresh(&ws, "mini", "a renamed ally");
    assert!(html(&ws).contains("Carta b ally of Ana"), "{}", html(&ws));
    // The cache keeps no HTML: the faces are read from the last output,
    // and a byte changed there (its length kept) is not copied on.
    let path = ws.path().join("build/.cache/mini.sheets.faces");
    let output = ws.path().join("build/mini/sheets/index.html");
    assert!(fs::metadata(&path).unwrap().len() < fs::metadata(&output).unwrap().len() / 4);
    for (at, what) in [
        ("<p>Carta b", "a damaged sheet"),
        ("<p>Ana", "a damaged face"),
    ] {
        let mut bytes = fs::read(&output).unwrap();
        let body = bytes
            .windows(at.len())
            .position(|w| w == at.as_bytes())
            .unwrap();
        bytes[body + 3] = b'X';
        fs::write(&output, bytes).unwrap();
        assert_cached_build_is_fresh(&ws, "mini", what);
        assert!(!html(&ws).contains("<p>X"));
    }
    // The index damaged: it is not read.
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 30;
    bytes[last] ^= 1;
    fs::write(&path, bytes).unwrap();
    assert_cached_build_is_fresh(&ws, "mini", "a damaged index");
    // A foreign output of the same length: nothing of it is taken.
    let len = fs::metadata(&output).unwrap().len();
    fs::write(&output, vec![b' '; usize::try_from(len).unwrap()]).unwrap();
    assert_cached_build_is_fresh(&ws, "mini", "a foreign output");
    fs::write(&path, b"not a cache").unwrap();
    assert_cached_build_is_fresh(&ws, "mini", "a cache that is no cache");
}

/// A card with two errata, the later one first: its version is the later.
const ERRATA: &str = "[[card.errata]]\nversion = \"1.10\"\ndate = 2025-06-01\nnote = \"Texto novo.\"\nwas = { text = \"velho\" }\n\n[[card.errata]]\nversion = \"1.2\"\ndate = \"2025-01-15\"\n";

#[test]
fn a_template_shows_an_errata_mark_with_the_cards_version_and_its_entries() {
    let ws = mini(&format!(
        "{}\n{ERRATA}\n{}",
        card("a", "text = \"novo\""),
        card("b", "text = \"igual\"")
    ));
    ws.write(
        "templates/mini/card.hbs",
        "<p class=\"mine\">{{name}}{{#if errata}} <i class=\"errata\">errata {{version}}</i>{{#each errata}} [{{version}} {{date}} {{note}}{{#if was.text}} was {{was.text}}{{/if}}]{{/each}}{{/if}}</p>\n",
    );
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert!(
        page.contains("<p class=\"mine\">Carta a <i class=\"errata\">errata 1.10</i> [1.10 2025-06-01 Texto novo. was velho] [1.2 2025-01-15 ]</p>"),
        "{page}"
    );
    assert!(
        page.contains("<p class=\"mine\">Carta b</p>"),
        "a card without errata shows no mark"
    );
}

#[test]
fn the_default_face_marks_a_card_with_errata_by_its_version() {
    let ws = mini(&format!("{}\n{ERRATA}\n{}", card("a", ""), card("b", "")));
    ws.run(["build"]).succeeds();
    let page = html(&ws);
    assert_eq!(
        page.matches("<span class=\"carta-errata\" title=\"errata\">✱ 1.10</span>")
            .count(),
        1,
        "only card a is marked"
    );
}
