//! `carta export pdf|png|tts --lang`: every export in every language, by a
//! real headless Chromium — the translated names in the PDF's text
//! (pdftotext), card images that differ from the source language's, and
//! the language's outputs beside the source's, never over them. A missing
//! browser or poppler fails these tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::browser::tool;
use crate::harness::Workspace;

/// A two-card game in Portuguese with an English translation, printed by
/// the default face (so the schema's titles are its labels).
const GAME: &str = r#"id = "duelo"
name = "Duelo"
language = "pt-BR"
translations = ["en"]

[kinds.golpe]
name = "Golpe"

[zones.main]
name = "Principal"
kinds = ["golpe"]
"#;

const SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "custo": { "type": "integer", "title": "Custo" },
    "efeito": { "type": "string", "title": "Efeito", "x-carta-translate": true }
  }
}"#;

const CARDS: &str = r#"[[card]]
id = "espada"
kind = "golpe"
name = "Espada Flamejante"
custo = 2
efeito = "Cause três de dano ao inimigo."

[[card]]
id = "escudo"
kind = "golpe"
name = "Escudo Partido"
custo = 1
copies = 2
efeito = "Previna dois de dano neste turno."
"#;

/// The English translation of [`CARDS`] and of the default face's titles;
/// `i18n update` records its hashes and adds carta's English captions.
const ENGLISH: &str = r#"[game]
name = "Duel"

[kinds.golpe]
name = "Strike"

[zones.main]
name = "Main"

[titles.golpe]
custo = "Cost"
efeito = "Effect"

[cards.espada]
name = "Flaming Sword"
efeito = "Deal three damage to the enemy."

[cards.escudo]
name = "Broken Shield"
efeito = "Prevent two damage this turn."
"#;

/// The game of this file, translated into English (hashes recorded).
pub(crate) fn duelo() -> Workspace {
    let ws = Workspace::empty();
    ws.write("cards/duelo/game.toml", GAME)
        .write("schemas/duelo/golpe.schema.json", SCHEMA)
        .write("cards/duelo/cartas.toml", CARDS)
        .write(
            "cards/duelo/decks/par.toml",
            "game = \"duelo\"\nname = \"Par\"\n\n[main]\nespada = 1\nescudo = 1\n",
        );
    ws.write("cards/duelo/i18n/en.toml", ENGLISH);
    ws.run(["i18n", "update", "duelo"]).succeeds();
    ws
}

fn pdf_text(path: &Path) -> String {
    tool("pdftotext", &[path.to_str().unwrap(), "-"])
}

/// Every file under `dir`, relative to it, sorted.
fn files(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out
}

/// Every string value of `key` anywhere in `v`.
fn strings_of(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == key => out.push(s.clone()),
                    _ => strings_of(x, key, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| strings_of(x, key, out)),
        _ => {}
    }
}

#[test]
fn export_pdf_lang_prints_the_translated_names_beside_the_source_pdf() {
    let ws = duelo();
    ws.run(["export", "pdf"]).succeeds();
    ws.run(["export", "pdf", "--lang", "en"]).succeeds();
    let source = pdf_text(&ws.path().join("build/duelo/pdf/duelo.pdf"));
    let en = pdf_text(&ws.path().join("build/duelo/pdf/duelo.en.pdf"));
    assert!(source.contains("Espada Flamejante"), "{source}");
    for name in [
        "Flaming Sword",
        "Broken Shield",
        "Deal three damage to the enemy.",
    ] {
        assert!(en.contains(name), "no {name:?} in the English PDF:\n{en}");
    }
    assert!(!en.contains("Espada Flamejante"), "{en}");
    // carta's own captions and the default face's labels, translated.
    assert!(en.contains("Language: en"), "the cover names the language");
    for caption in [
        "Every card of the game",
        "Kind",
        "Copies",
        "Contents",
        "COST", // a stat's title, upper-cased by the default face's CSS
    ] {
        assert!(
            en.contains(caption),
            "no {caption:?} in the English PDF:\n{en}"
        );
    }
    for caption in [
        "Todas as cartas do jogo",
        "Tipo",
        "Cópias",
        "Conteúdo",
        "CUSTO",
    ] {
        assert!(
            source.contains(caption),
            "no {caption:?} in the source PDF:\n{source}"
        );
        assert!(
            !en.contains(caption),
            "{caption:?} in the English PDF:\n{en}"
        );
    }
    // The source language's PDF is still there, untouched by the other run.
    assert!(ws.path().join("build/duelo/pdf/duelo.pdf").is_file());
}

#[test]
fn export_pdf_lang_of_a_deck_and_of_an_unknown_language() {
    let ws = duelo();
    ws.run([
        "export",
        "pdf",
        "cards/duelo/decks/par.toml",
        "--lang",
        "en",
    ])
    .succeeds();
    let en = pdf_text(&ws.path().join("build/duelo/pdf/par.en.pdf"));
    assert!(
        en.contains("Flaming Sword") && en.contains("Broken Shield"),
        "{en}"
    );
    ws.run(["export", "pdf", "--lang", "fr"])
        .fails()
        .stderr_has("game `duelo` has no language `fr` to print");
    assert!(!ws.path().join("build/duelo/pdf/duelo.fr.pdf").exists());
}

#[test]
fn export_png_lang_draws_other_cards_than_the_source_language() {
    let ws = duelo();
    ws.run(["export", "png", "--dpi", "60"]).succeeds();
    ws.run([
        "export", "png", "--dpi", "60", "--lang", "en", "--lang", "pt-BR",
    ])
    .succeeds();
    let png = ws.path().join("build/duelo/png");
    let source = png.join("duelo");
    let en = png.join("duelo.en");
    let pt = png.join("duelo.pt-BR");
    let names = files(&source);
    assert_eq!(
        files(&en),
        names,
        "the same files, in a folder of their own"
    );
    assert_eq!(files(&pt), names);
    for card in ["espada.png", "escudo.png"] {
        let read = |dir: &Path| std::fs::read(dir.join(card)).unwrap();
        assert_ne!(read(&source), read(&en), "{card}: the English face differs");
        assert_eq!(
            read(&source),
            read(&pt),
            "{card}: the source language named"
        );
    }
}

#[test]
fn export_tts_lang_names_the_cards_in_the_language() {
    let ws = duelo();
    ws.run(["export", "tts", "--dpi", "60"]).succeeds();
    ws.run(["export", "tts", "--dpi", "60", "--lang", "en"])
        .succeeds();
    let tts = ws.path().join("build/duelo/tts");
    let nicknames = |dir: &Path| {
        let mut out = Vec::new();
        for f in files(dir) {
            if f.extension().is_some_and(|e| e == "json") {
                let v: Value =
                    serde_json::from_str(&std::fs::read_to_string(dir.join(&f)).unwrap()).unwrap();
                strings_of(&v, "Nickname", &mut out);
            }
        }
        out.sort();
        out.dedup();
        out
    };
    let source = nicknames(&tts.join("duelo"));
    let en = nicknames(&tts.join("duelo.en"));
    assert!(
        source.contains(&"Espada Flamejante".to_owned()),
        "{source:?}"
    );
    assert!(en.contains(&"Flaming Sword".to_owned()), "{en:?}");
    assert!(en.contains(&"Broken Shield".to_owned()), "{en:?}");
    assert!(!en.contains(&"Espada Flamejante".to_owned()), "{en:?}");
    // The sheets the English deck loads are other pictures.
    let images = |dir: &Path| -> BTreeSet<Vec<u8>> {
        files(dir)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "png"))
            .map(|f| std::fs::read(dir.join(f)).unwrap())
            .collect()
    };
    let (a, b) = (images(&tts.join("duelo")), images(&tts.join("duelo.en")));
    assert!(!a.is_empty() && !b.is_empty());
    assert!(
        a.intersection(&b).count() < a.len(),
        "the English sheets differ"
    );
}
