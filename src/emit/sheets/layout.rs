//! The default face's blocks, laid out from the kind's schema: the type
//! line (choices), references with their field's title, the art (cropped
//! to its box about its focal point, or across the whole card), stat
//! badges (integers with a title), the text box (other text, then anything
//! else as a list) and flavour text. Every value is the one a player reads.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::icons::tokens;
use crate::markup::{self, Node};
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
    /// The type line after the kind's name: each choice and set flag
    /// (never the kind's name again).
    pub tags: Vec<String>,
    /// Card references, each with its field's title.
    pub refs: Vec<Entry>,
    /// The URL of the card's art, if a field with `x-carta-art` names one.
    pub art: Option<String>,
    /// The art's focal point as a CSS position (`50% 20%`), from an
    /// `x-carta-focus` field; only values that are positions are kept.
    pub focus: Option<String>,
    /// Whether the art covers the whole card, bleed included
    /// (`[kinds.<k>.print] art = "full-bleed"`).
    pub full_bleed: bool,
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
    /// Codes for the footer (serial numbers): the values of fields whose
    /// schema `pattern` admits no whitespace, unless they hold markup.
    pub codes: Vec<String>,
}

/// What the layout takes from the card's kind besides its fields.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct KindLook<'a> {
    /// The kind's display name, which the type line prints first.
    pub name: &'a str,
    /// Whether its art covers the whole card.
    pub full_bleed: bool,
}

/// Lays out a card's display `fields` by its kind's `face` fields; `images`
/// are the card's copied art by field.
pub(super) fn layout(
    face: &[FaceField],
    fields: &Map<String, Value>,
    images: &BTreeMap<String, String>,
    kind: KindLook<'_>,
) -> Layout {
    let mut out = Layout {
        full_bleed: kind.full_bleed,
        ..Layout::default()
    };
    for f in face {
        let Some(value) = fields.get(&f.key) else {
            continue;
        };
        // A field listed as art in the kind's `print` table is art too.
        if f.role != Role::Art && images.contains_key(&f.key) {
            out.art = out.art.or_else(|| images.get(&f.key).cloned());
            continue;
        }
        if f.role == Role::Art {
            if out.art.is_none() {
                out.art = images.get(&f.key).cloned();
            }
        } else {
            out.place(f, value, kind.name);
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

impl Layout {
    /// Puts field `f`'s `value` in its block (art aside); `kind_name` is
    /// the kind's display name, which the type line already prints.
    fn place(&mut self, f: &FaceField, value: &Value, kind_name: &str) {
        let out = self;
        match f.role {
            Role::Art => {}
            Role::Tag => {
                let tag = plain(value);
                // "Mestre das Trevas · Mestre das Trevas" says it twice.
                if !tag.is_empty() && !same_words(&tag, kind_name) {
                    out.tags.push(tag);
                }
            }
            Role::Ref => out.refs.push(Entry {
                title: f.title.clone(),
                value: Value::String(plain(value)),
            }),
            Role::Focus => out.focus = value.as_str().and_then(position),
            Role::Stat => out.stats.push(Entry {
                title: f.title.clone(),
                value: value.clone(),
            }),
            Role::Code if value.as_str().is_some_and(|s| !has_markup(s)) => {
                out.codes.push(plain(value));
            }
            Role::Text | Role::Code => match value.as_str() {
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
}

/// Whether `text` holds markup a text box draws: a keyword, bold or
/// italics, an escape, an icon token.
fn has_markup(text: &str) -> bool {
    let (nodes, _) = markup::parse(text, &|_| true);
    let plain = match nodes.as_slice() {
        [] => true,
        [Node::Text(t)] => t == text,
        _ => false,
    };
    !plain || !tokens(text).is_empty()
}

/// Whether two display texts are the same words, whatever their case.
fn same_words(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// `text` as a CSS `object-position` when it is one: one or two
/// percentages (0–100) or keywords. Anything else is dropped, so a card's
/// value never writes CSS of its own into the page.
pub(super) fn position(text: &str) -> Option<String> {
    const WORDS: [&str; 5] = ["left", "center", "right", "top", "bottom"];
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.is_empty() || parts.len() > 2 {
        return None;
    }
    let ok = |p: &str| {
        WORDS.contains(&p)
            || p.strip_suffix('%').is_some_and(|n| {
                !n.is_empty()
                    && n.chars().all(|c| c.is_ascii_digit() || c == '.')
                    && n.parse::<f64>().is_ok_and(|v| (0.0..=100.0).contains(&v))
            })
    };
    parts.iter().all(|p| ok(p)).then(|| parts.join(" "))
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
            f("serial", "Série", Role::Code),
            f("unique", "Único", Role::Other),
            f("order", "Ordem", Role::Tag),
            f("hero", "Herói", Role::Ref),
            f("focus", "Foco", Role::Focus),
        ];
        let fields = json!({"cost": 2, "class": "Guardião", "effect": "Cura {AC}.", "quote": "…",
            "art": "a.png", "tags": ["x"], "serial": "KW-1", "unique": true, "extra": 1,
            "order": "MESTRE das trevas", "hero": "Ember", "focus": "50%  20%"});
        let images = BTreeMap::from([("art".to_owned(), "img/1.png".to_owned())]);
        let kind = KindLook {
            name: "Mestre das Trevas",
            full_bleed: true,
        };
        let l = layout(&face, fields.as_object().unwrap(), &images, kind);
        assert_eq!(l.tags, ["Guardião", "Único"], "the kind's name once");
        assert_eq!(l.refs[0].title, "Herói");
        assert_eq!(l.refs[0].value, "Ember");
        assert_eq!(l.focus.as_deref(), Some("50% 20%"));
        assert!(l.full_bleed);
        assert_eq!(l.codes, ["KW-1"]);
        assert_eq!(l.stats[0].title, "Custo");
        assert_eq!(l.text[0].value, "Cura {AC}.");
        assert!(!l.titled);
        assert_eq!(l.flavor, ["…"]);
        assert_eq!(l.art.as_deref(), Some("img/1.png"));
        assert_eq!(l.other.keys().collect::<Vec<_>>(), ["Marcas", "extra"]);
    }
}

#[cfg(test)]
mod code_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_word_rules_text_is_text_and_only_a_code_field_goes_to_the_footer() {
        let f = |key: &str, role| FaceField {
            key: key.into(),
            title: key.into(),
            role,
        };
        let face = [
            f("keyword", Role::Text),
            f("icon", Role::Text),
            f("word", Role::Text),
            f("serial", Role::Code),
            f("marked", Role::Code),
        ];
        let fields = json!({"keyword": "[[guard]]", "icon": "{ATK}", "word": "Flying.",
            "serial": "KW-0012", "marked": "**X**"});
        let l = layout(
            &face,
            fields.as_object().unwrap(),
            &BTreeMap::new(),
            KindLook::default(),
        );
        let text: Vec<&Value> = l.text.iter().map(|e| &e.value).collect();
        assert_eq!(text, ["[[guard]]", "{ATK}", "Flying.", "**X**"]);
        assert_eq!(l.codes, ["KW-0012"]);
        assert!(l.titled);
    }
}

#[cfg(test)]
mod position_tests {
    use super::position;

    #[test]
    fn only_positions_become_css() {
        assert_eq!(position("50% 20%").as_deref(), Some("50% 20%"));
        assert_eq!(position(" top ").as_deref(), Some("top"));
        assert_eq!(position("left 10.5%").as_deref(), Some("left 10.5%"));
        for bad in [
            "",
            "50%;background:url(x)",
            "120% 0%",
            "1 2 3",
            "-5%",
            "%",
            "50px",
        ] {
            assert_eq!(position(bad), None, "{bad}");
        }
    }
}
