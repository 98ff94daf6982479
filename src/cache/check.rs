//! The check cache: what checking each card file produced, the game's
//! record and the workspace's ledger, all under `build/.cache/`.
//!
//! - `build/.cache/<game>/<hash of the file's path>`: one entry per card
//!   file that had nothing to report — the hash of its text, its stamp
//!   when that was settled, the hash of what the game's verdict reads of
//!   its cards (its *shape*) and the cards themselves. `carta build` keeps
//!   its own entries, with every field packed, in `build/.cache/<game>.all/`.
//! - `build/.cache/<game>.verdict`: the game's record (`game::record`).
//! - `build/.cache/.ledger`: the workspace's ledger (`game::ledger`).
//!
//! Each is one framed value ([`super::frame`]): keyed by the program and
//! by everything besides a file's own text that its result depends on
//! (the manifest, the schemas, the fields kept), checksummed. A file
//! whose stamp equals its entry's is taken without being read; any other
//! file is read, and an entry made from the same text still serves. An
//! entry whose key, text or checksum does not match is ignored (and
//! overwritten).

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Framed, Key, MAX_FILE, Stamp, hash_of, hash_text, same_stamp, settled_stamp};
use super::{read_framed, unframe, write_framed};
use crate::write::{Folder, Kind, WriteError};

const ENTRY_MAGIC: [u8; 8] = *b"carta-e5";
const RECORD_MAGIC: [u8; 8] = *b"carta-v6";
const LEDGER_MAGIC: [u8; 8] = *b"carta-l3";
const LEDGER: &str = ".ledger";

/// What a cache entry says of the file it was made from: enough for the
/// game's record to tell, without the entry, whether a file still gives
/// the same cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// The file's stamp ([`Stamp::words`]); all 0 when it was too fresh
    /// to trust.
    pub stamp: [u64; 4],
    /// The hash of the file's text.
    pub content: u64,
    /// The hash of what the game's verdict reads of its cards (see
    /// `game::cards::shape`); 0 for a file that is not a card file.
    pub shape: u64,
}

impl Mark {
    /// The mark of a file of `text` with `stamp` (a deck, a translation).
    pub fn of_text(text: &str, stamp: Option<Stamp>) -> Mark {
        Mark {
            stamp: settled_stamp(stamp),
            content: hash_text(text),
            shape: 0,
        }
    }

    /// Whether `stamp` is the (trusted) stamp this mark was made with.
    pub fn same_stamp(&self, stamp: Stamp) -> bool {
        same_stamp(self.stamp, stamp)
    }
}

/// A card file's entry as stored: its mark, then its cards, encoded apart
/// (a `MessagePack` binary), so that the mark is read without walking them.
#[derive(Serialize, Deserialize)]
struct Entry<'a> {
    mark: Mark,
    #[serde(borrow, with = "serde_bytes")]
    cards: &'a [u8],
}

/// The check cache of one game.
#[derive(Debug)]
pub struct CheckCache {
    /// `build/.cache/`, where the record lies.
    parent: Folder,
    /// `build/.cache/<game>/`, the entries.
    dir: Folder,
    /// The record's file name, `<game>.verdict`.
    record: String,
    key: Key,
}

impl CheckCache {
    /// The cache of `game` (entries in `build/.cache/<name>/`) in the
    /// workspace at `root`; `key` stands for everything besides a file's
    /// own text that its validation depends on. `Ok(None)` when its
    /// folder cannot be made (a read-only workspace: the check runs
    /// without a cache) or the running program cannot be identified.
    ///
    /// # Errors
    /// When `build/`, `build/.cache/` or `build/.cache/<name>` is a link
    /// or no folder: nothing is read from it or written there.
    pub fn new(root: &Path, game: &str, name: &str, key: Key) -> Result<Option<Self>, WriteError> {
        if super::program().is_none() {
            return Ok(None);
        }
        let opened = super::folder(root).and_then(|parent| {
            let dir = parent.sub(name)?;
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
            key,
        }))
    }

    fn entry_name(rel: &str) -> String {
        format!("{:016x}", hash_text(rel))
    }

    /// The bytes of card file `rel`'s entry, if there is one.
    fn entry_bytes(&self, rel: &str) -> Option<Vec<u8>> {
        // The cache lies in the workspace too: a FIFO, a device or a link
        // planted there is not read.
        self.dir.read(&Self::entry_name(rel), MAX_FILE)
    }

    /// The cards kept for card file `rel` and its mark, if its entry is
    /// intact, made under this key and `found` (from its mark) says it
    /// serves. The cards are decoded only then.
    fn served<T: DeserializeOwned>(
        &self,
        rel: &str,
        found: impl Fn(&Mark) -> bool,
    ) -> Option<(T, Mark)> {
        let bytes = self.entry_bytes(rel)?;
        let entry: Entry<'_> = unframe(&bytes, ENTRY_MAGIC, self.key)?;
        if !found(&entry.mark) {
            return None;
        }
        let cards = rmp_serde::from_slice(entry.cards).ok()?;
        Some((cards, entry.mark))
    }

    /// What was kept for card file `rel`, if the cache holds it for this
    /// text (of hash `content`). The cache does not know what it stores:
    /// the caller (the check) names the type, so it depends on no stage.
    pub fn get<T: DeserializeOwned>(&self, rel: &str, content: u64) -> Option<(T, Mark)> {
        self.served(rel, |m| m.content == content)
    }

    /// What was kept for card file `rel`, if it was checked with this very
    /// stamp: the file need not be read.
    pub fn get_stamped<T: DeserializeOwned>(&self, rel: &str, stamp: Stamp) -> Option<(T, Mark)> {
        self.served(rel, |m| m.same_stamp(stamp))
    }

    /// Remembers what checking card file `rel` (of text hash `content`)
    /// kept and its `shape`, with the file's stamp when it is settled (a
    /// lost entry is only a slower next check; whatever was there, a
    /// planted link or FIFO included, is replaced, not followed). Returns
    /// the entry's mark (`None` when it was not written).
    pub fn put<T: Serialize + ?Sized>(
        &self,
        rel: &str,
        content: u64,
        stamp: Option<Stamp>,
        (cards, shape): (&T, u64),
    ) -> Option<Mark> {
        let mark = Mark {
            stamp: settled_stamp(stamp),
            content,
            shape,
        };
        let cards = rmp_serde::to_vec(cards).ok()?;
        let entry = Entry {
            mark,
            cards: &cards,
        };
        write_framed(
            &self.dir,
            &Self::entry_name(rel),
            ENTRY_MAGIC,
            self.key,
            &entry,
        )
        .then_some(mark)
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

    /// The key a record of this cache is written under, with `extra`
    /// (whatever else the record depends on).
    fn record_key(&self, extra: Key) -> Key {
        hash_of(&(self.key, extra))
    }

    /// The game's record as [`read_record`] read it, if it was written
    /// with this key and `extra`.
    pub fn record<T>(&self, read: Option<Framed<T>>, extra: Key) -> Option<T> {
        read?.under(self.record_key(extra))
    }

    /// Writes the game's record (a record that cannot be written only
    /// makes the next check a full one).
    pub fn put_record<T: Serialize>(&self, extra: Key, record: &T) {
        let key = self.record_key(extra);
        write_framed(&self.parent, &self.record, RECORD_MAGIC, key, record);
    }

    /// Forgets the game's record (a link there is removed itself).
    pub fn drop_record(&self) {
        let _ = self.parent.remove_file(&self.record);
    }
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

/// Game `game`'s record in the workspace at `root`, if one is there and
/// intact, whatever its key: read beside the work that tells the key (the
/// game's schemas), and taken only under it ([`CheckCache::record`]).
pub fn read_record<T: DeserializeOwned>(root: &Path, game: &str) -> Option<Framed<T>> {
    read_framed(&cache_folder(root)?, &record_name(game), RECORD_MAGIC)
}

/// The ledger of the workspace's last `carta check` (see
/// `game::ledger`), if one was written by this carta with `key` and is
/// intact: `build/.cache/.ledger` (a game's id never starts with a dot).
pub fn get_ledger<T: DeserializeOwned>(root: &Path, key: Key) -> Option<T> {
    read_framed(&cache_folder(root)?, LEDGER, LEDGER_MAGIC)?.under(key)
}

/// Writes the workspace's ledger (one that cannot be written only makes
/// the next check take the longer way).
pub fn put_ledger<T: Serialize>(root: &Path, key: Key, ledger: &T) {
    let cache = super::folder(root);
    if let Ok(cache) = cache {
        write_framed(&cache, LEDGER, LEDGER_MAGIC, key, ledger);
    }
}

/// Forgets the workspace's ledger (a link there is removed itself).
pub fn drop_ledger(root: &Path) {
    if let Some(cache) = cache_folder(root) {
        let _ = cache.remove_file(LEDGER);
    }
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

    fn open(dir: &Path, key: Key) -> CheckCache {
        CheckCache::new(dir, "g", "g", key).unwrap().unwrap()
    }

    #[test]
    fn an_entry_round_trips_and_anything_stale_or_damaged_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path(), 1);
        let cards = vec![card("a"), card("b")];
        let mark = cache.put("cards/g/x.toml", 7, None, (&cards, 3)).unwrap();
        assert_eq!(mark.shape, 3);
        assert_eq!(
            cache.get("cards/g/x.toml", 7),
            Some((cards.clone(), mark)),
            "the cards and their mark"
        );
        assert_eq!(
            cache.get::<Vec<Card>>("cards/g/x.toml", 8),
            None,
            "the text changed"
        );
        assert_eq!(
            open(dir.path(), 2).get::<Vec<Card>>("cards/g/x.toml", 7),
            None,
            "the schemas changed"
        );
        let entry = dir
            .path()
            .join("build/.cache/g")
            .join(CheckCache::entry_name("cards/g/x.toml"));
        let mut bytes = fs::read(&entry).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&entry, &bytes).unwrap();
        assert_eq!(cache.get::<Vec<Card>>("cards/g/x.toml", 7), None, "damaged");
        fs::write(&entry, b"carta").unwrap();
        assert_eq!(
            cache.get::<Vec<Card>>("cards/g/x.toml", 7),
            None,
            "cut short"
        );
        cache.put("cards/g/x.toml", 7, None, (&cards, 3));
        cache.prune(&[]);
        assert_eq!(cache.get::<Vec<Card>>("cards/g/x.toml", 7), None, "pruned");
    }

    #[test]
    fn a_settled_stamp_finds_the_entry_without_the_text_and_a_fresh_one_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path(), 1);
        let cards = vec![card("a")];
        let old = Stamp {
            len: 10,
            modified: 1_000_000_000,
            changed: 1_000_000_000,
            inode: 5,
        };
        cache.put("cards/g/x.toml", 7, Some(old), (&cards, 3));
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
            Stamp {
                changed: old.changed + 1,
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
        // Changed just now: the same clock tick could hide another edit.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        let fresh = Stamp {
            changed: u64::try_from(now.as_nanos()).unwrap(),
            ..old
        };
        cache.put("cards/g/x.toml", 7, Some(fresh), (&cards, 3));
        assert_eq!(
            cache.get_stamped::<Vec<Card>>("cards/g/x.toml", fresh),
            None
        );
        assert_eq!(cache.get("cards/g/x.toml", 7).map(|(c, _)| c), Some(cards));
    }

    #[test]
    fn a_record_round_trips_only_with_its_key_and_intact() {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path(), 1);
        let get = |cache: &CheckCache, extra| {
            cache.record(read_record::<Vec<Card>>(dir.path(), "g"), extra)
        };
        let record = vec![card("a")];
        assert_eq!(get(&cache, 9), None, "none yet");
        cache.put_record(9, &record);
        assert_eq!(get(&cache, 9), Some(record.clone()));
        assert_eq!(get(&cache, 8), None, "other limits");
        assert_eq!(get(&open(dir.path(), 2), 9), None, "other schemas");
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
    fn prune_removes_only_entries_and_a_linked_cache_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let victim = tempfile::tempdir().unwrap();
        fs::write(victim.path().join("notes.txt"), b"mine").unwrap();
        let cache = open(dir.path(), 1);
        cache.put("cards/g/x.toml", 7, None, (&vec![card("a")], 3));
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
        let e = CheckCache::new(dir.path(), "h", "h", 1).unwrap_err();
        assert_eq!(e.code(), "write::link");
        assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 1);
    }
}
