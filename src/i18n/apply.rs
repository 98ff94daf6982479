//! A game in one language: its manifest and cards with every translated
//! string put in, falling back to the source text where a translation is
//! missing, and the list of what fell back (for the sheets' cover).

use serde_json::Value;

use super::sources::replace;
use super::{Catalog, Key, Scope, Sources};
use crate::config::Manifest;
use crate::validate::RawCard;

/// A game's strings in one language.
#[derive(Debug, Clone)]
pub struct Localized {
    /// The manifest with translated names and descriptions.
    pub manifest: Manifest,
    /// The cards with translated names and fields, in pool order.
    pub cards: Vec<RawCard>,
}

/// The game of `manifest` and `cards` in `lang`: with `catalog`'s
/// translations where it has them, the source text elsewhere. With no
/// catalog everything is as written.
pub fn localize<'a>(
    lang: &str,
    manifest: &Manifest,
    cards: impl Iterator<Item = &'a RawCard>,
    sources: &Sources,
    catalog: Option<&Catalog>,
) -> Localized {
    let mut out = Localized {
        manifest: manifest.clone(),
        cards: cards.cloned().collect(),
    };
    let Some(catalog) = catalog else {
        if lang != manifest.language {
            lang.clone_into(&mut out.manifest.language);
        }
        return out;
    };
    let text = |key: &Key| catalog.get(key).map(|e| e.text.clone());
    lang.clone_into(&mut out.manifest.language);
    out.manifest.texts_mut(&mut |section, id, field, s| {
        if let Some(t) = Key::in_manifest(section, id, field).and_then(|k| text(&k)) {
            *s = t;
        }
    });
    for card in &mut out.cards {
        let scope = Scope::Card(card.id.clone());
        // A card the catalog does not name stays as it is, its fields not
        // unpacked and packed again (most cards of a large game).
        if !catalog.has_scope(&scope) {
            continue;
        }
        let strings = sources.card_strings(card);
        if let Some(t) = text(&Key::new(scope.clone(), "name")) {
            card.name = t;
        }
        let mut fields = Value::Object(card.take_all_fields());
        for (field, _, is_name) in strings {
            if let (false, Some(t)) = (is_name, text(&Key::new(scope.clone(), field.clone()))) {
                replace(&mut fields, &field, &t);
            }
        }
        if let Value::Object(map) = fields {
            card.set_all_fields(map);
        }
    }
    out
}

/// The keys of the strings of `sources` that keep their source text in
/// `lang` (`cards/x/effect`): those `catalog` lacks, or, with no catalog,
/// every one in a language other than `source`'s. Only the sheets' cover
/// lists them, so a localized game does not carry them.
pub fn untranslated(
    lang: &str,
    source: &Manifest,
    sources: &Sources,
    catalog: Option<&Catalog>,
) -> Vec<String> {
    let keys = sources.strings.keys();
    match catalog {
        Some(catalog) => keys
            .filter(|k| catalog.get(k).is_none())
            .map(Key::to_string)
            .collect(),
        None if lang != source.language => keys.map(Key::to_string).collect(),
        None => Vec::new(),
    }
}
