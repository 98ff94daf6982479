//! The sheets' benchmark: HTML for 20,000 cards (rendered in memory from a
//! generated game), and headless Chromium printing a 100-card sheet to PDF.
//!
//! `cargo bench --bench sheets` (set `CARTA_CHROMIUM` to pick the browser).
// A benchmark reads as one measured scenario, top to bottom.
#![allow(clippy::too_many_lines)]

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use carta::diag::Diagnostics;
use carta::emit::sheets::{Inputs, Selection, SheetOptions, Subject, pool_prints, render};
use carta::game::{Decks, Keep, compile};
use carta::load::Workspace;

const FILES: usize = 20;

/// `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
/// binary without it, and then a small smoke run is enough.
fn full() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// A game of `cards` cards of two kinds, with icons in their text and one
/// custom template (the other kind uses the embedded default).
fn generate(root: &Path, cards: usize) {
    let w = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w(
        "cards/bench/game.toml",
        r#"id = "bench"
name = "Bench"
language = "pt-BR"

[icons]
AC = { svg = '<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>' }

[kinds.unit]
name = "Unidade"

[kinds.spell]
name = "Feitiço"
"#,
    );
    let schema = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
      "properties": {"power": {"type": "integer"}, "text": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}}"#;
    w("schemas/bench/unit.schema.json", schema);
    w("schemas/bench/spell.schema.json", schema);
    w(
        "templates/bench/unit.hbs",
        "<header><h1>{{name}}</h1><span>{{kind_name}}</span></header>\n<div class=\"power\">{{fields.power}}</div>\n<p>{{text fields.text}}</p>\n<p>{{join fields.tags}}</p>\n",
    );
    for f in 0..FILES {
        let mut text = String::new();
        for i in 0..cards / FILES {
            let n = f * (cards / FILES) + i;
            let kind = if n.is_multiple_of(3) { "spell" } else { "unit" };
            let _ = write!(
                text,
                "[[card]]\nid = \"c{n}\"\nkind = \"{kind}\"\nname = \"Carta nº {n} — Ação\"\npower = {}\ntext = \"Causa {} de dano {{AC}} a um inimigo adjacente; <se> possível, repita.\"\ntags = [\"a\", \"b{}\"]\n\n",
                n % 10,
                n % 7,
                n % 5
            );
        }
        w(&format!("cards/bench/cards-{f:02}.toml"), &text);
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let (cards, runs) = if full() { (20_000, 5) } else { (600, 1) };
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), cards);
    let mut ws = Workspace::open(dir.path()).unwrap();
    let mut diags = Diagnostics::new();
    let game = compile(&mut ws, "bench", Decks::Skip, Keep::All, &mut diags)
        .unwrap()
        .unwrap();
    assert!(!diags.has_errors(), "the generated game checks clean");
    let inputs = Inputs::read(&mut ws, &game, &mut diags).unwrap();
    let options = SheetOptions::default();
    let all = Selection {
        subject: Subject::Game,
        prints: pool_prints(&game),
        notes: Vec::new(),
    };

    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..=runs {
        let mut found = Vec::new();
        let mut html = Vec::new();
        let start = Instant::now();
        render(
            ws.jail(),
            &ws.sources,
            &game,
            &inputs,
            &all,
            (&options, None),
            &mut html,
            &mut found,
        )
        .expect("writes")
        .expect("renders");
        times.push(start.elapsed());
        bytes = html.len();
    }
    times.remove(0); // warm-up
    let (best, med) = (*times.iter().min().unwrap(), median(times));
    println!(
        "sheets/html: {cards} cards → {:.1} MB of HTML: median {med:.2?}, best {best:.2?} over {runs} runs ({:.0} cards/s); budget 1 s: {:.2}× of budget",
        bytes as f64 / 1e6,
        cards as f64 / med.as_secs_f64(),
        med.as_secs_f64()
    );

    if !full() {
        println!("sheets: smoke run only (`cargo bench --bench sheets` measures)");
        return;
    }
    // Chromium: a 100-card print.
    let hundred = Selection {
        subject: Subject::Deck("100".into()),
        prints: all.prints[..100].to_vec(),
        notes: Vec::new(),
    };
    let out = dir.path().join("out/sheets");
    std::fs::create_dir_all(out.join("img")).unwrap();
    let html = out.join("index.html");
    let mut index = std::fs::File::create(&html).unwrap();
    let files = render(
        ws.jail(),
        &ws.sources,
        &game,
        &inputs,
        &hundred,
        (&options, None),
        &mut index,
        &mut Vec::new(),
    )
    .unwrap()
    .unwrap();
    for f in &files {
        std::fs::write(out.join(&f.path), &f.bytes).unwrap();
    }
    let pdf = dir.path().join("out/100.pdf");
    let chromium = std::env::var("CARTA_CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let mut times = Vec::new();
    for _ in 0..3 {
        let profile = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let status = Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-pdf-header-footer",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--print-to-pdf={}", pdf.display()))
            .arg(format!("file://{}", html.display()))
            .output()
            .expect("chromium runs (scripts/install-test-deps.sh installs it)");
        assert!(status.status.success());
        times.push(start.elapsed());
    }
    let info = Command::new("pdfinfo")
        .arg(&pdf)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let pages = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .map_or("?".into(), |p| p.trim().to_owned());
    println!(
        "sheets/chromium: 100 cards ({pages} PDF pages, backs included) printed to PDF: median {:.2?}, best {:.2?} over 3 runs (cold browser start each time)",
        median(times.clone()),
        times.iter().min().unwrap()
    );
}
