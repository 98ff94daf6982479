//! Borrowed `MessagePack`: values that point into the bytes they were read
//! from, so that a reader can look at every card of a block without
//! allocating anything.
//!
//! Reading a value checks its structure whole, once: every marker is one
//! the format allows (no nil, `float 32`, binary or extension), every
//! length lies inside the bytes, every map key is a string, every float is
//! finite, and nesting stays within the caller's limit. Strings are
//! checked for UTF-8 then too, except inside a card's `fields`, where a
//! string is checked when it is read (most readers read few fields, and
//! checking every text of every card would cost more than inflating it):
//! that is why reading a field returns a `Result`.

use serde_json::{Map, Number, Value};

use super::error::BundleError;

/// A `MessagePack` value borrowed from a record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    /// `true` or `false`.
    Bool(bool),
    /// An integer that fits in `i64`.
    Int(i64),
    /// An integer above `i64::MAX`.
    UInt(u64),
    /// A finite `float 64`.
    Float(f64),
    /// A string.
    Str(&'a str),
    /// An array.
    Array(ArrayRef<'a>),
    /// A map with string keys.
    Map(MapRef<'a>),
}

/// A borrowed array: its items, not yet decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayRef<'a> {
    items: &'a [u8],
    len: usize,
}

/// A borrowed map with string keys, in the order written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapRef<'a> {
    entries: &'a [u8],
    len: usize,
}

impl<'a> ValueRef<'a> {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            ValueRef::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is one that fits in `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            ValueRef::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// The number as `f64`, if this is an integer or a float.
    #[allow(clippy::cast_precision_loss)] // what `as_f64` means for large integers
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            ValueRef::Int(n) => Some(*n as f64),
            ValueRef::UInt(n) => Some(*n as f64),
            ValueRef::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The map, if this is one.
    pub fn as_map(&self) -> Option<MapRef<'a>> {
        match self {
            ValueRef::Map(m) => Some(*m),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<ArrayRef<'a>> {
        match self {
            ValueRef::Array(a) => Some(*a),
            _ => None,
        }
    }

    /// An owned copy as JSON (maps keep their order).
    ///
    /// # Errors
    /// When a string inside is not UTF-8.
    pub fn to_json(&self) -> Result<Value, BundleError> {
        Ok(match *self {
            ValueRef::Bool(b) => Value::Bool(b),
            ValueRef::Int(n) => Value::Number(n.into()),
            ValueRef::UInt(n) => Value::Number(n.into()),
            // Checked finite when read.
            ValueRef::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            ValueRef::Str(s) => Value::String(s.to_owned()),
            ValueRef::Array(a) => Value::Array(
                a.iter()
                    .map(|v| v.and_then(|v| v.to_json()))
                    .collect::<Result<_, _>>()?,
            ),
            ValueRef::Map(m) => Value::Object(m.to_json()?),
        })
    }
}

impl<'a> ArrayRef<'a> {
    /// How many items the array has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The items, in order; an item that is a string not in UTF-8 is an
    /// error.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Result<ValueRef<'a>, BundleError>> + 'a {
        let mut c = Cursor::new(self.items);
        (0..self.len).map(move |_| c.trusted().map_err(in_cards))
    }
}

impl<'a> MapRef<'a> {
    /// How many entries the map has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entries, in the order written; a key or string value not in
    /// UTF-8 is an error.
    pub fn iter(
        &self,
    ) -> impl ExactSizeIterator<Item = Result<(&'a str, ValueRef<'a>), BundleError>> + 'a {
        let mut c = Cursor::new(self.entries);
        (0..self.len).map(move |_| {
            let key = std::str::from_utf8(c.trusted_str())
                .map_err(|_| in_cards("a map key is not UTF-8".into()))?;
            Ok((key, c.trusted().map_err(in_cards)?))
        })
    }

    /// The value of `key`, walking past the entries before it without
    /// decoding them.
    ///
    /// # Errors
    /// When the value is a string not in UTF-8.
    pub fn get(&self, key: &str) -> Result<Option<ValueRef<'a>>, BundleError> {
        let mut c = Cursor::new(self.entries);
        for _ in 0..self.len {
            let k = c.trusted_str();
            if k == key.as_bytes() {
                return c.trusted().map(Some).map_err(in_cards);
            }
            c.skip_trusted();
        }
        Ok(None)
    }

    /// An owned copy as a JSON object.
    ///
    /// # Errors
    /// When a key or string inside is not UTF-8.
    pub fn to_json(&self) -> Result<Map<String, Value>, BundleError> {
        self.iter()
            .map(|e| e.and_then(|(k, v)| Ok((k.to_owned(), v.to_json()?))))
            .collect()
    }
}

/// A container over its items' bytes.
fn container(bytes: &[u8], len: usize, map: bool) -> ValueRef<'_> {
    if map {
        ValueRef::Map(MapRef {
            entries: bytes,
            len,
        })
    } else {
        ValueRef::Array(ArrayRef { items: bytes, len })
    }
}

fn too_deep() -> Bad {
    format!("values nest deeper than {} levels", super::MAX_DEPTH)
}

/// A string found not to be UTF-8 when read: only card fields hold
/// strings checked that late.
fn in_cards(detail: Bad) -> BundleError {
    BundleError::corrupt("cards", detail)
}

/// A position in `MessagePack` bytes.
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// Why a value could not be read (the caller names the section).
pub(crate) type Bad = String;

/// The most containers a value may nest: a record and its `fields` map
/// around [`MAX_DEPTH`](super::MAX_DEPTH) levels of a field.
const MAX_OPEN: usize = super::MAX_DEPTH + 2;

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, at: 0 }
    }

    /// Whether every byte has been read.
    pub(crate) fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Bad> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| {
                format!(
                    "a value runs past the end of its {} bytes",
                    self.bytes.len()
                )
            })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, Bad> {
        Ok(self.take(1)?[0])
    }

    /// A big-endian unsigned integer of `n` bytes (1, 2, 4 or 8).
    fn be(&mut self, n: usize) -> Result<u64, Bad> {
        let bytes = self.take(n)?;
        Ok(match *bytes {
            [b0] => u64::from(b0),
            [b0, b1] => u64::from(u16::from_be_bytes([b0, b1])),
            [b0, b1, b2, b3] => u64::from(u32::from_be_bytes([b0, b1, b2, b3])),
            _ => bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        })
    }

    /// Reads one value, checking all of it; containers may nest `depth`
    /// levels (a scalar needs none).
    pub(crate) fn value(&mut self, depth: usize) -> Result<ValueRef<'a>, Bad> {
        let start = self.at;
        self.check(depth, true)?;
        let mut head = Cursor {
            bytes: &self.bytes[..self.at],
            at: start,
        };
        head.head()
    }

    /// Reads the header of a map: its entry count.
    pub(crate) fn map_header(&mut self) -> Result<usize, Bad> {
        let marker = self.byte()?;
        Ok(match marker {
            0x80..=0x8f => usize::from(marker & 0x0f),
            0xde => self.be(2)? as usize,
            0xdf => self.be(4)? as usize,
            _ => return Err("not a map".into()),
        })
    }

    /// Reads the bytes of a map key, a string, without checking them for
    /// UTF-8.
    pub(crate) fn key_bytes(&mut self) -> Result<&'a [u8], Bad> {
        match self.byte()? {
            marker @ (0xa0..=0xbf | 0xd9..=0xdb) => self.str_body(marker),
            _ => Err("a map key is not a string".into()),
        }
    }

    /// Reads a record's `fields`: a map whose keys may not be any of
    /// `reserved` (the record's own keys), its values nesting at most
    /// `depth` levels, checking all of it in one pass.
    pub(crate) fn fields(&mut self, reserved: &[&str], depth: usize) -> Result<MapRef<'a>, Bad> {
        let len = self.map_header()?;
        let start = self.at;
        for _ in 0..len {
            // Compared as bytes; a key is checked for UTF-8 when read.
            let key = self.key_bytes()?;
            if let Some(own) = reserved.iter().find(|r| r.as_bytes() == key) {
                return Err(format!(
                    "a record's `fields` holds `{own}`, which is a key of the record itself"
                ));
            }
            self.check(depth, false)?;
        }
        Ok(MapRef {
            entries: &self.bytes[start..self.at],
            len,
        })
    }

    /// Reads the head of a checked value that ends where the bytes end: a
    /// container's items are the rest of the bytes.
    fn head(&mut self) -> Result<ValueRef<'a>, Bad> {
        match self.container_head() {
            Some((len, map)) => Ok(container(&self.bytes[self.at..], len, map)),
            None => self.scalar(),
        }
    }

    /// Reads the marker and length of a checked container, if the next
    /// value is one: its item count, and whether it is a map.
    fn container_head(&mut self) -> Option<(usize, bool)> {
        let marker = self.bytes[self.at];
        let (width, map) = match marker {
            0x80..=0x9f => (0, marker < 0x90),
            0xdc | 0xde => (2, marker == 0xde),
            0xdd | 0xdf => (4, marker == 0xdf),
            _ => return None,
        };
        self.at += 1;
        let len = if width == 0 {
            usize::from(marker & 0x0f)
        } else {
            self.len_trusted(width)
        };
        Some((len, map))
    }

    /// Steps over one value, checking it whole (its strings for UTF-8 only
    /// when `utf8`). Most values are scalars, checked here at once; a
    /// container goes on in [`Cursor::check_nested`].
    fn check(&mut self, depth: usize, utf8: bool) -> Result<(), Bad> {
        let marker = self.byte()?;
        match self.step(marker, utf8)? {
            None => Ok(()),
            Some(_) if depth == 0 => Err(too_deep()),
            Some(first) => self.check_nested(first, depth, utf8),
        }
    }

    /// Checks the items of a container whose header has just been read
    /// (`first`: its item count, a map counting keys and values apart, and
    /// whether it is a map), without recursing: the containers still open
    /// are counted in a fixed array on the stack.
    fn check_nested(&mut self, first: (u64, bool), depth: usize, utf8: bool) -> Result<(), Bad> {
        let mut open = [(0u64, false); MAX_OPEN];
        let depth = depth.min(MAX_OPEN);
        let mut n_open = 0usize;
        if first.0 > 0 {
            open[0] = first;
            n_open = 1;
        }
        while n_open > 0 {
            let (left, map) = &mut open[n_open - 1];
            let key = *map && *left % 2 == 0;
            *left -= 1;
            let marker = self.byte()?;
            if key && !matches!(marker, 0xa0..=0xbf | 0xd9..=0xdb) {
                return Err("a map key is not a string".into());
            }
            if let Some(items) = self.step(marker, utf8)? {
                if n_open == depth {
                    return Err(too_deep());
                }
                if items.0 > 0 {
                    open[n_open] = items;
                    n_open += 1;
                }
            }
            while n_open > 0 && open[n_open - 1].0 == 0 {
                n_open -= 1;
            }
        }
        Ok(())
    }

    /// Steps over the value that `marker` starts, checking it: a scalar
    /// whole (a string for UTF-8 only when `utf8`), a container's header
    /// only, returning its item count (a map counting keys and values
    /// apart) and whether it is a map.
    fn step(&mut self, marker: u8, utf8: bool) -> Result<Option<(u64, bool)>, Bad> {
        Ok(match marker {
            0x00..=0x7f | 0xe0..=0xff | 0xc2 | 0xc3 => None,
            0xcc..=0xcf => {
                self.take(1 << (marker - 0xcc))?;
                None
            }
            0xd0..=0xd3 => {
                self.take(1 << (marker - 0xd0))?;
                None
            }
            0xcb => {
                let f = f64::from_bits(self.be(8)?);
                if !f.is_finite() {
                    return Err(format!("the float {f} is not finite"));
                }
                None
            }
            0xa0..=0xbf | 0xd9..=0xdb => {
                let bytes = self.str_body(marker)?;
                if utf8 && std::str::from_utf8(bytes).is_err() {
                    return Err("a string is not UTF-8".into());
                }
                None
            }
            0x90..=0x9f => Some((u64::from(marker & 0x0f), false)),
            0xdc => Some((self.be(2)?, false)),
            0xdd => Some((self.be(4)?, false)),
            0x80..=0x8f => Some((2 * u64::from(marker & 0x0f), true)),
            0xde => Some((2 * self.be(2)?, true)),
            0xdf => Some((2 * self.be(4)?, true)),
            0xc0 => return Err("a nil value (the format has none)".into()),
            0xca => return Err("a float 32 (the format stores floats as float 64)".into()),
            0xc4..=0xc6 => return Err("a binary value (the format has none)".into()),
            0xc7..=0xc9 | 0xd4..=0xd8 => {
                return Err("an extension value (the format has none)".into());
            }
            0xc1 => return Err("the unused marker 0xc1".into()),
        })
    }

    /// The bytes of the string whose marker (`0xa0..=0xbf`, `0xd9..=0xdb`)
    /// has just been read.
    fn str_body(&mut self, marker: u8) -> Result<&'a [u8], Bad> {
        let len = match marker {
            0xd9 => self.be(1)?,
            0xda => self.be(2)?,
            0xdb => self.be(4)?,
            _ => u64::from(marker & 0x1f),
        };
        self.take(len as usize)
    }

    /// Reads a string, checking it for UTF-8 (once).
    pub(crate) fn str(&mut self) -> Result<&'a str, Bad> {
        let marker = self.byte()?;
        if !matches!(marker, 0xa0..=0xbf | 0xd9..=0xdb) {
            return Err("not a string".into());
        }
        std::str::from_utf8(self.str_body(marker)?).map_err(|_| "a string is not UTF-8".into())
    }

    /// Reads a value already checked by [`Cursor::value`], stepping over
    /// the contents of a container instead of checking them again.
    fn trusted(&mut self) -> Result<ValueRef<'a>, Bad> {
        let Some((len, map)) = self.container_head() else {
            return self.scalar();
        };
        let start = self.at;
        for _ in 0..if map { 2 * len } else { len } {
            self.skip_trusted();
        }
        Ok(container(&self.bytes[start..self.at], len, map))
    }

    /// Reads a scalar already checked (a string is checked for UTF-8 now).
    fn scalar(&mut self) -> Result<ValueRef<'a>, Bad> {
        let marker = self.bytes[self.at];
        self.at += 1;
        let mut be = |n: usize| self.be(n).unwrap_or_default();
        Ok(match marker {
            0x00..=0x7f => ValueRef::Int(i64::from(marker)),
            0xe0..=0xff => ValueRef::Int(i64::from(marker.cast_signed())),
            0xc3 => ValueRef::Bool(true),
            0xcc..=0xcf => {
                let n = be(1 << (marker - 0xcc));
                i64::try_from(n).map_or(ValueRef::UInt(n), ValueRef::Int)
            }
            0xd0..=0xd3 => {
                let width = 1usize << (marker - 0xd0);
                // Sign-extend from `width` bytes.
                let shift = 64 - 8 * width as u32;
                ValueRef::Int((be(width) << shift).cast_signed() >> shift)
            }
            0xcb => ValueRef::Float(f64::from_bits(be(8))),
            0xa0..=0xbf | 0xd9..=0xdb => {
                self.at -= 1;
                ValueRef::Str(
                    std::str::from_utf8(self.trusted_str()).map_err(|_| "a string is not UTF-8")?,
                )
            }
            // `false`; nothing else passes the check.
            _ => ValueRef::Bool(false),
        })
    }

    /// The bytes of a string key already checked.
    fn trusted_str(&mut self) -> &'a [u8] {
        let marker = self.bytes[self.at];
        self.at += 1;
        let len = match marker {
            0xd9 => self.be(1),
            0xda => self.be(2),
            0xdb => self.be(4),
            _ => Ok(u64::from(marker & 0x1f)),
        };
        let len = len.unwrap_or_default() as usize;
        self.take(len).unwrap_or_default()
    }

    /// Steps over a value already checked, reading only lengths.
    fn skip_trusted(&mut self) {
        let mut pending: usize = 1;
        while pending > 0 {
            pending -= 1;
            let marker = self.bytes[self.at];
            self.at += 1;
            let (skip, items) = match marker {
                0xcc..=0xcf => (1 << (marker - 0xcc), 0),
                0xd0..=0xd3 => (1 << (marker - 0xd0), 0),
                0xcb => (8, 0),
                0xa0..=0xbf => (usize::from(marker & 0x1f), 0),
                0xd9 => (self.len_trusted(1), 0),
                0xda => (self.len_trusted(2), 0),
                0xdb => (self.len_trusted(4), 0),
                0x90..=0x9f => (0, usize::from(marker & 0x0f)),
                0xdc => (0, self.len_trusted(2)),
                0xdd => (0, self.len_trusted(4)),
                0x80..=0x8f => (0, 2 * usize::from(marker & 0x0f)),
                0xde => (0, 2 * self.len_trusted(2)),
                0xdf => (0, 2 * self.len_trusted(4)),
                // Fixints, nil and booleans hold nothing more; any other
                // marker is refused by `value`, so never met here.
                _ => (0, 0),
            };
            self.at += skip;
            pending += items;
        }
    }

    fn len_trusted(&mut self, width: usize) -> usize {
        self.be(width).unwrap_or_default() as usize
    }
}

/// Reads the one value that `bytes` must hold, as JSON.
///
/// # Errors
/// When the bytes are not one valid value, or are followed by more.
pub(crate) fn one_value(
    bytes: &[u8],
    depth: usize,
    section: &'static str,
) -> Result<Value, BundleError> {
    let mut c = Cursor::new(bytes);
    let value = c
        .value(depth)
        .map_err(|e| BundleError::corrupt(section, e))?;
    if !c.at_end() {
        return Err(BundleError::corrupt(section, "bytes after the value"));
    }
    value.to_json()
}
