//! The one rule for every read of a source: a regular file, inside the
//! workspace once symlinks are followed, no larger than the limit.
//!
//! A workspace may come from a stranger (a downloaded fan expansion), so a
//! path in it is not trusted: a card named `x.toml` may be a FIFO that
//! blocks forever, `/dev/zero`, or a symlink to `/etc/passwd`. Every reader
//! of workspace files (cards, manifests, schemas, decks, templates, icons,
//! art) goes through [`Jail`]; deck files named on the command line are the
//! one exception to confinement (the user chose them), never to the other
//! two conditions.

use crate::cache::Stamp;
use crate::limits::Bound;
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Why a source file was not read.
#[derive(Debug)]
pub enum ReadProblem {
    /// Nothing is there (or a symlink points nowhere).
    Missing,
    /// It resolves, after following symlinks, outside the workspace.
    OutsideWorkspace,
    /// It exists but is not a regular file (the noun: "a folder", "a FIFO", …).
    NotRegular(&'static str),
    /// It is larger than the bound on its kind of file.
    TooLarge {
        /// Its size, in bytes, when known (a file that grew while it was
        /// read is only known to be past the bound).
        size: Option<u64>,
        /// The bound.
        bound: Bound,
    },
    /// A symlink that leads back to a folder containing it.
    Loop,
    /// Reading it failed otherwise.
    Io(io::Error),
}

impl ReadProblem {
    /// One sentence about file `name`, for a diagnostic.
    pub fn message(&self, name: &str) -> String {
        match self {
            ReadProblem::Missing => format!("`{name}` does not exist"),
            ReadProblem::OutsideWorkspace => {
                format!("`{name}` leads outside the workspace")
            }
            ReadProblem::NotRegular(what) => {
                format!("`{name}` is {what}, not a regular file")
            }
            ReadProblem::TooLarge { size, bound } => {
                let size = size.map_or_else(|| "larger".into(), |n| format!("{n} bytes,"));
                format!(
                    "`{name}` is {size} more than the {} bytes {} may hold",
                    bound.bytes, bound.what
                )
            }
            ReadProblem::Loop => {
                format!("`{name}` is a symlink loop: it leads back to a folder that holds it")
            }
            ReadProblem::Io(e) => format!("cannot read `{name}`: {e}"),
        }
    }

    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self {
            ReadProblem::Missing => "load::missing",
            ReadProblem::OutsideWorkspace => "load::outside-workspace",
            ReadProblem::NotRegular(_) => "load::not-a-file",
            ReadProblem::TooLarge { .. } => "load::too-large",
            ReadProblem::Loop => "load::symlink-loop",
            ReadProblem::Io(_) => "load::io",
        }
    }

    /// How to fix it.
    pub fn help(&self) -> String {
        match self {
            ReadProblem::Missing => "create the file, or correct the path".into(),
            ReadProblem::OutsideWorkspace => {
                "carta reads only files inside the workspace; copy the file in instead of linking to it"
                    .into()
            }
            ReadProblem::NotRegular(_) => {
                "carta reads only regular files; replace it with a file".into()
            }
            ReadProblem::TooLarge { bound, .. } => format!(
                "{}, or raise the bound with {}=<bytes>",
                bound.advice, bound.var
            ),
            ReadProblem::Loop => "remove the link; carta does not follow loops".into(),
            ReadProblem::Io(_) => "check the file's permissions".into(),
        }
    }
}

/// The workspace root, resolved once, and the per-file size limit.
#[derive(Debug, Clone)]
pub struct Jail {
    /// The root as given.
    root: PathBuf,
    /// The root with every symlink resolved.
    real_root: PathBuf,
    /// The largest file read, in bytes.
    max_bytes: u64,
    /// Folders already resolved by [`Jail::stamp`], and whether they lie
    /// inside the workspace: a game's thousand files share a few folders.
    folders: Arc<Mutex<HashMap<PathBuf, bool>>>,
    /// The resolved root, opened once: what [`Jail::open_beneath`] opens
    /// beneath (`None` where it could not be opened).
    #[cfg(target_os = "linux")]
    root_fd: Option<Arc<rustix::fd::OwnedFd>>,
    /// What a snapshot of the workspace saw, taken before anything was
    /// read: the stamps and listings this run goes by (see [`Seen`]).
    seen: Option<Arc<Seen>>,
}

/// The regular files a snapshot of the workspace saw (`load::Snapshot`,
/// which holds no link), in the order a sorted walk finds them, with their
/// stamps, and the folders it listed: a run that took one stamps and lists
/// from it instead of asking the file system again, so that what it
/// checks is what the snapshot vouches for.
#[derive(Debug, Default)]
pub struct Seen {
    /// Each file's workspace path and stamp, folders sorted depth first.
    files: Vec<(String, Stamp)>,
    /// Where each file is in `files`, by the hash of its path ([`Seen::at`]
    /// checks the path: two that share a hash are only asked again).
    index: foldhash::HashMap<u64, usize>,
    /// The folders it listed.
    folders: std::collections::HashSet<String>,
    /// The paths it found absent.
    absent: std::collections::HashSet<String>,
}

impl Seen {
    /// Adds file `rel` and its stamp.
    pub fn file(&mut self, rel: &str, stamp: Stamp) {
        self.index.insert(path_hash(rel), self.files.len());
        self.files.push((rel.to_owned(), stamp));
    }

    /// Adds folder `rel`, listed.
    pub fn folder(&mut self, rel: &str) {
        self.folders.insert(rel.to_owned());
    }

    /// Adds `rel`, found absent.
    pub fn absent(&mut self, rel: &str) {
        self.absent.insert(rel.to_owned());
    }

    /// File `rel`'s stamp, if the snapshot holds it.
    fn at(&self, rel: &str) -> Option<Stamp> {
        let &at = self.index.get(&path_hash(rel))?;
        let (path, stamp) = self.files.get(at)?;
        (path == rel).then_some(*stamp)
    }

    /// The files under folder `rel_dir` as a sorted walk that skips hidden
    /// entries finds them; `None` when the snapshot did not look there.
    pub fn listed(&self, rel_dir: &str) -> Option<Vec<String>> {
        if !self.folders.contains(rel_dir) {
            // Not a folder the snapshot listed: nothing there, if the
            // snapshot looked (it listed or found absent a folder above).
            let mut above = rel_dir;
            loop {
                if self.absent.contains(above) || (above != rel_dir && self.folders.contains(above))
                {
                    return Some(Vec::new());
                }
                above = above.rsplit_once('/')?.0;
            }
        }
        let prefix = format!("{rel_dir}/");
        let visible = |below: &str| !below.split('/').any(|c| c.starts_with('.'));
        Some(
            self.files
                .iter()
                .filter_map(|(rel, _)| {
                    rel.strip_prefix(&prefix)
                        .filter(|b| visible(b))
                        .map(|_| rel.clone())
                })
                .collect(),
        )
    }
}

/// The hash a [`Seen`] finds a path by: foldhash, cheaper than the
/// standard library's for a thousand paths a run.
fn path_hash(rel: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one(rel)
}

impl Jail {
    /// The jail of the workspace at `root`.
    ///
    /// # Errors
    /// When the root cannot be resolved.
    pub fn new(root: &Path, max_bytes: u64) -> io::Result<Self> {
        let real_root = fs::canonicalize(root)?;
        #[cfg(target_os = "linux")]
        let root_fd = {
            use rustix::fs::{Mode, OFlags};
            let dir = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            rustix::fs::open(&real_root, dir, Mode::empty())
                .ok()
                .map(Arc::new)
        };
        Ok(Jail {
            root: root.to_path_buf(),
            real_root,
            max_bytes,
            folders: Arc::default(),
            #[cfg(target_os = "linux")]
            root_fd,
            seen: None,
        })
    }

    /// The jail going by what a snapshot `seen` (taken before anything was
    /// read) for the stamps and listings of the files it holds.
    pub fn with_seen(&mut self, seen: Seen) {
        self.seen = Some(Arc::new(seen));
    }

    /// What the snapshot this jail goes by saw, if it took one.
    pub fn seen(&self) -> Option<&Seen> {
        self.seen.as_deref()
    }

    /// Whether a workspace-relative path is written so that it stays in the
    /// workspace: relative, no `..`, no backslash. Symlinks are checked when
    /// the path is resolved ([`Jail::confine`]).
    pub fn is_plain_relative(rel: &str) -> bool {
        !(rel.is_empty()
            || Self::is_absolute(rel)
            || rel.contains('\\')
            || Path::new(rel)
                .components()
                .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)))
    }

    /// Whether `rel` is an absolute path on any system: `/…`, `\\…`, or a
    /// Windows drive (`C:…`).
    pub fn is_absolute(rel: &str) -> bool {
        let drive = rel.len() > 1 && rel.as_bytes()[1] == b':';
        rel.starts_with('/') || rel.starts_with('\\') || drive || Path::new(rel).is_absolute()
    }

    /// Resolves `path` (following symlinks) and checks that it lies inside
    /// the workspace; returns the resolved path.
    ///
    /// # Errors
    /// [`ReadProblem::Missing`] when nothing is there,
    /// [`ReadProblem::OutsideWorkspace`] when it resolves outside.
    pub fn confine(&self, path: &Path) -> Result<PathBuf, ReadProblem> {
        let real = match fs::canonicalize(path) {
            Ok(real) => real,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadProblem::Missing),
            Err(e) => return Err(ReadProblem::Io(e)),
        };
        if real.starts_with(&self.real_root) {
            Ok(real)
        } else {
            Err(ReadProblem::OutsideWorkspace)
        }
    }

    /// [`Jail::stamp`] of workspace file `rel` (a path relative to the
    /// root): looked up in the snapshot as it is, without a path built and
    /// taken apart again (a re-check stamps every card and deck file).
    pub fn stamp_rel(&self, rel: &str) -> Option<Stamp> {
        match self.seen_stamp(rel) {
            Some(stamp) => self.within_limit(stamp),
            None => self.stat_stamp(&self.root.join(rel)),
        }
    }

    /// The stamp of the regular file at `path` inside the workspace and
    /// within the size limit; `None` for anything else (which a read then
    /// reports).
    ///
    /// A file that is no symlink lies where its folder resolves to, so the
    /// folder is resolved once per run, not per file. A stamp only decides
    /// whether a cached result is reused: reading a file resolves it anew.
    pub fn stamp(&self, path: &Path) -> Option<Stamp> {
        let rel = path.strip_prefix(&self.root).ok().and_then(Path::to_str);
        match rel.and_then(|rel| self.seen_stamp(rel)) {
            Some(stamp) => self.within_limit(stamp),
            None => self.stat_stamp(path),
        }
    }

    /// Workspace file `rel`'s stamp in the snapshot the jail goes by, when
    /// it holds the file.
    fn seen_stamp(&self, rel: &str) -> Option<Stamp> {
        self.seen.as_ref()?.at(rel)
    }

    /// `stamp`, when the file is within the size limit.
    fn within_limit(&self, stamp: Stamp) -> Option<Stamp> {
        (stamp.len <= self.max_bytes).then_some(stamp)
    }

    /// [`Jail::stamp`] of `path`, asked of the file system.
    fn stat_stamp(&self, path: &Path) -> Option<Stamp> {
        let plain = fs::symlink_metadata(path).ok()?;
        let meta = if plain.file_type().is_symlink() || !self.folder_inside(path.parent()?) {
            fs::metadata(self.confine(path).ok()?).ok()?
        } else {
            plain
        };
        (meta.is_file() && meta.len() <= self.max_bytes).then(|| Stamp::of(&meta))?
    }

    /// Whether folder `dir` resolves inside the workspace (remembered).
    fn folder_inside(&self, dir: &Path) -> bool {
        let Ok(mut folders) = self.folders.lock() else {
            return false;
        };
        if let Some(&inside) = folders.get(dir) {
            return inside;
        }
        let inside = fs::canonicalize(dir).is_ok_and(|real| real.starts_with(&self.real_root));
        folders.insert(dir.to_path_buf(), inside);
        inside
    }

    /// Reads the file at `path`, which must resolve inside the workspace.
    ///
    /// # Errors
    /// See [`ReadProblem`].
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, ReadProblem> {
        self.read_within(path, self.file_bound())
    }

    /// [`Jail::read`] under `bound`, the bound on the file's kind (see
    /// [`Limits`](crate::limits::Limits)): past it, nothing more is read.
    ///
    /// # Errors
    /// See [`ReadProblem`].
    pub fn read_within(&self, path: &Path, bound: Bound) -> Result<Vec<u8>, ReadProblem> {
        read_open(self.open_confined(path)?, bound)
    }

    /// The bound on any file this jail reads.
    fn file_bound(&self) -> Bound {
        crate::limits::Limits {
            max_file_bytes: self.max_bytes,
            ..Default::default()
        }
        .file_bound()
    }

    /// The regular file at `path`, opened where it resolves inside the
    /// workspace: by the kernel in one `openat2` where it can
    /// ([`Jail::open_beneath`]), else by resolving the path, which says why
    /// a path is refused.
    fn open_confined(&self, path: &Path) -> Result<File, ReadProblem> {
        #[cfg(target_os = "linux")]
        if let Some(file) = self.open_beneath(path) {
            return regular(file);
        }
        open_regular(&self.confine(path)?)
    }

    /// Opens `path` (under the root as given) with one `openat2` that the
    /// kernel keeps beneath the resolved root (`RESOLVE_BENEATH`): what
    /// [`Jail::confine`] asks for, without a `readlink` per component of
    /// the path for each of a game's thousand files. `None` when it cannot
    /// (an older kernel, a path not under the root, a symlink that leaves
    /// the root even to come back, anything missing or refused): the
    /// caller then resolves the path itself, and reports why.
    #[cfg(target_os = "linux")]
    fn open_beneath(&self, path: &Path) -> Option<File> {
        use rustix::fs::{Mode, OFlags, ResolveFlags};
        let rel = path.strip_prefix(&self.root).ok()?;
        if rel.as_os_str().is_empty() {
            return None;
        }
        let root = self.root_fd.as_deref()?;
        // As `open_regular` opens: never blocking on a FIFO or a device.
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
        let fd = rustix::fs::openat2(root, rel, flags, Mode::empty(), resolve).ok()?;
        Some(File::from(fd))
    }

    /// Opens the file at `path`, which must resolve inside the workspace and
    /// be a regular file within the size limit, for a reader that needs
    /// only part of it (an image's header).
    ///
    /// # Errors
    /// See [`ReadProblem`].
    pub fn open(&self, path: &Path) -> Result<File, ReadProblem> {
        let file = self.open_confined(path)?;
        let len = file.metadata().map_err(ReadProblem::Io)?.len();
        if len > self.max_bytes {
            return Err(ReadProblem::TooLarge {
                size: Some(len),
                bound: self.file_bound(),
            });
        }
        Ok(file)
    }

    /// Reads a file the user named on the command line: anywhere, but
    /// still only a regular file within `bound` (see [`Jail::read_within`]).
    ///
    /// # Errors
    /// See [`ReadProblem`].
    pub fn read_named_within(&self, path: &Path, bound: Bound) -> Result<Vec<u8>, ReadProblem> {
        read_open(open_regular(path)?, bound)
    }

    /// The workspace root, as given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The per-file size limit, in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }
}

/// Reads an open regular file of at most `bound` bytes, and never more
/// than one byte past it. The file is opened without blocking (a FIFO
/// would otherwise wait for a writer forever) and its type is checked on
/// the open handle (see `open_regular`), so a swap between a check and
/// the open cannot slip a FIFO or device in.
fn read_open(file: File, bound: Bound) -> Result<Vec<u8>, ReadProblem> {
    let len = file.metadata().map_err(ReadProblem::Io)?.len();
    crate::write::read_at_most(file, bound.bytes)
        .map_err(ReadProblem::Io)?
        .ok_or(ReadProblem::TooLarge {
            size: (len > bound.bytes).then_some(len),
            bound,
        })
}

/// Opens `path` for reading if it is a regular file: never blocks on a FIFO
/// or a device.
fn open_regular(path: &Path) -> Result<File, ReadProblem> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file: File = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadProblem::Missing),
        Err(e) => {
            // A folder may refuse to open at all on some systems.
            return Err(match fs::metadata(path) {
                Ok(m) if !m.is_file() => ReadProblem::NotRegular(noun(m.file_type())),
                _ => ReadProblem::Io(e),
            });
        }
    };
    regular(file)
}

/// `file` if it is a regular file, checked on the open handle.
fn regular(file: File) -> Result<File, ReadProblem> {
    let meta = file.metadata().map_err(ReadProblem::Io)?;
    if !meta.is_file() {
        return Err(ReadProblem::NotRegular(noun(meta.file_type())));
    }
    Ok(file)
}

/// What a file that is not a regular file is, as a noun phrase.
fn noun(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_relative_paths() {
        assert!(Jail::is_plain_relative("schemas/g/a.schema.json"));
        assert!(Jail::is_plain_relative("./a"));
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a\\b", "C:/x"] {
            assert!(!Jail::is_plain_relative(bad), "{bad}");
        }
    }

    #[test]
    fn reads_only_regular_files_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let jail = Jail::new(dir.path(), 10).unwrap();
        fs::write(dir.path().join("small"), b"12345").unwrap();
        fs::write(dir.path().join("big"), b"12345678901").unwrap();
        fs::create_dir(dir.path().join("folder")).unwrap();
        assert_eq!(jail.read(&dir.path().join("small")).unwrap(), b"12345");
        assert!(matches!(
            jail.read(&dir.path().join("big")),
            Err(ReadProblem::TooLarge { size: Some(_), bound }) if bound.bytes == 10
        ));
        assert!(matches!(
            jail.read(&dir.path().join("folder")),
            Err(ReadProblem::NotRegular("a folder"))
        ));
        assert!(matches!(
            jail.read(&dir.path().join("none")),
            Err(ReadProblem::Missing)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_links_out_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret"), b"s").unwrap();
        let jail = Jail::new(dir.path(), 1 << 20).unwrap();
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(matches!(
            jail.read(&fifo),
            Err(ReadProblem::NotRegular("a FIFO (named pipe)"))
        ));
        assert!(matches!(
            jail.read_named_within(Path::new("/dev/zero"), jail.file_bound()),
            Err(ReadProblem::NotRegular("a device"))
        ));
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("s")).unwrap();
        assert!(matches!(
            jail.read(&dir.path().join("s")),
            Err(ReadProblem::OutsideWorkspace)
        ));
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("z")).unwrap();
        assert!(matches!(
            jail.read(&dir.path().join("z")),
            Err(ReadProblem::OutsideWorkspace)
        ));
    }

    /// The kernel's confinement (`openat2`, Linux) reads what resolving
    /// the path reads, and refuses what it refuses: links that stay
    /// inside, that leave and come back, absolute ones, `..` in the path.
    #[cfg(unix)]
    #[test]
    fn reading_beneath_the_root_agrees_with_resolving_the_path() {
        use std::os::unix::fs::symlink;
        let top = tempfile::tempdir().unwrap();
        let root = top.path().join("ws");
        fs::create_dir_all(root.join("cards")).unwrap();
        fs::write(root.join("cards/a.toml"), b"a = 1").unwrap();
        fs::write(top.path().join("secret"), b"s").unwrap();
        symlink("cards/a.toml", root.join("in")).unwrap();
        symlink("../ws/cards/a.toml", root.join("back")).unwrap();
        symlink(root.join("cards/a.toml"), root.join("absolute")).unwrap();
        symlink("../secret", root.join("out")).unwrap();
        symlink("loop", root.join("loop")).unwrap();
        let jail = Jail::new(&root, 1 << 20).unwrap();
        for (name, read) in [
            ("cards/a.toml", true),
            ("cards/../cards/a.toml", true),
            ("in", true),
            ("back", true),
            ("absolute", true),
            ("out", false),
            ("loop", false),
            ("cards", false),
            ("none", false),
        ] {
            let path = root.join(name);
            let resolved = jail
                .confine(&path)
                .and_then(|r| read_open(open_regular(&r)?, jail.file_bound()));
            let got = jail.read(&path);
            match (&got, &resolved) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
                (Err(a), Err(b)) => assert_eq!(a.code(), b.code(), "{name}"),
                _ => panic!("{name}: {got:?} vs {resolved:?}"),
            }
            assert_eq!(got.is_ok(), read, "{name}: {got:?}");
        }
        // The plain path and a link that stays inside take the kernel's
        // way; one that leaves the root never does.
        #[cfg(target_os = "linux")]
        {
            assert!(jail.open_beneath(&root.join("cards/a.toml")).is_some());
            assert!(jail.open_beneath(&root.join("in")).is_some());
            assert!(jail.open_beneath(&root.join("out")).is_none());
            assert!(jail.open_beneath(&root.join("back")).is_none());
        }
    }
}
