//! The record of a game's last check (`build/.cache/<game>.verdict`): what
//! `carta check` concluded — its diagnostics, its counts, the keys of its
//! editor schemas — and every input it concluded it from, each with its
//! mark: each card file (its cache entry's mark), deck and translation
//! file, template, picture and the player's collection. And the checks of
//! whether those inputs are as it saw them.
//!
//! A record answers for the whole verdict when every input is as it was,
//! but for card files whose text changed into cards of the same *shape*
//! (`cards::shape`: what the verdict reads of them — not where they are
//! written) and that no recorded diagnostic points into. Anything else,
//! and the game is compiled (each unchanged card file from its entry).

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::cards::check_card_text;
use super::compiled::Game;
use super::head::Head;
use super::stored::{Stored, store};
use crate::cache::{CheckCache, Mark, hash_bytes, hash_of, hash_text, same_stamp, settled_stamp};
use crate::config::Manifest;
use crate::diag::{Diagnostics, FileId};
use crate::i18n::{Coverage, phrases};
use crate::load::{Jail, Listing, LoadError, Workspace};
use crate::validate::{GameSchemas, RawCard};

/// Why a record could not answer: what `CARTA_LOG=debug` tells.
pub(super) type Why = String;

/// The record, as stored.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Record {
    /// Each card file and its cache entry's mark.
    pub(super) cards: Vec<(String, Mark)>,
    /// Each example deck file and the mark of its text.
    pub(super) decks: Vec<(String, Mark)>,
    /// The player's collection (`decks/<game>/collection.toml`), as read.
    pub(super) collection: CollectionMark,
    /// The translation files and the templates present, and the hash of
    /// the text of each one the check read.
    pub(super) translations: Vec<String>,
    pub(super) templates: Vec<String>,
    pub(super) texts: Vec<(String, u64)>,
    /// Per card file (as `cards`): the art files its cards show
    /// (workspace paths, sorted), each with its stamp as the check found
    /// it ([`settled_stamp`]'s words) and the hash of its bytes: a
    /// picture's type, size and resolution are inputs of the verdict.
    pub(super) art: Vec<Art>,
    /// The files the diagnostics point into, in the order the compiled
    /// game registered them.
    pub(super) files: Vec<String>,
    pub(super) diagnostics: Vec<Stored>,
    pub(super) total: usize,
    /// Per language: how much of the pool it translates.
    pub(super) coverage: Option<Vec<Coverage>>,
    /// The keys its editor schemas were written with.
    pub(super) editor: Vec<String>,
}

/// The art files of one card file's cards, each with its stamp and the
/// hash of its bytes (see [`Record::art`]).
pub(super) type Art = Vec<(String, [u64; 4], u64)>;

/// What a check read of a game's collection, for its record: `None` when
/// the game has none; else the hash of its text, `None` when it could not
/// be read as text.
pub(super) type CollectionMark = Option<Option<u64>>;

/// What a compile gathered for the game's record.
#[derive(Debug)]
pub struct Draft {
    pub(super) cache: CheckCache,
    /// Each card file and its cache entry's mark (`None`: not cached).
    pub(super) cards: Vec<(String, Option<Mark>)>,
    /// Each deck file and the mark of its text (`None`: not read).
    pub(super) decks: Vec<(String, Option<Mark>)>,
    /// The player's collection of the game, as read.
    pub(super) collection: CollectionMark,
    /// Which of the check's diagnostics are the game's.
    pub(super) diagnostics: Range<usize>,
    /// The files the game registered after its schemas, by id.
    pub(super) files: Range<usize>,
}

impl Draft {
    /// How many card files the game has.
    pub fn card_files(&self) -> usize {
        self.cards.len()
    }
}

/// The key a record is written under besides its cache's: the limits (a
/// lower size limit could refuse a file read last time).
pub(super) fn record_key(ws: &Workspace) -> u64 {
    hash_of(&format!("{:?}", ws.limits()))
}

/// Writes the record of `game`, which this check compiled, with its editor
/// schemas' `keys`; forgets the old one when the check leaves something it
/// cannot vouch for (a card file with problems is never cached). Says
/// whether it wrote one.
pub fn remember(
    ws: &Workspace,
    game: &Game,
    draft: &Draft,
    diags: &Diagnostics,
    keys: Vec<String>,
) -> bool {
    let record = record_of(ws, game, draft, diags, keys);
    match record {
        Ok(record) => {
            draft.cache.put_record(record_key(ws), &record);
            true
        }
        Err(why) => {
            tracing::debug!(game = game.id(), "no record kept: {why}");
            draft.cache.drop_record();
            false
        }
    }
}

/// The record of `game` as `draft` gathered it, with its editor schemas'
/// `keys`; or why none can vouch for its inputs.
fn record_of(
    ws: &Workspace,
    game: &Game,
    draft: &Draft,
    diags: &Diagnostics,
    keys: Vec<String>,
) -> Result<Record, Why> {
    let of_file = of_files(game, draft.files.start, draft.cards.len())
        .ok_or("a card is in no card file of the game")?;
    let art = art_files(ws, game, &of_file)?;
    let ids: Vec<FileId> = draft.files.clone().map(file_id).collect();
    let texts = read_texts(ws, game.id(), &ids)?;
    let diagnostics: Vec<Stored> = diags
        .reported(draft.diagnostics.clone())
        .iter()
        .map(|d| store(ws, d))
        .collect();
    // Only the files a diagnostic points into are registered again when
    // the verdict is repeated, in the order the compile registered them.
    let named: HashSet<&str> = diagnostics
        .iter()
        .flat_map(|d| d.primary.iter().chain(&d.labels))
        .map(|l| l.file.as_str())
        .collect();
    let files = ids
        .iter()
        .map(|&id| &ws.sources.get(id).name)
        .filter(|name| named.contains(name.as_str()))
        .cloned()
        .collect();
    let marked = |files: &[(String, Option<Mark>)], what: &str| {
        files
            .iter()
            .map(|(rel, m)| {
                Ok((
                    rel.clone(),
                    m.ok_or_else(|| format!("{what} `{rel}` was not read clean"))?,
                ))
            })
            .collect::<Result<Vec<_>, Why>>()
    };
    let listed = |listing| {
        ws.list_quietly(game.id(), listing)
            .ok()
            .flatten()
            .ok_or_else(|| format!("the {listing:?} of the game cannot be listed"))
    };
    Ok(Record {
        cards: marked(&draft.cards, "card file")?,
        decks: marked(&draft.decks, "deck")?,
        collection: draft.collection,
        translations: listed(Listing::Translations)?,
        templates: phrases::template_names(ws, game.id()).map_err(|e| e.to_string())?,
        texts,
        art,
        files,
        diagnostics,
        total: game.pool.len(),
        coverage: game.i18n.coverage.clone(),
        editor: keys,
    })
}

/// The cards of `game`'s pool per card file (`files` of them, registered
/// in order from `first`); `None` when a card is of another file.
fn of_files(game: &Game, first: usize, files: usize) -> Option<Vec<Vec<&RawCard>>> {
    let mut of_file: Vec<Vec<&RawCard>> = vec![Vec::new(); files];
    for c in game.pool.iter() {
        let i = (c.file.0 as usize)
            .checked_sub(first)
            .filter(|&i| i < files)?;
        of_file[i].push(c);
    }
    Some(of_file)
}

/// Per card file (`of_file`, the cards of each) of `game`: the art files
/// its cards show, with their stamps (see [`Record::art`]).
fn art_files(ws: &Workspace, game: &Game, of_file: &[Vec<&RawCard>]) -> Result<Vec<Art>, Why> {
    let (m, schemas) = (&game.manifest.manifest, &game.schemas);
    of_file
        .iter()
        .map(|cards| art_of(ws, m, &art_values(m, schemas, cards.iter().copied())))
        .collect()
}

/// The hash of the text of each translation file and template the game
/// read (among `ids`). A template read without a phrase was not kept; any
/// text of it still without a phrase checks the same, so it is read again
/// (and no record is kept when it has gained one since).
fn read_texts(ws: &Workspace, game: &str, ids: &[FileId]) -> Result<Vec<(String, u64)>, Why> {
    let i18n = format!("cards/{game}/i18n/");
    let templates = phrases::template_path(game, "");
    let mut out = Vec::new();
    for &id in ids {
        let f = ws.sources.get(id);
        if f.name.starts_with(&i18n) {
            out.push((f.name.clone(), hash_text(&f.text)));
        } else if f.name.starts_with(&templates) {
            let text = if ws.sources.unread().any(|u| u == id) {
                let changed = || format!("template `{}` changed while it was checked", f.name);
                let bytes = ws
                    .jail()
                    .read(&ws.root().join(&f.name))
                    .map_err(|_| changed())?;
                let text = String::from_utf8(bytes).map_err(|_| changed())?;
                if !phrases::scan(&text).is_empty() {
                    return Err(changed());
                }
                text
            } else {
                f.text.to_string()
            };
            out.push((f.name.clone(), hash_text(&text)));
        }
    }
    Ok(out)
}

fn file_id(i: usize) -> FileId {
    FileId(u32::try_from(i).expect("fewer than 2^32 files"))
}

/// The files a recorded diagnostic points into: where the spans of the
/// cards matter to the verdict.
fn pointed_files(record: &Record) -> HashSet<&str> {
    record
        .diagnostics
        .iter()
        .flat_map(|d| d.primary.iter().chain(&d.labels))
        .map(|l| l.file.as_str())
        .collect()
}

/// The art files `shown` (as [`art_values`] finds them) with their
/// stamps and contents as the check found them ([`Record::art`]); why not
/// when one is not there or its path is not a plain one inside the game's
/// folder (the art check reports it): the record cannot vouch for it.
fn art_of(ws: &Workspace, m: &Manifest, shown: &[(&RawCard, &str)]) -> Result<Art, Why> {
    let mut out = BTreeMap::new();
    for &(card, rel) in shown {
        if !Jail::is_plain_relative(rel) {
            return Err(format!(
                "card `{}` shows art at `{rel}`, outside the game",
                card.id
            ));
        }
        let path = format!("cards/{}/{rel}", m.id);
        if let Entry::Vacant(at) = out.entry(path) {
            let missing = || format!("card `{}` shows art `{rel}`, not there", card.id);
            let stamp = ws.jail().stamp_rel(at.key()).ok_or_else(missing)?;
            let bytes = ws
                .jail()
                .read(&ws.root().join(at.key()))
                .map_err(|_| missing())?;
            at.insert((settled_stamp(Some(stamp)), hash_bytes(&bytes)));
        }
    }
    Ok(out
        .into_iter()
        .map(|(rel, (stamp, hash))| (rel, stamp, hash))
        .collect())
}

/// Each picture `cards` show: the card and its art field's value (the
/// kinds' art fields found once per kind).
fn art_values<'c>(
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

/// Whether `record` answers for the game's card files as they are now:
/// each file the record names is there (and no other), and each one whose
/// stamp moved either has the same text, or cards of the same shape and
/// no recorded diagnostic pointing into it. Every changed file is checked
/// again through the cache (which keeps its entry for the compile, should
/// the record not answer). The card files' marks as they are now, or why
/// the record does not answer.
pub(super) fn scan(
    ws: &Workspace,
    head: &Head,
    record: &Record,
) -> Result<Result<Vec<(String, Mark)>, Why>, LoadError> {
    let game = &head.manifest.manifest.id;
    let Some(listing) = ws.list_quietly(game, Listing::Cards)? else {
        return Ok(Err("the card files cannot be listed".into()));
    };
    if let Some(sheet) = listing
        .iter()
        .find(|rel| crate::load::sheet::extension(rel).is_some())
    {
        // Its diagnostics stand on cells only a compile maps.
        return Ok(Err(format!("`{sheet}` is a spreadsheet")));
    }
    let same_files = listing.len() == record.cards.len()
        && listing.iter().zip(&record.cards).all(|(a, (b, _))| a == b);
    if !same_files {
        let was: HashSet<&str> = record.cards.iter().map(|(r, _)| r.as_str()).collect();
        let now: HashSet<&str> = listing.iter().map(String::as_str).collect();
        let why = match (now.difference(&was).next(), was.difference(&now).next()) {
            (Some(added), _) => format!("card file `{added}` is new"),
            (None, Some(gone)) => format!("card file `{gone}` is gone"),
            (None, None) => "the card files are in another order".into(),
        };
        return Ok(Err(why));
    }
    let pointed = pointed_files(record);
    let mut marks = Vec::with_capacity(listing.len());
    for (rel, (_, before)) in listing.into_iter().zip(&record.cards) {
        let stamp = ws.jail().stamp_rel(&rel);
        if stamp.is_some_and(|s| before.same_stamp(s)) {
            marks.push((rel, *before));
            continue;
        }
        let read = ws.jail().read(&ws.root().join(&rel));
        let Some(text) = read.ok().and_then(|b| String::from_utf8(b).ok()) else {
            return Ok(Err(format!("card file `{rel}` cannot be read as text")));
        };
        let (found, mark, _) = check_card_text(head, (FileId(0), &rel, &text), stamp);
        let Some(mark) = mark.filter(|_| found.diagnostics.is_empty()) else {
            return Ok(Err(format!("card file `{rel}` has something to report")));
        };
        if mark.content != before.content {
            if mark.shape != before.shape {
                return Ok(Err(format!(
                    "the cards of `{rel}` changed what the verdict reads"
                )));
            }
            if pointed.contains(rel.as_str()) {
                return Ok(Err(format!(
                    "`{rel}` changed and a diagnostic points into it"
                )));
            }
        }
        marks.push((rel, mark));
    }
    Ok(Ok(marks))
}

/// Whether every art file the record names is as it was: the same stamp,
/// or (one too fresh to have been kept) the same bytes.
pub(super) fn same_art(ws: &Workspace, record: &Record) -> Result<(), Why> {
    for (rel, words, hash) in record.art.iter().flatten() {
        if ws
            .jail()
            .stamp_rel(rel)
            .is_some_and(|s| same_stamp(*words, s))
        {
            continue;
        }
        let bytes = ws.jail().read(&ws.root().join(rel));
        if bytes.map(|b| hash_bytes(&b)).ok() != Some(*hash) {
            return Err(format!("picture `{rel}` changed"));
        }
    }
    Ok(())
}

/// Whether no deck, translation file, template or collection changed
/// (the deck marks brought up to date); else why.
pub(super) fn same_texts(
    ws: &Workspace,
    game: &str,
    record: &mut Record,
) -> Result<Result<(), Why>, LoadError> {
    let Some(decks) = ws.list_quietly(game, Listing::Decks)? else {
        return Ok(Err("the decks cannot be listed".into()));
    };
    if !decks.iter().eq(record.decks.iter().map(|(rel, _)| rel)) {
        return Ok(Err("a deck file came or went".into()));
    }
    for (rel, mark) in &mut record.decks {
        let stamp = ws.jail().stamp_rel(rel);
        if stamp.is_some_and(|s| mark.same_stamp(s)) {
            continue;
        }
        if text_hash(ws, rel) != Some(mark.content) {
            return Ok(Err(format!("deck `{rel}` changed")));
        }
        mark.stamp = settled_stamp(stamp);
    }
    if collection_now(ws, game) != record.collection {
        return Ok(Err("the player's collection changed".into()));
    }
    if ws.list_quietly(game, Listing::Translations)?.as_ref() != Some(&record.translations) {
        return Ok(Err("a translation file came or went".into()));
    }
    if phrases::template_names(ws, game)? != record.templates {
        return Ok(Err("a template came or went".into()));
    }
    for (rel, content) in &record.texts {
        if text_hash(ws, rel) != Some(*content) {
            return Ok(Err(format!("`{rel}` changed")));
        }
    }
    Ok(Ok(()))
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
pub(super) fn text_hash(ws: &Workspace, rel: &str) -> Option<u64> {
    let bytes = ws.jail().read(&ws.root().join(rel)).ok()?;
    String::from_utf8(bytes).ok().map(|text| hash_text(&text))
}
