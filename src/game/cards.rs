//! A game's card files read and checked: each through the check cache when
//! it has an entry, a spreadsheet through its shadow, every other file by
//! the cheap reader or in full; and what a compile keeps of each card.

use std::collections::BTreeSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Head;
use crate::diag::{Diagnostics, FileId};
use crate::i18n;
use crate::load::{Entry, LoadError, Mark, Stamp, Workspace, hash_text};
use crate::validate::{
    self, Before, FileCards, GameSchemas, Known, LoadedManifest, PackedFields, RawCard, read_cards,
    read_edited,
};

/// The field names rules read, the art fields (checked at every compile)
/// and, in a game with a translation file to check, the fields that hold
/// translatable text: all a compile keeps of a card unpacked (a build keeps
/// every field packed besides). Then the text fields only a file's markup
/// check reads, kept while the file is read and dropped after.
pub(super) fn kept_fields(
    root: &Path,
    manifest: &LoadedManifest,
    schemas: &GameSchemas,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let m = &manifest.manifest;
    // A catalog that turns out unreadable only makes this keep more.
    let catalogs = m
        .translations
        .iter()
        .any(|lang| root.join(i18n::file_path(&m.id, lang)).exists());
    let mut fields = if catalogs {
        i18n::sources::translatable_fields(manifest, schemas)
    } else {
        BTreeSet::new()
    };
    m.all_rules().for_each(|r| r.fields(&mut fields));
    // Art is checked at every compile, so art paths are kept.
    let mut text = BTreeSet::new();
    for kind in m.kind_ids() {
        fields.extend(crate::art::art_fields(m, schemas, &kind));
        text.extend(crate::markup::text_fields(schemas, &kind));
    }
    let unkept = text.difference(&fields).cloned().collect();
    fields.extend(text);
    (fields, unkept)
}

/// The cards of a game's files, and how they were found.
pub(super) struct CardFiles {
    pub(super) cards: Vec<RawCard>,
    /// How many files came from the check cache.
    pub(super) reused: usize,
    /// Each card file and the mark of its cache entry (`None`: not cached).
    pub(super) marks: Vec<(String, Option<Mark>)>,
}

/// Reads, parses and validates every card file of the game, each as soon
/// as it is read, in parallel; with the check cache, unchanged files come
/// from it.
pub(super) fn read_card_files(
    ws: &mut Workspace,
    head: &Head,
    diags: &mut Diagnostics,
) -> Result<CardFiles, LoadError> {
    let game = head.manifest.manifest.id.clone();
    let card_files = ws.card_files(&game, diags)?;
    let cache = head.cache.as_ref();
    let reused = AtomicUsize::new(0);
    // An unchanged file (same stamp) is taken from the cache unread.
    let reuse = |file: FileId, rel: &str, stamp| {
        let (mut cards, mark) = cache?.get_stamped::<Vec<RawCard>>(rel, stamp)?;
        for c in &mut cards {
            c.file = file;
        }
        reused.fetch_add(1, Ordering::Relaxed);
        let found = FileCards {
            cards,
            ..FileCards::default()
        };
        Some((found, Some(mark)))
    };
    // A file's text stays in memory only when it has something to report:
    // what needs it later reads it again (`Workspace::text_of`, `restore`).
    let first = ws.sources.len();
    let types = validate::SheetTypes::new(&head.manifest, &head.schemas);
    let per_file = ws.read_cards_stamped(
        &card_files,
        &types,
        diags,
        reuse,
        |file, rel, text, stamp| {
            let entry = head.cache.as_ref().and_then(|c| c.entry(rel));
            let (found, mark, hit) = check_card_text(head, (file, rel, text), stamp, entry);
            if hit {
                reused.fetch_add(1, Ordering::Relaxed);
            }
            let report = !found.diagnostics.is_empty();
            ((found, mark), report)
        },
    )?;
    if let Some(cache) = cache {
        cache.prune(&card_files);
    }
    // Sized up front: 20,000 cards grown by doubling were copied twice
    // over and faulted in fresh pages, on the one thread left running.
    let total = per_file.iter().flatten().map(|(f, _)| f.cards.len()).sum();
    let mut out = CardFiles {
        cards: Vec::with_capacity(total),
        reused: reused.into_inner(),
        marks: Vec::with_capacity(card_files.len()),
    };
    for (i, (rel, f)) in card_files.into_iter().zip(per_file).enumerate() {
        let mark = f.as_ref().and_then(|(_, m)| *m);
        out.marks.push((rel, mark));
        if let Some((mut f, _)) = f {
            // A spreadsheet's column problems, found once per card, are
            // shown once per column.
            let id = FileId(u32::try_from(first + i).expect("fewer than 2^32 files"));
            if let Some(cells) = ws.sources.get(id).cells.clone() {
                crate::diag::fold_header_repeats(&mut f.diagnostics, id, &cells);
            }
            diags.extend(f.diagnostics);
            out.cards.extend(f.cards);
        }
    }
    Ok(out)
}

/// Checks the text of one card file, through the check cache when there
/// is one: its cards and diagnostics, the mark of its cache entry (`None`
/// when it is not cached: it has diagnostics, or there is no cache), and
/// whether it came from the cache. A file that changed validates only
/// the cards whose text its entry's memo does not know. `entry` is the
/// file's entry in the cache, as read by the caller.
pub(super) fn check_card_text(
    head: &Head,
    (file, rel, text): (FileId, &str, &str),
    stamp: Option<Stamp>,
    entry: Option<Entry>,
) -> (FileCards, Option<Mark>, bool) {
    let cache = head.cache.as_ref();
    let content = cache.map(|_| hash_text(text));
    let hit = cache.zip(entry.as_ref()).and_then(|(cache, entry)| {
        let content = content.filter(|c| *c == entry.mark.content)?;
        let cards: Vec<RawCard> = entry.decode()?;
        // Same text, new stamp (touched, checked out): remember the
        // stamp, so that next time the file is not read.
        let mark = cache.put(rel, content, stamp, (&cards, shape(&cards)), &entry.memo);
        Some((cards, mark))
    });
    if let Some((mut cards, mark)) = hit {
        for c in &mut cards {
            c.file = file;
        }
        let found = FileCards {
            cards,
            ..FileCards::default()
        };
        return (found, mark, true);
    }
    let mut found = if crate::load::sheet::is_card_sheet(rel) {
        read_shadow(head, file, text)
    } else {
        let read = (head.kinds.as_slice(), &head.schemas);
        let kept = (Some(&head.kept), head.pack);
        // An edit of one card reads that card: the others are the entry's.
        let edited = entry
            .as_ref()
            .and_then(before)
            .and_then(|before| read_edited(file, text, read, kept, &before));
        match edited {
            Some((cards, texts)) => FileCards {
                cards,
                texts,
                ..FileCards::default()
            },
            None => read_cards(
                file,
                text,
                read,
                kept,
                entry
                    .map(|e| e.memo.into_iter().collect::<Known>())
                    .as_ref(),
            ),
        }
    };
    let m = &head.manifest.manifest;
    let markup = crate::markup::check_file(m, &head.schemas, text, &found.cards);
    found.diagnostics.extend(markup);
    for card in &mut found.cards {
        card.fields.retain(|k, _| !head.unkept.contains(k));
    }
    let mark = match (cache, content) {
        (Some(cache), Some(content)) if found.diagnostics.is_empty() => {
            let kept = (&found.cards, shape(&found.cards));
            cache.put(rel, content, stamp, kept, &found.texts)
        }
        _ => None,
    };
    (found, mark, false)
}

/// The cards an entry keeps, by the hash of each one's text (its memo
/// holds one per card, in order, when every card validated); `None` when
/// it keeps none or they do not pair up.
fn before(entry: &Entry) -> Option<Before> {
    let cards: Vec<RawCard> = entry.decode()?;
    (cards.len() == entry.memo.len()).then(|| entry.memo.iter().copied().zip(cards).collect())
}

/// The cards of a spreadsheet's shadow, read a slice of cards at a time:
/// a sheet of 20,000 cards is one file, and one parsed tree of all its
/// cards would take the memory of them all at once (a shadow's `[[card]]`
/// lines start its cards, since no value in it spans lines).
fn read_shadow(head: &Head, file: FileId, text: &str) -> FileCards {
    const CARDS_PER_SLICE: usize = 500;
    let starts: Vec<usize> = text
        .match_indices("\n[[card]]\n")
        .map(|(i, _)| i + 1)
        .skip(CARDS_PER_SLICE)
        .step_by(CARDS_PER_SLICE)
        .collect();
    let mut out = FileCards::default();
    let bounds = std::iter::once(0).chain(starts.iter().copied());
    let ends = starts.iter().copied().chain(std::iter::once(text.len()));
    for (from, to) in bounds.zip(ends) {
        let part = read_cards(
            file,
            &text[from..to],
            (&head.kinds, &head.schemas),
            (Some(&head.kept), head.pack),
            None,
        );
        out.cards.extend(part.cards.into_iter().map(|mut c| {
            let shift = |s: &mut std::ops::Range<usize>| *s = s.start + from..s.end + from;
            shift(&mut c.header);
            shift(&mut c.id_span);
            c.refs.iter_mut().for_each(|r| shift(&mut r.span));
            c
        }));
        out.diagnostics
            .extend(part.diagnostics.into_iter().map(|mut d| {
                for label in d.primary.iter_mut().chain(d.labels.iter_mut()) {
                    label.span = label.span.start + from..label.span.end + from;
                }
                d
            }));
    }
    out
}

/// What the game's verdict reads of a file's cards, hashed: everything
/// the cache keeps of them but where they are written. Two texts with the
/// same shape give the same pool, rules' inputs, decks' verdicts and
/// editor schemas; only a diagnostic pointing into the file could differ.
/// What it covers, `renamed::same_but_name` compares but for the name:
/// the two change together.
pub(super) fn shape(cards: &[RawCard]) -> u64 {
    let mut h = DefaultHasher::new();
    for c in cards {
        (&c.id, &c.kind, &c.name, c.copies).hash(&mut h);
        // A map's JSON is its fields in order: the same text, the same key.
        serde_json::to_string(&c.fields).ok().hash(&mut h);
        c.packed.as_ref().map(PackedFields::bytes).hash(&mut h);
        for r in &c.refs {
            (&r.target, &*r.kinds, &r.field).hash(&mut h);
        }
        c.refs.len().hash(&mut h);
    }
    cards.len().hash(&mut h);
    h.finish()
}
