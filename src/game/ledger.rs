//! The ledger of the workspace's last `carta check`: a [`Snapshot`] of
//! every file the check could read, taken before it read any, and what it
//! concluded — each game's counts and coverage, every diagnostic. A check
//! whose ledger's snapshot still holds repeats that verdict without
//! reading a manifest, compiling a schema or opening a game's record: with
//! nothing changed, a check costs a stat per file.
//!
//! A ledger is written only where its snapshot answers for every input:
//! each game left a record (one whose art files it cannot stamp does not:
//! see `recall`), the
//! check found no error (a kind's schema missing outside `schemas/` is a
//! path no snapshot holds), and every file the check read lies where a
//! snapshot looks.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::recall::{Checked, Recalled};
use super::stored::{Stored, restore, store};
use crate::cache::{drop_ledger, get_ledger, hash_of, put_ledger};
use crate::diag::{Diagnostics, FileId};
use crate::load::{Snapshot, Workspace};

/// The ledger, as stored (`MessagePack`, `build/.cache/.ledger`).
#[derive(Debug, Serialize, Deserialize)]
struct Ledger {
    snapshot: Snapshot,
    games: Vec<Recalled>,
    /// The files the diagnostics point into, in the order the check read
    /// them (the order diagnostics are shown in).
    files: Vec<String>,
    diagnostics: Vec<Stored>,
}

/// What a ledger depends on besides the files and the program (which
/// every cache file is keyed by): the games asked for and the limits.
fn key(ws: &Workspace, games: &[String]) -> u64 {
    hash_of(&format!("{games:?}{:?}", ws.limits()))
}

/// How a check of `games` (all when empty) starts from the workspace's
/// ledger.
pub enum Opening {
    /// Nothing changed since the last check: its verdict, its diagnostics
    /// put in the check's and the files they point into registered.
    Replayed(Vec<Checked>),
    /// The check goes on, going by this snapshot of what it can read,
    /// taken before anything was read (`None`: no snapshot can vouch for
    /// this workspace, as when it holds a link).
    Going(Option<Snapshot>),
}

/// Opens the check of `games`: repeats the last verdict when the ledger
/// this carta left with the same limits is intact and its snapshot still
/// holds; else takes the snapshot the check goes by (asking the file
/// system again nothing the last one's stamping found).
pub fn open(ws: &mut Workspace, games: &[String], diags: &mut Diagnostics) -> Opening {
    let mut last: Option<Ledger> = get_ledger(ws.root(), key(ws, games));
    let mut found = None;
    if let Some(ledger) = last.take() {
        match ledger.snapshot.holds(ws.root(), ws.jail()) {
            Ok(()) => {
                if let Some(checked) = replay(ledger, ws, diags) {
                    tracing::debug!("ledger: nothing changed, the last verdict repeated");
                    return Opening::Replayed(checked);
                }
                tracing::debug!("ledger: a recorded diagnostic cannot be placed");
            }
            Err(stamped) => {
                let changed = || ledger.snapshot.first_change(&stamped, ws.root(), ws.jail());
                tracing::debug!("ledger: {}", changed());
                (last, found) = (Some(ledger), Some(stamped));
            }
        }
    } else {
        tracing::debug!("ledger: none of this carta, these games and limits");
    }
    let last = last.as_ref().map(|l| &l.snapshot).zip(found);
    let snapshot = Snapshot::take(ws.root(), ws.jail(), last);
    if let Some(snapshot) = &snapshot {
        ws.go_by(snapshot);
    }
    Opening::Going(snapshot)
}

/// The verdict `ledger` keeps, its diagnostics put in `diags` and the
/// files they point into registered; [`open`] has found its snapshot
/// still holding. `None`, changing nothing, when a diagnostic cannot be
/// placed.
fn replay(ledger: Ledger, ws: &mut Workspace, diags: &mut Diagnostics) -> Option<Vec<Checked>> {
    let placed = restore(ws, &ledger.files, &ledger.diagnostics)?;
    diags.extend(placed);
    Some(ledger.games.into_iter().map(Checked::Recalled).collect())
}

/// Writes the ledger of a check of `games` that took `snapshot` before
/// reading anything and concluded `checked` and `diags`, where the
/// snapshot answers for every input (see the module's notes); else
/// forgets the last one. `recorded` says whether every game it compiled
/// left a record.
pub fn keep(
    ws: &Workspace,
    games: &[String],
    snapshot: Option<Snapshot>,
    checked: Vec<Recalled>,
    recorded: bool,
    diags: &Diagnostics,
) {
    let covered = || ws.sources.iter().all(|(_, f)| Snapshot::covers(&f.name));
    // A spreadsheet's diagnostics are shown on its cells, which a replay
    // does not have.
    let plain = || {
        diags
            .iter()
            .flat_map(|d| d.primary.iter().chain(&d.labels))
            .all(|l| ws.sources.get(l.file).cells.is_none())
    };
    match snapshot {
        Some(snapshot) if recorded && !diags.has_errors() && covered() && plain() => {
            let named: BTreeSet<FileId> = diags
                .iter()
                .flat_map(|d| d.primary.iter().chain(&d.labels))
                .map(|l| l.file)
                .collect();
            let ledger = Ledger {
                snapshot,
                games: checked,
                files: named
                    .into_iter()
                    .map(|id| ws.sources.get(id).name.clone())
                    .collect(),
                diagnostics: diags.iter().map(|d| store(ws, d)).collect(),
            };
            put_ledger(ws.root(), key(ws, games), &ledger);
        }
        _ => {
            tracing::debug!(
                "ledger: none kept (an error, a link, a spreadsheet's diagnostic, or a game without a record)"
            );
            drop_ledger(ws.root());
        }
    }
}
