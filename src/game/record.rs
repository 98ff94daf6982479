//! The record of a game's last check as stored (`build/.cache/<game>.verdict`,
//! `MessagePack`): what it concluded and every input it concluded it
//! from, and the checks of whether those inputs are as it saw them. Read
//! and written by [`super::recall`], [`super::renamed`] and [`super::added`].

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::kept::Kept;
use crate::config::Manifest;
use crate::i18n::{Coverage, phrases};
use crate::load::{
    Jail, Listing, LoadError, Mark, Workspace, hash_text, same_stamp, settled_stamp,
};
use crate::validate::{GameSchemas, RawCard};

/// The record, as stored (`MessagePack`, in the check cache).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Record {
    pub(super) cards: Vec<(String, Mark)>,
    pub(super) decks: Vec<(String, Mark)>,
    /// Per deck: the hashes of the card ids it names (`kept::id_hash`),
    /// four little-endian bytes each. A repeated verdict reads none of
    /// them: as bytes, 30,000 of them decode in a copy per deck, not one
    /// value at a time.
    pub(super) names: Vec<serde_bytes::ByteBuf>,
    /// Whether the decks were judged over a pool without errors (by all
    /// their rules).
    pub(super) trusted: bool,
    /// The player's collection (`decks/<game>/collection.toml`), as read.
    pub(super) collection: CollectionMark,
    /// The translation files and the templates present, and the hash of
    /// the text of each one the check read.
    pub(super) translations: Vec<String>,
    pub(super) templates: Vec<String>,
    pub(super) texts: Vec<(String, u64)>,
    /// The files the diagnostics point into, in the order the compiled
    /// game registered them.
    pub(super) files: Vec<String>,
    pub(super) total: usize,
    /// Per language: how much of the pool it translates.
    pub(super) coverage: Option<Vec<Coverage>>,
    pub(super) editor: Vec<String>,
    pub(super) diagnostics: Vec<Kept>,
    /// Per card file (as `cards`): how many cards it has and their digest
    /// as the deck schema's lines read them ([`super::CardsDigest`]).
    pub(super) layout: Vec<(u32, u64)>,
    /// Per card file (as `cards`): the hashes of its cards' ids
    /// (`kept::id_hash`), four little-endian bytes each.
    pub(super) ids: Vec<serde_bytes::ByteBuf>,
    /// Per card file (as `cards`): the art files its cards show
    /// (workspace paths, sorted) and each one's stamp as the check found it
    /// ([`settled_stamp`]'s words): a picture's size and resolution are
    /// inputs of the verdict.
    pub(super) art: Vec<Art>,
}

/// The art files of one card file's cards, each with its stamp (see
/// [`Record::art`]).
pub(super) type Art = Vec<(String, [u64; 3])>;

/// What a check read of a game's collection, for its record: `None` when
/// the game has none; else the hash of its text, `None` when it could not
/// be read as text.
pub(super) type CollectionMark = Option<Option<u64>>;

/// What the record vouches for, limits included (a lower size limit
/// could refuse a file read last time).
pub(super) fn record_key(ws: &Workspace) -> u64 {
    hash_text(&format!("{:?}", ws.limits()))
}

/// The files a recorded diagnostic points into: where the spans of the
/// cards matter to the verdict.
pub(super) fn pointed_files(record: &Record) -> HashSet<String> {
    record
        .diagnostics
        .iter()
        .flat_map(|d| d.primary.iter().chain(&d.labels))
        .map(|l| l.file.clone())
        .collect()
}

/// The art files `shown` (as [`art_values`] finds them: workspace paths,
/// sorted, each once) with
/// their stamps as the check found them ([`Record::art`]); `None` when one
/// is not there or its path is not a plain one inside the game's folder
/// (the art check reports it): the record cannot vouch for it.
pub(super) fn art_of(ws: &Workspace, m: &Manifest, shown: &[(&RawCard, &str)]) -> Option<Art> {
    let mut out = BTreeMap::new();
    for &(_, rel) in shown {
        if !Jail::is_plain_relative(rel) {
            return None;
        }
        let path = format!("cards/{}/{rel}", m.id);
        if let Entry::Vacant(at) = out.entry(path) {
            let stamp = ws.jail().stamp_rel(at.key())?;
            at.insert(settled_stamp(Some(stamp)));
        }
    }
    Some(out.into_iter().collect())
}

/// Each picture `cards` show: the card and its art field's value (the
/// kinds' art fields found once per kind).
pub(super) fn art_values<'c>(
    m: &Manifest,
    schemas: &GameSchemas,
    cards: impl Iterator<Item = &'c RawCard>,
) -> Vec<(&'c RawCard, &'c str)> {
    let mut fields_of = BTreeMap::new();
    let mut out = Vec::new();
    for c in cards {
        let fields = fields_of
            .entry(c.kind.as_str())
            .or_insert_with(|| crate::art::art_fields(m, schemas, &c.kind));
        let values = fields.iter().filter_map(|f| c.fields.get(f)?.as_str());
        out.extend(values.map(|rel| (c, rel)));
    }
    out
}

/// Whether every art file the record names has the stamp it had (one
/// too fresh to have been kept never has).
pub(super) fn same_art(ws: &Workspace, record: &Record) -> bool {
    record.art.iter().flatten().all(|(rel, words)| {
        ws.jail()
            .stamp_rel(rel)
            .is_some_and(|s| same_stamp(*words, s))
    })
}

/// Whether no deck or translation file changed (the deck marks brought up
/// to date).
pub(super) fn same_texts(
    ws: &Workspace,
    game: &str,
    record: &mut Record,
) -> Result<bool, LoadError> {
    let Some(decks) = ws.list_quietly(game, Listing::Decks)? else {
        return Ok(false);
    };
    if !decks.iter().eq(record.decks.iter().map(|(rel, _)| rel)) {
        return Ok(false);
    }
    for (rel, mark) in &mut record.decks {
        let stamp = ws.jail().stamp_rel(rel);
        if stamp.is_some_and(|s| mark.same_stamp(s)) {
            continue;
        }
        if text_hash(ws, rel) != Some(mark.content) {
            return Ok(false);
        }
        mark.stamp = settled_stamp(stamp);
    }
    if collection_now(ws, game) != record.collection {
        return Ok(false);
    }
    if ws.list_quietly(game, Listing::Translations)?.as_ref() != Some(&record.translations)
        || phrases::template_names(ws, game)? != record.templates
    {
        return Ok(false);
    }
    // A text the snapshot finds unchanged since the last check that found
    // no error is as that check found it: as the record says (the check
    // either compared it or wrote the record).
    Ok(record
        .texts
        .iter()
        .all(|(rel, content)| ws.jail().kept(rel) || text_hash(ws, rel) == Some(*content)))
}

/// The player's collection of `game` as a check would read it now (see
/// [`CollectionMark`]).
fn collection_now(ws: &Workspace, game: &str) -> CollectionMark {
    let rel = crate::collection::path_of(game);
    std::fs::symlink_metadata(ws.root().join(&rel))
        .is_ok()
        .then(|| text_hash(ws, &rel))
}

/// The hash of workspace file `rel`'s text, read now; `None` when it cannot
/// be read or is not UTF-8.
fn text_hash(ws: &Workspace, rel: &str) -> Option<u64> {
    let bytes = ws.jail().read(&ws.root().join(rel)).ok()?;
    String::from_utf8(bytes).ok().map(|text| hash_text(&text))
}

/// Hashes as the record keeps them ([`Record::names`], [`Record::ids`]):
/// four little-endian bytes each.
pub(super) fn packed_hashes(hashes: impl IntoIterator<Item = u32>) -> serde_bytes::ByteBuf {
    serde_bytes::ByteBuf::from(
        hashes
            .into_iter()
            .flat_map(u32::to_le_bytes)
            .collect::<Vec<u8>>(),
    )
}

/// A set of id hashes: hashed with foldhash, not `SipHash` (an answer from
/// the record looks up every hash of every deck's names, tens of thousands
/// at 20,000 cards).
pub(super) type IdHashes = HashSet<u32, foldhash::fast::RandomState>;

/// The hashes a record keeps as `bytes` (see [`packed_hashes`]).
pub(super) fn hashes(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|n| u32::from_le_bytes([n[0], n[1], n[2], n[3]]))
}
