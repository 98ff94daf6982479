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

/// Stored as `MessagePack` `bin` by the check cache.
impl serde::Serialize for PackedFields {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for PackedFields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = PackedFields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("packed fields (bytes)")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<PackedFields, E> {
                Ok(PackedFields(v.into()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<PackedFields, E> {
                Ok(PackedFields(v.into_boxed_slice()))
            }
        }
        let packed = d.deserialize_byte_buf(Bytes)?;
        // `unpack` trusts what `pack` made; bytes from elsewhere (a cache
        // entry) must be such a map, or they are refused here.
        rmp_serde::from_slice::<Map<String, Value>>(&packed.0)
            .map_err(|_| serde::de::Error::custom("packed fields that are not a map of fields"))?;
        Ok(packed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_fields_round_trip_through_a_cache_entry_and_refuse_other_bytes() {
        let Value::Object(map) = serde_json::json!({"a": 1, "b": ["x"]}) else {
            unreachable!()
        };
        let packed = PackedFields::pack(&map);
        let stored = rmp_serde::to_vec(&packed).unwrap();
        assert_eq!(
            rmp_serde::from_slice::<PackedFields>(&stored).unwrap(),
            packed
        );
        // bytes that are MessagePack but not a map, and a map cut short
        for bad in [rmp_serde::to_vec(&1).unwrap(), packed.bytes()[..3].to_vec()] {
            let stored = rmp_serde::to_vec(&serde_bytes_of(&bad)).unwrap();
            assert!(rmp_serde::from_slice::<PackedFields>(&stored).is_err());
        }
    }

    /// `bytes` as `MessagePack` `bin`, as a cache entry stores packed fields.
    fn serde_bytes_of(bytes: &[u8]) -> PackedFields {
        PackedFields(bytes.into())
    }

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
