//! Keys that group cards: field values written as strings no two tuples
//! share, interned into small integers a deck check compares.

use std::borrow::Borrow;

use serde_json::Value;

use super::filter::{field_value, reserved_str};
use crate::validate::RawCard;

/// Strings numbered in order of first appearance: groups and keys become
/// small integers a deck check compares without hashing.
#[derive(Default)]
pub(super) struct Interner {
    ids: foldhash::HashMap<String, u32>,
    /// Each number's display name.
    pub(super) names: Vec<String>,
}

impl Interner {
    /// The number of `key`, `name` giving its display name the first time.
    pub(super) fn intern(&mut self, key: &str, name: impl FnOnce() -> String) -> u32 {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let id = u32::try_from(self.names.len()).expect("fewer than 2^32 groups");
        self.ids.insert(key.to_owned(), id);
        self.names.push(name());
        id
    }
}

/// A dotted field name as path segments.
pub(super) fn path(field: &str) -> Vec<String> {
    field.split('.').map(str::to_owned).collect()
}

/// A value as words: strings bare, the rest as JSON.
pub(super) fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A hashable key for a tuple of field values (numbers compared by value).
pub(super) fn key_of<V: Borrow<Value>>(values: &[Option<V>]) -> String {
    let mut key = String::new();
    write_key(values, &mut key);
    key
}

/// Appends the key of `values` ([`key_of`]) to `out`: each value tagged by
/// its type, strings with their length, so that no two tuples share a key.
pub(super) fn write_key<V: Borrow<Value>>(values: &[Option<V>], out: &mut String) {
    use std::fmt::Write;
    for v in values {
        // Writing into a String cannot fail.
        let _ = match v.as_ref().map(Borrow::borrow) {
            None => write!(out, "0;"),
            Some(Value::String(s)) => {
                write_string_key(s, out);
                Ok(())
            }
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) => write!(out, "n{f};"),
                None => write!(out, "n{n};"),
            },
            Some(other) => write!(out, "j{other};"),
        };
    }
}

/// Appends the key of `card`'s value at `path` to `out`, as [`write_key`]
/// does, without copying a reserved field into a value first.
pub(super) fn write_field_key(card: &RawCard, path: &[String], out: &mut String) {
    match reserved_str(card, path) {
        Some(s) => write_string_key(s, out),
        None => write_key(&[field_value(card, path)], out),
    }
}

/// Appends the key of a string value (see [`write_key`]).
fn write_string_key(s: &str, out: &mut String) {
    use std::fmt::Write;
    out.push('s');
    // Writing into a String cannot fail.
    let _ = write!(out, "{}", s.len());
    out.push(':');
    out.push_str(s);
    out.push(';');
}

/// The display name of `card`'s value at `path` (`-` when it has none), as
/// [`scalar_text`] words it.
pub(super) fn field_text(card: &RawCard, path: &[String]) -> String {
    if let Some(s) = reserved_str(card, path) {
        return s.to_owned();
    }
    field_value(card, path)
        .as_deref()
        .map_or("-".into(), scalar_text)
}

/// A group as words, such as: element `fire`.
pub(super) fn describe_group<V: Borrow<Value>>(fields: &[String], values: &[Option<V>]) -> String {
    fields
        .iter()
        .zip(values)
        .map(|(f, v)| {
            let text = v.as_ref().map_or("-".into(), |v| scalar_text(v.borrow()));
            format!("{f} `{text}`")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
