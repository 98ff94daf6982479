//! The build's cache of rendered faces, `build/.cache/<game>.<sheets>.faces`:
//! where the last build's `index.html` holds each printed card's face and
//! back, and each sheet, keyed by everything they were rendered from, so
//! that a rebuild renders only the cards whose inputs changed, copies each
//! unchanged sheet whole from the last output, and takes the other faces
//! it needs from there (the sheets are byte for byte those of a build
//! without it).
//!
//! A card's key covers the game's key — the templates, the
//! icons, the manifest, the schemas, the printed language's translations,
//! the ink-saver choice — and the card itself (id, kind, name, copies and
//! every field, packed), the copies printed and its art's content-hashed
//! URLs. What a face reads of *other* cards (a reference shown by the named
//! card's name, the `card` helper) is recorded as it renders: the entry
//! names those cards with a hash of each, and serves only while each is
//! unchanged. A sheet's key covers the layout (paper, margins, duplex, cut
//! lines, its grid), its page number and the key and copy of each card in
//! it; a sheet serves only while each of its cards' entries does.
//!
//! `faces_index` is the file, framed as every cache file is (keyed by the
//! running carta too: another build may render otherwise).
//!
//! The cache holds no HTML: the last output is the store, read through the
//! output folder without following a link. The index is written anew by
//! every build that uses it (only the entries of that build), atomically
//! through the confined writer, before the stage is put in place; a build
//! that fails, or whose stage is not put in place, leaves an index that the
//! output it finds does not match. A file whose magic, program, game key
//! or checksum is wrong, or whose output has another length, is ignored; a
//! sheet or a face whose bytes do not match their checksum (or are not
//! UTF-8) is not used: the sheet is written again, the face rendered
//! again. Hashes are foldhash's with fixed seeds (stable for one build of
//! carta, which the file is keyed by).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::hash::{BuildHasher, Hash, Hasher};
use std::io::{self, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::Path;

use rayon::prelude::*;

pub(super) use super::faces_index::Key;
use super::faces_index::{Index, Part, ReadCards, Slot, checksum};
use super::reads::recording;
use super::renderer::{Rendered, Renderer};
use super::{Inputs, Print};
use crate::diag::SourceMap;
use crate::game::Game;
use crate::validate::RawCard;
use crate::write::Folder;

/// A hasher whose output depends on `seed` and the input alone (foldhash
/// with a fixed seed: fast on long texts, and the same in every run of one
/// build of carta).
fn hasher(seed: u64) -> Fold {
    foldhash::fast::FixedState::with_seed(seed).build_hasher()
}

type Fold = foldhash::fast::FoldHasher<'static>;

/// The hasher of the maps keyed by a [`Key`]: a key is a hash already, so
/// foldhash's fast one (`std`'s `SipHash`, built against hash flooding,
/// would only hash it again slowly on every lookup).
pub(super) type ByKey = foldhash::fast::RandomState;

fn key_of(write: impl Fn(&mut Fold)) -> Key {
    let mut keys = [0; 2];
    for (seed, key) in (1..).zip(keys.iter_mut()) {
        let mut h = hasher(seed);
        write(&mut h);
        *key = h.finish();
    }
    keys
}

/// The checksum of a card's face and back as the output holds them.
fn sum_of(face: &[u8], back: Option<&[u8]>) -> u64 {
    let mut h = hasher(0);
    (face, back).hash(&mut h);
    h.finish()
}

/// What a card is, whoever prints it: id, kind, name, copies, every field.
///
/// Every field of a card is named here: a field added to [`RawCard`] does
/// not compile until it is hashed or said not to print.
fn card_hash(card: &RawCard) -> u64 {
    let RawCard {
        id,
        kind,
        name,
        copies,
        errata,
        fields,
        packed,
        // Where the card is written prints nowhere; its references are
        // values of its fields, hashed with them.
        file: _,
        header: _,
        id_span: _,
        refs: _,
        // What `fields` or `packed` hold, named.
        names: _,
    } = card;
    let mut h = hasher(0);
    (id, kind, name, copies).hash(&mut h);
    // A face may show the errata mark and the version.
    serde_json::to_string(errata)
        .unwrap_or_default()
        .hash(&mut h);
    match packed {
        // Every field, when packed; `fields` is then a subset of them.
        Some(packed) => packed.bytes().hash(&mut h),
        None => serde_json::to_string(fields)
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
        (ink_saver, inputs.sound).hash(h);
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

/// The key of print `p` with its art URLs `images`, for a game whose key
/// is `game`.
pub(super) fn print_key(game: Key, p: Print<'_>, images: &BTreeMap<String, String>) -> Key {
    let card = card_hash(p.card);
    key_of(|h| (game, card, p.count, images).hash(h))
}

/// The other cards `read` (by id), each with its hash in `game` (0 for a
/// card that is not there, which must still not be there).
pub(super) fn read_cards(read: impl IntoIterator<Item = String>, game: &Game) -> ReadCards {
    read.into_iter()
        .map(|id| {
            let h = game.pool.get(&id).map_or(0, card_hash);
            (id, h)
        })
        .collect()
}

/// Whether each card of `read` is unchanged in `game`.
pub(super) fn unchanged(read: &ReadCards, game: &Game) -> bool {
    read.iter()
        .all(|(id, h)| game.pool.get(id).map_or(0, card_hash) == *h)
}

/// The key of anything described by `what` (a layout, a grid), by its
/// `Debug` text.
pub(super) fn key_of_debug(what: &impl std::fmt::Debug) -> Key {
    let text = format!("{what:?}");
    key_of(|h| text.hash(h))
}

/// Where a build keeps what it needs to reuse the faces it rendered: the
/// workspace, the cache file's name under its `build/.cache/` (one file
/// per sheets folder of a game: `<game>.sheets.faces`,
/// `<game>.sheets-<lang>.faces`), and the last build's `index.html`, the
/// faces themselves.
#[derive(Debug)]
pub struct FacesAt<'a> {
    /// The workspace root.
    pub root: &'a Path,
    /// The cache file's name.
    pub name: &'a str,
    /// The `index.html` the last build put in place, opened for reading.
    pub output: Option<File>,
}

/// The cache a sheets document reads its faces from and writes them into.
pub(super) struct FaceCache {
    game: Key,
    layout: Key,
    duplex: bool,
    old: Option<Old>,
    folder: Folder,
    name: String,
    /// What this build's output holds so far.
    new: Index,
    /// The cards of `new` (an entry per card, where it is first placed).
    placed: HashSet<Key, ByKey>,
    /// The cards this batch rendered or took from the old output, by key:
    /// the cards they read.
    pending: HashMap<Key, ReadCards, ByKey>,
    /// The buffer the old sheets of a batch are read into.
    buffer: Vec<u8>,
}

/// The last build's output and what its index says of it.
struct Old {
    output: File,
    cards: HashMap<Key, Slot, ByKey>,
    sheets: HashMap<Key, Part, ByKey>,
}

/// A sheet of the last output that serves as it is: where it lay, and
/// where its bytes, checked, lie in the batch's buffer ([`OldSheets`]).
struct Reused {
    part: Part,
    bytes: Range<usize>,
}

/// The sheets of one batch that the last output holds as they are, read
/// in one piece per run of sheets that lay one after the other.
pub(super) struct OldSheets {
    /// Each sheet of the batch, when it serves.
    sheets: Vec<Option<Reused>>,
    bytes: Vec<u8>,
    /// The bytes of the sheets put but not written yet.
    held: Option<Range<usize>>,
}

impl OldSheets {
    /// Whether sheet `i` of the batch serves as the last output holds it.
    pub(super) fn serves(&self, i: usize) -> bool {
        self.sheets[i].is_some()
    }

    /// Writes old sheet `i` to `out`, notes it in `cache`: held back while
    /// the next may follow it in the buffer, to be written with it.
    pub(super) fn put(
        &mut self,
        i: usize,
        cards: &[Key],
        cache: &mut FaceCache,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let Some(reused) = &self.sheets[i] else {
            return Ok(());
        };
        cache.copied(reused, cards);
        let next = reused.bytes.clone();
        match &mut self.held {
            Some(held) if held.end == next.start => held.end = next.end,
            _ => {
                self.flush(out)?;
                self.held = Some(next);
            }
        }
        Ok(())
    }

    /// Writes to `out` what [`OldSheets::put`] held back.
    pub(super) fn flush(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.held.take() {
            Some(held) => out.write_all(&self.bytes[held]),
            None => Ok(()),
        }
    }
}

impl FaceCache {
    /// The cache `at` for a game whose key is `game`, laid out as `layout`
    /// says (`duplex`: whether it prints backs): the last build's entries
    /// when they were written for the same game key and describe the
    /// output found. `None` when the cache folder cannot be used (a link, a
    /// read-only workspace): the build renders every face, as without a
    /// cache.
    pub(super) fn open(at: FacesAt<'_>, game: Key, (layout, duplex): (Key, bool)) -> Option<Self> {
        let folder = crate::cache::folder(at.root).ok()?;
        let old = at.output.and_then(|output| {
            let index = Index::read(&folder.read(at.name, crate::cache::MAX_FILE)?, game)?;
            (output.metadata().ok()?.len() == index.len).then(|| Old {
                output,
                cards: index.cards.into_iter().map(|s| (s.key, s)).collect(),
                sheets: index.sheets.into_iter().map(|p| (p.key, p)).collect(),
            })
        });
        Some(FaceCache {
            game,
            layout,
            duplex,
            old,
            folder,
            name: at.name.to_owned(),
            new: Index::default(),
            placed: HashSet::default(),
            pending: HashMap::default(),
            buffer: Vec::new(),
        })
    }

    /// The keys of `prints` (each with its art URLs `images`).
    pub(super) fn keys(
        &self,
        prints: &[Print<'_>],
        images: &[&BTreeMap<String, String>],
    ) -> Vec<Key> {
        prints
            .par_iter()
            .zip(images.par_iter())
            .map(|(p, im)| print_key(self.game, *p, im))
            .collect()
    }

    /// The key of the sheet whose faces page is `number`, on the grid
    /// whose key is `grid`, holding `cards` (each card's key and copy).
    pub(super) fn sheet_key(&self, number: usize, grid: Key, cards: &[(Key, u32)]) -> Key {
        key_of(|h| (self.game, self.layout, number, grid, cards).hash(h))
    }

    /// The entry of `key`, when the old output has one and each card it
    /// read is unchanged in `game`.
    fn slot(&self, key: &Key, game: &Game) -> Option<&Slot> {
        let slot = self.old.as_ref()?.cards.get(key)?;
        unchanged(&slot.read, game).then_some(slot)
    }

    /// The sheets of a batch (each its key and its cards' keys) that the
    /// old output holds intact, each of whose cards' entries serves. A run
    /// of them that lay one after the other is read at once, into a buffer
    /// kept from batch to batch.
    pub(super) fn old_sheets(&mut self, batch: &[(Key, Vec<Key>)], game: &Game) -> OldSheets {
        let mut bytes = std::mem::take(&mut self.buffer);
        bytes.clear();
        let parts: Vec<Option<Part>> = batch
            .iter()
            .map(|(key, cards)| {
                let part = *self.old.as_ref()?.sheets.get(key)?;
                cards
                    .iter()
                    .all(|k| self.slot(k, game).is_some())
                    .then_some(part)
            })
            .collect();
        let mut sheets: Vec<Option<Reused>> = Vec::with_capacity(parts.len());
        let mut i = 0;
        while i < parts.len() {
            let Some(first) = parts[i] else {
                sheets.push(None);
                i += 1;
                continue;
            };
            let mut end = i + 1;
            let mut run_end = first.at + first.len;
            while let Some(Some(next)) = parts.get(end)
                && next.at == run_end
            {
                run_end += next.len;
                end += 1;
            }
            let read = self.read_run(&mut bytes, first.at, run_end);
            for part in parts[i..end].iter().flatten() {
                let start = usize::try_from(part.at - first.at).ok();
                let found = read
                    .zip(start)
                    .and_then(|(at, start)| {
                        let range = at + start..at + start + usize::try_from(part.len).ok()?;
                        (checksum(bytes.get(range.clone())?) == part.sum).then_some(range)
                    })
                    .map(|range| Reused {
                        part: *part,
                        bytes: range,
                    });
                sheets.push(found);
            }
            i = end;
        }
        OldSheets {
            sheets,
            bytes,
            held: None,
        }
    }

    /// Appends bytes `from..to` of the old output to `bytes`, and says
    /// where they begin there; `None` when they cannot be read.
    fn read_run(&self, bytes: &mut Vec<u8>, from: u64, to: u64) -> Option<usize> {
        let output = &self.old.as_ref()?.output;
        let at = bytes.len();
        bytes.resize(at + usize::try_from(to - from).ok()?, 0);
        if output.read_exact_at(&mut bytes[at..], from).is_err() {
            bytes.truncate(at);
            return None;
        }
        Some(at)
    }

    /// Takes back the buffer of a batch's old sheets, for the next batch.
    pub(super) fn recycle(&mut self, old: OldSheets) {
        self.buffer = old.bytes;
    }

    /// The face and back of `key` from the old output, when its entry
    /// serves and its bytes are intact.
    fn old_faces(&self, key: &Key, game: &Game) -> Option<(String, String, ReadCards)> {
        let slot = self.slot(key, game)?;
        if slot.back.is_some() != self.duplex {
            return None;
        }
        let file = &self.old.as_ref()?.output;
        let read = |(at, len): (u64, u32)| {
            let mut bytes = vec![0; len as usize];
            file.read_exact_at(&mut bytes, at).ok().map(|()| bytes)
        };
        let face = read(slot.face)?;
        let back = match slot.back {
            Some(b) => Some(read(b)?),
            None => None,
        };
        if sum_of(&face, back.as_deref()) != slot.sum {
            return None;
        }
        let text = |b: Vec<u8>| String::from_utf8(b).ok();
        let back = back.map_or(Some(String::new()), text)?;
        Some((text(face)?, back, slot.read.clone()))
    }

    /// Notes that `len` bytes of the output were written (the head, the
    /// cover, the tail).
    pub(super) fn wrote(&mut self, len: usize) {
        self.new.len += len as u64;
    }

    /// Notes the sheet of `key` written anew as `bytes`, with each card's
    /// key and where its face (and back) went in `bytes`.
    pub(super) fn wrote_sheet(
        &mut self,
        key: Key,
        bytes: &[u8],
        cards: impl Iterator<Item = (Key, Range<usize>, Option<Range<usize>>)>,
    ) {
        let at = self.new.len;
        for (card, face, back) in cards {
            if self.placed.contains(&card) {
                continue;
            }
            let Some(read) = self.pending.get(&card) else {
                continue;
            };
            let span = |r: &Range<usize>| Some((at + r.start as u64, u32::try_from(r.len()).ok()?));
            let back_at = match &back {
                Some(r) => match span(r) {
                    Some(b) => Some(b),
                    None => continue,
                },
                None => None,
            };
            let Some(face_at) = span(&face) else {
                continue;
            };
            let back_bytes = back.map(|r| &bytes[r]);
            self.placed.insert(card);
            self.new.cards.push(Slot {
                key: card,
                face: face_at,
                back: back_at,
                sum: sum_of(&bytes[face], back_bytes),
                read: read.clone(),
            });
        }
        let sum = checksum(bytes);
        self.push_sheet(key, bytes.len() as u64, sum);
    }

    /// Notes the sheet `reused` copied whole, holding the cards `cards`:
    /// each card's entry moves with it, when the old one lay in it.
    fn copied(&mut self, reused: &Reused, cards: &[Key]) {
        let (part, at) = (reused.part, self.new.len);
        if let Some(old) = &self.old {
            let inside =
                |(o, l): (u64, u32)| o >= part.at && o + u64::from(l) <= part.at + part.len;
            let moved = |(o, l): (u64, u32)| (o - part.at + at, l);
            for key in cards {
                let Some(slot) = old.cards.get(key) else {
                    continue;
                };
                if self.placed.contains(key) || !inside(slot.face) || !slot.back.is_none_or(inside)
                {
                    continue;
                }
                self.placed.insert(*key);
                self.new.cards.push(Slot {
                    face: moved(slot.face),
                    back: slot.back.map(moved),
                    ..slot.clone()
                });
            }
        }
        self.push_sheet(part.key, part.len, part.sum);
    }

    fn push_sheet(&mut self, key: Key, len: u64, sum: u64) {
        let at = self.new.len;
        self.new.sheets.push(Part { key, at, len, sum });
        self.new.len += len;
    }

    /// Writes the index of the output just written, in place of the old
    /// one. A cache that cannot be written only makes the next build
    /// slower.
    pub(super) fn finish(self) {
        let FaceCache {
            game,
            old,
            folder,
            name,
            new,
            placed,
            pending,
            buffer,
            ..
        } = self;
        // The last output's index and the batches' tables are done with:
        // freed before the new index is encoded, not held beside it (the
        // old index grows with the cards, so the peak would hold two).
        drop((old, placed, pending, buffer));
        if let Some(file) = new.file(game) {
            let _ = folder.replace(&name, &file);
        }
    }
}

/// The faces of `prints` (each with its art URLs `images` and its key
/// `keys`) that `needed` marks, rendered on every core or taken from the
/// last output when `cache` holds them intact; the others are left empty
/// (their sheets are copied whole). Notes in `cache` what each face read.
pub(super) fn render_batch(
    renderer: &Renderer<'_>,
    game: &Game,
    (prints, images, keys): (&[Print<'_>], &[&BTreeMap<String, String>], &[Key]),
    needed: &[bool],
    cache: &mut FaceCache,
) -> Vec<Rendered> {
    let empty = |p: &Print<'_>| {
        let size = renderer.card_box(&p.card.kind);
        Rendered::reused(String::new(), String::new(), size)
    };
    cache.pending.clear();
    if !needed.contains(&true) {
        // Every sheet of the batch is copied whole: the other cores are
        // not woken for nothing (a rebuild's batches are mostly such).
        return prints.iter().map(empty).collect();
    }
    let cache_ref = &*cache;
    let made: Vec<(Rendered, Option<ReadCards>)> = (prints, images, keys, needed)
        .into_par_iter()
        .map(|(p, im, key, &needed)| {
            if !needed {
                return (empty(p), None);
            }
            let size = renderer.card_box(&p.card.kind);
            if let Some((face, back, read)) = cache_ref.old_faces(key, game) {
                return (Rendered::reused(face, back, size), Some(read));
            }
            let (r, read) = recording(|| renderer.render(*p, im));
            let read = read_cards(read, game);
            let keep = !r.failed();
            (r, keep.then_some(read))
        })
        .collect();
    made.into_iter()
        .zip(keys)
        .map(|((r, read), key)| {
            if let Some(read) = read {
                cache.pending.insert(*key, read);
            }
            r
        })
        .collect()
}
