//! Display values as data: the schema keywords that say how a card's
//! values read on a printed card.
//!
//! - `x-carta-labels`, beside an `enum` (or `const`): the text a player
//!   reads for each value (`{"escorpiao": "Escorpião"}`).
//! - `x-carta-art: true` on a string field: the field names the card's art.
//! - `x-carta-flavor: true` on a string field: flavour text, printed in
//!   italics by the default face.
//! - `x-carta-focus: true` on a string field: the focal point of the card's
//!   art (`"50% 20%"`), kept in view when the art is cropped to its box.
//! - a string field whose `pattern` admits no whitespace (anchored at both
//!   ends, as `^[A-Z]{2}-[0-9]{3}$`) holds codes, such as serial numbers,
//!   which the default face prints in its footer; any other string is text.
//!
//! They are checked when a schema file is read (a malformed keyword is a
//! diagnostic at it) and collected per kind when the schema is compiled.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::documents::{PathStep, REF_KEYWORD, json_pointer_span};
use crate::diag::{Diagnostic, Diagnostics, FileId};
use crate::suggest;

/// The keyword that gives an enum's values their printed labels.
pub const LABELS_KEYWORD: &str = "x-carta-labels";
/// The keyword that marks a string field naming the card's art.
pub const ART_KEYWORD: &str = "x-carta-art";
/// The keyword that marks a string field as flavour text.
pub const FLAVOR_KEYWORD: &str = "x-carta-flavor";
/// The keyword that marks a string field as the art's focal point.
pub const FOCUS_KEYWORD: &str = "x-carta-focus";

/// Where in a card of some kind labelled values stand, and their labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelPattern {
    /// The path from the card's root to the values.
    pub path: Vec<PathStep>,
    /// Value (as [`scalar_key`] writes it) → label.
    pub labels: Arc<BTreeMap<String, String>>,
}

/// How the default face prints a top-level field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The card's art (`x-carta-art`).
    Art,
    /// Flavour text (`x-carta-flavor`), in italics.
    Flavor,
    /// The art's focal point (`x-carta-focus`): not printed as text.
    Focus,
    /// An integer with a title (or an integer-or-symbol): a stat badge.
    Stat,
    /// A choice (an enum): on the type line.
    Tag,
    /// A card reference: printed with its field's title.
    Ref,
    /// A code (a serial number): a string whose `pattern` admits no
    /// whitespace; in the footer, unless a value holds markup.
    Code,
    /// Other text: the text box.
    Text,
    /// Anything else (lists, tables, booleans): a compact list in the text box.
    Other,
}

/// A top-level field of a kind, as the default face lays it out.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FaceField {
    /// The field's key.
    pub key: String,
    /// Its `title`, or the key with `_` as spaces.
    pub title: String,
    /// Where it goes.
    pub role: Role,
}

/// A scalar as the key of a label map: strings as they are, numbers and
/// booleans as JSON writes them.
pub fn scalar_key(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Replaces every scalar at `path` in `value` for which `f` gives text.
pub fn replace_at(value: &mut Value, path: &[PathStep], f: &dyn Fn(&Value) -> Option<String>) {
    match path.split_first() {
        None => {
            if let Some(text) = f(value) {
                *value = Value::String(text);
            }
        }
        Some((PathStep::Key(k), rest)) => {
            if let Some(v) = value.as_object_mut().and_then(|m| m.get_mut(k)) {
                replace_at(v, rest, f);
            }
        }
        Some((PathStep::AnyItem, rest)) => {
            for v in value.as_array_mut().into_iter().flatten() {
                replace_at(v, rest, f);
            }
        }
        Some((PathStep::AnyKey, rest)) => {
            for v in value
                .as_object_mut()
                .into_iter()
                .flat_map(|m| m.values_mut())
            {
                replace_at(v, rest, f);
            }
        }
    }
}

/// The labels of a schema object, if it has a well-formed `x-carta-labels`.
pub(super) fn labels_of(obj: &Map<String, Value>) -> Option<BTreeMap<String, String>> {
    obj.get(LABELS_KEYWORD)?
        .as_object()?
        .iter()
        .map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .collect()
}

/// The role of a field whose (resolved) schema objects are `parts`.
pub(super) fn role_of(parts: &[&Map<String, Value>]) -> Role {
    let flag = |key: &str| parts.iter().any(|p| p.get(key) == Some(&Value::Bool(true)));
    let has = |key: &str| parts.iter().any(|p| p.contains_key(key));
    let typed = |t: &str| {
        parts
            .iter()
            .any(|p| p.get("type").and_then(Value::as_str) == Some(t))
    };
    if flag(ART_KEYWORD) {
        Role::Art
    } else if flag(FLAVOR_KEYWORD) {
        Role::Flavor
    } else if flag(FOCUS_KEYWORD) {
        Role::Focus
    } else if typed("integer") && has("title") {
        // Also a number that may be a symbol ("-"): still a stat.
        Role::Stat
    } else if has(REF_KEYWORD) {
        Role::Ref
    } else if has("enum") || has("const") {
        Role::Tag
    } else if typed("string")
        && parts
            .iter()
            .filter_map(|p| p.get("pattern").and_then(Value::as_str))
            .any(admits_no_space)
    {
        Role::Code
    } else if typed("string") {
        Role::Text
    } else {
        Role::Other
    }
}

/// Every character with Unicode's `White_Space` property (what
/// `char::is_whitespace` says yes to).
const SPACES: [char; 25] = [
    '\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}',
    '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}',
    '\u{2009}', '\u{200a}', '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}',
];

/// Whether every string `pattern` (a schema's regular expression) matches
/// is free of whitespace: the pattern is anchored at both ends, and none
/// of its literals and classes holds a whitespace character. A pattern
/// this cannot read (a look-around, a back-reference) is taken as text.
fn admits_no_space(pattern: &str) -> bool {
    use regex_syntax::hir::{Class, Hir, HirKind, Look};
    // Whether every match of `h` starts (`first`) or ends at the string's edge.
    fn anchored(h: &Hir, first: bool) -> bool {
        match h.kind() {
            HirKind::Look(look) => *look == if first { Look::Start } else { Look::End },
            HirKind::Concat(parts) => {
                let edge = if first { parts.first() } else { parts.last() };
                edge.is_some_and(|p| anchored(p, first))
            }
            HirKind::Alternation(alts) => alts.iter().all(|a| anchored(a, first)),
            HirKind::Capture(c) => anchored(&c.sub, first),
            HirKind::Repetition(r) => r.min > 0 && anchored(&r.sub, first),
            HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) => false,
        }
    }
    fn spaced(h: &Hir) -> bool {
        match h.kind() {
            HirKind::Empty | HirKind::Look(_) => false,
            HirKind::Literal(l) => String::from_utf8_lossy(&l.0).contains(char::is_whitespace),
            HirKind::Class(Class::Unicode(c)) => c
                .ranges()
                .iter()
                .any(|r| SPACES.iter().any(|s| (r.start()..=r.end()).contains(s))),
            HirKind::Class(Class::Bytes(c)) => c.ranges().iter().any(|r| {
                SPACES
                    .iter()
                    .any(|&s| u8::try_from(s).is_ok_and(|s| (r.start()..=r.end()).contains(&s)))
            }),
            HirKind::Repetition(r) => spaced(&r.sub),
            HirKind::Capture(c) => spaced(&c.sub),
            HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().any(spaced),
        }
    }
    regex_syntax::Parser::new()
        .parse(pattern)
        .is_ok_and(|h| anchored(&h, true) && anchored(&h, false) && !spaced(&h))
}

/// Reports malformed display keywords anywhere in a schema document.
pub(super) fn check_keywords(
    schema: &Value,
    pointer: &str,
    file: FileId,
    text: &str,
    diags: &mut Diagnostics,
) {
    match schema {
        Value::Object(obj) => {
            if obj.contains_key(LABELS_KEYWORD) {
                check_labels(obj, pointer, file, text, diags);
            }
            for key in [ART_KEYWORD, FLAVOR_KEYWORD, FOCUS_KEYWORD] {
                if obj.get(key).is_some_and(|v| !v.is_boolean()) {
                    let here = format!("{pointer}/{key}");
                    diags.push(
                        Diagnostic::error(
                            "schema::bad-display",
                            format!("`{key}` at `{pointer}` must be `true` or `false`"),
                        )
                        .at(
                            file,
                            json_pointer_span(text, &here),
                            "not a boolean",
                        ),
                    );
                }
            }
            for (key, sub) in obj.iter().filter(|(k, _)| *k != LABELS_KEYWORD) {
                let here = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                check_keywords(sub, &here, file, text, diags);
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                check_keywords(sub, &format!("{pointer}/{i}"), file, text, diags);
            }
        }
        _ => {}
    }
}

/// Checks one entry of an `x-carta-labels` at `here` (shown as `shown`):
/// it labels an allowed value, with non-empty text.
fn check_label(
    key: &str,
    label: &Value,
    values: &[String],
    (here, shown): (&str, &str),
    file: FileId,
    text: &str,
    diags: &mut Diagnostics,
) {
    let error = |message: String| Diagnostic::error("schema::bad-labels", message);
    let key_at = json_pointer_span(
        text,
        &format!("{here}/{}", key.replace('~', "~0").replace('/', "~1")),
    );
    if !values.iter().any(|v| v == key) {
        diags.push(
            error(format!("`{LABELS_KEYWORD}` at `{shown}` labels `{key}`, which is not one of the allowed values"))
                .at(file, key_at.clone(), "not an allowed value")
                .with_help(suggest::help(key, values.iter().map(String::as_str), "allowed values")),
        );
    }
    if label.as_str().is_none_or(|s| s.trim().is_empty()) {
        diags.push(
            error(format!(
                "the label of `{key}` in `{LABELS_KEYWORD}` at `{shown}` must be non-empty text"
            ))
            .at(file, key_at, "not a label")
            .with_help("a label is the text a player reads on the card, e.g. \"Escorpião\""),
        );
    }
}

/// Checks one `x-carta-labels`: an object of non-empty strings beside an
/// `enum` or `const`, with exactly one label per allowed value.
fn check_labels(
    obj: &Map<String, Value>,
    pointer: &str,
    file: FileId,
    text: &str,
    diags: &mut Diagnostics,
) {
    let here = format!("{pointer}/{LABELS_KEYWORD}");
    let at = json_pointer_span(text, &here);
    let shown = if pointer.is_empty() { "/" } else { pointer };
    let error = |message: String| Diagnostic::error("schema::bad-labels", message);
    let Some(labels) = obj.get(LABELS_KEYWORD).and_then(Value::as_object) else {
        diags.push(
            error(format!(
                "`{LABELS_KEYWORD}` at `{shown}` must be an object mapping each value to its label"
            ))
            .at(file, at, "not an object")
            .with_help(r#"write e.g. "x-carta-labels": { "escorpiao": "Escorpião" }"#),
        );
        return;
    };
    let values: Vec<String> = match (obj.get("enum"), obj.get("const")) {
        (Some(Value::Array(items)), _) => items.iter().filter_map(scalar_key).collect(),
        (None, Some(c)) => scalar_key(c).into_iter().collect(),
        _ => {
            diags.push(
                error(format!("`{LABELS_KEYWORD}` at `{shown}` labels no values: it needs an `enum` or `const` beside it"))
                    .at(file, at, "nothing to label")
                    .with_help("put the labels in the same schema object as the `enum` they label"),
            );
            return;
        }
    };
    for (key, label) in labels {
        check_label(key, label, &values, (&here, shown), file, text, diags);
    }
    let missing: Vec<&str> = values
        .iter()
        .filter(|v| !labels.contains_key(*v))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        diags.push(
            error(format!(
                "`{LABELS_KEYWORD}` at `{shown}` has no label for {}",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .at(file, at, "labels missing")
            .with_help("give every allowed value a label, so that no raw value is printed"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn replaces_values_along_a_path() {
        let mut v = json!({"levels": [{"attack": "ac"}, {"attack": "am"}, {"attack": 3}]});
        let path = [
            PathStep::Key("levels".into()),
            PathStep::AnyItem,
            PathStep::Key("attack".into()),
        ];
        replace_at(&mut v, &path, &|x| {
            (x == "ac").then(|| "Corpo a corpo".to_owned())
        });
        assert_eq!(
            v,
            json!({"levels": [{"attack": "Corpo a corpo"}, {"attack": "am"}, {"attack": 3}]})
        );
    }

    #[test]
    fn roles_follow_keywords_and_types() {
        let o = |v: Value| v.as_object().cloned().unwrap();
        let art = o(json!({"type": "string", "x-carta-art": true}));
        let stat = o(json!({"type": "integer", "title": "Custo"}));
        let bare = o(json!({"type": "integer"}));
        let tag = o(json!({"enum": ["a"]}));
        assert_eq!(role_of(&[&art]), Role::Art);
        assert_eq!(role_of(&[&stat]), Role::Stat);
        assert_eq!(role_of(&[&bare]), Role::Other);
        assert_eq!(role_of(&[&tag]), Role::Tag);
        let reference = o(json!({"type": "string", "x-carta-ref": "hero"}));
        assert_eq!(role_of(&[&reference]), Role::Ref);
        let focus = o(json!({"type": "string", "x-carta-focus": true}));
        assert_eq!(role_of(&[&focus]), Role::Focus);
    }

    #[test]
    fn a_string_is_a_code_when_its_pattern_admits_no_whitespace_whatever_its_length() {
        let o = |v: Value| v.as_object().cloned().unwrap();
        let with = |p: &str| role_of(&[&o(json!({"type": "string", "pattern": p}))]);
        for code in [
            "^[A-Z][A-Z0-9]{1,5}-[0-9]{3,4}$",
            "^(KW|ZD)-\\d+$",
            "^a$|^b-[0-9]$",
        ] {
            assert_eq!(with(code), Role::Code, "{code}");
        }
        for text in [
            // Spaces allowed, or anywhere around an unanchored match.
            "^[^{}]*$",
            "^.+$",
            "[A-Z]+",
            "^[A-Z]+",
            "^\\w+ \\w+$",
            "^\\S+\\s?$",
            // Not a regex this reads: text.
            "^(?=a)a$",
        ] {
            assert_eq!(with(text), Role::Text, "{text}");
        }
        // No pattern: text, however short its values are.
        assert_eq!(role_of(&[&o(json!({"type": "string"}))]), Role::Text);
        let every: Vec<char> = (0..=0x10_FFFF)
            .filter_map(char::from_u32)
            .filter(|c| c.is_whitespace())
            .collect();
        assert_eq!(every, SPACES);
    }
}
