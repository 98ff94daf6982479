//! From a JSON Schema instance path back to the TOML source: the span of the
//! value (or of its key) that an error is about.

use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diag::Span;

/// Where an instance path leads in a TOML tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The span of the value at the path (or of the deepest value found).
    pub value: Span,
    /// The span of the key that names the value, when the value is a table entry.
    pub key: Option<Span>,
    /// The path as a person reads it: `levels[1].damage[0].color`.
    pub display: String,
}

/// Splits a JSON pointer (`/levels/0/damage`) into unescaped segments.
pub(crate) fn segments(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Calls `f` with every string among `fields` (nested in tables and
/// arrays too) and its JSON pointer (`/levels/0/text`).
pub(crate) fn each_string(fields: &Map<String, Value>, f: &mut dyn FnMut(&str, &str)) {
    fn walk(v: &Value, pointer: &mut String, f: &mut dyn FnMut(&str, &str)) {
        let len = pointer.len();
        match v {
            Value::String(s) => f(pointer, s),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    pointer.push_str(&format!("/{i}"));
                    walk(item, pointer, f);
                    pointer.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    pointer.push('/');
                    pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    walk(item, pointer, f);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut pointer = String::new();
    for (k, v) in fields {
        pointer.push('/');
        pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
        walk(v, &mut pointer, f);
        pointer.clear();
    }
}

/// Follows `pointer` from `root` (a card's table, whose own span is `root_span`).
/// Stops at the deepest node that exists, so an error about a missing child
/// still points at its parent.
pub fn locate(root: &DeTable<'_>, root_span: Span, pointer: &str) -> Located {
    let mut located = Located {
        value: root_span,
        key: None,
        display: String::new(),
    };
    let mut table = Some(root);
    let mut array: Option<&[Spanned<DeValue<'_>>]> = None;
    for seg in segments(pointer) {
        let next = if let Some(t) = table {
            t.iter()
                .find(|(k, _)| k.get_ref().as_ref() == seg)
                .map(|(k, v)| {
                    if !located.display.is_empty() {
                        located.display.push('.');
                    }
                    located.display.push_str(&display_key(&seg));
                    (Some(k.span()), v)
                })
        } else if let Some(items) = array {
            seg.parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
                .map(|v| {
                    located.display.push_str(&format!("[{seg}]"));
                    (None, v)
                })
        } else {
            None
        };
        let Some((key, value)) = next else { break };
        located.key = key;
        located.value = value.span();
        table = value.get_ref().as_table();
        array = value.get_ref().as_array().map(|a| &a[..]);
    }
    located
}

/// A key as TOML would write it: bare when it can be, quoted otherwise.
pub(crate) fn display_key(key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if bare {
        key.to_owned()
    } else {
        format!("{key:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;

    fn card_of(text: &str) -> (toml::de::DeTable<'_>, Span) {
        let (doc, ok) = crate::load::parse_toml(FileId(0), text, &mut Vec::new());
        assert!(ok);
        let (_, cards) = doc
            .get_ref()
            .iter()
            .find(|(k, _)| k.get_ref() == "card")
            .unwrap();
        let first = cards.get_ref().as_array().unwrap()[0].clone();
        let span = first.span();
        (first.into_inner().as_table().unwrap().clone(), span)
    }

    const CARD: &str = "[[card]]\nid = \"rei-frixo\"\nhealth = \"x\"\n\n[[card.levels]]\nlevel = 1\ndamage = [{ color = \"purple\", count = 1 }]\n\n[[card.levels]]\nlevel = 2\n";

    fn text_at(span: &Span) -> &'static str {
        &CARD[span.clone()]
    }

    #[test]
    fn points_at_values_and_keys() {
        let (card, span) = card_of(CARD);
        let at = locate(&card, span.clone(), "/health");
        assert_eq!(text_at(&at.value), "\"x\"");
        assert_eq!(text_at(at.key.as_ref().unwrap()), "health");
        assert_eq!(at.display, "health");
    }

    #[test]
    fn walks_arrays_of_tables_and_inline_tables() {
        let (card, span) = card_of(CARD);
        let at = locate(&card, span, "/levels/0/damage/0/color");
        assert_eq!(text_at(&at.value), "\"purple\"");
        assert_eq!(at.display, "levels[0].damage[0].color");
    }

    #[test]
    fn stops_at_the_deepest_existing_node() {
        let (card, span) = card_of(CARD);
        let at = locate(&card, span, "/levels/1/health");
        assert_eq!(at.display, "levels[1]");
        // An array-of-tables element spans its `[[…]]` header.
        assert_eq!(text_at(&at.value), "[[card.levels]]");
        assert_eq!(at.value.start, CARD.rfind("[[card.levels]]").unwrap());
    }

    #[test]
    fn unescapes_pointer_segments() {
        assert_eq!(segments("/a~1b/c~0d/0"), vec!["a/b", "c~d", "0"]);
        assert_eq!(display_key("magic_resistance"), "magic_resistance");
        assert_eq!(display_key("with space"), "\"with space\"");
    }
}
