//! The check cache: what validating a card file produced, kept under the
//! build folder so that `carta check` after a small edit re-parses and
//! re-validates only the files that changed.
//!
//! One entry per card file, `build/.cache/<game>/<hash of its path>`:
//!
//! ```text
//! magic     8 bytes  "carta-c4"
//! key       u64 LE   hash of the carta version, manifest, schemas and kept fields
//! content   u64 LE   hash of the card file's text
//! size      u64 LE   the file's stamp when it was checked: size,
//! modified  u64 LE     modification time (ns since the epoch)
//! inode     u64 LE     and inode; all 0 when the file was too fresh to trust
//! checksum  u64 LE   hash of the payload
//! shape     u64 LE   hash of what the game's verdict reads of the cards
//!                    (the payload without its spans; given by the check)
//! memo      u64 LE   how many card texts the memo holds,
//! memo sum  u64 LE     and the hash of its words
//! payload            MessagePack: what checking the file produced (its
//!                    cards; only files without diagnostics are cached)
//! memo               u64 LE words: the hash of each of the file's card
//!                    texts that validated (given by the check)
//! ```
//!
//! The memo outlives an edit: when the file has changed, the check takes
//! its entry's memo (whatever text the entry was made from: same key, same
//! schemas) and does not validate again a card whose text it holds.
//!
//! A file whose stamp equals the entry's is taken from the cache without
//! being read (as make and cargo trust modification times); any other file
//! is read and its text hashed, and an entry with the same content hash
//! still serves. An entry whose magic, key, stamp or content hash, or
//! checksum does not match, or whose payload does not decode, is ignored
//! (and overwritten): a stale or damaged cache is never trusted. Hashes are Rust's `DefaultHasher`, which
//! is stable for one build of carta, and the key includes carta's version.
//!
//! `carta build` keeps its own entries, with every field packed, in
//! `build/.cache/<game>.all/` (same layout; a check's entries keep only the
//! rules' fields).
//!
//! Beside the entries, `build/.cache/<game>.verdict` holds the game's
//! record: what the whole check concluded from the files it names (written
//! and read by the compiled game, framed like an entry: magic `carta-v5`,
//! key, checksum — the CRC-32 of the payload, which guards against damage
//! at a tenth of a hash's cost —, `MessagePack` payload), and `build/.cache/<game>.pool`
//! the game's pool: every card file's payload, as its entry holds it, in
//! one file, so that a check after an edit the record cannot answer reads
//! one file instead of an entry per card file:
//!
//! ```text
//! magic     8 bytes  "carta-p1"
//! key       u64 LE   as an entry's
//! extra     u64 LE   whatever else the pool depends on (as the record's)
//! then per card file:
//!   path    u32 LE length, then its workspace path (UTF-8)
//!   hash    u64 LE   the hash of its payload (its entry's checksum)
//!   payload u64 LE length, then the payload of its entry
//! ```
//!
//! A payload is taken from the pool only for the payload hash the caller
//! expects (the record's mark of the file): a damaged, foreign or stale
//! pool serves nothing.
//!
//! `build/.cache/.ledger` is the workspace's ledger (`game::ledger`): the
//! snapshot a whole `carta check` took and what it concluded, framed like
//! a record (magic `carta-l2`, the hash of carta's version, the hash of
//! the check's arguments and limits and of the running binary, checksum,
//! `MessagePack` payload).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::confine::Stamp;
use crate::write::{Folder, Kind, WriteError};

const MAGIC: &[u8; 8] = b"carta-c4";
const HEADER: usize = 80;

const RECORD_MAGIC: &[u8; 8] = b"carta-v5";

const POOL_MAGIC: &[u8; 8] = b"carta-p1";

const LEDGER_MAGIC: &[u8; 8] = b"carta-l2";
const LEDGER: &str = ".ledger";

/// The check cache of one game.
#[derive(Debug)]
pub struct CheckCache {
    /// `build/.cache/`, where the record lies.
    parent: Folder,
    /// `build/.cache/<game>/`, the entries.
    dir: Folder,
    /// The record's file name, `<game>.verdict`.
    record: String,
    /// The pool's file name, `<game>.pool`.
    pool: String,
    key: u64,
}

/// What a cache entry says of the file it was made from: enough for the
/// game's record to tell, without the entry, whether a file still gives the
/// same cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mark {
    /// The file's stamp (size, modification time, inode); all 0 when it
    /// was too fresh to trust.
    pub stamp: [u64; 3],
    /// The hash of the file's text.
    pub content: u64,
    /// The hash of what checking it kept (the entry's payload).
    pub payload: u64,
    /// The hash of what the game's verdict reads of those cards: the
    /// payload without the spans (a card's text grown by a word moves the
    /// spans of the cards after it, and nothing else).
    pub shape: u64,
}

impl Mark {
    /// Whether `stamp` is the (trusted) stamp this mark was made with.
    pub fn same_stamp(&self, stamp: Stamp) -> bool {
        same_stamp(self.stamp, stamp)
    }
}

/// Whether `stamp` is the one kept as `words` ([`settled_stamp`]): never
/// when none was kept (all 0: too fresh to trust).
pub fn same_stamp(words: [u64; 3], stamp: Stamp) -> bool {
    words != [0, 0, 0] && words == stamp_words(stamp)
}

fn stamp_words(stamp: Stamp) -> [u64; 3] {
    [stamp.len, stamp.modified, stamp.inode]
}

/// A stamp as a mark keeps it: all 0 when it is too fresh to trust.
pub fn settled_stamp(stamp: Option<Stamp>) -> [u64; 3] {
    stamp
        .filter(|s| s.settled(SystemTime::now()))
        .map_or([0; 3], stamp_words)
}

/// A 64-bit hash of some text.
pub fn hash_text(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A 64-bit hash of some bytes.
pub(super) fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// The little-endian word at byte `at` of an entry's header.
fn word(header: &[u8], at: usize) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&header[at..at + 8]);
    u64::from_le_bytes(bytes)
}

/// The largest cache entry read; a larger one is ignored (and rewritten).
const MAX_ENTRY: u64 = 64 << 20;

impl CheckCache {
    /// The cache of `game` in the workspace at `root`; `key` stands for
    /// everything besides a file's own text that its validation depends on.
    /// `Ok(None)` when its folder cannot be made (a read-only workspace:
    /// the check runs without a cache).
    ///
    /// # Errors
    /// When `build/`, `build/.cache/` or `build/.cache/<game>` is a link or
    /// no folder: nothing is read from it or written there.
    pub fn new(root: &Path, game: &str, key: u64) -> Result<Option<Self>, WriteError> {
        let mut h = DefaultHasher::new();
        (env!("CARGO_PKG_VERSION"), key).hash(&mut h);
        let opened = Folder::workspace(root).and_then(|root| {
            let parent = root.sub(Path::new("build").join(".cache"))?;
            let dir = parent.sub(game)?;
            Ok((parent, dir))
        });
        let (parent, dir) = match opened {
            Ok(folders) => folders,
            Err(e) if e.is_refusal() => return Err(e),
            Err(_) => return Ok(None),
        };
        Ok(Some(CheckCache {
            parent,
            dir,
            record: record_name(game),
            pool: format!("{game}.pool"),
            key: h.finish(),
        }))
    }

    /// The game's record as [`read_record`] read it, if it was written with
    /// this key (and `extra`, whatever else the record depends on).
    pub fn record<T>(&self, read: Option<Framed<T>>, extra: u64) -> Option<T> {
        read.filter(|r| r.key == [self.key, extra]).map(|r| r.value)
    }

    /// Writes the game's record (atomically, replacing whatever entry is
    /// there without following it; a record that cannot be written only
    /// makes the next check a full one).
    pub fn put_record<T: Serialize>(&self, extra: u64, record: &T) {
        put_framed(
            &self.parent,
            &self.record,
            *RECORD_MAGIC,
            [self.key, extra],
            record,
        );
    }

    /// Forgets the game's record and pool (a link there is removed itself).
    pub fn drop_record(&self) {
        let _ = self.parent.remove_file(&self.record);
        let _ = self.parent.remove_file(&self.pool);
    }

    /// The game's pool, if one was written with this key and `extra`; each
    /// payload in it is checked when it is taken ([`Pool::payload`]).
    pub fn get_pool(&self, extra: u64) -> Option<Pool> {
        let bytes = self.parent.read(&self.pool, MAX_ENTRY)?;
        let header = bytes.get(..24)?;
        if &header[..8] != POOL_MAGIC || word(header, 8) != self.key || word(header, 16) != extra {
            return None;
        }
        let mut files = std::collections::HashMap::new();
        let mut at = 24;
        while at < bytes.len() {
            let len = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?);
            let len = usize::try_from(len).ok()?;
            let rel = std::str::from_utf8(bytes.get(at + 4..at + 4 + len)?).ok()?;
            at += 4 + len;
            let hash = word(bytes.get(at..at + 8)?, 0);
            let len = usize::try_from(word(bytes.get(at + 8..at + 16)?, 0)).ok()?;
            let payload = at + 16..at.checked_add(16 + len)?;
            bytes.get(payload.clone())?;
            files.insert(rel.to_owned(), (hash, payload.clone()));
            at = payload.end;
        }
        Some(Pool { bytes, files })
    }

    /// Writes the game's pool: each card file's path and payload, in
    /// order (atomically, replacing whatever is there without following
    /// it; a pool that cannot be written only makes the next check slower).
    pub fn put_pool<'a>(&self, extra: u64, files: impl IntoIterator<Item = (&'a str, &'a [u8])>) {
        let mut bytes = buffer_for(&self.parent, &self.pool);
        bytes.extend(POOL_MAGIC);
        bytes.extend(self.key.to_le_bytes());
        bytes.extend(extra.to_le_bytes());
        for (rel, payload) in files {
            let Ok(len) = u32::try_from(rel.len()) else {
                continue;
            };
            bytes.extend(len.to_le_bytes());
            bytes.extend(rel.as_bytes());
            bytes.extend(hash_bytes(payload).to_le_bytes());
            bytes.extend((payload.len() as u64).to_le_bytes());
            bytes.extend(payload);
        }
        let _ = self.parent.replace(&self.pool, &bytes);
    }

    fn entry_name(rel: &str) -> String {
        format!("{:016x}", hash_text(rel))
    }

    /// What was kept for card file `rel`, if the cache holds it for this
    /// text. The cache does not know what it stores: the caller (the check)
    /// names the type, so this first stage depends on no later one.
    pub fn get<T: DeserializeOwned>(&self, rel: &str, content: u64) -> Option<(T, Mark)> {
        let entry = self.entry(rel).filter(|e| e.mark.content == content)?;
        Some((entry.decode()?, entry.mark))
    }

    /// What was kept for card file `rel`, if it was checked with this very
    /// stamp: the file need not be read.
    pub fn get_stamped<T: DeserializeOwned>(&self, rel: &str, stamp: Stamp) -> Option<(T, Mark)> {
        let entry = self.entry(rel).filter(|e| e.mark.same_stamp(stamp))?;
        Some((entry.decode()?, entry.mark))
    }

    /// Card file `rel`'s entry, if intact and made under this key,
    /// whatever text it was made from (its memo serves any later one).
    pub fn entry(&self, rel: &str) -> Option<Entry> {
        // The cache lies in the workspace too: a FIFO, a device or a link
        // planted there is not read.
        let bytes = self.dir.read(&Self::entry_name(rel), MAX_ENTRY)?;
        let header = bytes.get(..HEADER)?;
        let mark = Mark {
            stamp: [word(header, 24), word(header, 32), word(header, 40)],
            content: word(header, 16),
            payload: word(header, 48),
            shape: word(header, 56),
        };
        let memo_len = usize::try_from(word(header, 64)).ok()?.checked_mul(8)?;
        let memo_sum = word(header, 72);
        if &header[..8] != MAGIC || word(header, 8) != self.key {
            return None;
        }
        let memo_at = bytes.len().checked_sub(memo_len)?;
        let (payload, memo) = bytes
            .get(HEADER..)?
            .split_at_checked(memo_at.checked_sub(HEADER)?)?;
        if mark.payload != hash_bytes(payload) || memo_sum != hash_bytes(memo) {
            return None;
        }
        let memo = memo.chunks_exact(8).map(|w| word(w, 0)).collect();
        Some(Entry {
            mark,
            bytes,
            payload: HEADER..memo_at,
            memo,
        })
    }

    /// Remembers what checking card file `rel` kept, its `shape` (see
    /// [`Mark::shape`]) and its `memo` (the hashes of the card texts that
    /// validated), with the file's stamp when it is settled (written
    /// atomically, without fsync: a lost entry is only a slower next
    /// check; whatever entry was there, a planted link or FIFO included,
    /// is replaced, not followed). Returns the entry's mark (`None` when
    /// what was kept does not serialize or was not written).
    pub fn put<T: Serialize + ?Sized>(
        &self,
        rel: &str,
        content: u64,
        stamp: Option<Stamp>,
        (kept, shape): (&T, u64),
        memo: &[u64],
    ) -> Option<Mark> {
        let payload = rmp_serde::to_vec(kept).ok()?;
        let mark = Mark {
            stamp: settled_stamp(stamp),
            content,
            payload: hash_bytes(&payload),
            shape,
        };
        let memo: Vec<u8> = memo.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut bytes = Vec::with_capacity(HEADER + payload.len() + memo.len());
        bytes.extend(MAGIC);
        for word in [self.key, content].into_iter().chain(mark.stamp).chain([
            mark.payload,
            mark.shape,
            (memo.len() / 8) as u64,
            hash_bytes(&memo),
        ]) {
            bytes.extend(word.to_le_bytes());
        }
        bytes.extend(payload);
        bytes.extend(memo);
        let written = self.dir.replace(&Self::entry_name(rel), &bytes);
        written.is_ok().then_some(mark)
    }

    /// Removes the entries of files that are no longer card files: only
    /// regular files named like an entry (or like one's temporary file),
    /// never a link or anything else.
    pub fn prune(&self, card_files: &[String]) {
        let keep: std::collections::HashSet<String> =
            card_files.iter().map(|r| Self::entry_name(r)).collect();
        for (name, kind) in self.dir.entries().into_iter().flatten() {
            let Some(name) = name.to_str() else { continue };
            if kind == Kind::File && is_entry_name(name) && !keep.contains(name) {
                let _ = self.dir.remove_file(name);
            }
        }
    }
}

/// A card file's entry as read ([`CheckCache::entry`]), intact, under the
/// cache's key.
#[derive(Debug)]
pub struct Entry {
    /// Its mark (the text, stamp and payload it was made from).
    pub mark: Mark,
    bytes: Vec<u8>,
    /// Where the payload lies in `bytes`.
    payload: std::ops::Range<usize>,
    /// The hashes of the card texts that validated under the key.
    pub memo: Vec<u64>,
}

impl Entry {
    /// What the entry keeps, decoded as `T` (`None` when it does not).
    pub fn decode<T: DeserializeOwned>(&self) -> Option<T> {
        rmp_serde::from_slice(&self.bytes[self.payload.clone()]).ok()
    }
}

/// A game's pool as read ([`CheckCache::get_pool`]): one buffer, each
/// card file's payload a slice of it, decoded where it lies.
#[derive(Debug)]
pub struct Pool {
    bytes: Vec<u8>,
    /// Each card file's payload hash, as written, and where its payload is.
    files: std::collections::HashMap<String, (u64, std::ops::Range<usize>)>,
}

impl Pool {
    /// How many card files it holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether it holds no card file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The payload the pool holds for card file `rel`, when it is the one
    /// whose hash is `payload` (a [`Mark::payload`]); anything else, a
    /// damaged or an older payload, is not served.
    pub fn payload(&self, rel: &str, payload: u64) -> Option<&[u8]> {
        let (written, at) = self.files.get(rel)?;
        let bytes = &self.bytes[at.clone()];
        (*written == payload && hash_bytes(bytes) == payload).then_some(bytes)
    }

    /// Whether the pool says it holds payload `payload` for card file
    /// `rel` (not checked: [`Pool::payload`] checks what it serves).
    pub fn holds(&self, rel: &str, payload: u64) -> bool {
        self.files
            .get(rel)
            .is_some_and(|(written, _)| *written == payload)
    }
}

/// A payload as an entry (and the pool) keeps it, and its hash (the
/// [`Mark::payload`] of an entry made from it).
pub fn payload_of<T: Serialize + ?Sized>(kept: &T) -> Option<(Vec<u8>, u64)> {
    let payload = rmp_serde::to_vec(kept).ok()?;
    let hash = hash_bytes(&payload);
    Some((payload, hash))
}

/// What a payload holds, decoded (`None` when it does not decode as `T`).
pub fn decode<T: DeserializeOwned>(payload: &[u8]) -> Option<T> {
    rmp_serde::from_slice(payload).ok()
}

/// Whether `name` is an entry's (16 hex digits) or a temporary file's
/// left by a killed check (`.<entry>.<pid>-<n>.tmp`).
fn is_entry_name(name: &str) -> bool {
    let hex = |s: &str| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(tmp) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) {
        return tmp.split_once('.').is_some_and(|(entry, _)| hex(entry));
    }
    hex(name)
}

/// The checksum of a framed payload (a record's, the ledger's): its
/// CRC-32, against damage.
fn checksum(payload: &[u8]) -> u64 {
    u64::from(crc32fast::hash(payload))
}

/// An empty buffer for the bytes that will replace file `name` of
/// `folder`, of about the size they end at: that of the file, as a file
/// written after each check changes little. Not grown by doubling (a
/// record is 280 KB at 20,000 cards, written after each rename; each new
/// page of a buffer is a page fault, each doubling a copy).
fn buffer_for(folder: &Folder, name: &str) -> Vec<u8> {
    let like = folder.file_len(name).and_then(|n| usize::try_from(n).ok());
    let like = like.unwrap_or(0);
    Vec::with_capacity((like + like / 16).max(64 << 10))
}

/// `value` framed into file `name` of `folder`, replacing it ([`frame`];
/// one that cannot be written is only missed by the next check).
fn put_framed<T: Serialize>(folder: &Folder, name: &str, magic: [u8; 8], key: [u64; 2], value: &T) {
    if let Some(bytes) = frame(buffer_for(folder, name), magic, key, value) {
        let _ = folder.replace(name, &bytes);
    }
}

/// `value` framed as a record is, in `bytes` (a buffer from
/// [`buffer_for`]; emptied first): magic, the two key words, the checksum
/// of its `MessagePack` payload, the payload.
fn frame<T: Serialize>(
    mut bytes: Vec<u8>,
    magic: [u8; 8],
    key: [u64; 2],
    value: &T,
) -> Option<Vec<u8>> {
    // The payload is written after the header, whose checksum is filled
    // in last: one buffer, not the payload copied into a second.
    bytes.clear();
    bytes.extend(&magic);
    for word in [key[0], key[1], 0] {
        bytes.extend(word.to_le_bytes());
    }
    rmp_serde::encode::write(&mut bytes, value).ok()?;
    let sum = checksum(&bytes[32..]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    Some(bytes)
}

/// The key words and the payload framed in `bytes` with `magic`, if
/// intact (its checksum).
fn framed(bytes: &[u8], magic: [u8; 8]) -> Option<([u64; 2], &[u8])> {
    let (header, payload) = bytes.split_at_checked(32)?;
    (header[..8] == magic && word(header, 24) == checksum(payload))
        .then(|| ([word(header, 8), word(header, 16)], payload))
}

/// The value framed in `bytes` with `magic` and `key`, if intact.
fn unframe<T: DeserializeOwned>(bytes: &[u8], magic: [u8; 8], key: [u64; 2]) -> Option<T> {
    let (found, payload) = framed(bytes, magic)?;
    (found == key).then(|| rmp_serde::from_slice(payload).ok())?
}

/// The workspace's `build/.cache/` folder, if it is there (a link there
/// is not followed).
fn cache_folder(root: &Path) -> Option<Folder> {
    Folder::workspace(root)
        .ok()?
        .existing("build/.cache")
        .ok()?
}

/// The file name of game `game`'s record in `build/.cache/`.
fn record_name(game: &str) -> String {
    format!("{game}.verdict")
}

/// A game's record read before its key is known ([`read_record`]).
pub struct Framed<T> {
    key: [u64; 2],
    value: T,
}

/// Game `game`'s record in the workspace at `root`, if one is there and
/// intact, whatever its key: read beside the work that tells the key (the
/// game's schemas), and taken only under it ([`CheckCache::record`]).
pub fn read_record<T: DeserializeOwned>(root: &Path, game: &str) -> Option<Framed<T>> {
    let bytes = cache_folder(root)?.read(&record_name(game), MAX_ENTRY)?;
    let (key, payload) = framed(&bytes, *RECORD_MAGIC)?;
    Some(Framed {
        key,
        value: rmp_serde::from_slice(payload).ok()?,
    })
}

/// The ledger of the workspace's last `carta check` (see
/// `game::ledger`), if one was written by this carta with `key` and is
/// intact: `build/.cache/.ledger` (a game's id never starts with a dot).
pub fn get_ledger<T: DeserializeOwned>(root: &Path, key: u64) -> Option<T> {
    let bytes = cache_folder(root)?.read(LEDGER, MAX_ENTRY)?;
    unframe(&bytes, *LEDGER_MAGIC, [version_key(), key])
}

/// Writes the workspace's ledger (atomically; one that cannot be written
/// only makes the next check take the longer way).
pub fn put_ledger<T: Serialize>(root: &Path, key: u64, ledger: &T) {
    let cache = Folder::workspace(root).and_then(|r| r.sub(Path::new("build").join(".cache")));
    if let Ok(cache) = cache {
        put_framed(&cache, LEDGER, *LEDGER_MAGIC, [version_key(), key], ledger);
    }
}

/// Forgets the workspace's ledger (a link there is removed itself).
pub fn drop_ledger(root: &Path) {
    if let Some(cache) = cache_folder(root) {
        let _ = cache.remove_file(LEDGER);
    }
}

/// What every cached thing depends on: this version of carta.
fn version_key() -> u64 {
    hash_text(env!("CARGO_PKG_VERSION"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// Stands for a card: any serde type round-trips.
    #[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
    struct Card {
        id: String,
        fields: serde_json::Value,
    }

    fn card(id: &str) -> Card {
        Card {
            id: id.into(),
            fields: serde_json::json!({"a": 1, "b": 1.0, "c": ["x"]}),
        }
    }

    #[test]
    fn a_frame_is_the_same_whatever_size_its_buffer_started_at() {
        let cards: Vec<Card> = (0..8000).map(|i| card(&format!("c{i}"))).collect();
        let framed = frame(Vec::new(), *RECORD_MAGIC, [1, 2], &cards).unwrap();
        assert!(
            framed.len() > 64 << 10,
            "larger than the buffer's least size"
        );
        for like in [1, 100, framed.len(), 10 * framed.len()] {
            let bytes = Vec::with_capacity(like);
            assert_eq!(frame(bytes, *RECORD_MAGIC, [1, 2], &cards).unwrap(), framed);
        }
        assert_eq!(&framed[32..], rmp_serde::to_vec(&cards).unwrap());
        let back: Vec<Card> = unframe(&framed, *RECORD_MAGIC, [1, 2]).unwrap();
        assert_eq!(back, cards);
    }

    /// Flips the last bit of card file `rel`'s entry under `root`: its
    /// path and its damaged bytes.
    fn damage_last_byte(root: &Path, rel: &str) -> (std::path::PathBuf, Vec<u8>) {
        let entry = root
            .join("build/.cache/g")
            .join(CheckCache::entry_name(rel));
        let mut bytes = fs::read(&entry).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&entry, &bytes).unwrap();
        (entry, bytes)
    }

    #[test]
    fn an_entry_round_trips_and_anything_stale_or_damaged_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1).unwrap().unwrap();
        let cards = vec![card("a"), card("b")];
        cache.put("cards/g/x.toml", 7, None, (&cards, 3), &[]);
        assert_eq!(
            cache.get("cards/g/x.toml", 7).map(|(c, m)| (c, m.shape)),
            Some((cards.clone(), 3)),
            "the cards and their shape"
        );
        assert_eq!(
            cache.get::<Vec<Card>>("cards/g/x.toml", 8),
            None,
            "the file's text changed"
        );
        assert_eq!(
            CheckCache::new(dir.path(), "g", 2)
                .unwrap()
                .unwrap()
                .get::<Vec<Card>>("cards/g/x.toml", 7),
            None,
            "the schemas changed"
        );
        let (entry, _) = damage_last_byte(dir.path(), "cards/g/x.toml");
        assert_eq!(
            cache.get::<Vec<Card>>("cards/g/x.toml", 7),
            None,
            "a damaged payload"
        );
        fs::write(&entry, b"carta").unwrap();
        assert_eq!(
            cache.get::<Vec<Card>>("cards/g/x.toml", 7),
            None,
            "a truncated entry"
        );
        cache.put("cards/g/x.toml", 7, None, (&cards, 3), &[]);
        cache.prune(&[]);
        assert_eq!(cache.get::<Vec<Card>>("cards/g/x.toml", 7), None, "pruned");
    }

    #[test]
    fn an_entrys_memo_outlives_an_edit_and_is_never_trusted_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1).unwrap().unwrap();
        let cards = vec![card("a"), card("b")];
        cache.put("cards/g/x.toml", 7, None, (&cards, 3), &[11, 12]);
        let entry = cache.entry("cards/g/x.toml").unwrap();
        assert_eq!(entry.decode::<Vec<Card>>(), Some(cards.clone()));
        assert_eq!((entry.mark.content, entry.memo), (7, vec![11, 12]));
        // Whatever the file's text is now, the memo stands for its key.
        assert_eq!(cache.get::<Vec<Card>>("cards/g/x.toml", 8), None);
        assert_eq!(
            cache.entry("cards/g/x.toml").map(|e| e.memo),
            Some(vec![11, 12])
        );
        let other = CheckCache::new(dir.path(), "g", 2).unwrap().unwrap();
        assert_eq!(
            other.entry("cards/g/x.toml").map(|e| e.memo),
            None,
            "the schemas changed"
        );
        let (entry, mut bytes) = damage_last_byte(dir.path(), "cards/g/x.toml");
        assert_eq!(
            cache.entry("cards/g/x.toml").map(|e| e.memo),
            None,
            "a damaged memo"
        );
        assert_eq!(cache.get::<Vec<Card>>("cards/g/x.toml", 7), None);
        // A memo longer than the entry.
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        bytes[64..72].copy_from_slice(&u64::MAX.to_le_bytes());
        fs::write(&entry, &bytes).unwrap();
        assert_eq!(
            cache.entry("cards/g/x.toml").map(|e| e.memo),
            None,
            "a memo past the end"
        );
        // A memo that would reach back into the header.
        let words = (bytes.len() - 8) as u64 / 8;
        bytes[64..72].copy_from_slice(&words.to_le_bytes());
        fs::write(&entry, &bytes).unwrap();
        assert_eq!(
            cache.entry("cards/g/x.toml").map(|e| e.memo),
            None,
            "a memo into the header"
        );
    }

    #[test]
    fn a_settled_stamp_finds_the_entry_without_the_text_and_a_fresh_one_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1).unwrap().unwrap();
        let cards = vec![card("a")];
        let old = Stamp {
            len: 10,
            modified: 1_000_000_000,
            inode: 5,
        };
        cache.put("cards/g/x.toml", 7, Some(old), (&cards, 3), &[]);
        assert_eq!(
            cache.get_stamped("cards/g/x.toml", old).map(|(c, _)| c),
            Some(cards.clone())
        );
        for other in [
            Stamp { len: 11, ..old },
            Stamp {
                modified: old.modified + 1,
                ..old
            },
            Stamp { inode: 6, ..old },
        ] {
            assert_eq!(
                cache.get_stamped::<Vec<Card>>("cards/g/x.toml", other),
                None,
                "{other:?}"
            );
        }
        assert_eq!(
            cache.get("cards/g/x.toml", 7).map(|(c, _)| c),
            Some(cards.clone()),
            "the content still serves"
        );
        // Modified just now: the same clock tick could hide another edit.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        let fresh = Stamp {
            modified: u64::try_from(now.as_nanos()).unwrap(),
            ..old
        };
        cache.put("cards/g/x.toml", 7, Some(fresh), (&cards, 3), &[]);
        assert_eq!(
            cache.get_stamped::<Vec<Card>>("cards/g/x.toml", fresh),
            None
        );
        assert_eq!(cache.get("cards/g/x.toml", 7).map(|(c, _)| c), Some(cards));
    }

    #[test]
    fn a_record_round_trips_only_with_its_key_and_intact() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1).unwrap().unwrap();
        let get = |cache: &CheckCache, extra| {
            cache.record(read_record::<Vec<Card>>(dir.path(), "g"), extra)
        };
        let record = vec![card("a")];
        assert_eq!(get(&cache, 9), None, "none yet");
        cache.put_record(9, &record);
        assert_eq!(get(&cache, 9), Some(record.clone()));
        assert_eq!(get(&cache, 8), None, "other limits");
        assert_eq!(
            get(&CheckCache::new(dir.path(), "g", 2).unwrap().unwrap(), 9),
            None,
            "other schemas"
        );
        cache.prune(&[]);
        assert_eq!(get(&cache, 9), Some(record.clone()), "not an entry");
        let path = dir.path().join("build/.cache/g.verdict");
        let mut bytes = fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert_eq!(get(&cache, 9), None, "damaged");
        cache.put_record(9, &record);
        cache.drop_record();
        assert_eq!(get(&cache, 9), None, "dropped");
    }

    #[test]
    fn a_pool_serves_a_payload_only_under_its_hash_and_key() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1).unwrap().unwrap();
        let (a, hash_a) = payload_of(&vec![card("a")]).unwrap();
        let (b, hash_b) = payload_of(&vec![card("b"), card("c")]).unwrap();
        assert_eq!(cache.get_pool(9).map(|p| p.len()), None, "none yet");
        cache.put_pool(9, [("cards/g/a.toml", &a[..]), ("cards/g/b.toml", &b[..])]);
        let pool = cache.get_pool(9).unwrap();
        assert_eq!(pool.len(), 2);
        let served = pool.payload("cards/g/b.toml", hash_b).unwrap();
        assert_eq!(
            decode::<Vec<Card>>(served),
            Some(vec![card("b"), card("c")])
        );
        assert_eq!(
            pool.payload("cards/g/a.toml", hash_b),
            None,
            "another payload"
        );
        assert_eq!(pool.payload("cards/g/c.toml", hash_a), None, "another file");
        assert!(cache.get_pool(8).is_none(), "other limits");
        let other = CheckCache::new(dir.path(), "g", 2).unwrap().unwrap();
        assert!(other.get_pool(9).is_none(), "other schemas");
        // Damaged: the payload it hits is not served, the other one is.
        let path = dir.path().join("build/.cache/g.pool");
        let mut bytes = fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&path, &bytes).unwrap();
        let pool = cache.get_pool(9).unwrap();
        assert_eq!(pool.payload("cards/g/b.toml", hash_b), None);
        assert!(pool.payload("cards/g/a.toml", hash_a).is_some());
        // A length that runs past the end: nothing is read.
        bytes.truncate(bytes.len() - 3);
        fs::write(&path, &bytes).unwrap();
        assert!(cache.get_pool(9).is_none(), "truncated");
        cache.put_pool(9, [("cards/g/a.toml", &a[..])]);
        cache.drop_record();
        assert!(cache.get_pool(9).is_none(), "dropped with the record");
    }

    #[test]
    fn prune_removes_only_entries_and_a_linked_cache_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let victim = tempfile::tempdir().unwrap();
        fs::write(victim.path().join("notes.txt"), b"mine").unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1).unwrap().unwrap();
        cache.put("cards/g/x.toml", 7, None, (&vec![card("a")], 3), &[]);
        let folder = dir.path().join("build/.cache/g");
        fs::write(folder.join("README"), b"not an entry").unwrap();
        fs::write(folder.join(".0123456789abcdef.1-0.tmp"), b"left").unwrap();
        std::os::unix::fs::symlink(
            victim.path().join("notes.txt"),
            folder.join("fedcba9876543210"),
        )
        .unwrap();
        cache.prune(&[]);
        let mut left: Vec<String> = fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["README", "fedcba9876543210"]);

        std::os::unix::fs::symlink(victim.path(), dir.path().join("build/.cache/h")).unwrap();
        let e = CheckCache::new(dir.path(), "h", 1).unwrap_err();
        assert_eq!(e.code(), "write::link");
        assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 1);
    }
}
