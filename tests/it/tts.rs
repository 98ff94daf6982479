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

/// Whether a file name is an image the export writes.
fn is_png(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e == "png")
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
            assert_looks_like(&face, &png(&format!("{id}.png")), s.dpi, &id);
            let back = if s.unique_back {
                unique += 1;
                cell_of(&s.back, k, s.cols, s.cell)
            } else {
                s.back.clone()
            };
            assert_looks_like(&back, &png(&format!("{id}.back.png")), s.dpi, &id);
        }
    }
    // The hero and the swords share a sheet with two backs.
    assert_eq!(unique, 5, "heroi-a ×2 and item-b ×3 have UniqueBack");
    assert!(save["Note"].as_str().unwrap().contains("local files"));
    let readme = std::fs::read_to_string(dir.join("README.txt")).unwrap();
    assert!(readme.contains("The images are local"), "{readme}");
    for file in std::fs::read_dir(&dir).unwrap() {
        let name = file.unwrap().file_name().into_string().unwrap();
        if is_png(&name) {
            assert!(readme.contains(&name), "README lists {name}");
        }
    }
}

/// Each kind's card size in a shipped game, by the kind's display name
/// (what a TTS card's `Description` holds).
fn sizes_by_kind_name(game: &str) -> BTreeMap<String, (f64, f64)> {
    let manifest: toml::Table = std::fs::read_to_string(
        crate::harness::repo()
            .join("cards")
            .join(game)
            .join("game.toml"),
    )
    .unwrap()
    .parse()
    .unwrap();
    let preset = |v: Option<&toml::Value>| match v.and_then(toml::Value::as_str) {
        Some("tarot") => Some(TAROT),
        Some("poker") => Some(POKER),
        Some("euro") => Some((59.0, 92.0)),
        None => None,
        Some(other) => panic!("a size this test does not know: {other}"),
    };
    let default = preset(manifest["print"].get("size")).unwrap_or(POKER);
    manifest["kinds"]
        .as_table()
        .unwrap()
        .values()
        .map(|k| {
            let size = preset(k.get("print").and_then(|p| p.get("size"))).unwrap_or(default);
            (k["name"].as_str().unwrap().to_owned(), size)
        })
        .collect()
}

#[test]
fn a_shipped_deck_at_300_dpi_is_a_deck_per_zone_on_sharp_in_limit_sheets() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let deck = ws.path().join("cards/intrepidos/decks/furia-de-aries.toml");
    let run = ws
        .run([
            "--message-format",
            "json",
            "export",
            "tts",
            deck.to_str().unwrap(),
        ])
        .succeeds();
    let dir = ws.path().join("build/intrepidos/tts/furia-de-aries");
    let save = json(&dir.join("furia-de-aries.json"));
    let objects = save["ObjectStates"].as_array().unwrap();
    let names: Vec<&str> = objects
        .iter()
        .map(|o| o["Nickname"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Deck", "Intrépidos", "Preparação"]);
    let counts: Vec<usize> = objects.iter().map(|o| cards_of(o).len()).collect();
    assert_eq!(counts, [60, 3, 6], "the champions are not in the main deck");
    let xs: Vec<f64> = objects
        .iter()
        .map(|o| o["Transform"]["posX"].as_f64().unwrap())
        .collect();
    assert!(
        xs.windows(2).all(|w| w[1] - w[0] > 2.5),
        "side by side: {xs:?}"
    );
    // Every sheet holds cards of one size (tarot and poker apart), within
    // TTS's limits, at the highest resolution up to 300 dpi that fits.
    let sizes = sizes_by_kind_name("intrepidos");
    let mut dpis = BTreeMap::new();
    for o in objects {
        let mut by_sheet: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        let cards = o["ContainedObjects"].as_array().unwrap();
        for c in cards {
            let key = (c["CardID"].as_u64().unwrap() / 100).to_string();
            by_sheet
                .entry(key)
                .or_default()
                .push(sizes[c["Description"].as_str().unwrap()]);
        }
        for (key, cells) in by_sheet {
            assert!(
                cells.windows(2).all(|w| w[0] == w[1]),
                "sheet {key} mixes card sizes: {cells:?}"
            );
            let s = sheet(&o["CustomDeck"][&key], cells[0], 300, &local);
            // One more dot would overflow 4096 px, unless it is already 300.
            let wider =
                (px(cells[0].0, s.dpi + 1) * s.cols).max(px(cells[0].1, s.dpi + 1) * s.rows);
            assert!(s.dpi == 300 || wider > 4096, "sheet {key} at {} dpi", s.dpi);
            dpis.insert(key, s.dpi);
        }
    }
    // The 25 actions and items of the main deck: 5 × 5 at 234 dpi, not 10 × 3
    // at 163; the small sheets keep 300 dpi. The summary says so.
    assert_eq!(dpis["1"], 234, "{dpis:?}");
    assert!(
        dpis.values().filter(|&&d| d == 300).count() >= 2,
        "{dpis:?}"
    );
    // Shown without `-v`, as the tallies of `deck check` are.
    let notes: Vec<Value> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == "export::tts-dpi")
        .collect();
    assert_eq!(notes.len(), 1, "{}", run.stdout);
    assert_eq!(notes[0]["severity"], "advice");
    assert!(
        notes[0]["message"].as_str().unwrap().starts_with(
            "1 of the 4 Tabletop Simulator sheets of `furia-de-aries` drawn at 234 dpi, not 300"
        ),
        "{}",
        notes[0]
    );
    // Asking for less is taken as asked, and says nothing.
    let run = ws
        .run([
            "export",
            "tts",
            deck.to_str().unwrap(),
            "--dpi",
            "100",
            "--out",
            "low",
        ])
        .succeeds();
    assert!(!run.stderr.contains("export::tts-dpi"), "{}", run.stderr);
    let save = json(
        &ws.path()
            .join("low/intrepidos/tts/furia-de-aries/furia-de-aries.json"),
    );
    let main = &save["ObjectStates"][0];
    let s = sheet(&main["CustomDeck"]["1"], POKER, 100, &local);
    assert_eq!((s.dpi, s.cell), (100, (250, 350)));
}

#[test]
fn a_pool_is_one_tts_deck_per_kind_each_cell_its_card() {
    let ws = Workspace::shipped(&["covil"]);
    ws.run(["export", "tts", "--dpi", "40"]).succeeds();
    ws.run(["export", "png", "--dpi", "40"]).succeeds();
    let save = json(&ws.path().join("build/covil/tts/covil/covil.json"));
    let sizes = sizes_by_kind_name("covil");
    // Every copy of every card of the pool, by id (kept in GMNotes) and
    // name, in one object per kind, in the manifest's order.
    let mut pool: BTreeMap<String, (String, u64)> = BTreeMap::new();
    for (id, c) in crate::faces::cards("covil") {
        let copies = c
            .get("copies")
            .and_then(toml::Value::as_integer)
            .unwrap_or(1) as u64;
        pool.insert(id, (c["name"].as_str().unwrap().to_owned(), copies));
    }
    let objects = save["ObjectStates"].as_array().unwrap();
    let kinds: Vec<&str> = objects
        .iter()
        .map(|o| o["Nickname"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), sizes.len(), "a deck per kind: {kinds:?}");
    let mut seen: BTreeMap<String, u64> = BTreeMap::new();
    let pngs = ws.path().join("build/covil/png/covil");
    for o in objects {
        assert!(sizes.contains_key(o["Nickname"].as_str().unwrap()));
        for (id, card_id, entry) in cards_of(o) {
            let card = o["ContainedObjects"].as_array().map_or(o, |c| {
                c.iter().find(|c| c["GMNotes"] == id.as_str()).unwrap()
            });
            assert_eq!(card["Nickname"], pool[&id].0, "Nickname is the card's name");
            assert_eq!(card["Description"], o["Nickname"], "one kind per deck");
            *seen.entry(id.clone()).or_default() += 1;
            let s = sheet(&entry, sizes[o["Nickname"].as_str().unwrap()], 40, &local);
            let k = (card_id % 100) as u32;
            let cell = cell_of(&s.face, k, s.cols, s.cell);
            let png = Image::read(&pngs.join(format!("{id}.png"))).unwrap();
            assert_looks_like(&cell, &png, s.dpi, &id);
        }
    }
    let want: BTreeMap<String, u64> = pool.iter().map(|(k, (_, n))| (k.clone(), *n)).collect();
    assert_eq!(seen, want, "every card, every copy");
}

#[test]
fn base_url_hosts_the_images_and_their_names_follow_their_content() {
    let ws = mesa();
    let deck = ws.path().join("cards/mesa/decks/teste.toml");
    let deck = deck.to_str().unwrap();
    let base = "https://example.org/mesa/";
    ws.run([
        "export",
        "tts",
        deck,
        "--dpi",
        "30",
        "--base-url",
        "https://example.org/mesa",
    ])
    .succeeds();
    let dir = ws.path().join("build/mesa/tts/teste");
    let files = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| is_png(n))
            .collect();
        names.sort();
        names
    };
    let before = files(&dir);
    let hosted = |url: &Value| {
        let name = url
            .as_str()
            .unwrap()
            .strip_prefix(base)
            .unwrap_or_else(|| panic!("{url} is not under {base}"));
        dir.join(name)
    };
    let save = json(&dir.join("teste.json"));
    for o in save["ObjectStates"].as_array().unwrap() {
        for (id, _, entry) in cards_of(o) {
            let size = if id.starts_with("reliquia") {
                TAROT
            } else {
                POKER
            };
            sheet(&entry, size, 30, &hosted);
        }
    }
    assert!(
        save["Note"].as_str().unwrap().contains(base),
        "{}",
        save["Note"]
    );
    let readme = std::fs::read_to_string(dir.join("README.txt")).unwrap();
    assert!(readme.contains("Upload these files there"), "{readme}");
    for name in &before {
        assert!(
            readme.contains(&format!("{base}{name}")),
            "README: {name} goes to its URL"
        );
    }
    // Renaming the sword renames its sheet and nothing else: TTS, which
    // caches images by URL, loads the new one.
    ws.write(
        "cards/mesa/cards.toml",
        CARDS.replace("Espada", "Espada longa"),
    );
    ws.run(["export", "tts", deck, "--dpi", "30", "--base-url", base])
        .succeeds();
    let after = files(&dir);
    let changed: Vec<&String> = after.iter().filter(|n| !before.contains(n)).collect();
    let gone: Vec<&String> = before.iter().filter(|n| !after.contains(n)).collect();
    assert_eq!(changed.len(), 1, "{before:?} → {after:?}");
    assert!(changed[0].starts_with("sheet-1-"), "{changed:?}");
    assert_eq!(gone.len(), 1, "the old sheet is gone: {gone:?}");
    assert!(gone[0].starts_with("sheet-1-"));
    let save = json(&dir.join("teste.json"));
    assert_eq!(
        save["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"],
        format!("{base}{}", changed[0])
    );
}

/// Whether `cell` looks like `png`, the card's own image at the same
/// resolution, as a player sees it. The perceptual tolerance: averaged
/// over every square of about 1 mm (at least 4 px a side), no channel
/// differs by more than 16 of 255. Two renderings of one card differ by a
/// few levels of anti-aliasing at most; a card drawn 0.5 mm off its cell
/// moves every edge across a square, which then differs by far more.
pub(crate) fn assert_looks_like(cell: &Image, png: &Image, dpi: u32, what: &str) {
    let (diff, x, y) = worst_square(cell, png, dpi, what);
    assert!(
        diff <= 16.0,
        "{what}: the square at ({x}, {y}) px differs from the card's PNG by {diff:.0} of 255"
    );
}

/// The largest difference of one channel between `cell` and `png`,
/// averaged over a square of about 1 mm at `dpi` (see
/// [`assert_looks_like`]), and where that square is.
pub(crate) fn worst_square(cell: &Image, png: &Image, dpi: u32, what: &str) -> (f64, usize, usize) {
    assert_eq!(
        (cell.width, cell.height),
        (png.width, png.height),
        "{what}: the cell is not the card's size"
    );
    let side = (dpi as usize * 10 / 254).max(4);
    let (w, h) = (cell.width as usize, cell.height as usize);
    let mut worst = (0.0_f64, 0, 0);
    for by in (0..h).step_by(side) {
        for bx in (0..w).step_by(side) {
            let mut sums = [0_i64; 4];
            let mut n = 0_i64;
            for y in by..(by + side).min(h) {
                for x in bx..(bx + side).min(w) {
                    let at = (y * w + x) * 4;
                    for (c, sum) in sums.iter_mut().enumerate() {
                        *sum += i64::from(cell.rgba[at + c]) - i64::from(png.rgba[at + c]);
                    }
                    n += 1;
                }
            }
            let diff = sums
                .iter()
                .map(|s| s.abs() as f64 / n as f64)
                .fold(0.0, f64::max);
            if diff > worst.0 {
                worst = (diff, bx, by);
            }
        }
    }
    worst
}

#[test]
fn a_sheet_drawn_below_the_asked_resolution_holds_each_card_as_its_png_at_that_resolution() {
    // Three cards 400 mm tall: at 300 dpi one is 4,724 px, over TTS's
    // 4,096, so their sheet is drawn at 260 dpi (4,094 px).
    let ws = Workspace::empty();
    ws.write(
        "cards/tall/game.toml",
        "id = \"tall\"\nname = \"Tall\"\nlanguage = \"en\"\n\n[print]\npaper = \"a3\"\nsize = { width = 30, height = 400 }\n\n[kinds.card]\nname = \"Card\"\n",
    )
    .write("schemas/tall/card.schema.json", SCHEMA);
    let cards: String = ["Ash", "Birch", "Cedar"]
        .iter()
        .map(|n| {
            format!(
                "[[card]]\nid = \"{}\"\nkind = \"card\"\nname = \"{n}\"\ntext = \"{n} grows.\"\n\n",
                n.to_lowercase()
            )
        })
        .collect();
    ws.write("cards/tall/cards.toml", &cards);
    ws.run(["export", "tts"]).succeeds();
    let save = json(&ws.path().join("build/tall/tts/tall/tall.json"));
    let pile = &save["ObjectStates"][0];
    let s = sheet(&pile["CustomDeck"]["1"], (30.0, 400.0), 300, &local);
    assert_eq!((s.dpi, s.cols, s.rows), (260, 3, 1));
    ws.run(["export", "png", "--dpi", "260"]).succeeds();
    let pngs = ws.path().join("build/tall/png/tall");
    let cards = cards_of(pile);
    assert_eq!(cards.len(), 3);
    for (id, card_id, _) in cards {
        let k = (card_id % 100) as u32;
        let png = Image::read(&pngs.join(format!("{id}.png"))).unwrap();
        assert_looks_like(&cell_of(&s.face, k, s.cols, s.cell), &png, s.dpi, &id);
    }
    let back = Image::read(&pngs.join("ash.back.png")).unwrap();
    assert_looks_like(&s.back, &back, s.dpi, "the back");
}
