//! Reading the workspace's files into the [`SourceMap`]: in parallel,
//! each file processed as soon as it is read, through the jail; a text kept
//! only when it has something to report (else its CRC-32, and
//! [`text_of`] reads it again); a spreadsheet card file as its shadow.

use std::borrow::Cow;
use std::path::Path;

use rayon::prelude::*;

use super::Jail;
use super::{LoadError, ReadProblem, Workspace, sheet};
use crate::cache::Stamp;
use crate::diag::{Diagnostic, Diagnostics, FileId, SourceFile};
use crate::limits::{Bound, Limits};

/// Fewer files than this are read on the calling thread (see
/// `read_sources`).
const FEW_FILES: usize = 16;

/// The text of `file`, a file of the workspace behind `jail`: its text
/// when it is resident, else read again — and then the same bytes as when
/// it was first read, which its CRC-32 taken then tells (a file changed
/// since is an error: what was checked is no longer what is on disk).
///
/// # Errors
/// When the file cannot be read again or has changed.
pub fn text_of<'f>(jail: &Jail, file: &'f SourceFile) -> Result<Cow<'f, str>, LoadError> {
    if file.resident {
        return Ok(Cow::Borrowed(&file.text));
    }
    let path = jail.root().join(&file.name);
    let changed = || LoadError::Changed { path: path.clone() };
    let bytes = match jail.read(&path) {
        Ok(bytes) => bytes,
        Err(ReadProblem::Io(source)) => return Err(LoadError::Io { path, source }),
        Err(_) => return Err(changed()),
    };
    if file.crc.is_some_and(|crc| crc != crc32fast::hash(&bytes)) {
        return Err(changed());
    }
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| changed())
}

/// What the files of one read are, which says how large each may be.
#[derive(Clone, Copy)]
enum Kind<'t> {
    /// Any source file.
    Any,
    /// Card files, a spreadsheet among them typed by these types.
    Cards(&'t dyn sheet::Types),
    /// Deck files.
    Decks,
}

impl<'t> Kind<'t> {
    /// The types of a spreadsheet among card files.
    fn types(self) -> Option<&'t dyn sheet::Types> {
        match self {
            Kind::Cards(types) => Some(types),
            _ => None,
        }
    }

    /// The bound on file `rel`: a card file's text (TOML, CSV, TSV) is
    /// parsed whole, so it has a bound of its own; a workbook is bounded by
    /// what it unpacks to (see `sheet`), past the file's bytes.
    fn bound(self, rel: &str, limits: &Limits) -> Bound {
        match self {
            Kind::Cards(_) if !matches!(sheet::extension(rel), Some("xlsx" | "ods")) => {
                limits.card_file_bound()
            }
            Kind::Decks => limits.deck_bound(),
            _ => limits.file_bound(),
        }
    }
}

/// What a parallel read keeps of one file.
enum Held {
    /// Its bytes, to become its resident text.
    Text(Vec<u8>),
    /// Only the CRC-32 of its bytes.
    Crc(u32),
    /// A spreadsheet's shadow, which stays (it cannot be made again
    /// without the schemas that typed it).
    Sheet(Box<sheet::Shadow>),
    /// Nothing: it was not read.
    Unread,
}

impl Workspace {
    /// The text of file `id` (see [`text_of`]).
    ///
    /// # Errors
    /// When the file cannot be read again or has changed.
    pub fn text_of(&self, id: FileId) -> Result<Cow<'_, str>, LoadError> {
        text_of(&self.jail, self.sources.get(id))
    }

    /// Reads one file given relative to the root.
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn read(&mut self, rel: &str, diags: &mut Diagnostics) -> Result<FileId, LoadError> {
        Ok(self.read_many(&[rel.to_owned()], diags)?[0])
    }

    /// Reads many files (relative to the root) in parallel; ids follow the
    /// order of `rels`. A file that is not UTF-8 is registered lossily and
    /// reported.
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn read_many(
        &mut self,
        rels: &[String],
        diags: &mut Diagnostics,
    ) -> Result<Vec<FileId>, LoadError> {
        let first = self.sources.len();
        self.read_each(rels, true, diags, |_, _, _| ((), false))?;
        // `read_each` registers the files in order, after those already read.
        Ok((first..first + rels.len())
            .map(|i| FileId(u32::try_from(i).expect("fewer than 2^32 files")))
            .collect())
    }

    /// Reads files (relative to the root) in parallel and hands each file's
    /// id, relative path and text to `process` right away; a text stays in
    /// the source map only when `keep_all` or when `process` says so (it
    /// found something to report). Ids follow the order of `rels`.
    /// A file that is not UTF-8 is kept lossily, reported, and not processed.
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn read_each<T: Send>(
        &mut self,
        rels: &[String],
        keep_all: bool,
        diags: &mut Diagnostics,
        process: impl Fn(FileId, &str, &str) -> (T, bool) + Sync,
    ) -> Result<Vec<Option<T>>, LoadError> {
        let reuse = |_: FileId, _: &str, _: Stamp| None;
        self.read_each_stamped(rels, keep_all, diags, reuse, |id, rel, text, _| {
            process(id, rel, text)
        })
    }

    /// [`Workspace::read_each`] for a caller that remembers files by their
    /// [`Stamp`]: each file is first stat'ed, and `reuse` may answer for it
    /// from the stamp alone, so an unchanged file is not even read. `process`
    /// gets the stamp of the file it reads too.
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn read_each_stamped<T: Send>(
        &mut self,
        rels: &[String],
        keep_all: bool,
        diags: &mut Diagnostics,
        reuse: impl Fn(FileId, &str, Stamp) -> Option<T> + Sync,
        process: impl Fn(FileId, &str, &str, Option<Stamp>) -> (T, bool) + Sync,
    ) -> Result<Vec<Option<T>>, LoadError> {
        self.read_sources(rels, keep_all, Kind::Any, diags, reuse, process)
    }

    /// [`Workspace::read_each_stamped`] for deck files, each read under the
    /// bound on a deck ([`Limits::deck_bound`](crate::limits::Limits::deck_bound)).
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn read_decks_stamped<T: Send>(
        &mut self,
        rels: &[String],
        diags: &mut Diagnostics,
        reuse: impl Fn(FileId, &str, Stamp) -> Option<T> + Sync,
        process: impl Fn(FileId, &str, &str, Option<Stamp>) -> (T, bool) + Sync,
    ) -> Result<Vec<Option<T>>, LoadError> {
        self.read_sources(rels, false, Kind::Decks, diags, reuse, process)
    }

    /// [`Workspace::read_each_stamped`] for card files: a spreadsheet among
    /// them (see [`sheet::extension`]) is processed as its shadow, the TOML
    /// text it stands for, typed by `types`; the shadow and its cell map
    /// stay in the source map (what a later stage reports about its cards
    /// lands on its cells), and it is never answered for by its stamp.
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn read_cards_stamped<T: Send>(
        &mut self,
        rels: &[String],
        types: &dyn sheet::Types,
        diags: &mut Diagnostics,
        reuse: impl Fn(FileId, &str, Stamp) -> Option<T> + Sync,
        process: impl Fn(FileId, &str, &str, Option<Stamp>) -> (T, bool) + Sync,
    ) -> Result<Vec<Option<T>>, LoadError> {
        self.read_sources(rels, false, Kind::Cards(types), diags, reuse, process)
    }

    fn read_sources<T: Send>(
        &mut self,
        rels: &[String],
        keep_all: bool,
        kind: Kind<'_>,
        diags: &mut Diagnostics,
        reuse: impl Fn(FileId, &str, Stamp) -> Option<T> + Sync,
        process: impl Fn(FileId, &str, &str, Option<Stamp>) -> (T, bool) + Sync,
    ) -> Result<Vec<Option<T>>, LoadError> {
        // Per file: what `process` made of it and its bytes when they are
        // kept (else their CRC-32), or why it could not be read.
        type Read<T> = Result<Result<(Option<T>, Held), ReadProblem>, LoadError>;
        self.sources.reserve(rels.len());
        let ids: Vec<FileId> = rels
            .iter()
            .map(|rel| self.sources.add_unread(rel.clone()))
            .collect();
        let (root, jail, limits) = (&self.root, &self.jail, &self.limits);
        let read = |(&id, rel): (&FileId, &String)| -> Read<T> {
            let path = root.join(rel);
            let stamp = jail.stamp(&path);
            let sheet = kind.types().zip(sheet::extension(rel));
            if let Some(value) = stamp
                .filter(|_| sheet.is_none())
                .and_then(|s| reuse(id, rel, s))
            {
                return Ok(Ok((Some(value), Held::Unread)));
            }
            let bytes = match jail.read_within(&path, kind.bound(rel, limits)) {
                Ok(bytes) => bytes,
                Err(ReadProblem::Io(source)) => return Err(LoadError::Io { path, source }),
                Err(problem) => return Ok(Err(problem)),
            };
            if let Some((types, ext)) = sheet {
                let shadow = sheet::shadow(id, (rel, ext), &bytes, types, limits);
                let (value, _) = process(id, rel, &shadow.text, stamp);
                return Ok(Ok((Some(value), Held::Sheet(Box::new(shadow)))));
            }
            let Ok(text) = std::str::from_utf8(&bytes) else {
                return Ok(Ok((None, Held::Text(bytes))));
            };
            let (value, keep) = process(id, rel, text, stamp);
            let held = if keep || keep_all {
                Held::Text(bytes)
            } else {
                Held::Crc(crc32fast::hash(&bytes))
            };
            Ok(Ok((Some(value), held)))
        };
        // A few files (a game's schemas, its translations) are read on this
        // thread: starting rayon's threads would cost more than reading them.
        let results: Vec<Read<T>> = if ids.len() < FEW_FILES {
            ids.iter().zip(rels).map(read).collect()
        } else {
            ids.par_iter().zip(rels).map(read).collect()
        };
        let mut out = Vec::with_capacity(ids.len());
        for (id, result) in ids.into_iter().zip(results) {
            match result? {
                Ok((value, held)) => {
                    self.settle(id, held, diags);
                    out.push(value);
                }
                Err(problem) => {
                    self.unreadable(id, &problem, diags);
                    out.push(None);
                }
            }
        }
        Ok(out)
    }

    /// Puts what a parallel read kept of file `id` into the source map.
    fn settle(&mut self, id: FileId, held: Held, diags: &mut Diagnostics) {
        match held {
            Held::Text(bytes) => self.fill(id, bytes, diags),
            Held::Crc(crc) => self.sources.set_crc(id, crc),
            Held::Sheet(shadow) => {
                let shadow = *shadow;
                let cells = std::sync::Arc::new(shadow.cells);
                self.sources.set_sheet(id, shadow.text.into(), cells);
                diags.extend(shadow.diagnostics);
            }
            Held::Unread => {}
        }
    }

    /// Registers file `id` as unreadable (empty, never parsed) and reports why.
    pub(super) fn unreadable(
        &mut self,
        id: FileId,
        problem: &ReadProblem,
        diags: &mut Diagnostics,
    ) {
        self.sources.set_text(id, "".into());
        self.not_utf8.push(id);
        let name = &self.sources.get(id).name;
        diags.push(
            Diagnostic::error(problem.code(), problem.message(name))
                .at(id, 0..0, "this file")
                .with_help(problem.help()),
        );
    }

    /// Reads back the text of every file a diagnostic points into that is
    /// not resident (see [`Workspace::read_each`]).
    ///
    /// # Errors
    /// When a file cannot be read again.
    pub fn restore(&mut self, diagnostics: &Diagnostics) -> Result<(), LoadError> {
        let wanted: std::collections::BTreeSet<FileId> = diagnostics
            .iter()
            .flat_map(|d| d.primary.iter().chain(&d.labels))
            .map(|l| l.file)
            .collect();
        let missing: Vec<FileId> = self
            .sources
            .unread()
            .filter(|f| wanted.contains(f))
            .collect();
        for id in missing {
            let text = match text_of(&self.jail, self.sources.get(id)) {
                Ok(text) => text.into_owned(),
                // Changed since it was read: show it empty rather than
                // under spans that no longer fit it.
                Err(LoadError::Changed { .. }) => String::new(),
                Err(e) => return Err(e),
            };
            self.sources.set_text(id, text.into());
        }
        Ok(())
    }

    /// Whether a file read was valid UTF-8 (only such files are parsed).
    pub fn is_text(&self, id: FileId) -> bool {
        !self.not_utf8.contains(&id)
    }

    /// The workspace-relative name (`/`-separated) of a path as the user
    /// gave it (relative to the current directory); `None` when it lies
    /// outside the workspace.
    ///
    /// # Errors
    /// When the current directory cannot be read.
    pub fn name_of(&self, path: &Path) -> Result<Option<String>, LoadError> {
        let absolute = |p: &Path| {
            std::path::absolute(p).map_err(|source| LoadError::Io {
                path: p.to_path_buf(),
                source,
            })
        };
        let (path, root) = (absolute(path)?, absolute(&self.root)?);
        Ok(path.strip_prefix(&root).ok().map(|rel| {
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        }))
    }

    /// Reads a file named by a path as the user gave it (relative to the
    /// current directory). Its name in diagnostics is relative to the
    /// workspace root when it lies inside it.
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn read_path(&mut self, path: &Path, diags: &mut Diagnostics) -> Result<FileId, LoadError> {
        self.read_path_within(path, self.limits.file_bound(), diags)
    }

    /// [`Workspace::read_path`] for a deck file or a text list, read under
    /// the bound on a deck ([`Limits::deck_bound`]).
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn read_deck_path(
        &mut self,
        path: &Path,
        diags: &mut Diagnostics,
    ) -> Result<FileId, LoadError> {
        self.read_path_within(path, self.limits.deck_bound(), diags)
    }

    fn read_path_within(
        &mut self,
        path: &Path,
        bound: Bound,
        diags: &mut Diagnostics,
    ) -> Result<FileId, LoadError> {
        let absolute = std::path::absolute(path).map_err(|source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let name = self
            .name_of(path)?
            .unwrap_or_else(|| path.to_string_lossy().replace('\\', "/"));
        let bytes = match self.jail.read_named_within(&absolute, bound) {
            Ok(bytes) => bytes,
            Err(ReadProblem::Io(source)) => {
                return Err(LoadError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
            Err(ReadProblem::Missing) => return Err(LoadError::NoSuchFile(path.to_path_buf())),
            Err(problem) => {
                let id = self.sources.add(name, "");
                self.unreadable(id, &problem, diags);
                return Ok(id);
            }
        };
        Ok(self.register(name, bytes, diags))
    }

    fn register(&mut self, name: String, bytes: Vec<u8>, diags: &mut Diagnostics) -> FileId {
        let id = self.sources.add_unread(name);
        self.fill(id, bytes, diags);
        id
    }

    /// Gives file `id` its text; a text that is not UTF-8 is kept lossily
    /// and reported at its first bad byte.
    fn fill(&mut self, id: FileId, bytes: Vec<u8>, diags: &mut Diagnostics) {
        match String::from_utf8(bytes) {
            Ok(s) => self.sources.set_text(id, s.into()),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                self.sources.set_text(
                    id,
                    String::from_utf8_lossy(e.as_bytes()).into_owned().into(),
                );
                self.not_utf8.push(id);
                let name = &self.sources.get(id).name;
                diags.push(
                    Diagnostic::error("load::not-utf8", format!("`{name}` is not valid UTF-8"))
                        .at(id, at..at, "invalid byte sequence here")
                        .with_help(
                            "save the file as UTF-8 (card text may use any Unicode character)",
                        ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn a_text_not_kept_is_read_again_and_refused_once_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("cards/g")).unwrap();
        let rels = ["cards/g/a.toml".to_owned(), "cards/g/b.toml".to_owned()];
        for rel in &rels {
            fs::write(dir.path().join(rel), format!("# {rel}\n")).unwrap();
        }
        let mut ws = Workspace::open(dir.path()).unwrap();
        let mut diags = Diagnostics::new();
        // Neither text is kept: nothing was reported about them.
        let read = ws
            .read_each(&rels, false, &mut diags, |_, _, text| (text.len(), false))
            .unwrap();
        assert_eq!(read, [Some(17), Some(17)]);
        let [a, b] = [FileId(0), FileId(1)];
        assert!(!ws.sources.get(a).resident && ws.sources.get(a).text.is_empty());
        assert_eq!(ws.text_of(a).unwrap(), "# cards/g/a.toml\n");
        fs::write(dir.path().join(&rels[1]), "# changed since\n").unwrap();
        let err = ws.text_of(b).unwrap_err();
        assert!(matches!(err, LoadError::Changed { .. }), "{err}");
        assert!(err.to_string().contains("b.toml"), "{err}");
    }
}
