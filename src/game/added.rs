//! A card file added or deleted, answered without compiling the game. New
//! cards with new ids that no deck, translation, collection or other card
//! names, of kinds no reference may name, change what the game says of
//! nothing but themselves — once the check has validated their file,
//! resolved their references and measured their pictures. Deleted cards
//! that nothing names leave nothing behind. So when the only change since
//! the record is card files that came or went, and those hold, the record
//! answers: the deck schema's lines of the files are patched in or out,
//! and the record is written as a compile would write it — no deck is
//! judged again, and no card of the pool is decoded.
//!
//! What falls back to the compile from the record: any other change; box
//! rules (their tallies are over the whole pool); a collection; a new
//! card with an id another card has (or whose hash one has), of a kind the
//! card-file schema lists (it lists those kinds' ids and names, and only
//! their cards can be named by a reference), with a reference to no card
//! of a kind it may name, or with a picture the art check would report; a
//! recorded deck naming an unknown card (a new card may be it); a deleted
//! card named by a deck, of a listed kind, or in a file a recorded
//! diagnostic points into; and what [`answerable`] asks of the record.

use std::collections::{HashMap, HashSet};

use super::Head;
use super::changes::Scan;
use super::kept::id_hash;
use super::record::{
    Art, IdHashes, Record, art_of, art_values, hashes, packed_hashes, pointed_files,
};
use super::renamed::{
    EditorSchemas, answerable, beside_deck_schema, digest, named_cards, schema_lines,
};
use crate::load::Workspace;
use crate::validate::RawCard;

/// How many card files came and went when the record answered.
pub(super) type Filed = (usize, usize);

/// Answers `scan`'s changes from `record` when they are card files that
/// came or went and nothing else (see the module's docs): patches the deck
/// schema and writes the record as a compile would. When it answers, how
/// many card files came and went. When it does not, the deck schema may
/// have been written, as the cards now are, and `record` may hold the
/// deck files' stamps brought up to date and, when the schema could not
/// be written, the card files as they are now; the compile it falls back
/// to takes only its decks, their verdicts and its diagnostics.
pub(super) fn answer(
    ws: &Workspace,
    head: &Head,
    record: &mut Record,
    scan: &Scan,
    editor: &dyn EditorSchemas,
) -> Option<Filed> {
    let m = &head.manifest.manifest;
    if !answerable(record, m) || !m.box_rules.is_empty() || record.collection.is_some() {
        return None;
    }
    let files = files(ws, head, record, scan)?;
    if files.added.is_empty() && scan.removed.is_empty() {
        return None;
    }
    let listed = editor.listed_kinds(&head.schemas);
    let came: Vec<&RawCard> = files
        .added
        .iter()
        .flat_map(|&i| scan.files[i].fresh.iter().flatten())
        .collect();
    if !named_there(ws, head, &files.ids, scan, &came) || !editor.fresh(&m.id, &record.editor) {
        return None;
    }
    let lines = schema_lines(&files.layout, scan, &files.added);
    let filed = (files.added.len(), scan.removed.len());
    beside_deck_schema(ws, head, editor, &lines, record, |record| {
        // Told beside the patch (each looks up thousands of id hashes): the
        // schema it writes is the cards' as the scan found them either way.
        if !new_cards_alone(record, &files.kept, &came, &listed)
            || !gone_unnamed(head, record, scan, &listed)
        {
            return None;
        }
        let total: u32 = files.layout.iter().map(|&(n, _)| n).sum();
        record.total = total as usize;
        for c in record.coverage.iter_mut().flatten() {
            // Without a translation file, a language covers nothing.
            c.total = record.total;
        }
        record.layout = files.layout;
        record.ids = files.ids;
        record.art = files.art;
        record.cards = scan.marks();
        if let Some(cache) = &head.cache {
            let rels: Vec<String> = record.cards.iter().map(|(rel, _)| rel.clone()).collect();
            cache.prune(&rels);
        }
        Some(filed)
    })
}

/// The card files as they are now against the record's.
struct Files {
    /// Per card file of the scan, how many cards and their digest
    /// ([`Record::layout`]) and their id hashes ([`Record::ids`]).
    layout: Vec<(u32, u64)>,
    ids: Vec<serde_bytes::ByteBuf>,
    /// Per card file of the scan, the art files its cards show
    /// ([`Record::art`]).
    art: Vec<Art>,
    /// The new card files, by position in the scan.
    added: Vec<usize>,
    /// The record's card files still there, by position in the record.
    kept: Vec<usize>,
}

/// The scan's card files against the record's, when every one is either
/// unchanged (in the record's order) or new, and every picture the new
/// cards show is one the art check finds nothing to say of.
fn files(ws: &Workspace, head: &Head, record: &Record, scan: &Scan) -> Option<Files> {
    let (m, schemas) = (&head.manifest.manifest, &head.schemas);
    let gone: HashSet<&str> = scan.removed.iter().map(|(rel, _)| rel.as_str()).collect();
    let kept: Vec<usize> = (0..record.cards.len())
        .filter(|&r| !gone.contains(record.cards[r].0.as_str()))
        .collect();
    let mut still = kept.iter();
    let mut out = Files {
        layout: Vec::with_capacity(scan.files.len()),
        ids: Vec::with_capacity(scan.files.len()),
        art: Vec::with_capacity(scan.files.len()),
        added: Vec::new(),
        kept: Vec::new(),
    };
    for (i, f) in scan.files.iter().enumerate() {
        match (f.before, &f.fresh) {
            (Some(_), None) => {
                let &r = still.next()?;
                if record.cards[r].0 != f.rel {
                    return None;
                }
                out.layout.push(record.layout[r]);
                out.ids.push(record.ids[r].clone());
                out.art.push(record.art[r].clone());
            }
            (None, Some(cards)) => {
                let n = u32::try_from(cards.len()).ok()?;
                out.layout.push((n, digest(cards.iter())));
                out.ids
                    .push(packed_hashes(cards.iter().map(|c| id_hash(&c.id))));
                let shown = art_values(m, schemas, cards.iter());
                let art = art_of(ws, m, &shown)?;
                if !shown
                    .iter()
                    .all(|(c, rel)| crate::art::sound(ws.jail(), m, &c.kind, rel))
                {
                    return None;
                }
                out.art.push(art);
                out.added.push(i);
            }
            _ => return None,
        }
    }
    if still.next().is_some() {
        return None;
    }
    out.kept = kept;
    Some(out)
}

/// Whether the new cards `came` change nothing but themselves: none of a
/// kind in `listed`, their ids all distinct and none
/// of the hash of an id of a card file still there (`kept`, by position in
/// the record), and no recorded deck naming a card that was not there.
fn new_cards_alone(
    record: &Record,
    kept: &[usize],
    came: &[&RawCard],
    listed: &std::collections::BTreeSet<String>,
) -> bool {
    let mut ids = IdHashes::default();
    for c in came {
        if listed.contains(&c.kind) || !ids.insert(id_hash(&c.id)) {
            return false;
        }
    }
    ids.is_empty()
        || (!record
            .diagnostics
            .iter()
            .any(|d| d.code == "deck::unknown-card")
            && !kept
                .iter()
                .any(|&r| hashes(&record.ids[r]).any(|h| ids.contains(&h))))
}

/// Whether every reference of the new cards `came` names a card that is
/// there, of a kind it may name (as the link finds it): one of them, or
/// one of the card files of `scan` whose id hashes (`ids`, per file of the
/// scan) hold its hash, read from their entries or the pool.
fn named_there(
    ws: &Workspace,
    head: &Head,
    ids: &[serde_bytes::ByteBuf],
    scan: &Scan,
    came: &[&RawCard],
) -> bool {
    let own: HashSet<&str> = came.iter().map(|c| c.id.as_str()).collect();
    let wanted: IdHashes = came
        .iter()
        .flat_map(|c| &c.refs)
        .filter(|r| !own.contains(r.target.as_str()))
        .map(|r| id_hash(&r.target))
        .collect();
    let named = if wanted.is_empty() {
        Vec::new()
    } else {
        match named_cards(ws, head, ids, scan, &wanted) {
            Some(cards) => cards,
            None => return false,
        }
    };
    let kinds: HashMap<&str, &str> = named
        .iter()
        .chain(came.iter().copied())
        .map(|c| (c.id.as_str(), c.kind.as_str()))
        .collect();
    came.iter().flat_map(|c| &c.refs).all(|r| {
        kinds
            .get(r.target.as_str())
            .is_some_and(|kind| r.kinds.iter().any(|k| k == kind))
    })
}

/// Whether the deleted card files' cards leave nothing behind: no deck
/// names one (by id hash), none is of a kind in `listed`, and no recorded
/// diagnostic points into their files. Their cards are read from their
/// check cache entries, which stay until a check prunes them.
fn gone_unnamed(
    head: &Head,
    record: &Record,
    scan: &Scan,
    listed: &std::collections::BTreeSet<String>,
) -> bool {
    if scan.removed.is_empty() {
        return true;
    }
    let Some(cache) = &head.cache else {
        return false;
    };
    let pointed = pointed_files(record);
    let mut ids = IdHashes::default();
    for (rel, mark) in &scan.removed {
        let Some(r) = record.cards.iter().position(|(at, _)| at == rel) else {
            return false;
        };
        let cards = cache
            .get::<Vec<RawCard>>(rel, mark.content)
            .filter(|(_, now)| now.payload == mark.payload);
        let Some((cards, _)) = cards else {
            return false;
        };
        if pointed.contains(rel) || cards.iter().any(|c| listed.contains(&c.kind)) {
            return false;
        }
        ids.extend(hashes(&record.ids[r]));
    }
    !record
        .names
        .iter()
        .any(|n| hashes(n).any(|h| ids.contains(&h)))
}
