//! Keys that group cards: field values written as strings no two tuples
//! share, interned into small integers a deck check compares.

use std::borrow::Borrow;
use std::sync::Arc;

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
/// does, without copying a reserved field into a value first. Says
/// whether the value may be spelled several ways under one key (a number:
/// `1` and `1.0`).
pub(super) fn write_field_key(card: &RawCard, path: &[String], out: &mut String) -> bool {
    if let Some(s) = reserved_str(card, path) {
        write_string_key(s, out);
        return false;
    }
    let value = field_value(card, path);
    let spelled = value
        .as_deref()
        .is_some_and(|v| !matches!(v, Value::String(_)));
    write_key(&[value], out);
    spelled
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

/// Each pool card's key and how the card's own value reads: what a rule
/// that groups cards by some fields (`copies`, `distinct`, `count … per`)
/// compares, and what its messages quote. A message about a deck quotes
/// the deck's own cards ([`Keyed::words`]), never another card of the
/// pool that shares the key, so a deck's verdict reads only the cards it
/// names.
#[derive(Debug, Clone)]
pub(super) struct Keyed {
    /// Per pool card: its key (cards with the same key group together).
    pub(super) key: Arc<[u32]>,
    /// Per key: the words of the first card with it (or of the rule's own
    /// value, for a key no card has).
    names: Arc<[String]>,
    /// The cards whose own words differ from their key's name (a number
    /// written `1.0` where the key's first card wrote `1`).
    spelled: Arc<foldhash::HashMap<u32, String>>,
}

impl Keyed {
    /// How many keys there are.
    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    /// Pool card `card`'s value, as the card writes it.
    pub(super) fn words(&self, card: u32) -> &str {
        match self.spelled.get(&card) {
            Some(own) => own,
            None => &self.names[self.key[card as usize] as usize],
        }
    }
}

/// Builds a [`Keyed`]: the pool's cards in order, then any keys the rule
/// itself names.
#[derive(Default)]
pub(super) struct KeyedBuilder {
    interner: Interner,
    key: Vec<u32>,
    spelled: foldhash::HashMap<u32, String>,
    /// A key buffer reused for every card.
    buffer: String,
}

impl KeyedBuilder {
    /// Adds the next pool card, keyed by its values at `paths` and worded
    /// by `words`.
    pub(super) fn card(
        &mut self,
        card: &RawCard,
        paths: &[Vec<String>],
        words: impl Fn(&RawCard) -> String,
    ) {
        self.buffer.clear();
        let mut spelled = false;
        for p in paths {
            spelled |= write_field_key(card, p, &mut self.buffer);
        }
        let at = u32::try_from(self.key.len()).expect("fewer than 2^32 cards");
        let mut first = false;
        let k = self.interner.intern(&self.buffer, || {
            first = true;
            words(card)
        });
        if spelled && !first {
            let w = words(card);
            if w != self.interner.names[k as usize] {
                self.spelled.insert(at, w);
            }
        }
        self.key.push(k);
    }

    /// The key of `values` (named by `name` if no card had it).
    pub(super) fn key(&mut self, values: &[Option<Value>], name: impl FnOnce() -> String) -> u32 {
        self.interner.intern(&key_of(values), name)
    }

    /// The keys of every card added.
    pub(super) fn finish(self) -> Keyed {
        Keyed {
            key: self.key.into(),
            names: self.interner.names.into(),
            spelled: Arc::new(self.spelled),
        }
    }
}
