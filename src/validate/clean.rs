//! The cards of a file that has nothing to report, read the cheap way: the
//! event reader's tree (`load::tree`), no `toml` tree. Any doubt — an
//! error of any kind, a card that is not clean — and the file is read the
//! full way (`card::read_in_full`), whose diagnostics stay the only ones.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use super::card::{
    CardRef, FileCards, MAX_COPIES, RESERVED, RawCard, card_text_hash, finish_card, header_of,
    is_valid_id, read_in_full,
};
use super::documents::PathStep;
use super::schemas::{GameSchemas, RefPattern};
use crate::diag::{FileId, Span};
use crate::load::tree::{self, Item, Node, Table};

/// Card texts known to validate: the hashes ([`card_text_hash`]) of a
/// card file's memo in the check cache.
pub type Known = HashSet<u64>;

/// The cards a card file gave the last time it was read clean, by the
/// hash of each one's text ([`card_text_hash`]).
pub type Before = HashMap<u64, RawCard>;

/// Reads and validates the cards of one file. Files are independent, so
/// callers run this in parallel.
/// With `keep`, only those fields are kept on the cards (the rest are
/// validated, then dropped): `carta check` keeps what rules read. With
/// `pack`, every field is kept packed as well ([`RawCard::packed`]). A
/// card whose text is `known` is not validated against its schema again.
pub fn read_cards(
    file: FileId,
    text: &str,
    (kinds, schemas): (&[String], &GameSchemas),
    (keep, pack): (Option<&BTreeSet<String>>, bool),
    known: Option<&Known>,
) -> FileCards {
    // Most files have nothing to report: read the cheap way, or in full.
    match read_clean(file, text, (kinds, schemas), (keep, pack), known) {
        Some((cards, texts)) => FileCards {
            cards,
            diagnostics: Vec::new(),
            texts,
        },
        None => read_in_full(file, text, kinds, schemas, keep, pack),
    }
}

/// The cards of `file` after an edit, and the hash of each one's text,
/// when the file is a `card` array of clean cards whose `[[card]]` headers
/// each stand alone on their line: a card whose text `before` holds is
/// taken from there, moved to where it now lies, and only the others are
/// parsed, each on its own. What [`read_clean`] gives, at the cost of the
/// edited cards; `None` means "read it as [`read_cards`] does".
///
/// A `[[card]]` line inside a multi-line string is no header, and
/// splitting there leaves that string open in the text before it: no card
/// text read clean before is such a text, and parsed it fails.
pub fn read_edited(
    file: FileId,
    text: &str,
    (kinds, schemas): (&[String], &GameSchemas),
    (keep, pack): (Option<&BTreeSet<String>>, bool),
    before: &Before,
) -> Option<(Vec<RawCard>, Vec<u64>)> {
    let starts = card_starts(text)?;
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    let mut cards = Vec::with_capacity(starts.len());
    let mut texts = Vec::with_capacity(starts.len());
    for (start, end) in starts.iter().copied().zip(ends) {
        let card_text = &text[start..end];
        let hash = card_text_hash(card_text);
        let mut card = if let Some(card) = before.get(&hash) {
            moved(card.clone(), card.header.start, start)?
        } else {
            let (mut read, read_texts) =
                read_clean(file, card_text, (kinds, schemas), (keep, pack), None)?;
            // One card, starting where the split says.
            if read.len() != 1 || read_texts != [hash] {
                return None;
            }
            moved(read.pop()?, 0, start)?
        };
        card.file = file;
        cards.push(card);
        texts.push(hash);
    }
    Some((cards, texts))
}

/// Where each card of a card file starts: each line that is `[[card]]`
/// alone; `None` when anything but blank lines and comments comes before
/// the first, or there is none.
fn card_starts(text: &str) -> Option<Vec<usize>> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "[[card]]" {
            starts.push(at);
        } else if starts.is_empty() {
            let line = line.trim_start();
            if !(line.trim_end().is_empty() || line.starts_with('#')) {
                return None;
            }
        }
        at += line.len();
    }
    (!starts.is_empty()).then_some(starts)
}

/// `card`, read where its text started at `from`, as it is where the same
/// text starts at `to`: each of its spans moved along.
fn moved(mut card: RawCard, from: usize, to: usize) -> Option<RawCard> {
    let shift = |span: &mut Span| -> Option<()> {
        let start = span.start.checked_sub(from)? + to;
        let end = span.end.checked_sub(from)? + to;
        *span = start..end;
        Some(())
    };
    shift(&mut card.header)?;
    shift(&mut card.id_span)?;
    for r in &mut card.refs {
        shift(&mut r.span)?;
    }
    Some(card)
}

/// The cards of `file`, when the file is a `card` array of clean cards:
/// each with a valid id, a name, a declared kind, copies if any in range,
/// and fields its kind's schema accepts (unless its text is `known`), and
/// the hash of each card's text. `None` means "read it in full".
pub(super) fn read_clean(
    file: FileId,
    text: &str,
    (kinds, schemas): (&[String], &GameSchemas),
    (keep, pack): (Option<&BTreeSet<String>>, bool),
    known: Option<&Known>,
) -> Option<(Vec<RawCard>, Vec<u64>)> {
    let mut root = tree::read(text)?;
    let entry = root.entries.pop()?;
    if !root.entries.is_empty() || entry.key != "card" {
        return None;
    }
    let Item::Array(items, _) = entry.node.item else {
        return None;
    };
    let mut cards = Vec::with_capacity(items.len());
    let mut texts = Vec::with_capacity(items.len());
    // A card's text runs from its `[[card]]` to the next one's (the file
    // holds nothing but cards): its subtables and comments are its own.
    let ends: Vec<usize> = items
        .iter()
        .skip(1)
        .map(|n| n.span.start)
        .chain([text.len()])
        .collect();
    for (node, end) in items.into_iter().zip(ends) {
        let header = header_of(text, node.span.clone());
        let hash = card_text_hash(text.get(node.span.start..end)?);
        let valid = known.is_some_and(|k| k.contains(&hash));
        let (mut raw, table) = clean_card(file, header, node, (kinds, schemas), valid)?;
        // Only the fields a check keeps become JSON; a build packs them all.
        raw.fields = match keep {
            Some(keep) if !pack => table.into_json_where(|k| keep.contains(k)),
            _ => table.into_json(),
        };
        finish_card(&mut raw, keep, pack);
        cards.push(raw);
        texts.push(hash);
    }
    Some((cards, texts))
}

/// One card, if nothing about it would be reported, and its fields (all
/// but the reserved ones), validated in place unless known `valid`.
fn clean_card<'a>(
    file: FileId,
    header: crate::diag::Span,
    mut node: Node<'a>,
    (kinds, schemas): (&[String], &GameSchemas),
    valid: bool,
) -> Option<(RawCard, Table<'a>)> {
    let Item::Table(table) = &mut node.item else {
        return None;
    };
    let text = |name: &str| {
        table
            .get(name)
            .and_then(|n| Some((n.item.as_str()?, n.span.clone())))
            .filter(|(s, _)| !s.trim().is_empty())
    };
    let (id, id_span) = text("id").filter(|(id, _)| is_valid_id(id))?;
    let (name, _) = text("name")?;
    let (kind, _) = text("kind").filter(|(k, _)| kinds.iter().any(|x| x == k))?;
    let copies = match table.get("copies").map(|n| &n.item) {
        None => None,
        Some(Item::Integer(n)) if (1..=MAX_COPIES).contains(n) => Some(u32::try_from(*n).ok()?),
        Some(_) => return None,
    };
    let (id, name, kind) = (id.to_owned(), name.to_owned(), kind.to_owned());
    let schema = schemas.kind(&kind);
    let refs = schema
        .map(|s| collect_refs(table, &schemas.marks(s).refs))
        .unwrap_or_default();
    // The schema sees the card without its reserved fields.
    table.entries.retain(|e| !RESERVED.contains(&&*e.key));
    if let Some(schema) = schema.filter(|_| !valid) {
        let valid = match schemas.tree_validator(&kind) {
            Some(tree) => tree.is_valid(&node),
            None => schemas.validator(schema)?.is_valid(&node.item.to_json()),
        };
        if !valid {
            return None;
        }
    }
    let Item::Table(table) = node.item else {
        return None;
    };
    let raw = RawCard {
        id,
        kind,
        name,
        copies,
        fields: serde_json::Map::new(),
        packed: None,
        file,
        header,
        id_span,
        refs,
    };
    Some((raw, table))
}

/// The strings at each reference pattern's path in a card, as
/// `card::collect_refs` finds them in `toml`'s tree.
fn collect_refs(table: &Table<'_>, patterns: &[RefPattern]) -> Vec<CardRef> {
    let mut out = Vec::new();
    for pattern in patterns {
        for (node, field) in follow(table, &pattern.path) {
            if let Some(target) = node.item.as_str() {
                out.push(CardRef {
                    target: target.to_owned(),
                    kinds: Arc::clone(&pattern.kinds),
                    span: node.span.clone(),
                    field,
                });
            }
        }
    }
    out.sort_by_key(|r| r.span.start);
    out.dedup_by(|a, b| a.span == b.span);
    out
}

/// Every value reached from `table` along `path`, with its display path.
fn follow<'t, 'a>(table: &'t Table<'a>, path: &[PathStep]) -> Vec<(&'t Node<'a>, String)> {
    let Some((first, rest)) = path.split_first() else {
        return Vec::new();
    };
    let mut frontier: Vec<(&Node<'_>, String)> = match first {
        PathStep::Key(k) => table.get(k).map(|n| (n, k.clone())).into_iter().collect(),
        PathStep::AnyKey => table
            .entries
            .iter()
            .map(|e| (&e.node, e.key.to_string()))
            .collect(),
        PathStep::AnyItem => Vec::new(),
    };
    for step in rest {
        let mut next = Vec::new();
        for (node, display) in frontier {
            match (step, &node.item) {
                (PathStep::Key(k), Item::Table(t)) => {
                    next.extend(t.get(k).map(|n| (n, format!("{display}.{k}"))));
                }
                (PathStep::AnyKey, Item::Table(t)) => {
                    next.extend(
                        t.entries
                            .iter()
                            .map(|e| (&e.node, format!("{display}.{}", e.key))),
                    );
                }
                (PathStep::AnyItem, Item::Array(items, _)) => {
                    next.extend(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, n)| (n, format!("{display}[{i}]"))),
                    );
                }
                _ => {}
            }
        }
        frontier = next;
    }
    frontier
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::diag::Diagnostics;
    use crate::game::{Decks, Keep, compile};
    use crate::load::Workspace;
    use crate::validate::card::read_in_full;

    /// The cards [`read_clean`] reads, knowing no card text.
    fn clean(
        file: FileId,
        text: &str,
        kinds: &[String],
        schemas: &GameSchemas,
        keep: Option<&BTreeSet<String>>,
        pack: bool,
    ) -> Option<Vec<RawCard>> {
        read_clean(file, text, (kinds, schemas), (keep, pack), None).map(|(cards, _)| cards)
    }

    /// Every shipped card file is clean, and reads the cheap way to the
    /// very cards (fields, packed fields, spans, references) it reads to
    /// in full.
    #[test]
    fn shipped_card_files_read_to_the_same_cards_either_way() {
        let mut ws = Workspace::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut diags = Diagnostics::default();
        let mut files = 0;
        for game in ws.game_ids().unwrap() {
            let g = compile(&mut ws, &game, Decks::Skip, Keep::All, &mut diags)
                .unwrap()
                .unwrap();
            let kinds = g.manifest.manifest.kind_ids();
            let keep = BTreeSet::from(["cost".to_owned()]);
            for rel in ws.card_files(&game, &mut diags).unwrap() {
                let id = ws.read(&rel, &mut diags).unwrap();
                let text = ws.text_of(id).unwrap();
                for (keep, pack) in [(None, false), (None, true), (Some(&keep), false)] {
                    let cheap = clean(id, &text, &kinds, &g.schemas, keep, pack);
                    let full = read_in_full(id, &text, &kinds, &g.schemas, keep, pack);
                    assert!(full.diagnostics.is_empty(), "{rel}");
                    assert_eq!(cheap.as_ref(), Some(&full.cards), "{rel}");
                }
                files += 1;
            }
        }
        assert!(files >= 20, "{files}");
    }

    fn schemas_and_kinds() -> (GameSchemas, Vec<String>) {
        let mut ws = Workspace::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut diags = Diagnostics::default();
        let g = compile(&mut ws, "intrepidos", Decks::Skip, Keep::All, &mut diags)
            .unwrap()
            .unwrap();
        (g.schemas, g.manifest.manifest.kind_ids())
    }

    /// Past a kind's first `TREE_AFTER` cards, its cards are validated by
    /// the tree validator, to the same cards, and a bad one still leaves
    /// the file to `read_in_full`.
    #[test]
    fn a_kind_with_many_cards_is_validated_in_place_to_the_same_cards() {
        let (schemas, kinds) = schemas_and_kinds();
        let card = |i: usize, effect: &str| {
            format!(
                "[[card]]\nid = \"a{i}\"\nkind = \"action\"\nname = \"A\"\n{effect}flavour = \"f\"\n"
            )
        };
        let many = super::super::schemas::TREE_AFTER + 8;
        let text: String = (0..many).map(|i| card(i, "effect = \"e\"\n")).collect();
        assert!(schemas.kind("action").is_some());
        let cheap = clean(FileId(0), &text, &kinds, &schemas, None, false).unwrap();
        let full = read_in_full(FileId(0), &text, &kinds, &schemas, None, false);
        assert_eq!(cheap, full.cards);
        assert!(schemas.tree_validator("action").is_some());
        // The last card lacks a required field: refused in place.
        let bad = format!("{text}{}", card(many, ""));
        assert_eq!(clean(FileId(0), &bad, &kinds, &schemas, None, false), None);
        let full = read_in_full(FileId(0), &bad, &kinds, &schemas, None, false);
        assert!(!full.diagnostics.is_empty());
    }

    /// Anything `read_in_full` would report leaves the file to it.
    #[test]
    fn a_file_with_anything_to_report_is_read_in_full() {
        let (schemas, kinds) = schemas_and_kinds();
        let kind = &kinds[0];
        let card =
            |extra: &str| format!("[[card]]\nid = \"a\"\nkind = \"{kind}\"\nname = \"A\"\n{extra}");
        for text in [
            String::new(),
            "# only a comment\n".to_owned(),
            card("copies = 0\n"),
            card("copies = \"2\"\n"),
            card("unknown_field_of_no_schema = 1\n"),
            card("x = 0x\n"),
            card("x = nan\n"),
            card("[[card]]\nid = \"B\"\nkind = \"nope\"\nname = \"\"\n"),
            format!("{}[deck]\n", card("")),
            "[card]\nid = \"a\"\n".to_owned(),
            card("id = \"b\"\n"),
        ] {
            assert_eq!(
                clean(FileId(0), &text, &kinds, &schemas, None, false),
                None,
                "{text}"
            );
            let full = read_in_full(FileId(0), &text, &kinds, &schemas, None, false);
            assert!(!full.diagnostics.is_empty(), "{text}");
        }
    }

    /// A card whose text the memo knows is not validated again; any other
    /// card is, and each card's text is hashed for the next memo.
    #[test]
    fn a_card_whose_text_is_known_is_not_validated_again() {
        let (schemas, kinds) = schemas_and_kinds();
        let good = "[[card]]\nid = \"a\"\nkind = \"action\"\nname = \"A\"\neffect = \"e\"\nflavour = \"f\"\n";
        // No `effect`, which the action schema requires.
        let bad = "[[card]]\nid = \"b\"\nkind = \"action\"\nname = \"B\"\nflavour = \"f\"\n";
        let text = format!("{good}{bad}");
        let read = |known: Option<&Known>| {
            read_clean(FileId(0), &text, (&kinds, &schemas), (None, false), known)
        };
        assert_eq!(read(None), None);
        let card_text = |card: &str| card_text_hash(card);
        assert_ne!(card_text(good), card_text(bad));
        let (cards, texts) = read(Some(&Known::from([card_text(bad)]))).unwrap();
        assert_eq!(cards.len(), 2);
        assert_eq!(texts, [card_text(good), card_text(bad)]);
        // Known, but not this text: validated, and refused.
        assert_eq!(read(Some(&Known::from([card_text(good)]))), None);
    }

    /// A card file read after an edit gives what reading it whole gives;
    /// the cards the edit left alone are taken from before, moved, and
    /// only the others are parsed. Where a split could fall inside a
    /// string, or miss a header, it is read whole.
    #[test]
    fn an_edited_file_parses_its_edited_card_and_moves_the_others() {
        let (schemas, kinds) = schemas_and_kinds();
        let card = |id: &str, effect: &str| {
            format!(
                "[[card]]\nid = \"{id}\"\nkind = \"action\"\nname = \"N\"\neffect = {effect}\nflavour = \"f\"\n\n"
            )
        };
        let file = |b: &str| {
            format!(
                "# actions\n\n{}{}{}",
                card("a", "\"e\""),
                card("b", b),
                card("c", "\"e\"")
            )
        };
        let whole = |text: &str| {
            read_clean(FileId(0), text, (&kinds, &schemas), (None, false), None).unwrap()
        };
        let (cards, texts) = whole(&file("\"e\""));
        let before: Before = texts.into_iter().zip(cards).collect();
        let edited = |text: &str, before: &Before| {
            read_edited(FileId(0), text, (&kinds, &schemas), (None, false), before)
        };
        let longer = file("\"a longer effect\"");
        assert_eq!(edited(&longer, &before), Some(whole(&longer)));
        // The cards left alone come from before.
        let mut marked = before.clone();
        for c in marked.values_mut() {
            c.name = "from before".into();
        }
        let names: Vec<String> = edited(&longer, &marked)
            .unwrap()
            .0
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["from before", "N", "from before"]);
        // A `[[card]]` line inside a string; a header with a comment
        // beside it; a key before the first card.
        let inside = file("\"\"\"x\n[[card]]\ny\"\"\"");
        assert_eq!(whole(&inside).0.len(), 3);
        let commented = longer.replacen("[[card]]\nid = \"b\"", "[[card]] # b\nid = \"b\"", 1);
        let keyed = format!("title = \"t\"\n{longer}");
        for text in [inside, commented, keyed] {
            assert_eq!(edited(&text, &before), None, "{text}");
        }
    }
}
