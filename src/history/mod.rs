//! Card history: two versions of a workspace compared (`carta diff`).
//!
//! A version is the working tree, another workspace folder, a git revision
//! of the workspace (`git.rs`: its files written from the repository into a
//! temporary folder, with gix) or a `.carta` bundle. Each workspace version
//! goes through the same compile as `carta check` (load → validate → link
//! → rules) and is encoded as its bundle would be, so that every version,
//! bundles included, is compared in one form: the game section and the
//! card records (`compare.rs`, texts as the player reads them in
//! `words.rs`). `show.rs` prints a diff for the terminal and as Markdown;
//! `decks.rs` judges decks under both versions; `reprint.rs` finds the
//! cards whose printed face changed (`--changed-since`).

mod compare;
mod decks;
mod git;
pub mod reprint;
mod show;
mod words;

pub use self::compare::{
    CardChange, CardLine, FieldChange, GameDiff, GameVersion, ItemChange, ItemStatus, Renamed,
    Status, TranslationChange,
};
pub use self::decks::{DeckChange, Submitted, Verdict, judge_decks, judge_submissions};
pub use self::git::{GitError, in_repository, last_tag};
pub use self::show::{Style, counts, human, markdown, markdown_text};
pub use self::words::{Op, Piece};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::bundle::{Bundle, BundleError};
use crate::diag::Diagnostics;
use crate::emit::bundle::{DeckView, encode_game};
use crate::game::{self, Decks, Game, Keep};
use crate::load::{LoadError, Workspace};

/// Where a version is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The workspace as it is on disk.
    WorkingTree,
    /// Another workspace folder.
    Folder(PathBuf),
    /// A git revision of the workspace (`v1.0`, `HEAD~3`, a commit id).
    Revision(String),
    /// A `.carta` bundle (one game).
    Bundle(PathBuf),
}

impl Source {
    /// What `given` names: an existing file is a bundle, an existing folder
    /// a workspace, anything else a git revision.
    pub fn parse(given: &str) -> Source {
        let path = Path::new(given);
        if path.is_file() {
            Source::Bundle(path.to_path_buf())
        } else if path.is_dir() {
            Source::Folder(path.to_path_buf())
        } else {
            Source::Revision(given.to_owned())
        }
    }

    /// How output names it.
    pub fn label(&self) -> String {
        match self {
            Source::WorkingTree => "working tree".to_owned(),
            Source::Folder(p) | Source::Bundle(p) => p.display().to_string(),
            Source::Revision(rev) => rev.clone(),
        }
    }
}

/// Why a version could not be read (the command could not run).
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// A workspace could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A git revision could not be read.
    #[error(transparent)]
    Git(#[from] GitError),
    /// A bundle could not be read or is damaged.
    #[error("`{}`: {source}", path.display())]
    Bundle {
        /// The bundle as given.
        path: PathBuf,
        /// What is wrong with it.
        source: BundleError,
    },
}

/// A workspace version compiled: what judging decks needs.
#[derive(Debug)]
pub struct Compiled {
    /// The workspace it was read from.
    pub ws: Workspace,
    /// Its games, compiled with every field.
    pub games: Vec<Game>,
}

/// One version, read.
#[derive(Debug)]
pub struct Version {
    /// How output names it.
    pub label: String,
    /// Its games, in the form they are compared in.
    pub games: Vec<GameVersion>,
    /// Its compiled games, unless it is a bundle.
    pub compiled: Option<Compiled>,
    /// Whether it is a bundle (then only its game is compared).
    pub is_bundle: bool,
    /// The temporary folder a revision was written into, removed when the
    /// version is dropped.
    _temp: Option<tempfile::TempDir>,
}

/// A version that did not compile: its workspace and its problems.
#[derive(Debug)]
pub struct Broken {
    /// How output names the version.
    pub label: String,
    /// The workspace, whose sources the problems point into.
    pub ws: Workspace,
    /// The problems (errors among them).
    pub diags: Diagnostics,
    /// The temporary folder of a revision, kept while the problems are shown.
    pub temp: Option<tempfile::TempDir>,
}

/// Reads the version `source` names, of the workspace at `root`, with the
/// games `only` (all when empty): a version whose cards have errors is
/// [`Broken`].
///
/// # Errors
/// When a workspace, revision or bundle cannot be read.
pub fn read(
    source: &Source,
    root: &Path,
    only: &[String],
) -> Result<Result<Version, Box<Broken>>, HistoryError> {
    let label = source.label();
    let (folder, temp) = match source {
        Source::Bundle(path) => return bundle(path, label).map(Ok),
        Source::WorkingTree => (root.to_path_buf(), None),
        Source::Folder(path) => (path.clone(), None),
        Source::Revision(rev) => {
            let temp = tempfile::tempdir().map_err(|e| GitError::Write {
                rev: rev.clone(),
                why: e.to_string(),
            })?;
            git::write_revision(root, rev, temp.path())?;
            (temp.path().to_path_buf(), Some(temp))
        }
    };
    let mut ws = Workspace::open(&folder)?;
    let mut diags = Diagnostics::new();
    let ids: Vec<String> = ws
        .game_ids()?
        .into_iter()
        .filter(|id| only.is_empty() || only.contains(id))
        .collect();
    let mut games = Vec::new();
    for id in &ids {
        // Decks are judged apart: an errata that makes an example deck
        // illegal is what a diff reports, not a reason to refuse it.
        games.extend(game::compile(
            &mut ws,
            id,
            Decks::Skip,
            Keep::All,
            &mut diags,
        )?);
    }
    let versions = if diags.has_errors() {
        Vec::new()
    } else {
        encode(&ws, &games, &mut diags)?
    };
    if diags.has_errors() {
        return Ok(Err(Box::new(Broken {
            label,
            ws,
            diags,
            temp,
        })));
    }
    Ok(Ok(Version {
        label,
        games: versions,
        compiled: Some(Compiled { ws, games }),
        is_bundle: false,
        _temp: temp,
    }))
}

/// `game`, compiled from `ws`, in the form versions are compared in;
/// `None` when it cannot be encoded (the problems are in `diags`).
///
/// # Errors
/// When a file of the game cannot be read again.
pub fn game_version(
    ws: &Workspace,
    game: &Game,
    diags: &mut Diagnostics,
) -> Result<Option<GameVersion>, HistoryError> {
    Ok(encode(ws, std::slice::from_ref(game), diags)?.pop())
}

/// Two versions of one game compared (`None` where it is missing).
pub fn compare_game(old: Option<&GameVersion>, new: Option<&GameVersion>) -> GameDiff {
    compare::game(old, new)
}

/// Each compiled game of `ws` encoded as its bundle and read back, in the
/// form versions are compared in.
fn encode(
    ws: &Workspace,
    games: &[Game],
    diags: &mut Diagnostics,
) -> Result<Vec<GameVersion>, HistoryError> {
    let mut out = Vec::new();
    for game in games {
        let decks: &[DeckView<'_>] = &[];
        let Some(bytes) = encode_game(game, decks, ws, diags)? else {
            continue;
        };
        let bad = |source| HistoryError::Bundle {
            path: PathBuf::from(game.id()),
            source,
        };
        let bundle = Bundle::from_bytes(bytes).map_err(bad)?;
        out.push(of_bundle(&bundle).map_err(bad)?);
    }
    Ok(out)
}

/// A bundle read as a version.
fn bundle(path: &Path, label: String) -> Result<Version, HistoryError> {
    let bad = |source| HistoryError::Bundle {
        path: path.to_path_buf(),
        source,
    };
    let bundle = Bundle::open(path).map_err(bad)?;
    Ok(Version {
        label,
        games: vec![of_bundle(&bundle).map_err(bad)?],
        compiled: None,
        is_bundle: true,
        _temp: None,
    })
}

/// A bundle's game in the form versions are compared in.
fn of_bundle(bundle: &Bundle) -> Result<GameVersion, BundleError> {
    Ok(GameVersion {
        id: bundle.manifest().id.clone(),
        game: bundle.game().clone(),
        cards: bundle.decode_all()?,
    })
}

/// The games of two versions compared, by id: every game of either, or
/// only a bundle's game when a version is one.
pub fn compare<'a>(old: &'a Version, new: &'a Version) -> Vec<GameDiff> {
    let from_bundles: Option<BTreeSet<&str>> = (old.is_bundle || new.is_bundle).then(|| {
        [old, new]
            .iter()
            .filter(|v| v.is_bundle)
            .flat_map(|v| v.games.iter().map(|g| g.id.as_str()))
            .collect()
    });
    let ids: BTreeSet<&str> = old
        .games
        .iter()
        .chain(&new.games)
        .map(|g| g.id.as_str())
        .filter(|id| from_bundles.as_ref().is_none_or(|only| only.contains(id)))
        .collect();
    let find = |v: &'a Version, id: &str| v.games.iter().find(|g| g.id == id);
    ids.into_iter()
        .map(|id| compare::game(find(old, id), find(new, id)))
        .collect()
}
