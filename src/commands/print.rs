//! `carta print [GAME… | DECK.toml…]`: print-and-play sheets of whole games
//! (`DIR/<game>/sheets/`, as `build` writes them) or of deck files with
//! their counts (`DIR/<game>/decks/<deck>/`).

use std::path::Path;

use super::build::nothing_written;
use super::{CommandError, Report, open_deck};
use crate::diag::Diagnostics;
use crate::emit::cards::Target;
use crate::emit::sheets::{
    Selection, SheetOptions, SheetsEmitter, Subject, deck::prints, pool_prints,
};
use crate::emit::{Emitter, Stage};
use crate::game::{self, Game, Games, Keep};
use crate::load::Workspace;

/// Prints `targets` — game ids and deck files (`*.toml`, relative to the
/// current directory) — of the workspace at `root` into `out`.
///
/// # Errors
/// When the workspace or a file cannot be read or the output cannot be written.
pub(crate) fn run(
    root: &Path,
    targets: &[String],
    out: &Path,
    sheets: SheetOptions,
    languages: &[String],
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut stage = Stage::new(root, out);
    let printed = each_target(
        &mut ws,
        targets,
        &mut diags,
        |game, target, deck, ws, diags| {
            let emitter = sheets_of(game, target, deck, sheets);
            emitter.emit(game, ws, &mut stage, diags)?;
            if !deck {
                super::build::emit_languages(game, languages, sheets, ws, &mut stage, diags)?;
            }
            Ok(())
        },
    )?;
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags)?);
    }
    stage.commit()?;
    let noun = if printed == 1 {
        "set of sheets"
    } else {
        "sets of sheets"
    };
    Ok(Report::new(ws, diags, format!("printed {printed} {noun}"))?)
}

/// The sheets of a target: a game's into `<game>/sheets/`, a deck's into
/// `<game>/decks/<stem>/`.
pub(super) fn sheets_of<'g>(
    game: &'g Game,
    target: Target<'g>,
    deck: bool,
    options: SheetOptions,
) -> SheetsEmitter<'g> {
    if deck {
        SheetsEmitter::deck(target.selection.prints, &target.name, &target.stem, options)
    } else {
        SheetsEmitter::pool(game, options)
    }
}

/// Runs `emit` on what `targets` name: each named game's whole pool (every
/// game's when nothing is named) and each deck file's cards, while nothing
/// has failed; returns how many it ran on. `emit` is told whether the
/// target is a deck.
///
/// # Errors
/// When a file cannot be read, or what `emit` returns.
pub(super) fn each_target(
    ws: &mut Workspace,
    targets: &[String],
    diags: &mut Diagnostics,
    mut emit: impl FnMut(
        &Game,
        Target<'_>,
        bool,
        &mut Workspace,
        &mut Diagnostics,
    ) -> Result<(), CommandError>,
) -> Result<usize, CommandError> {
    let (decks, games): (Vec<&String>, Vec<&String>) = targets.iter().partition(|t| {
        Path::new(t.as_str())
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    });
    let mut done = 0;
    // Each game is compiled once, however many of its decks are named.
    let mut compiled = Games::default();
    if decks.is_empty() || !games.is_empty() {
        let games: Vec<String> = games.into_iter().cloned().collect();
        for game in game::compile_all(ws, &games, Keep::All, diags)? {
            if !diags.has_errors() {
                let target = Target {
                    selection: Selection {
                        subject: Subject::Game,
                        prints: pool_prints(&game),
                        notes: Vec::new(),
                    },
                    stem: game.id().to_owned(),
                    name: game.manifest.manifest.name.clone(),
                };
                emit(&game, target, false, ws, diags)?;
                done += 1;
            }
            compiled.insert(game);
        }
    }
    for path in decks {
        let mut found = Vec::new();
        // A file named on the command line is where the shell says: relative
        // to the current directory, whatever `-C` names (as `deck check`).
        let opened = open_deck(ws, Path::new(path), &mut compiled, diags, &mut found)?;
        let target = opened.and_then(|(deck, game)| {
            let cards = prints(&deck, game, &mut found)?;
            let stem = Path::new(path)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("deck")
                .to_owned();
            let selection = Selection {
                subject: Subject::Deck(deck.name.clone()),
                prints: cards,
                notes: Vec::new(),
            };
            let name = deck.name.clone();
            Some((
                Target {
                    selection,
                    stem,
                    name,
                },
                game,
            ))
        });
        diags.extend(found);
        if let Some((target, game)) = target {
            emit(game, target, true, ws, diags)?;
            done += 1;
        }
    }
    Ok(done)
}
