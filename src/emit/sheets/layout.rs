//! The default face's blocks, laid out from the kind's schema: the type
//! line (choices and references), the art, stat badges (integers with a
//! title), the text box (other text, then anything else as a list) and
//! flavour text. Every value is the one a player reads.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::validate::display::{FaceField, Role};

/// One titled value.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// The field's title.
    pub title: String,
    /// Its display value.
    pub value: Value,
}

/// The blocks of a card's default face.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Layout {
    /// The type line after the kind's name: each choice or reference.
    pub tags: Vec<String>,
    /// The URL of the card's art, if a field with `x-carta-art` names one.
    pub art: Option<String>,
    /// Stat badges.
    pub stats: Vec<Entry>,
    /// Rules text, in schema order.
    pub text: Vec<Entry>,
    /// Whether the text box prints each text's title (more than one text).
    pub titled: bool,
    /// Every other field (lists, tables, booleans), by title.
    pub other: Map<String, Value>,
    /// Flavour text.
    pub flavor: Vec<String>,
    /// Codes for the footer: short text without spaces (serial numbers).
    pub codes: Vec<String>,
}

/// Lays out a card's display `fields` by its kind's `face` fields; `images`
/// are the card's copied art by field.
pub(super) fn layout(
    face: &[FaceField],
    fields: &Map<String, Value>,
    images: &BTreeMap<String, String>,
) -> Layout {
    let mut out = Layout::default();
    for f in face {
        let Some(value) = fields.get(&f.key) else {
            continue;
        };
        // A field listed as art in the kind's `print` table is art too.
        if f.role != Role::Art && images.contains_key(&f.key) {
            out.art = out.art.or_else(|| images.get(&f.key).cloned());
            continue;
        }
        match f.role {
            Role::Art => {
                if out.art.is_none() {
                    out.art = images.get(&f.key).cloned();
                }
            }
            Role::Tag => out.tags.push(plain(value)),
            Role::Stat => out.stats.push(Entry {
                title: f.title.clone(),
                value: value.clone(),
            }),
            Role::Text => match value.as_str() {
                Some(s) if s.len() <= 24 && !s.contains(char::is_whitespace) => {
                    out.codes.push(s.to_owned());
                }
                Some(_) => out.text.push(Entry {
                    title: f.title.clone(),
                    value: value.clone(),
                }),
                None => {
                    out.other.insert(f.title.clone(), value.clone());
                }
            },
            Role::Flavor => out.flavor.push(plain(value)),
            // A flag reads as its title when set, and not at all when not.
            Role::Other if value.is_boolean() => {
                if value == &Value::Bool(true) {
                    out.tags.push(f.title.clone());
                }
            }
            Role::Other => {
                out.other.insert(f.title.clone(), value.clone());
            }
        }
    }
    // Fields the schema does not list (it allows more) still print.
    for (key, value) in fields {
        if !face.iter().any(|f| f.key == *key) && !images.contains_key(key) {
            out.other.insert(key.replace('_', " "), value.clone());
        }
    }
    out.titled = out.text.len() > 1;
    out
}

/// A scalar or a list of scalars as one line of text.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(plain).collect::<Vec<_>>().join(", "),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_go_to_their_blocks() {
        let f = |key: &str, title: &str, role| FaceField {
            key: key.into(),
            title: title.into(),
            role,
        };
        let face = [
            f("cost", "Custo", Role::Stat),
            f("class", "Classe", Role::Tag),
            f("effect", "Efeito", Role::Text),
            f("quote", "Citação", Role::Flavor),
            f("art", "Arte", Role::Art),
            f("tags", "Marcas", Role::Other),
            f("serial", "Série", Role::Text),
            f("unique", "Único", Role::Other),
        ];
        let fields = json!({"cost": 2, "class": "Guardião", "effect": "Cura {AC}.", "quote": "…",
            "art": "a.png", "tags": ["x"], "serial": "KW-1", "unique": true, "extra": 1});
        let images = BTreeMap::from([("art".to_owned(), "img/1.png".to_owned())]);
        let l = layout(&face, fields.as_object().unwrap(), &images);
        assert_eq!(l.tags, ["Guardião", "Único"]);
        assert_eq!(l.codes, ["KW-1"]);
        assert_eq!(l.stats[0].title, "Custo");
        assert_eq!(l.text[0].value, "Cura {AC}.");
        assert!(!l.titled);
        assert_eq!(l.flavor, ["…"]);
        assert_eq!(l.art.as_deref(), Some("img/1.png"));
        assert_eq!(l.other.keys().collect::<Vec<_>>(), ["Marcas", "extra"]);
    }
}
