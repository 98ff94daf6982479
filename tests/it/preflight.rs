//! `carta preflight --shop` and the preflight of `carta export pod`, in a
//! real headless Chromium (and Ghostscript for `DriveThruCards`): text and
//! marked elements past the safe area, art too coarse for the size it is
//! drawn at, backs that differ within a kind, each at the card. The
//! `DriveThruCards` case with the three at once is the corpus case
//! `preflight-dtc-bleed-coarse-art`; the ink limit's measurement is
//! unit-tested in `src/emit/pod/preflight.rs`.

use serde_json::Value;

use crate::harness::{Run, Workspace};
use crate::sheets::{card, mini};

/// A `w` × `h` px PNG, a gradient.
fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().unwrap();
    let data: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).flat_map(move |x| [(x % 256) as u8, (y % 256) as u8, 128]))
        .collect();
    writer.write_image_data(&data).unwrap();
    drop(writer);
    out
}

/// The JSON diagnostics of `run` with `code`.
fn with_code(run: &Run, code: &str) -> Vec<Value> {
    run.json()
        .into_iter()
        .filter(|d| d["code"] == code)
        .collect()
}

/// A card `a` with art of `w` × `h` px, and `b` without, faces drawn by
/// `face` and backs by `back`.
fn game(art: (u32, u32), face: &str, back: &str) -> Workspace {
    let ws = mini(
        &(card("a", "art = \"art/a.png\"\ntext = \"Golpe\"") + &card("b", "text = \"Defesa\"")),
    );
    ws.write("cards/mini/art/a.png", png(art.0, art.1))
        .write("templates/mini/card.hbs", face)
        .write("templates/mini/back.hbs", back);
    ws
}

/// The name at 1 mm from the card box's edge: in the bleed.
const NAME_IN_BLEED: &str = r#"<div class="f"><h1 style="position: absolute; top: 1mm; left: 1mm; margin: 0">{{name}}</h1>{{#if images.art}}<img src="{{images.art}}" alt="" style="width: 40mm; height: 30mm">{{/if}}</div>"#;

#[test]
fn export_pod_stops_on_a_preflight_error_and_writes_nothing() {
    let ws = game((1200, 900), NAME_IN_BLEED, "<div>Mini</div>");
    let run = ws
        .run(["--message-format", "json", "export", "pod", "--shop", "tgc"])
        .fails();
    let found = with_code(&run, "preflight::safe-area");
    assert_eq!(found.len(), 2, "each card's name: {}", run.stdout);
    for d in &found {
        assert_eq!(d["severity"], "error", "{d}");
        let message = d["message"].as_str().unwrap();
        assert!(message.contains("into the bleed"), "{message}");
        assert!(message.contains("The Game Crafter"), "{message}");
    }
    // At each card's `[[card]]` line: `a` on line 1, `b` on line 7.
    let mut lines: Vec<u64> = found.iter().map(|d| d["line"].as_u64().unwrap()).collect();
    lines.sort_unstable();
    assert_eq!(lines, [1, 7]);
    assert!(
        with_code(&run, "preflight::art-resolution").is_empty(),
        "1200 px across 40 mm is 762 ppi: {}",
        run.stdout
    );
    assert!(
        !ws.path().join("build/mini/pod").exists(),
        "nothing written"
    );
}

#[test]
fn preflight_warns_of_a_marked_element_near_the_trim_soft_art_and_backs_that_differ_in_a_kind() {
    // The safe line is 3.175 + 3.175 mm inside the card box: the mark at
    // 4 mm is 2.35 mm past it, still inside the trim. 300 px across 40 mm
    // is 190 ppi: below the 300 asked for, above the 150 refused.
    let face = r#"<div class="f"><i data-carta-safe class="logo" style="position: absolute; top: 4mm; right: 8mm; width: 3mm; height: 3mm; background: #c00"></i><h1>{{name}}</h1>{{#if images.art}}<img src="{{images.art}}" alt="" style="width: 40mm; height: 30mm">{{/if}}</div>"#;
    let ws = game((300, 225), face, "<div>Mini {{name}}</div>");
    let run = ws
        .run(["--message-format", "json", "preflight", "--shop", "tgc"])
        .succeeds();
    let marked = with_code(&run, "preflight::safe-area");
    assert_eq!(marked.len(), 2, "{}", run.stdout);
    for d in &marked {
        assert_eq!(d["severity"], "warning", "{d}");
        let message = d["message"].as_str().unwrap();
        assert!(
            message.starts_with("the element `i.logo` on the face of card"),
            "{message}"
        );
        let past: f64 = message
            .split("reaches ")
            .nth(1)
            .and_then(|m| m.split(" mm past").next())
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("{message}"));
        assert!((past - 2.35).abs() <= 0.1, "{message}");
    }
    let art = with_code(&run, "preflight::art-resolution");
    assert_eq!(art.len(), 1, "{}", run.stdout);
    assert_eq!(art[0]["severity"], "warning");
    let message = art[0]["message"].as_str().unwrap();
    assert!(
        message.contains("300 × 225 px drawn at 40.0 × 30.0 mm: 191 ppi"),
        "{message}"
    );
    // At the art field: `art = …`, line 5 of the card file.
    assert_eq!(art[0]["line"], 5, "{}", art[0]);
    let backs = with_code(&run, "preflight::backs-differ");
    assert_eq!(backs.len(), 1, "{}", run.stdout);
    let message = backs[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the back of card `b` differs from that of `a`"),
        "{message}"
    );
    // Only the cache of drawn cells under `build/.cache` is kept.
    assert!(
        !ws.path().join("build/mini").exists(),
        "preflight writes nothing"
    );
}

#[test]
fn the_corpus_card_with_every_finding_prints_as_docs_show_it() {
    let case = crate::harness::repo().join("tests/corpus/preflight-dtc-bleed-coarse-art");
    let (ws, _) = crate::corpus::case_workspace(&case);
    ws.run(["export", "png", "--bleed", "--dpi", "100"])
        .succeeds();
    let face = ws.path().join("build/mini/png/mini/sombra.png");
    let image = carta::emit::cards::Image::read(&face).unwrap();
    // 63.5 × 88.9 mm and the game's 3 mm of bleed each side, at 100 dpi.
    assert_eq!((image.width, image.height), (274, 374));
    if std::env::var_os("CARTA_BLESS").is_some() {
        let out = crate::harness::repo().join("docs/img/preflight-card.png");
        std::fs::copy(&face, out).unwrap();
    }
}
