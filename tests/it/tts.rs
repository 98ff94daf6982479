//! `carta export tts`: the Tabletop Simulator saved object read back as
//! TTS reads it — its objects (a deck per zone, a lone card as a `Card`),
//! every `CustomDeck` entry's images (their pixel size against
//! `NumWidth` × `NumHeight` cells of the card's size, within 4,096 px and
//! 10 × 7), the card in every cell, `UniqueBack`, the content-hash names
//! and `--base-url`. Rendered by a real headless Chromium: a missing
//! browser fails these tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use carta::emit::cards::Image;
use serde_json::Value;

use crate::harness::Workspace;

/// A game with two card sizes and two backs: heroes have their own back,
/// relics are tarot-sized.
const GAME: &str = r#"id = "mesa"
name = "Mesa"
language = "pt-BR"

[print]
size = "poker"

[kinds.hero]
name = "Herói"

[kinds.hero.print]
back = "Herói"

[kinds.item]
name = "Item"

[kinds.relic]
name = "Relíquia"

[kinds.relic.print]
size = "tarot"

[zones.main]
name = "Principal"
kinds = ["hero", "item", "relic"]

[zones.side]
name = "Reserva"
kinds = ["item"]
"#;

const SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": { "text": { "type": "string" } }
}"#;

const CARDS: &str = r#"[[card]]
id = "heroi-a"
kind = "hero"
name = "Heroína Ana"
text = "Lidera."

[[card]]
id = "item-b"
kind = "item"
name = "Espada"
text = "Corta."

[[card]]
id = "item-c"
kind = "item"
name = "Escudo"
text = "Protege."

[[card]]
id = "reliquia-d"
kind = "relic"
name = "Coroa"
text = "Reina."
"#;

const DECK: &str = r#"game = "mesa"
name = "Mesa de teste"

[main]
heroi-a = 2
item-b = 3
reliquia-d = 1

[side]
item-c = 1
"#;

fn mesa() -> Workspace {
    let ws = Workspace::empty();
    ws.write("cards/mesa/game.toml", GAME)
        .write("cards/mesa/cards.toml", CARDS)
        .write("cards/mesa/decks/teste.toml", DECK);
    for kind in ["hero", "item", "relic"] {
        ws.write(&format!("schemas/mesa/{kind}.schema.json"), SCHEMA);
    }
    ws
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The pixels of `mm` at `dpi`, as carta rounds them.
fn px(mm: f64, dpi: u32) -> u32 {
    (mm * f64::from(dpi) / 25.4).round() as u32
}

const POKER: (f64, f64) = (63.5, 88.9);
const TAROT: (f64, f64) = (70.0, 120.0);

/// The local file a `file:///` URL names.
fn local(url: &Value) -> PathBuf {
    PathBuf::from(
        url.as_str()
            .unwrap()
            .strip_prefix("file://")
            .unwrap_or_else(|| panic!("not a file:/// URL: {url}")),
    )
}

/// One `CustomDeck` entry as TTS reads it, its images checked.
#[derive(Debug)]
struct Sheet {
    cols: u32,
    rows: u32,
    unique_back: bool,
    face: Image,
    back: Image,
    /// The cell's pixel size and the resolution it is at.
    cell: (u32, u32),
    dpi: u32,
}

/// Reads and checks entry `entry` of `CustomDeck`: its grid within 10 × 7,
/// its face image exactly `NumWidth` × `NumHeight` cells of a card of
/// `size` at some resolution up to `asked`, within 4,096 px a side, and
/// its back one cell or, with `UniqueBack`, the same grid.
fn sheet(entry: &Value, size: (f64, f64), asked: u32, path: &dyn Fn(&Value) -> PathBuf) -> Sheet {
    assert_eq!(entry["BackIsHidden"], true, "{entry}");
    assert_eq!(entry["Type"], 0, "{entry}");
    let cols = entry["NumWidth"].as_u64().unwrap() as u32;
    let rows = entry["NumHeight"].as_u64().unwrap() as u32;
    assert!(
        (1..=10).contains(&cols) && (1..=7).contains(&rows),
        "TTS grid {cols} × {rows}"
    );
    let face = Image::read(&path(&entry["FaceURL"])).unwrap();
    let back = Image::read(&path(&entry["BackURL"])).unwrap();
    assert!(
        face.width <= 4096 && face.height <= 4096,
        "{} × {} px",
        face.width,
        face.height
    );
    assert_eq!((face.width % cols, face.height % rows), (0, 0), "{entry}");
    let cell = (face.width / cols, face.height / rows);
    let dpi = (1..=asked)
        .find(|&d| (px(size.0, d), px(size.1, d)) == cell)
        .unwrap_or_else(|| panic!("cells of {cell:?} px are no {size:?} mm card"));
    let unique_back = entry["UniqueBack"].as_bool().unwrap();
    let want_back = if unique_back {
        (face.width, face.height)
    } else {
        cell
    };
    assert_eq!((back.width, back.height), want_back, "{entry}");
    Sheet {
        cols,
        rows,
        unique_back,
        face,
        back,
        cell,
        dpi,
    }
}

/// Mean absolute difference of two images' channels.
fn distance(a: &Image, b: &Image) -> f64 {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let sum: u64 = a
        .rgba
        .iter()
        .zip(&b.rgba)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.rgba.len() as f64
}

/// Cell `k` of `image`, a grid of `cols` cells of `cell` px.
fn cell_of(image: &Image, k: u32, cols: u32, cell: (u32, u32)) -> Image {
    image
        .crop((k % cols) * cell.0, (k / cols) * cell.1, cell.0, cell.1)
        .unwrap()
}

/// The cards of an object (a deck's contained cards, or the card itself),
/// checked against its `DeckIDs`: (id, `CardID`, the card's `CustomDeck`).
fn cards_of(object: &Value) -> Vec<(String, u64, Value)> {
    let cards: Vec<&Value> = match object["Name"].as_str().unwrap() {
        "Card" => vec![object],
        "DeckCustom" => {
            let contained = object["ContainedObjects"].as_array().unwrap();
            let ids = object["DeckIDs"].as_array().unwrap();
            assert_eq!(ids.len(), contained.len(), "one DeckIDs entry per card");
            assert!(contained.len() > 1, "a deck holds more than one card");
            for (c, id) in contained.iter().zip(ids) {
                assert_eq!(&c["CardID"], id);
            }
            contained.iter().collect()
        }
        other => panic!("unexpected object {other}"),
    };
    cards
        .into_iter()
        .map(|c| {
            assert_eq!(c["Name"], "Card");
            let id = c["CardID"].as_u64().unwrap();
            let key = (id / 100).to_string();
            let custom = &c["CustomDeck"];
            assert_eq!(custom.as_object().unwrap().len(), 1, "{c}");
            if object["Name"] == "DeckCustom" {
                assert_eq!(custom[&key], object["CustomDeck"][&key], "{c}");
            }
            (
                c["GMNotes"].as_str().unwrap().to_owned(),
                id,
                custom[&key].clone(),
            )
        })
        .collect()
}

#[test]
fn a_deck_is_one_tts_object_per_zone_each_cell_its_card() {
    let ws = mesa();
    let deck = ws.path().join("cards/mesa/decks/teste.toml");
    let deck = deck.to_str().unwrap();
    ws.run(["export", "tts", deck, "--dpi", "40"])
        .succeeds()
        .stderr_has("exported 1 game or deck as tts");
    ws.run(["export", "png", "mesa", "--dpi", "40"]).succeeds();
    let dir = ws.path().join("build/mesa/tts/teste");
    let save = json(&dir.join("teste.json"));
    let objects = save["ObjectStates"].as_array().unwrap();
    // Two zones, two objects: the main zone a deck, the side zone's one
    // card a card, side by side.
    assert_eq!(objects.len(), 2, "{save}");
    let (main, side) = (&objects[0], &objects[1]);
    assert_eq!(
        (&main["Name"], &main["Nickname"]),
        (&"DeckCustom".into(), &"Principal".into())
    );
    assert_eq!(
        (&side["Name"], &side["Nickname"], &side["GMNotes"]),
        (&"Card".into(), &"Escudo".into(), &"item-c".into())
    );
    let x = |o: &Value| o["Transform"]["posX"].as_f64().unwrap();
    assert!(x(side) - x(main) > 2.5, "{} then {}", x(main), x(side));
    // A tarot card is scaled against TTS's standard (poker) card.
    let tarot = main["ContainedObjects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["GMNotes"] == "reliquia-d")
        .unwrap();
    assert_eq!(tarot["Transform"]["scaleX"], 1.102);
    assert_eq!(tarot["Transform"]["scaleZ"], 1.35);
    // Every copy, by zone.
    let mut copies: BTreeMap<(usize, String), u32> = BTreeMap::new();
    for (n, o) in objects.iter().enumerate() {
        for (id, ..) in cards_of(o) {
            *copies.entry((n, id)).or_default() += 1;
        }
    }
    let want: BTreeMap<(usize, String), u32> = [
        ((0, "heroi-a"), 2),
        ((0, "item-b"), 3),
        ((0, "reliquia-d"), 1),
        ((1, "item-c"), 1),
    ]
    .into_iter()
    .map(|((n, id), c)| ((n, id.to_owned()), c))
    .collect();
    assert_eq!(copies, want);
    // Each sheet: one card size; the cell a CardID names is that card, and
    // with UniqueBack the same cell of the backs is its back.
    let pngs = ws.path().join("build/mesa/png/mesa");
    let png = |name: &str| Image::read(&pngs.join(name)).unwrap();
    let mut unique = 0;
    for o in objects {
        for (id, card_id, entry) in cards_of(o) {
            let size = if id.starts_with("reliquia") {
                TAROT
            } else {
                POKER
            };
            let s = sheet(&entry, size, 40, &local);
            assert_eq!(s.dpi, 40, "{id}: small sheets keep the asked resolution");
            let k = (card_id % 100) as u32;
            assert!(k < s.cols * s.rows);
            let face = cell_of(&s.face, k, s.cols, s.cell);
            let d = distance(&face, &png(&format!("{id}.png")));
            assert!(d < 2.0, "{id}: cell {k} differs from its PNG by {d:.2}");
            let back = if s.unique_back {
                unique += 1;
                cell_of(&s.back, k, s.cols, s.cell)
            } else {
                s.back.clone()
            };
            let d = distance(&back, &png(&format!("{id}.back.png")));
            assert!(d < 2.0, "{id}: its back differs from its PNG by {d:.2}");
        }
    }
    // The hero and the swords share a sheet with two backs.
    assert_eq!(unique, 5, "heroi-a ×2 and item-b ×3 have UniqueBack");
    assert!(save["Note"].as_str().unwrap().contains("local files"));
    let readme = std::fs::read_to_string(dir.join("README.txt")).unwrap();
    assert!(readme.contains("The images are local"), "{readme}");
    for file in std::fs::read_dir(&dir).unwrap() {
        let name = file.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".png") {
            assert!(readme.contains(&name), "README lists {name}");
        }
    }
}
