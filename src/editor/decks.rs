//! The schema of a deck file of a game: `game`, `name`, `player`, a
//! declared `format`, and a table per
//! zone whose keys are the ids of the cards the zone takes. It is
//! written as text, never held as a JSON tree: serde's pretty printer
//! writes everything but the zones' card lines, which are written
//! straight into the text where each zone's (empty) table of them is.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use super::draft7::no_such;
use super::{DRAFT7, key_comment};
use crate::config::Manifest;

/// The deck-file schema of a game: `game`, `name`, and a table per zone
/// whose keys are the ids of the cards the zone accepts. It is written as
/// text ([`DeckSchema::text`]): one line per card, and a JSON tree of
/// 20,000 of them would be the largest thing a check holds.
pub(super) struct DeckSchema<'a> {
    pub(super) manifest: &'a Manifest,
    pub(super) cards: &'a [(&'a str, &'a str, &'a str)],
    pub(super) key: &'a str,
}

/// Where a zone's table of card lines is in the schema as serde writes it
/// (empty): at the zone's depth, on a line of its own. A string never
/// holds a line break, so only a zone's table is written so.
const SLOT: &str = "\n      \"properties\": {}";

impl DeckSchema<'_> {
    /// The schema's text, as serde's pretty printer would write it with
    /// every card line in its zone (the unit tests compare the lines).
    pub(super) fn text(&self) -> String {
        let skeleton = serde_json::to_string_pretty(self).expect("the schema serializes") + "\n";
        let max = crate::deck::MAX_COUNT.to_string();
        let mut out = String::with_capacity(skeleton.len() + self.cards.len() * 256);
        let mut rest = skeleton.as_str();
        for zone in self.manifest.zones.values() {
            let Some(at) = rest.find(SLOT) else { break };
            // Up to the table's `{}`, then its lines.
            out.push_str(&rest[..at + SLOT.len() - 2]);
            self.lines(&zone.kinds, &max, &mut out);
            rest = &rest[at + SLOT.len()..];
        }
        out.push_str(rest);
        out
    }

    /// A zone's table of lines, one per card of a kind in `kinds`, into
    /// `out`.
    fn lines(&self, kinds: &[String], max: &str, out: &mut String) {
        let m = self.manifest;
        let mut any = false;
        for &(id, kind, name) in self.cards {
            if !kinds.iter().any(|k| k == kind) {
                continue;
            }
            let kind_name = m.kinds.get(kind).map_or(kind, |k| k.name.as_str());
            out.push_str(if any { ",\n" } else { "{\n" });
            any = true;
            deck_line(out, (id, name, kind_name), max);
        }
        out.push_str(if any { "\n      }" } else { "{}" });
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
/// `properties`, the zone, its `properties`), and of their lines' fields.
const ID_INDENT: &str = "        ";
const FIELD_INDENT: &str = "          ";

/// Writes card `id`'s deck line (its name and its kind's name; `max`, the
/// most copies a line takes) into `out`.
fn deck_line(out: &mut String, (id, name, kind_name): (&str, &str, &str), max: &str) {
    out.push_str(ID_INDENT);
    escaped(out, id);
    out.push_str(": {\n");
    out.push_str(FIELD_INDENT);
    out.push_str("\"title\": ");
    escaped(out, name);
    out.push_str(",\n");
    out.push_str(FIELD_INDENT);
    out.push_str("\"description\": \"");
    escaped_inner(out, name);
    out.push_str(" (");
    escaped_inner(out, kind_name);
    out.push_str("): how many copies the deck holds.\",\n");
    for (key, value, last) in [
        ("type", "\"integer\"", false),
        ("minimum", "1", false),
        ("maximum", max, true),
    ] {
        out.push_str(FIELD_INDENT);
        out.push('"');
        out.push_str(key);
        out.push_str("\": ");
        out.push_str(value);
        out.push_str(if last { "\n" } else { ",\n" });
    }
    out.push_str(ID_INDENT);
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

    /// A zone's lines as serde's pretty printer writes them at their depth.
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
        let text = serde_json::to_string_pretty(&doc).unwrap();
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
            key: "",
        };
        let mut text = String::new();
        schema.lines(&["k".into()], &max, &mut text);
        text
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
            key: "k",
        }
        .text();
        let tree: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string_pretty(&tree).unwrap() + "\n", text);
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
}
