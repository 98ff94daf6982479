//! A card's fields as an emitter reads a few of them by name: borrowed
//! from the card's packed bytes, without building the map of every field.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::bundle::{self, MapRef, ValueRef};
use crate::validate::RawCard;

/// A card's fields, read one at a time.
pub(crate) enum Fields<'a> {
    /// Its packed fields, read in place.
    Packed(MapRef<'a>),
    /// Its fields as a map: a card that keeps them unpacked, or whose
    /// packed fields a bundle could not hold.
    Json(Cow<'a, Map<String, Value>>),
}

impl<'a> Fields<'a> {
    /// The fields of `card`.
    pub(crate) fn of(card: &'a RawCard) -> Self {
        match card.packed.as_ref().and_then(bundle::packed_map) {
            Some(map) => Fields::Packed(map),
            None => Fields::Json(card.all_fields()),
        }
    }

    /// Field `key`, if it is a string.
    pub(crate) fn str(&self, key: &str) -> Option<&str> {
        match self {
            // Packed fields' strings are UTF-8 (packed from Rust strings,
            // or checked when a cache entry is decoded), so reading one
            // cannot fail.
            Fields::Packed(map) => map.get(key).ok()??.as_str(),
            Fields::Json(map) => map.get(key)?.as_str(),
        }
    }

    /// Calls `f` with every string the fields hold (not their keys), in
    /// order, each field's depth first.
    pub(crate) fn strings(&self, f: &mut impl FnMut(&str)) {
        match self {
            Fields::Packed(map) => map.iter().flatten().for_each(|(_, v)| packed_strings(v, f)),
            Fields::Json(map) => map.values().for_each(|v| json_strings(v, f)),
        }
    }

    /// Fields `keys` as JSON, in the order of `keys`: packed fields are
    /// walked once, however many keys are asked for.
    pub(crate) fn pick(&self, keys: &[impl AsRef<str>]) -> Vec<Option<Value>> {
        match self {
            Fields::Packed(map) => {
                let mut out = vec![None; keys.len()];
                for (key, value) in map.iter().flatten() {
                    if let Some(i) = keys.iter().position(|k| k.as_ref() == key)
                        && out[i].is_none()
                    {
                        out[i] = value.to_json().ok();
                    }
                }
                out
            }
            Fields::Json(map) => keys.iter().map(|k| map.get(k.as_ref()).cloned()).collect(),
        }
    }
}

/// [`Fields::strings`] of one packed value (nesting at most
/// [`MAX_DEPTH`](crate::bundle::MAX_DEPTH) levels, as checked).
fn packed_strings(v: ValueRef<'_>, f: &mut impl FnMut(&str)) {
    match v {
        ValueRef::Str(s) => f(s),
        ValueRef::Array(items) => items.iter().flatten().for_each(|i| packed_strings(i, f)),
        ValueRef::Map(map) => map.iter().flatten().for_each(|(_, i)| packed_strings(i, f)),
        _ => {}
    }
}

/// [`Fields::strings`] of one value of a map.
fn json_strings(v: &Value, f: &mut impl FnMut(&str)) {
    match v {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter().for_each(|i| json_strings(i, f)),
        Value::Object(map) => map.values().for_each(|i| json_strings(i, f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::PackedFields;

    fn card(fields: &Value, packed: bool) -> RawCard {
        let fields = fields.as_object().unwrap().clone();
        RawCard {
            id: "c".into(),
            kind: "k".into(),
            name: "C".into(),
            copies: None,
            errata: Vec::new(),
            packed: packed.then(|| PackedFields::pack(&fields)),
            fields: if packed { Map::new() } else { fields },
            file: crate::diag::FileId(0),
            header: 0..0,
            id_span: 0..0,
            refs: Vec::new(),
            names: 0,
        }
    }

    #[test]
    fn packed_fields_read_in_place_as_their_map_reads() {
        let fields = serde_json::json!({
            "effect": "Causa {dano} 2", "power": 3, "art": {"src": "a.png", "w": 2.5},
            "tags": ["x", "Guardião"]
        });
        for packed in [true, false] {
            let card = card(&fields, packed);
            let read = Fields::of(&card);
            assert_eq!(matches!(read, Fields::Packed(_)), packed);
            assert_eq!(read.str("effect"), Some("Causa {dano} 2"));
            assert_eq!(read.str("power"), None, "not a string");
            assert_eq!(read.str("missing"), None);
            for key in ["power", "art", "tags", "effect"] {
                assert_eq!(read.pick(&[key])[0].as_ref(), fields.get(key), "{key}");
            }
            assert_eq!(read.pick(&["missing"]), [None]);
            let keys = ["tags", "missing", "power", "art"];
            let want: Vec<_> = keys.iter().map(|k| fields.get(*k).cloned()).collect();
            assert_eq!(read.pick(&keys), want);
            let mut strings = Vec::new();
            read.strings(&mut |s| strings.push(s.to_owned()));
            assert_eq!(strings, ["Causa {dano} 2", "a.png", "x", "Guardião"]);
        }
    }
}
