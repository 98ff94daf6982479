//! A game's card files read and checked: each through the check cache when
//! it has an entry, a spreadsheet through its shadow, every other file by
//! the cheap reader or in full; and what the game's verdict reads of a
//! file's cards (its *shape*).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::head::Head;
use crate::cache::{Mark, Stamp, hash_text, settled_stamp};
use crate::diag::{CellMap, Diagnostic, Diagnostics, FileId};
use crate::load::{LoadError, Workspace};
use crate::validate::{
    self, CardRef, FileCards, LoadedManifest, PackedFields, RawCard, read_cards,
};

/// The cards of a game's files, and how they were found.
pub(super) struct CardFiles {
    pub(super) cards: Vec<RawCard>,
    /// The ids of cards left out of `cards` for an error of their own.
    pub(super) unlinked: Vec<String>,
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
    missing_sheets(&head.manifest, &card_files, diags);
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
    // A file's text stays in memory only when it has something to report
    // (what needs it later reads it again: `Workspace::text_of`).
    let first = ws.sources.len();
    let types = validate::SheetTypes::new(&head.manifest, &head.schemas);
    let per_file = ws.read_cards_stamped(
        &card_files,
        &types,
        diags,
        reuse,
        |file, rel, text, stamp| {
            let (found, mark, hit) = check_card_text(head, (file, rel, text), stamp);
            if hit {
                reused.fetch_add(1, Ordering::Relaxed);
            }
            let report = !found.diagnostics.is_empty();
            ((found, mark), report)
        },
    )?;
    cache.inspect(|c| c.prune(&card_files));
    let total = per_file.iter().flatten().map(|(f, _)| f.cards.len()).sum();
    let mut out = CardFiles {
        cards: Vec::with_capacity(total),
        unlinked: Vec::new(),
        reused: reused.into_inner(),
        marks: Vec::with_capacity(card_files.len()),
    };
    if cache.is_some() {
        log_reuse(&game, card_files.len(), out.reused);
    }
    for (i, (rel, f)) in card_files.into_iter().zip(per_file).enumerate() {
        let mark = f.as_ref().and_then(|(_, m)| *m);
        out.marks.push((rel, mark));
        if let Some((mut f, _)) = f {
            let id = FileId(u32::try_from(first + i).expect("fewer than 2^32 files"));
            in_sheet_terms(ws, head, (id, &out.marks[i].0), &mut f.diagnostics, diags);
            diags.extend(f.diagnostics);
            out.cards.extend(f.cards);
            out.unlinked.extend(f.unlinked);
        }
    }
    Ok(out)
}

/// For a spreadsheet card file `id` (`rel`), its diagnostics `found` said
/// in the sheet's terms: a missing value at its cell, a column's problem
/// found once per card shown once per column, a cell the reader reported
/// once; and the sheets the manifest names that its workbook lacks.
fn in_sheet_terms(
    ws: &Workspace,
    head: &Head,
    (id, rel): (FileId, &str),
    found: &mut Vec<Diagnostic>,
    diags: &mut Diagnostics,
) {
    let source = ws.sources.get(id);
    let Some(cells) = source.cells.as_deref() else {
        return;
    };
    unknown_sheets(&head.manifest, rel, cells, diags);
    validate::place_missing_in_sheet(found, id, &source.text, cells);
    crate::diag::fold_header_repeats(found, id, cells);
    crate::diag::drop_reported_repeats(found, id, cells);
}

/// Says, for `CARTA_LOG=debug`, how many of a game's `n` card files came
/// from the check cache.
fn log_reuse(game: &str, n: usize, reused: usize) {
    tracing::debug!(
        game,
        "cards: {reused} of {n} card files from their cache entries"
    );
}

/// Reports each spreadsheet a kind's `sheets` names that is no card file
/// of the game (a typo, a file moved or not saved yet), at its line of the
/// manifest: otherwise the kind would silently have none of its rows.
fn missing_sheets(manifest: &LoadedManifest, card_files: &[String], diags: &mut Diagnostics) {
    let folder = format!("cards/{}/", manifest.manifest.id);
    let sheets: Vec<&str> = card_files
        .iter()
        .filter_map(|rel| rel.strip_prefix(&folder))
        .filter(|rel| crate::load::sheet::is_card_sheet(rel))
        .collect();
    for (kind, decl) in &manifest.manifest.kinds {
        for (i, named) in decl.sheets.iter().enumerate() {
            let file = named.split_once('#').map_or(named.as_str(), |(f, _)| f);
            if sheets.contains(&file) {
                continue;
            }
            let span = manifest
                .spans
                .value_span(&format!("/kinds/{kind}/sheets/{i}"))
                .unwrap_or(0..0);
            let help = if sheets.is_empty() {
                format!(
                    "save the spreadsheet under `{folder}` (`sheets` are named from there), or remove it from `sheets`"
                )
            } else {
                crate::suggest::help(
                    file,
                    sheets.iter().copied(),
                    "the spreadsheets of the game are",
                )
            };
            diags.push(
                Diagnostic::error(
                    "manifest::sheet-missing",
                    format!("kind `{kind}` takes the rows of `{folder}{file}`, but there is no such spreadsheet"),
                )
                .at(manifest.file, span, "no such file")
                .with_help(help),
            );
        }
    }
}

/// Reports each sheet a kind's `sheets` names (`file#Sheet`) that workbook
/// `rel` (its cells `map`) does not have, at its line of the manifest,
/// with the sheets it has: otherwise the kind would silently have none of
/// its rows.
fn unknown_sheets(manifest: &LoadedManifest, rel: &str, map: &CellMap, diags: &mut Diagnostics) {
    let folder = format!("cards/{}/", manifest.manifest.id);
    let Some(file) = rel.strip_prefix(&folder) else {
        return;
    };
    let book = map.book();
    for (kind, decl) in &manifest.manifest.kinds {
        for (i, named) in decl.sheets.iter().enumerate() {
            let Some(sheet) = named.strip_prefix(file).and_then(|s| s.strip_prefix('#')) else {
                continue;
            };
            if book.iter().any(|b| b == sheet) {
                continue;
            }
            let span = manifest
                .spans
                .value_span(&format!("/kinds/{kind}/sheets/{i}"))
                .unwrap_or(0..0);
            let has: Vec<String> = book.iter().map(|b| format!("`{b}`")).collect();
            let (what, help) = if book.iter().all(String::is_empty) {
                (
                    "it is a CSV or TSV file, which has no sheets".to_owned(),
                    format!("name the file alone: `{file}`"),
                )
            } else {
                (
                    format!(
                        "the workbook has no such sheet (its sheets: {})",
                        has.join(", ")
                    ),
                    crate::suggest::closest(sheet, book.iter().map(String::as_str)).map_or_else(
                        || {
                            "name one of its sheets after `#`, or rename the sheet in the workbook"
                                .to_owned()
                        },
                        |c| format!("did you mean `{file}#{c}`?"),
                    ),
                )
            };
            diags.push(
                Diagnostic::error(
                    "manifest::sheet-unknown",
                    format!(
                        "kind `{kind}` takes the rows of sheet `{sheet}` of `{rel}`, but {what}"
                    ),
                )
                .at(manifest.file, span, "no such sheet")
                .with_help(help),
            );
        }
    }
}

/// Checks the text of one card file, through the check cache when there
/// is one: its cards and diagnostics, the mark of its cache entry (`None`
/// when it is not cached: it has diagnostics, or there is no cache), and
/// whether it came from the cache.
pub(super) fn check_card_text(
    head: &Head,
    (file, rel, text): (FileId, &str, &str),
    stamp: Option<Stamp>,
) -> (FileCards, Option<Mark>, bool) {
    let cache = head.cache.as_ref();
    let content = hash_text(text);
    if let Some((mut cards, mut mark)) = cache.and_then(|c| c.get::<Vec<RawCard>>(rel, content)) {
        // Same text, new stamp (touched, checked out): remember the
        // stamp, so that next time the file is not read.
        if mark.stamp != settled_stamp(stamp) {
            mark = cache
                .and_then(|c| c.put(rel, content, stamp, (&cards, mark.shape)))
                .unwrap_or(mark);
        }
        for c in &mut cards {
            c.file = file;
        }
        let found = FileCards {
            cards,
            ..FileCards::default()
        };
        return (found, Some(mark), true);
    }
    let mut found = if crate::load::sheet::is_card_sheet(rel) {
        read_shadow(head, file, text, Some(&head.fields))
    } else {
        let read = (head.kinds.as_slice(), &head.schemas);
        read_cards(file, text, read, (Some(&head.fields), head.pack))
    };
    let m = &head.manifest.manifest;
    let markup = crate::markup::check_file(m, &head.schemas, text, &found.cards);
    found.diagnostics.extend(markup);
    if crate::markup::may_hold_unknown_icon(m, text) {
        // A token may stand in any field, kept or not: read them all.
        let all = read_all_fields(head, (file, rel), text);
        found
            .diagnostics
            .extend(crate::markup::check_icons(m, text, &all));
    }
    for card in &mut found.cards {
        card.fields.retain(|k, _| !head.transient.contains(k));
    }
    let mark = match cache {
        Some(cache) if found.diagnostics.is_empty() => {
            cache.put(rel, content, stamp, (&found.cards, shape(&found.cards)))
        }
        _ => None,
    };
    (found, mark, false)
}

/// The cards of a card file with every field, whatever the compile keeps.
fn read_all_fields(head: &Head, (file, rel): (FileId, &str), text: &str) -> Vec<RawCard> {
    let read = (head.kinds.as_slice(), &head.schemas);
    if crate::load::sheet::is_card_sheet(rel) {
        read_shadow(head, file, text, None).cards
    } else {
        read_cards(file, text, read, (None, false)).cards
    }
}

/// The cards of a spreadsheet's shadow, read a slice of cards at a time:
/// a sheet of 20,000 cards is one file, and one parsed tree of all its
/// cards would take the memory of them all at once (a shadow's `[[card]]`
/// lines start its cards, since no value in it spans lines).
fn read_shadow(
    head: &Head,
    file: FileId,
    text: &str,
    keep: Option<&std::collections::BTreeSet<String>>,
) -> FileCards {
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
            (keep, head.pack),
        );
        out.unlinked.extend(part.unlinked);
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

/// What the game's verdict reads of a file's cards, hashed: everything a
/// compile keeps of them but where they are written. Two texts with the
/// same shape give the same pool, rules' inputs, decks' verdicts and
/// editor schemas; only a diagnostic pointing into the file could differ.
///
/// Every field of a card is named here: a field added to [`RawCard`] or
/// [`CardRef`] does not compile until it is hashed or said not to matter.
pub(super) fn shape(cards: &[RawCard]) -> u64 {
    let mut h = DefaultHasher::new();
    for card in cards {
        let RawCard {
            id,
            kind,
            name,
            copies,
            errata,
            fields,
            packed,
            // Where the card is written: a verdict that points there is
            // kept apart by the record (`record::pointed_files`).
            file: _,
            header: _,
            id_span: _,
            refs,
            names,
        } = card;
        // Every field's name, kept or not: a template reads them all.
        (id, kind, name, copies, names).hash(&mut h);
        // A map's JSON is its fields in order: the same text, the same key.
        serde_json::to_string(fields).ok().hash(&mut h);
        // No verdict reads errata, but a face may show them.
        serde_json::to_string(errata).ok().hash(&mut h);
        packed.as_ref().map(PackedFields::bytes).hash(&mut h);
        refs.len().hash(&mut h);
        for r in refs {
            let CardRef {
                target,
                kinds,
                field,
                span: _,
            } = r;
            (target, &**kinds, field).hash(&mut h);
        }
    }
    cards.len().hash(&mut h);
    h.finish()
}
