//! `carta check [GAME…]`: compile every named game (all if none) with its
//! example decks, keeping only what the rules read.

use std::collections::BTreeSet;
use std::path::Path;

use super::{CommandError, Report, plural};
use crate::diag::Diagnostics;
use crate::editor;
use crate::emit::sheets::{self, Inputs};
use crate::game::ledger::{self, Opening};
use crate::game::{self, Checked, Decks, Keep, Recalled};
use crate::load::{LoadError, Workspace};

/// Checks the named games in the workspace at `root`; with `no_cache`,
/// parses and validates every file, ignoring the check cache.
///
/// # Errors
/// When the workspace or a file cannot be read.
pub(crate) fn run(root: &Path, games: &[String], no_cache: bool) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    // Before anything is read: whether anything changed since the last
    // check, and what the ledger will vouch for.
    let snapshot = if no_cache {
        None
    } else {
        match ledger::open(&mut ws, games, &mut diags) {
            Opening::Replayed(checked) => {
                let (summary, details) = (summary(&checked), coverage(&checked));
                return Ok(Report::new(ws, diags, summary)?.with_details(details));
            }
            Opening::Going(snapshot) => snapshot,
        }
    };
    let root = ws.root().to_path_buf();
    let fresh = |game: &str, keys: &[String]| editor::carries_keys(&root, game, keys);
    let checked = game::check_all(&mut ws, games, !no_cache, &mut diags, &fresh)?;
    let probed = probe_sheets(&mut ws, &checked, no_cache, &mut diags)?;
    // A label ("first defined here") may point into a file whose text was
    // not kept, having nothing to report itself.
    ws.restore(&diags)?;
    let compiled = checked.iter().filter_map(|c| match c {
        Checked::Compiled(g, ..) => Some(&**g),
        Checked::Recalled(_) => None,
    });
    let written = editor::refresh_reporting(&ws, compiled, &mut diags)?;
    let mut keys = written.keys;
    super::init::warn_folders_without_manifest(ws.root(), &mut diags);
    let (summary, details) = (summary(&checked), coverage(&checked));
    let mut verdicts = Vec::with_capacity(checked.len());
    let mut recorded = true;
    // The record of each compiled game, now that its editor schemas are written.
    for c in checked {
        match c {
            Checked::Compiled(game, draft, _) => {
                verdicts.push(verdict_of(&game, draft.as_ref()));
                // What the sheets reported lies outside the game's record:
                // such a game is compiled again by the next check.
                let draft = draft.filter(|_| !probed.contains(game.id()));
                recorded &= draft.is_some_and(|draft| {
                    // Each compiled game's keys, in order.
                    let (_, keys) = keys.remove(0);
                    game::remember(&ws, &game, &draft, &diags, keys)
                });
                // The command ends here and the process with it: freeing
                // every card one by one would only add to the check's time.
                std::mem::forget(game);
            }
            Checked::Recalled(r) => verdicts.push(r),
        }
    }
    if !no_cache {
        // The editor schemas are carta's own: as written now (if at all).
        let snapshot = match snapshot {
            Some(s) if !written.written.is_empty() => [editor::DIR, editor::TAPLO_CONFIG]
                .iter()
                .try_fold(s, |s, rel| s.retaken(ws.root(), ws.jail(), rel)),
            unwritten => unwritten,
        };
        ledger::keep(&ws, games, snapshot, verdicts, recorded, &diags);
    }
    Ok(Report::new(ws, diags, summary)?.with_details(details))
}

/// Reports what the sheets of each game this check compiled without error
/// would refuse or warn about (its icons, templates, art), as `carta
/// build` does, without printing them: they render from every field, so
/// the game is compiled again keeping them all (through `build`'s own card
/// cache unless `no_cache`). Returns the games of which it reported
/// anything.
///
/// # Errors
/// When a file cannot be read.
fn probe_sheets(
    ws: &mut Workspace,
    checked: &[Checked],
    no_cache: bool,
    diags: &mut Diagnostics,
) -> Result<BTreeSet<String>, LoadError> {
    let keep = if no_cache { Keep::All } else { Keep::AllCached };
    let mut probed = BTreeSet::new();
    for c in checked {
        let Checked::Compiled(game, _, true) = c else {
            continue;
        };
        // Its problems were all reported by the first compile.
        let mut again = Diagnostics::new();
        let Some(full) = game::compile(ws, game.id(), Decks::Skip, keep, &mut again)? else {
            continue;
        };
        let inputs = Inputs::read(ws, &full, diags)?;
        let mut found = Vec::new();
        let cache = (!no_cache).then(|| ws.root());
        sheets::probe(ws.jail(), &ws.sources, &full, &inputs, cache, &mut found);
        if !found.is_empty() {
            probed.insert(full.id().to_owned());
        }
        diags.extend(found);
        // The command ends soon, and the process with it.
        std::mem::forget(full);
    }
    Ok(probed)
}

/// What a replay of compiled `game` says of it.
fn verdict_of(game: &game::Game, draft: Option<&game::Draft>) -> Recalled {
    Recalled {
        id: game.id().to_owned(),
        cards: game.pool.len(),
        reused_files: draft.map_or(0, game::Draft::card_files),
        coverage: game.i18n.coverage.clone(),
    }
}

/// "checked 2 games, 120 cards …": the line that the verdict ends.
fn summary(checked: &[Checked]) -> String {
    let cards: usize = checked.iter().map(Checked::cards).sum();
    let reused: usize = checked.iter().map(Checked::reused_files).sum();
    let reused = if reused > 0 {
        format!(" ({reused} unchanged card files taken from the last check)")
    } else {
        String::new()
    };
    format!(
        "checked {} game{}, {cards} card{}{reused}",
        checked.len(),
        plural(checked.len()),
        plural(cards)
    )
}

/// "translated cards: zodiacos en: 60/60": the translations' coverage, on
/// a line of its own under the verdict (nothing when no game has any).
fn coverage(checked: &[Checked]) -> Vec<String> {
    let translated: Vec<String> = checked
        .iter()
        .filter_map(|g| {
            let coverage = g.coverage().filter(|c| !c.is_empty())?;
            let per_lang: Vec<String> = coverage.iter().map(ToString::to_string).collect();
            Some(format!("{} {}", g.id(), per_lang.join(", ")))
        })
        .collect();
    if translated.is_empty() {
        return Vec::new();
    }
    vec![format!("translated cards: {}", translated.join("; "))]
}
