//! `carta export cgs|cockatrice`: every shipped game exported for Card Game
//! Simulator and Cockatrice, rendered by a real headless Chromium, and
//! checked as the clients read it: `cgs.json` against the JSON Schema CGS
//! publishes (tests/vendor/cgs/), the card database and every `.cod` deck
//! against Cockatrice's XSDs with `xmllint` (tests/vendor/cockatrice/), and
//! every picture they name on disk at the PNG export's pixel size, named
//! by its content hash. A missing browser or `xmllint` fails these tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use carta::emit::cards::Image;
use carta::emit::images::hashed_name;
use serde_json::Value;

use crate::browser::tool;
use crate::harness::{Workspace, run_with};
use crate::sheets::{card, mini};

pub(crate) const GAMES: [&str; 5] = ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"];

fn vendor(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vendor")
        .join(rel)
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn size(path: &Path) -> (u32, u32) {
    let img = Image::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (img.width, img.height)
}

/// The file a local `file://` URL names.
fn local(url: &str) -> PathBuf {
    let path = url
        .strip_prefix("file://")
        .unwrap_or_else(|| panic!("not a file:// URL: {url}"));
    let bytes = percent_encoding::percent_decode_str(path).collect::<Vec<u8>>();
    PathBuf::from(String::from_utf8(bytes).unwrap())
}

/// The picture a URL names exists, is named `<stem>-<hash of its bytes>.png`,
/// and has `px` pixels (when given).
fn picture(url: &str, stem: &str, px: Option<(u32, u32)>) {
    let path = local(url);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        path.file_name().unwrap().to_str().unwrap(),
        hashed_name(stem, &bytes),
        "named by its content"
    );
    if let Some(px) = px {
        assert_eq!(size(&path), px, "{}", path.display());
    }
}

/// The shipped workspace, exported as `format` and as PNGs (whose sizes
/// the pictures must have) at a small resolution.
pub(crate) fn exported(format: &str) -> Workspace {
    let ws = Workspace::shipped(&GAMES);
    // The per-page time limit guards against hostile pages, not what this
    // test is about: on a loaded machine the whole pool's pages may pass it.
    let slow = [("CARTA_EXPORT_SECONDS", "900")];
    // Every game in one run, as a user exports them: one browser a run.
    for f in [format, "png"] {
        run_with(ws.path(), ["export", f, "--dpi", "30"], &slow).succeeds();
    }
    ws
}

/// Each deck file of a shipped game: its stem and its lines, zone by zone.
fn deck_files(ws: &Workspace, game: &str) -> BTreeMap<String, Vec<(String, String, u64)>> {
    let mut out = BTreeMap::new();
    let dir = ws.path().join("cards").join(game).join("decks");
    for entry in std::fs::read_dir(&dir).into_iter().flatten() {
        let path = entry.unwrap().path();
        let deck: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let mut lines = Vec::new();
        for (zone, cards) in deck.iter().filter_map(|(k, v)| Some((k, v.as_table()?))) {
            for (id, n) in cards {
                lines.push((zone.clone(), id.clone(), n.as_integer().unwrap() as u64));
            }
        }
        let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
        out.insert(stem, lines);
    }
    out
}

#[test]
fn every_shipped_game_exports_a_cgs_game_that_its_schema_accepts() {
    let ws = exported("cgs");
    let schema = json(&vendor("cgs/CardGameDef.json"));
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the vendored schema compiles");
    for game in GAMES {
        let dir = ws.path().join(format!("build/{game}/cgs/{game}"));
        let def = json(&dir.join("cgs.json"));
        let errors: Vec<String> = validator.iter_errors(&def).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{game}: {errors:#?}");
        assert_eq!(def["autoUpdate"], -1, "{game}: local files are not updated");
        assert_eq!(
            local(def["allCardsUrl"].as_str().unwrap()),
            dir.join("AllCards.json")
        );
        let image = def["cardImageProperty"].as_str().unwrap();
        let props: BTreeSet<&str> = def["cardProperties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(props.contains(image) && props.contains("kind"), "{game}");
        // The cards: the pool, each with its picture at the PNG's size.
        let cards = json(&dir.join("AllCards.json"));
        let pool = crate::faces::cards(game);
        let cards = cards.as_array().unwrap();
        assert_eq!(cards.len(), pool.len(), "{game}: every card");
        let pngs = ws.path().join(format!("build/{game}/png/{game}"));
        let backs: BTreeMap<&str, &str> = def["cardBackFaceImageUrls"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| (b["id"].as_str().unwrap(), b["url"].as_str().unwrap()))
            .collect();
        for c in cards {
            let id = c["id"].as_str().unwrap();
            assert_eq!(c["name"].as_str(), pool[id]["name"].as_str(), "{game}/{id}");
            assert_eq!(c["set"], game);
            let px = size(&pngs.join(format!("{id}.png")));
            picture(c[image].as_str().unwrap(), id, Some(px));
            for b in c["backs"].as_array().into_iter().flatten() {
                let b = b.as_str().unwrap();
                picture(
                    backs[b],
                    b,
                    Some(size(&pngs.join(format!("{id}.back.png")))),
                );
            }
            for p in &props {
                assert!(
                    c.get(*p).is_none_or(|v| !v.is_object() && !v.is_array()),
                    "{game}/{id}: {p} is a plain value"
                );
            }
        }
        let back = def["cardBackImageUrl"].as_str().unwrap();
        assert!(local(back).is_file(), "{back}");
        check_cgs_decks(&ws, game, &dir, &def, cards);
    }
}

/// Every deck of the game is a `txt` deck that `deckUrls` names, holding
/// the deck file's cards: the manifest's first zone under `## Main Deck`,
/// each other zone under its name.
fn check_cgs_decks(ws: &Workspace, game: &str, dir: &Path, def: &Value, cards: &[Value]) {
    let decks = deck_files(ws, game);
    let urls: Vec<&Value> = def["deckUrls"].as_array().into_iter().flatten().collect();
    assert_eq!(urls.len(), decks.len(), "{game}: a deckUrl per deck");
    let ids: BTreeSet<&str> = cards.iter().map(|c| c["id"].as_str().unwrap()).collect();
    for (stem, lines) in &decks {
        let path = dir.join(format!("{stem}.txt"));
        assert!(
            urls.iter()
                .any(|u| local(u["url"].as_str().unwrap()) == path),
            "{game}: {stem} has a deckUrl"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let mut total = 0;
        let mut main = false;
        for line in text.lines() {
            if line == "## Main Deck" {
                main = true;
            }
            if line.starts_with('#') {
                continue;
            }
            let (n, rest) = line.split_once(' ').unwrap();
            let id = rest.strip_prefix('[').unwrap().split_once(']').unwrap().0;
            assert!(ids.contains(id), "{game}/{stem}: {id} is a card");
            total += n.parse::<u64>().unwrap();
        }
        assert!(main, "{game}/{stem}: a main deck");
        assert_eq!(
            total,
            lines.iter().map(|l| l.2).sum::<u64>(),
            "{game}/{stem}"
        );
    }
}

fn xmllint_valid(xsd: &str, file: &Path) {
    schema_valid(&vendor(xsd), file);
}

/// `file` is valid against the XML Schema `xsd`, as `xmllint` reads it.
pub(crate) fn schema_valid(xsd: &Path, file: &Path) {
    tool(
        "xmllint",
        &[
            "--noout",
            "--schema",
            xsd.to_str().unwrap(),
            file.to_str().unwrap(),
        ],
    );
}

/// `xpath` evaluated over `file` by xmllint.
pub(crate) fn xpath(file: &Path, xpath: &str) -> String {
    let out = tool("xmllint", &["--xpath", xpath, file.to_str().unwrap()]);
    out.strip_suffix('\n').map_or(out.clone(), str::to_owned)
}

#[test]
fn every_shipped_game_exports_a_cockatrice_set_and_decks_its_schemas_accept() {
    let ws = exported("cockatrice");
    for game in GAMES {
        let dir = ws.path().join(format!("build/{game}/cockatrice/{game}"));
        let db = dir.join(format!("{game}.xml"));
        xmllint_valid("cockatrice/cards.xsd", &db);
        let pool = crate::faces::cards(game);
        let count: usize = xpath(&db, "count(//cards/card)").trim().parse().unwrap();
        assert_eq!(count, pool.len(), "{game}: every card");
        let pngs = ws.path().join(format!("build/{game}/png/{game}"));
        let mut names = BTreeSet::new();
        for k in 1..=count {
            let at = |p: &str| xpath(&db, &format!("string(//cards/card[{k}]/{p})"));
            let url = at("set/@picurl");
            let file = local(&url);
            let stem = file.file_name().unwrap().to_str().unwrap();
            let id = &stem[..stem.len() - "-123456789abc.png".len()];
            assert_eq!(at("set"), game, "{game}: the game is the set");
            picture(&url, id, Some(size(&pngs.join(format!("{id}.png")))));
            let name = at("name");
            assert!(
                name == pool[id]["name"].as_str().unwrap()
                    || name == format!("{} ({id})", pool[id]["name"].as_str().unwrap()),
                "{game}/{id}: {name}"
            );
            assert!(names.insert(name.clone()), "{game}: {name} is one card");
            assert!(!at("prop/type").is_empty(), "{game}/{id}: a type");
        }
        for (stem, lines) in deck_files(&ws, game) {
            let cod = dir.join(format!("{stem}.cod"));
            xmllint_valid("cockatrice/deck.xsd", &cod);
            let zones = xpath(&cod, "count(//zone)");
            assert!(zones.trim() != "0", "{game}/{stem}: zones");
            let total: u64 = xpath(&cod, "sum(//zone/card/@number)")
                .trim()
                .parse()
                .unwrap();
            assert_eq!(
                total,
                lines.iter().map(|l| l.2).sum::<u64>(),
                "{game}/{stem}"
            );
            let n: usize = xpath(&cod, "count(//zone/card)").trim().parse().unwrap();
            for k in 1..=n {
                let name = xpath(&cod, &format!("string((//zone/card)[{k}]/@name)"));
                assert!(names.contains(&name), "{game}/{stem}: {name} is in the set");
            }
        }
    }
}

const DECK: &str = "game = \"mini\"\nname = 'Deck <&\"> um'\n\n[main]\na = 2\n\n[side]\nb = 1\n";

/// A card text and names with `<`, `&` and `"`, two cards of one name, a
/// deck with two zones, hosted at a base URL.
fn tricky() -> Workspace {
    let ws = mini(
        &(card("a", "text = 'Golpe <b>&amp; \"x\" **forte** {AC}'").replace("Carta a", "Mesma")
            + &card("b", "").replace("Carta b", "Mesma")),
    );
    ws.write("cards/mini/decks/um.toml", DECK);
    ws
}

#[test]
fn cockatrice_escapes_text_and_tells_cards_of_one_name_apart() {
    let ws = tricky();
    ws.run([
        "export",
        "cockatrice",
        "--dpi",
        "30",
        "--base-url",
        "https://cards.example.org/mini",
    ])
    .succeeds();
    let dir = ws.path().join("build/mini/cockatrice/mini");
    let db = dir.join("mini.xml");
    xmllint_valid("cockatrice/cards.xsd", &db);
    let raw = std::fs::read_to_string(&db).unwrap();
    assert!(!raw.contains("<b>") && raw.contains("&amp;amp;"), "{raw}");
    assert_eq!(
        xpath(&db, "string(//card[name='Mesma (a)']/text)"),
        "Golpe <b>&amp; \"x\" forte [corpo a corpo]",
        "the text reads back as written, markup dropped, icons by their labels"
    );
    assert_eq!(xpath(&db, "count(//card[name='Mesma (b)'])").trim(), "1");
    let url = xpath(&db, "string(//card[name='Mesma (a)']/set/@picurl)");
    let file = url
        .strip_prefix("https://cards.example.org/mini/")
        .expect("a hosted URL");
    assert!(file.starts_with("a-") && dir.join(file).is_file(), "{url}");
    let cod = dir.join("um.cod");
    xmllint_valid("cockatrice/deck.xsd", &cod);
    assert_eq!(xpath(&cod, "string(//deckname)"), "Deck <&\"> um");
    assert_eq!(
        xpath(&cod, "string(//zone[@name='main']/card/@name)"),
        "Mesma (a)"
    );
    assert_eq!(
        xpath(&cod, "string(//zone[@name='side']/card/@number)"),
        "1"
    );
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        readme.contains(&url) && readme.contains("customsets"),
        "{readme}"
    );
    assert!(!raw.contains("file://"), "no local path when hosted");
}

#[test]
fn cgs_with_a_base_url_names_every_file_by_its_hosted_url() {
    let ws = tricky();
    let base = "https://cards.example.org/mini/";
    ws.run(["export", "cgs", "--dpi", "30", "--base-url", base])
        .succeeds();
    let dir = ws.path().join("build/mini/cgs/mini");
    let def = json(&dir.join("cgs.json"));
    let schema = json(&vendor("cgs/CardGameDef.json"));
    assert!(jsonschema::is_valid(&schema, &def));
    assert_eq!(def["autoUpdateUrl"], format!("{base}cgs.json"));
    assert_eq!(def["allCardsUrl"], format!("{base}AllCards.json"));
    assert_eq!(def["deckUrls"][0]["url"], format!("{base}um.txt"));
    let cards = json(&dir.join("AllCards.json"));
    let a = &cards[0];
    assert_eq!(a["text"], "Golpe <b>&amp; \"x\" forte [corpo a corpo]");
    let url = a[def["cardImageProperty"].as_str().unwrap()]
        .as_str()
        .unwrap();
    let file = url.strip_prefix(base).expect("a hosted URL");
    let bytes = std::fs::read(dir.join(file)).unwrap();
    assert_eq!(file, hashed_name("a", &bytes));
    // Both zones kept apart, each card by its id.
    let txt = std::fs::read_to_string(dir.join("um.txt")).unwrap();
    assert_eq!(
        txt,
        "### Mini Deck: Deck <&\"> um\n## Side\n1 [b] Mesma\n## Main Deck\n2 [a] Mesma\n"
    );
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(
            !String::from_utf8_lossy(&text).contains("file://"),
            "no local path when hosted"
        );
    }
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains(&format!("{base}cgs.json")), "{readme}");
}

#[test]
fn a_deck_file_exports_its_own_cards_and_itself() {
    let ws = tricky();
    ws.write("cards/mini/more.toml", card("c", ""));
    let deck = ws.path().join("cards/mini/decks/um.toml");
    let deck = deck.to_str().unwrap();
    ws.run(["export", "cockatrice", deck, "--dpi", "30"])
        .succeeds();
    ws.run(["export", "cgs", deck, "--dpi", "30"]).succeeds();
    let dir = ws.path().join("build/mini/cockatrice/um");
    let db = dir.join("um.xml");
    xmllint_valid("cockatrice/cards.xsd", &db);
    assert_eq!(
        xpath(&db, "count(//cards/card)"),
        "2",
        "the deck's cards, not the pool's"
    );
    xmllint_valid("cockatrice/deck.xsd", &dir.join("um.cod"));
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| Path::new(n).extension().is_some_and(|x| x == "cod"))
        .collect();
    assert_eq!(files, ["um.cod"], "the deck alone");
    let cgs = ws.path().join("build/mini/cgs/um");
    let cards = json(&cgs.join("AllCards.json"));
    let ids: Vec<&str> = cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b"]);
    assert!(
        cards[0].get("copies").is_none(),
        "a deck's counts are in it"
    );
    let def = json(&cgs.join("cgs.json"));
    assert_eq!(def["deckUrls"].as_array().unwrap().len(), 1);
    assert!(local(def["deckUrls"][0]["url"].as_str().unwrap()).is_file());
}
