//! A card's published history: its `[[card.errata]]` entries, a reserved
//! field every game accepts, read and checked by carta itself (a kind's
//! schema never sees it), so that no game declares it.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diag::{Diagnostic, FileId, Span};
use crate::load::table_to_json;
use crate::suggest;

/// The card key that holds the errata entries.
pub const ERRATA: &str = "errata";

/// The keys an errata entry may hold.
const ENTRY_KEYS: [&str; 4] = ["version", "date", "note", "was"];

/// One published change of a card: the version and date that published
/// it, what changed, and the values the change replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Erratum {
    /// The version of the game that published the change (`1.1`).
    pub version: String,
    /// The day it was published, `YYYY-MM-DD`.
    pub date: String,
    /// What changed, in the game's language; empty when not written.
    #[serde(default)]
    pub note: String,
    /// The values the change replaced, by field (`name` or a field of the
    /// card), as JSON; empty when not written.
    #[serde(default)]
    pub was: Map<String, Value>,
}

/// Orders two versions written as dot-separated numbers (`1.10` after
/// `1.9`, `2` equal to `2.0`), as [`is_version`] accepts them.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let parts = |v: &str| -> Vec<u64> {
        let mut p: Vec<u64> = v.split('.').map(|n| n.parse().unwrap_or(0)).collect();
        while p.len() > 1 && p.last() == Some(&0) {
            p.pop();
        }
        p
    };
    parts(a).cmp(&parts(b))
}

/// The version of a card's current text: its latest erratum's, or `None`
/// for a card never changed since it was first published.
pub fn current_version(errata: &[Erratum]) -> Option<&str> {
    errata
        .iter()
        .map(|e| e.version.as_str())
        .max_by(|a, b| compare_versions(a, b))
}

/// Whether a card with these errata changed after `version`.
pub fn changed_since(errata: &[Erratum], version: &str) -> bool {
    errata
        .iter()
        .any(|e| compare_versions(&e.version, version) == Ordering::Greater)
}

/// Whether `v` is a version as errata write it: numbers joined by dots.
pub fn is_version(v: &str) -> bool {
    !v.is_empty()
        && v.split('.')
            .all(|n| !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `d` is a calendar date written `YYYY-MM-DD`.
pub fn is_date(d: &str) -> bool {
    let b = d.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = d.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let (Some(y), Some(m), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// Reads a card's `errata` value, reporting every problem at its span;
/// the entries that are whole are kept.
pub(super) fn read_errata(
    file: FileId,
    value: &Spanned<DeValue<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Erratum> {
    let Some(entries) = value.get_ref().as_array() else {
        diags.push(type_error(
            file,
            value,
            "`errata` must be an array of tables",
            "write each erratum as its own `[[card.errata]]` table after the card",
        ));
        return Vec::new();
    };
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let Some(table) = entry.get_ref().as_table() else {
            diags.push(type_error(
                file,
                entry,
                "an erratum must be a table",
                "write `{ version = \"1.1\", date = \"2025-03-01\" }` or a `[[card.errata]]` table",
            ));
            continue;
        };
        if let Some(e) = read_entry(file, entry.span(), table, diags) {
            out.push(e);
        }
    }
    out
}

/// One entry, when its version and date are valid.
fn read_entry(
    file: FileId,
    at: Span,
    table: &DeTable<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Erratum> {
    let get = |name: &str| {
        table
            .iter()
            .find(|(k, _)| k.get_ref() == name)
            .map(|(_, v)| v)
    };
    for (key, _) in table {
        let key_name: &str = key.get_ref();
        if !ENTRY_KEYS.contains(&key_name) {
            diags.push(
                Diagnostic::error(
                    "card::errata-key",
                    format!("an erratum has no field `{key_name}`"),
                )
                .at(file, key.span(), "unknown field")
                .with_help(suggest::help(key_name, ENTRY_KEYS, "an erratum holds")),
            );
        }
    }
    let version = required(file, &at, ("version", get("version")), diags)
        .and_then(|v| read_version(file, v, diags));
    let date =
        required(file, &at, ("date", get("date")), diags).and_then(|v| read_date(file, v, diags));
    let note = read_note(file, get("note"), diags);
    let was = read_was(file, get("was"), diags);
    Some(Erratum {
        version: version?,
        date: date?,
        note: note?,
        was: was?,
    })
}

/// A key every erratum holds, `version` or `date`: its value, or the
/// report that it is missing.
fn required<'v, 'i>(
    file: FileId,
    at: &Span,
    (key, value): (&str, Option<&'v Spanned<DeValue<'i>>>),
    diags: &mut Vec<Diagnostic>,
) -> Option<&'v Spanned<DeValue<'i>>> {
    if value.is_none() {
        let (code, help) = if key == "version" {
            (
                "card::errata-version",
                "add the version that published the change, such as `version = \"1.1\"`",
            )
        } else {
            (
                "card::errata-date",
                "add the day the change was published, such as `date = 2025-03-01`",
            )
        };
        diags.push(
            Diagnostic::error(code, format!("this erratum has no `{key}`"))
                .at(file, at.clone(), format!("`{key}` is missing"))
                .with_help(help),
        );
    }
    value
}

/// An erratum's `version`: numbers joined by dots, as a string.
fn read_version(
    file: FileId,
    v: &Spanned<DeValue<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    match v.get_ref().as_str() {
        Some(s) if is_version(s) => Some(s.to_owned()),
        Some(s) => {
            diags.push(
                Diagnostic::error("card::errata-version", format!("`{s}` is not a version"))
                    .at(file, v.span(), "not a version")
                    .with_help(
                        "a version is numbers joined by dots, such as `\"1.1\"` or `\"2.0.1\"`",
                    ),
            );
            None
        }
        None => {
            diags.push(type_error(
                file,
                v,
                "an erratum's `version` must be a string",
                "quote it, such as `version = \"1.1\"`",
            ));
            None
        }
    }
}

/// An erratum's `note`: empty when not written.
fn read_note(
    file: FileId,
    value: Option<&Spanned<DeValue<'_>>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    optional(
        value,
        |v| {
            v.get_ref().as_str().map(str::to_owned).ok_or_else(|| {
                boxed_type_error(
                    file,
                    v,
                    "an erratum's `note` must be a string",
                    "say in the game's language what the change was",
                )
            })
        },
        diags,
    )
}

/// An erratum's `was`, the values it replaced: empty when not written.
fn read_was(
    file: FileId,
    value: Option<&Spanned<DeValue<'_>>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Map<String, Value>> {
    optional(
        value,
        |v| match v.get_ref().as_table().map(table_to_json) {
            Some(Ok(map)) => Ok(map),
            Some(Err((span, message))) => Err(Box::new(
                Diagnostic::error("schema::type", message).at(file, span, "here"),
            )),
            None => Err(boxed_type_error(
                file,
                v,
                "an erratum's `was` must be a table",
                "give the replaced values by field, such as `was = { effect = \"…\" }`",
            )),
        },
        diags,
    )
}

/// An optional key's value: its default when not written, else what
/// `read` makes of it, or `None` with `read`'s diagnostic reported.
fn optional<T: Default>(
    value: Option<&Spanned<DeValue<'_>>>,
    read: impl FnOnce(&Spanned<DeValue<'_>>) -> Result<T, Box<Diagnostic>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    let Some(v) = value else {
        return Some(T::default());
    };
    read(v).map_err(|d| diags.push(*d)).ok()
}

/// An erratum's `date`: a `YYYY-MM-DD` string or a TOML local date.
fn read_date(
    file: FileId,
    v: &Spanned<DeValue<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let text = match v.get_ref() {
        DeValue::String(s) => s.to_string(),
        DeValue::Datetime(d) if d.time.is_none() && d.offset.is_none() => d.to_string(),
        _ => String::new(),
    };
    if is_date(&text) {
        return Some(text);
    }
    diags.push(
        Diagnostic::error(
            "card::errata-date",
            "an erratum's `date` must be a day written YYYY-MM-DD",
        )
        .at(file, v.span(), "not a YYYY-MM-DD date")
        .with_help("write the day the change was published, such as `date = 2025-03-01`"),
    );
    None
}

fn boxed_type_error(
    file: FileId,
    value: &Spanned<DeValue<'_>>,
    message: &str,
    help: &str,
) -> Box<Diagnostic> {
    Box::new(type_error(file, value, message, help))
}

fn type_error(file: FileId, value: &Spanned<DeValue<'_>>, message: &str, help: &str) -> Diagnostic {
    Diagnostic::error(
        "card::errata-type",
        format!("{message}, but it is {}", value.get_ref().type_str()),
    )
    .at(file, value.span(), "wrong type")
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_number() {
        assert_eq!(compare_versions("1.10", "1.9"), Ordering::Greater);
        assert_eq!(compare_versions("2", "2.0"), Ordering::Equal);
        assert_eq!(compare_versions("1.0.1", "1.1"), Ordering::Less);
    }

    #[test]
    fn dates_are_calendar_days() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("24-01-01"));
        assert!(!is_date("2024-1-01"));
    }

    #[test]
    fn versions_are_dotted_numbers() {
        assert!(is_version("1.1") && is_version("2"));
        assert!(!is_version("v1") && !is_version("1..2") && !is_version(""));
    }

    #[test]
    fn the_current_version_is_the_latest_erratum_and_changed_since_is_strict() {
        let e = |v: &str| Erratum {
            version: v.into(),
            date: "2025-01-01".into(),
            note: String::new(),
            was: Map::new(),
        };
        let errata = [e("1.2"), e("1.10")];
        assert_eq!(current_version(&errata), Some("1.10"));
        assert!(changed_since(&errata, "1.9"));
        assert!(!changed_since(&errata, "1.10"));
        assert_eq!(current_version(&[]), None);
    }
}
