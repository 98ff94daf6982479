//! A snapshot of what `carta check` can read: every folder and file under
//! `cards/`, `decks/`, `schemas/` and `templates/`, and `.taplo.toml`, each with its
//! stamp (size, modification and change times, inode), taken before the
//! check reads anything. A later run that finds every stamp unchanged knows
//! that no file the check could read changed, came or went — without
//! listing a folder or reading a file: a folder's times move when an entry
//! is added, removed or renamed in it, a file's when it is written, and the
//! change time cannot be set back.
//!
//! A stamp younger than a second is not trusted alone (an edit in the same
//! clock tick could leave it unchanged): such a folder is listed again and
//! such a file read again, and compared by the hash of its names or bytes,
//! taken with the snapshot. No snapshot is taken of a tree with a link or
//! anything but folders and regular files in it: what a link points at can
//! change under an unchanged link.

// foldhash: a snapshot looks up a thousand paths a run.
use foldhash::{HashMap, HashMapExt};
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::confine::{Jail, Seen};
use crate::cache::{Stamp, hash_bytes, hash_text};

/// The paths a check reads, relative to the workspace root.
/// (`decks/` holds the players' collections, which a check reads.)
const TOPS: [&str; 5] = ["cards", "decks", "schemas", "templates", ".taplo.toml"];

/// How many fresh files a snapshot reads to hash; past that (a checkout
/// that touched everything) the rest stay unhashed, and the next run
/// cannot be answered by the snapshot.
const MAX_HASHED: usize = 64;

/// The largest fresh file a snapshot reads to hash (larger ones: as above).
const MAX_HASHED_BYTES: u64 = 1 << 20;

/// How many entries a thread of [`Snapshot::holds`] stamps at a time.
const SLICE: usize = 64;

/// A snapshot entry's stamp words as a [`Stamp`].
fn as_stamp(words: [u64; 4]) -> Stamp {
    let [len, modified, changed, inode] = words;
    Stamp {
        len,
        modified,
        changed,
        inode,
    }
}

/// Every path under [`TOPS`] with its stamp, parents before children.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    entries: Vec<Entry>,
}

/// One path of a snapshot.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    rel: String,
    what: What,
    /// Size, modification time and change time (ns since the epoch), inode.
    stamp: [u64; 4],
    /// Whether the stamp was more than a second old when it was taken.
    settled: bool,
    /// A folder's: the hash of its entries' names; a fresh file's: the hash
    /// of its bytes (when it was read).
    hash: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum What {
    Absent,
    File,
    Folder,
}

impl Snapshot {
    /// Whether nothing in the snapshot changed, came or went in the
    /// workspace at `root`.
    ///
    /// # Errors
    /// When something changed: what was found of each of the snapshot's
    /// paths, for [`Snapshot::take`] not to ask again.
    pub fn holds(&self, root: &Path, jail: &Jail) -> Result<(), Found> {
        // Two threads stamp the entries a slice at a time (a stat is a
        // system call, and a game has thousands of files): one that starts
        // late takes fewer slices. Past a change the entries are only
        // stamped, not compared by their bytes or names: a snapshot taken
        // next asks none of them again.
        let slices: Vec<&[Entry]> = self.entries.chunks(SLICE).collect();
        let next = AtomicUsize::new(0);
        let changed = AtomicBool::new(false);
        let work = || {
            let mut stat = Stat::new(root);
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(slice) = slices.get(i) else {
                    return done;
                };
                let found: Vec<Option<At>> = slice
                    .iter()
                    .map(|e| {
                        let at = stat.of(&e.rel);
                        if !changed.load(Ordering::Relaxed)
                            && !at.is_some_and(|at| e.holds(at, root, jail))
                        {
                            changed.store(true, Ordering::Relaxed);
                        }
                        at
                    })
                    .collect();
                done.push((i, found));
            }
        };
        let done = if slices.len() < 8 {
            work()
        } else {
            std::thread::scope(|s| {
                let other = s.spawn(work);
                let mut done = work();
                // A thread that failed leaves its slices unstamped: changed.
                match other.join() {
                    Ok(theirs) => done.extend(theirs),
                    Err(_) => changed.store(true, Ordering::Relaxed),
                }
                done
            })
        };
        if !changed.load(Ordering::Relaxed) {
            return Ok(());
        }
        let mut found = vec![None; self.entries.len()];
        for (i, stamped) in done {
            let at = i * SLICE;
            found[at..at + stamped.len()].copy_from_slice(&stamped);
        }
        Err(Found(found))
    }

    /// The first of the snapshot's paths that `found` (what
    /// [`Snapshot::holds`] found) shows changed, come or gone, in words:
    /// what `CARTA_LOG=debug` tells.
    pub fn first_change(&self, found: &Found, root: &Path, jail: &Jail) -> String {
        let changed = self
            .entries
            .iter()
            .zip(&found.0)
            .find_map(|(e, at)| (!e.holds((*at)?, root, jail)).then_some((e, (*at)?)));
        match changed {
            Some((e, At::Absent)) => format!("`{}` is gone", e.rel),
            Some((e, _)) if e.what == What::Absent => format!("`{}` came", e.rel),
            Some((e, _)) => format!("`{}` changed", e.rel),
            None => "something changed".into(),
        }
    }

    /// The snapshot of the workspace at `root` now; `None` when the tree
    /// holds a link or something other than folders and regular files, or
    /// cannot be listed. What `last` vouches for is not asked of the file
    /// system again: a folder whose stamp it holds is not listed.
    pub fn take(root: &Path, jail: &Jail, last: Option<(&Snapshot, Found)>) -> Option<Snapshot> {
        Self::take_at(root, jail, last, SystemTime::now())
    }

    /// [`Snapshot::take`] at time `now` (ns since the epoch): what a stamp
    /// is settled against.
    fn take_at(
        root: &Path,
        jail: &Jail,
        last: Option<(&Snapshot, Found)>,
        now: SystemTime,
    ) -> Option<Snapshot> {
        let mut taking = Taking::new(Stat::new(root), jail);
        taking.now = now;
        if let Some((last, found)) = last {
            taking.hint = Some(Hint::of(last));
            taking.found = found.0;
        }
        for top in TOPS {
            taking.add(top)?;
        }
        Some(Snapshot {
            entries: taking.entries,
        })
    }

    /// What the snapshot saw, for a jail to go by (see [`Seen`]).
    pub fn seen(&self) -> Seen {
        let mut seen = Seen::default();
        for e in &self.entries {
            match e.what {
                What::Absent => seen.absent(&e.rel),
                What::Folder => seen.folder(&e.rel),
                What::File => seen.file(&e.rel, as_stamp(e.stamp)),
            }
        }
        seen
    }

    /// Whether workspace file `rel` lies in what a snapshot covers.
    pub fn covers(rel: &str) -> bool {
        TOPS.iter().any(|top| {
            rel.strip_prefix(top)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// The snapshot with `rel` (a folder or file carta itself has just
    /// written under) taken again, its files' stamps trusted however young,
    /// and each folder above it stamped again; `None` when such a folder
    /// now lists an entry the snapshot does not hold (it came while the
    /// check ran).
    pub fn retaken(mut self, root: &Path, jail: &Jail, rel: &str) -> Option<Snapshot> {
        let inside = format!("{rel}/");
        let under = |e: &Entry| e.rel == rel || e.rel.starts_with(&inside);
        let at = self.entries.iter().position(under);
        self.entries.retain(|e| !under(e));
        let mut taking = Taking::new(Stat::new(root), jail);
        taking.add(rel)?;
        // Files carta has just written itself are not edited within the
        // same clock tick by anyone else: their stamps are trusted as they
        // are (a fresh deck schema takes megabytes to hash).
        for e in &mut taking.entries {
            e.settled |= e.what == What::File;
        }
        let at = at.unwrap_or(self.entries.len());
        self.entries.splice(at..at, taking.entries);
        let mut above = rel;
        while let Some((parent, _)) = above.rsplit_once('/') {
            let mut taking = Taking::new(Stat::new(root), jail);
            taking.deep = false;
            taking.add(parent)?;
            let listed = names(&root.join(parent))?;
            let held = |n: &String| {
                let child = format!("{parent}/{n}");
                self.entries.iter().any(|e| e.rel == child)
            };
            if !listed.iter().all(held) {
                return None;
            }
            let fresh = taking.entries.pop()?;
            if let Some(at) = self.entries.iter().position(|e| e.rel == parent) {
                self.entries[at] = fresh;
            } else {
                // Made by carta too: before what it holds.
                let inside = format!("{parent}/");
                let at = self
                    .entries
                    .iter()
                    .position(|e| e.rel.starts_with(&inside))?;
                self.entries.insert(at, fresh);
            }
            above = parent;
        }
        Some(self)
    }
}

impl Entry {
    /// Whether the path, where `found` is, is as the snapshot saw it.
    fn holds(&self, found: At, root: &Path, jail: &Jail) -> bool {
        let same = |stamp: [u64; 4]| self.settled && stamp == self.stamp;
        match (self.what, found) {
            (What::Absent, At::Absent) => true,
            // A file whose size, modification time or inode moved is taken
            // as changed, as the check's cache takes it: it could have been
            // trusted by an older stamp.
            (What::File, At::File(stamp)) => {
                same(stamp)
                    || stamp[..2] == self.stamp[..2]
                        && stamp[3] == self.stamp[3]
                        && self.hash.is_some_and(|h| {
                            let path = root.join(&self.rel);
                            jail.read(&path).is_ok_and(|b| hash_bytes(&b) == h)
                        })
            }
            (What::Folder, At::Folder(stamp)) => {
                same(stamp)
                    || self.hash.is_some_and(|h| {
                        names(&root.join(&self.rel)).is_some_and(|n| names_hash(&n) == h)
                    })
            }
            _ => false,
        }
    }
}

/// What [`Snapshot::holds`] found: the place of each entry of the
/// snapshot, by its index.
#[derive(Debug, Default)]
pub struct Found(Vec<Option<At>>);

/// What a stat found at a path (not following a link).
#[derive(Debug, Clone, Copy)]
enum At {
    Absent,
    File([u64; 4]),
    Folder([u64; 4]),
    /// A link, or anything but a folder or regular file.
    Other,
}

/// Stats paths under the workspace root: on Linux each one by its name in
/// its folder, opened once (a snapshot stats every file, and a path walked
/// from the root costs a lookup per folder on the way).
struct Stat<'a> {
    root: &'a Path,
    #[cfg(target_os = "linux")]
    folders: HashMap<String, Option<rustix::fd::OwnedFd>>,
}

impl<'a> Stat<'a> {
    fn new(root: &'a Path) -> Self {
        Stat {
            root,
            #[cfg(target_os = "linux")]
            folders: HashMap::new(),
        }
    }

    /// What is at `rel`; `None` when it cannot be told.
    #[cfg(target_os = "linux")]
    fn of(&mut self, rel: &str) -> Option<At> {
        use rustix::fs::{AtFlags, FileType, Mode, OFlags, StatxFlags};
        let (parent, name) = rel.rsplit_once('/').unwrap_or((".", rel));
        let root = self.root;
        if !self.folders.contains_key(parent) {
            let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let opened = rustix::fs::open(root.join(parent), flags, Mode::empty()).ok();
            self.folders.insert(parent.to_owned(), opened);
        }
        let folder = self.folders.get(parent)?;
        let Some(folder) = folder else {
            // No folder to look in: absent, if it is not there either.
            return (!root.join(parent).exists()).then_some(At::Absent);
        };
        let flags = AtFlags::SYMLINK_NOFOLLOW;
        let st = match rustix::fs::statx(folder, name, flags, StatxFlags::BASIC_STATS) {
            Ok(st) => st,
            Err(rustix::io::Errno::NOENT) => return Some(At::Absent),
            Err(_) => return None,
        };
        let ns = |t: rustix::fs::StatxTimestamp| {
            u64::try_from(t.tv_sec)
                .ok()?
                .checked_mul(1_000_000_000)?
                .checked_add(u64::from(t.tv_nsec))
        };
        let stamp = [
            st.stx_size,
            ns(st.stx_mtime)?,
            ns(st.stx_ctime)?,
            st.stx_ino,
        ];
        Some(match FileType::from_raw_mode(u32::from(st.stx_mode)) {
            FileType::RegularFile => At::File(stamp),
            FileType::Directory => At::Folder(stamp),
            _ => At::Other,
        })
    }

    /// What is at `rel`; `None` when it cannot be told.
    #[cfg(not(target_os = "linux"))]
    fn of(&mut self, rel: &str) -> Option<At> {
        let meta = match fs::symlink_metadata(self.root.join(rel)) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(At::Absent),
            Err(_) => return None,
        };
        let stamp = stamp_of(&meta)?;
        Some(if meta.is_file() {
            At::File(stamp)
        } else if meta.is_dir() {
            At::Folder(stamp)
        } else {
            At::Other
        })
    }
}

/// A snapshot being taken.
struct Taking<'a> {
    stat: Stat<'a>,
    jail: &'a Jail,
    now: SystemTime,
    hashed: usize,
    /// Whether a folder's entries are taken too.
    deep: bool,
    entries: Vec<Entry>,
    /// The last snapshot, by path.
    hint: Option<Hint<'a>>,
    /// What was found already of the last snapshot's entries (by
    /// [`Snapshot::holds`]).
    found: Vec<Option<At>>,
}

/// The last snapshot, by path: each entry, and each folder's names.
struct Hint<'a> {
    /// Each entry and where it is in the last snapshot.
    entries: HashMap<&'a str, (usize, &'a Entry)>,
    names: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> Hint<'a> {
    fn of(last: &'a Snapshot) -> Self {
        let mut names: HashMap<&str, Vec<&str>> = HashMap::new();
        for e in &last.entries {
            if let Some((parent, name)) = e.rel.rsplit_once('/') {
                names.entry(parent).or_default().push(name);
            }
        }
        // Listed in the order a folder's own listing is.
        for list in names.values_mut() {
            list.sort_unstable();
        }
        Hint {
            entries: last
                .entries
                .iter()
                .enumerate()
                .map(|(i, e)| (e.rel.as_str(), (i, e)))
                .collect(),
            names,
        }
    }
}

impl<'a> Taking<'a> {
    fn new(stat: Stat<'a>, jail: &'a Jail) -> Self {
        Taking {
            stat,
            jail,
            now: SystemTime::now(),
            hashed: 0,
            deep: true,
            entries: Vec::new(),
            hint: None,
            found: Vec::new(),
        }
    }

    /// Adds `rel` and, for a folder, everything under it.
    fn add(&mut self, rel: &str) -> Option<()> {
        let hinted = self.hint.as_ref().and_then(|h| h.entries.get(rel).copied());
        let at = match hinted.and_then(|(i, _)| self.found.get(i).copied().flatten()) {
            Some(at) => at,
            None => self.stat.of(rel)?,
        };
        let (what, stamp) = match at {
            At::Absent => {
                self.entries.push(Entry {
                    rel: rel.to_owned(),
                    what: What::Absent,
                    stamp: [0; 4],
                    settled: true,
                    hash: None,
                });
                return Some(());
            }
            At::File(stamp) => (What::File, stamp),
            At::Folder(stamp) => (What::Folder, stamp),
            At::Other => return None,
        };
        let old = hinted.map(|(_, o)| o).filter(|o| o.what == what);
        // Unchanged by its stamp alone: as the last snapshot has it.
        let children = if let Some(old) = old.filter(|o| o.settled && o.stamp == stamp) {
            self.entries.push(old.clone());
            let names = self.hint.as_ref()?.names.get(rel).into_iter().flatten();
            names.map(|n| format!("{rel}/{n}")).collect()
        } else {
            self.add_fresh(rel, what, stamp)?
        };
        if self.deep {
            for child in children {
                self.add(&child)?;
            }
        }
        Some(())
    }

    /// Adds `rel`, a `what` with `stamp`, as found now; returns a folder's
    /// children's paths.
    fn add_fresh(&mut self, rel: &str, what: What, stamp: [u64; 4]) -> Option<Vec<String>> {
        let settled = as_stamp(stamp).settled(self.now);
        let mut entry = Entry {
            rel: rel.to_owned(),
            what,
            stamp,
            settled,
            hash: None,
        };
        let path = self.stat.root.join(rel);
        if what == What::File {
            if !settled && self.hashed < MAX_HASHED && stamp[0] <= MAX_HASHED_BYTES {
                self.hashed += 1;
                entry.hash = self.jail.read(&path).ok().map(|b| hash_bytes(&b));
            }
            self.entries.push(entry);
            return Some(Vec::new());
        }
        let listed = names(&path)?;
        entry.hash = Some(names_hash(&listed));
        self.entries.push(entry);
        Some(listed.iter().map(|n| format!("{rel}/{n}")).collect())
    }
}

/// The names in folder `dir`, sorted; `None` when one is not UTF-8 or the
/// folder cannot be listed.
fn names(dir: &Path) -> Option<Vec<String>> {
    let mut out = fs::read_dir(dir)
        .ok()?
        .map(|e| e.ok()?.file_name().into_string().ok())
        .collect::<Option<Vec<_>>>()?;
    out.sort_unstable();
    Some(out)
}

/// A file's stamp as a snapshot keeps it.
#[cfg(all(unix, not(target_os = "linux")))]
fn stamp_of(meta: &fs::Metadata) -> Option<[u64; 4]> {
    Stamp::of(meta).map(|s| s.words())
}

/// Elsewhere there is no change time to trust: no snapshot.
#[cfg(not(unix))]
fn stamp_of(_: &fs::Metadata) -> Option<[u64; 4]> {
    None
}

/// The hash of a folder's names (which hold no `/`).
fn names_hash(names: &[String]) -> u64 {
    hash_text(&names.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace with a game's files, and its jail.
    fn workspace() -> (tempfile::TempDir, Jail) {
        let dir = tempfile::tempdir().unwrap();
        for (rel, text) in [
            ("cards/g/game.toml", "id = 'g'"),
            ("cards/g/a.toml", "[[card]]"),
            ("cards/g/decks/d.toml", "name = 'd'"),
            ("schemas/g/k.schema.json", "{}"),
        ] {
            let path = dir.path().join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let jail = Jail::new(dir.path(), 1 << 20).unwrap();
        (dir, jail)
    }

    /// Ten seconds from now: every stamp taken is settled.
    fn later() -> SystemTime {
        SystemTime::now() + std::time::Duration::from_secs(10)
    }

    fn settled(root: &Path, jail: &Jail) -> Snapshot {
        Snapshot::take_at(root, jail, None, later()).unwrap()
    }

    #[test]
    fn a_snapshot_holds_until_a_file_changes_comes_or_goes() {
        let (dir, jail) = workspace();
        let root = dir.path();
        let edits: [&dyn Fn(); 5] = [
            &|| fs::write(root.join("cards/g/a.toml"), "[[card]] ").unwrap(),
            &|| fs::write(root.join("cards/g/b.toml"), "").unwrap(),
            &|| fs::remove_file(root.join("cards/g/decks/d.toml")).unwrap(),
            &|| fs::create_dir(root.join("templates")).unwrap(),
            &|| fs::write(root.join(".taplo.toml"), "").unwrap(),
        ];
        for (i, edit) in edits.iter().enumerate() {
            let snapshot = settled(root, &jail);
            assert!(
                snapshot.holds(root, &jail).is_ok(),
                "edit {i}: holds before"
            );
            edit();
            assert!(snapshot.holds(root, &jail).is_err(), "edit {i}: seen");
        }
    }

    #[test]
    fn a_fresh_stamp_is_answered_by_the_bytes_and_names_it_was_taken_with() {
        let (dir, jail) = workspace();
        let root = dir.path();
        let path = root.join("cards/g/a.toml");
        let modified = fs::metadata(&path).unwrap().modified().unwrap();
        let rewrite = |text: &str| {
            fs::write(&path, text).unwrap();
            let file = fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(modified).unwrap();
        };
        let snapshot = Snapshot::take(root, &jail, None).unwrap();
        // Written again within the same tick: only the change time moved.
        rewrite("[[card]]");
        assert!(snapshot.holds(root, &jail).is_ok());
        // The same size and modification time, other bytes.
        rewrite("[[cord]]");
        assert!(snapshot.holds(root, &jail).is_err());
        // A modification time that moved is a change, bytes unread.
        fs::write(&path, "[[card]]").unwrap();
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(modified + std::time::Duration::from_secs(1))
            .unwrap();
        assert!(snapshot.holds(root, &jail).is_err());
    }

    #[test]
    fn a_link_anywhere_leaves_no_snapshot() {
        let (dir, jail) = workspace();
        let root = dir.path();
        std::os::unix::fs::symlink(root.join("cards/g/a.toml"), root.join("cards/g/l.toml"))
            .unwrap();
        assert!(Snapshot::take(root, &jail, None).is_none());
    }

    /// Enough files for two threads to stamp, a slice at a time: what
    /// each found lands at its own entry.
    #[test]
    fn a_large_snapshot_is_stamped_in_slices_and_taken_over_in_order() {
        let (dir, jail) = workspace();
        let root = dir.path();
        for i in 0..40 * SLICE {
            fs::write(root.join(format!("cards/g/decks/d{i:04}.toml")), "x").unwrap();
        }
        let last = settled(root, &jail);
        assert!(last.holds(root, &jail).is_ok());
        for i in [3, 20 * SLICE + 7, 40 * SLICE - 1] {
            fs::write(root.join(format!("cards/g/decks/d{i:04}.toml")), "xy").unwrap();
        }
        let found = last.holds(root, &jail).unwrap_err();
        let over = Snapshot::take_at(root, &jail, Some((&last, found)), later()).unwrap();
        let bytes = |s: &Snapshot| rmp_serde::to_vec(s).unwrap();
        assert_eq!(bytes(&over), bytes(&settled(root, &jail)));
    }

    #[test]
    fn taken_over_the_last_one_a_snapshot_is_what_a_new_one_is() {
        let (dir, jail) = workspace();
        let root = dir.path();
        let last = settled(root, &jail);
        fs::write(root.join("cards/g/decks/e.toml"), "name = 'e'").unwrap();
        fs::write(root.join("cards/g/a.toml"), "[[card]]\n").unwrap();
        let found = last.holds(root, &jail).unwrap_err();
        let over = Snapshot::take_at(root, &jail, Some((&last, found)), later()).unwrap();
        // The same entries as a new snapshot's.
        let bytes = |s: &Snapshot| rmp_serde::to_vec(s).unwrap();
        assert_eq!(bytes(&over), bytes(&settled(root, &jail)));
        assert!(over.holds(root, &jail).is_ok());
    }

    #[test]
    fn what_carta_wrote_is_taken_again_with_the_folders_above_it() {
        let (dir, jail) = workspace();
        let root = dir.path();
        let snapshot = settled(root, &jail);
        fs::create_dir_all(root.join("schemas/carta/editor")).unwrap();
        fs::write(root.join("schemas/carta/editor/g.json"), "{}").unwrap();
        assert!(snapshot.holds(root, &jail).is_err());
        let retaken = snapshot
            .clone()
            .retaken(root, &jail, "schemas/carta/editor")
            .unwrap();
        assert!(retaken.holds(root, &jail).is_ok());
        // A folder above that gained something else is not vouched for.
        fs::create_dir(root.join("schemas/h")).unwrap();
        assert!(
            snapshot
                .retaken(root, &jail, "schemas/carta/editor")
                .is_none()
        );
    }

    #[test]
    fn the_files_a_snapshot_saw_are_listed_as_a_walk_lists_them() {
        let (dir, jail) = workspace();
        let root = dir.path();
        fs::write(root.join("cards/g/.hidden.toml"), "").unwrap();
        fs::create_dir(root.join("cards/g/a")).unwrap();
        fs::write(root.join("cards/g/a/z.toml"), "").unwrap();
        // Beside folder `a`, names a byte order puts before its files.
        fs::write(root.join("cards/g/a-b.toml"), "").unwrap();
        fs::create_dir(root.join("cards/g/a.b")).unwrap();
        fs::write(root.join("cards/g/a.b/c.toml"), "").unwrap();
        let seen = Snapshot::take(root, &jail, None).unwrap().seen();
        let walked = super::super::walk::files(root, &jail, "cards/g")
            .unwrap()
            .files;
        assert_eq!(seen.listed("cards/g").unwrap(), walked);
        assert_eq!(seen.listed("cards/g/a").unwrap(), ["cards/g/a/z.toml"]);
        assert_eq!(seen.listed("templates/g"), Some(Vec::new()));
        assert_eq!(seen.listed("elsewhere"), None);
        // Each file's stamp is the snapshot's, whatever the file became
        // since.
        let mut jail = jail;
        jail.with_seen(seen);
        for rel in &walked {
            let len = fs::metadata(root.join(rel)).unwrap().len();
            fs::write(root.join(rel), "grown since").unwrap();
            assert_eq!(jail.stamp(&root.join(rel)).unwrap().len, len, "{rel}");
        }
    }
}
