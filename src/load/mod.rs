//! Load: the only stage that reads the file system.
//!
//! It finds the games of a workspace and their files in a deterministic
//! (sorted) order (this file, with `walk.rs`), reads them (in parallel,
//! `read.rs`), registers every text in the [`SourceMap`] and parses TOML
//! keeping a span on every key and value (`toml.rs`); a spreadsheet card
//! file becomes the TOML it stands for (`sheet/`).

mod confine;
mod read;
pub mod sheet;
mod snapshot;
mod toml;
mod walk;

pub use self::confine::{Jail, ReadProblem, Seen};
pub use self::snapshot::Snapshot;

pub use self::read::text_of;
pub use self::toml::{
    Document, SpanIndex, key as toml_key, parse_toml, read_toml, table_to_json, to_json, tree,
};

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostics, FileId, SourceMap};
use crate::limits::{BadLimit, Limits};

/// A workspace on disk: a folder with a `cards/` folder in it.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    /// Every file read so far.
    pub sources: SourceMap,
    /// Files that were not UTF-8 or could not be read (already reported).
    not_utf8: Vec<FileId>,
    /// The rule every read follows.
    jail: Jail,
    /// The limits of this run.
    limits: Limits,
}

/// Why a workspace could not be opened or a file not read (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The workspace folder does not exist (or is not a folder).
    #[error("no such folder `{0}`")]
    NoSuchFolder(PathBuf),
    /// A file named on the command line does not exist.
    #[error("no such file `{}`", .0.display())]
    NoSuchFile(PathBuf),
    /// The folder has no `cards/` folder.
    #[error("`{0}` is not a carta workspace: it has no `cards/` folder")]
    NotAWorkspace(PathBuf),
    /// A named game has no folder.
    #[error("there is no game `{name}` in this workspace{}", hint.as_ref().map(|h| format!(" (did you mean `{h}`?)")).unwrap_or_default())]
    UnknownGame {
        /// The name given.
        name: String,
        /// The closest game id, if any is close.
        hint: Option<String>,
    },
    /// Reading a file or folder failed.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A limit is set to something that is not a number.
    #[error(transparent)]
    Limit(#[from] BadLimit),
    /// carta refused to write where a link or a non-regular file is (the
    /// check cache under `build/.cache/`).
    #[error(transparent)]
    Write(#[from] crate::write::WriteError),
    /// A file changed on disk between two reads of one run.
    #[error("`{path}` changed while carta was reading the workspace; run the command again")]
    Changed {
        /// The file.
        path: PathBuf,
    },
}

/// Which files of a game [`Workspace::list_quietly`] lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// As [`Workspace::card_files`].
    Cards,
    /// As [`Workspace::deck_files`].
    Decks,
    /// As [`Workspace::translation_files`].
    Translations,
}

impl Listing {
    /// The folder walked, and which paths below it are listed. The layout
    /// names `.toml` files exactly, as the editors' schema mappings do.
    #[allow(clippy::case_sensitive_file_extension_comparisons)]
    fn of(self, game: &str) -> (String, fn(&str) -> bool) {
        match self {
            Listing::Cards => (format!("cards/{game}"), |inner| {
                (inner.ends_with(".toml") || sheet::is_card_sheet(inner))
                    && inner != "game.toml"
                    && !inner.starts_with("decks/")
                    && !inner.starts_with("i18n/")
            }),
            Listing::Decks => (format!("cards/{game}/decks"), |inner| {
                inner.ends_with(".toml")
            }),
            Listing::Translations => (format!("cards/{game}/i18n"), |inner| {
                inner.ends_with(".toml") && !inner.contains('/')
            }),
        }
    }
}

impl Workspace {
    /// Opens the workspace at `root`.
    ///
    /// # Errors
    /// When `root` is no folder, or has no `cards/` folder.
    pub fn open(root: &Path) -> Result<Self, LoadError> {
        if !root.is_dir() {
            return Err(LoadError::NoSuchFolder(root.to_path_buf()));
        }
        if !root.join("cards").is_dir() {
            return Err(LoadError::NotAWorkspace(root.to_path_buf()));
        }
        let limits = Limits::from_env()?;
        let jail = Jail::new(root, limits.max_file_bytes).map_err(|source| LoadError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(Workspace {
            root: root.to_path_buf(),
            sources: SourceMap::new(),
            not_utf8: Vec::new(),
            jail,
            limits,
        })
    }

    /// The limits of this run.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The rule every read of a workspace file follows.
    pub fn jail(&self) -> &Jail {
        &self.jail
    }

    /// Makes this run go by what `snapshot`, taken before anything was
    /// read, saw of the files it holds: their stamps and the folders'
    /// listings (see [`Seen`]).
    pub fn go_by(&mut self, snapshot: &Snapshot) {
        self.jail.with_seen(snapshot.seen());
    }

    /// The workspace root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The ids of the games in the workspace: the folders of `cards/` that
    /// hold a `game.toml`, sorted. A `game.toml` that is not a regular file
    /// still makes a game, so that reading it reports the problem instead
    /// of the game vanishing.
    ///
    /// # Errors
    /// When `cards/` cannot be listed.
    pub fn game_ids(&self) -> Result<Vec<String>, LoadError> {
        let cards = self.root.join("cards");
        let mut ids: Vec<String> = list_dir(&cards)?
            .into_iter()
            .filter(|p| p.is_dir() && fs::symlink_metadata(p.join("game.toml")).is_ok())
            .filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_owned))
            .filter(|n| !n.starts_with('.'))
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// The games to work on: `requested` checked against the workspace, or all.
    ///
    /// # Errors
    /// When a requested game does not exist.
    pub fn select_games(&self, requested: &[String]) -> Result<Vec<String>, LoadError> {
        let all = self.game_ids()?;
        if requested.is_empty() {
            return Ok(all);
        }
        let mut chosen = Vec::new();
        for name in requested {
            if !all.contains(name) {
                let hint = crate::suggest::closest(name, all.iter().map(String::as_str))
                    .map(str::to_owned);
                return Err(LoadError::UnknownGame {
                    name: name.clone(),
                    hint,
                });
            }
            if !chosen.contains(name) {
                chosen.push(name.clone());
            }
        }
        Ok(chosen)
    }

    /// Reports a problem with a path found in the workspace that is not
    /// read (a symlink leading out, a loop), placed at the path itself.
    fn report_path(&mut self, rel: String, problem: &ReadProblem, diags: &mut Diagnostics) {
        let id = self.sources.add(rel, "");
        self.unreadable(id, problem, diags);
    }

    /// The card files of game `game` (relative paths, sorted): every `.toml`
    /// and spreadsheet (`.csv`, `.tsv`, `.xlsx`, `.ods`) under
    /// `cards/<game>/` except `game.toml` and the `decks/` and `i18n/`
    /// (translations) folders.
    ///
    /// # Errors
    /// When a folder cannot be listed.
    pub fn card_files(
        &mut self,
        game: &str,
        diags: &mut Diagnostics,
    ) -> Result<Vec<String>, LoadError> {
        let (dir, keep) = Listing::Cards.of(game);
        self.walk(&dir, diags, keep)
    }

    /// The deck files of game `game`: every `.toml` under `cards/<game>/decks/`, sorted.
    ///
    /// # Errors
    /// When a folder cannot be listed.
    pub fn deck_files(
        &mut self,
        game: &str,
        diags: &mut Diagnostics,
    ) -> Result<Vec<String>, LoadError> {
        let (dir, keep) = Listing::Decks.of(game);
        self.walk(&dir, diags, keep)
    }

    /// The files of game `game` that `listing` names, as the method of that
    /// name lists them, but without reporting or registering anything:
    /// `None` when the walk refused a path (listing them the reporting way
    /// then says why).
    ///
    /// # Errors
    /// When a folder cannot be listed.
    pub fn list_quietly(
        &self,
        game: &str,
        listing: Listing,
    ) -> Result<Option<Vec<String>>, LoadError> {
        let (dir, keep) = listing.of(game);
        let found = walk::files(&self.root, &self.jail, &dir)?;
        if found
            .refused
            .iter()
            .any(|(rel, _, folder)| *folder || keep(&rel[dir.len() + 1..]))
        {
            return Ok(None);
        }
        Ok(Some(
            found
                .files
                .into_iter()
                .filter(|rel| keep(&rel[dir.len() + 1..]))
                .collect(),
        ))
    }

    /// The schema files of game `game`: every `*.schema.json` in `schemas/<game>/`, sorted.
    ///
    /// # Errors
    /// When the folder exists but cannot be listed.
    pub fn schema_files(
        &mut self,
        game: &str,
        diags: &mut Diagnostics,
    ) -> Result<Vec<String>, LoadError> {
        self.walk(&format!("schemas/{game}"), diags, |inner| {
            inner.ends_with(".schema.json")
        })
    }

    /// The translation files of game `game`: every `.toml` directly in
    /// `cards/<game>/i18n/`, sorted.
    ///
    /// # Errors
    /// When the folder exists but cannot be listed.
    pub fn translation_files(
        &mut self,
        game: &str,
        diags: &mut Diagnostics,
    ) -> Result<Vec<String>, LoadError> {
        let (dir, keep) = Listing::Translations.of(game);
        self.walk(&dir, diags, keep)
    }

    /// The files under folder `rel_dir` (absent is fine) whose path below
    /// it `keep` accepts, sorted; what the walk refuses is reported.
    fn walk(
        &mut self,
        rel_dir: &str,
        diags: &mut Diagnostics,
        keep: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, LoadError> {
        let found = walk::files(&self.root, &self.jail, rel_dir)?;
        // A folder the walk refused might hold anything; a file matters
        // only if it is one this walk is after.
        for (rel, problem, folder) in found.refused {
            if folder || keep(&rel[rel_dir.len() + 1..]) {
                self.report_path(rel, &problem, diags);
            }
        }
        Ok(found
            .files
            .into_iter()
            .filter(|rel| keep(&rel[rel_dir.len() + 1..]))
            .collect())
    }

    /// Whether `rel` was found unreadable (and reported) already.
    pub fn was_refused(&self, rel: &str) -> bool {
        self.sources
            .iter()
            .any(|(id, f)| f.name == rel && self.not_utf8.contains(&id))
    }

    /// Checks a workspace-relative path a source names (such as a kind's
    /// `schema`): written relative without `..`, and leading to a file inside
    /// the workspace.
    ///
    /// # Errors
    /// Why the path is refused.
    pub fn locate(&self, rel: &str) -> Result<(), ReadProblem> {
        if !Jail::is_plain_relative(rel) {
            return Err(ReadProblem::OutsideWorkspace);
        }
        self.jail.confine(&self.root.join(rel)).map(drop)
    }
}

fn list_dir(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let io_err = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    fs::read_dir(dir)
        .map_err(io_err)?
        .map(|e| e.map(|e| e.path()).map_err(io_err))
        .collect()
}
