//! What a compile takes over from the game's record when the record cannot
//! answer for the whole verdict (a card's name changed, a card file came
//! or went, a deck was edited): the cards of the files that did not change,
//! and the verdict of every deck that nothing it reads changed for.
//!
//! A deck's verdict reads the deck file, the rules (whose inputs the
//! record's key covers) and the cards its lines name — each one on its
//! own: a rule precomputes per card what it reads of that card alone —
//! and, for a line naming no card, every id (the did-you-mean). So a
//! recorded verdict stands when the deck's file is unchanged, none of the
//! ids it names belongs to a card that changed, came or went, and, if any
//! id came or went, it names no unknown card. It is judged again besides
//! when its diagnostics were capped, when two of them share a place (their
//! order may follow the pool's), or when a label points into a file
//! other than the deck and the manifest.

use std::collections::{HashMap, HashSet};

use super::changes::{Changes, FileCards};
use super::kept::{Kept, place};
use crate::diag::{Diagnostic, FileId};
use crate::load::{Mark, Pool};

/// A deck file as the compile read it, for the record: its mark (`None`:
/// not recorded) and the hashes of the card ids it names.
#[derive(Debug)]
pub(super) struct DeckMark {
    pub(super) rel: String,
    pub(super) mark: Option<Mark>,
    pub(super) names: Vec<u32>,
}

/// What a compile takes over from the record.
#[derive(Debug)]
pub(super) struct Prior {
    /// Every card file, in order, with its mark and cards.
    pub(super) files: Vec<FileCards>,
    /// How many card files were taken without being validated again.
    pub(super) reused: usize,
    /// Whether a card file the record names is gone (its entry is pruned).
    pub(super) removed: bool,
    /// The pool read, from which the next one is written.
    pub(super) pool: Option<Box<Pool>>,
    /// The recorded deck verdicts that may stand.
    pub(super) verdicts: Option<Verdicts>,
}

/// One deck's recorded verdict.
#[derive(Debug)]
pub(super) struct Recorded {
    pub(super) mark: Mark,
    pub(super) names: Vec<u32>,
    kept: Vec<Kept>,
}

/// The recorded deck verdicts, and what changed since.
#[derive(Debug)]
pub(super) struct Verdicts {
    decks: HashMap<String, Recorded>,
    changes: Changes,
    /// The game's manifest, which a rule's label points into.
    manifest: String,
}

impl Verdicts {
    /// The verdicts of `decks` (each with its mark and names) among the
    /// record's `diagnostics` (each deck's are those placed in it).
    pub(super) fn new(
        game: &str,
        decks: Vec<(String, Mark, Vec<u32>)>,
        diagnostics: &[Kept],
        changes: Changes,
    ) -> Self {
        let mut kept: HashMap<&str, Vec<Kept>> = HashMap::new();
        for k in diagnostics {
            if let Some(p) = &k.primary {
                kept.entry(p.file.as_str()).or_default().push(k.clone());
            }
        }
        let decks = decks
            .into_iter()
            .map(|(rel, mark, names)| {
                let kept = kept.remove(rel.as_str()).unwrap_or_default();
                (rel, Recorded { mark, names, kept })
            })
            .collect();
        Verdicts {
            decks,
            changes,
            manifest: format!("cards/{game}/game.toml"),
        }
    }

    /// The recorded verdict of deck `rel` when it stands, the deck still
    /// being what `same` says of its recorded mark.
    pub(super) fn standing(&self, rel: &str, same: impl Fn(&Mark) -> bool) -> Option<&Recorded> {
        let r = self.decks.get(rel)?;
        if !same(&r.mark) || !self.stands(rel, r) {
            return None;
        }
        Some(r)
    }

    fn stands(&self, rel: &str, r: &Recorded) -> bool {
        let c = &self.changes;
        if !c.any {
            return true;
        }
        let Some(affected) = &c.affected else {
            return false;
        };
        let unknown = |k: &Kept| k.code == "deck::unknown-card";
        let mut places = HashSet::new();
        r.names.iter().all(|n| !affected.contains(n))
            && !(c.ids_changed && r.kept.iter().any(unknown))
            && r.kept.iter().all(|k| {
                k.elided == (0, 0)
                    && k.primary.as_ref().is_some_and(|p| places.insert(p.start))
                    && k.labels
                        .iter()
                        .chain(&k.primary)
                        .all(|l| l.file == rel || l.file == self.manifest)
            })
    }

    /// Recorded verdict `r` of deck `rel`, placed in its file `file` (and
    /// the manifest, `manifest`); `None` when it cannot be placed.
    pub(super) fn place(
        r: &Recorded,
        (rel, file): (&str, FileId),
        (manifest, manifest_file): (&str, FileId),
    ) -> Option<Vec<Diagnostic>> {
        let file_of = |name: &str| {
            if name == rel {
                Some(file)
            } else {
                (name == manifest).then_some(manifest_file)
            }
        };
        r.kept.iter().map(|k| place(k, &file_of)).collect()
    }

    /// The manifest's path.
    pub(super) fn manifest(&self) -> &str {
        &self.manifest
    }
}
