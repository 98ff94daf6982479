//! `carta print|export --changed-since REV`: the release of `carta diff`'s
//! tests (`history.rs`), tagged `v1.0`, then changed — a cost, a rules
//! text, a name, a card removed and two added, a copy limit, a card moved
//! to another file, a translation reworded — and a designer's note no
//! template prints: only the cards whose printed face changed are printed,
//! in each language as it reads there, under a cover that says why.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use super::browser::tool;
use super::harness::Workspace;
use super::history::{change, commit_all, edit, release};

/// The release, its heroes given a designer's note (a field no template
/// prints) and Tide one.
fn released_with_notes() -> Workspace {
    release(|ws| {
        let rel = "schemas/duel/hero.schema.json";
        let mut schema: Value = serde_json::from_str(&ws.read(rel)).unwrap();
        schema["properties"]["note"] = json!({
            "type": "string",
            "title": "Designer's note",
            "description": "Kept with the card, never printed."
        });
        ws.write(rel, serde_json::to_string_pretty(&schema).unwrap());
        note_tide(ws, "", "note = \"Playtest: strong.\"\n");
    })
}

/// Replaces `from` (empty: nothing) after Tide's name with `to`, in
/// whichever file holds Tide.
fn note_tide(ws: &Workspace, from: &str, to: &str) {
    let anchor = "name = \"Tide\"\n";
    for rel in ["cards/duel/heroes.toml", "cards/duel/tide.toml"] {
        if ws.path().join(rel).exists() && ws.read(rel).contains(anchor) {
            edit(
                ws,
                rel,
                &format!("{anchor}{from}"),
                &format!("{anchor}{to}"),
            );
            return;
        }
    }
    panic!("no card named Tide");
}

/// The ids of the cards a sheets page prints, each once.
fn printed(html: &str) -> BTreeSet<String> {
    html.split("data-card=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|id| !id.contains('\''))
        .map(str::to_owned)
        .collect()
}

fn ids(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// The release changed as `carta diff`'s tests change it, Tide's note
/// reworded besides.
fn changed() -> Workspace {
    let ws = released_with_notes();
    change(&ws);
    // The example deck follows the removal, or nothing prints.
    edit(
        &ws,
        "cards/duel/decks/starter.toml",
        "ember-shield = 2",
        "frost-bolt = 2",
    );
    note_tide(
        &ws,
        "note = \"Playtest: strong.\"\n",
        "note = \"Playtest: too strong.\"\n",
    );
    ws
}

#[test]
fn a_reprint_holds_only_the_cards_whose_printed_face_changed_in_each_language() {
    let ws = changed();
    let run = ws
        .run([
            "print",
            "duel",
            "--changed-since",
            "v1.0",
            "--lang",
            "pt-BR",
            "--no-fit-check",
        ])
        .succeeds();
    assert!(
        run.stderr.contains("reprinted 11 cards since v1.0"),
        "{}",
        run.stderr
    );
    let english = ws.read("build/duel/reprint/index.html");
    let changed = [
        "ash-rain",
        "fireball",
        "frost-bolt",
        "mist-step",
        "tidal-wave",
    ];
    // Tide's note prints nowhere; Ember changed in Portuguese only.
    assert_eq!(printed(&english), ids(&changed));
    for line in [
        "Reprint: the cards whose printed face or back changed since v1.0",
        "Ash Rain: new",
        "Frost Bolt: new",
        "Fireball: face changed: cost",
        "Tidal Wave: face changed: effect",
        "Mist Walk: renamed from Mist Step",
        "Removed, nothing to print: Ember Shield",
    ] {
        assert!(english.contains(line), "the cover lacks {line:?}");
    }
    assert!(!english.contains("Mist Walk: renamed from Mist Step;"));
    let portuguese = ws.read("build/duel/reprint/pt-BR/index.html");
    let mut with_ember = ids(&changed);
    with_ember.insert("ember".to_owned());
    assert_eq!(printed(&portuguese), with_ember);
    for line in [
        "Reimpressão: as cartas cuja frente ou verso impresso mudou desde v1.0",
        "Ember: frente mudou: ability",
        "Ash Rain: nova",
        "Removidas, nada a imprimir: Ember Shield",
    ] {
        assert!(portuguese.contains(line), "the cover lacks {line:?}");
    }
    // The report says the same, in English, set by set.
    for line in [
        "duel: 5 cards to reprint",
        "duel (pt-BR): 6 cards to reprint",
        "  Ember: face changed: ability",
    ] {
        assert!(run.stderr.contains(line), "{}", run.stderr);
    }
    // The whole game's sheets are not written by a reprint.
    assert!(!ws.path().join("build/duel/sheets").exists());
}

#[test]
fn a_reprint_as_pdf_prints_the_changed_cards_under_a_cover_that_says_why() {
    let ws = changed();
    ws.run(["export", "pdf", "--changed-since", "v1.0"])
        .succeeds()
        .stderr_has("reprinted 5 cards since v1.0: written as pdf");
    let pdf = ws.path().join("build/duel/pdf/duel.reprint.pdf");
    let text = tool("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    for line in [
        "Fireball: face changed: cost",
        "Tidal Wave: face changed: effect",
        "Mist Walk: renamed from Mist Step",
        "Frost Bolt: new",
        "Removed, nothing to print: Ember Shield",
        "Deal 2 damage to a hero.",
    ] {
        assert!(text.contains(line), "the PDF lacks {line:?}:\n{text}");
    }
    // No hero is reprinted: none of their faces is in the PDF.
    assert!(!text.contains("Health"), "{text}");
    assert!(!ws.path().join("build/duel/pdf/duel.pdf").exists());
}

#[test]
fn a_reprint_for_a_print_shop_uploads_only_the_changed_cards() {
    let ws = changed();
    ws.run(["export", "pod", "--shop", "tgc", "--changed-since", "v1.0"])
        .succeeds()
        .stderr_has("reprinted 5 cards since v1.0");
    let root = ws.path().join("build/duel/pod/tgc");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path.strip_prefix(&root).unwrap().display().to_string());
            }
        }
    }
    let faces: BTreeSet<String> = [
        "ash-rain",
        "fireball",
        "frost-bolt",
        "mist-step",
        "tidal-wave",
    ]
    .iter()
    .filter(|id| {
        files
            .iter()
            .any(|f| f.contains(&format!("-{id}.png")) || f.ends_with(&format!("/{id}.png")))
    })
    .map(|id| (*id).to_owned())
    .collect();
    assert_eq!(faces.len(), 5, "{files:#?}");
    // The heroes' faces did not change: none is uploaded.
    for hero in ["ember", "tide"] {
        assert!(
            !files
                .iter()
                .any(|f| f.contains(&format!("{hero}.png")) || f.contains(&format!("-{hero}-"))),
            "{hero} is reprinted: {files:#?}"
        );
    }
    assert!(
        files.iter().all(|f| f.starts_with("duel.reprint")),
        "{files:#?}"
    );
}

#[test]
fn a_reprint_as_images_holds_a_card_changed_in_a_translation_only_in_that_language() {
    let ws = released_with_notes();
    edit(
        &ws,
        "cards/duel/i18n/pt-BR.toml",
        "custam 1 a menos",
        "custam 2 a menos",
    );
    ws.run([
        "export",
        "png",
        "--changed-since",
        "v1.0",
        "--lang",
        "pt-BR",
        "--lang",
        "en",
        "--dpi",
        "60",
    ])
    .succeeds()
    .stderr_has("duel (pt-BR): 1 card to reprint")
    .stderr_has("duel (en): nothing to reprint");
    let png = ws.path().join("build/duel/png");
    let names: BTreeSet<String> = std::fs::read_dir(png.join("duel.reprint.pt-BR"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ids(&["ember.png", "ember.back.png"]));
    assert!(!png.join("duel.reprint.en").exists());
}

#[test]
fn a_change_no_face_prints_reprints_nothing_and_writes_nothing() {
    let ws = released_with_notes();
    ws.run(["print", "--changed-since", "v1.0", "--no-fit-check"])
        .succeeds()
        .stderr_has("nothing to reprint since v1.0: no card's printed face or back changed");
    // A field no template prints, and a card moved to another file.
    note_tide(
        &ws,
        "note = \"Playtest: strong.\"\n",
        "note = \"Playtest: fine now.\"\n",
    );
    let heroes = ws.read("cards/duel/heroes.toml");
    let at = heroes.find("[[card]]\nid = \"tide\"").unwrap();
    ws.write("cards/duel/heroes.toml", &heroes[..at]);
    ws.write("cards/duel/tide.toml", &heroes[at..]);
    ws.run(["print", "--changed-since", "v1.0", "--no-fit-check"])
        .succeeds()
        .stderr_has("duel: nothing to reprint")
        .stderr_has("nothing to reprint since v1.0");
    ws.run(["export", "pdf", "--changed-since", "v1.0"])
        .succeeds()
        .stderr_has("nothing to reprint since v1.0");
    assert!(!ws.path().join("build/duel").exists());
}

#[test]
fn a_changed_back_reprints_every_card_it_is_printed_on() {
    let ws = released_with_notes();
    edit(
        &ws,
        "templates/duel/back.hbs",
        "{{game.name}}",
        "{{game.name}} · 2nd edition",
    );
    commit_all(ws.path(), "Second edition backs", Some("v2.0"));
    let run = ws
        .run(["print", "--changed-since", "v1.0", "--no-fit-check"])
        .succeeds();
    let html = ws.read("build/duel/reprint/index.html");
    let all = [
        "ember",
        "ember-shield",
        "fireball",
        "mist-step",
        "tidal-wave",
        "tide",
    ];
    assert_eq!(printed(&html), ids(&all));
    assert!(html.contains("Fireball: back changed"), "{html}");
    assert!(
        run.stderr.contains("  Tide: back changed"),
        "{}",
        run.stderr
    );
    // Against the revision that has the new backs, nothing changed.
    ws.run(["print", "--changed-since", "v2.0", "--no-fit-check"])
        .succeeds()
        .stderr_has("nothing to reprint since v2.0");
}

#[test]
fn a_bundle_a_deck_or_a_format_without_faces_cannot_be_reprinted() {
    let ws = released_with_notes();
    ws.run(["build", "-q"]).succeeds();
    ws.run([
        "print",
        "--changed-since",
        "build/duel/duel.carta",
        "--no-fit-check",
    ])
    .code(2)
    .stderr_has("is a bundle, which holds no templates or art to print faces with");
    ws.run([
        "print",
        "cards/duel/decks/starter.toml",
        "--changed-since",
        "v1.0",
    ])
    .code(2)
    .stderr_has("`--changed-since` reprints games, not decks");
    ws.run(["export", "tts", "--changed-since", "v1.0"])
        .code(2)
        .stderr_has("it does not apply to tts");
    ws.run(["print", "--changed-since", "v9.9", "--no-fit-check"])
        .code(2)
        .stderr_has("`v9.9` is no revision of this repository");
    // An old version with errors is reported, not compared.
    edit(
        &ws,
        "cards/duel/spells.toml",
        "cost = 3",
        "cost = \"three\"",
    );
    commit_all(ws.path(), "A broken cost", Some("broken"));
    edit(
        &ws,
        "cards/duel/spells.toml",
        "cost = \"three\"",
        "cost = 3",
    );
    ws.run(["print", "--changed-since", "broken", "--no-fit-check"])
        .code(1)
        .stderr_has("schema::type")
        .stderr_has("reprint: broken does not check, so nothing is compared with it");
    assert!(!Path::new(&ws.path().join("build/duel/reprint")).exists());
}
