//! The typed view models the templates receive. A face or back template
//! sees one [`CardView`]; its fields are the card's own, as authored.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::geometry::CardBox;

/// The game, as every template sees it.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The language of its text (BCP 47).
    pub language: String,
}

/// A card's printed size, in mm.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SizeView {
    /// Trim width.
    pub width: f64,
    /// Trim height.
    pub height: f64,
    /// Bleed on each side.
    pub bleed: f64,
    /// Safe inset inside the trim.
    pub safe: f64,
}

impl From<CardBox> for SizeView {
    fn from(b: CardBox) -> Self {
        SizeView {
            width: b.width,
            height: b.height,
            bleed: b.bleed,
            safe: b.safe,
        }
    }
}

/// One card, as its face and back templates see it.
#[derive(Debug, Serialize)]
pub struct CardView<'a> {
    /// The card's id.
    pub id: &'a str,
    /// Its kind id.
    pub kind: &'a str,
    /// The kind's display name.
    pub kind_name: &'a str,
    /// The card's display name.
    pub name: &'a str,
    /// How many copies this print holds of it.
    pub copies: u32,
    /// Its published changes (`[[card.errata]]`), as written: empty, so
    /// false to `{{#if errata}}`, for a card never changed.
    pub errata: &'a [crate::validate::errata::Erratum],
    /// The version of its current text (its latest erratum's), or null.
    pub version: Option<&'a str>,
    /// Its fields (everything but id, kind, name and copies) as a player
    /// reads them: enum values as their labels, references as card names.
    pub fields: &'a Map<String, Value>,
    /// Its fields as authored.
    pub raw: &'a Map<String, Value>,
    /// Its art, by field name: the URL of the copied image, relative to the
    /// sheets' `index.html`.
    pub images: BTreeMap<String, String>,
    /// The default face's blocks, laid out from the kind's schema (left
    /// out when no template of the card could read it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<super::layout::Layout>,
    /// The word the kind's back prints under the game's name, if the
    /// manifest gives it one (`[kinds.<k>.print] back`).
    pub back: Option<&'a str>,
    /// The game.
    pub game: &'a GameView,
    /// The card's size.
    pub size: SizeView,
    /// Whether this is the ink-saver variant.
    pub ink_saver: bool,
}
