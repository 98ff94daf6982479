//! Configuration: the game manifest, `cards/<game>/game.toml` — what a game
//! is, its card kinds, its print settings and icons, its zones and rules.
//!
//! Plain serde + schemars types at the bottom of the import graph: every
//! stage reads them, none of them depends on a stage. Their JSON Schema is
//! generated into `schemas/carta/manifest.schema.json`;
//! [`crate::validate::manifest`] validates a `game.toml` against it with the
//! same span-exact diagnostics as cards, then deserializes it.

pub mod play;
pub mod print;
pub mod rules;

pub use print::{
    ArtMode, CardSize, CutLines, Cutter, DEFAULT_BLEED, DEFAULT_SAFE, Duplex, ICON_NAME_PATTERN,
    Icon, Icons, KindPrint, MIN_TEXT_SIZE, Orientation, Paper, PaperSize, PrintSettings,
    SHEET_BLEED, SizePreset,
};

use std::collections::BTreeMap;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use self::play::{MAX_PLAY_CARDS, OnTable, Play};
use self::rules::{Format, Rule, Zone};

/// Where the generated schema of the manifest is committed.
pub const SCHEMA_PATH: &str = "schemas/carta/manifest.schema.json";

/// A BCP 47 language tag, as far as carta checks one (`pt-BR`, `es`).
pub const LANGUAGE_PATTERN: &str = r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$";

/// A game: its identity and its card kinds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(
    title = "carta game manifest",
    description = "The manifest of one game: `cards/<game>/game.toml`."
)]
pub struct Manifest {
    /// The game's id: the name of its folder under `cards/`.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// The game's display name, in its own language.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The language of the card text, as a BCP 47 tag such as `pt-BR` or `es`.
    #[schemars(regex(pattern = LANGUAGE_PATTERN))]
    pub language: String,
    /// The languages the game is translated into (BCP 47), each with its
    /// file `cards/<game>/i18n/<lang>.toml`: card text, kind, zone and rule
    /// names and enum labels, checked by `carta check`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("uniqueItems" = true, "items" = { "type": "string", "pattern": LANGUAGE_PATTERN }))]
    pub translations: Vec<String>,
    /// One sentence about the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// How the print-and-play sheets are laid out (defaults of every build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print: Option<PrintSettings>,
    /// Inline icons for card text, by token: `{AC}` in a text prints icon `AC`.
    #[serde(default, skip_serializing_if = "indexmap::IndexMap::is_empty")]
    #[schemars(extend("propertyNames" = { "pattern": ICON_NAME_PATTERN }))]
    pub icons: Icons,
    /// Keywords of card text, by id: `[[terror]]` in a text prints the
    /// keyword's name in bold and its reminder in italics.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[schemars(extend("propertyNames" = { "pattern": KEYWORD_ID_PATTERN }))]
    pub keywords: IndexMap<String, Keyword>,
    /// The card kinds, by kind id (lowercase, kebab-case), in display order.
    #[schemars(length(min = 1))]
    #[schemars(extend("propertyNames" = { "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" }))]
    pub kinds: IndexMap<String, Kind>,
    /// The zones of a deck (`[zones.main]`), by zone id, in display order.
    /// A game without zones has no deck building.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub zones: IndexMap<String, Zone>,
    /// The rules every deck must keep (`[[deck-rules]]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck_rules: Vec<Rule>,
    /// The rules the whole card pool must keep (`[[box-rules]]`), each
    /// card counted `copies` times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub box_rules: Vec<Rule>,
    /// Named formats (`[formats.<id>]`), by format id: deck rules a deck
    /// opts into with `format = "<id>"`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[schemars(extend("propertyNames" = { "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" }))]
    pub formats: IndexMap<String, Format>,
    /// How the game is played from a deck (`[play]`): the opening hand,
    /// the draws of each turn and the zone they come from, for the deck
    /// builder's sample hand and draw odds. Absent when the rulebook
    /// states no opening hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Play>,
}

/// What a keyword id looks like: `[[terror]]`, `[[first-strike]]`.
pub const KEYWORD_ID_PATTERN: &str = "^[a-z0-9]+([-_][a-z0-9]+)*$";

/// A keyword of card text (`[keywords.terror]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Keyword {
    /// The keyword as printed, in the game's language (bold).
    #[schemars(length(min = 1))]
    pub name: String,
    /// What it does, printed after it in italics and parentheses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminder: Option<String>,
}

/// One kind of card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Kind {
    /// The kind's display name, in the game's language.
    #[schemars(length(min = 1))]
    pub name: String,
    /// What cards of this kind are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the kind's fields, relative to the workspace root.
    /// Defaults to `schemas/<game>/<kind>.schema.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// How cards of this kind print: their size, bleed, safe zone and art fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print: Option<KindPrint>,
    /// Spreadsheet card files under `cards/<game>/` (`heroes.csv`), or one
    /// sheet of a workbook (`cards.xlsx#Heroes`), whose rows are cards of
    /// this kind: they need no `kind` column. A row's own `kind` cell, when
    /// it has one, wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("uniqueItems" = true))]
    pub sheets: Vec<String>,
}

impl Manifest {
    /// The workspace-relative schema path of each kind.
    pub fn schema_paths(&self) -> BTreeMap<String, String> {
        self.kinds
            .iter()
            .map(|(id, kind)| {
                (
                    id.clone(),
                    kind.schema
                        .clone()
                        .unwrap_or_else(|| format!("schemas/{}/{id}.schema.json", self.id)),
                )
            })
            .collect()
    }

    /// Every rule the manifest declares: deck rules, box rules and the
    /// rules of each format.
    pub fn all_rules(&self) -> impl Iterator<Item = &Rule> {
        self.deck_rules
            .iter()
            .chain(&self.box_rules)
            .chain(self.formats.values().flat_map(|f| &f.deck_rules))
    }

    /// The zone a hand is drawn from: `[play] draw-from`, else the first
    /// zone; `None` in a game without zones.
    pub fn draw_zone(&self) -> Option<&str> {
        let named = self.play.as_ref().and_then(|p| p.draw_from.as_deref());
        named.or_else(|| self.zones.keys().next().map(String::as_str))
    }

    /// The display name of kind `kind` (its id where the manifest has no
    /// such kind).
    pub fn kind_name<'a>(&'a self, kind: &'a str) -> &'a str {
        self.kinds.get(kind).map_or(kind, |k| k.name.as_str())
    }

    /// The kind ids, in declaration order.
    pub fn kind_ids(&self) -> Vec<String> {
        self.kinds.keys().cloned().collect()
    }

    /// The kind the kinds' `sheets` give the rows of a spreadsheet or of
    /// one sheet, by `file` or `file#sheet` relative to the game's folder;
    /// the first kind to name one keeps it (the manifest check reports
    /// the others).
    pub fn sheet_kinds(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for (id, kind) in &self.kinds {
            for sheet in &kind.sheets {
                out.entry(sheet.clone()).or_insert_with(|| id.clone());
            }
        }
        out
    }

    /// Calls `f` with every string of the manifest a translation replaces,
    /// named as translation files name it, `(section, id, field)`:
    /// `("game", "", "name")`, `("kinds", "action", "back")` (the word its
    /// backs print), `("rules", "casual.deck-size", "name")` (a format's
    /// rule is `<format>.<rule>`). Absent strings are not visited.
    pub fn texts_mut(&mut self, f: &mut dyn FnMut(&str, &str, &str, &mut String)) {
        f("game", "", "name", &mut self.name);
        if let Some(d) = &mut self.description {
            f("game", "", "description", d);
        }
        for (id, kind) in &mut self.kinds {
            f("kinds", id, "name", &mut kind.name);
            if let Some(d) = &mut kind.description {
                f("kinds", id, "description", d);
            }
            if let Some(back) = kind.print.as_mut().and_then(|p| p.back.as_mut()) {
                f("kinds", id, "back", back);
            }
        }
        for (id, zone) in &mut self.zones {
            f("zones", id, "name", &mut zone.name);
        }
        for (id, keyword) in &mut self.keywords {
            f("keywords", id, "name", &mut keyword.name);
            if let Some(r) = &mut keyword.reminder {
                f("keywords", id, "reminder", r);
            }
        }
        let mut rules: Vec<(String, &mut Rule)> = Vec::new();
        for (id, format) in &mut self.formats {
            f("formats", id, "name", &mut format.name);
            if let Some(d) = &mut format.description {
                f("formats", id, "description", d);
            }
            rules.extend(format.deck_rules.iter_mut().map(|r| (format!("{id}."), r)));
        }
        let own = self.deck_rules.iter_mut().chain(&mut self.box_rules);
        rules.extend(own.map(|r| (String::new(), r)));
        for (prefix, rule) in rules {
            let id = format!("{prefix}{}", rule.id);
            f("rules", &id, "name", &mut rule.name);
            if let Some(m) = &mut rule.message {
                f("rules", &id, "message", m);
            }
        }
    }
}

/// The JSON Schema of the manifest, as committed in [`SCHEMA_PATH`]
/// (derived once a run: a check reads it twice).
pub fn json_schema() -> &'static Value {
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(|| {
        serde_json::to_value(schemars::schema_for!(Manifest)).expect("schemas serialize")
    })
}
