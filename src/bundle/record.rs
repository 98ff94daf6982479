//! The records of a bundle: cards and decks, as written and as read.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::BundleError;
use super::view::{Bad, Cursor, MapRef, ValueRef};
use crate::validate::PackedFields;
use crate::validate::errata::{Erratum, current_version};
use crate::validate::{MAX_COPIES, RESERVED};

/// A card to write: borrowed from the checked sources. It serializes as
/// its record: `id`, `kind`, `name`, `copies`, `fields`, `i18n`, then,
/// when it has errata, `version` (its latest erratum's) and `errata`.
#[derive(Debug, Clone, Copy)]
pub struct CardRecord<'a> {
    /// The card's id.
    pub id: &'a str,
    /// Its kind.
    pub kind: &'a str,
    /// Its display name.
    pub name: &'a str,
    /// Physical copies, when the source says.
    pub copies: Option<u32>,
    /// Every other field, as authored.
    pub fields: &'a Map<String, Value>,
    /// Its translations: language → field (`name`, `effect`,
    /// `levels.0.ability.text`) → text; absent when it has none.
    pub i18n: Option<&'a Translated>,
    /// Its published changes (`[[card.errata]]`); empty when it has none.
    pub errata: &'a [Erratum],
}

impl Serialize for CardRecord<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let version = current_version(self.errata);
        let len = 4
            + usize::from(self.copies.is_some())
            + usize::from(self.i18n.is_some())
            + 2 * usize::from(version.is_some());
        let mut map = s.serialize_map(Some(len))?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("kind", self.kind)?;
        map.serialize_entry("name", self.name)?;
        if let Some(copies) = self.copies {
            map.serialize_entry("copies", &copies)?;
        }
        map.serialize_entry("fields", self.fields)?;
        if let Some(i18n) = self.i18n {
            map.serialize_entry("i18n", i18n)?;
        }
        if let Some(version) = version {
            map.serialize_entry("version", version)?;
            map.serialize_entry("errata", self.errata)?;
        }
        map.end()
    }
}

/// A checked card to write whose fields are packed already: written as
/// the same bytes as its [`CardRecord`], the fields copied in as they are.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PackedRecord<'a> {
    /// The card's id.
    pub(crate) id: &'a str,
    /// Its kind.
    pub(crate) kind: &'a str,
    /// Its display name.
    pub(crate) name: &'a str,
    /// Physical copies, when the source says.
    pub(crate) copies: Option<u32>,
    /// Every other field, packed.
    pub(crate) fields: &'a PackedFields,
    /// Its translations, when it has any.
    pub(crate) i18n: Option<&'a Translated>,
    /// Its published changes; empty when it has none.
    pub(crate) errata: &'a [Erratum],
}

/// A card's packed fields as a borrowed map, checked whole once as a
/// bundle record's `fields` are; `None` when a bundle could not hold them
/// (a field nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH)), for the
/// caller to unpack instead.
pub(crate) fn packed_map(fields: &PackedFields) -> Option<MapRef<'_>> {
    let mut c = Cursor::new(fields.bytes());
    let map = c.fields(&[], super::MAX_DEPTH).ok()?;
    c.at_end().then_some(map)
}

/// A card's translations: language → dotted field path → text.
pub type Translated = BTreeMap<String, BTreeMap<String, String>>;

/// A card read from a bundle: the common fields typed, the rest as generic
/// values with the types the author gave them (an integer stays an integer,
/// a float a float).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// The card's id.
    pub id: String,
    /// Its kind (one of the manifest's kinds).
    pub kind: String,
    /// Its display name.
    pub name: String,
    /// Physical copies, when the source says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies: Option<u32>,
    /// Every other field, in the order written.
    pub fields: Map<String, Value>,
    /// Its translations: language → dotted field path → text (empty in
    /// bundles of untranslated games and of carta before 0.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub i18n: Translated,
    /// The version of its current text, its latest erratum's; `None` for
    /// a card never changed (and in bundles before format 1.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Its published changes, as written (empty before format 1.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errata: Vec<Erratum>,
}

impl Card {
    /// A field other than the common ones.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields.get(name)
    }

    /// Field `path` in language `lang`: its translation when the card has
    /// one, else the value as written in the game's own language. `path`
    /// is `name`, a field (`effect`) or a dotted path into one
    /// (`levels.0.ability.text`).
    pub fn field_in(&self, path: &str, lang: &str) -> Option<Value> {
        if let Some(text) = self.i18n.get(lang).and_then(|t| t.get(path)) {
            return Some(Value::String(text.clone()));
        }
        if path == "name" {
            return Some(Value::String(self.name.clone()));
        }
        let mut segs = path.split('.');
        let mut at = self.fields.get(segs.next()?)?;
        for seg in segs {
            at = match at {
                Value::Object(m) => m.get(seg)?,
                Value::Array(items) => items.get(seg.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(at.clone())
    }

    /// The card's name in language `lang`, falling back to its own.
    pub fn name_in(&self, lang: &str) -> &str {
        self.i18n
            .get(lang)
            .and_then(|t| t.get("name"))
            .unwrap_or(&self.name)
    }

    /// The card as it is written in its source file: `id`, `kind`, `name`,
    /// `copies` (if set), every other field, then its errata (if any).
    pub fn to_source_json(&self) -> Value {
        let mut map = Map::with_capacity(self.fields.len() + 4);
        map.insert("id".into(), self.id.clone().into());
        map.insert("kind".into(), self.kind.clone().into());
        map.insert("name".into(), self.name.clone().into());
        if let Some(copies) = self.copies {
            map.insert("copies".into(), copies.into());
        }
        for (k, v) in &self.fields {
            map.insert(k.clone(), v.clone());
        }
        if !self.errata.is_empty() {
            map.insert(
                "errata".into(),
                serde_json::to_value(&self.errata).unwrap_or_default(),
            );
        }
        Value::Object(map)
    }
}

/// A card borrowed from an inflated block: its strings and fields point
/// into the block's bytes, so reading it allocates nothing.
///
/// The record is checked whole, in one pass, when the view is made (types,
/// lengths, nesting, reserved keys; `id`, `kind` and `name` for UTF-8);
/// after that, looking a field up only walks lengths, and checks the
/// strings it returns for UTF-8.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardRef<'a> {
    /// The card's id.
    pub id: &'a str,
    /// Its kind (one of the manifest's kinds).
    pub kind: &'a str,
    /// Its display name.
    pub name: &'a str,
    /// Physical copies, when the source says.
    pub copies: Option<u32>,
    /// Every other field, in the order written.
    pub fields: MapRef<'a>,
    /// Its translations (language → field path → text), when it has any.
    pub i18n: Option<ValueRef<'a>>,
    /// The version of its current text, when it has errata.
    pub version: Option<&'a str>,
    /// Its errata (an array of maps), when it has any.
    pub errata: Option<ValueRef<'a>>,
}

impl<'a> CardRef<'a> {
    /// Reads the record that fills `record` exactly. Keys the format does
    /// not define are ignored (a later minor version may add some).
    pub(crate) fn parse(record: &'a [u8]) -> Result<Self, Bad> {
        let mut c = Cursor::new(record);
        let entries = c.map_header().map_err(|_| "a record is not a map")?;
        let (mut id, mut kind, mut name, mut copies, mut fields) = (None, None, None, None, None);
        let (mut i18n, mut version, mut errata) = (None, None, None);
        for _ in 0..entries {
            // Compared as bytes: the keys the format defines are ASCII.
            let key = c.key_bytes()?;
            let mut string = |what: &str| c.str().map_err(|_| format!("`{what}` is not a string"));
            match key {
                b"id" => id = Some(string("id")?),
                b"kind" => kind = Some(string("kind")?),
                b"name" => name = Some(string("name")?),
                b"copies" => {
                    let n = c
                        .value(0)
                        .ok()
                        .and_then(|v| v.as_i64())
                        .filter(|n| (1..=MAX_COPIES).contains(n))
                        .ok_or(format!(
                            "`copies` is not a whole number from 1 to {MAX_COPIES}"
                        ))?;
                    copies = u32::try_from(n).ok();
                }
                b"fields" => {
                    fields = Some(c.fields(&RESERVED, super::MAX_DEPTH)?);
                }
                // language → field path → text: two levels of maps.
                b"i18n" => i18n = Some(c.value(2)?),
                b"version" => version = Some(string("version")?),
                // entries → entry → `was` → a field's value.
                b"errata" => errata = Some(c.value(super::MAX_DEPTH + 3)?),
                // A key of a later minor version: checked, then ignored.
                _ => {
                    std::str::from_utf8(key).map_err(|_| "a map key is not UTF-8")?;
                    c.value(super::MAX_DEPTH + 1)?;
                }
            }
        }
        if !c.at_end() {
            return Err("bytes after the record".into());
        }
        let missing = |what: &str| format!("a record has no `{what}`");
        Ok(CardRef {
            id: id.ok_or_else(|| missing("id"))?,
            kind: kind.ok_or_else(|| missing("kind"))?,
            name: name.ok_or_else(|| missing("name"))?,
            copies,
            fields: fields.ok_or_else(|| missing("fields"))?,
            i18n,
            version,
            errata,
        })
    }

    /// A field other than the common ones.
    ///
    /// # Errors
    /// When the field is a string not in UTF-8 (strings of `fields` are
    /// checked when they are read).
    pub fn field(&self, name: &str) -> Result<Option<ValueRef<'a>>, BundleError> {
        self.fields.get(name)
    }

    /// An owned copy.
    ///
    /// # Errors
    /// When a key or string of its fields is not UTF-8.
    pub fn to_card(&self) -> Result<Card, BundleError> {
        Ok(Card {
            id: self.id.to_owned(),
            kind: self.kind.to_owned(),
            name: self.name.to_owned(),
            copies: self.copies,
            fields: self.fields.to_json()?,
            i18n: match &self.i18n {
                None => Translated::new(),
                Some(v) => serde_json::from_value(v.to_json()?).map_err(|e| {
                    BundleError::corrupt("cards", format!("`i18n` of `{}`: {e}", self.id))
                })?,
            },
            version: self.version.map(str::to_owned),
            errata: match &self.errata {
                None => Vec::new(),
                Some(v) => serde_json::from_value(v.to_json()?).map_err(|e| {
                    BundleError::corrupt("cards", format!("`errata` of `{}`: {e}", self.id))
                })?,
            },
        })
    }
}

/// An example deck: its name, its file, and the cards of each zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckRecord {
    /// The deck's display name.
    pub name: String,
    /// The deck file, relative to the workspace root, `/`-separated.
    pub file: String,
    /// Each zone (`main`, `team`, …) in the order written: card id → copies.
    pub zones: IndexMap<String, IndexMap<String, u32>>,
}
