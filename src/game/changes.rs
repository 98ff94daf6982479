//! What changed in a game's card files since its record, and, when the
//! record cannot answer for the verdict, the game's cards gathered again
//! without validating what did not change: from the pool (one cache file
//! holding every card file's payload), a card file's own entry where the
//! pool is stale, and the re-validated cards of the files that changed.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::Head;
use super::cards::{check_card_text, shape};
use super::kept::id_hash;
use super::record::IdHashes;
use crate::diag::FileId;
use crate::load::{Listing, LoadError, Mark, Pool, Workspace, decode};
use crate::validate::RawCard;

/// A card file's path, the mark of its cache entry and its cards.
pub(super) type FileCards = (String, Mark, Vec<RawCard>);

/// One card file as [`scan`] found it.
#[derive(Debug)]
pub(super) struct Scanned {
    pub(super) rel: String,
    /// The mark of its cache entry, brought up to date.
    pub(super) mark: Mark,
    /// The record's mark of it (`None`: a new file).
    pub(super) before: Option<Mark>,
    /// Its cards, validated again, when they differ from the record's.
    pub(super) fresh: Option<Vec<RawCard>>,
    /// The cards it gave before, when they differ (read from its entry
    /// before the entry was made anew).
    pub(super) old: Option<Vec<RawCard>>,
}

/// The card files of a game as they are now, against its record.
#[derive(Debug)]
pub(super) struct Scan {
    pub(super) files: Vec<Scanned>,
    /// The card files the record names that are gone, with their marks.
    pub(super) removed: Vec<(String, Mark)>,
    /// How many files were taken without being validated again.
    pub(super) reused: usize,
}

impl Scan {
    /// Whether the record still answers for the cards: the same files,
    /// each giving the same cards, or cards of the same shape (see
    /// [`shape`]) when no recorded diagnostic points into it (`pointed`).
    pub(super) fn answers(&self, pointed: &HashSet<String>) -> bool {
        self.removed.is_empty()
            && self.files.iter().all(|f| match (&f.before, &f.fresh) {
                (None, _) => false,
                (Some(_), None) => true,
                (Some(before), Some(_)) => {
                    before.shape == f.mark.shape && !pointed.contains(&f.rel)
                }
            })
    }

    /// Each file and its mark, in order.
    pub(super) fn marks(&self) -> Vec<(String, Mark)> {
        self.files.iter().map(|f| (f.rel.clone(), f.mark)).collect()
    }
}

/// Every card file of the game against the marks the record gives them
/// (`recorded`): each one whose stamp differs is read, and validated again
/// when its text did too (through the check cache, which it refreshes).
/// `None` when the record cannot be built upon: a file cannot be read, has
/// something to report (a compile reports it), or is a spreadsheet (whose
/// diagnostics stand on cells only a compile maps).
pub(super) fn scan(
    ws: &Workspace,
    head: &Head,
    recorded: &[(String, Mark)],
) -> Result<Option<Scan>, LoadError> {
    let game = &head.manifest.manifest.id;
    let Some(listing) = ws.list_quietly(game, Listing::Cards)? else {
        return Ok(None);
    };
    if listing
        .iter()
        .any(|rel| crate::load::sheet::extension(rel).is_some())
    {
        return Ok(None);
    }
    let before: HashMap<&str, Mark> = recorded.iter().map(|(r, m)| (r.as_str(), *m)).collect();
    let mut out = Scan {
        files: Vec::with_capacity(listing.len()),
        removed: Vec::new(),
        reused: 0,
    };
    let now: HashSet<&str> = listing.iter().map(String::as_str).collect();
    out.removed = recorded
        .iter()
        .filter(|(rel, _)| !now.contains(rel.as_str()))
        .cloned()
        .collect();
    for rel in listing {
        let old = before.get(rel.as_str()).copied();
        let stamp = ws.jail().stamp_rel(&rel);
        if let Some(mark) = old.filter(|m| stamp.is_some_and(|s| m.same_stamp(s))) {
            out.reused += 1;
            out.files.push(Scanned {
                rel,
                mark,
                before: old,
                fresh: None,
                old: None,
            });
            continue;
        }
        let read = ws.jail().read(&ws.root().join(&rel));
        let Some((scanned, hit)) = rescan(head, rel, old, &read, stamp) else {
            return Ok(None);
        };
        out.reused += usize::from(hit);
        out.files.push(scanned);
    }
    Ok(Some(out))
}

/// Card file `rel` (its bytes as `read`; the record's mark of it `old`),
/// validated again through the check cache: `None` when it cannot be read
/// or has something to report; else whether the cache answered.
fn rescan(
    head: &Head,
    rel: String,
    old: Option<Mark>,
    read: &Result<Vec<u8>, crate::load::ReadProblem>,
    stamp: Option<crate::load::Stamp>,
) -> Option<(Scanned, bool)> {
    let text = std::str::from_utf8(read.as_ref().ok()?).ok()?;
    // What the file gave before is in its entry until the entry is made
    // anew; the entry is read once, for this and for the check. An entry
    // of the same shape as the record's mark will do: what the changes
    // reach is found by the cards' shapes. Edits the record answered for
    // (a number, a text) leave the record's mark behind and make the entry
    // anew, of the same shape; a name edit after them would otherwise
    // find nothing it replaced, and judge every deck again.
    let entry = head.cache.as_ref().and_then(|c| c.entry(&rel));
    let previous = old
        .filter(|o| o.content != crate::load::hash_text(text))
        .zip(entry.as_ref())
        .filter(|(o, e)| e.mark.shape == o.shape)
        .and_then(|(_, e)| e.decode::<Vec<RawCard>>());
    let (found, mark, hit) = check_card_text(head, (FileId(0), &rel, text), stamp, entry);
    let mark = mark.filter(|_| found.diagnostics.is_empty())?;
    let same = old.is_some_and(|o| o.payload == mark.payload);
    let scanned = Scanned {
        rel,
        mark,
        before: old,
        fresh: (!same).then_some(found.cards),
        old: previous,
    };
    Some((scanned, hit))
}

/// What the card files' changes reach.
#[derive(Debug, Default)]
pub(super) struct Changes {
    /// Whether any card file changed, came or went.
    pub(super) any: bool,
    /// The hashes ([`id_hash`]) of the ids whose card changed, came or
    /// went; `None` when the cards they replace are not known (the pool
    /// did not hold them): then any card may have.
    pub(super) affected: Option<IdHashes>,
    /// Whether an id came or went (a deck's did-you-mean may change).
    pub(super) ids_changed: bool,
}

/// The game's cards as the files give them now, file by file in order
/// (each file's cards with its mark), taken from the pool or a file's
/// own entry when they did not change; and what the changes reach. `None`
/// when the cards of an unchanged file are found neither in the pool nor
/// in its entry.
pub(super) fn gather(
    head: &Head,
    mut scan: Scan,
    pool: Option<&Pool>,
) -> Option<(Vec<FileCards>, Changes)> {
    let cache = head.cache.as_ref()?;
    let kept = |rel: &str, mark: Mark| -> Option<Vec<RawCard>> {
        if let Some(cards) = pool.and_then(|p| decode(p.payload(rel, mark.payload)?)) {
            return Some(cards);
        }
        let (cards, entry) = cache.get::<Vec<RawCard>>(rel, mark.content)?;
        (entry.payload == mark.payload).then_some(cards)
    };
    // What the changed files held before: read from their entries by the
    // scan, else in the pool.
    let before = |rel: &str, mark: Mark| pool.and_then(|p| decode(p.payload(rel, mark.payload)?));
    let mut old = Some(Vec::new());
    for f in &mut scan.files {
        if f.fresh.is_none() {
            continue;
        }
        if let (Some(mark), Some(list)) = (f.before, old.as_mut()) {
            match f.old.take().or_else(|| before(&f.rel, mark)) {
                Some(cards) => list.extend::<Vec<RawCard>>(cards),
                None => old = None,
            }
        }
    }
    // A file that is gone still has its entry (pruned after).
    let gone = |rel: &str, mark: Mark| {
        let (cards, entry) = cache.get::<Vec<RawCard>>(rel, mark.content)?;
        (entry.payload == mark.payload).then_some(cards)
    };
    for (rel, mark) in &scan.removed {
        match (
            gone(rel, *mark).or_else(|| before(rel, *mark)),
            old.as_mut(),
        ) {
            (Some(cards), Some(list)) => list.extend::<Vec<RawCard>>(cards),
            _ => old = None,
        }
    }
    let new: Vec<&RawCard> = scan
        .files
        .iter()
        .filter_map(|f| f.fresh.as_ref())
        .flatten()
        .collect();
    let any =
        !scan.removed.is_empty() || !new.is_empty() || scan.files.iter().any(|f| f.fresh.is_some());
    let changes = reach(any, old.as_deref(), &new);
    let files: Vec<_> = scan
        .files
        .into_par_iter()
        .map(|f| {
            let cards = match f.fresh {
                Some(cards) => cards,
                None => kept(&f.rel, f.mark)?,
            };
            Some((f.rel, f.mark, cards))
        })
        .collect::<Option<_>>()?;
    Some((files, changes))
}

/// What replacing the cards `old` (`None`: not known) by `new` reaches:
/// each id whose card differs in anything the verdict reads, and whether
/// the ids themselves changed.
fn reach(any: bool, old: Option<&[RawCard]>, new: &[&RawCard]) -> Changes {
    let Some(old) = old else {
        return Changes {
            any,
            affected: None,
            ids_changed: true,
        };
    };
    let shapes = |cards: &mut dyn Iterator<Item = &RawCard>| -> HashMap<String, u64> {
        cards
            .map(|c| (c.id.clone(), shape(std::slice::from_ref(c))))
            .collect()
    };
    let (before, after) = (shapes(&mut old.iter()), shapes(&mut new.iter().copied()));
    let ids = |cards: &mut dyn Iterator<Item = &RawCard>| {
        let mut ids: Vec<&str> = cards.map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        ids.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let ids_changed = ids(&mut old.iter()) != ids(&mut new.iter().copied());
    let affected = before
        .keys()
        .chain(after.keys())
        .filter(|id| before.get(*id) != after.get(*id))
        .map(|id| id_hash(id))
        .collect();
    Changes {
        any,
        affected: Some(affected),
        ids_changed,
    }
}
