//! What the exports to free card-game clients (Card Game Simulator,
//! Cockatrice, OCTGN and `LackeyCCG`) share, so that all map a game the
//! same way ([docs/clients.md](../../docs/clients.md)):
//!
//! - [`render_into`]: the cards rendered and the export's folder declared;
//! - [`pictures`]: every card's face and every distinct back as one PNG,
//!   photographed as the PNG export does and named by a hash of its bytes
//!   ([`super::images::hashed_name`]), so a client that caches pictures by
//!   URL never shows a stale one; [`pictures_named`] for a client that
//!   names them its own way;
//! - [`properties`]: the game's fields as the clients' card properties (the
//!   default face's fields of every kind, in kind then schema order, art
//!   and focal points left out: the picture shows them), and [`Property::text`]
//!   each value as plain text (markup dropped, labels for enum values,
//!   names for card references);
//! - [`decks`]: the decks an export carries (a deck file's, or a game's
//!   example decks), zone by zone, and [`main_zone`], the zone a client's
//!   main deck stands for; [`table_zones`], the zones of a client that
//!   names its piles;
//! - names a client knows cards and properties by ([`distinct_names`],
//!   [`property_names`]) and XML that keeps every character a name can
//!   hold ([`xml_safe`], [`xml_attr`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::cards::{ImageExport, Side, pages, photograph, pixels, unit};
use super::images::hashed_name;
use super::sheets::icons::tokens;
use super::sheets::{CardSet, RenderedCard};
use super::{EmitError, Stage};
use crate::deck::DeckFile;
use crate::diag::Diagnostics;
use crate::diag::SourceMap;
use crate::game::Game;
use crate::load::Workspace;
use crate::markup::{Node, parse_in};
use crate::validate::display::Role;
use crate::validate::{PathStep, RawCard};

/// Renders the cards of `export` and declares the export's folder,
/// `<game>/<format>/<stem>/`, in `stage`: the cards and the folder, or
/// `None` when a card could not be rendered (its diagnostics said why).
///
/// # Errors
/// When the browser fails or the stage cannot be written.
pub fn render_into(
    export: &ImageExport<'_>,
    format: &str,
    (game, ws): (&Game, &mut Workspace),
    stage: &mut Stage,
    diags: &mut Diagnostics,
) -> Result<Option<(CardSet, PathBuf)>, EmitError> {
    let Some(set) = export.render(game, ws, stage, diags)? else {
        return Ok(None);
    };
    let dir = unit(game, format).join(&export.target.stem);
    stage.folder(&dir)?;
    Ok(Some((set, dir)))
}

/// The picture files of a card set, written into the export's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pictures {
    /// Each card's face, in the set's order: its file name.
    pub faces: Vec<String>,
    /// Each distinct back (by its HTML and pixel size): its file name.
    pub backs: Vec<String>,
    /// Each card's back: an index into `backs`.
    pub back_of: Vec<usize>,
}

/// Photographs every face of `set` and (`with_backs`) each distinct back
/// once, at the export's resolution, and writes them into `dir` of
/// `stage`, faces named `<id>-<hash>.png`, backs `back-<N>-<hash>.png`.
///
/// # Errors
/// When the browser fails or the stage cannot be written.
pub fn pictures(
    set: &CardSet,
    export: &ImageExport<'_>,
    stage: &mut Stage,
    dir: &Path,
    with_backs: bool,
) -> Result<Pictures, EmitError> {
    pictures_named(set, export, stage, with_backs, &mut |picture, bytes| {
        let stem = match picture {
            Picture::Face(i) => set.cards[i].id.clone(),
            Picture::Back(b) => format!("back-{}", b + 1),
        };
        dir.join(hashed_name(&stem, bytes))
    })
}

/// Which picture of a card set a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    /// The face of the set's card of this index.
    Face(usize),
    /// The distinct back of this index.
    Back(usize),
}

/// [`pictures`], each picture written where `place` says (a path relative
/// to the output folder, given the picture and its PNG bytes): for a
/// client that names pictures its own way. The names returned are the
/// paths' file names.
///
/// # Errors
/// When the browser fails or the stage cannot be written.
pub fn pictures_named(
    set: &CardSet,
    export: &ImageExport<'_>,
    stage: &mut Stage,
    with_backs: bool,
    place: &mut dyn FnMut(Picture, &[u8]) -> PathBuf,
) -> Result<Pictures, EmitError> {
    // The cells to photograph: every face, then each distinct back.
    let mut cells: Vec<(&RenderedCard, Side, (u32, u32))> = Vec::new();
    let mut back_cells: Vec<usize> = Vec::new();
    let mut back_of = Vec::with_capacity(set.cards.len());
    for card in &set.cards {
        let px = pixels(card.size, &export.options);
        cells.push((card, Side::Face, px));
    }
    for card in set.cards.iter().filter(|_| with_backs) {
        let px = pixels(card.size, &export.options);
        let same = |&i: &usize| {
            let (c, _, p): (&RenderedCard, Side, (u32, u32)) = cells[i];
            c.back == card.back && p == px
        };
        if let Some(b) = back_cells.iter().position(same) {
            back_of.push(b);
        } else {
            back_cells.push(cells.len());
            back_of.push(back_cells.len() - 1);
            cells.push((card, Side::Back, px));
        }
    }
    let (grids, place_of) = pages(&cells);
    let images = photograph(set, &grids, &export.options, &export.chromium, "cards")?;
    let mut names = Vec::with_capacity(cells.len());
    for (i, &(_, side, _)) in cells.iter().enumerate() {
        let (grid, cell) = place_of[i];
        let bytes = images.png(grid, cell).to_vec();
        let picture = match side {
            Side::Face => Picture::Face(i),
            Side::Back => Picture::Back(i - set.cards.len()),
        };
        let path = place(picture, &bytes);
        stage.write(&path, &bytes)?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        names.push(name);
    }
    let backs = names.split_off(set.cards.len());
    Ok(Pictures {
        faces: names,
        backs,
        back_of,
    })
}

/// How a property's values read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// Whole numbers, every one.
    Integer,
    /// `true` or `false`, every one.
    Boolean,
    /// A choice of one value with a printed label (`x-carta-labels`).
    Choice,
    /// Lists of plain values, joined with `, `.
    List,
    /// Anything else, as text.
    Text,
}

/// One card property of the game, as the clients show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// The field's key.
    pub key: String,
    /// Its title (the schema's `title`).
    pub title: String,
    /// How the default face prints it.
    pub role: Role,
    /// How its values read.
    pub shape: Shape,
    /// The printed labels of its values (`x-carta-labels`), by value.
    pub labels: BTreeMap<String, String>,
    /// Whether its strings are card references (`x-carta-ref`).
    pub reference: bool,
}

/// The card properties of `game` over `cards`: each top-level field of
/// the default face of each kind but art and focal points, first title
/// and role winning, its shape read from the values of `cards`.
pub fn properties(game: &Game, cards: &[&RawCard]) -> Vec<Property> {
    let mut out: Vec<Property> = Vec::new();
    let mut labels: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for kind in game.manifest.manifest.kind_ids() {
        let Some(schema) = game.schemas.kind(&kind) else {
            continue;
        };
        for field in game.schemas.face(schema) {
            if matches!(field.role, Role::Art | Role::Focus)
                || out.iter().any(|p| p.key == field.key)
            {
                continue;
            }
            out.push(Property {
                key: field.key.clone(),
                title: field.title.clone(),
                role: field.role,
                shape: Shape::Text,
                labels: BTreeMap::new(),
                reference: false,
            });
        }
        let marks = game.schemas.marks(schema);
        for pattern in &marks.refs {
            if let Some(p) =
                top_key(&pattern.path).and_then(|k| out.iter_mut().find(|p| p.key == *k))
            {
                p.reference = true;
            }
        }
        for pattern in &marks.labels {
            if let Some(key) = top_key(&pattern.path) {
                let map = labels.entry(key.clone()).or_default();
                for (value, label) in pattern.labels.iter() {
                    map.entry(value.clone()).or_insert_with(|| label.clone());
                }
            }
        }
    }
    let fields: Vec<_> = cards.iter().map(|c| c.all_fields()).collect();
    for p in &mut out {
        let values: Vec<&Value> = fields.iter().filter_map(|f| f.get(&p.key)).collect();
        p.shape = shape_of(&values);
        if let Some(map) = labels.remove(&p.key) {
            if values.iter().all(|v| is_scalar(v)) {
                p.shape = Shape::Choice;
            }
            p.labels = map;
        }
    }
    out
}

/// The field a path stands for when it is a top-level field or its items.
fn top_key(path: &[PathStep]) -> Option<&String> {
    match path {
        [PathStep::Key(k)] | [PathStep::Key(k), PathStep::AnyItem] => Some(k),
        _ => None,
    }
}

/// The shape every one of `values` has: whole numbers, booleans, lists
/// of plain values, or else text.
fn shape_of(values: &[&Value]) -> Shape {
    if values.is_empty() {
        Shape::Text
    } else if values.iter().all(|v| v.is_i64() || v.is_u64()) {
        Shape::Integer
    } else if values.iter().all(|v| v.is_boolean()) {
        Shape::Boolean
    } else if values
        .iter()
        .all(|v| v.as_array().is_some_and(|a| a.iter().all(is_scalar)))
    {
        Shape::List
    } else {
        Shape::Text
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

impl Property {
    /// `value` of this property as plain text: markup dropped (keywords by
    /// their names), choices by their labels, card references by the
    /// referenced card's name, lists joined with `, `, tables as
    /// `key: value; …`.
    pub fn text(&self, game: &Game, value: &Value) -> String {
        match value {
            Value::Array(items) => items
                .iter()
                .map(|v| self.text(game, v))
                .collect::<Vec<_>>()
                .join(", "),
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| format!("{k}: {}", self.text(game, v)))
                .collect::<Vec<_>>()
                .join("; "),
            Value::String(s) if self.reference => game
                .pool
                .get(s)
                .map_or_else(|| s.clone(), |c| c.name.clone()),
            Value::String(s) => self
                .labels
                .get(s)
                .cloned()
                .unwrap_or_else(|| plain(game, s)),
            Value::Null => String::new(),
            other => {
                let key = crate::validate::display::scalar_key(other).unwrap_or_default();
                self.labels.get(&key).cloned().unwrap_or(key)
            }
        }
    }
}

/// Card text without its markup: bold and italics as their text, keywords
/// by their printed names.
pub fn plain(game: &Game, text: &str) -> String {
    fn walk(game: &Game, nodes: &[Node], out: &mut String) {
        for node in nodes {
            match node {
                Node::Text(t) => out.push_str(t),
                Node::Bold(inner) | Node::Italic(inner) => walk(game, inner, out),
                Node::Keyword(k) => out.push_str(
                    game.manifest
                        .manifest
                        .keywords
                        .get(k)
                        .map_or(k.as_str(), |kw| kw.name.as_str()),
                ),
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    walk(game, &parse_in(&game.manifest.manifest, text), &mut out);
    with_icon_labels(game, &out)
}

/// `text` with each icon token of the game (`{AC}`, `{dice:yellow:2}`) as
/// its label in brackets, once per repeat: the clients show text, not
/// carta's icons. A token of no icon stays as written.
fn with_icon_labels(game: &Game, text: &str) -> String {
    let icons = &game.manifest.manifest.icons;
    let label = |name: &str| {
        icons
            .get(name)
            .map(|i| format!("[{}]", i.label.as_deref().unwrap_or(name)))
    };
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, token) in tokens(text) {
        let shown = label(token).or_else(|| {
            let (name, times) = token.rsplit_once(':')?;
            let times: usize = times.parse().ok().filter(|n| (1..=99).contains(n))?;
            Some(vec![label(name)?; times].join(" "))
        });
        if let Some(shown) = shown {
            out.push_str(&text[at..range.start]);
            out.push_str(&shown);
            at = range.end;
        }
    }
    out.push_str(&text[at..]);
    out
}

/// A deck an export carries, zone by zone.
#[derive(Debug, Clone)]
pub struct Deck<'g> {
    /// Its display name.
    pub name: String,
    /// Its file stem, which the export's deck file is named by.
    pub stem: String,
    /// Its zones in the deck file's order: the zone id and its cards with
    /// their counts, in the file's order.
    pub zones: Vec<(String, Vec<(&'g RawCard, u32)>)>,
}

/// The decks an export of `deck` (when the target is a deck file) or of
/// the whole game (its example decks) carries. A line naming no card of
/// the pool is left out (a checked deck has none).
pub fn decks<'g>(
    game: &'g Game,
    deck: Option<&DeckFile>,
    stem: &str,
    sources: &SourceMap,
) -> Vec<Deck<'g>> {
    let one = |d: &DeckFile, stem: String| Deck {
        name: d.name.clone(),
        stem,
        zones: d
            .zones
            .iter()
            .map(|z| {
                let cards = z
                    .entries
                    .iter()
                    .filter_map(|e| Some((game.pool.get(&e.id)?, e.count)))
                    .collect();
                (z.id.clone(), cards)
            })
            .collect(),
    };
    match deck {
        Some(d) => vec![one(d, stem.to_owned())],
        None => game
            .decks
            .iter()
            .map(|d| {
                let name = &sources.get(d.file).name;
                let stem = Path::new(name)
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or("deck");
                one(d, stem.to_owned())
            })
            .collect(),
    }
}

/// The zone a client's main deck stands for: the manifest's first zone,
/// or, in a game that declares none, the deck's first.
pub fn main_zone<'d>(game: &'d Game, deck: &'d Deck<'_>) -> Option<&'d str> {
    game.manifest
        .manifest
        .zones
        .keys()
        .next()
        .or_else(|| deck.zones.first().map(|(z, _)| z))
        .map(String::as_str)
}

/// A zone as a table shows it: its id and its name there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableZone {
    /// The zone's id (empty for the one zone of a game that has none).
    pub id: String,
    /// Its name at the table, told apart from the others.
    pub name: String,
}

impl TableZone {
    /// The names of `zones` for a README: `*A*, *B*`.
    pub fn list(zones: &[TableZone]) -> String {
        zones
            .iter()
            .map(|z| format!("*{}*", z.name))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The zones of a table that names its piles: the manifest's, then any
/// other zone one of `decks` uses, each named by its display name as
/// `clean` makes it fit the table, told apart from the others and from
/// `reserved` (the table's own piles); in a game of neither, one `Deck`.
pub fn table_zones(
    game: &Game,
    decks: &[Deck<'_>],
    clean: &dyn Fn(&str) -> String,
    reserved: &[&str],
) -> Vec<TableZone> {
    let mut out: Vec<TableZone> = Vec::new();
    let ids = game
        .manifest
        .manifest
        .zones
        .keys()
        .chain(decks.iter().flat_map(|d| d.zones.iter().map(|(z, _)| z)));
    for id in ids {
        if out.iter().any(|z| z.id == *id) {
            continue;
        }
        let taken: Vec<&str> = out.iter().map(|z| z.name.as_str()).collect();
        let name = unique_name(&clean(zone_name(game, id)), &taken, reserved);
        out.push(TableZone {
            id: id.clone(),
            name,
        });
    }
    if out.is_empty() {
        out.push(TableZone {
            id: String::new(),
            name: "Deck".into(),
        });
    }
    out
}

/// The zone's display name.
pub fn zone_name<'g>(game: &'g Game, zone: &'g str) -> &'g str {
    game.manifest
        .manifest
        .zones
        .get(zone)
        .map_or(zone, |z| z.name.as_str())
}

/// `name`, or `name` with `_` appended until no name of `taken` is it:
/// a key of carta's own beside the game's field keys.
pub fn free_name(name: &str, taken: &[&str]) -> String {
    let mut out = name.to_owned();
    while taken.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// Each card's name by id, for a client that knows cards by name: its
/// name, or `Name (id)` when another card of the set has the same name.
pub fn distinct_names(set: &CardSet) -> BTreeMap<String, String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for card in &set.cards {
        *count.entry(card.name.as_str()).or_default() += 1;
    }
    set.cards
        .iter()
        .map(|c| {
            let name = if count[c.name.as_str()] > 1 {
                format!("{} ({})", c.name, c.id)
            } else {
                c.name.clone()
            };
            (c.id.clone(), name)
        })
        .collect()
}

/// `name`, or `name (2)`, `name (3)`, … until it is none of `taken` nor
/// of `reserved`, compared ignoring case (as OCTGN and `LackeyCCG` compare
/// names); `_` for a blank name.
pub fn unique_name(name: &str, taken: &[&str], reserved: &[&str]) -> String {
    let name = if name.trim().is_empty() { "_" } else { name };
    let clash = |n: &str| {
        taken
            .iter()
            .chain(reserved)
            .any(|t| t.to_lowercase() == n.to_lowercase())
    };
    let mut out = name.to_owned();
    let mut k = 2;
    while clash(&out) {
        out = format!("{name} ({k})");
        k += 1;
    }
    out
}

/// Each property's name in a client that names properties by their
/// titles, by key: its title, told apart from the others and from the
/// client's own names, `reserved`.
pub fn property_names(props: &[Property], reserved: &[&str]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut taken: Vec<String> = Vec::new();
    for p in props {
        let refs: Vec<&str> = taken.iter().map(String::as_str).collect();
        let name = unique_name(&p.title, &refs, reserved);
        taken.push(name.clone());
        out.insert(p.key.clone(), name);
    }
    out
}

/// `text` without the characters XML 1.0 cannot hold (controls but tab,
/// line feed and carriage return; U+FFFE, U+FFFF), each replaced by U+FFFD.
pub fn xml_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r') && (c as u32) < 0x20)
            || matches!(c, '\u{FFFE}' | '\u{FFFF}')
    };
    if text.chars().any(bad) {
        text.chars()
            .map(|c| if bad(c) { '\u{FFFD}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// The document `w` wrote, ended with a line break.
pub fn xml_end(w: quick_xml::Writer<Vec<u8>>) -> Vec<u8> {
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    bytes
}

/// An XML attribute whose value keeps every character it can: `&`, `<`,
/// `>`, quotes, and tab, line feed and carriage return (which a parser
/// would otherwise read as spaces) as references; what XML cannot hold as
/// [`xml_safe`] says.
pub fn xml_attr<'a>(key: &'a str, value: &str) -> quick_xml::events::attributes::Attribute<'a> {
    let mut out = String::with_capacity(value.len());
    for c in xml_safe(value).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    quick_xml::events::attributes::Attribute {
        key: quick_xml::name::QName(key),
        value: out.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_safe_replaces_what_xml_cannot_hold() {
        assert_eq!(xml_safe("a\tb\nc"), "a\tb\nc");
        assert_eq!(xml_safe("a\u{1}b\u{FFFF}"), "a\u{FFFD}b\u{FFFD}");
    }

    #[test]
    fn attributes_keep_tabs_and_line_breaks() {
        let a = xml_attr("name", "a\t\"b\"\n<&>'");
        assert_eq!(
            a.value.as_ref(),
            "a&#9;&quot;b&quot;&#10;&lt;&amp;&gt;&apos;"
        );
    }

    #[test]
    fn names_step_aside_ignoring_case() {
        assert_eq!(unique_name("Type", &[], &["Name", "Type"]), "Type (2)");
        assert_eq!(unique_name("custo", &["Custo"], &[]), "custo (2)");
        assert_eq!(unique_name(" ", &[], &[]), "_");
    }

    #[test]
    fn own_keys_step_aside_for_the_game_s_fields() {
        assert_eq!(free_name("image", &["cost"]), "image");
        assert_eq!(free_name("image", &["image", "image_"]), "image__");
    }
}
