//! Translations as data: a game declares the languages it is translated
//! into (`translations = ["en", "es"]` in `game.toml`), and each has one
//! file, `cards/<game>/i18n/<lang>.toml`, holding the translated text of
//! the cards (their `name` and every string field its schema marks with
//! `"x-carta-translate": true`) and of the manifest (the game's, kinds',
//! zones' and rules' names and descriptions) and the printed labels of
//! enum values (`x-carta-labels`). See `docs/translations.md`.
//!
//! Each translated string keeps a short hash of the source text it was
//! translated from, so that a translation older than its source is found;
//! `carta i18n update` refreshes the hashes after review.
//!
//! - [`sources`]: every translatable string of a compiled game, by [`Key`].
//! - [`catalog`]: a translation file parsed with spans.
//! - [`check`](mod@check): the diagnostics and the per-language coverage;
//!   `unknown.rs`: an entry that names nothing the game has, with its
//!   did-you-mean.
//! - [`apply`]: a game's manifest and cards in one language, with fallback.
//! - [`po`]: gettext PO export and import, for translators' tools: export
//!   through `polib`, import by a strict, linear reader of carta's own
//!   (`po/parse.rs`).
//! - [`edit`]: rewriting a translation file, keeping its layout.
//! - [`phrases`]: the captions templates print through `{{t "…"}}`.
//! - [`captions`]: the captions carta itself prints on the sheets (the
//!   cover), by id, as carta knows them in English, Portuguese and Spanish.

pub mod apply;
pub mod captions;
pub mod catalog;
pub mod check;
pub mod edit;
pub mod phrases;
pub mod po;
pub mod sources;
mod unknown;

pub use apply::{Localized, localize, untranslated};
pub use catalog::{Catalog, Entry};
pub use check::{Coverage, check};
pub use sources::{Source, Sources};

use std::collections::BTreeMap;
use std::fmt;

/// A game's translations, as compiled with it.
#[derive(Debug, Clone, Default)]
pub struct Translations {
    /// Its translatable strings (empty when it declares no translations).
    pub sources: Sources,
    /// Its translation files, one per declared language that has one.
    pub catalogs: Vec<Catalog>,
    /// How much each declared language covers; `None` when the
    /// translations were not checked (the cards had errors).
    pub coverage: Option<Vec<Coverage>>,
    /// The game's own language when these are the translations of a game
    /// printed in another ([`Translations::only`]): what an untranslated
    /// caption prints in.
    pub source: Option<String>,
}

impl Translations {
    /// The catalog of `lang`, if the game has one.
    pub fn catalog(&self, lang: &str) -> Option<&Catalog> {
        self.catalogs.iter().find(|c| c.lang == lang)
    }

    /// The translations a game in `source` printed in `lang` keeps: the
    /// catalog of `lang` alone (its labels, titles, template phrases and
    /// captions print), no sources.
    #[must_use]
    pub fn only(&self, lang: &str, source: &str) -> Translations {
        Translations {
            catalogs: self.catalog(lang).cloned().into_iter().collect(),
            source: Some(source.to_owned()),
            ..Translations::default()
        }
    }

    /// carta's caption `id` (see [`captions`]) on sheets printed in `lang`:
    /// its translation in `lang`, else the caption in the game's own
    /// language, with `values` filled in.
    pub fn caption(&self, lang: &str, id: &str, values: &[(&str, &str)]) -> String {
        let key = Key::new(Scope::Caption(id.to_owned()), "");
        let text = match self.catalog(lang).and_then(|c| c.get(&key)) {
            Some(e) => e.text.as_str(),
            None => captions::source(id, self.source.as_deref().unwrap_or(lang)),
        };
        captions::fill(text, values)
    }

    /// The title of field `field` of kind `kind` (a label the default face
    /// prints) in `lang`, if translated.
    pub fn title(&self, lang: &str, kind: &str, field: &str) -> Option<&str> {
        let key = Key::new(Scope::Title(kind.to_owned()), field);
        self.catalog(lang)?.get(&key).map(|e| e.text.as_str())
    }

    /// The translations of the template phrases in `lang`: source phrase →
    /// translation (empty in the source language or without a catalog).
    pub fn phrases(&self, lang: &str) -> BTreeMap<String, String> {
        let entries = self.catalog(lang).map(|c| &c.entries).into_iter().flatten();
        entries
            .filter_map(|(k, e)| match &k.scope {
                Scope::Phrase(p) => Some((p.clone(), e.text.clone())),
                _ => None,
            })
            .collect()
    }

    /// The label of enum value `value` in `lang`, if translated.
    pub fn label(&self, lang: &str, value: &str) -> Option<&str> {
        let key = Key::new(Scope::Label(value.to_owned()), "");
        self.catalog(lang)?.get(&key).map(|e| e.text.as_str())
    }
}

/// The schema keyword that marks a string field as translatable.
pub const TRANSLATE_KEYWORD: &str = "x-carta-translate";

/// The schema keyword whose values are enum labels (the display labels of
/// the sheets): `{"aries": "Áries"}`.
pub const LABELS_KEYWORD: &str = "x-carta-labels";

/// The folder of a game's translation files, under `cards/<game>/`.
pub const FOLDER: &str = "i18n";

/// The workspace-relative path of game `game`'s translation into `lang`.
pub fn file_path(game: &str, lang: &str) -> String {
    format!("cards/{game}/{FOLDER}/{lang}.toml")
}

/// What a translated string belongs to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// The game itself (`[game]`: `name`, `description`).
    Game,
    /// A kind (`[kinds.<id>]`: `name`, `description`).
    Kind(String),
    /// A deck zone (`[zones.<id>]`: `name`).
    Zone(String),
    /// A deck format (`[formats.<id>]`: `name`, `description`).
    Format(String),
    /// A deck or box rule (`[rules.<id>]`: `name`, `message`); a format's
    /// own rule is `<format>.<rule>`.
    Rule(String),
    /// A keyword of card text (`[keywords.<id>]`: `name`, `reminder`).
    Keyword(String),
    /// An enum value's printed label (`[labels]`: `<value> = …`).
    Label(String),
    /// A caption a template prints with `{{t "…"}}` (`[phrases]`: `"<source
    /// phrase>" = …`).
    Phrase(String),
    /// A caption carta prints on the sheets, by id (`[captions]`: `kind =
    /// …`; see [`captions`]).
    Caption(String),
    /// The title of a kind's field, the label the default face prints
    /// beside its value (`[titles.<kind>]`: `<field> = …`).
    Title(String),
    /// A card (`[cards.<id>]`: `name` and its translatable fields by path).
    Card(String),
}

/// One translatable string: its scope and its field. A card's field is a
/// dotted path with array indexes (`levels.0.ability.text`); a label's and
/// a phrase's and a caption's field is empty; a title's is the field's key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// What it belongs to.
    pub scope: Scope,
    /// Which of its strings.
    pub field: String,
}

impl Key {
    /// A key.
    pub fn new(scope: Scope, field: impl Into<String>) -> Self {
        Key {
            scope,
            field: field.into(),
        }
    }

    /// The key of a manifest string as [`crate::config::Manifest::texts_mut`]
    /// names it (`None` for a section it does not visit).
    pub fn in_manifest(section: &str, id: &str, field: &str) -> Option<Key> {
        let id = id.to_owned();
        let scope = match section {
            "game" => Scope::Game,
            "kinds" => Scope::Kind(id),
            "zones" => Scope::Zone(id),
            "formats" => Scope::Format(id),
            "rules" => Scope::Rule(id),
            "keywords" => Scope::Keyword(id),
            _ => return None,
        };
        Some(Key::new(scope, field))
    }

    /// Parses the form [`Key`]'s `Display` writes (a PO message context).
    pub fn parse(s: &str) -> Option<Key> {
        let (section, rest) = s.split_once('/')?;
        let scoped = |f: fn(String) -> Scope| {
            let (id, field) = rest.split_once('/')?;
            Some(Key::new(f(id.to_owned()), field))
        };
        match section {
            "game" => Some(Key::new(Scope::Game, rest)),
            "labels" => Some(Key::new(Scope::Label(rest.to_owned()), "")),
            "phrases" => Some(Key::new(Scope::Phrase(rest.to_owned()), "")),
            "captions" => Some(Key::new(Scope::Caption(rest.to_owned()), "")),
            "titles" => scoped(Scope::Title),
            "kinds" => scoped(Scope::Kind),
            "zones" => scoped(Scope::Zone),
            "formats" => scoped(Scope::Format),
            "rules" => scoped(Scope::Rule),
            "keywords" => scoped(Scope::Keyword),
            "cards" => scoped(Scope::Card),
            _ => None,
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = &self.field;
        match &self.scope {
            Scope::Game => write!(f, "game/{field}"),
            Scope::Kind(id) => write!(f, "kinds/{id}/{field}"),
            Scope::Zone(id) => write!(f, "zones/{id}/{field}"),
            Scope::Format(id) => write!(f, "formats/{id}/{field}"),
            Scope::Rule(id) => write!(f, "rules/{id}/{field}"),
            Scope::Keyword(id) => write!(f, "keywords/{id}/{field}"),
            Scope::Label(value) => write!(f, "labels/{value}"),
            Scope::Phrase(phrase) => write!(f, "phrases/{phrase}"),
            Scope::Caption(id) => write!(f, "captions/{id}"),
            Scope::Title(kind) => write!(f, "titles/{kind}/{field}"),
            Scope::Card(id) => write!(f, "cards/{id}/{field}"),
        }
    }
}

/// The hash of a source text a translation keeps: 16 hex digits of its
/// SHA-256 (enough to notice a change; not a security measure).
pub fn source_hash(text: &str) -> String {
    crate::digest::sha256_hex(text.as_bytes(), 8)
}

/// The placeholders and icon tokens of a text (`{AC}`, `{dice:red:2}`,
/// `{rule}`), sorted: a translation must carry the same ones as its source.
pub fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start..];
        let Some(end) = after.find('}') else { break };
        let token = &after[..=end];
        // `{` inside a token starts a new candidate (`{{AC}` counts `{AC}`).
        if let Some(inner) = token[1..].rfind('{') {
            rest = &after[inner + 1..];
            continue;
        }
        if token.len() > 2 && !token.contains(char::is_whitespace) {
            out.push(token);
        }
        rest = &after[end + 1..];
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_their_text() {
        for key in [
            Key::new(Scope::Game, "name"),
            Key::new(Scope::Kind("action".into()), "description"),
            Key::new(Scope::Zone("main".into()), "name"),
            Key::new(Scope::Rule("deck-size".into()), "name"),
            Key::new(Scope::Format("casual".into()), "name"),
            Key::new(Scope::Rule("casual.deck-size".into()), "name"),
            Key::new(Scope::Label("a/b c".into()), ""),
            Key::new(Scope::Phrase("Vida / {n} máx.".into()), ""),
            Key::new(Scope::Caption("subject-deck".into()), ""),
            Key::new(Scope::Title("intrepido".into()), "custo"),
            Key::new(Scope::Card("rei-frixo".into()), "levels.0.ability.text"),
        ] {
            assert_eq!(Key::parse(&key.to_string()), Some(key));
        }
        assert_eq!(Key::parse("nothing"), None);
        assert_eq!(Key::parse("cards/x"), None);
    }

    #[test]
    fn tokens_are_the_braced_words_sorted() {
        assert_eq!(
            tokens("Role {dice:red:2} e {AC}; {AC} de novo, {não token} {}"),
            vec!["{AC}", "{AC}", "{dice:red:2}"]
        );
        assert_eq!(tokens("{{AC} {x"), vec!["{AC}"]);
        assert!(tokens("sem nada").is_empty());
    }

    #[test]
    fn hashes_are_short_and_stable() {
        assert_eq!(source_hash("abc"), "ba7816bf8f01cfea");
        assert_ne!(source_hash("abc"), source_hash("abd"));
    }
}
