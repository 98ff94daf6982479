//! The schema of a deck file of a game: `game`, `name`, `player`, a
//! declared `format`, and a table per
//! zone whose keys are the ids of the cards the zone takes. It is
//! serialized as it is written, never held as a JSON tree.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use super::draft7::no_such;
use super::{DRAFT7, key_comment};
use crate::config::Manifest;

/// The deck-file schema of a game: `game`, `name`, and a table per zone
/// whose keys are the ids of the cards the zone accepts. It is serialized
/// as it is written: one line per card, and a JSON tree of 20,000 of them
/// would be the largest thing a check holds.
pub(super) struct DeckSchema<'a> {
    pub(super) manifest: &'a Manifest,
    pub(super) cards: &'a [(&'a str, &'a str, &'a str)],
    pub(super) key: &'a str,
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
            let lines = ZoneLines {
                deck: self.0,
                kinds: &zone.kinds,
            };
            map.serialize_entry(
                zone_id,
                &ZoneSchema {
                    title: &zone.name,
                    description: format!(
                        "Zone `{zone_id}`: card id = copies, for cards of kind {kinds}."
                    ),
                    kind: "object",
                    properties: lines,
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
    properties: ZoneLines<'a>,
    #[serde(rename = "additionalProperties")]
    additional_properties: Value,
}

/// A zone's lines: one property per card of a kind the zone accepts.
struct ZoneLines<'a> {
    deck: &'a DeckSchema<'a>,
    kinds: &'a [String],
}

impl Serialize for ZoneLines<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.deck.manifest;
        let mut map = s.serialize_map(None)?;
        for &(id, kind, name) in self.deck.cards {
            if !self.kinds.iter().any(|k| k == kind) {
                continue;
            }
            let kind_name = m.kinds.get(kind).map_or(kind, |k| k.name.as_str());
            let line = DeckLine {
                title: name,
                description: format!("{name} ({kind_name}): how many copies the deck holds."),
                kind: "integer",
                minimum: 1,
                maximum: crate::deck::MAX_COUNT,
            };
            map.serialize_entry(id, &line)?;
        }
        map.end()
    }
}

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
