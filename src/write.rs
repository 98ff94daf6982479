//! The one rule for every write and delete: inside a folder carta owns,
//! never through a symlink, never onto a FIFO or a device.
//!
//! A workspace may come from a stranger, and so may what lies under its
//! `build/`: a committed symlink `build/.cache/<game>` or `build/<game>`
//! would otherwise lead a cache prune or a build's swap to delete and write
//! anywhere. A [`Folder`] is an open folder handle; every path below it is
//! resolved one component at a time with `openat(O_NOFOLLOW)`, so no
//! component is ever a link, and files are created exclusively
//! (`O_CREAT|O_EXCL|O_NOFOLLOW`) and renamed within their folder. A link or
//! a non-regular file where carta would write is a [`WriteError`] naming
//! it, before anything is written.
//!
//! Why own code over `cap-std`: a `cap_std::fs::Dir` follows symlinks that
//! stay inside it, and carta wants none followed at all (a link is always
//! an error, with its name), which is a dozen `rustix` calls.
//!
//! The folder a handle starts from is opened as given: the workspace root,
//! or an output folder the user named on the command line.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// Why carta did not write.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A symlink is where carta would write, or on the way there.
    #[error("`{}` is a symbolic link; carta does not write or delete through links", path.display())]
    Link {
        /// The link.
        path: PathBuf,
    },
    /// Something else than what carta writes (a regular file, or a folder)
    /// is there: a FIFO, a device, a file where a folder should be.
    #[error("`{}` is {what}, where carta writes {wanted}", path.display())]
    NotAFile {
        /// The entry.
        path: PathBuf,
        /// What it is ("a FIFO (named pipe)", "a folder", …).
        what: &'static str,
        /// What carta would write there ("a file", "a folder").
        wanted: &'static str,
    },
    /// Writing failed otherwise.
    #[error("cannot write `{}`: {source}", path.display())]
    Io {
        /// The file or folder being written.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

impl WriteError {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self {
            WriteError::Link { .. } => "write::link",
            WriteError::NotAFile { .. } => "write::not-a-file",
            WriteError::Io { .. } => "write::io",
        }
    }

    /// How to fix it.
    pub fn help(&self) -> &'static str {
        match self {
            WriteError::Link { .. } => {
                "remove the link (a workspace from a stranger may carry links that lead outside it); carta then creates a real folder or file there"
            }
            WriteError::NotAFile { .. } => {
                "move it away; carta writes only regular files, in real folders"
            }
            WriteError::Io { .. } => "check the folder's permissions and free space",
        }
    }

    /// Whether the entry itself is wrong (a link, a FIFO, …), as opposed
    /// to an I/O failure writing a proper one.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, WriteError::Io { .. })
    }

    /// The error's I/O kind, where it is one.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            WriteError::Io { source, .. } => Some(source.kind()),
            _ => None,
        }
    }
}

/// What an entry of a folder is, read without following links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A folder.
    Folder,
    /// A symlink (wherever it points).
    Link,
    /// A FIFO, socket or device.
    Other(&'static str),
}

impl Kind {
    fn of(kind: FileType) -> Kind {
        match kind {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Folder,
            FileType::Symlink => Kind::Link,
            FileType::Fifo => Kind::Other("a FIFO (named pipe)"),
            FileType::Socket => Kind::Other("a socket"),
            FileType::CharacterDevice | FileType::BlockDevice => Kind::Other("a device"),
            FileType::Unknown => Kind::Other("not a regular file"),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::File => "a regular file",
            Kind::Folder => "a folder",
            Kind::Link => "a symbolic link",
            Kind::Other(what) => what,
        }
    }
}

/// An open folder that carta writes in: every path under it is resolved
/// without following a link.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    /// The folder's path, for messages.
    path: PathBuf,
}

/// The deepest folder tree [`Folder::remove_all`] descends: a planted tree
/// deeper than that is an error, not a stack overflow.
const MAX_DEPTH: usize = 128;

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

impl Folder {
    /// Opens the folder at `path` as given (links in the path followed:
    /// the user named it).
    ///
    /// # Errors
    /// When it cannot be opened as a folder.
    pub fn open(path: &Path) -> Result<Folder, WriteError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        rustix::fs::open(path, flags, Mode::empty())
            .map(|fd| Folder {
                fd,
                path: path.to_path_buf(),
            })
            .map_err(|e| io_error(path, e))
    }

    /// Opens the workspace at `root` as given; paths below it are shown
    /// relative to it in messages (`build/.cache/<game>`).
    ///
    /// # Errors
    /// When it cannot be opened as a folder.
    pub fn workspace(root: &Path) -> Result<Folder, WriteError> {
        let mut folder = Folder::open(root)?;
        folder.path = PathBuf::new();
        Ok(folder)
    }

    /// Creates the folder at `path` as given, with its parents, and opens
    /// it: an output folder the user named on the command line.
    ///
    /// # Errors
    /// When it cannot be created or opened.
    pub fn create(path: &Path) -> Result<Folder, WriteError> {
        std::fs::create_dir_all(path).map_err(|source| WriteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Folder::open(path)
    }

    /// The folder's path, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `rel` under this folder, for messages.
    pub fn shown(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.path.join(rel)
    }

    /// What `name` (one component) is, without following a link; `None`
    /// when nothing is there.
    ///
    /// # Errors
    /// When it cannot be looked at.
    pub fn kind(&self, name: &str) -> Result<Option<Kind>, WriteError> {
        match self.lstat(name) {
            Ok(stat) => Ok(Some(Kind::of(FileType::from_raw_mode(stat.st_mode)))),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(io_error(&self.shown(name), e)),
        }
    }

    /// The length of the regular file `name` (one component, a link not
    /// followed), if one is there.
    pub fn file_len(&self, name: &str) -> Option<u64> {
        let stat = self.lstat(name).ok()?;
        (Kind::of(FileType::from_raw_mode(stat.st_mode)) == Kind::File)
            .then(|| u64::try_from(stat.st_size).ok())?
    }

    /// What entry `name` is, a link not followed.
    fn lstat<P: rustix::path::Arg>(&self, name: P) -> Result<rustix::fs::Stat, Errno> {
        rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
    }

    /// The folder `rel` below this one, created (with the folders on the
    /// way) where missing.
    ///
    /// # Errors
    /// When a component is a link or no folder, or cannot be created.
    pub fn sub(&self, rel: impl AsRef<Path>) -> Result<Folder, WriteError> {
        let rel = rel.as_ref();
        self.walk(rel, true)?.ok_or_else(|| WriteError::Io {
            path: self.shown(rel),
            source: io::Error::new(io::ErrorKind::NotFound, "removed while being created"),
        })
    }

    /// The folder `rel` below this one, or `None` when some component is
    /// missing.
    ///
    /// # Errors
    /// When a component is a link or no folder.
    pub fn existing(&self, rel: impl AsRef<Path>) -> Result<Option<Folder>, WriteError> {
        self.walk(rel.as_ref(), false)
    }

    fn walk(&self, rel: &Path, create: bool) -> Result<Option<Folder>, WriteError> {
        let mut here = Folder {
            fd: self.fd.try_clone().map_err(|source| WriteError::Io {
                path: self.path.clone(),
                source,
            })?,
            path: self.path.clone(),
        };
        for part in components(rel, &self.path)? {
            match here.child(part, create)? {
                Some(next) => here = next,
                None => return Ok(None),
            }
        }
        Ok(Some(here))
    }

    /// The folder `name` in this one, opened without following a link.
    fn child(&self, name: &OsStr, create: bool) -> Result<Option<Folder>, WriteError> {
        let path = self.path.join(name);
        let mut made = false;
        loop {
            match rustix::fs::openat(&self.fd, name, DIR_FLAGS, Mode::empty()) {
                Ok(fd) => return Ok(Some(Folder { fd, path })),
                Err(Errno::NOENT) if create && !made => {
                    match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                        Ok(()) | Err(Errno::EXIST) => made = true,
                        Err(e) => return Err(io_error(&path, e)),
                    }
                }
                Err(Errno::NOENT) => return Ok(None),
                Err(e @ (Errno::LOOP | Errno::NOTDIR | Errno::MLINK)) => {
                    return Err(self.refusal(name, "a folder").unwrap_or(io_error(&path, e)));
                }
                Err(e) => return Err(io_error(&path, e)),
            }
        }
    }

    /// Why `name` cannot be what carta writes (`wanted`), if it cannot.
    fn refusal(&self, name: &OsStr, wanted: &'static str) -> Option<WriteError> {
        let stat = self.lstat(name).ok()?;
        let path = self.path.join(name);
        match Kind::of(FileType::from_raw_mode(stat.st_mode)) {
            Kind::Link => Some(WriteError::Link { path }),
            Kind::Folder if wanted == "a folder" => None,
            Kind::File if wanted == "a file" => None,
            kind => Some(WriteError::NotAFile {
                path,
                what: kind.noun(),
                wanted,
            }),
        }
    }

    /// Fails when `name` is there and is not a regular file (a link, a
    /// FIFO, a device, a folder).
    ///
    /// # Errors
    /// [`WriteError::Link`] or [`WriteError::NotAFile`].
    pub fn check_file(&self, name: &str) -> Result<(), WriteError> {
        self.refusal(OsStr::new(name), "a file").map_or(Ok(()), Err)
    }

    /// Fails when `name` is there and is not a real folder.
    ///
    /// # Errors
    /// [`WriteError::Link`] or [`WriteError::NotAFile`].
    pub fn check_folder(&self, name: &str) -> Result<(), WriteError> {
        self.refusal(OsStr::new(name), "a folder")
            .map_or(Ok(()), Err)
    }

    /// Creates file `name`, which must not exist (nor be a link to
    /// anything), and returns it for writing.
    ///
    /// # Errors
    /// [`WriteError::Link`] when a link is there, an I/O error of kind
    /// `AlreadyExists` when anything else is.
    pub fn create_new(&self, name: &str) -> Result<File, WriteError> {
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
        match rustix::fs::openat(
            &self.fd,
            name,
            flags | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o666),
        ) {
            Ok(fd) => Ok(File::from(fd)),
            Err(Errno::EXIST) => Err(match self.refusal(OsStr::new(name), "a file") {
                Some(e @ WriteError::Link { .. }) => e,
                _ => io_error(&self.shown(name), Errno::EXIST),
            }),
            Err(e) => Err(io_error(&self.shown(name), e)),
        }
    }

    /// Creates file `name`, or truncates the regular file there, and returns
    /// it for writing; a link, a FIFO or a device there is refused.
    ///
    /// # Errors
    /// See [`WriteError`].
    pub fn create_file(&self, name: &str) -> Result<File, WriteError> {
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::NONBLOCK;
        let fd = rustix::fs::openat(
            &self.fd,
            name,
            flags | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o666),
        )
        .map_err(|e| {
            self.refusal(OsStr::new(name), "a file")
                .unwrap_or_else(|| io_error(&self.shown(name), e))
        })?;
        let file = File::from(fd);
        let stat = rustix::fs::fstat(&file).map_err(|e| io_error(&self.shown(name), e))?;
        match Kind::of(FileType::from_raw_mode(stat.st_mode)) {
            // Truncated only once known to be a regular file.
            Kind::File if stat.st_size == 0 => Ok(file),
            Kind::File => file
                .set_len(0)
                .map(|()| file)
                .map_err(|source| WriteError::Io {
                    path: self.shown(name),
                    source,
                }),
            kind => Err(WriteError::NotAFile {
                path: self.shown(name),
                what: kind.noun(),
                wanted: "a file",
            }),
        }
    }

    /// A new temporary file beside `name`, created exclusively: whatever
    /// lies at any name it tries (a planted FIFO, a link) is never opened.
    fn temp(&self, name: &str) -> Result<(String, File), WriteError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let pid = std::process::id();
        let mut last = None;
        for _ in 0..16 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let tmp = format!(".{name}.{pid}-{n}.tmp");
            match self.create_new(&tmp) {
                Ok(file) => return Ok((tmp, file)),
                Err(e) => last = Some(e),
            }
        }
        Err(last.expect("tried at least once"))
    }

    /// Writes `bytes` to file `name` atomically: into a new temporary file
    /// beside it, (with `sync`, flushed to disk,) renamed over it. A link
    /// or a non-regular file at `name` is refused, and nothing is written.
    ///
    /// # Errors
    /// See [`WriteError`].
    pub fn write_atomic(&self, name: &str, bytes: &[u8], sync: bool) -> Result<(), WriteError> {
        self.check_file(name)?;
        self.write_temp(name, bytes, sync, |tmp| {
            rustix::fs::renameat(&self.fd, tmp, &self.fd, name)
        })
    }

    /// Writes `bytes` to a new temporary file put in place of entry
    /// `name`, whatever it is: a link or a FIFO there is replaced itself,
    /// never opened nor followed. For files only carta writes, named by it
    /// (the caches under `build/.cache/`), where a planted entry is just
    /// stale, and a lost one is derived again: the file is exchanged with
    /// the old one, which ext4 does not write back at once, as it does a
    /// rename over it (see [`Folder::write_atomic_with`]).
    ///
    /// # Errors
    /// When the file cannot be written or put in place (of a folder).
    pub fn replace(&self, name: &str, bytes: &[u8]) -> Result<(), WriteError> {
        self.replace_with(name, |file| file.write_all(bytes))
    }

    /// As [`Folder::replace`], for a file written a piece at a time by
    /// `fill` (put in place only when `fill` succeeds).
    ///
    /// # Errors
    /// As [`Folder::replace`]; an error of `fill` as [`WriteError::Io`].
    pub fn replace_with(
        &self,
        name: &str,
        fill: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        self.write_temp_with(name, fill, |tmp| self.swap_in(tmp, name))
    }

    /// As [`Folder::write_atomic`], but never replaces an existing file:
    /// an I/O error of kind `AlreadyExists` when one is there.
    ///
    /// # Errors
    /// See [`WriteError`].
    pub fn write_new_atomic(&self, name: &str, bytes: &[u8]) -> Result<(), WriteError> {
        self.check_file(name)?;
        // A hard link fails when the name is taken, whatever took it.
        self.write_temp(name, bytes, true, |tmp| {
            rustix::fs::linkat(&self.fd, tmp, &self.fd, name, AtFlags::empty())
        })
    }

    /// As [`Folder::write_atomic`] (without `sync`), for a file written a
    /// piece at a time: `fill` writes the new temporary file, which is
    /// renamed over `name` only when `fill` succeeds (a large file patched
    /// from its last version is never held whole in memory).
    ///
    /// # Errors
    /// See [`WriteError`]; an error of `fill` as [`WriteError::Io`].
    pub fn write_atomic_with(
        &self,
        name: &str,
        fill: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        self.check_file(name)?;
        self.write_temp_with(name, fill, |tmp| self.swap_in(tmp, name))
    }

    /// Puts temporary file `tmp` in place of `name` atomically: exchanged
    /// with the file there, which is then removed. ext4 starts writing a
    /// file renamed over another back to disk at once (`auto_da_alloc`),
    /// and the rename waits for it; an exchange does not, which leaves
    /// a crash the chance to lose it — fine for what carta derives again
    /// when it finds it missing or stale. Renamed over it where nothing
    /// is there or the system cannot exchange.
    #[cfg(target_os = "linux")]
    fn swap_in(&self, tmp: &str, name: &str) -> Result<(), Errno> {
        use rustix::fs::{RenameFlags, renameat_with};
        match renameat_with(&self.fd, tmp, &self.fd, name, RenameFlags::EXCHANGE) {
            // `tmp` now names what `name` was: a file (checked before);
            // anything else slipped in since is put back, and refused.
            Ok(()) => match rustix::fs::unlinkat(&self.fd, tmp, AtFlags::empty()) {
                Ok(()) | Err(Errno::NOENT) => Ok(()),
                Err(e) => {
                    let _ = renameat_with(&self.fd, tmp, &self.fd, name, RenameFlags::EXCHANGE);
                    Err(e)
                }
            },
            Err(Errno::NOENT | Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                rustix::fs::renameat(&self.fd, tmp, &self.fd, name)
            }
            Err(e) => Err(e),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn swap_in(&self, tmp: &str, name: &str) -> Result<(), Errno> {
        rustix::fs::renameat(&self.fd, tmp, &self.fd, name)
    }

    fn write_temp(
        &self,
        name: &str,
        bytes: &[u8],
        sync: bool,
        place: impl FnOnce(&str) -> Result<(), Errno>,
    ) -> Result<(), WriteError> {
        let fill = |file: &mut File| {
            file.write_all(bytes)?;
            if sync { file.sync_all() } else { Ok(()) }
        };
        self.write_temp_with(name, fill, place)
    }

    fn write_temp_with(
        &self,
        name: &str,
        fill: impl FnOnce(&mut File) -> io::Result<()>,
        place: impl FnOnce(&str) -> Result<(), Errno>,
    ) -> Result<(), WriteError> {
        let (tmp, mut file) = self.temp(name)?;
        let written = fill(&mut file).map_err(|source| WriteError::Io {
            path: self.shown(name),
            source,
        });
        drop(file);
        let placed = written.and_then(|()| place(&tmp).map_err(|e| io_error(&self.shown(name), e)));
        // After a rename the temporary name is gone; after a hard link (or
        // a failure) it is removed here.
        let _ = rustix::fs::unlinkat(&self.fd, tmp.as_str(), AtFlags::empty());
        placed
    }

    /// Renames entry `from` of this folder to `to` in folder `dir` (which
    /// may be this one), replacing a file or an empty folder there.
    ///
    /// # Errors
    /// When the rename fails.
    pub fn rename(&self, from: &str, dir: &Folder, to: &str) -> Result<(), WriteError> {
        rustix::fs::renameat(&self.fd, from, &dir.fd, to).map_err(|e| io_error(&dir.shown(to), e))
    }

    /// Removes entry `name` if it is a file (or a link, which is removed
    /// itself, never what it points to); a folder is left.
    ///
    /// # Errors
    /// When it cannot be removed.
    pub fn remove_file(&self, name: &str) -> Result<(), WriteError> {
        match rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(e) => Err(io_error(&self.shown(name), e)),
        }
    }

    /// Removes entry `name` and, if it is a real folder, everything in it;
    /// links anywhere in it are removed themselves, never followed.
    ///
    /// # Errors
    /// When something cannot be removed, or the tree is deeper than 128.
    pub fn remove_all(&self, name: &str) -> Result<(), WriteError> {
        self.remove_tree(OsStr::new(name), 0)
    }

    fn remove_tree(&self, name: &OsStr, depth: usize) -> Result<(), WriteError> {
        let path = self.path.join(name);
        if depth > MAX_DEPTH {
            return Err(WriteError::Io {
                path,
                source: io::Error::other("too deep a folder tree to remove"),
            });
        }
        match self.child(name, false) {
            Ok(Some(inner)) => {
                for (entry, _) in inner.entries()? {
                    inner.remove_tree(&entry, depth + 1)?;
                }
                match rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR) {
                    Ok(()) | Err(Errno::NOENT) => Ok(()),
                    Err(e) => Err(io_error(&path, e)),
                }
            }
            Ok(None) => Ok(()),
            // Not a real folder: a file, a link, a FIFO, removed as such.
            Err(_) => match rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()) {
                Ok(()) | Err(Errno::NOENT) => Ok(()),
                Err(e) => Err(io_error(&path, e)),
            },
        }
    }

    /// The entries of this folder (without `.` and `..`) and what each is,
    /// links not followed.
    ///
    /// # Errors
    /// When the folder cannot be listed.
    pub fn entries(&self) -> Result<Vec<(std::ffi::OsString, Kind)>, WriteError> {
        let io = |e| io_error(&self.path, e);
        let mut out = Vec::new();
        for entry in rustix::fs::Dir::read_from(&self.fd).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => self
                    .kind(&name.to_string_lossy())?
                    .unwrap_or(Kind::Other("gone")),
                known => Kind::of(known),
            };
            out.push((name.to_os_string(), kind));
        }
        Ok(out)
    }

    /// Opens regular file `name` for reading, without following a link
    /// and without blocking (a FIFO would wait for a writer); `None` when
    /// nothing is there.
    ///
    /// # Errors
    /// [`WriteError::Link`] or [`WriteError::NotAFile`] when something else
    /// than a regular file is there.
    pub fn open_read(&self, name: &str) -> Result<Option<File>, WriteError> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let file = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => File::from(fd),
            Err(Errno::NOENT) => return Ok(None),
            Err(e) => {
                return Err(self
                    .refusal(OsStr::new(name), "a file")
                    .unwrap_or_else(|| io_error(&self.shown(name), e)));
            }
        };
        let kind = rustix::fs::fstat(&file).map_err(|e| io_error(&self.shown(name), e))?;
        match Kind::of(FileType::from_raw_mode(kind.st_mode)) {
            Kind::File => Ok(Some(file)),
            kind => Err(WriteError::NotAFile {
                path: self.shown(name),
                what: kind.noun(),
                wanted: "a file",
            }),
        }
    }

    /// Reads regular file `name` of at most `max` bytes, as
    /// [`Folder::open_read`] opens it; `None` for anything else.
    pub fn read(&self, name: &str, max: u64) -> Option<Vec<u8>> {
        read_at_most(self.open_read(name).ok()??, max).ok()?
    }
}

/// The bytes of `file` when it holds at most `max`, `Ok(None)` when it
/// holds more. Never reads past the limit, whatever its size said (the
/// size may change under us, or be reported as 0, as in /proc): the one
/// bounded read of the read jail and of this writer.
///
/// # Errors
///
/// The error of reading `file` or its metadata.
pub fn read_at_most(mut file: File, max: u64) -> io::Result<Option<Vec<u8>>> {
    let len = file.metadata()?.len();
    if len > max {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    (&mut file)
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// The components of `rel`, which must be a plain relative path (`.`
/// components skipped).
fn components<'p>(rel: &'p Path, base: &Path) -> Result<Vec<&'p OsStr>, WriteError> {
    rel.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| match c {
            Component::Normal(part) => Ok(part),
            _ => Err(WriteError::Io {
                path: base.join(rel),
                source: io::Error::new(io::ErrorKind::InvalidInput, "not a plain relative path"),
            }),
        })
        .collect()
}

fn io_error(path: &Path, e: Errno) -> WriteError {
    WriteError::Io {
        path: path.to_path_buf(),
        source: e.into(),
    }
}

/// Splits a plain relative path into its folder and file name.
pub fn split(rel: &Path) -> (&Path, &str) {
    let parent = rel.parent().unwrap_or(Path::new(""));
    let name = rel.file_name().and_then(OsStr::to_str).unwrap_or("");
    (parent, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out: Vec<_> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.unwrap())
            .map(|e| {
                (
                    e.path().to_path_buf(),
                    fs::read(e.path()).unwrap_or_default(),
                )
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn folders_are_created_and_files_replaced_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let root = Folder::open(dir.path()).unwrap();
        let sub = root.sub("a/b").unwrap();
        sub.write_atomic("f", b"one", false).unwrap();
        sub.write_atomic("f", b"two", true).unwrap();
        assert_eq!(fs::read(dir.path().join("a/b/f")).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path().join("a/b")).unwrap().count(), 1);
        assert_eq!(sub.read("f", 10).as_deref(), Some(&b"two"[..]));
        assert_eq!(sub.read("f", 2), None, "over the limit");
        let e = sub.write_new_atomic("f", b"three").unwrap_err();
        assert_eq!(e.io_kind(), Some(io::ErrorKind::AlreadyExists));
        assert_eq!(fs::read(dir.path().join("a/b/f")).unwrap(), b"two");
        root.remove_all("a").unwrap();
        assert!(!dir.path().join("a").exists());
    }

    #[test]
    fn a_file_written_a_piece_at_a_time_replaces_the_old_one_only_whole() {
        let dir = tempfile::tempdir().unwrap();
        let root = Folder::open(dir.path()).unwrap();
        let fill = |parts: &'static [&'static [u8]]| {
            move |f: &mut File| parts.iter().try_for_each(|p| f.write_all(p))
        };
        root.write_atomic_with("f", fill(&[b"on", b"e"])).unwrap();
        assert_eq!(fs::read(dir.path().join("f")).unwrap(), b"one");
        root.write_atomic_with("f", fill(&[b"tw", b"o"])).unwrap();
        assert_eq!(fs::read(dir.path().join("f")).unwrap(), b"two");
        // A failure half-way leaves the old file, and no temporary one.
        let e = root
            .write_atomic_with("f", |f| {
                f.write_all(b"thr")?;
                Err(io::Error::other("interrupted"))
            })
            .unwrap_err();
        assert!(e.to_string().contains("interrupted"), "{e}");
        assert_eq!(fs::read(dir.path().join("f")).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        // Never through a link, nor over a folder.
        let victim = tempfile::tempdir().unwrap();
        fs::write(victim.path().join("keep"), b"secret").unwrap();
        symlink(victim.path().join("keep"), dir.path().join("l")).unwrap();
        let e = root.write_atomic_with("l", fill(&[b"x"])).unwrap_err();
        assert_eq!(e.code(), "write::link");
        assert_eq!(fs::read(victim.path().join("keep")).unwrap(), b"secret");
        fs::create_dir(dir.path().join("d")).unwrap();
        assert!(root.write_atomic_with("d", fill(&[b"x"])).is_err());
        assert!(dir.path().join("d").is_dir());
    }

    #[test]
    fn links_are_never_written_through_nor_deleted_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = tempfile::tempdir().unwrap();
        fs::write(victim.path().join("keep"), b"secret").unwrap();
        fs::create_dir(victim.path().join("inner")).unwrap();
        fs::write(victim.path().join("inner/x"), b"x").unwrap();
        let before = snapshot(victim.path());
        symlink(victim.path(), dir.path().join("out")).unwrap();
        symlink(victim.path().join("keep"), dir.path().join("f")).unwrap();
        fs::create_dir(dir.path().join("tree")).unwrap();
        symlink(victim.path(), dir.path().join("tree/link")).unwrap();
        let root = Folder::open(dir.path()).unwrap();

        let e = root.sub("out/x").unwrap_err();
        assert_eq!(e.code(), "write::link", "{e}");
        assert!(e.to_string().contains("out"), "{e}");
        assert_eq!(root.existing("out").unwrap_err().code(), "write::link");
        let e = root.write_atomic("f", b"attack", false).unwrap_err();
        assert_eq!(e.code(), "write::link");
        assert_eq!(root.create_new("f").unwrap_err().code(), "write::link");
        root.remove_all("tree").unwrap();
        root.remove_all("out").unwrap();
        assert!(!dir.path().join("tree").exists());
        assert!(fs::symlink_metadata(dir.path().join("out")).is_err());
        assert_eq!(before, snapshot(victim.path()));
    }

    #[test]
    fn fifos_and_files_in_the_way_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("p");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            FileType::Fifo,
            Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        fs::write(dir.path().join("file"), b"").unwrap();
        let root = Folder::open(dir.path()).unwrap();
        let e = root.write_atomic("p", b"x", false).unwrap_err();
        assert_eq!(e.code(), "write::not-a-file");
        assert!(e.to_string().contains("FIFO"), "{e}");
        assert_eq!(root.read("p", 10), None);
        assert_eq!(root.sub("file/x").unwrap_err().code(), "write::not-a-file");
        assert_eq!(
            root.kind("p").unwrap(),
            Some(Kind::Other("a FIFO (named pipe)"))
        );
    }
}
