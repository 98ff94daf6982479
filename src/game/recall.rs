//! The record of a game's last check: what `carta check` concluded (its
//! diagnostics, its counts, the keys of its editor schemas) and every input
//! it concluded it from — each card file with the mark of its cache entry,
//! each deck and translation file with its stamp and the hash of its text.
//!
//! A check with the cache first asks the record: when every card file
//! still gives the cards it gave (same stamp; or same text; or, re-read and
//! re-validated, the very same cards), and no deck or translation file
//! changed, the game's verdict cannot have changed, and the check repeats
//! it without linking the pool, compiling the rules or judging a deck. Any
//! difference, or anything the record cannot vouch for, and the game is
//! compiled as usual (from the per-file cache), which writes a new record.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::cards::check_card_text;
use super::{Decks, Game, Head, Keep, finish, prepare};
use crate::diag::{Diagnostic, Diagnostics, Elided, FileId, Label, Severity};
use crate::i18n::{Coverage, phrases};
use crate::load::{
    CheckCache, Listing, LoadError, Mark, Stamp, Workspace, hash_text, settled_stamp,
};

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
#[derive(Debug)]
pub struct Recalled {
    /// The game's id.
    pub id: String,
    /// How many cards it has.
    pub cards: usize,
    /// How many card files were taken unchanged.
    pub reused_files: usize,
    /// Its translations' coverage, as last checked.
    pub coverage: Option<Vec<Coverage>>,
}

/// What a check that compiled a game gathered for its record.
#[derive(Debug)]
pub struct Draft {
    pub(super) cache: CheckCache,
    /// Each card file and its cache entry's mark (`None`: not cached).
    pub(super) cards: Vec<(String, Option<Mark>)>,
    /// Each deck file and the mark of its text.
    pub(super) decks: Vec<(String, Option<Mark>)>,
    /// The player's collection of the game, as read.
    pub(super) collection: CollectionMark,
    /// Which of the check's diagnostics are the game's.
    pub(super) diagnostics: Range<usize>,
    /// The files the game registered after its schemas, by id.
    pub(super) files: Range<usize>,
}

/// The record, as stored (`MessagePack`, in the check cache).
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    cards: Vec<(String, Mark)>,
    decks: Vec<(String, Mark)>,
    /// The player's collection (`decks/<game>/collection.toml`), as read.
    collection: CollectionMark,
    /// The translation files and the templates present, and the hash of
    /// the text of each one the check read.
    translations: Vec<String>,
    templates: Vec<String>,
    texts: Vec<(String, u64)>,
    /// Every file the compiled game registered, in order.
    files: Vec<String>,
    total: usize,
    /// Per language: translated cards, cards, translated phrases, phrases.
    coverage: Option<Vec<(String, [usize; 6])>>,
    editor: Vec<String>,
    diagnostics: Vec<Kept>,
}

/// A diagnostic as the record keeps it: files by path.
#[derive(Debug, Serialize, Deserialize)]
struct Kept {
    severity: u8,
    code: String,
    message: String,
    primary: Option<KeptLabel>,
    labels: Vec<KeptLabel>,
    help: Option<String>,
    /// A placeholder's count and errors (see `diag::cap`).
    elided: (usize, usize),
}

#[derive(Debug, Serialize, Deserialize)]
struct KeptLabel {
    file: String,
    start: usize,
    end: usize,
    message: String,
}

/// What a check read of a game's collection, for its record: `None` when
/// the game has none; else the hash of its text, `None` when it could not
/// be read as text.
pub(super) type CollectionMark = Option<Option<u64>>;

/// The mark of a deck or translation file: its stamp and text.
pub(super) fn text_mark(text: &str, stamp: Option<Stamp>) -> Mark {
    Mark {
        stamp: settled_stamp(stamp),
        content: hash_text(text),
        payload: 0,
        shape: 0,
    }
}

/// Checks the named games (all when `games` is empty) with their decks, as
/// `carta check` does: with `cached`, through the check cache, repeating
/// the verdict of a game whose record vouches that nothing it depends on
/// changed and whose editor schemas `fresh` finds still carrying the keys
/// recorded (game id, keys).
///
/// # Errors
/// When the workspace or a file cannot be read, or a named game does not exist.
pub fn check_all(
    ws: &mut Workspace,
    games: &[String],
    cached: bool,
    diags: &mut Diagnostics,
    fresh: &dyn Fn(&str, &[String]) -> bool,
) -> Result<Vec<Checked>, LoadError> {
    let keep = if cached {
        Keep::RulesCached
    } else {
        Keep::Rules
    };
    let mut out = Vec::new();
    for id in ws.select_games(games)? {
        let Some(head) = prepare(ws, &id, keep, diags)? else {
            continue;
        };
        if let Some(recalled) = recall(ws, &head, diags, fresh)? {
            out.push(Checked::Recalled(recalled));
            continue;
        }
        let (game, draft) = finish(ws, head, Decks::Players, keep, diags)?;
        out.push(Checked::Compiled(Box::new(game), draft));
    }
    Ok(out)
}

/// What the record vouches for, limits included (a lower size limit
/// could refuse a file read last time).
fn record_key(ws: &Workspace) -> u64 {
    hash_text(&format!("{:?}", ws.limits()))
}

/// Writes the record of a game this check compiled, with its editor
/// schemas' `keys`; forgets the old one when the check leaves nothing to
/// vouch for (a card file with problems is never cached).
pub fn remember(ws: &Workspace, game: &Game, draft: Draft, diags: &Diagnostics, keys: Vec<String>) {
    let Draft {
        cache,
        cards,
        decks,
        collection,
        diagnostics,
        files,
    } = draft;
    let marked = |list: Vec<(String, Option<Mark>)>| -> Option<Vec<(String, Mark)>> {
        list.into_iter().map(|(rel, m)| Some((rel, m?))).collect()
    };
    let record = (|| {
        // Art files are inputs the record does not stamp: a game with art
        // is checked again each time (from the per-file cache).
        if has_art(game) {
            return None;
        }
        let ids: Vec<FileId> = files.map(file_id).collect();
        let texts = read_texts(ws, game.id(), &ids)?;
        Some(Record {
            cards: marked(cards)?,
            decks: marked(decks)?,
            collection,
            translations: ws.list_quietly(game.id(), Listing::Translations).ok()??,
            templates: phrases::template_names(ws, game.id()).ok()?,
            texts,
            files: ids
                .iter()
                .map(|&id| ws.sources.get(id).name.clone())
                .collect(),
            total: game.pool.len(),
            coverage: game.i18n.coverage.as_ref().map(|c| {
                c.iter()
                    .map(|c| {
                        let counts = [
                            c.translated,
                            c.total,
                            c.phrases,
                            c.phrases_total,
                            c.captions,
                            c.captions_total,
                        ];
                        (c.lang.clone(), counts)
                    })
                    .collect()
            }),
            editor: keys,
            diagnostics: diags
                .reported(diagnostics)
                .iter()
                .map(|d| kept(ws, d))
                .collect(),
        })
    })();
    match record {
        Some(record) => cache.put_record(record_key(ws), &record),
        None => cache.drop_record(),
    }
}

/// Whether some kind of `game` has art fields.
fn has_art(game: &Game) -> bool {
    let m = &game.manifest.manifest;
    m.kind_ids()
        .iter()
        .any(|k| !crate::art::art_fields(m, &game.schemas, k).is_empty())
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

fn kept(ws: &Workspace, d: &Diagnostic) -> Kept {
    let label = |l: &Label| KeptLabel {
        file: ws.sources.get(l.file).name.clone(),
        start: l.span.start,
        end: l.span.end,
        message: l.message.clone(),
    };
    Kept {
        severity: match d.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Advice => 2,
        },
        code: d.code.to_owned(),
        message: d.message.clone(),
        primary: d.primary.as_ref().map(label),
        labels: d.labels.iter().map(label).collect(),
        help: d.help.clone(),
        elided: (d.elided.count, d.elided.errors),
    }
}

/// The game's verdict from its record, when the record vouches for every
/// input; `None` (having changed nothing in `ws` or `diags`) otherwise.
fn recall(
    ws: &mut Workspace,
    head: &Head,
    diags: &mut Diagnostics,
    fresh: &dyn Fn(&str, &[String]) -> bool,
) -> Result<Option<Recalled>, LoadError> {
    let Some(cache) = &head.cache else {
        return Ok(None);
    };
    let game = head.manifest.manifest.id.as_str();
    let Some(mut record) = cache.get_record::<Record>(record_key(ws)) else {
        return Ok(None);
    };
    if !fresh(game, &record.editor) {
        return Ok(None);
    }
    let (cards_before, decks_before) = (record.cards.clone(), record.decks.clone());
    let pointed = pointed_files(&record);
    let Some(reused) = same_cards(ws, head, &pointed, &mut record.cards)? else {
        return Ok(None);
    };
    if !same_texts(ws, game, &mut record)? {
        return Ok(None);
    }
    let Some(kept) = restore(ws, &record) else {
        return Ok(None);
    };
    diags.extend(kept);
    // Rewritten only when a mark moved (an edit, a touch): a check that
    // found nothing new has nothing to remember.
    if record.cards != cards_before || record.decks != decks_before {
        cache.put_record(record_key(ws), &record);
    }
    Ok(Some(Recalled {
        id: game.to_owned(),
        cards: record.total,
        reused_files: reused,
        coverage: record.coverage.map(|c| {
            c.into_iter()
                .map(
                    |(
                        lang,
                        [
                            translated,
                            total,
                            phrases,
                            phrases_total,
                            captions,
                            captions_total,
                        ],
                    )| {
                        Coverage {
                            lang,
                            translated,
                            total,
                            phrases,
                            phrases_total,
                            captions,
                            captions_total,
                        }
                    },
                )
                .collect()
        }),
    }))
}

/// The files a recorded diagnostic points into: where the spans of the
/// cards matter to the verdict.
fn pointed_files(record: &Record) -> HashSet<String> {
    record
        .diagnostics
        .iter()
        .flat_map(|d| d.primary.iter().chain(&d.labels))
        .map(|l| l.file.clone())
        .collect()
}

/// Whether every card file still gives the cards the record marks (their
/// marks brought up to date); how many were taken unchanged. A file no
/// recorded diagnostic points into need only give cards of the same shape
/// ([`shape`]): where they are written does not reach the verdict.
fn same_cards(
    ws: &Workspace,
    head: &Head,
    pointed: &HashSet<String>,
    marks: &mut [(String, Mark)],
) -> Result<Option<usize>, LoadError> {
    let game = &head.manifest.manifest.id;
    let Some(files) = ws.list_quietly(game, Listing::Cards)? else {
        return Ok(None);
    };
    // A spreadsheet's diagnostics stand on its cells, which only a
    // compile maps: a game with one is compiled again.
    if !files.iter().eq(marks.iter().map(|(rel, _)| rel))
        || files
            .iter()
            .any(|rel| crate::load::sheet::extension(rel).is_some())
    {
        return Ok(None);
    }
    let mut reused = 0;
    for (rel, mark) in marks {
        let path = ws.root().join(&*rel);
        let stamp = ws.jail().stamp(&path);
        if stamp.is_some_and(|s| mark.same_stamp(s)) {
            reused += 1;
            continue;
        }
        let Ok(bytes) = ws.jail().read(&path) else {
            return Ok(None);
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            return Ok(None);
        };
        // Re-validated (or found by its text), it must give the same
        // cards, spans included when a diagnostic points into it.
        let (_, new, hit) = check_card_text(head, FileId(0), rel, text, stamp);
        match new {
            Some(new)
                if new.payload == mark.payload
                    || (new.shape == mark.shape && !pointed.contains(rel.as_str())) =>
            {
                *mark = new;
            }
            _ => return Ok(None),
        }
        reused += usize::from(hit);
    }
    Ok(Some(reused))
}

/// Whether no deck or translation file changed (the deck marks brought up
/// to date).
fn same_texts(ws: &Workspace, game: &str, record: &mut Record) -> Result<bool, LoadError> {
    let Some(decks) = ws.list_quietly(game, Listing::Decks)? else {
        return Ok(false);
    };
    if !decks.iter().eq(record.decks.iter().map(|(rel, _)| rel)) {
        return Ok(false);
    }
    for (rel, mark) in &mut record.decks {
        let path = ws.root().join(&*rel);
        let stamp = ws.jail().stamp(&path);
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
    Ok(record
        .texts
        .iter()
        .all(|(rel, content)| text_hash(ws, rel) == Some(*content)))
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

/// Registers the files the compiled game would have (unread: a
/// diagnostic's file is read back when it is shown) and returns the
/// recorded diagnostics placed in them; `None`, registering nothing, when
/// one cannot be placed.
fn restore(ws: &mut Workspace, record: &Record) -> Option<Vec<Diagnostic>> {
    let mut ids: HashMap<&str, FileId> = ws
        .sources
        .iter()
        .map(|(id, f)| (f.name.as_str(), id))
        .collect();
    let first = ws.sources.len();
    for (i, rel) in record.files.iter().enumerate() {
        ids.insert(rel, file_id(first + i));
    }
    // The record lies in the workspace: a crafted one must not put an
    // escape sequence on the terminal, nor a span that runs backwards.
    let clean = |s: &str| !s.chars().any(char::is_control);
    let label = |l: &KeptLabel| {
        if !clean(&l.message) || l.start > l.end {
            return None;
        }
        Some(Label {
            file: *ids.get(l.file.as_str())?,
            span: l.start..l.end,
            message: l.message.clone(),
        })
    };
    let mut out = Vec::with_capacity(record.diagnostics.len());
    for k in &record.diagnostics {
        if !clean(&k.message) || !k.help.as_deref().is_none_or(clean) {
            return None;
        }
        let primary = match &k.primary {
            Some(l) => Some(label(l)?),
            None => None,
        };
        out.push(Diagnostic {
            severity: [Severity::Error, Severity::Warning, Severity::Advice]
                .get(usize::from(k.severity))
                .copied()?,
            code: intern(&k.code)?,
            message: k.message.clone(),
            primary,
            labels: k.labels.iter().map(label).collect::<Option<_>>()?,
            help: k.help.clone(),
            elided: Elided {
                count: k.elided.0,
                errors: k.elided.1,
            },
        });
    }
    for rel in &record.files {
        ws.sources.add_unread(rel.clone());
    }
    Some(out)
}

/// A diagnostic's code is a `&'static str` (the codes carta writes); one
/// read back from a record is leaked once per distinct code and run, and a
/// record naming more, or longer, codes than carta has is not trusted.
fn intern(code: &str) -> Option<&'static str> {
    static CODES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut codes = CODES.lock().ok()?;
    if let Some(c) = codes.iter().find(|c| **c == code) {
        return Some(c);
    }
    if codes.len() >= 256 || code.len() > 64 || !code.chars().all(|c| c.is_ascii_graphic()) {
        return None;
    }
    let leaked: &'static str = Box::leak(code.to_owned().into_boxed_str());
    codes.push(leaked);
    Some(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(message: &str, code: &str) -> Record {
        Record {
            cards: Vec::new(),
            decks: Vec::new(),
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
        }
    }

    #[test]
    fn a_recorded_diagnostic_is_placed_in_the_files_it_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("cards")).unwrap();
        let mut ws = Workspace::open(dir.path()).unwrap();
        let placed = restore(&mut ws, &record("a deck", "deck::size")).unwrap();
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
            assert!(restore(&mut ws, &crafted).is_none());
            assert_eq!(ws.sources.len(), 0);
        }
        let mut backwards = record("a deck", "deck::size");
        let label = backwards.diagnostics[0].primary.as_mut().unwrap();
        (label.start, label.end) = (3, 0);
        assert!(restore(&mut ws, &backwards).is_none());
    }
}
