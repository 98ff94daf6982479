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
        if let Some(both) = verdicts(&parsed, (old, new), diags) {
            judged += 1;
            let name = new.ws.sources.get(parsed.file).name.clone();
            changed.extend(change(name, &parsed, both));
        }
    }
    Ok((judged, changed))
}

/// An event's submission to judge under both versions: where it came
/// from (a file, or a line of the submissions file, with the player) and
/// its deck.
#[derive(Debug, Clone)]
pub struct Submitted {
    /// Where it came from, as the diff names it.
    pub name: String,
    /// The deck (a code's as [`crate::event::deck_file`] makes it).
    pub deck: DeckFile,
}

/// Judges each submission under both versions, as [`judge_decks`] judges
/// deck files.
pub fn judge_submissions(
    submitted: &[Submitted],
    old: &Compiled,
    new: &Compiled,
    diags: &mut Diagnostics,
) -> (usize, Vec<DeckChange>) {
    let mut judged = 0;
    let mut changed = Vec::new();
    for s in submitted {
        if let Some(both) = verdicts(&s.deck, (old, new), diags) {
            judged += 1;
            changed.extend(change(s.name.clone(), &s.deck, both));
        }
    }
    (judged, changed)
}

/// `deck`'s verdict under each version (`None` where it lacks the game);
/// `None` when neither has its game (reported into `diags`).
fn verdicts(
    deck: &DeckFile,
    (old, new): (&Compiled, &Compiled),
    diags: &mut Diagnostics,
) -> Option<(Option<Verdict>, Option<Verdict>)> {
    let find = |c: &'_ Compiled| c.games.iter().position(|g| g.id() == deck.game);
    let (was, now) = (find(old), find(new));
    if was.is_none() && now.is_none() {
        diags.push(
            Diagnostic::error(
                "deck::game",
                format!("there is no game `{}` in either version", deck.game),
            )
            .at(deck.file, deck.game_span.clone(), "unknown game"),
        );
        return None;
    }
    Some((
        was.map(|i| verdict(deck, &old.games[i])),
        now.map(|i| verdict(deck, &new.games[i])),
    ))
}

/// The change of `deck` (named `name`) when its two verdicts differ.
fn change(
    name: String,
    deck: &DeckFile,
    (old, new): (Option<Verdict>, Option<Verdict>),
) -> Option<DeckChange> {
    (old != new).then(|| DeckChange {
        deck: name,
        game: deck.game.clone(),
        old,
        new,
    })
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
