//! `carta print [GAME… | DECK.toml…]`: print-and-play sheets of whole games
//! (`DIR/<game>/sheets/`, as `build` writes them) or of deck files with
//! their counts (`DIR/<game>/decks/<deck>/`).

use std::path::Path;

use super::build::nothing_written;
use super::{CommandError, Report, open_deck};
use crate::diag::Diagnostics;
use crate::emit::sheets::{SheetOptions, SheetsEmitter, deck::prints};
use crate::emit::{Emitter, Stage};
use crate::game::{self, Games, Keep};
use crate::load::Workspace;

/// Prints `targets` — game ids and deck files (`*.toml`, relative to the
/// workspace) — of the workspace at `root` into `out`.
///
/// # Errors
/// When the workspace or a file cannot be read or the output cannot be written.
pub fn run(
    root: &Path,
    targets: &[String],
    out: &Path,
    sheets: SheetOptions,
    languages: &[String],
) -> Result<Report, CommandError> {
    let (decks, games): (Vec<&String>, Vec<&String>) =
        targets.iter().partition(|t| t.ends_with(".toml"));
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut stage = Stage::new(out);
    let mut printed = 0;
    // Each game is compiled once, however many of its decks are printed.
    let mut compiled = Games::default();
    if decks.is_empty() || !games.is_empty() {
        let games: Vec<String> = games.into_iter().cloned().collect();
        for game in game::compile_all(&mut ws, &games, Keep::All, &mut diags)? {
            if !diags.has_errors() {
                SheetsEmitter::pool(&game, sheets).emit(&game, &mut ws, &mut stage, &mut diags)?;
                super::build::emit_languages(
                    &game, languages, sheets, &mut ws, &mut stage, &mut diags,
                )?;
                printed += 1;
            }
            compiled.insert(game);
        }
    }
    for path in decks {
        let mut found = Vec::new();
        // Deck paths are relative to the workspace (`-C`), like `--out`.
        let opened = open_deck(
            &mut ws,
            &root.join(path),
            &mut compiled,
            &mut diags,
            &mut found,
        )?;
        let deck_prints = opened.and_then(|(deck, game)| {
            let cards = prints(&deck, game, &mut found)?;
            let stem = Path::new(path)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("deck")
                .to_owned();
            Some((SheetsEmitter::deck(cards, &deck.name, &stem, sheets), game))
        });
        diags.extend(found);
        if let Some((emitter, game)) = deck_prints {
            emitter.emit(game, &mut ws, &mut stage, &mut diags)?;
            printed += 1;
        }
    }
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags));
    }
    stage.commit()?;
    let noun = if printed == 1 {
        "set of sheets"
    } else {
        "sets of sheets"
    };
    Ok(Report {
        diags,
        sources: ws.sources,
        summary: format!("printed {printed} {noun}"),
    })
}
