//! `carta export octgn|lackey`: every shipped game exported for OCTGN and
//! `LackeyCCG`, rendered by a real headless Chromium, and read back by each
//! table's own rules: OCTGN's definition, set, proxy definition and `.o8d`
//! decks with `xmllint --schema` against the schemas of its documented
//! formats (tests/schemas/octgn/), its pictures where OCTGN looks for them,
//! named by card GUID; Lackey's card data as Lackey reads it (a header row,
//! a card a line, tab-separated), its pictures where Lackey looks for
//! them, its `.dek` decks by card name and set. Hostile card names
//! (quotes, tabs, line breaks, `<`, `&`) go through every export and never
//! break its syntax. A missing browser or `xmllint` fails these tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use carta::emit::cards::Image;
use carta::emit::octgn::Guids;

use crate::clients::{GAMES, exported, schema_valid, xpath};
use crate::harness::Workspace;

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/schemas/octgn")
        .join(name)
}

fn valid(xsd: &str, file: &Path) {
    schema_valid(&schema(xsd), file);
}

/// Every value of the attribute (or text) `path` selects, one per node.
fn values(file: &Path, path: &str) -> Vec<String> {
    let n: usize = xpath(file, &format!("count({path})"))
        .trim()
        .parse()
        .unwrap();
    (1..=n)
        .map(|k| xpath(file, &format!("string(({path})[{k}])")))
        .collect()
}

/// Each deck file of a shipped game: its stem and its total of cards.
fn deck_totals(ws: &Workspace, game: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let dir = ws.path().join("cards").join(game).join("decks");
    for entry in std::fs::read_dir(&dir).into_iter().flatten() {
        let path = entry.unwrap().path();
        let deck: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let total = deck
            .values()
            .filter_map(toml::Value::as_table)
            .flat_map(|cards| cards.values())
            .map(|n| n.as_integer().unwrap() as u64)
            .sum();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
        out.insert(stem, total);
    }
    out
}

/// An OCTGN export's files: its definition, set, proxy definition, the
/// folder of its card pictures and its decks.
struct Octgn {
    definition: PathBuf,
    set: PathBuf,
    proxies: PathBuf,
    cards: PathBuf,
    decks: PathBuf,
    guids: Guids,
}

impl Octgn {
    fn at(dir: &Path, game: &str) -> Octgn {
        let guids = Guids::of(game);
        let (g, s) = (guids.game.to_string(), guids.set.to_string());
        let def = dir.join("GameDatabase").join(&g);
        Octgn {
            definition: def.join("definition.xml"),
            set: def.join("Sets").join(&s).join("set.xml"),
            proxies: def.join("Proxies/proxydef.xml"),
            cards: dir
                .join("ImageDatabase")
                .join(&g)
                .join("Sets")
                .join(&s)
                .join("Cards"),
            decks: dir.join("Decks"),
            guids,
        }
    }

    /// Validates every file against its schema, and checks what the schemas
    /// cannot: the set's properties and sizes are the definition's, every
    /// picture the definition names is in the game folder, and each card's
    /// face is where OCTGN looks for it.
    fn check(&self) {
        valid("definition.xsd", &self.definition);
        valid("set.xsd", &self.set);
        valid("proxydef.xsd", &self.proxies);
        let game_dir = self.definition.parent().unwrap();
        let defined: BTreeSet<String> = values(&self.definition, "/game/card/property/@name")
            .into_iter()
            .collect();
        for name in values(&self.set, "//card/property/@name") {
            assert!(defined.contains(&name), "{name} is a defined property");
        }
        let sizes: BTreeSet<String> = values(&self.definition, "/game/card/size/@name")
            .into_iter()
            .collect();
        for size in values(&self.set, "//card/@size") {
            assert!(sizes.contains(&size), "{size} is a defined size");
        }
        for path in values(&self.definition, "//@back | //@front")
            .into_iter()
            .chain(values(&self.proxies, "//template/@src"))
        {
            assert!(game_dir.join(&path).is_file(), "{path} is in the game");
        }
        for id in values(&self.set, "//card/@id") {
            assert!(
                self.cards.join(format!("{id}.png")).is_file(),
                "{id}.png is a card's face"
            );
        }
    }

    /// Validates the deck and checks that its sections are the
    /// definition's and its cards the set's; returns its total of cards.
    fn deck(&self, stem: &str) -> u64 {
        let o8d = self.decks.join(format!("{stem}.o8d"));
        valid("o8d.xsd", &o8d);
        assert_eq!(
            xpath(&o8d, "string(/deck/@game)"),
            self.guids.game.to_string()
        );
        let sections: BTreeSet<String> = values(&self.definition, "/game/deck/section/@name")
            .into_iter()
            .collect();
        for s in values(&o8d, "//section/@name") {
            assert!(sections.contains(&s), "{stem}: {s} is a section");
        }
        let ids: BTreeSet<String> = values(&self.set, "//card/@id").into_iter().collect();
        for id in values(&o8d, "//section/card/@id") {
            assert!(ids.contains(&id), "{stem}: {id} is a card of the set");
        }
        xpath(&o8d, "sum(//section/card/@qty)")
            .trim()
            .parse()
            .unwrap()
    }
}

#[test]
fn every_shipped_game_exports_an_octgn_game_its_formats_accept() {
    let ws = exported("octgn");
    for game in GAMES {
        let dir = ws.path().join(format!("build/{game}/octgn/{game}"));
        let octgn = Octgn::at(&dir, game);
        octgn.check();
        let pool = crate::faces::cards(game);
        let ids = values(&octgn.set, "//card/@id");
        assert_eq!(ids.len(), pool.len(), "{game}: every card");
        let pngs = ws.path().join(format!("build/{game}/png/{game}"));
        for (id, card) in &pool {
            let guid = octgn.guids.card(id).to_string();
            let name = xpath(&octgn.set, &format!("string(//card[@id='{guid}']/@name)"));
            assert_eq!(name, card["name"].as_str().unwrap(), "{game}/{id}");
            let face = Image::read(&octgn.cards.join(format!("{guid}.png"))).unwrap();
            let png = Image::read(&pngs.join(format!("{id}.png"))).unwrap();
            assert_eq!((face.width, face.height), (png.width, png.height));
        }
        for (stem, total) in deck_totals(&ws, game) {
            assert_eq!(octgn.deck(&stem), total, "{game}/{stem}");
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            readme.contains(&format!("GameDatabase/{}/", octgn.guids.game))
                && readme.contains("Shuffle"),
            "{readme}"
        );
    }
}

/// Card names and a deck name with every character that breaks a naive
/// writer: quotes, a tab, line breaks, `<`, `&` and `>`.
const HOSTILE: [(&str, &str); 3] = [
    ("a", "Aspas \"duplas\" e 'simples'"),
    ("b", "Tab\there & <there>"),
    ("c", "Linha\numa\r\nduas ]]> fim"),
];

/// A game of the hostile names, its text field holding one too, and a
/// deck of them with a hostile name.
fn hostile() -> Workspace {
    let mut cards = String::new();
    for (id, name) in HOSTILE {
        let name = toml::Value::String(name.into());
        let text = toml::Value::String(format!("Efeito <b>&amp; \"x\"\t{id}\nfim"));
        cards.push_str(&format!(
            "[[card]]\nid = \"{id}\"\nkind = \"card\"\nname = {name}\ntext = {text}\n\n"
        ));
    }
    let ws = crate::sheets::mini(&cards);
    ws.write(
        "cards/mini/decks/um.toml",
        "game = \"mini\"\nname = \"Deck \\\"<&>\\\"\\tum\"\n\n[main]\na = 2\nb = 1\n\n[side]\nc = 3\n",
    );
    ws
}

#[test]
fn hostile_card_names_never_break_a_table_s_syntax() {
    let ws = hostile();
    for format in ["octgn", "lackey"] {
        ws.run(["export", format, "--dpi", "30"]).succeeds();
    }
    // OCTGN: the set's names and texts read back exactly, tabs and line
    // breaks included (attributes keep them as references).
    let octgn = Octgn::at(&ws.path().join("build/mini/octgn/mini"), "mini");
    octgn.check();
    for (id, name) in HOSTILE {
        let guid = octgn.guids.card(id).to_string();
        let read = xpath(&octgn.set, &format!("string(//card[@id='{guid}']/@name)"));
        assert_eq!(read, name, "{id}");
        let text = xpath(
            &octgn.set,
            &format!("string(//card[@id='{guid}']/property[not(@name='Type')])"),
        );
        assert_eq!(text, format!("Efeito <b>&amp; \"x\"\t{id}\nfim"));
    }
    assert_eq!(octgn.deck("um"), 6);
    let o8d = octgn.decks.join("um.o8d");
    assert_eq!(
        xpath(&o8d, "string(//notes)"),
        "Deck \"<&>\"\tum — exported by carta."
    );
    assert_eq!(
        values(&o8d, "//section/@name"),
        ["Main", "Side"],
        "each zone its own section"
    );
    // Lackey: a tab or line break in a name or text is a space (its card
    // data has no quoting); quotes, `<` and `&` stay as written, and the
    // deck names each card as the card data does.
    let lackey = Lackey::read(&ws.path().join("build/mini/lackey/mini/mini"));
    let one_line = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    for (id, name) in HOSTILE {
        let row = &lackey.cards[&one_line(name)];
        assert_eq!(
            row["text"],
            one_line(&format!("Efeito <b>&amp; \"x\"\t{id}\nfim"))
        );
    }
    assert_eq!(lackey.deck("um"), 6);
    let dek = lackey.plugin.join("decks/um.dek");
    assert_eq!(xpath(&dek, "string(//meta/title)"), "Deck \"<&>\"\tum");
    assert_eq!(values(&dek, "//superzone/@name"), ["Main", "Side"]);
}

#[test]
fn octgn_lang_exports_the_same_game_in_another_language() {
    let ws = crate::export_lang::duelo();
    ws.run(["export", "octgn", "--dpi", "30"]).succeeds();
    ws.run(["export", "octgn", "--lang", "en", "--dpi", "30"])
        .succeeds();
    let pt = Octgn::at(&ws.path().join("build/duelo/octgn/duelo"), "duelo");
    let en = Octgn::at(&ws.path().join("build/duelo/octgn/duelo.en"), "duelo");
    pt.check();
    en.check();
    let names = |o: &Octgn| values(&o.set, "//card/@name");
    assert_eq!(names(&pt), ["Espada Flamejante", "Escudo Partido"]);
    assert_eq!(names(&en), ["Flaming Sword", "Broken Shield"]);
    // The same GUIDs: a deck saved in one language loads in the other.
    assert_eq!(pt.deck("par"), 2);
    assert_eq!(values(&pt.set, "//card/@id"), values(&en.set, "//card/@id"));
}

/// A `LackeyCCG` plugin, read as Lackey reads it.
struct Lackey {
    plugin: PathBuf,
    /// The card data's header.
    header: Vec<String>,
    /// Its rows, by card name.
    cards: BTreeMap<String, BTreeMap<String, String>>,
    /// The deck zones' labels.
    deck_zones: Vec<String>,
}

/// The text of every `<tag>…</tag>` block of `text`, in order.
fn blocks<'t>(text: &'t str, tag: &str) -> Vec<&'t str> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(&open) {
        let inner = &rest[at + open.len()..];
        let end = inner
            .find(&close)
            .unwrap_or_else(|| panic!("{tag} is closed"));
        out.push(&inner[..end]);
        rest = &inner[end + close.len()..];
    }
    out
}

impl Lackey {
    /// Reads the plugin at `plugin`: its card data a line a card, fields
    /// split at tabs under a header row, every row as wide as the header;
    /// and checks that every picture the data names is where Lackey looks
    /// for it (`sets/setimages/<Set>/`, or `general/`, for a back too) and
    /// that every deck zone loads into a game zone.
    fn read(plugin: &Path) -> Lackey {
        let data = std::fs::read_to_string(plugin.join("sets/carddata.txt")).unwrap();
        let mut lines = data
            .strip_suffix('\n')
            .expect("a final line break")
            .split('\n');
        let header: Vec<String> = lines
            .next()
            .unwrap()
            .split('\t')
            .map(str::to_owned)
            .collect();
        assert_eq!(
            header[..3],
            ["Name", "Set", "ImageFile"],
            "Lackey's own columns first"
        );
        let mut cards = BTreeMap::new();
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                fields.len(),
                header.len(),
                "a row as wide as the header: {line:?}"
            );
            let row: BTreeMap<String, String> = header
                .iter()
                .cloned()
                .zip(fields.iter().map(|f| (*f).to_owned()))
                .collect();
            let images = plugin.join("sets/setimages");
            let mut files = row["ImageFile"].split(',');
            let face = files.next().unwrap();
            assert!(
                images
                    .join(&row["Set"])
                    .join(format!("{face}.png"))
                    .is_file()
                    || images.join("general").join(format!("{face}.png")).is_file(),
                "{face} is a face"
            );
            for back in files {
                assert!(images.join("general").join(format!("{back}.png")).is_file());
            }
            let name = row["Name"].clone();
            assert!(
                cards.insert(name.clone(), row).is_none(),
                "{name} is one card"
            );
        }
        let info = std::fs::read_to_string(plugin.join("plugininfo.txt")).unwrap();
        assert_eq!(blocks(&info, "plugin").len(), 1);
        let game_zones: Vec<&str> = blocks(&info, "gamezone")
            .into_iter()
            .map(|z| blocks(z, "label")[0])
            .collect();
        let mut deck_zones = Vec::new();
        for zone in blocks(&info, "deckzone") {
            assert!(game_zones.contains(&blocks(zone, "gamezonetoloadto")[0]));
            deck_zones.push(blocks(zone, "label")[0].to_owned());
        }
        assert!(plugin.join("cardback.png").is_file(), "the default back");
        Lackey {
            plugin: plugin.to_path_buf(),
            header,
            cards,
            deck_zones,
        }
    }

    /// Checks the deck: its superzones are deck zones, each card a name
    /// and set of the card data; returns its total of cards.
    fn deck(&self, stem: &str) -> u64 {
        let dek = self.plugin.join("decks").join(format!("{stem}.dek"));
        for zone in values(&dek, "/deck/superzone/@name") {
            assert!(
                self.deck_zones.contains(&zone),
                "{stem}: {zone} is a deck zone"
            );
        }
        let names = values(&dek, "//superzone/card/name");
        let sets = values(&dek, "//superzone/card/set");
        for (name, set) in names.iter().zip(&sets) {
            let row = self
                .cards
                .get(name)
                .unwrap_or_else(|| panic!("{stem}: {name:?} is a card"));
            assert_eq!(&row["Set"], set);
        }
        names.len() as u64
    }
}

#[test]
fn every_shipped_game_exports_a_lackey_plugin_lackey_reads() {
    let ws = exported("lackey");
    for game in GAMES {
        let dir = ws.path().join(format!("build/{game}/lackey/{game}"));
        let lackey = Lackey::read(&dir.join(game));
        let pool = crate::faces::cards(game);
        assert_eq!(lackey.cards.len(), pool.len(), "{game}: every card");
        assert!(
            lackey.header.len() > 4,
            "{game}: the schema's fields as columns"
        );
        let pngs = ws.path().join(format!("build/{game}/png/{game}"));
        for (id, card) in &pool {
            let name = card["name"].as_str().unwrap();
            let row = lackey
                .cards
                .get(name)
                .or_else(|| lackey.cards.get(&format!("{name} ({id})")))
                .unwrap_or_else(|| panic!("{game}/{id}"));
            let face = row["ImageFile"].split(',').next().unwrap();
            let face = Image::read(
                &dir.join(game)
                    .join(format!("sets/setimages/{game}/{face}.png")),
            )
            .unwrap();
            let png = Image::read(&pngs.join(format!("{id}.png"))).unwrap();
            assert_eq!((face.width, face.height), (png.width, png.height));
        }
        for (stem, total) in deck_totals(&ws, game) {
            assert_eq!(lackey.deck(&stem), total, "{game}/{stem}");
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            readme.contains(&format!("plugins/{game}/")) && readme.contains("Shuffle"),
            "{readme}"
        );
    }
}

#[test]
fn lackey_lang_exports_the_game_s_names_in_that_language() {
    let ws = crate::export_lang::duelo();
    ws.run(["export", "lackey", "--lang", "en", "--dpi", "30"])
        .succeeds();
    let lackey = Lackey::read(&ws.path().join("build/duelo/lackey/duelo.en/duelo"));
    let names: Vec<&String> = lackey.cards.keys().collect();
    assert_eq!(names, ["Broken Shield", "Flaming Sword"]);
    assert_eq!(lackey.cards["Flaming Sword"]["Type"], "Strike");
}
