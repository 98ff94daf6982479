//! The deck schema written as a patch of the last one. A game's deck
//! schema lists every card (5 MB at 20,000 cards), and one name edit
//! changes one line of it: deriving and writing it whole cost a name edit
//! more than anything else in `carta check`. So each write leaves beside
//! the check cache an index of the file it wrote,
//! `build/.cache/<game>.deck-index` — its length, CRC-32, what its lines
//! depend on besides the cards, and where each card file's lines lie in
//! each zone (by the digest of its cards) — and the next write takes from
//! that file every card file's lines whose cards did not change, writing
//! anew only the rest and the schema around the zones.
//!
//! The previous file is used only when it is, byte for byte, the one the
//! index describes (its length and CRC-32 match, it is a regular file
//! reached without a link): anything else — no index, a damaged or
//! foreign one, a file edited by hand — and the schema is written whole.
//! Either way the bytes are those of [`super::DeckSchema::text`], which a
//! test holds through renames, new and deleted card files.
//!
//! ```text
//! magic     8 bytes  "carta-e1"
//! checksum  u64 LE   hash of the payload
//! payload            MessagePack: the Index
//! ```

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::decks::{DeckSchema, Piece, Segment};
use super::{FORMAT, deck_schema_path};
use crate::config::Manifest;
use crate::emit::EmitError;
use crate::write::{self, Folder};

const MAGIC: &[u8; 8] = b"carta-e1";

/// The largest index read (a game's has a few words per card file and zone).
const MAX_INDEX: u64 = 16 << 20;

/// What the index says of the deck schema it was written with.
#[derive(Debug, Serialize, Deserialize)]
struct Index {
    /// What the lines depend on besides the cards ([`head`]).
    head: u64,
    /// The file's length and CRC-32.
    len: u64,
    crc: u32,
    /// Per zone (in the manifest's order), each card file's segment.
    zones: Vec<Vec<Segment>>,
}

/// Writes game `schema`'s deck schema into the workspace at `root`,
/// atomically: patched from the last one where the index vouches for it,
/// else whole; then its index, when `build/.cache/` exists (a check
/// through the cache made it; a link there is not followed, and only
/// makes the next write a whole one).
///
/// # Errors
/// When the schema cannot be written (a link or something else than a
/// file where it goes, an I/O error).
pub(super) fn write(root: &Path, schema: &DeckSchema<'_>) -> Result<(), EmitError> {
    let m = schema.manifest;
    let rel = deck_schema_path(&m.id);
    let (dir, name) = write::split(Path::new(&rel));
    let workspace = Folder::workspace(root)?;
    let folder = workspace.sub(dir)?;
    let cache = workspace.existing("build/.cache").ok().flatten();
    let head = head(m);
    let old = cache
        .as_ref()
        .and_then(|c| previous(c, &folder, name, &m.id, head));
    let built = schema.build(old.as_ref().map(|o| &o.zones[..]));
    let bytes = old.as_ref().map_or(&[][..], |o| &o.bytes[..]);
    let mut crc = crc32fast::Hasher::new();
    folder.write_atomic_with(name, |file| {
        for piece in &built.pieces {
            let part = match piece {
                Piece::Text(text) => text.as_bytes(),
                Piece::Old(range) => &bytes[range.clone()],
            };
            crc.update(part);
            file.write_all(part)?;
        }
        Ok(())
    })?;
    if let Some(cache) = cache {
        let index = Index {
            head,
            len: built.len as u64,
            crc: crc.finalize(),
            zones: built.zones,
        };
        save(&cache, &m.id, &index);
    }
    Ok(())
}

/// What a deck schema's card lines depend on besides the cards: the
/// kinds' names, the zones and the kinds each takes, how the lines are
/// written (carta's version and the editor files' format).
fn head(m: &Manifest) -> u64 {
    let mut h = DefaultHasher::new();
    (FORMAT, env!("CARGO_PKG_VERSION"), crate::deck::MAX_COUNT).hash(&mut h);
    serde_json::to_string(&(&m.kinds, &m.zones))
        .expect("the manifest serializes")
        .hash(&mut h);
    h.finish()
}

fn index_name(game: &str) -> String {
    format!("{game}.deck-index")
}

/// The previous deck schema (file `name` of `folder`), when game `game`'s
/// index in `cache` describes it exactly and was written for `head`.
fn previous(cache: &Folder, folder: &Folder, name: &str, game: &str, head: u64) -> Option<Owned> {
    let index = read_index(cache, game)?;
    if index.head != head {
        return None;
    }
    let bytes = folder.read(name, index.len)?;
    if bytes.len() as u64 != index.len || crc32fast::hash(&bytes) != index.crc {
        return None;
    }
    let in_file = |s: &Segment| -> Option<(u64, Range<usize>)> {
        let range = usize::try_from(s.start).ok()?..usize::try_from(s.end).ok()?;
        (range.start <= range.end && range.end <= bytes.len()).then_some((s.digest, range))
    };
    let zones = index
        .zones
        .iter()
        .map(|segments| segments.iter().map(in_file).collect())
        .collect::<Option<Vec<HashMap<_, _>>>>()?;
    Some(Owned { bytes, zones })
}

/// The previous file's bytes and where each card file's lines lie in it
/// (see [`super::decks::Previous`]).
struct Owned {
    bytes: Vec<u8>,
    zones: Vec<HashMap<u64, Range<usize>>>,
}

/// Game `game`'s index, if one is there, intact.
fn read_index(cache: &Folder, game: &str) -> Option<Index> {
    let bytes = cache.read(&index_name(game), MAX_INDEX)?;
    let (header, payload) = bytes.split_at_checked(16)?;
    let checksum = u64::from_le_bytes(header[8..].try_into().ok()?);
    (&header[..8] == MAGIC && checksum == hash_bytes(payload))
        .then(|| rmp_serde::from_slice(payload).ok())?
}

/// Writes game `game`'s index (replacing whatever entry is there without
/// following it; an index that cannot be written only makes the next
/// write a whole one).
fn save(cache: &Folder, game: &str, index: &Index) {
    let Ok(payload) = rmp_serde::to_vec(index) else {
        return;
    };
    let mut bytes = Vec::with_capacity(16 + payload.len());
    bytes.extend(MAGIC);
    bytes.extend(hash_bytes(&payload).to_le_bytes());
    bytes.extend(payload);
    let _ = cache.replace(&index_name(game), &bytes, false);
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}
