//! The record of a game's last check: what `carta check` concluded (its
//! diagnostics, its counts, the keys of its editor schemas) and every input
//! it concluded it from — each card file with the mark of its cache entry,
//! each deck and translation file with its stamp and the hash of its text.
//!
//! A check with the cache first asks the record: when every card file
//! still gives the cards it gave (same stamp; or same text; or, re-read and
//! re-validated, the very same cards), and no deck or translation file
//! changed, the game's verdict cannot have changed, and the check repeats
//! it without linking the pool, compiling the rules or judging a deck.
//! When cards or decks changed, the game is compiled from what the record
//! still vouches for (see [`super::prior`]): the cards of unchanged files
//! from the pool, and the verdict of each deck nothing it reads changed
//! for. Without a record it can build upon, the game is compiled as usual
//! (from the per-file cache). Either compile writes a new record.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::added;
use super::changes::{self, Scan};
use super::kept::{Kept, id_hash, kept, restore};
use super::prior::{DeckMark, Prior, Verdicts};
use super::record::{
    Art, CollectionMark, Record, art_of, art_values, hashes, packed_hashes, pointed_files,
    record_key, same_art, same_texts,
};
use super::renamed::{self, EditorSchemas};
use super::{Decks, Game, Head, Keep, finish, prepare};
use crate::diag::{Diagnostics, FileId};
use crate::i18n::{Coverage, phrases};
use crate::load::{
    CheckCache, Framed, Listing, LoadError, Mark, Pool, Workspace, hash_text, payload_of,
    read_record,
};
use crate::validate::RawCard;

/// A game as `carta check` saw it.
#[derive(Debug)]
pub enum Checked {
    /// Compiled by this check (boxed: a game is large, a recalled one small).
    Compiled(Box<Game>, Option<Draft>),
    /// Unchanged since the check that left its record: its verdict repeated.
    Recalled(Recalled),
}

impl Checked {
    /// The game's id.
    pub fn id(&self) -> &str {
        match self {
            Checked::Compiled(g, _) => g.id(),
            Checked::Recalled(r) => &r.id,
        }
    }

    /// How many cards the game has.
    pub fn cards(&self) -> usize {
        match self {
            Checked::Compiled(g, _) => g.pool.len(),
            Checked::Recalled(r) => r.cards,
        }
    }

    /// How many card files came from the check cache.
    pub fn reused_files(&self) -> usize {
        match self {
            Checked::Compiled(g, _) => g.reused_files,
            Checked::Recalled(r) => r.reused_files,
        }
    }

    /// How much each declared language covers (`None`: not checked).
    pub fn coverage(&self) -> Option<&[Coverage]> {
        match self {
            Checked::Compiled(g, _) => g.i18n.coverage.as_deref(),
            Checked::Recalled(r) => r.coverage.as_deref(),
        }
    }
}

/// What the record of an unchanged game says.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recalled {
    /// The game's id.
    pub id: String,
    /// How many cards it has.
    pub cards: usize,
    /// How many card files were taken unchanged.
    pub reused_files: usize,
    /// Its translations' coverage, as last checked.
    pub coverage: Option<Vec<Coverage>>,
    /// What the check answered from the record besides an unchanged game.
    /// Said by this check alone: a replay repeats none.
    #[serde(skip)]
    pub answered: Option<Answered>,
}

/// An edit the record answered without a compile.
#[derive(Debug, Clone, Copy)]
pub enum Answered {
    /// Cards renamed (see [`super::renamed`]): how many, and how many decks
    /// were judged again.
    Renamed(usize, usize),
    /// Card files added or deleted (see [`super::added`]): how many of each.
    Filed(usize, usize),
}

/// What a check that compiled a game gathered for its record.
#[derive(Debug)]
pub struct Draft {
    pub(super) cache: CheckCache,
    /// Each card file and its cache entry's mark (`None`: not cached).
    pub(super) cards: Vec<(String, Option<Mark>)>,
    /// Each deck file, the mark of its text and the ids it names.
    pub(super) decks: Vec<DeckMark>,
    /// Whether the decks were judged over a pool without errors.
    pub(super) trusted: bool,
    /// The pool the compile started from, if it read one.
    pub(super) pool: Option<Box<Pool>>,
    /// The player's collection of the game, as read.
    pub(super) collection: CollectionMark,
    /// Which of the check's diagnostics are the game's.
    pub(super) diagnostics: Range<usize>,
    /// The files the game registered after its schemas, by id.
    pub(super) files: Range<usize>,
}

impl Draft {
    /// How many card files the game has (each one unchanged when its
    /// verdict is repeated).
    pub fn card_files(&self) -> usize {
        self.cards.len()
    }
}

/// Checks the named games (all when `games` is empty) with their decks, as
/// `carta check` does: with `cached`, through the check cache, repeating
/// the verdict of a game whose record vouches that nothing it depends on
/// changed and whose editor schemas `editor` finds still carrying the keys
/// recorded, and answering a rename or card files that came or went from
/// the record (see [`super::renamed`], [`super::added`]; the deck schema
/// `editor` patches).
///
/// # Errors
/// When the workspace or a file cannot be read, or a named game does not exist.
pub fn check_all(
    ws: &mut Workspace,
    games: &[String],
    cached: bool,
    diags: &mut Diagnostics,
    editor: &dyn EditorSchemas,
) -> Result<Vec<Checked>, LoadError> {
    let keep = if cached {
        Keep::RulesCached
    } else {
        Keep::Rules
    };
    let mut out = Vec::new();
    for id in ws.select_games(games)? {
        // The record is read beside the manifest and the schemas, which
        // tell the key it must carry.
        let root = ws.root().to_path_buf();
        let (head, read) = rayon::join(
            || prepare(ws, &id, keep, diags),
            || cached.then(|| read_record::<Record>(&root, &id)).flatten(),
        );
        let Some(head) = head? else {
            continue;
        };
        let prior = match recall(ws, &head, diags, editor, read)? {
            Answer::Recalled(recalled) => {
                out.push(Checked::Recalled(recalled));
                continue;
            }
            Answer::Prior(prior) => Some(prior),
            Answer::Compile => None,
        };
        let (game, draft) = finish(ws, head, Decks::Players, keep, diags, prior)?;
        out.push(Checked::Compiled(Box::new(game), draft));
    }
    Ok(out)
}

/// Writes the record of a game this check compiled, with its editor
/// schemas' `keys`; forgets the old one when the check leaves nothing to
/// vouch for (a card file with problems is never cached). Says whether it
/// wrote one.
pub fn remember(
    ws: &Workspace,
    game: &Game,
    draft: &Draft,
    diags: &Diagnostics,
    keys: Vec<String>,
) -> bool {
    let cache = &draft.cache;
    let first_card_file = draft.files.start;
    let Some(record) = record_of(ws, game, draft, diags, keys) else {
        cache.drop_record();
        return false;
    };
    cache.put_record(record_key(ws), &record);
    let cards = (&record.cards[..], first_card_file);
    write_pool(ws, cache, game, cards, draft.pool.as_deref());
    true
}

/// The record of `game` as `draft` gathered it, with its editor schemas'
/// `keys`; `None` when it has inputs the record cannot vouch for (art, a
/// card or deck file that is not cached, a translation or template
/// listing refused).
fn record_of(
    ws: &Workspace,
    game: &Game,
    draft: &Draft,
    diags: &Diagnostics,
    keys: Vec<String>,
) -> Option<Record> {
    let of_file = of_files(game, draft.files.start, draft.cards.len())?;
    let art = art_files(ws, game, &of_file)?;
    let ids: Vec<FileId> = draft.files.clone().map(file_id).collect();
    let texts = read_texts(ws, game.id(), &ids)?;
    let diagnostics: Vec<Kept> = diags
        .reported(draft.diagnostics.clone())
        .iter()
        .map(|d| kept(ws, d))
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
    let (layout, card_ids) = layout(&of_file)?;
    let (decks, names) = draft
        .decks
        .iter()
        .map(|d| {
            Some((
                (d.rel.clone(), d.mark?),
                packed_hashes(d.names.iter().copied()),
            ))
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .unzip();
    Some(Record {
        cards: draft
            .cards
            .iter()
            .map(|(rel, m)| Some((rel.clone(), (*m)?)))
            .collect::<Option<_>>()?,
        decks,
        names,
        trusted: draft.trusted,
        collection: draft.collection,
        translations: ws.list_quietly(game.id(), Listing::Translations).ok()??,
        templates: phrases::template_names(ws, game.id()).ok()?,
        texts,
        files,
        total: game.pool.len(),
        coverage: game.i18n.coverage.clone(),
        editor: keys,
        diagnostics,
        layout,
        ids: card_ids,
        art,
    })
}

/// Per card file: how many cards and their digest; its cards' id hashes.
type Layout = (Vec<(u32, u64)>, Vec<serde_bytes::ByteBuf>);

/// Per card file (`of_file`, the cards of each): how many cards it has
/// and their digest, and its cards' id hashes (see [`Record::layout`],
/// [`Record::ids`]).
fn layout(of_file: &[Vec<&RawCard>]) -> Option<Layout> {
    let mut layout = Vec::with_capacity(of_file.len());
    let mut ids = Vec::with_capacity(of_file.len());
    for cards in of_file {
        let n = u32::try_from(cards.len()).ok()?;
        layout.push((n, super::renamed::digest(cards.iter().copied())));
        ids.push(packed_hashes(cards.iter().map(|c| id_hash(&c.id))));
    }
    Some((layout, ids))
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

/// Writes the game's pool beside its record: each card file's payload
/// (`cards`, whose files the compile registered in order from
/// `first`), taken from the pool it read (`old`) where that one holds it,
/// else made from the game's cards of the file. Nothing is written when
/// the old pool lacks only a few payloads.
fn write_pool(
    ws: &Workspace,
    cache: &CheckCache,
    game: &Game,
    (cards, first): (&[(String, Mark)], usize),
    old: Option<&Pool>,
) {
    // A pool a few files behind still serves the rest (those few come from
    // their entries): it is written again only when more lag.
    if let Some(old) = old {
        let behind = cards.iter().filter(|(rel, m)| !old.holds(rel, m.payload));
        if few(behind.count(), cards.len()) {
            return;
        }
    }
    let mut of_file: HashMap<FileId, Vec<&RawCard>> = HashMap::new();
    for c in game.pool.iter() {
        of_file.entry(c.file).or_default().push(c);
    }
    let mut payloads: Vec<(&str, std::borrow::Cow<'_, [u8]>)> = Vec::with_capacity(cards.len());
    for (i, (rel, mark)) in cards.iter().enumerate() {
        if let Some(p) = old.and_then(|p| p.payload(rel, mark.payload)) {
            payloads.push((rel, p.into()));
            continue;
        }
        let kept = of_file.remove(&file_id(first + i)).unwrap_or_default();
        // The cards a compile linked are those the file's entry holds,
        // unless the link dropped one (an id defined twice).
        if let Some((bytes, hash)) = payload_of(&kept)
            && hash == mark.payload
        {
            payloads.push((rel, bytes.into()));
        }
    }
    let files = payloads.iter().map(|(rel, p)| (*rel, &**p));
    cache.put_pool(record_key(ws), files);
}

/// Whether `behind` files of `of` are few enough for what the cache keeps
/// of them (a record's marks, a pool's payloads) not to be written again:
/// each one lagging costs the next check a read of its own entry.
fn few(behind: usize, of: usize) -> bool {
    behind <= (of / 16).max(8)
}

/// How many of `now`'s files `then` does not give the same mark (or lacks).
fn lagging(then: &[(String, Mark)], now: &[(String, Mark)]) -> usize {
    let then: HashMap<&str, &Mark> = then.iter().map(|(rel, m)| (rel.as_str(), m)).collect();
    now.iter()
        .filter(|(rel, m)| then.get(rel.as_str()) != Some(&m))
        .count()
}

/// Per card file (`of_file`, the cards of each) of `game`: the art files
/// its cards show, with their stamps (see [`Record::art`]); `None` when
/// one cannot be stamped ([`art_of`]).
fn art_files(ws: &Workspace, game: &Game, of_file: &[Vec<&RawCard>]) -> Option<Vec<Art>> {
    let (m, schemas) = (&game.manifest.manifest, &game.schemas);
    of_file
        .iter()
        .map(|cards| art_of(ws, m, &art_values(m, schemas, cards.iter().copied())))
        .collect()
}

/// The hash of the text of each translation file and template the game
/// read (among `ids`). A template read without a phrase was not kept; any
/// text of it still without a phrase checks the same, so it is read again
/// (`None`, no record, when it has gained one since).
fn read_texts(ws: &Workspace, game: &str, ids: &[FileId]) -> Option<Vec<(String, u64)>> {
    let i18n = format!("cards/{game}/i18n/");
    let templates = phrases::template_path(game, "");
    let mut out = Vec::new();
    for &id in ids {
        let f = ws.sources.get(id);
        if f.name.starts_with(&i18n) {
            out.push((f.name.clone(), hash_text(&f.text)));
        } else if f.name.starts_with(&templates) {
            let text = if ws.sources.unread().any(|u| u == id) {
                let bytes = ws.jail().read(&ws.root().join(&f.name)).ok()?;
                let text = String::from_utf8(bytes).ok()?;
                phrases::scan(&text).is_empty().then_some(text)?
            } else {
                f.text.to_string()
            };
            out.push((f.name.clone(), hash_text(&text)));
        }
    }
    Some(out)
}

fn file_id(i: usize) -> FileId {
    FileId(u32::try_from(i).expect("fewer than 2^32 files"))
}

/// What the record says of a game.
enum Answer {
    /// Nothing it depends on changed, or cards were renamed, or card
    /// files came or went, and nothing else (see [`super::renamed`],
    /// [`super::added`]): its verdict.
    Recalled(Recalled),
    /// Something changed: what a compile can take over.
    Prior(Prior),
    /// Nothing to build upon: compile it.
    Compile,
}

/// The game's verdict from its record (as `read` ahead), when the record
/// vouches for every input; else what a compile can take over from it (see
/// [`super::prior`]). Changes nothing in `ws` or `diags` unless it
/// recalls the verdict.
fn recall(
    ws: &mut Workspace,
    head: &Head,
    diags: &mut Diagnostics,
    editor: &dyn EditorSchemas,
    read: Option<Framed<Record>>,
) -> Result<Answer, LoadError> {
    let Some(cache) = &head.cache else {
        return Ok(Answer::Compile);
    };
    let game = head.manifest.manifest.id.as_str();
    let Some(mut record) = cache.record(read, record_key(ws)) else {
        return Ok(Answer::Compile);
    };
    let Some(scan) = changes::scan(ws, head, &record.cards)? else {
        return Ok(Answer::Compile);
    };
    let decks_before = record.decks.clone();
    // A picture changed or gone: the compile checks the art again.
    if !same_art(ws, &record) {
        return Ok(prior(ws, head, cache, record, scan).map_or(Answer::Compile, Answer::Prior));
    }
    if scan.answers(&pointed_files(&record))
        && editor.fresh(game, &record.editor)
        && same_texts(ws, game, &mut record)?
        && let Some(kept) = restore(ws, &record.files, &record.diagnostics)
    {
        diags.extend(kept);
        let marks = scan.marks();
        // Rewritten only when more than a few marks moved (an edit, a
        // touch): a file whose mark lags is read again by the next check
        // and answered by its cache entry, which costs less than writing
        // the whole record after each edit of one file.
        let lagging = lagging(&record.cards, &marks) + lagging(&decks_before, &record.decks);
        if !few(lagging, marks.len() + record.decks.len()) {
            record.cards = marks;
            cache.put_record(record_key(ws), &record);
        }
        return Ok(Answer::Recalled(recalled(game, record, scan.reused)));
    }
    let answered = match renamed::answer(ws, head, &mut record, &scan, editor) {
        Some((cards, decks)) => Some(Answered::Renamed(cards, decks)),
        None => added::answer(ws, head, &mut record, &scan, editor)
            .map(|(came, went)| Answered::Filed(came, went)),
    };
    if let Some(answered) = answered
        && let Some(kept) = restore(ws, &record.files, &record.diagnostics)
    {
        diags.extend(kept);
        let recalled = Recalled {
            answered: Some(answered),
            ..recalled(game, record, scan.reused)
        };
        return Ok(Answer::Recalled(recalled));
    }
    Ok(prior(ws, head, cache, record, scan).map_or(Answer::Compile, Answer::Prior))
}

/// Lets the allocator's memory be backed by transparent huge pages from
/// here on, where the system grants them on request (the binary's `main`
/// turns them off at start). A compile from the record decodes every card
/// of the pool at once: faulting that memory in 2 MiB at a time instead of
/// 4 KiB takes a fifth off a re-check after a name edit on 20,000 cards.
/// A run that compiles nothing (a repeated verdict, a number edit) would
/// only pay for clearing pages it barely touches, and a cold check or
/// build gains no time for a third more memory at its peak.
fn large_pages() {
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(false);
}

/// What a compile can take over from `record` after `scan`: the cards of
/// every file, and the deck verdicts (when they were judged by all their
/// rules); `None` when the cards of an unchanged file cannot be found.
fn prior(
    ws: &Workspace,
    head: &Head,
    cache: &CheckCache,
    record: Record,
    scan: Scan,
) -> Option<Prior> {
    large_pages();
    let pool = cache.get_pool(record_key(ws)).map(Box::new);
    let (reused, removed) = (scan.reused, !scan.removed.is_empty());
    let (files, changes) = changes::gather(head, scan, pool.as_deref())?;
    let verdicts = record.trusted.then(|| {
        let decks = record
            .decks
            .into_iter()
            .zip(record.names)
            .map(|((rel, mark), names)| (rel, mark, hashes(&names).collect()))
            .collect();
        Verdicts::new(
            &head.manifest.manifest.id,
            decks,
            &record.diagnostics,
            changes,
        )
    });
    Some(Prior {
        files,
        reused,
        removed,
        pool,
        verdicts,
    })
}

/// The verdict `record` gives of game `game`.
fn recalled(game: &str, record: Record, reused: usize) -> Recalled {
    Recalled {
        id: game.to_owned(),
        cards: record.total,
        reused_files: reused,
        coverage: record.coverage,
        answered: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::kept::KeptLabel;
    use super::*;

    fn record(message: &str, code: &str) -> Record {
        Record {
            cards: Vec::new(),
            decks: Vec::new(),
            names: Vec::new(),
            trusted: true,
            collection: None,
            translations: Vec::new(),
            templates: Vec::new(),
            texts: Vec::new(),
            files: vec!["cards/g/decks/a.toml".into()],
            total: 0,
            coverage: None,
            editor: Vec::new(),
            diagnostics: vec![Kept {
                severity: 1,
                code: code.into(),
                message: message.into(),
                primary: Some(KeptLabel {
                    file: "cards/g/decks/a.toml".into(),
                    start: 0,
                    end: 3,
                    message: "here".into(),
                }),
                labels: Vec::new(),
                help: None,
                elided: (0, 0),
            }],
            layout: Vec::new(),
            ids: Vec::new(),
            art: Vec::new(),
        }
    }

    #[test]
    fn a_recorded_diagnostic_is_placed_in_the_files_it_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("cards")).unwrap();
        let mut ws = Workspace::open(dir.path()).unwrap();
        let record = record("a deck", "deck::size");
        let placed = restore(&mut ws, &record.files, &record.diagnostics).unwrap();
        assert_eq!(placed[0].code, "deck::size");
        let primary = placed[0].primary.as_ref().unwrap();
        assert_eq!(ws.sources.get(primary.file).name, "cards/g/decks/a.toml");
    }

    #[test]
    fn a_crafted_record_is_refused_and_registers_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("cards")).unwrap();
        let mut ws = Workspace::open(dir.path()).unwrap();
        for crafted in [
            record("\u{1b}]0;owned\u{7}", "deck::size"),
            record("a deck", "deck::\u{1b}[2J"),
            record("a deck", &"x".repeat(65)),
        ] {
            assert!(restore(&mut ws, &crafted.files, &crafted.diagnostics).is_none());
            assert_eq!(ws.sources.len(), 0);
        }
        let mut backwards = record("a deck", "deck::size");
        let label = backwards.diagnostics[0].primary.as_mut().unwrap();
        (label.start, label.end) = (3, 0);
        assert!(restore(&mut ws, &backwards.files, &backwards.diagnostics).is_none());
    }
}
