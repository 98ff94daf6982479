//! The writer: manifest, cards and decks → bundle bytes.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::format::{Header, Section, Sections};
use super::game::game_section;
use super::hash::SourceHash;
use super::numbers::{
    BLOCK_ENTRY_LEN, BLOCK_TARGET, FORMAT_MINOR, FORMAT_VERSION, HEADER_LEN, INDEX_ENTRY_LEN,
    MAX_BLOCK, MAX_DEPTH,
};
use super::record::{CardRecord, DeckRecord, PackedRecord};
use super::texts::GameTexts;
use crate::config::Manifest;
use crate::validate::PackedFields;
use crate::validate::errata::current_version;

/// Why a bundle could not be written.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// Two cards have the same id.
    #[error("two cards have the id `{0}`")]
    DuplicateId(String),
    /// A field nests arrays or tables deeper than [`MAX_DEPTH`].
    #[error(
        "field `{field}` of card `{id}` nests arrays and tables more than {MAX_DEPTH} levels deep"
    )]
    TooDeep {
        /// The card.
        id: String,
        /// The field.
        field: String,
    },
    /// One card's record is larger than a block may be.
    #[error(
        "card `{id}` encodes to {len} bytes, more than the {} MiB a card record may take in a bundle",
        MAX_BLOCK >> 20
    )]
    RecordTooLarge {
        /// The card.
        id: String,
        /// Its encoded length.
        len: usize,
    },
    /// The bundle would exceed 4 GiB.
    #[error("the bundle would exceed 4 GiB")]
    TooLarge,
    /// `MessagePack` encoding failed.
    #[error("cannot encode {what}: {source}")]
    Encode {
        /// What was being encoded.
        what: String,
        /// The encoder's error.
        source: rmp_serde::encode::Error,
    },
}

/// Encodes a bundle. `written` is the manifest as parsed from its
/// `game.toml` (JSON), when there is one: the game section then keeps its
/// numbers as written (`margin = 5` stays an integer). Cards may come in
/// any order (the bundle stores them by id); decks keep their order. The
/// output depends only on the arguments and the carta version, so the same
/// sources always give the same bytes.
///
/// # Errors
/// When two cards share an id, a field nests deeper than [`MAX_DEPTH`], a
/// card's record exceeds [`MAX_BLOCK`], or the bundle would exceed 4 GiB.
pub fn encode(
    manifest: &Manifest,
    written: Option<&Value>,
    cards: &[CardRecord<'_>],
    decks: &[DeckRecord],
    source_hash: SourceHash,
) -> Result<Vec<u8>, EncodeError> {
    let texts = GameTexts::default();
    encode_translated(manifest, written, &texts, cards, decks, source_hash)
}

/// [`encode`], with the game's enum labels and the manifest's translations
/// in the game section (its `labels` and `i18n` keys).
///
/// # Errors
/// As [`encode`].
pub fn encode_translated(
    manifest: &Manifest,
    written: Option<&Value>,
    texts: &GameTexts,
    cards: &[CardRecord<'_>],
    decks: &[DeckRecord],
    source_hash: SourceHash,
) -> Result<Vec<u8>, EncodeError> {
    // One way to write a record: with its fields packed, as a build has
    // them already.
    let packed: Vec<PackedFields> = cards.iter().map(|c| PackedFields::pack(c.fields)).collect();
    let records: Vec<PackedRecord<'_>> = cards
        .iter()
        .zip(&packed)
        .map(|(c, fields)| PackedRecord {
            id: c.id,
            kind: c.kind,
            name: c.name,
            copies: c.copies,
            fields,
            i18n: c.i18n,
            errata: c.errata,
        })
        .collect();
    encode_records(manifest, written, texts, &records, decks, source_hash).map(Encoded::into_bytes)
}

impl PackedRecord<'_> {
    /// Appends the card's record to `out`: the bytes `MessagePack` gives
    /// its [`CardRecord`], the packed fields copied in as they are.
    ///
    /// # Errors
    /// When a field nests deeper than [`MAX_DEPTH`], or encoding fails.
    pub(crate) fn write(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if super::packed_map(self.fields).is_none() {
            // Which field: the unpacked map says.
            check_depth(self.id, &self.fields.unpack())?;
        }
        let what = || format!("card `{}`", self.id);
        let version = current_version(self.errata);
        let len = 4
            + u32::from(self.copies.is_some())
            + u32::from(self.i18n.is_some())
            + 2 * u32::from(version.is_some());
        let io = |e: rmp::encode::ValueWriteError| EncodeError::Encode {
            what: what(),
            source: rmp_serde::encode::Error::InvalidValueWrite(e),
        };
        rmp::encode::write_map_len(out, len).map_err(io)?;
        for (key, value) in [("id", self.id), ("kind", self.kind), ("name", self.name)] {
            rmp::encode::write_str(out, key).map_err(io)?;
            rmp::encode::write_str(out, value).map_err(io)?;
        }
        let encode = |source| EncodeError::Encode {
            what: what(),
            source,
        };
        if let Some(copies) = self.copies {
            rmp::encode::write_str(out, "copies").map_err(io)?;
            rmp_serde::encode::write(out, &copies).map_err(encode)?;
        }
        rmp::encode::write_str(out, "fields").map_err(io)?;
        out.extend_from_slice(self.fields.bytes());
        if let Some(i18n) = self.i18n {
            rmp::encode::write_str(out, "i18n").map_err(io)?;
            rmp_serde::encode::write_named(out, i18n).map_err(encode)?;
        }
        if let Some(version) = version {
            rmp::encode::write_str(out, "version").map_err(io)?;
            rmp::encode::write_str(out, version).map_err(io)?;
            rmp::encode::write_str(out, "errata").map_err(io)?;
            rmp_serde::encode::write_named(out, self.errata).map_err(encode)?;
        }
        Ok(())
    }
}

/// [`encode_translated`] over cards whose fields are packed, in pieces
/// ([`Encoded`]).
pub(crate) fn encode_records(
    manifest: &Manifest,
    written: Option<&Value>,
    texts: &GameTexts,
    cards: &[PackedRecord<'_>],
    decks: &[impl Serialize],
    source_hash: SourceHash,
) -> Result<Encoded, EncodeError> {
    let mut sorted: Vec<&PackedRecord<'_>> = cards.iter().collect();
    sorted.sort_unstable_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    for pair in sorted.windows(2) {
        if pair[0].id == pair[1].id {
            return Err(EncodeError::DuplicateId(pair[0].id.to_owned()));
        }
    }
    let game = msgpack(&game_section(manifest, written, texts), "the manifest")?;
    let decks_bytes = msgpack(decks, "the decks")?;
    let (index, blocks) = cards_and_index(&sorted)?;
    let table = block_table(&blocks)?;
    let mut encoded = Encoded {
        header: [0; HEADER_LEN],
        parts: [game, decks_bytes, index, table],
        blocks,
    };
    // The sections follow each other in the payload, in this order; the
    // cards section is the block table, then each block.
    let mut crc = crc32fast::Hasher::new();
    for piece in encoded.pieces() {
        crc.update(piece);
    }
    let [game, decks_bytes, index, table] = &encoded.parts;
    let blocks_len: usize = encoded.blocks.iter().map(|(b, _)| b.len()).sum();
    let mut offset = 0usize;
    let mut place = |len: usize| -> Result<Section, EncodeError> {
        let section = Section {
            offset: u32_len(offset)?,
            len: u32_len(len)?,
        };
        offset += len;
        Ok(section)
    };
    let sections = Sections {
        game: place(game.len())?,
        decks: place(decks_bytes.len())?,
        index: place(index.len())?,
        cards: place(table.len() + blocks_len)?,
    };
    let header = Header {
        format_version: FORMAT_VERSION,
        format_minor: FORMAT_MINOR,
        card_count: u32_len(sorted.len())?,
        deck_count: u32_len(decks.len())?,
        source_hash,
        carta_version: carta_version(),
        payload_len: u32_len(offset)?,
        payload_crc32: crc.finalize(),
        sections,
    };
    encoded.header = header.to_bytes();
    Ok(encoded)
}

/// A bundle encoded, in the pieces it is written from: its header, its
/// sections, and the cards section's deflated blocks, each apart. Written
/// out with [`Encoded::write_to`] without being joined: a bundle is never
/// held twice.
#[derive(Debug)]
pub(crate) struct Encoded {
    header: [u8; HEADER_LEN],
    /// The game, decks and index sections, and the cards section's block
    /// table.
    parts: [Vec<u8>; 4],
    blocks: Stored,
}

impl Encoded {
    /// Each piece of the payload, in order.
    fn pieces(&self) -> impl Iterator<Item = &[u8]> {
        let parts = self.parts.iter().map(Vec::as_slice);
        parts.chain(self.blocks.iter().map(|(block, _)| &block[..]))
    }

    /// Writes the bundle to `out`.
    ///
    /// # Errors
    /// When `out` fails.
    pub(crate) fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&self.header)?;
        self.pieces().try_for_each(|piece| out.write_all(piece))
    }

    /// The bundle's bytes, joined.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        let len: usize = self.pieces().map(<[u8]>::len).sum();
        let mut out = Vec::with_capacity(HEADER_LEN + len);
        self.write_to(&mut out)
            .expect("writing to a Vec cannot fail");
        out
    }
}

/// The index and the cards section's blocks: the records in id order,
/// grouped into blocks of about [`BLOCK_TARGET`] bytes, each block
/// compressed with zlib.
fn cards_and_index(sorted: &[&PackedRecord<'_>]) -> Result<(Vec<u8>, Stored), EncodeError> {
    let ids_len: usize = sorted.iter().map(|c| c.id.len()).sum();
    let mut index = Vec::with_capacity(4 + INDEX_ENTRY_LEN * sorted.len() + ids_len);
    index.extend_from_slice(&u32_len(sorted.len())?.to_le_bytes());
    let mut blocks = Blocks {
        raw: Vec::new(),
        stored: Vec::new(),
    };
    let mut current = Vec::new();
    let mut record = Vec::new();
    let mut id_offset = 0usize;
    for card in sorted {
        record.clear();
        card.write(&mut record)?;
        if record.len() > MAX_BLOCK {
            return Err(EncodeError::RecordTooLarge {
                id: card.id.to_owned(),
                len: record.len(),
            });
        }
        // A block closes at the target size, or early when the next record
        // would take it past the most a block may inflate to.
        if current.len() >= BLOCK_TARGET || current.len() + record.len() > MAX_BLOCK {
            blocks.close(std::mem::take(&mut current));
        }
        let start = current.len();
        current.extend_from_slice(&record);
        let entry = [
            id_offset,
            card.id.len(),
            blocks.count(),
            start,
            current.len() - start,
        ];
        for n in entry {
            index.extend_from_slice(&u32_len(n)?.to_le_bytes());
        }
        id_offset += card.id.len();
    }
    if !current.is_empty() {
        blocks.close(current);
    }
    blocks.flush();
    for card in sorted {
        index.extend_from_slice(card.id.as_bytes());
    }
    Ok((index, blocks.stored))
}

/// Each deflated block and the length it inflates to, in order.
type Stored = Vec<(Vec<u8>, usize)>;

/// The blocks of the cards section as they close, deflated a few at a
/// time on every core: only a handful is held uncompressed at once.
struct Blocks {
    /// Closed blocks not deflated yet.
    raw: Vec<Vec<u8>>,
    /// The blocks deflated so far.
    stored: Stored,
}

impl Blocks {
    /// How many raw blocks wait before they are deflated together.
    const BATCH: usize = 8;

    fn close(&mut self, block: Vec<u8>) {
        self.raw.push(block);
        if self.raw.len() == Self::BATCH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let done: Stored = self
            .raw
            .par_drain(..)
            .map(|b| (deflate(&b), b.len()))
            .collect();
        self.stored.extend(done);
    }

    /// How many blocks have closed.
    fn count(&self) -> usize {
        self.stored.len() + self.raw.len()
    }
}

/// The start of the cards section: the count of blocks, then each
/// block's offset in the section, deflated length and raw length (the
/// blocks follow it).
fn block_table(stored: &Stored) -> Result<Vec<u8>, EncodeError> {
    let mut table = Vec::with_capacity(4 + BLOCK_ENTRY_LEN * stored.len());
    table.extend_from_slice(&u32_len(stored.len())?.to_le_bytes());
    let mut offset = 4 + BLOCK_ENTRY_LEN * stored.len();
    for (packed, raw_len) in stored {
        for n in [offset, packed.len(), *raw_len] {
            table.extend_from_slice(&u32_len(n)?.to_le_bytes());
        }
        offset += packed.len();
    }
    Ok(table)
}

/// A zlib stream (RFC 1950) of `raw`, at the default level.
fn deflate(raw: &[u8]) -> Vec<u8> {
    let mut enc = ZlibEncoder::new(Vec::with_capacity(raw.len() / 3), Compression::default());
    enc.write_all(raw).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

fn check_depth(id: &str, fields: &serde_json::Map<String, Value>) -> Result<(), EncodeError> {
    for (field, value) in fields {
        if depth_exceeds(value, MAX_DEPTH) {
            return Err(EncodeError::TooDeep {
                id: id.to_owned(),
                field: field.clone(),
            });
        }
    }
    Ok(())
}

/// Whether `value` nests arrays and objects more than `limit` levels deep
/// (a scalar has depth 0). Recursion stops at the limit.
pub(crate) fn depth_exceeds(value: &Value, limit: usize) -> bool {
    match value {
        Value::Array(items) => limit == 0 || items.iter().any(|v| depth_exceeds(v, limit - 1)),
        Value::Object(map) => limit == 0 || map.values().any(|v| depth_exceeds(v, limit - 1)),
        _ => false,
    }
}

fn msgpack<T: Serialize + ?Sized>(value: &T, what: &str) -> Result<Vec<u8>, EncodeError> {
    rmp_serde::to_vec_named(value).map_err(|source| EncodeError::Encode {
        what: what.to_owned(),
        source,
    })
}

fn u32_len(n: usize) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError::TooLarge)
}

/// This carta's version, as the header records it (cut to 32 bytes).
fn carta_version() -> String {
    let v = env!("CARGO_PKG_VERSION");
    let mut end = v.len().min(super::format::version_capacity());
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    v[..end].to_owned()
}

/// A game of one kind and its cards, each with a text field, for the
/// tests of the encoder.
#[cfg(test)]
struct Sample {
    manifest: Manifest,
    ids: Vec<String>,
    fields: Vec<PackedFields>,
}

#[cfg(test)]
impl Sample {
    /// `n` cards: a few blocks' worth from about 1,000.
    fn new(n: usize) -> Self {
        let manifest = toml::from_str(
            "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.unit]\nname = \"Unit\"\n",
        )
        .expect("a manifest");
        let ids = (0..n).map(|i| format!("card-{i:05}")).collect();
        let fields = (0..n)
            .map(|i| {
                let text = format!("text of card {i}, long enough to fill blocks");
                let mut m = serde_json::Map::new();
                m.insert("text".into(), Value::from(text));
                PackedFields::pack(&m)
            })
            .collect();
        Sample {
            manifest,
            ids,
            fields,
        }
    }

    /// The cards' records.
    fn records(&self) -> Vec<PackedRecord<'_>> {
        self.ids
            .iter()
            .zip(&self.fields)
            .map(|(id, fields)| PackedRecord {
                id,
                kind: "unit",
                name: id,
                copies: None,
                fields,
                i18n: None,
                errata: &[],
            })
            .collect()
    }

    /// The bundle of `records`.
    fn encode(&self, records: &[PackedRecord<'_>]) -> Encoded {
        let hash = SourceHash::of([("cards/g/game.toml", "")]);
        let texts = GameTexts::default();
        let no_decks: &[DeckRecord] = &[];
        encode_records(&self.manifest, None, &texts, records, no_decks, hash).expect("encodes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_counts_containers_not_scalars() {
        assert!(!depth_exceeds(&json!(1), 0));
        assert!(depth_exceeds(&json!([]), 0));
        assert!(!depth_exceeds(&json!([[1]]), 2));
        assert!(depth_exceeds(&json!([[[1]]]), 2));
        assert!(depth_exceeds(&json!({"a": {"b": {}}}), 2));
    }

    #[test]
    fn a_bundle_written_in_its_pieces_is_the_bundle_joined_and_reads_back() {
        let sample = Sample::new(2000);
        let records = sample.records();
        let encoded = sample.encode(&records);
        assert!(encoded.blocks.len() > 1, "several blocks");
        let mut written = Vec::new();
        encoded.write_to(&mut written).unwrap();
        assert_eq!(written, sample.encode(&records).into_bytes());
        let bundle = crate::bundle::Bundle::from_bytes(written).unwrap();
        assert_eq!(bundle.len(), 2000);
    }
}
