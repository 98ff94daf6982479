//! A card's fields in their compact form: `MessagePack`, the encoding the
//! bundle stores them in. A compile that keeps every field (`carta build`)
//! keeps them this way — one buffer per card, where a `serde_json` map
//! holds an allocation per key, value and table — and an emitter unpacks
//! a card's fields when it reads them.

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

    /// Whether a key or string of the fields may hold the ASCII character
    /// `c`: `false` only when no byte of the encoding is `c` (an ASCII
    /// byte in UTF-8 is always that character).
    pub fn may_hold(&self, c: u8) -> bool {
        debug_assert!(c.is_ascii());
        self.0.contains(&c)
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
        // entry) must be such a map, or they are refused here. Walked, not
        // unpacked: a rebuild decodes every card's entry, and building
        // each map only to drop it would allocate a whole pool for nothing.
        rmp_serde::from_slice::<Fields>(&packed.0)
            .map_err(|_| serde::de::Error::custom("packed fields that are not a map of fields"))?;
        Ok(packed)
    }
}

/// A map of fields, checked without being built: it accepts what
/// `Map<String, Value>` accepts, but for byte strings (which `pack`
/// never writes), so whatever it accepts [`PackedFields::unpack`]s.
struct Fields;

/// A field's value, checked as [`Fields`] is.
struct Field;

/// A map key: a string.
struct Key;

impl<'de> serde::Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Top;
        impl<'de> serde::de::Visitor<'de> for Top {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of fields")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Fields, A::Error> {
                Check.visit_map(map).map(|()| Fields)
            }
        }
        d.deserialize_map(Top)
    }
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Check).map(|()| Field)
    }
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Str;
        impl serde::de::Visitor<'_> for Str {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Key, E> {
                Ok(Key)
            }
        }
        d.deserialize_str(Str)
    }
}

/// The visitor behind [`Fields`] and [`Field`]: the shapes a JSON value
/// takes, each visited and dropped.
struct Check;

impl<'de> serde::de::Visitor<'de> for Check {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(Check)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<Field>()?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_entry::<Key, Field>()?.is_some() {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_fields_round_trip_through_a_cache_entry_and_refuse_other_bytes() {
        let Value::Object(map) = serde_json::json!({
            "a": 1, "b": ["x", -3, 2.5, true, {"c": [[]]}], "big": u64::MAX, "t": "Guardião"
        }) else {
            unreachable!()
        };
        let packed = PackedFields::pack(&map);
        let stored = rmp_serde::to_vec(&packed).unwrap();
        assert_eq!(
            rmp_serde::from_slice::<PackedFields>(&stored).unwrap(),
            packed
        );
        // bytes that are MessagePack but not a map, a map cut short, an
        // integer key deep inside, a byte string as a value, and a string
        // that is not UTF-8
        for bad in [
            rmp_serde::to_vec(&1).unwrap(),
            packed.bytes()[..3].to_vec(),
            vec![0x81, 0xa1, b'a', 0x81, 0x01, 0x02],
            vec![0x81, 0xa1, b'k', 0xc4, 0x01, b'x'],
            vec![0x81, 0xa1, b'k', 0xa1, 0xff],
        ] {
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
