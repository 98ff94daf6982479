//! The check cache: what validating a card file produced, kept under the
//! build folder so that `carta check` after a small edit re-parses and
//! re-validates only the files that changed.
//!
//! One entry per card file, `build/.cache/<game>/<hash of its path>`:
//!
//! ```text
//! magic     8 bytes  "carta-c2"
//! key       u64 LE   hash of the carta version, manifest, schemas and kept fields
//! content   u64 LE   hash of the card file's text
//! size      u64 LE   the file's stamp when it was checked: size,
//! modified  u64 LE     modification time (ns since the epoch)
//! inode     u64 LE     and inode; all 0 when the file was too fresh to trust
//! checksum  u64 LE   hash of the payload
//! payload            MessagePack: what checking the file produced (its
//!                    cards; only files without diagnostics are cached)
//! ```
//!
//! A file whose stamp equals the entry's is taken from the cache without
//! being read (as make and cargo trust modification times); any other file
//! is read and its text hashed, and an entry with the same content hash
//! still serves. An entry whose magic, key, stamp or content hash, or
//! checksum does not match, or whose payload does not decode, is ignored
//! (and overwritten): a stale or damaged cache is never trusted. Hashes are Rust's `DefaultHasher`, which
//! is stable for one build of carta, and the key includes carta's version.

use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::confine::Stamp;

const MAGIC: &[u8; 8] = b"carta-c2";
const HEADER: usize = 56;

/// The check cache of one game.
#[derive(Debug)]
pub struct CheckCache {
    dir: PathBuf,
    key: u64,
}

/// A 64-bit hash of some text.
pub fn hash_text(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

fn hash_bytes(bytes: &[u8]) -> u64 {
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
    pub fn new(root: &Path, game: &str, key: u64) -> Self {
        let mut h = DefaultHasher::new();
        (env!("CARGO_PKG_VERSION"), key).hash(&mut h);
        CheckCache {
            dir: root.join("build").join(".cache").join(game),
            key: h.finish(),
        }
    }

    fn entry(&self, rel: &str) -> PathBuf {
        self.dir.join(format!("{:016x}", hash_text(rel)))
    }

    /// What was kept for card file `rel`, if the cache holds it for this
    /// text. The cache does not know what it stores: the caller (the check)
    /// names the type, so this first stage depends on no later one.
    pub fn get<T: DeserializeOwned>(&self, rel: &str, content: u64) -> Option<T> {
        self.lookup(rel, |header| word(header, 16) == content)
    }

    /// What was kept for card file `rel`, if it was checked with this very
    /// stamp: the file need not be read.
    pub fn get_stamped<T: DeserializeOwned>(&self, rel: &str, stamp: Stamp) -> Option<T> {
        self.lookup(rel, |header| {
            let kept = [word(header, 24), word(header, 32), word(header, 40)];
            kept != [0, 0, 0] && kept == [stamp.len, stamp.modified, stamp.inode]
        })
    }

    fn lookup<T: DeserializeOwned>(&self, rel: &str, same: impl Fn(&[u8]) -> bool) -> Option<T> {
        // The cache lies in the workspace too: a FIFO or device planted
        // there must not block or flood the check.
        let bytes = super::confine::read_regular(&self.entry(rel), MAX_ENTRY).ok()?;
        let (header, payload) = bytes.split_at_checked(HEADER)?;
        let fresh = &header[..8] == MAGIC
            && word(header, 8) == self.key
            && same(header)
            && word(header, 48) == hash_bytes(payload);
        if !fresh {
            return None;
        }
        rmp_serde::from_slice(payload).ok()
    }

    /// Remembers what checking card file `rel` kept, with the file's stamp
    /// when it is settled (written atomically; a cache that cannot be
    /// written is only a slower next check).
    pub fn put<T: Serialize + ?Sized>(
        &self,
        rel: &str,
        content: u64,
        stamp: Option<Stamp>,
        kept: &T,
    ) {
        let Ok(payload) = rmp_serde::to_vec(kept) else {
            return;
        };
        let stamp = stamp
            .filter(|s| s.settled(SystemTime::now()))
            .map_or([0; 3], |s| [s.len, s.modified, s.inode]);
        let mut bytes = Vec::with_capacity(HEADER + payload.len());
        bytes.extend(MAGIC);
        for word in [self.key, content]
            .into_iter()
            .chain(stamp)
            .chain([hash_bytes(&payload)])
        {
            bytes.extend(word.to_le_bytes());
        }
        bytes.extend(payload);
        // A temp file renamed into place, so a reader never sees half an
        // entry; no fsync: a lost entry only costs a re-validation.
        let entry = self.entry(rel);
        let tmp = entry.with_extension(format!("tmp{}", std::process::id()));
        if fs::create_dir_all(&self.dir).is_ok()
            && fs::write(&tmp, &bytes).is_ok()
            && fs::rename(&tmp, &entry).is_err()
        {
            let _ = fs::remove_file(&tmp);
        }
    }

    /// Removes the entries of files that are no longer card files.
    pub fn prune(&self, card_files: &[String]) {
        let keep: std::collections::HashSet<PathBuf> =
            card_files.iter().map(|r| self.entry(r)).collect();
        for entry in fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            if !keep.contains(&entry.path()) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn an_entry_round_trips_and_anything_stale_or_damaged_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1);
        let cards = vec![card("a"), card("b")];
        cache.put("cards/g/x.toml", 7, None, &cards);
        assert_eq!(cache.get("cards/g/x.toml", 7), Some(cards.clone()));
        assert_eq!(
            cache.get::<Vec<Card>>("cards/g/x.toml", 8),
            None,
            "the file's text changed"
        );
        assert_eq!(
            CheckCache::new(dir.path(), "g", 2).get::<Vec<Card>>("cards/g/x.toml", 7),
            None,
            "the schemas changed"
        );
        let entry = cache.entry("cards/g/x.toml");
        let mut bytes = fs::read(&entry).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&entry, &bytes).unwrap();
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
        cache.put("cards/g/x.toml", 7, None, &cards);
        cache.prune(&[]);
        assert_eq!(cache.get::<Vec<Card>>("cards/g/x.toml", 7), None, "pruned");
    }

    #[test]
    fn a_settled_stamp_finds_the_entry_without_the_text_and_a_fresh_one_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::new(dir.path(), "g", 1);
        let cards = vec![card("a")];
        let old = Stamp {
            len: 10,
            modified: 1_000_000_000,
            inode: 5,
        };
        cache.put("cards/g/x.toml", 7, Some(old), &cards);
        assert_eq!(
            cache.get_stamped("cards/g/x.toml", old),
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
            cache.get("cards/g/x.toml", 7),
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
        cache.put("cards/g/x.toml", 7, Some(fresh), &cards);
        assert_eq!(
            cache.get_stamped::<Vec<Card>>("cards/g/x.toml", fresh),
            None
        );
        assert_eq!(cache.get("cards/g/x.toml", 7), Some(cards));
    }
}
