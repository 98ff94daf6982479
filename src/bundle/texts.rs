//! What the game section carries besides the manifest: the printed labels
//! of enum values (`labels`) and the manifest's strings in each language
//! the game is translated into (`i18n`), named as translation files name
//! them. See `docs/bundle-format.md`, *Game section*.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::BundleError;
use crate::config::Manifest;

/// A section's strings: id → field → text.
pub type Scoped = BTreeMap<String, BTreeMap<String, String>>;

/// Parsed card text: card id → field → its nodes (`crate::markup::Node`
/// as JSON), for the texts that hold markup.
pub type Markup = BTreeMap<String, BTreeMap<String, Value>>;

/// The game section's `labels` and `i18n` keys.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameTexts {
    /// Enum value → its printed label in the game's own language (the
    /// schemas' `x-carta-labels`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Language → the manifest's strings and labels in it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub i18n: BTreeMap<String, ManifestTexts>,
    /// The card texts that hold markup, parsed (since 1.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub markup: Markup,
}

/// The manifest's strings in one language, each present only when
/// translated.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestTexts {
    /// The game's `name` and `description`: field → text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub game: BTreeMap<String, String>,
    /// Kinds' `name`, `description` and `back`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kinds: Scoped,
    /// Zones' `name`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: Scoped,
    /// Formats' `name` and `description`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub formats: Scoped,
    /// Rules' `name` and `message`, a format's rule as `<format>.<rule>`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: Scoped,
    /// Keywords' `name` and `reminder` (since 1.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keywords: Scoped,
    /// Enum value → its printed label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// The translated card texts that hold markup, parsed (since 1.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub markup: Markup,
}

impl ManifestTexts {
    /// The text of a manifest string as [`Manifest::texts_mut`] names it.
    pub fn get(&self, section: &str, id: &str, field: &str) -> Option<&str> {
        let scoped = match section {
            "game" => return self.game.get(field).map(String::as_str),
            "kinds" => &self.kinds,
            "zones" => &self.zones,
            "formats" => &self.formats,
            "rules" => &self.rules,
            "keywords" => &self.keywords,
            _ => return None,
        };
        scoped.get(id)?.get(field).map(String::as_str)
    }

    /// Sets the text of a manifest string named as [`Manifest::texts_mut`]
    /// names it; false for a section it does not visit.
    pub fn insert(&mut self, section: &str, id: &str, field: &str, text: String) -> bool {
        let scoped = match section {
            "game" => {
                self.game.insert(field.to_owned(), text);
                return true;
            }
            "kinds" => &mut self.kinds,
            "zones" => &mut self.zones,
            "formats" => &mut self.formats,
            "rules" => &mut self.rules,
            "keywords" => &mut self.keywords,
            _ => return false,
        };
        scoped
            .entry(id.to_owned())
            .or_default()
            .insert(field.to_owned(), text);
        true
    }

    /// Whether it holds no string.
    pub fn is_empty(&self) -> bool {
        *self == ManifestTexts::default()
    }
}

impl GameTexts {
    /// The texts of a stored game section: its `labels` and `i18n` keys
    /// (keys inside them that this carta does not know are ignored).
    ///
    /// # Errors
    /// When they are not of the shapes the format gives them.
    pub(crate) fn of(game: &Value) -> Result<GameTexts, BundleError> {
        let mut texts = GameTexts::default();
        if let Some(labels) = game.get("labels") {
            texts.labels = serde_json::from_value(labels.clone())
                .map_err(|e| BundleError::corrupt("game", format!("labels: {e}")))?;
        }
        if let Some(i18n) = game.get("i18n") {
            texts.i18n = serde_json::from_value(i18n.clone())
                .map_err(|e| BundleError::corrupt("game", format!("i18n: {e}")))?;
        }
        Ok(texts)
    }

    /// `manifest` in `lang`: every string the bundle translates into
    /// `lang` put in, the source text elsewhere (all of it for the game's
    /// own language or one it is not translated into).
    pub fn manifest_in(&self, manifest: &Manifest, lang: &str) -> Manifest {
        let mut out = manifest.clone();
        if let Some(texts) = self.i18n.get(lang) {
            out.texts_mut(&mut |section, id, field, s| {
                if let Some(t) = texts.get(section, id, field) {
                    t.clone_into(s);
                }
            });
        }
        out
    }

    /// The printed label of enum value `value` in `lang`, falling back to
    /// the game's own language; `None` when no schema labels it.
    pub fn label_in(&self, value: &str, lang: &str) -> Option<&str> {
        let translated = self.i18n.get(lang).and_then(|t| t.labels.get(value));
        translated
            .or_else(|| self.labels.get(value))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn manifest() -> Manifest {
        toml::from_str(
            r#"
            id = "g"
            name = "Jogo"
            language = "pt-BR"
            [kinds.unit]
            name = "Unidade"
            [kinds.unit.print]
            back = "Preparação"
            [[deck-rules]]
            id = "size"
            name = "Dez cartas"
            size = { exact = 10 }
            [formats.duel]
            name = "Duelo"
            [[formats.duel.deck-rules]]
            id = "size"
            name = "Vinte cartas"
            size = { exact = 20 }
            "#,
        )
        .unwrap()
    }

    #[test]
    fn the_manifest_in_a_language_falls_back_to_the_source() {
        let game = json!({
            "labels": {"fogo": "Fogo", "gelo": "Gelo"},
            "i18n": {"en": {
                "game": {"name": "Game"},
                "kinds": {"unit": {"back": "Setup", "future": "ignored"}},
                "rules": {"duel.size": {"name": "Twenty cards"}},
                "labels": {"fogo": "Fire"},
                "later": {"keys": "are ignored"}
            }}
        });
        let texts = GameTexts::of(&game).unwrap();
        let m = manifest();
        let en = texts.manifest_in(&m, "en");
        assert_eq!(en.name, "Game");
        assert_eq!(en.kinds["unit"].name, "Unidade", "untranslated: the source");
        assert_eq!(
            en.kinds["unit"].print.as_ref().unwrap().back.as_deref(),
            Some("Setup")
        );
        assert_eq!(en.deck_rules[0].name, "Dez cartas");
        assert_eq!(en.formats["duel"].deck_rules[0].name, "Twenty cards");
        assert_eq!(texts.manifest_in(&m, "de"), m);
        assert_eq!(texts.label_in("fogo", "en"), Some("Fire"));
        assert_eq!(texts.label_in("gelo", "en"), Some("Gelo"));
        assert_eq!(texts.label_in("fogo", "de"), Some("Fogo"));
        assert_eq!(texts.label_in("agua", "en"), None);
    }

    #[test]
    fn texts_of_the_wrong_types_are_refused() {
        assert!(GameTexts::of(&json!({"labels": {"fogo": 3}})).is_err());
        assert!(GameTexts::of(&json!({"i18n": {"en": {"kinds": {"unit": "Unit"}}}})).is_err());
        assert_eq!(GameTexts::of(&json!({})).unwrap(), GameTexts::default());
    }

    #[test]
    fn insert_and_get_name_strings_as_translation_files_do() {
        let mut t = ManifestTexts::default();
        assert!(t.is_empty());
        assert!(t.insert("game", "", "name", "G".into()));
        assert!(t.insert("rules", "duel.size", "name", "R".into()));
        assert!(!t.insert("cards", "x", "name", "C".into()));
        assert_eq!(t.get("game", "", "name"), Some("G"));
        assert_eq!(t.get("rules", "duel.size", "name"), Some("R"));
        assert_eq!(t.get("zones", "main", "name"), None);
    }
}
