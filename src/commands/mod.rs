//! The commands, one file each. A command runs the pipeline through
//! [`crate::game`] and the emitters of [`crate::emit`], and returns a
//! [`Report`] (its diagnostics and a summary) or a [`CommandError`] when it
//! could not run; [`crate::cli`] only parses the command line and
//! dispatches here.
//!
//! - The commands: `init`, `watch`, `serve`, `check`, `build`, `print`,
//!   `export`, `deck` (with `lists.rs` for `deck export`/`import`,
//!   `event.rs` for `deck check --event`, `owned.rs` for the collection it
//!   reads), `bundle.rs` for `decompile`/`inspect`, `diff` (two versions
//!   compared, through [`crate::history`]; `reprint.rs` for the
//!   `--changed-since` of `print` and `export`), `i18n` for
//!   `update`/`export`/`import`, `convert` (card files between TOML and
//!   spreadsheets) and `man` (the manual pages `cli` renders, written into
//!   a folder the user names). `i18n` and `convert` are the only ones that
//!   write into a game's sources — its translation files, and a converted
//!   file never over an existing one without `--force` — each atomically.
//! - `serving.rs`: what `serve` and `watch --serve` share (the deck
//!   builder's catalog, opening the page in a browser), so neither command
//!   imports the other (`tests/it/architecture.rs` refuses a circle of
//!   command files).
//! - `report.rs`: the [`Report`] a command returns, its typed
//!   [`CommandError`], and `Output`, which prints diagnostics and maps exit
//!   codes (0 clean, 1 problems, 2 could not run); `progress.rs`: the
//!   progress bar of long commands on a terminal.

pub(crate) mod build;
pub(crate) mod bundle;
pub(crate) mod check;
pub(crate) mod convert;
pub(crate) mod deck;
pub(crate) mod diff;
pub(crate) mod event;
pub(crate) mod export;
pub(crate) mod i18n;
pub(crate) mod init;
pub(crate) mod lists;
pub(crate) mod man;
mod owned;
pub(crate) mod print;
pub(crate) mod progress;
mod report;
mod reprint;
pub(crate) mod serve;
mod serving;
pub(crate) mod watch;

pub(crate) use report::{ColorChoice, CommandError, Output, Report};

use std::path::Path;
use std::sync::Arc;

use crate::deck::DeckFile;
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::{Game, Games};
use crate::load::{LoadError, Workspace};

/// Reads the deck file at `path` and compiles its game (once per game in
/// `games`); the deck and its game, or `None` once the problem is reported
/// into `found` (the deck's own problems) or `diags` (its game's).
///
/// # Errors
/// When a file cannot be read.
pub(crate) fn open_deck<'g>(
    ws: &mut Workspace,
    path: &Path,
    games: &'g mut Games,
    diags: &mut Diagnostics,
    found: &mut Vec<Diagnostic>,
) -> Result<Option<(DeckFile, &'g Game)>, LoadError> {
    let file = ws.read_deck_path(path, diags)?;
    if !ws.is_text(file) {
        return Ok(None);
    }
    let text = Arc::clone(&ws.sources.get(file).text);
    let Some(parsed) = crate::deck::parse(file, &text, found) else {
        return Ok(None);
    };
    if !known_game(&parsed, &ws.game_ids()?, found) {
        return Ok(None);
    }
    let game = games.get(ws, &parsed.game, diags)?;
    Ok(game.map(|game| (parsed, game)))
}

/// Reports a deck whose `game` is not in the workspace.
fn known_game(deck: &DeckFile, known: &[String], out: &mut Vec<Diagnostic>) -> bool {
    if known.contains(&deck.game) {
        return true;
    }
    out.push(
        Diagnostic::error(
            "deck::game",
            format!("there is no game `{}` in this workspace", deck.game),
        )
        .at(deck.file, deck.game_span.clone(), "unknown game")
        .with_help(crate::suggest::help(
            &deck.game,
            known.iter().map(String::as_str),
            "games",
        )),
    );
    false
}

/// `""` or `"s"`, for a count of `n`.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Writes `bytes` as `name` in `folder` atomically, never over an existing
/// file without `force`: an existing one is the error `code` about `shown`
/// (the path as the user named it), pushed into `diags`. Whether it wrote.
///
/// # Errors
/// When the file cannot be written.
fn write_unless_exists(
    folder: &crate::write::Folder,
    name: &str,
    bytes: &[u8],
    force: bool,
    (code, shown): (&'static str, &str),
    diags: &mut Diagnostics,
) -> Result<bool, CommandError> {
    let result = if force {
        folder.write_atomic(name, bytes, true)
    } else {
        folder.write_new_atomic(name, bytes)
    };
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::AlreadyExists) => {
            diags.push(
                Diagnostic::error(code, format!("`{shown}` exists already"))
                    .with_help("name another file with `-o`, or pass `--force` to replace it"),
            );
            Ok(false)
        }
        Err(e) => Err(crate::emit::EmitError::from(e).into()),
    }
}

/// Whether a target of `print` or `export` is a deck file (`*.toml`)
/// rather than a game id.
fn is_deck(target: &str) -> bool {
    Path::new(target)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}
