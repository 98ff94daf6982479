//! What players must act on: decks judged under both versions, by the one
//! verdict every command gives ([`deck::judge`]), and those whose verdict
//! changed, with the rules that now fail.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::Compiled;
use crate::deck::{self, DeckFile};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::game::Game;
use crate::load::LoadError;

/// A deck's verdict under one version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether the deck is legal.
    pub legal: bool,
    /// Each error found, as `code: message` (a broken rule's message names
    /// the rule); empty when legal.
    pub broken: Vec<String>,
}

/// A deck whose verdict changed between the versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeckChange {
    /// The deck file, as named (workspace-relative for the example decks).
    pub deck: String,
    /// Its game.
    pub game: String,
    /// Its verdict under the old version (`None`: the game is not in it).
    pub old: Option<Verdict>,
    /// Its verdict under the new version (`None`: the game is not in it).
    pub new: Option<Verdict>,
}

/// Judges each deck of `paths` (or, when there is none, the new version's
/// example decks, `cards/<g>/decks/`) under both versions, and returns how
/// many were judged and those whose verdict changed. A deck that does not
/// parse, or names a game neither version has, is reported into `diags`.
///
/// # Errors
/// When a deck file cannot be read.
pub fn judge_decks(
    paths: &[PathBuf],
    old: &Compiled,
    new: &mut Compiled,
    diags: &mut Diagnostics,
) -> Result<(usize, Vec<DeckChange>), LoadError> {
    let paths = if paths.is_empty() {
        example_decks(new, diags)?
    } else {
        paths.to_vec()
    };
    let mut judged = 0;
    let mut changed = Vec::new();
    for path in &paths {
        let Some(parsed) = parse(new, path, diags)? else {
            continue;
        };
        let find = |c: &'_ Compiled| c.games.iter().position(|g| g.id() == parsed.game);
        let (was, now) = (find(old), find(new));
        if was.is_none() && now.is_none() {
            diags.push(
                Diagnostic::error(
                    "deck::game",
                    format!("there is no game `{}` in either version", parsed.game),
                )
                .at(parsed.file, parsed.game_span.clone(), "unknown game"),
            );
            continue;
        }
        judged += 1;
        let old_verdict = was.map(|i| verdict(&parsed, &old.games[i]));
        let new_verdict = now.map(|i| verdict(&parsed, &new.games[i]));
        if old_verdict != new_verdict {
            changed.push(DeckChange {
                deck: new.ws.sources.get(parsed.file).name.clone(),
                game: parsed.game.clone(),
                old: old_verdict,
                new: new_verdict,
            });
        }
    }
    Ok((judged, changed))
}

/// The example decks of every game of `version`, as paths.
fn example_decks(
    version: &mut Compiled,
    diags: &mut Diagnostics,
) -> Result<Vec<PathBuf>, LoadError> {
    let root = version.ws.root().to_path_buf();
    let mut out = Vec::new();
    let ids: Vec<String> = version.games.iter().map(|g| g.id().to_owned()).collect();
    for id in ids {
        for rel in version.ws.deck_files(&id, diags)? {
            out.push(root.join(rel));
        }
    }
    Ok(out)
}

/// The deck file at `path`, read into `version`'s workspace and parsed.
fn parse(
    version: &mut Compiled,
    path: &Path,
    diags: &mut Diagnostics,
) -> Result<Option<DeckFile>, LoadError> {
    let file = version.ws.read_deck_path(path, diags)?;
    if !version.ws.is_text(file) {
        return Ok(None);
    }
    let text = Arc::clone(&version.ws.sources.get(file).text);
    let mut found = Vec::new();
    let parsed = deck::parse(file, &text, &mut found);
    diags.extend(found);
    Ok(parsed)
}

/// The deck's verdict under `game`.
fn verdict(deck: &DeckFile, game: &Game) -> Verdict {
    let mut found = Vec::new();
    deck::judge(deck, &game.manifest, &game.pool, &game.rules, &mut found);
    let broken: Vec<String> = found
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    Verdict {
        legal: broken.is_empty(),
        broken,
    }
}
