//! The records of a bundle: cards and decks, as written and as read.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::validate::RawCard;

/// A card to write: borrowed from the checked sources.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CardRecord<'a> {
    /// The card's id.
    pub id: &'a str,
    /// Its kind.
    pub kind: &'a str,
    /// Its display name.
    pub name: &'a str,
    /// Physical copies, when the source says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copies: Option<u32>,
    /// Every other field, as authored.
    pub fields: &'a Map<String, Value>,
    /// Its translations: language → field (`name`, `effect`,
    /// `levels.0.ability.text`) → text; absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub i18n: Option<&'a Translated>,
}

/// A card's translations: language → dotted field path → text.
pub type Translated = BTreeMap<String, BTreeMap<String, String>>;

impl<'a> From<&'a RawCard> for CardRecord<'a> {
    fn from(card: &'a RawCard) -> Self {
        CardRecord {
            id: &card.id,
            kind: &card.kind,
            name: &card.name,
            copies: card.copies,
            fields: &card.fields,
            i18n: None,
        }
    }
}

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
    /// `copies` (if set), then every other field.
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
        Value::Object(map)
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
