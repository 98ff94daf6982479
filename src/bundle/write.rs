//! The writer: manifest, cards and decks → bundle bytes.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::format::{
    BLOCK_ENTRY_LEN, BLOCK_TARGET, FORMAT_MINOR, FORMAT_VERSION, HEADER_LEN, Header,
    INDEX_ENTRY_LEN, MAX_BLOCK, MAX_DEPTH, Section, Sections,
};
use super::game::game_section;
use super::hash::SourceHash;
use super::record::{CardRecord, DeckRecord};
use super::texts::GameTexts;
use crate::config::Manifest;

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
    let mut sorted: Vec<&CardRecord<'_>> = cards.iter().collect();
    sorted.sort_unstable_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    for pair in sorted.windows(2) {
        if pair[0].id == pair[1].id {
            return Err(EncodeError::DuplicateId(pair[0].id.to_owned()));
        }
    }
    let game = msgpack(&game_section(manifest, written, texts), "the manifest")?;
    let deck_bytes = msgpack(decks, "the decks")?;
    let (index, records) = cards_and_index(&sorted)?;

    let mut payload =
        Vec::with_capacity(game.len() + deck_bytes.len() + index.len() + records.len());
    let mut place = |bytes: &[u8]| -> Result<Section, EncodeError> {
        let offset = u32_len(payload.len())?;
        payload.extend_from_slice(bytes);
        Ok(Section {
            offset,
            len: u32_len(bytes.len())?,
        })
    };
    let sections = Sections {
        game: place(&game)?,
        decks: place(&deck_bytes)?,
        index: place(&index)?,
        cards: place(&records)?,
    };
    let header = Header {
        format_version: FORMAT_VERSION,
        format_minor: FORMAT_MINOR,
        card_count: u32_len(sorted.len())?,
        deck_count: u32_len(decks.len())?,
        source_hash,
        carta_version: carta_version(),
        payload_len: u32_len(payload.len())?,
        payload_crc32: crc32fast::hash(&payload),
        sections,
    };
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&header.to_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// The index and the cards section: the records in id order, grouped into
/// blocks of about [`BLOCK_TARGET`] bytes, each block compressed with zlib.
fn cards_and_index(sorted: &[&CardRecord<'_>]) -> Result<(Vec<u8>, Vec<u8>), EncodeError> {
    let ids_len: usize = sorted.iter().map(|c| c.id.len()).sum();
    let mut index = Vec::with_capacity(4 + INDEX_ENTRY_LEN * sorted.len() + ids_len);
    index.extend_from_slice(&u32_len(sorted.len())?.to_le_bytes());
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    let mut current = Vec::new();
    let mut record = Vec::new();
    let mut id_offset = 0usize;
    for card in sorted {
        check_depth(card)?;
        record.clear();
        rmp_serde::encode::write_named(&mut record, card).map_err(|source| {
            EncodeError::Encode {
                what: format!("card `{}`", card.id),
                source,
            }
        })?;
        if record.len() > MAX_BLOCK {
            return Err(EncodeError::RecordTooLarge {
                id: card.id.to_owned(),
                len: record.len(),
            });
        }
        // A block closes at the target size, or early when the next record
        // would take it past the most a block may inflate to.
        if current.len() >= BLOCK_TARGET || current.len() + record.len() > MAX_BLOCK {
            blocks.push(std::mem::take(&mut current));
        }
        let start = current.len();
        current.extend_from_slice(&record);
        let entry = [
            id_offset,
            card.id.len(),
            blocks.len(),
            start,
            current.len() - start,
        ];
        for n in entry {
            index.extend_from_slice(&u32_len(n)?.to_le_bytes());
        }
        id_offset += card.id.len();
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    for card in sorted {
        index.extend_from_slice(card.id.as_bytes());
    }
    Ok((index, cards_section(&blocks)?))
}

/// The cards section: the block table, then each block deflated (on every
/// core).
fn cards_section(blocks: &[Vec<u8>]) -> Result<Vec<u8>, EncodeError> {
    let stored: Vec<Vec<u8>> = blocks.par_iter().map(|b| deflate(b)).collect();
    let mut cards = Vec::with_capacity(
        4 + BLOCK_ENTRY_LEN * blocks.len() + stored.iter().map(Vec::len).sum::<usize>(),
    );
    cards.extend_from_slice(&u32_len(blocks.len())?.to_le_bytes());
    let mut offset = 4 + BLOCK_ENTRY_LEN * blocks.len();
    for (raw, packed) in blocks.iter().zip(&stored) {
        for n in [offset, packed.len(), raw.len()] {
            cards.extend_from_slice(&u32_len(n)?.to_le_bytes());
        }
        offset += packed.len();
    }
    for packed in stored {
        cards.extend_from_slice(&packed);
    }
    Ok(cards)
}

/// A zlib stream (RFC 1950) of `raw`, at the default level.
fn deflate(raw: &[u8]) -> Vec<u8> {
    let mut enc = ZlibEncoder::new(Vec::with_capacity(raw.len() / 3), Compression::default());
    enc.write_all(raw).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

fn check_depth(card: &CardRecord<'_>) -> Result<(), EncodeError> {
    for (field, value) in card.fields {
        if depth_exceeds(value, MAX_DEPTH) {
            return Err(EncodeError::TooDeep {
                id: card.id.to_owned(),
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
}
