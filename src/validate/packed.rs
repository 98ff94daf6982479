//! A card's fields in their compact form: `MessagePack`, the encoding the
//! bundle stores them in. A compile that keeps every field (`carta build`)
//! keeps them this way — a fifth of the memory of the `serde_json` map —
//! and an emitter unpacks a card's fields when it reads them.

use serde_json::{Map, Value};

/// Every field of a card but the reserved ones, `MessagePack`-encoded: a
/// map in the order written, integers and floats kept apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedFields(Box<[u8]>);

impl PackedFields {
    /// Packs `fields`.
    pub fn pack(fields: &Map<String, Value>) -> Self {
        // A map of JSON values always encodes: its keys are strings and no
        // value is anything MessagePack lacks.
        let bytes = rmp_serde::to_vec_named(fields).expect("JSON values encode as MessagePack");
        PackedFields(bytes.into_boxed_slice())
    }

    /// The fields, unpacked.
    pub fn unpack(&self) -> Map<String, Value> {
        rmp_serde::from_slice(&self.0).expect("packed by `PackedFields::pack`")
    }

    /// The encoded map, as a bundle record's `fields` holds it.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_unpack_as_they_were_packed_with_their_order_and_number_types() {
        let fields = serde_json::json!({
            "zeta": 1, "alpha": -2, "speed": 2.0, "text": "Guardião",
            "list": [1, "x", {"deep": [true, null]}], "nested": {"b": 1, "a": 2.5}
        });
        let Value::Object(map) = fields else {
            unreachable!()
        };
        let back = PackedFields::pack(&map).unpack();
        assert_eq!(back, map);
        assert!(back.keys().eq(map.keys()), "order kept");
        assert!(back["zeta"].is_i64() && back["speed"].is_f64());
        assert_eq!(serde_json::to_string(&back["speed"]).unwrap(), "2.0");
    }
}
