//! The schema of a deck file of a game: `game`, `name`, `player`, a
//! declared `format`, and a table per
//! zone whose keys are the ids of the cards the zone takes. It is
//! written as text, never held as a JSON tree: serde's pretty printer
//! writes everything but the zones' card lines, which are written
//! straight into the text where each zone's (empty) table of them is, a
//! line per card.
//!
//! A zone's lines are the cards' in pool order, so each card file's lie
//! together: its *segment* of the zone. The text is built as pieces, new
//! text or a range of the previous file (see [`Previous`]), so that after
//! one card's edit only that card file's segments are written anew and
//! the rest is copied from the file the last check wrote.

use std::collections::HashMap;
use std::ops::Range;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use super::draft7::no_such;
use super::{DRAFT7, key_comment};
use crate::config::Manifest;

/// The deck-file schema of a game: `game`, `name`, and a table per zone
/// whose keys are the ids of the cards the zone accepts. It is written as
/// text ([`DeckSchema::text`], [`DeckSchema::build`]): one line per card,
/// and a JSON tree of 20,000 of them would be the largest thing a check
/// holds.
pub(super) struct DeckSchema<'a> {
    pub(super) manifest: &'a Manifest,
    pub(super) cards: &'a [(&'a str, &'a str, &'a str)],
    /// The cards' card files, in order: where each one's cards end in
    /// `cards`, and the digest of its cards ([`super::Inputs`]).
    pub(super) files: &'a [(usize, u64)],
    pub(super) key: &'a str,
}

/// Where a zone's table of card lines is in the schema as serde writes it
/// (empty): at the zone's depth, on a line of its own. A string never
/// holds a line break, so only a zone's table is written so.
const SLOT: &str = "\n      \"properties\": {}";

/// A card file's lines in one zone: the digest of its cards and where the
/// lines lie in the schema's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) struct Segment {
    pub(super) digest: u64,
    pub(super) start: u64,
    pub(super) end: u64,
}

/// A piece of the schema's text: new text, or a range of the previous
/// file's bytes that the new text repeats.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Piece {
    Text(String),
    Old(Range<usize>),
}

/// Where each card file's lines lie in the previous deck schema file, per
/// zone, by the digest of its cards (the caller vouches for the file).
pub(super) type Previous = [HashMap<u64, Range<usize>>];

/// The schema's text as pieces ([`DeckSchema::build`]), its length, and
/// its segments per zone.
#[derive(Debug, Default)]
pub(super) struct Built {
    pub(super) pieces: Vec<Piece>,
    pub(super) len: usize,
    pub(super) zones: Vec<Vec<Segment>>,
}

impl Built {
    fn text(&mut self, s: &str) {
        self.len += s.len();
        if let Some(Piece::Text(t)) = self.pieces.last_mut() {
            t.push_str(s);
        } else {
            self.pieces.push(Piece::Text(s.to_owned()));
        }
    }

    /// The new text being written, to write into.
    fn open(&mut self) -> &mut String {
        if !matches!(self.pieces.last(), Some(Piece::Text(_))) {
            self.pieces.push(Piece::Text(String::new()));
        }
        match self.pieces.last_mut() {
            Some(Piece::Text(t)) => t,
            _ => unreachable!("a text piece was just pushed"),
        }
    }

    /// Repeats `range` of the previous file: joined to the range before
    /// it when only the separator of two lines lies between them there
    /// (two unchanged card files in a row are one range).
    fn old(&mut self, range: Range<usize>) {
        self.len += range.len();
        let n = self.pieces.len();
        if let [.., Piece::Old(before), Piece::Text(sep)] = &mut self.pieces[..]
            && sep == ",\n"
            && before.end + 2 == range.start
        {
            before.end = range.end;
            self.pieces.truncate(n - 1);
            return;
        }
        self.pieces.push(Piece::Old(range));
    }
}

impl DeckSchema<'_> {
    /// The schema's text, as serde's pretty printer would write it with
    /// every card line in its zone, each card's object on its line (the
    /// unit tests compare the lines).
    pub(super) fn text(&self) -> String {
        let built = self.build(None);
        let mut out = String::with_capacity(built.len);
        for piece in built.pieces {
            if let Piece::Text(t) = piece {
                out.push_str(&t);
            }
        }
        out
    }

    /// The schema's text as pieces: each card file's segment of a zone
    /// taken from `previous` where it holds the segment of the same
    /// cards, else written anew.
    pub(super) fn build(&self, previous: Option<&Previous>) -> Built {
        let skeleton = serde_json::to_string_pretty(self).expect("the schema serializes") + "\n";
        let max = crate::deck::MAX_COUNT.to_string();
        let mut out = Built::default();
        out.open().reserve(if previous.is_some() {
            skeleton.len()
        } else {
            skeleton.len() + self.cards.len() * 256
        });
        let mut rest = skeleton.as_str();
        for (z, zone) in self.manifest.zones.values().enumerate() {
            let Some(at) = rest.find(SLOT) else { break };
            // Up to the table's `{}`, then its lines.
            out.text(&rest[..at + SLOT.len() - 2]);
            let old = previous.and_then(|p| p.get(z));
            self.lines(&zone.kinds, &max, old, &mut out);
            rest = &rest[at + SLOT.len()..];
        }
        out.text(rest);
        out
    }

    /// A zone's table of lines, one per card of a kind in `kinds`, into
    /// `out`: each card file's from `old` (the previous file's segments of
    /// the zone) when it holds them.
    fn lines(
        &self,
        kinds: &[String],
        max: &str,
        old: Option<&HashMap<u64, Range<usize>>>,
        out: &mut Built,
    ) {
        let m = self.manifest;
        let takes = |kind: &str| kinds.iter().any(|k| k == kind);
        let mut segments = Vec::new();
        let mut from = 0;
        for &(end, digest) in self.files {
            let cards = &self.cards[from..end];
            from = end;
            if !cards.iter().any(|c| takes(c.1)) {
                continue;
            }
            out.text(if segments.is_empty() { "{\n" } else { ",\n" });
            let start = out.len;
            if let Some(range) = old.and_then(|o| o.get(&digest)) {
                out.old(range.clone());
            } else {
                let text = out.open();
                let before = text.len();
                let mut first = true;
                for &(id, kind, name) in cards.iter().filter(|c| takes(c.1)) {
                    if !first {
                        text.push_str(",\n");
                    }
                    first = false;
                    let kind_name = m.kind_name(kind);
                    deck_line(text, (id, name, kind_name), max);
                }
                out.len += text.len() - before;
            }
            segments.push(Segment {
                digest,
                start: start as u64,
                end: out.len as u64,
            });
        }
        out.text(if segments.is_empty() {
            "{}"
        } else {
            "\n      }"
        });
        out.zones.push(segments);
    }
}

impl Serialize for DeckSchema<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.manifest;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("$schema", DRAFT7)?;
        map.serialize_entry("$comment", &key_comment(self.key))?;
        map.serialize_entry("title", &format!("{} deck", m.name))?;
        map.serialize_entry(
            "description",
            &format!(
                "A deck of {}: its game, its name, and a table per zone.",
                m.name
            ),
        )?;
        map.serialize_entry("type", "object")?;
        map.serialize_entry("required", &["game", "name"])?;
        map.serialize_entry("properties", &DeckProperties(self))?;
        map.serialize_entry(
            "additionalProperties",
            &no_such("a deck holds `game`, `name`, optionally `player` (and `format` where the game declares formats), and the game's zones"),
        )?;
        map.end()
    }
}

/// The properties of a deck file: `game`, `name`, and one per zone.
struct DeckProperties<'a>(&'a DeckSchema<'a>);

impl Serialize for DeckProperties<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0.manifest;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(
            "game",
            &json!({
                "title": "Game",
                "description": format!("The game this deck is for: `{}` ({}).", m.id, m.name),
                "const": m.id,
            }),
        )?;
        map.serialize_entry(
            "name",
            &json!({ "title": "Name", "description": "The deck's name.", "type": "string" }),
        )?;
        map.serialize_entry(
            "player",
            &json!({ "title": "Player", "description": "Who plays the deck (organisers' tables, printed decklists); no rule reads it.", "type": "string" }),
        )?;
        if !m.formats.is_empty() {
            let described: Vec<String> = m
                .formats
                .iter()
                .map(|(id, f)| format!("`{id}` ({})", f.name))
                .collect();
            map.serialize_entry(
                "format",
                &json!({
                    "title": "Format",
                    "description": format!("The format the deck is judged by, instead of the game's own rules: {}.", described.join(", ")),
                    "enum": m.formats.keys().collect::<Vec<_>>(),
                }),
            )?;
        }
        for (zone_id, zone) in &m.zones {
            let kinds = zone
                .kinds
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            map.serialize_entry(
                zone_id,
                &ZoneSchema {
                    title: &zone.name,
                    description: format!(
                        "Zone `{zone_id}`: card id = copies, for cards of kind {kinds}."
                    ),
                    kind: "object",
                    // Filled by [`DeckSchema::text`].
                    properties: serde_json::Map::new(),
                    // Not `propertyNames`: taplo reports that at the table's
                    // header, and `additionalProperties` at the unknown id.
                    additional_properties: no_such(&format!(
                        "not a card of a kind the zone `{zone_id}` takes"
                    )),
                },
            )?;
        }
        map.end()
    }
}

/// One zone of a deck file: a table of card id = copies.
#[derive(serde::Serialize)]
struct ZoneSchema<'a> {
    title: &'a str,
    description: String,
    #[serde(rename = "type")]
    kind: &'static str,
    properties: serde_json::Map<String, Value>,
    #[serde(rename = "additionalProperties")]
    additional_properties: Value,
}

/// The indentation of a zone's card ids in the deck schema (the root's
/// `properties`, the zone, its `properties`).
const ID_INDENT: &str = "        ";

/// Writes card `id`'s deck line (its name and its kind's name; `max`, the
/// most copies a line takes) into `out`: one line per card, not serde's
/// seven — the schema lists every card, and a smaller file is quicker to
/// write, to copy when patched, and for the editor to read.
fn deck_line(out: &mut String, (id, name, kind_name): (&str, &str, &str), max: &str) {
    out.push_str(ID_INDENT);
    escaped(out, id);
    out.push_str(": {\"title\": ");
    escaped(out, name);
    out.push_str(", \"description\": \"");
    escaped_inner(out, name);
    out.push_str(" (");
    escaped_inner(out, kind_name);
    out.push_str("): how many copies the deck holds.\", \"type\": \"integer\", \"minimum\": 1, \"maximum\": ");
    out.push_str(max);
    out.push('}');
}

/// `s` as a JSON string, quoted, into `out`.
fn escaped(out: &mut String, s: &str) {
    out.push('"');
    escaped_inner(out, s);
    out.push('"');
}

/// `s` as the inside of a JSON string, escaped as `serde_json` escapes
/// it (quote, backslash and control characters only), into `out`.
fn escaped_inner(out: &mut String, s: &str) {
    if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push_str(s);
        return;
    }
    let quoted = serde_json::to_string(s).expect("a string serializes");
    out.push_str(&quoted[1..quoted.len() - 1]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One deck line's schema: a card's copies.
    #[derive(serde::Serialize)]
    struct DeckLine<'a> {
        title: &'a str,
        description: String,
        #[serde(rename = "type")]
        kind: &'static str,
        minimum: i64,
        maximum: i64,
    }

    /// serde's pretty printer, but each object at depth 5 or deeper (a
    /// card's, in a zone's table) on one line.
    struct CardLines {
        depth: usize,
        pretty: serde_json::ser::PrettyFormatter<'static>,
    }

    impl serde_json::ser::Formatter for CardLines {
        fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.depth += 1;
            if self.depth >= 5 {
                w.write_all(b"{")
            } else {
                self.pretty.begin_object(w)
            }
        }
        fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.depth -= 1;
            if self.depth >= 4 {
                w.write_all(b"}")
            } else {
                self.pretty.end_object(w)
            }
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            match self.depth {
                5.. if first => Ok(()),
                5.. => w.write_all(b", "),
                _ => self.pretty.begin_object_key(w, first),
            }
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            self.pretty.begin_object_value(w)
        }
        fn end_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            if self.depth >= 5 {
                Ok(())
            } else {
                self.pretty.end_object_value(w)
            }
        }
        fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.pretty.begin_array(w)
        }
        fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.pretty.end_array(w)
        }
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            self.pretty.begin_array_value(w, first)
        }
        fn end_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            self.pretty.end_array_value(w)
        }
    }

    /// `value` as [`CardLines`] writes it.
    fn by_serde_lines(value: &Value) -> String {
        let formatter = CardLines {
            depth: 0,
            pretty: serde_json::ser::PrettyFormatter::new(),
        };
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
        value.serialize(&mut ser).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A zone's lines as serde writes them at their depth ([`CardLines`]).
    fn by_serde(lines: &[(&str, &str, &str)]) -> String {
        let mut zone = serde_json::Map::new();
        for &(id, name, kind_name) in lines {
            let line = DeckLine {
                title: name,
                description: format!("{name} ({kind_name}): how many copies the deck holds."),
                kind: "integer",
                minimum: 1,
                maximum: crate::deck::MAX_COUNT,
            };
            zone.insert(id.into(), serde_json::to_value(line).unwrap());
        }
        let doc = json!({ "properties": { "zone": { "properties": zone } } });
        let text = by_serde_lines(&doc);
        let from = text
            .find("\"properties\": {\n        ")
            .unwrap_or_else(|| text.find("\"properties\": {}").unwrap())
            + "\"properties\": ".len();
        let to = text.rfind("\n    }\n  }\n}").unwrap();
        text[from..to].to_owned()
    }

    fn by_hand(lines: &[(&str, &str, &str)]) -> String {
        let max = crate::deck::MAX_COUNT.to_string();
        let manifest: Manifest = toml::from_str(
            "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.k]\nname = \"K\"\n",
        )
        .unwrap();
        let cards: Vec<_> = lines.iter().map(|&(id, name, _)| (id, "k", name)).collect();
        let schema = DeckSchema {
            manifest: &manifest,
            cards: &cards,
            files: &[(cards.len(), 0)],
            key: "",
        };
        let mut built = Built::default();
        schema.lines(&["k".into()], &max, None, &mut built);
        match &built.pieces[..] {
            [Piece::Text(text)] => text.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deck_lines_are_written_as_serde_writes_them() {
        let lines = [
            ("golpe", "Golpe Certeiro", "K"),
            ("q\"uote", "Say \"hi\" \\ back \u{1}", "K"),
            ("tab", "a\tb\nc\u{7f}\u{2028}🂡", "K"),
        ];
        for n in 0..=lines.len() {
            assert_eq!(by_hand(&lines[..n]), by_serde(&lines[..n]), "{n} lines");
        }
    }

    #[test]
    fn the_whole_schema_is_what_serde_writes_of_it() {
        let manifest: Manifest = toml::from_str(concat!(
            "id = \"g\"\nname = \"G \\\"properties\\\": {}\"\nlanguage = \"en\"\n",
            "[kinds.a]\nname = \"A\"\n[kinds.b]\nname = \"B\"\n",
            "[zones.main]\nname = \"Main\"\nkinds = [\"a\"]\n",
            "[zones.empty]\nname = \"Empty\"\nkinds = [\"c\"]\n",
            "[zones.side]\nname = \"Side\"\nkinds = [\"a\", \"b\"]\n",
        ))
        .unwrap();
        let cards = [("x", "a", "X \"1\""), ("y", "b", "Y"), ("z", "a", "Z")];
        let text = DeckSchema {
            manifest: &manifest,
            cards: &cards,
            files: &[(1, 1), (3, 2)],
            key: "k",
        }
        .text();
        let tree: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(by_serde_lines(&tree) + "\n", text);
        assert!(
            text.contains("\n        \"y\": {\"title\": \"Y\", \"description\": "),
            "a line per card:\n{text}"
        );
        let ids = |zone: &str| -> Vec<String> {
            tree["properties"][zone]["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        assert_eq!(ids("main"), ["x", "z"]);
        assert!(ids("empty").is_empty());
        assert_eq!(ids("side"), ["x", "y", "z"]);
        assert_eq!(
            tree["properties"]["main"]["properties"]["x"]["title"],
            "X \"1\""
        );
    }

    /// The text of `built`, its old pieces taken from `old`.
    fn materialize(built: &Built, old: &str) -> String {
        built
            .pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.as_str(),
                Piece::Old(r) => &old[r.clone()],
            })
            .collect()
    }

    fn two_zones() -> Manifest {
        toml::from_str(concat!(
            "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n",
            "[kinds.a]\nname = \"A\"\n[kinds.b]\nname = \"B\"\n",
            "[zones.main]\nname = \"Main\"\nkinds = [\"a\"]\n",
            "[zones.side]\nname = \"Side\"\nkinds = [\"a\", \"b\"]\n",
        ))
        .unwrap()
    }

    /// Cards (id, kind, name) and their card files (see [`DeckSchema`]).
    type Cards<'a> = (&'a [(&'a str, &'a str, &'a str)], &'a [(usize, u64)]);

    /// The schema of `cards` in `files`, built from `previous`.
    fn built(manifest: &Manifest, (cards, files): Cards<'_>, previous: Option<&Previous>) -> Built {
        DeckSchema {
            manifest,
            cards,
            files,
            key: "k",
        }
        .build(previous)
    }

    /// Where `built`'s segments lie, as the next build takes them.
    fn by_digest(built: &Built) -> Vec<HashMap<u64, Range<usize>>> {
        let range = |s: &Segment| s.start as usize..s.end as usize;
        let zone = |z: &Vec<Segment>| z.iter().map(|s| (s.digest, range(s))).collect();
        built.zones.iter().map(zone).collect()
    }

    fn old_pieces(built: &Built) -> usize {
        let old = built.pieces.iter().filter(|p| matches!(p, Piece::Old(_)));
        old.count()
    }

    /// Four card files: 1 (x, y), 2 (z), 3 (w) and 4 (u, v).
    const BEFORE: [(&str, &str, &str); 6] = [
        ("x", "a", "X"),
        ("y", "b", "Y"),
        ("z", "a", "Z"),
        ("w", "b", "W"),
        ("u", "a", "U"),
        ("v", "a", "V"),
    ];
    const BEFORE_FILES: [(usize, u64); 4] = [(2, 1), (3, 2), (4, 3), (6, 4)];

    #[test]
    fn a_schema_built_from_the_last_one_is_the_one_written_whole() {
        let m = two_zones();
        let old = built(&m, (&BEFORE, &BEFORE_FILES), None);
        let old_text = materialize(&old, "");
        // File 2 renamed its card, file 3 is gone, file 5 came.
        let after = [
            ("x", "a", "X"),
            ("y", "b", "Y"),
            ("z", "a", "Z \"2\""),
            ("u", "a", "U"),
            ("v", "a", "V"),
            ("t", "b", "T"),
        ];
        let files = [(2, 1), (3, 22), (5, 4), (6, 5)];
        let whole = built(&m, (&after, &files), None);
        let patched = built(&m, (&after, &files), Some(&by_digest(&old)));
        let text = materialize(&whole, "");
        assert_eq!(materialize(&patched, &old_text), text, "the same text");
        assert_eq!(patched.zones, whole.zones, "the same segments");
        assert_eq!(patched.len, text.len());
        // Files 1 and 4 came from the old text: one piece each per zone.
        assert_eq!(old_pieces(&patched), 4, "{:?}", patched.pieces);
    }

    #[test]
    fn unchanged_card_files_in_a_row_are_one_piece_of_the_last_text() {
        let m = two_zones();
        let old = built(&m, (&BEFORE, &BEFORE_FILES), None);
        let old_text = materialize(&old, "");
        let again = built(&m, (&BEFORE, &BEFORE_FILES), Some(&by_digest(&old)));
        assert_eq!(materialize(&again, &old_text), old_text);
        assert_eq!(old_pieces(&again), 2, "one per zone: {:?}", again.pieces);
    }
}
