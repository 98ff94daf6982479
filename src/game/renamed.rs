//! A rename answered without compiling the game. A card's name is read by
//! the deck rules that key by it (intrépidos: two `copies`, three
//! `distinct`) and by the deck schema's lines, and by nothing else when the
//! box rules do not read it and no translation file names the game's
//! cards. So when the only change since the record is that some cards were
//! renamed, the record answers for everything but the decks that name a
//! renamed card: those are judged again over a pool of just the cards they
//! name (the rules precompute each card on its own, and key a rename's
//! field by its exact text), the deck schema's changed lines are patched
//! in, and the record is written as a compile would write it — without
//! decoding, linking and compiling the rules over every card of the pool.
//!
//! Anything else — an id, kind, copy count, rule field or reference that
//! changed, a card file that came or went, a renamed card's file that a
//! recorded diagnostic points into, a deck rule keyed by a field of the
//! game's own (whose words could come from another card of the pool), a
//! deck with an unknown card, a deck schema the index cannot vouch for —
//! and the game is compiled from its record as before.

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasher, Hasher};

use super::Head;
use super::changes::Scan;
use super::decks::named;
use super::kept::{Kept, id_hash, kept_as, text_mark};
use super::record::{
    IdHashes, Record, hashes, packed_hashes, pointed_files, record_key, same_texts,
};
use crate::config::Manifest;
use crate::diag::{Diagnostics, FileId};
use crate::load::{Mark, Pool, Workspace, decode};
use crate::validate::{CardRef, GameSchemas, RESERVED, RawCard};

/// What a check asks of the editor schemas, which are a layer above the
/// game (`commands::check` answers through `editor`).
pub trait EditorSchemas: Sync {
    /// Whether game `game`'s editor schemas carry `keys` (card file, deck).
    fn fresh(&self, game: &str, keys: &[String]) -> bool;
    /// The kinds whose cards' ids and names the card-file schema lists.
    fn listed_kinds(&self, schemas: &GameSchemas) -> BTreeSet<String>;
    /// The key of game `manifest`'s deck schema over card files `files`
    /// (each card file with cards, in order: where its cards end in the
    /// pool, and their digest).
    fn deck_key(&self, manifest: &Manifest, files: &[(usize, u64)]) -> String;
    /// Patches game `manifest`'s deck schema, of key `key`, for the cards
    /// of `changed` card files (by position in `files`); whether it did
    /// (when not, it wrote nothing: the last one cannot be patched). The
    /// check's snapshot of the editor files is taken again after a patch.
    fn patch_deck_schema(
        &self,
        manifest: &Manifest,
        files: &[(usize, u64)],
        changed: &[(usize, CardLines<'_>)],
        key: &str,
    ) -> bool;
}

/// A card file's cards as the deck schema's lines read them: id, kind,
/// name.
pub type CardLines<'a> = Vec<(&'a str, &'a str, &'a str)>;

/// The digest of a card file's cards as the deck schema's lines read
/// them: each card's id, kind and name, each after its length (foldhash
/// with a fixed seed: the same digest in every run, cheaper than `SipHash`
/// on short strings).
#[derive(Clone)]
pub struct CardsDigest(foldhash::quality::FoldHasher<'static>);

impl Default for CardsDigest {
    fn default() -> Self {
        CardsDigest(foldhash::quality::FixedState::with_seed(0).build_hasher())
    }
}

impl CardsDigest {
    /// Adds a card.
    pub fn add(&mut self, id: &str, kind: &str, name: &str) {
        for part in [id, kind, name] {
            self.0.write_u64(part.len() as u64);
            self.0.write(part.as_bytes());
        }
    }

    /// The digest of the cards added.
    #[must_use]
    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// Answers `scan`'s changes from `record` when they are renames only (see
/// the module's docs): judges the decks that name a renamed card again,
/// patches the deck schema, and writes the record as a compile would.
/// When it answers, how many cards were renamed and decks judged again.
/// When it does not (the record may then hold new deck verdicts, which
/// the compile it falls back to writes again), the deck schema may still
/// have been written, as the cards now are (`editor` knows).
pub(super) fn answer(
    ws: &Workspace,
    head: &Head,
    record: &mut Record,
    scan: &Scan,
    editor: &dyn EditorSchemas,
) -> Option<(usize, usize)> {
    let m = &head.manifest.manifest;
    if !answerable(record, m)
        || !scan.removed.is_empty()
        || scan.files.len() != record.cards.len()
        || !scan
            .files
            .iter()
            .zip(&record.cards)
            .all(|(f, (rel, _))| f.rel == *rel)
    {
        return None;
    }
    let Renames {
        files: renamed,
        ids,
        kinds,
    } = renamed(record, scan)?;
    // The card-file schema lists the ids and names of some kinds' cards.
    let listed = editor.listed_kinds(&head.schemas);
    if kinds.iter().any(|k| listed.contains(*k)) {
        return None;
    }
    if !editor.fresh(&m.id, &record.editor) {
        return None;
    }
    let mut layout = record.layout.clone();
    for &i in &renamed {
        layout[i].1 = digest(scan.files[i].fresh.iter().flatten());
    }
    let lines = schema_lines(&layout, scan, &renamed);
    beside_deck_schema(ws, head, editor, &lines, record, |record| {
        // Found beside the patch: every hash every deck names, looked up.
        let judged: Vec<usize> = (0..record.decks.len())
            .filter(|&j| hashes(&record.names[j]).any(|h| ids.contains(&h)))
            .collect();
        let verdicts = judge(ws, head, record, scan, &judged)?;
        let count = (ids.len(), judged.len());
        settle(record, m, judged.into_iter().zip(verdicts));
        record.layout = layout;
        record.cards = scan.marks();
        Some(count)
    })
}

/// Whether `record` (of game `m`) holds all that an answer without a
/// compile reads: decks judged over a pool without errors, no translation
/// file (which names every card), the card files' layout and ids, the
/// editor schemas' keys, and rules that read a card's name only as its own
/// text ([`rules_read_names_alone`]).
pub(super) fn answerable(record: &Record, m: &Manifest) -> bool {
    let files = record.cards.len();
    record.trusted
        && record.translations.is_empty()
        && record.layout.len() == files
        && record.ids.len() == files
        && record.art.len() == files
        && record.names.len() == record.decks.len()
        && record.editor.len() == 2
        && rules_read_names_alone(m)
}

/// Writes the deck schema's `lines` (see [`schema_lines`]) as a patch of
/// the last one, and beside it (the schema is 3.8 MB at 20,000 cards; the
/// rest does not read it), when no deck or translation file changed,
/// brings `record` up to date with `update` and the schema's key, and
/// writes it. What `update` answers, when the schema was written too.
///
/// The schema is written before the deck and translation files are
/// known to be unchanged: it holds the cards' lines alone, as the scan
/// found the cards, and is the one a compile writes. When the record
/// cannot answer, that compile finds it written and leaves it.
pub(super) fn beside_deck_schema<T: Send>(
    ws: &Workspace,
    head: &Head,
    editor: &dyn EditorSchemas,
    (files, changed): &SchemaLines<'_>,
    record: &mut Record,
    update: impl FnOnce(&mut Record) -> Option<T> + Send,
) -> Option<T> {
    let m = &head.manifest.manifest;
    let key = editor.deck_key(m, files);
    let patch = || editor.patch_deck_schema(m, files, changed, &key);
    let judge = || {
        if !same_texts(ws, &m.id, record).unwrap_or(false) {
            // A listing that failed is met again by the compile, which
            // reports it.
            return None;
        }
        let answered = update(record)?;
        record.editor[1].clone_from(&key);
        // Written before the schema is known to be: a record whose deck
        // schema is not the one it names is not answered by (the schema's
        // key differs), and the compile this then falls back to writes it
        // again.
        if let Some(cache) = &head.cache {
            cache.put_record(record_key(ws), &*record);
        }
        Some(answered)
    };
    // The judging on a thread of its own and the patch, the longer of the
    // two, here at once: the spawned thread starts 0.1-0.4 ms late (and as
    // a rayon job, one of the two sometimes waited up to 2 ms for a
    // sleeping worker to take it). The judging is taken from its slot by
    // whichever runs it: the thread, or here when none can be made.
    let slot = std::sync::Mutex::new(Some(judge));
    let judge = || {
        let taken = slot.lock().ok()?.take();
        taken.and_then(|judge| judge())
    };
    let (wrote_schema, answered) =
        std::thread::scope(
            |s| match std::thread::Builder::new().spawn_scoped(s, judge) {
                Ok(judging) => {
                    let wrote = patch();
                    let answered = judging
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                    (wrote, answered)
                }
                Err(_) => (patch(), judge()),
            },
        );
    answered.filter(|_| wrote_schema)
}

/// The verdicts of decks judged again (by position) put in `record` (of
/// game `m`): their marks, the ids they name, their diagnostics.
fn settle(record: &mut Record, m: &Manifest, verdicts: impl Iterator<Item = (usize, Verdict)>) {
    // Where a compile reports a file's diagnostics, from the decks on.
    let mut order: HashMap<String, usize> = record
        .decks
        .iter()
        .enumerate()
        .map(|(j, (rel, _))| (rel.clone(), j))
        .collect();
    order.insert(crate::collection::path_of(&m.id), usize::MAX);
    for (j, (mark, names, kept)) in verdicts {
        record.decks[j].1 = mark;
        record.names[j] = packed_hashes(names);
        place(record, &order, j, kept);
    }
}

/// The deck schema's lines: each card file with cards (where its cards
/// end in the pool, their digest), and the changed files' cards by
/// position among those.
pub(super) type SchemaLines<'s> = (Vec<(usize, u64)>, Vec<(usize, CardLines<'s>)>);

/// The deck schema's lines over `layout` (per card file of `scan`: how
/// many cards, their digest), the cards of the `changed` files (by
/// position) as the scan read them.
pub(super) fn schema_lines<'s>(
    layout: &[(u32, u64)],
    scan: &'s Scan,
    changed: &[usize],
) -> SchemaLines<'s> {
    let mut with_cards = Vec::new();
    let mut lines = Vec::new();
    let mut end = 0;
    for (i, &(n, digest)) in layout.iter().enumerate() {
        if n == 0 {
            continue;
        }
        end += n as usize;
        if changed.contains(&i) {
            let cards = scan.files[i].fresh.iter().flatten();
            let cards = cards.map(|c| (c.id.as_str(), c.kind.as_str(), c.name.as_str()));
            lines.push((with_cards.len(), cards.collect()));
        }
        with_cards.push((end, digest));
    }
    (with_cards, lines)
}

/// The digest of `cards` as the deck schema's lines read them.
pub(super) fn digest<'c>(cards: impl Iterator<Item = &'c RawCard>) -> u64 {
    let mut digest = CardsDigest::default();
    for c in cards {
        digest.add(&c.id, &c.kind, &c.name);
    }
    digest.finish()
}

/// Whether the game's rules read a card's name only as its own text: the
/// box rules not at all (a rename leaves the box's verdict as it was), and
/// the deck rules key and count by reserved fields only, whose words are
/// a card's own (a key of another field is worded by the first card of
/// the pool that has it, which a pool of a few cards may not hold).
fn rules_read_names_alone(m: &Manifest) -> bool {
    let mut boxed = BTreeSet::new();
    m.box_rules.iter().for_each(|r| r.fields(&mut boxed));
    let mut decks = BTreeSet::new();
    let formats = m.formats.values().flat_map(|f| &f.deck_rules);
    m.deck_rules
        .iter()
        .chain(formats)
        .for_each(|r| r.fields(&mut decks));
    !boxed.contains("name") && decks.iter().all(|f| RESERVED.contains(&f.as_str()))
}

/// What a scan found renamed.
struct Renames<'s> {
    /// The card files (by position) whose cards were renamed.
    files: Vec<usize>,
    /// The id hashes of the cards renamed.
    ids: IdHashes,
    /// Their kinds.
    kinds: BTreeSet<&'s str>,
}

/// What `scan` found renamed, when cards were renamed and nothing else
/// changed; `None` otherwise, or when a renamed card's file is one a
/// recorded diagnostic points into.
fn renamed<'s>(record: &Record, scan: &'s Scan) -> Option<Renames<'s>> {
    let pointed = pointed_files(record);
    let mut out = Renames {
        files: Vec::new(),
        ids: IdHashes::default(),
        kinds: BTreeSet::new(),
    };
    for (i, f) in scan.files.iter().enumerate() {
        let Some(fresh) = &f.fresh else { continue };
        let old = f.old.as_ref()?;
        if f.before.is_none() || pointed.contains(&f.rel) || old.len() != fresh.len() {
            return None;
        }
        let mut any = false;
        for (o, n) in old.iter().zip(fresh) {
            if !same_but_name(o, n) {
                return None;
            }
            if o.name != n.name {
                out.ids.insert(id_hash(&n.id));
                out.kinds.insert(&n.kind);
                any = true;
            }
        }
        if any {
            out.files.push(i);
        }
    }
    (!out.files.is_empty()).then_some(out)
}

/// Whether cards `a` and `b` differ in nothing a verdict reads but their
/// names: what `cards::shape` hashes, the name aside (the two change
/// together).
fn same_but_name(a: &RawCard, b: &RawCard) -> bool {
    let same_ref = |(x, y): (&CardRef, &CardRef)| {
        x.target == y.target && x.kinds == y.kinds && x.field == y.field
    };
    a.id == b.id
        && a.kind == b.kind
        && a.copies == b.copies
        && a.fields == b.fields
        && a.packed.is_none()
        && b.packed.is_none()
        && a.refs.len() == b.refs.len()
        && a.refs.iter().zip(&b.refs).all(same_ref)
}

/// A deck's verdict judged again: its mark, the ids it names, its
/// diagnostics as the record keeps them.
type Verdict = (Mark, Vec<u32>, Vec<Kept>);

/// Decks `judged` (by position in the record), read and judged again over
/// a pool of the cards they name; `None` when one cannot be read, is for
/// another game, names a card that is not there, or has a diagnostic
/// pointing elsewhere than into it and the manifest.
fn judge(
    ws: &Workspace,
    head: &Head,
    record: &Record,
    scan: &Scan,
    judged: &[usize],
) -> Option<Vec<Verdict>> {
    if judged.is_empty() {
        return Some(Vec::new());
    }
    let m = &head.manifest.manifest;
    let wanted: IdHashes = judged
        .iter()
        .flat_map(|&j| hashes(&record.names[j]))
        .collect();
    let cards = named_cards(ws, head, &record.ids, scan, &wanted)?;
    let mut scratch = Diagnostics::new();
    let pool = crate::link::link(cards, &mut scratch);
    let rules = crate::rules::compile(&head.manifest, &pool, &head.schemas, &mut scratch);
    let manifest = (head.manifest.file, format!("cards/{}/game.toml", m.id));
    let mut out = Vec::with_capacity(judged.len());
    for (k, &j) in judged.iter().enumerate() {
        let rel = &record.decks[j].0;
        let path = ws.root().join(rel);
        let stamp = ws.jail().stamp(&path);
        let text = String::from_utf8(ws.jail().read(&path).ok()?).ok()?;
        let file = FileId(u32::MAX - 1 - u32::try_from(k).ok()?);
        let mut found = Vec::new();
        let deck = crate::deck::parse(file, &text, &mut found)?;
        if deck.game != m.id {
            return None;
        }
        crate::deck::judge(&deck, &head.manifest, &pool, &rules, &mut found);
        if found.iter().any(|d| d.code == "deck::unknown-card") {
            return None;
        }
        let name_of = |f: FileId| {
            if f == file {
                Some(rel.clone())
            } else {
                (f == manifest.0).then(|| manifest.1.clone())
            }
        };
        let kept = found
            .iter()
            .map(|d| kept_as(d, &name_of))
            .collect::<Option<Vec<_>>>()?;
        out.push((text_mark(&text, stamp), named(&deck), kept));
    }
    Some(out)
}

/// The cards of every card file of `scan` whose id hashes (`ids`, per
/// file of the scan, as [`Record::ids`]) hold one in `wanted`, in pool
/// order: the changed files' as the scan found them, the others' from
/// their entries or the pool.
pub(super) fn named_cards(
    ws: &Workspace,
    head: &Head,
    ids: &[serde_bytes::ByteBuf],
    scan: &Scan,
    wanted: &IdHashes,
) -> Option<Vec<RawCard>> {
    let cache = head.cache.as_ref()?;
    let mut stored: Option<Option<Pool>> = None;
    let mut cards = Vec::new();
    for (i, f) in scan.files.iter().enumerate() {
        if !ids
            .get(i)
            .is_some_and(|ids| hashes(ids).any(|h| wanted.contains(&h)))
        {
            continue;
        }
        let mut of_file: Vec<RawCard> = match &f.fresh {
            Some(fresh) => fresh.clone(),
            None => match cache.get::<Vec<RawCard>>(&f.rel, f.mark.content) {
                Some((found, entry)) if entry.payload == f.mark.payload => found,
                _ => {
                    let stored = stored.get_or_insert_with(|| cache.get_pool(record_key(ws)));
                    decode(stored.as_ref()?.payload(&f.rel, f.mark.payload)?)?
                }
            },
        };
        // No deck diagnostic points into a card file.
        for c in &mut of_file {
            c.file = FileId(u32::MAX);
        }
        cards.append(&mut of_file);
    }
    Some(cards)
}

/// Puts deck `j`'s diagnostics `kept` in `record` where a compile reports
/// them: in place of the deck's old ones, after those of the decks before
/// it and before those of the decks after it and of the player's
/// collection (`order`: where each of those files comes); and the deck
/// among the files the diagnostics point into (in the order a compile
/// registers them) when it has any.
fn place(record: &mut Record, order: &HashMap<String, usize>, j: usize, kept: Vec<Kept>) {
    let rel = record.decks[j].0.clone();
    let after = |file: &str| order.get(file).is_some_and(|&at| at > j);
    record
        .diagnostics
        .retain(|k| primary(k) != Some(rel.as_str()));
    let at = record
        .diagnostics
        .iter()
        .position(|k| primary(k).is_some_and(after))
        .unwrap_or(record.diagnostics.len());
    let has = !kept.is_empty();
    record.diagnostics.splice(at..at, kept);
    record.files.retain(|f| *f != rel);
    if has {
        let at = record
            .files
            .iter()
            .position(|f| after(f))
            .unwrap_or(record.files.len());
        record.files.insert(at, rel);
    }
}

/// The file a kept diagnostic is placed in.
fn primary(k: &Kept) -> Option<&str> {
    k.primary.as_ref().map(|p| p.file.as_str())
}
