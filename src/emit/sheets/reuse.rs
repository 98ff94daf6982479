//! The build's cache of rendered faces, `build/.cache/<game>.<sheets>.faces`:
//! each printed card's face and back as the last build rendered them, keyed
//! by everything they were rendered from, so that a rebuild renders only
//! the cards whose inputs changed and copies the others' HTML (the sheets
//! are byte for byte those of a build without it).
//!
//! A card's key covers the game's key — carta's version, the templates, the
//! icons, the manifest, the schemas, the printed language's translations,
//! the ink-saver choice — and the card itself (id, kind, name, copies and
//! every field, packed), the copies printed and its art's content-hashed
//! URLs. What a face reads of *other* cards (a reference shown by the named
//! card's name, the `card` helper) is recorded as it renders: the entry
//! names those cards with a hash of each, and serves only while each is
//! unchanged.
//!
//! ```text
//! magic    8 bytes  "carta-r1"
//! game     16 bytes the game's key
//! bodies            each entry's face and back, one after the other
//! index             MessagePack: per entry its key, offset, lengths,
//!                   checksum and the cards it read
//! length   u64 LE   of the index
//! checksum u64 LE   of the index
//! magic    8 bytes  "carta-r1"
//! ```
//!
//! The file is written anew by every build that uses it (only the entries
//! of that build: the rest is pruned by not being copied), streamed into a
//! temporary file renamed over the old one, through the confined writer.
//! A file whose magic, game key, lengths or index checksum is wrong is
//! ignored; an entry whose bytes do not match their checksum, or are not
//! UTF-8, is rendered again. Hashes are foldhash's with fixed seeds (stable
//! for one build of carta; the game's key includes carta's version).

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::hash::{BuildHasher, Hash, Hasher};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::reads::recording;
use super::renderer::{Rendered, Renderer};
use super::{Inputs, Print};
use crate::diag::SourceMap;
use crate::game::Game;
use crate::validate::RawCard;
use crate::write::Folder;

const MAGIC: &[u8; 8] = b"carta-r1";
const HEADER: u64 = 24;
const FOOTER: u64 = 24;
/// The largest index read; a larger one is ignored (and replaced).
const MAX_INDEX: u64 = 256 << 20;
/// The most bytes read in one go for a batch's faces.
const MAX_SPAN: u64 = 8 << 20;

/// 128 bits of hash: two `DefaultHasher`s fed the same input after
/// different prefixes.
type Key = [u64; 2];

/// The other cards a face read, each with its hash ([`card_hash`]) then.
type ReadCards = Vec<(String, u64)>;

/// One cached face and back.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Slot {
    key: Key,
    /// Where the face starts in the file; the back follows it.
    at: u64,
    face: u32,
    back: u32,
    /// Hash of the face and back bytes.
    sum: u64,
    /// The other cards the face or back read, each with its hash then.
    read: ReadCards,
}

/// A hasher whose output depends on `seed` and the input alone (foldhash
/// with a fixed seed: fast on long texts, and the same in every run of one
/// build of carta).
fn hasher(seed: u64) -> Fold {
    foldhash::fast::FixedState::with_seed(seed).build_hasher()
}

type Fold = foldhash::fast::FoldHasher<'static>;

fn key_of(write: impl Fn(&mut Fold)) -> Key {
    let mut keys = [0; 2];
    for (seed, key) in (1..).zip(keys.iter_mut()) {
        let mut h = hasher(seed);
        write(&mut h);
        *key = h.finish();
    }
    keys
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = hasher(0);
    bytes.hash(&mut h);
    h.finish()
}

/// What a card is, whoever prints it: id, kind, name, copies, every field.
fn card_hash(card: &RawCard) -> u64 {
    let mut h = hasher(0);
    (&card.id, &card.kind, &card.name, card.copies).hash(&mut h);
    match &card.packed {
        Some(packed) => packed.bytes().hash(&mut h),
        None => serde_json::to_string(&card.fields)
            .unwrap_or_default()
            .hash(&mut h),
    }
    h.finish()
}

/// The game's key: everything besides the card that a face renders from.
pub(super) fn game_key(
    game: &Game,
    inputs: &Inputs,
    sources: &SourceMap,
    icons: &impl std::fmt::Debug,
    ink_saver: bool,
) -> Key {
    let m = &game.manifest.manifest;
    let manifest = serde_json::to_string(m).unwrap_or_default();
    let mut docs: Vec<(&str, String)> = game
        .schemas
        .documents()
        .map(|(uri, doc)| (uri, doc.to_string()))
        .collect();
    docs.sort_unstable();
    let icons = format!("{icons:?}");
    key_of(|h| {
        (env!("CARGO_PKG_VERSION"), ink_saver, inputs.sound).hash(h);
        for t in &inputs.templates {
            (&t.name, &*sources.get(t.file).text).hash(h);
        }
        (&icons, &manifest, &docs).hash(h);
        if let Some(catalog) = game.i18n.catalog(&m.language) {
            for (key, entry) in &catalog.entries {
                (format!("{key:?}"), &entry.text).hash(h);
            }
        }
    })
}

/// Where a build keeps the faces it rendered: the workspace and the
/// file's name under its `build/.cache/` (one file per sheets folder of a
/// game: `<game>.sheets.faces`, `<game>.sheets-<lang>.faces`).
#[derive(Debug, Clone, Copy)]
pub struct FacesAt<'a> {
    /// The workspace root.
    pub root: &'a Path,
    /// The cache file's name.
    pub name: &'a str,
}

/// The cache a sheets document reads its faces from and writes them into.
pub(super) struct FaceCache {
    game: Key,
    old: Option<(File, HashMap<Key, Slot>)>,
    new: Writing,
}

/// The cache file being written.
struct Writing {
    folder: Folder,
    name: String,
    tmp: String,
    out: BufWriter<File>,
    at: u64,
    slots: Vec<Slot>,
}

impl FaceCache {
    /// The cache `name` under `build/.cache/` of the workspace at `root`,
    /// for a game whose key is `game`: the last build's entries when they
    /// were written for the same key, and a new file to write. `None` when
    /// the cache folder cannot be used (a link, a read-only workspace):
    /// the build renders every face, as without a cache.
    pub(super) fn open(root: &Path, name: &str, game: Key) -> Option<FaceCache> {
        let folder = Folder::workspace(root)
            .and_then(|root| root.sub(Path::new("build").join(".cache")))
            .ok()?;
        let old = folder
            .open_read(name)
            .ok()
            .flatten()
            .and_then(|file| read_index(file, game));
        let tmp = format!("{name}.tmp-{}", std::process::id());
        folder.remove_file(&tmp).ok()?;
        let mut out = BufWriter::new(folder.create_new(&tmp).ok()?);
        out.write_all(MAGIC).ok()?;
        for word in game {
            out.write_all(&word.to_le_bytes()).ok()?;
        }
        let new = Writing {
            folder,
            name: name.to_owned(),
            tmp,
            out,
            at: HEADER,
            slots: Vec::new(),
        };
        Some(FaceCache { game, old, new })
    }

    /// The key of print `p` with its art URLs `images`.
    fn key(&self, p: Print<'_>, images: &BTreeMap<String, String>) -> Key {
        let card = card_hash(p.card);
        key_of(|h| (self.game, card, p.count, images).hash(h))
    }

    /// The entry of `key`, when the old file has one and each card it read
    /// is unchanged in `game`.
    fn slot(&self, key: &Key, game: &Game) -> Option<&Slot> {
        let slot = self.old.as_ref()?.1.get(key)?;
        let same = slot
            .read
            .iter()
            .all(|(id, h)| game.pool.get(id).map_or(0, card_hash) == *h);
        same.then_some(slot)
    }

    /// The face and back of each entry of `slots` that is intact. Entries
    /// lying close together (as a rebuild finds them: in the order the
    /// last build wrote them) are read in one go.
    fn read(&self, slots: &[Option<&Slot>]) -> Vec<Option<(String, String)>> {
        let Some((file, _)) = &self.old else {
            return slots.iter().map(|_| None).collect();
        };
        let end = |s: &Slot| s.at + u64::from(s.face) + u64::from(s.back);
        let lo = slots.iter().flatten().map(|s| s.at).min().unwrap_or(0);
        let hi = slots.iter().flatten().map(|s| end(s)).max().unwrap_or(0);
        let span = (hi - lo <= MAX_SPAN)
            .then(|| {
                let mut buf = vec![0; usize::try_from(hi - lo).ok()?];
                file.read_exact_at(&mut buf, lo).ok().map(|()| buf)
            })
            .flatten();
        slots
            .iter()
            .map(|slot| {
                let slot = (*slot)?;
                let owned;
                let bytes = if let Some(buf) = &span {
                    let at = usize::try_from(slot.at - lo).ok()?;
                    buf.get(at..at + (slot.face + slot.back) as usize)?
                } else {
                    let mut one = vec![0; (slot.face + slot.back) as usize];
                    file.read_exact_at(&mut one, slot.at).ok()?;
                    owned = one;
                    &owned
                };
                if hash_bytes(bytes) != slot.sum {
                    return None;
                }
                let (face, back) = bytes.split_at(slot.face as usize);
                Some((
                    std::str::from_utf8(face).ok()?.to_owned(),
                    std::str::from_utf8(back).ok()?.to_owned(),
                ))
            })
            .collect()
    }

    /// Appends one entry to the new file.
    fn put(&mut self, key: Key, r: &Rendered, read: ReadCards) -> io::Result<()> {
        let w = &mut self.new;
        let (face, back) = (r.face.as_bytes(), r.back.as_bytes());
        let lengths = (u32::try_from(face.len()), u32::try_from(back.len()));
        let (Ok(face_len), Ok(back_len)) = lengths else {
            // A face of 4 GiB is not worth keeping.
            return Ok(());
        };
        let mut h = hasher(0);
        // As `hash_bytes` of the two together.
        [face, back].concat().hash(&mut h);
        w.out.write_all(face)?;
        w.out.write_all(back)?;
        w.slots.push(Slot {
            key,
            at: w.at,
            face: face_len,
            back: back_len,
            sum: h.finish(),
            read,
        });
        w.at += u64::from(face_len) + u64::from(back_len);
        Ok(())
    }

    /// Writes the index and puts the new file in place of the old one.
    /// A cache that cannot be written only makes the next build slower.
    pub(super) fn finish(self) {
        let mut w = self.new;
        let written = (|| -> io::Result<()> {
            let index = rmp_serde::to_vec(&w.slots).map_err(io::Error::other)?;
            w.out.write_all(&index)?;
            w.out.write_all(&(index.len() as u64).to_le_bytes())?;
            w.out.write_all(&hash_bytes(&index).to_le_bytes())?;
            w.out.write_all(MAGIC)?;
            w.out.flush()
        })();
        let placed = written.is_ok() && w.folder.rename(&w.tmp, &w.folder, &w.name).is_ok();
        if !placed {
            let _ = w.folder.remove_file(&w.tmp);
        }
    }

    /// Gives up the new file (the build failed): the old one stays.
    pub(super) fn discard(self) {
        let _ = self.new.folder.remove_file(&self.new.tmp);
    }
}

/// The index of the old cache file, when it is intact and was written for
/// the game's key `game`.
fn read_index(file: File, game: Key) -> Option<(File, HashMap<Key, Slot>)> {
    let len = file.metadata().ok()?.len();
    let body_end = len.checked_sub(FOOTER)?;
    let mut footer = [0; FOOTER as usize];
    file.read_exact_at(&mut footer, body_end).ok()?;
    let word = |at: usize| u64::from_le_bytes(footer[at..at + 8].try_into().expect("8 bytes"));
    let (index_len, index_sum) = (word(0), word(8));
    let index_at = body_end.checked_sub(index_len)?;
    if &footer[16..] != MAGIC || index_len > MAX_INDEX || index_at < HEADER {
        return None;
    }
    let mut header = [0; HEADER as usize];
    file.read_exact_at(&mut header, 0).ok()?;
    let mut key = [0; 2];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u64::from_le_bytes(header[8 + 8 * i..16 + 8 * i].try_into().expect("8 bytes"));
    }
    if &header[..8] != MAGIC || key != game {
        return None;
    }
    let mut index = vec![0; usize::try_from(index_len).ok()?];
    file.read_exact_at(&mut index, index_at).ok()?;
    if hash_bytes(&index) != index_sum {
        return None;
    }
    let slots: Vec<Slot> = rmp_serde::from_slice(&index).ok()?;
    let inside =
        |s: &Slot| s.at >= HEADER && s.at + u64::from(s.face) + u64::from(s.back) <= index_at;
    let slots = slots
        .into_iter()
        .filter(inside)
        .map(|s| (s.key, s))
        .collect();
    Some((file, slots))
}

/// Renders `prints` (each with its art URLs) on every core, taking from
/// `cache` each face and back it holds; writes each print from `fresh`
/// on (those an earlier batch did not write) into the new cache, in order.
///
/// # Errors
/// When the new cache file cannot be written.
pub(super) fn render_batch(
    renderer: &Renderer<'_>,
    game: &Game,
    (prints, images): (&[Print<'_>], &[&BTreeMap<String, String>]),
    cache: &mut FaceCache,
    fresh: usize,
) -> io::Result<Vec<Rendered>> {
    let keys: Vec<Key> = prints
        .par_iter()
        .zip(images.par_iter())
        .map(|(p, im)| cache.key(*p, im))
        .collect();
    let slots: Vec<Option<&Slot>> = keys.iter().map(|k| cache.slot(k, game)).collect();
    let found: Vec<_> = cache
        .read(&slots)
        .into_iter()
        .zip(&slots)
        .map(|(faces, slot)| Some((faces?, slot.as_ref()?.read.clone())))
        .map(|hit| hit.map(|((face, back), read)| (face, back, read)))
        .collect();
    let made: Vec<(Rendered, ReadCards)> = prints
        .par_iter()
        .zip(images.par_iter())
        .zip(found)
        .map(|((p, im), hit)| {
            if let Some((face, back, read)) = hit {
                let size = renderer.card_box(&p.card.kind);
                return (Rendered::reused(face, back, size), read);
            }
            let (r, read) = recording(|| renderer.render(*p, im));
            // A card that is not there (hash 0) must still not be there.
            let read = read
                .into_iter()
                .map(|id| {
                    let h = game.pool.get(&id).map_or(0, card_hash);
                    (id, h)
                })
                .collect();
            (r, read)
        })
        .collect();
    let mut out = Vec::with_capacity(made.len());
    for (i, (r, read)) in made.into_iter().enumerate() {
        if i >= fresh && !r.failed() {
            cache.put(keys[i], &r, read)?;
        }
        out.push(r);
    }
    Ok(out)
}
