//! `carta build [GAME…]`: everything `check` does, then every emitter of
//! every game — the bundle and the sheets — into one stage, swapped into
//! `DIR/<game>/` only when nothing failed anywhere.

use std::path::{Path, PathBuf};

use super::progress::Progress;
use super::{CommandError, Report, plural};
use crate::diag::Diagnostics;
use crate::emit::{self, Stage, sheets::SheetOptions};
use crate::game::{self, Decks, Game, Keep};
use crate::load::Workspace;

/// Builds the named games (all if none) of the workspace at `root` into
/// `out`, with a progress bar on a terminal when `progress`.
///
/// # Errors
/// When the workspace cannot be read or the output cannot be written.
pub fn run(
    root: &Path,
    games: &[String],
    out: &Path,
    sheets: SheetOptions,
    progress: bool,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let ids = ws.select_games(games)?;
    // Two steps a game: compile it, then run its emitters.
    let bar = Progress::new(progress, 2 * ids.len());
    let mut checked = Vec::new();
    for id in &ids {
        bar.step(format!("checking {id}"));
        checked.extend(game::compile(
            &mut ws,
            id,
            Decks::Check,
            Keep::All,
            &mut diags,
        )?);
        bar.done();
    }
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags));
    }
    let mut stage = Stage::new(out);
    for game in &checked {
        bar.step(format!("writing {}", game.id()));
        for emitter in emit::for_build(game, sheets) {
            emitter.emit(game, &mut ws, &mut stage, &mut diags)?;
        }
        bar.done();
    }
    drop(bar);
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags));
    }
    let units = stage.commit()?;
    Ok(Report {
        summary: written(&checked, root, out, &units),
        diags,
        sources: ws.sources,
    })
}

/// The report of a build that found errors: the stage is dropped unused.
pub(super) fn nothing_written(ws: Workspace, diags: Diagnostics) -> Report {
    Report {
        diags,
        sources: ws.sources,
        summary: "nothing written".into(),
    }
}

/// Where a build wrote what: `built bundles and sheets of 2 games into
/// build/ (a/a.carta, a/sheets/, b/b.carta, b/sheets/)`.
fn written(games: &[Game], root: &Path, out: &Path, units: &[PathBuf]) -> String {
    let out = out.strip_prefix(root).unwrap_or(out);
    let units: Vec<String> = units
        .iter()
        .map(|u| {
            let shown = u.display().to_string().replace('\\', "/");
            if u.extension().is_some() {
                shown
            } else {
                shown + "/"
            }
        })
        .collect();
    format!(
        "built bundles and sheets of {} game{} into {}/ ({})",
        games.len(),
        plural(games.len()),
        out.display(),
        units.join(", ")
    )
}
