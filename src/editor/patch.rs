//! The deck schema written as a patch of the last one. A game's deck
//! schema lists every card, so it is the largest file a check writes, and
//! one name edit changes one line of it. So each write leaves beside
//! the check cache an index of the file it wrote,
//! `build/.cache/<game>.deck-index` — the file's stamp, what its lines
//! depend on besides the cards, and where each card file's lines lie in
//! each zone (by the digest of its cards) — and the next write takes from
//! that file every card file's lines whose cards did not change, writing
//! anew only the rest and the schema around the zones.
//!
//! The previous file is used only when it is the one the index describes:
//! a regular file reached without a link, of the device, inode, length,
//! modification and change times the index recorded once it was in place.
//! Any write to the file since, or a file put in its place, changes its
//! change time or its inode (the kernel never lets a program set a change
//! time; since Linux 6.13, a change after the time was read is stamped
//! finer than the clock's tick, so even one within the same tick shows).
//! Anything else — no index, a damaged or foreign one, a file edited by
//! hand — and the schema is written whole. Either way the bytes are those
//! of [`super::decks::DeckSchema::text`], which the tests hold through
//! renames, new and deleted card files. `carta check --no-cache` neither
//! reads nor writes the index.
//!
//! ```text
//! magic     8 bytes  "carta-e2"
//! checksum  u64 LE   hash of the payload
//! payload            MessagePack: the Index
//! ```

use std::collections::HashMap;
use std::fs::{File, Metadata};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};
use std::ops::Range;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::decks::{Built, DeckSchema, Piece, Segment};
use super::{FORMAT, deck_schema_path};
use crate::config::Manifest;
use crate::emit::EmitError;
use crate::write::{self, Folder};

const MAGIC: &[u8; 8] = b"carta-e2";

/// The largest index read (a game's has a few words per card file and zone).
const MAX_INDEX: u64 = 16 << 20;

/// What the index says of the deck schema it was written with.
#[derive(Debug, Serialize, Deserialize)]
struct Index {
    /// What the lines depend on besides the cards ([`head`]).
    head: u64,
    /// The file's stamp once it was in place.
    stamp: Stamp,
    /// Per zone (in the manifest's order), each card file's segment.
    zones: Vec<Vec<Segment>>,
}

/// What tells one state of a file from another: its device, inode and
/// length, its modification and change times (seconds, nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    device: u64,
    inode: u64,
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Stamp {
    fn of(meta: &Metadata) -> Stamp {
        Stamp {
            device: meta.dev(),
            inode: meta.ino(),
            len: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// Writes game `schema`'s deck schema into the workspace at `root`,
/// atomically: with `cached` (a check through the cache, which made
/// `build/.cache/`), patched from the last one where the index vouches for
/// it, else whole, and then its index (a link at `build/.cache` is not
/// followed, and only makes the next write a whole one); without, whole,
/// and neither index is read nor written.
///
/// # Errors
/// When the schema cannot be written (a link or something else than a
/// file where it goes, an I/O error).
pub(super) fn write(root: &Path, schema: &DeckSchema<'_>, cached: bool) -> Result<(), EmitError> {
    let m = schema.manifest;
    let rel = deck_schema_path(&m.id);
    let (dir, name) = write::split(Path::new(&rel));
    let workspace = Folder::workspace(root)?;
    let folder = workspace.sub(dir)?;
    let cache = cached
        .then(|| workspace.existing("build/.cache").ok().flatten())
        .flatten();
    let head = head(m);
    let old = cache
        .as_ref()
        .and_then(|c| previous(c, &folder, name, &m.id, head));
    let built = schema.build(old.as_ref().map(|o| &o.zones[..]));
    // The new file, kept open to be stamped once in place (its change time
    // is set by the rename that puts it there).
    let mut written = None;
    folder.write_atomic_with(name, |file| {
        // Its blocks taken at once, not page by page as it is written: a
        // third off the copy on ext4. (Where the system cannot, as it came.)
        #[cfg(target_os = "linux")]
        let _ = rustix::fs::fallocate(
            &*file,
            rustix::fs::FallocateFlags::KEEP_SIZE,
            0,
            built.len as u64,
        );
        put(file, &built, old.as_ref().map(|o| &o.file))?;
        // Without a second descriptor the file is not stamped: no index,
        // and the next write is a whole one.
        written = file.try_clone().ok();
        Ok(())
    })?;
    let stamp = written.and_then(|f| f.metadata().ok());
    if let (Some(cache), Some(meta)) = (cache, stamp) {
        let index = Index {
            head,
            stamp: Stamp::of(&meta),
            zones: built.zones,
        };
        save(&cache, &m.id, &index);
    }
    if let Some(old) = old {
        close_beside(old.file);
    }
    Ok(())
}

/// Closes the last deck schema's file on one of rayon's threads. Replaced,
/// its name is gone, and closing it frees its cached pages and disk
/// blocks, which the check's last steps (its record, its ledger) need not
/// wait for. A pool thread, not one spawned for it: a spawn would sit on
/// the path the check waits for.
fn close_beside(file: File) {
    rayon::spawn(move || drop(file));
}

/// Writes `built`'s pieces to `to`: its text, and the ranges it repeats
/// of `old` (the last file).
fn put(to: &mut File, built: &Built, old: Option<&File>) -> io::Result<()> {
    let (mut written, mut buffer) = (0, Vec::new());
    for piece in &built.pieces {
        let len = match piece {
            Piece::Text(text) => {
                to.write_all(text.as_bytes())?;
                text.len()
            }
            Piece::Old(range) => {
                let from = old.ok_or_else(|| io::Error::other("an old piece without its file"))?;
                copy_range(from, range, (to, written), &mut buffer)?;
                range.len()
            }
        };
        written += len as u64;
    }
    Ok(())
}

/// Copies bytes `range` of `from` to the end of what was written to `to`
/// (`written` bytes): within the kernel (`copy_file_range`) where the two
/// lie at the same offset within a page, else through `buffer`: between
/// offsets that differ within a page the kernel copies a piece of a page
/// at a time, slower than a plain read and write.
fn copy_range(
    from: &File,
    range: &Range<usize>,
    (to, written): (&mut File, u64),
    buffer: &mut Vec<u8>,
) -> io::Result<()> {
    let (mut at, end) = (range.start as u64, range.end as u64);
    #[cfg(target_os = "linux")]
    {
        // A page as x86 and most ARM systems have it; with larger pages,
        // offsets that agree on it may still differ: only slower.
        const PAGE: u64 = 4096;
        // Checked once: a partial copy moves both offsets alike.
        let aligned = at % PAGE == written % PAGE;
        while aligned && at < end {
            let len = usize::try_from(end - at).unwrap_or(usize::MAX);
            match rustix::fs::copy_file_range(from, Some(&mut at), &*to, None, len) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(_) => {}
                Err(
                    rustix::io::Errno::XDEV | rustix::io::Errno::NOSYS | rustix::io::Errno::INVAL,
                ) => break,
                Err(e) => return Err(e.into()),
            }
        }
    }
    if at < end && buffer.is_empty() {
        buffer.resize(BLOCK, 0);
    }
    while at < end {
        let n = buffer.len().min(usize::try_from(end - at).unwrap_or(BLOCK));
        from.read_exact_at(&mut buffer[..n], at)?;
        to.write_all(&buffer[..n])?;
        at += n as u64;
    }
    Ok(())
}

/// How much of the previous file is read at a time.
const BLOCK: usize = 256 << 10;

/// What a deck schema's card lines depend on besides the cards: the
/// kinds' names, the zones and the kinds each takes, how the lines are
/// written (carta's version and the editor files' format).
fn head(m: &Manifest) -> u64 {
    let mut h = DefaultHasher::new();
    (FORMAT, crate::cache::program(), crate::deck::MAX_COUNT).hash(&mut h);
    serde_json::to_string(&(&m.kinds, &m.zones))
        .expect("the manifest serializes")
        .hash(&mut h);
    h.finish()
}

fn index_name(game: &str) -> String {
    format!("{game}.deck-index")
}

/// The previous deck schema (file `name` of `folder`), when game `game`'s
/// index in `cache` was written for `head` and gives its stamp.
fn previous(cache: &Folder, folder: &Folder, name: &str, game: &str, head: u64) -> Option<Owned> {
    let index = read_index(cache, game)?;
    if index.head != head {
        return None;
    }
    let file = folder.open_read(name).ok()??;
    if Stamp::of(&file.metadata().ok()?) != index.stamp {
        return None;
    }
    let len = usize::try_from(index.stamp.len).ok()?;
    let in_file = |s: &Segment| -> Option<(u64, Range<usize>)> {
        let range = usize::try_from(s.start).ok()?..usize::try_from(s.end).ok()?;
        (range.start <= range.end && range.end <= len).then_some((s.digest, range))
    };
    let zones = index
        .zones
        .iter()
        .map(|segments| segments.iter().map(in_file).collect())
        .collect::<Option<Vec<HashMap<_, _>>>>()?;
    Some(Owned { file, zones })
}

/// The previous file, and where each card file's lines lie in it (see
/// [`super::decks::Previous`]).
struct Owned {
    file: File,
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
    let _ = cache.replace(&index_name(game), &bytes);
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        toml::from_str(concat!(
            "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n",
            "[kinds.a]\nname = \"A\"\n",
            "[zones.main]\nname = \"Main\"\nkinds = [\"a\"]\n",
        ))
        .unwrap()
    }

    /// Writes the deck schema of cards `x` (card file 1) and `y` (card
    /// file 2, named `y_name`) into `root`, through the cache.
    fn write_schema(root: &Path, m: &Manifest, y_name: &str) {
        let cards = [("x", "a", "X"), ("y", "a", y_name)];
        let schema = DeckSchema {
            manifest: m,
            cards: &cards,
            files: &[(1, 1), (2, hash_bytes(y_name.as_bytes()))],
            key: y_name,
        };
        write(root, &schema, true).unwrap();
    }

    /// Puts `to` for `from` in the deck schema, in place (the same file,
    /// of the same length when `to` is as long as `from`) or, with
    /// `replace`, as a new file renamed over it; with `vouch`, makes the
    /// index vouch for the result (its stamp, and the index's checksum).
    fn tamper(root: &Path, from: &str, to: &str, vouch: bool, replace: bool) {
        let deck = root.join(deck_schema_path("g"));
        let text = std::fs::read_to_string(&deck)
            .unwrap()
            .replacen(from, to, 1);
        if replace {
            let new = deck.with_extension("new");
            std::fs::write(&new, &text).unwrap();
            std::fs::rename(&new, &deck).unwrap();
        } else {
            std::fs::write(&deck, &text).unwrap();
        }
        if vouch {
            let cache = Folder::workspace(root)
                .unwrap()
                .sub("build/.cache")
                .unwrap();
            let mut index = read_index(&cache, "g").unwrap();
            index.stamp = Stamp::of(&std::fs::metadata(&deck).unwrap());
            save(&cache, "g", &index);
        }
    }

    #[test]
    fn the_unchanged_lines_come_from_the_last_file_only_when_the_index_vouches_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("build/.cache")).unwrap();
        let m = manifest();
        let deck = root.join(deck_schema_path("g"));
        write_schema(root, &m, "Y");
        // A title of card file 1, whose cards do not change, is copied from
        // the last file: the index vouches for it.
        tamper(root, "\"title\": \"X\"", "\"title\": \"Q\"", true, false);
        write_schema(root, &m, "Y2");
        let text = std::fs::read_to_string(&deck).unwrap();
        assert!(text.contains("\"title\": \"Q\"") && text.contains("\"title\": \"Y2\""));
        // It does not for a file edited since, even at once and to the same
        // length (its change time tells): written whole.
        tamper(root, "\"title\": \"Y2\"", "\"title\": \"Y3\"", false, false);
        write_schema(root, &m, "Y4");
        let text = std::fs::read_to_string(&deck).unwrap();
        assert!(text.contains("\"title\": \"X\"") && text.contains("\"title\": \"Y4\""));
        // Nor for another file put in its place (its inode tells).
        tamper(root, "\"title\": \"X\"", "\"title\": \"Q\"", false, true);
        write_schema(root, &m, "Y4b");
        let text = std::fs::read_to_string(&deck).unwrap();
        assert!(text.contains("\"title\": \"X\"") && text.contains("\"title\": \"Y4b\""));
        // Nor for another game's head (kinds, zones, format).
        tamper(root, "\"title\": \"X\"", "\"title\": \"Q\"", true, false);
        let mut other = m.clone();
        other.kinds.get_mut("a").unwrap().name = "Another".into();
        write_schema(root, &other, "Y5");
        let text = std::fs::read_to_string(&deck).unwrap();
        assert!(text.contains("\"title\": \"X\""), "{text}");
        // Without the cache, neither index is read nor written.
        tamper(root, "\"title\": \"X\"", "\"title\": \"Q\"", true, false);
        let index = read_index(
            &Folder::workspace(root)
                .unwrap()
                .sub("build/.cache")
                .unwrap(),
            "g",
        );
        let cards = [("x", "a", "X"), ("y", "a", "Y6")];
        let schema = DeckSchema {
            manifest: &m,
            cards: &cards,
            files: &[(1, 1), (2, 6)],
            key: "Y6",
        };
        write(root, &schema, false).unwrap();
        let text = std::fs::read_to_string(&deck).unwrap();
        assert_eq!(text, schema.text());
        let after = read_index(
            &Folder::workspace(root)
                .unwrap()
                .sub("build/.cache")
                .unwrap(),
            "g",
        );
        assert_eq!(
            after.map(|i| i.stamp),
            index.map(|i| i.stamp),
            "the index left as it was"
        );
    }
}
