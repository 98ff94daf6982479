//! The reader: a verified bundle, and its cards one at a time.

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use super::error::BundleError;
use super::format::{HEADER_LEN, Header, MAX_DEPTH, u32_at};
use super::record::{Card, DeckRecord};
use super::write::INDEX_ENTRY_LEN;
use crate::manifest::Manifest;

/// A bundle, opened and verified.
///
/// Opening checks the header, both checksums, the bounds of every section
/// and the whole index, and decodes the manifest and the decks; card records
/// are decoded only when asked for, so opening a large bundle and reading one
/// card is fast. Nothing read from the file is trusted: every length is
/// checked against the bytes that are there, and nesting is capped at
/// [`MAX_DEPTH`](super::MAX_DEPTH), so a damaged or crafted file gives a
/// [`BundleError`], never a panic or a huge allocation.
///
/// ```no_run
/// use carta::bundle::Bundle;
///
/// let bundle = Bundle::open("build/intrepidos/intrepidos.carta")?;
/// println!("{} ({} cards)", bundle.manifest().name, bundle.len());
/// if let Some(card) = bundle.card("escudo-orc")? {
///     println!("{} is a {}: {:?}", card.name, card.kind, card.field("bonus"));
/// }
/// for card in bundle.cards() {
///     let card = card?;
///     println!("{}", card.id);
/// }
/// # Ok::<(), carta::bundle::BundleError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Bundle {
    bytes: Vec<u8>,
    header: Header,
    manifest: Manifest,
    decks: Vec<DeckRecord>,
    /// The index entries, as a range of `bytes`.
    entries: Range<usize>,
    /// The concatenated ids, as a range of `bytes`.
    ids: Range<usize>,
    /// The card records, as a range of `bytes`.
    records: Range<usize>,
}

impl Bundle {
    /// Reads and verifies the bundle at `path`.
    ///
    /// # Errors
    /// [`BundleError::Io`] when the file cannot be read; any other variant
    /// when it is not a valid bundle.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, BundleError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| BundleError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_bytes(bytes)
    }

    /// Verifies a bundle held in memory.
    ///
    /// # Errors
    /// When the bytes are not a valid bundle.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Result<Self, BundleError> {
        let bytes = bytes.into();
        let header = Header::parse(&bytes)?;
        let payload = &bytes[HEADER_LEN..];
        let found = crc32fast::hash(payload);
        if found != header.payload_crc32 {
            return Err(BundleError::PayloadChecksum {
                expected: header.payload_crc32,
                found,
            });
        }
        let s = header.sections;
        let manifest: Manifest = decode_all(s.game.slice(payload, "game")?, "game")?;
        let decks: Vec<DeckRecord> = decode_all(s.decks.slice(payload, "decks")?, "decks")?;
        if decks.len() != header.deck_count as usize {
            return Err(BundleError::corrupt(
                "decks",
                format!(
                    "{} decks, the header says {}",
                    decks.len(),
                    header.deck_count
                ),
            ));
        }
        let index = s.index.slice(payload, "index")?;
        let records = s.cards.slice(payload, "cards")?;
        let (entries, ids) = check_index(index, records.len(), header.card_count)?;
        let base = HEADER_LEN + s.index.offset as usize;
        let records_start = HEADER_LEN + s.cards.offset as usize;
        Ok(Bundle {
            entries: base + entries.start..base + entries.end,
            ids: base + ids.start..base + ids.end,
            records: records_start..records_start + records.len(),
            bytes,
            header,
            manifest,
            decks,
        })
    }

    /// The header: format and carta versions, source hash, sections.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The game manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The example decks, in the order they were written.
    pub fn decks(&self) -> &[DeckRecord] {
        &self.decks
    }

    /// How many cards the bundle holds.
    pub fn len(&self) -> usize {
        self.header.card_count as usize
    }

    /// Whether the bundle holds no card.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The size of the whole bundle in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The card ids, in byte order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = &str> {
        (0..self.len()).map(|i| self.id_at(i))
    }

    /// The card with id `id`, decoding only that card's record.
    ///
    /// # Errors
    /// When the record is damaged.
    pub fn card(&self, id: &str) -> Result<Option<Card>, BundleError> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.id_at(mid).as_bytes().cmp(id.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.card_at(mid).map(Some),
            }
        }
        Ok(None)
    }

    /// Every card, in id order, each decoded as the iterator reaches it.
    pub fn cards(&self) -> impl ExactSizeIterator<Item = Result<Card, BundleError>> + '_ {
        (0..self.len()).map(|i| self.card_at(i))
    }

    /// The bundle as the JSON that `carta decompile` prints:
    /// `{"game": …, "cards": […], "decks": […]}`, each card as written in its
    /// source file.
    ///
    /// # Errors
    /// When a record is damaged.
    pub fn to_json(&self) -> Result<Value, BundleError> {
        let cards = self
            .cards()
            .map(|c| c.map(|c| c.to_source_json()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut map = Map::new();
        let game = serde_json::to_value(&self.manifest)
            .map_err(|e| BundleError::corrupt("game", e.to_string()))?;
        map.insert("game".into(), game);
        map.insert("cards".into(), Value::Array(cards));
        let decks = serde_json::to_value(&self.decks)
            .map_err(|e| BundleError::corrupt("decks", e.to_string()))?;
        map.insert("decks".into(), decks);
        Ok(Value::Object(map))
    }

    /// Field `k` (0..4) of index entry `i`.
    fn entry(&self, i: usize, k: usize) -> usize {
        u32_at(
            &self.bytes,
            self.entries.start + i * INDEX_ENTRY_LEN + 4 * k,
        ) as usize
    }

    fn id_at(&self, i: usize) -> &str {
        let start = self.ids.start + self.entry(i, 0);
        // Checked to be UTF-8 and in bounds when the bundle was opened.
        std::str::from_utf8(&self.bytes[start..start + self.entry(i, 1)]).unwrap_or_default()
    }

    fn card_at(&self, i: usize) -> Result<Card, BundleError> {
        let start = self.records.start + self.entry(i, 2);
        let card: Card = decode_all(&self.bytes[start..start + self.entry(i, 3)], "cards")?;
        if card.id != self.id_at(i) {
            return Err(BundleError::corrupt(
                "cards",
                format!(
                    "the index entry `{}` points at card `{}`",
                    self.id_at(i),
                    card.id
                ),
            ));
        }
        Ok(card)
    }
}

/// Checks the index against the records section; returns where the entries
/// and the ids lie within `index`.
fn check_index(
    index: &[u8],
    records_len: usize,
    card_count: u32,
) -> Result<(Range<usize>, Range<usize>), BundleError> {
    let bad = |detail: String| BundleError::corrupt("index", detail);
    if index.len() < 4 {
        return Err(bad("shorter than its count".into()));
    }
    let count = u32_at(index, 0);
    if count != card_count {
        return Err(bad(format!(
            "{count} entries, the header says {card_count}"
        )));
    }
    let entries_end = (count as usize)
        .checked_mul(INDEX_ENTRY_LEN)
        .and_then(|n| n.checked_add(4))
        .filter(|&end| end <= index.len())
        .ok_or_else(|| {
            bad(format!(
                "{count} entries do not fit in {} bytes",
                index.len()
            ))
        })?;
    let ids = &index[entries_end..];
    let (mut id_end, mut rec_end) = (0usize, 0usize);
    let mut previous: Option<&[u8]> = None;
    for i in 0..count as usize {
        let at = 4 + i * INDEX_ENTRY_LEN;
        let [id_off, id_len, rec_off, rec_len] =
            [0, 4, 8, 12].map(|k| u32_at(index, at + k) as usize);
        if id_off != id_end || rec_off != rec_end || id_len == 0 || rec_len == 0 {
            return Err(bad(format!(
                "entry {i} is not contiguous with the one before"
            )));
        }
        id_end += id_len;
        rec_end += rec_len;
        let id = ids
            .get(id_off..id_end)
            .ok_or_else(|| bad(format!("the id of entry {i} lies outside the index")))?;
        if rec_end > records_len {
            return Err(bad(format!("entry {i} points past the card records")));
        }
        if std::str::from_utf8(id).is_err() {
            return Err(bad(format!("the id of entry {i} is not UTF-8")));
        }
        if previous.is_some_and(|p| p >= id) {
            return Err(bad(format!("entry {i} is out of order")));
        }
        previous = Some(id);
    }
    if id_end != ids.len() || rec_end != records_len {
        return Err(bad(
            "the entries do not cover the ids and records exactly".into()
        ));
    }
    Ok((4..entries_end, entries_end..index.len()))
}

/// Decodes one MessagePack value that must fill `bytes` exactly.
fn decode_all<'de, T: Deserialize<'de>>(
    bytes: &'de [u8],
    section: &'static str,
) -> Result<T, BundleError> {
    let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
    // The record map and its `fields` map sit above a field's own nesting;
    // rmp-serde fails when its counter reaches zero, hence one more.
    de.set_max_depth(MAX_DEPTH + 3);
    let value = T::deserialize(&mut de).map_err(|e| BundleError::decode(section, &e))?;
    // The value must fill the bytes: reading another one must find the end.
    match IgnoredAny::deserialize(&mut de) {
        Err(rmp_serde::decode::Error::InvalidMarkerRead(e))
            if e.kind() == std::io::ErrorKind::UnexpectedEof =>
        {
            Ok(value)
        }
        _ => Err(BundleError::corrupt(section, "bytes after the value")),
    }
}
