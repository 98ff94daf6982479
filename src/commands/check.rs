//! `carta check [GAME…]`: compile every named game (all if none) with its
//! example decks, keeping only what the rules read.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{CommandError, Report, plural};
use crate::config::Manifest;
use crate::diag::Diagnostics;
use crate::editor;
use crate::game::ledger::{self, Opening};
use crate::game::{self, Answered, Checked, Recalled};
use crate::load::Workspace;
use crate::validate::GameSchemas;

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
    let schemas = Schemas {
        root: ws.root().to_path_buf(),
        patched: AtomicBool::new(false),
    };
    let checked = game::check_all(&mut ws, games, !no_cache, &mut diags, &schemas)?;
    // A label ("first defined here") may point into a file whose text was
    // not kept, having nothing to report itself.
    ws.restore(&diags)?;
    let compiled = checked.iter().filter_map(|c| match c {
        Checked::Compiled(g, _) => Some(&**g),
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
            Checked::Compiled(game, draft) => {
                verdicts.push(verdict_of(&game, draft.as_ref()));
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
            Some(s) if schemas.patched.load(Ordering::Relaxed) || !written.written.is_empty() => {
                [editor::DIR, editor::TAPLO_CONFIG]
                    .iter()
                    .try_fold(s, |s, rel| s.retaken(ws.root(), ws.jail(), rel))
            }
            unwritten => unwritten,
        };
        ledger::keep(&ws, games, snapshot, verdicts, recorded, &diags);
    }
    Ok(Report::new(ws, diags, summary)?.with_details(details))
}

/// The editor schemas of the workspace at `root`, as the check asks of
/// them, and whether it patched a deck schema.
struct Schemas {
    root: std::path::PathBuf,
    patched: AtomicBool,
}

impl game::EditorSchemas for Schemas {
    fn fresh(&self, game: &str, keys: &[String]) -> bool {
        editor::carries_keys(&self.root, game, keys)
    }

    fn listed_kinds(&self, schemas: &GameSchemas) -> BTreeSet<String> {
        editor::listed_kinds(schemas)
    }

    fn deck_key(&self, manifest: &Manifest, files: &[(usize, u64)]) -> String {
        editor::deck_key(manifest, files)
    }

    fn patch_deck_schema(
        &self,
        manifest: &Manifest,
        files: &[(usize, u64)],
        changed: &[(usize, game::CardLines<'_>)],
        key: &str,
    ) -> bool {
        // A schema that cannot be written is written whole by the compile
        // this falls back to, which reports why.
        let patched =
            editor::patch_deck_schema(&self.root, manifest, files, changed, key).unwrap_or(false);
        self.patched.fetch_or(patched, Ordering::Relaxed);
        patched
    }
}

/// What a replay of compiled `game` says of it.
fn verdict_of(game: &game::Game, draft: Option<&game::Draft>) -> Recalled {
    Recalled {
        id: game.id().to_owned(),
        cards: game.pool.len(),
        reused_files: draft.map_or(0, game::Draft::card_files),
        coverage: game.i18n.coverage.clone(),
        answered: None,
    }
}

/// "checked 2 games, 120 cards …": the line that the verdict ends.
fn summary(checked: &[Checked]) -> String {
    let cards: usize = checked.iter().map(Checked::cards).sum();
    let reused: usize = checked.iter().map(Checked::reused_files).sum();
    let (mut renamed, mut judged, mut came, mut went) = (0, 0, 0, 0);
    for c in checked {
        match c {
            Checked::Recalled(Recalled {
                answered: Some(Answered::Renamed(cards, decks)),
                ..
            }) => (renamed, judged) = (renamed + cards, judged + decks),
            Checked::Recalled(Recalled {
                answered: Some(Answered::Filed(added, deleted)),
                ..
            }) => (came, went) = (came + added, went + deleted),
            _ => {}
        }
    }
    let mut answered = String::new();
    if renamed > 0 {
        answered += &format!(
            "; {renamed} card{} renamed, {judged} deck{} judged again",
            plural(renamed),
            plural(judged)
        );
    }
    for (n, what) in [(came, "added"), (went, "deleted")] {
        if n > 0 {
            answered += &format!("; {n} card file{} {what}", plural(n));
        }
    }
    let reused = if reused > 0 {
        format!(" ({reused} unchanged card files taken from the last check{answered})")
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
