//! `carta check [GAME…]`: compile every named game (all if none) with its
//! example decks, keeping only what the rules read.

use std::path::Path;

use super::{CommandError, Report, plural};
use crate::diag::Diagnostics;
use crate::game::{self, Keep};
use crate::load::Workspace;

/// Checks the named games in the workspace at `root`; with `no_cache`,
/// parses and validates every file, ignoring the check cache.
///
/// # Errors
/// When the workspace or a file cannot be read.
pub(crate) fn run(root: &Path, games: &[String], no_cache: bool) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let keep = if no_cache {
        Keep::Rules
    } else {
        Keep::RulesCached
    };
    let checked = game::compile_all(&mut ws, games, keep, &mut diags)?;
    // A label ("first defined here") may point into a file whose text was
    // not kept, having nothing to report itself.
    ws.restore(&diags)?;
    crate::editor::refresh_reporting(&ws, &checked, &mut diags)?;
    super::init::warn_folders_without_manifest(ws.root(), &mut diags);
    let cards: usize = checked.iter().map(|g| g.pool.len()).sum();
    let reused: usize = checked.iter().map(|g| g.reused_files).sum();
    let reused = if reused > 0 {
        format!(" ({reused} unchanged card files taken from the last check)")
    } else {
        String::new()
    };
    let translated: Vec<String> = checked
        .iter()
        .filter_map(|g| {
            let coverage = g.i18n.coverage.as_ref().filter(|c| !c.is_empty())?;
            let per_lang: Vec<String> = coverage.iter().map(ToString::to_string).collect();
            Some(format!("{} {}", g.id(), per_lang.join(", ")))
        })
        .collect();
    let translated = if translated.is_empty() {
        String::new()
    } else {
        format!("; translated cards: {}", translated.join("; "))
    };
    let summary = format!(
        "checked {} game{}, {cards} card{}{reused}{translated}",
        checked.len(),
        plural(checked.len()),
        plural(cards)
    );
    Ok(Report {
        diags,
        sources: ws.sources,
        summary,
    })
}
