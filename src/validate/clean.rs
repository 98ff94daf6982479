//! The cards of a file that has nothing to report, read the cheap way: the
//! event reader's tree (`load::tree`), no `toml` tree. Any doubt — an
//! error of any kind, a card that is not clean — and the file is read the
//! full way (`card::read_in_full`), whose diagnostics stay the only ones.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::card::{
    CardRef, FileCards, MAX_COPIES, NameStep, RESERVED, RawCard, finish_card, header_of,
    is_valid_id, name_step, read_in_full,
};
use super::documents::PathStep;
use super::errata::ERRATA;
use super::schemas::{GameSchemas, RefPattern};
use crate::diag::FileId;
use crate::load::tree::{self, Item, Node, Table};

/// Reads and validates the cards of one file. Files are independent, so
/// callers run this in parallel.
/// With `keep`, only those fields are kept on the cards (the rest are
/// validated, then dropped): `carta check` keeps what rules read. With
/// `pack`, every field is kept packed as well ([`RawCard::packed`]).
pub fn read_cards(
    file: FileId,
    text: &str,
    (kinds, schemas): (&[String], &GameSchemas),
    (keep, pack): (Option<&BTreeSet<String>>, bool),
) -> FileCards {
    // Most files have nothing to report: read the cheap way, or in full.
    match read_clean(file, text, (kinds, schemas), (keep, pack)) {
        Some(cards) => FileCards {
            cards,
            ..FileCards::default()
        },
        None => read_in_full(file, text, kinds, schemas, keep, pack),
    }
}

/// The cards of `file`, when the file is a `card` array of clean cards:
/// each with a valid id, a name, a declared kind, copies if any in range,
/// and fields its kind's schema accepts. `None` means "read it in full".
pub(super) fn read_clean(
    file: FileId,
    text: &str,
    (kinds, schemas): (&[String], &GameSchemas),
    (keep, pack): (Option<&BTreeSet<String>>, bool),
) -> Option<Vec<RawCard>> {
    let mut root = tree::read(text)?;
    let entry = root.entries.pop()?;
    if !root.entries.is_empty() || entry.key != "card" {
        return None;
    }
    let Item::Array(items, _) = entry.node.item else {
        return None;
    };
    let mut cards = Vec::with_capacity(items.len());
    for node in items {
        let header = header_of(text, node.span.clone());
        let (mut raw, table) = clean_card(file, header, node, (kinds, schemas))?;
        // Only the fields a check keeps become JSON; a build packs them all.
        raw.fields = match keep {
            Some(keep) if !pack => table.into_json_where(|k| keep.contains(k)),
            _ => table.into_json(),
        };
        finish_card(&mut raw, keep, pack);
        cards.push(raw);
    }
    Some(cards)
}

/// One card, if nothing about it would be reported, and its fields (all
/// but the reserved ones), validated in place.
fn clean_card<'a>(
    file: FileId,
    header: crate::diag::Span,
    mut node: Node<'a>,
    (kinds, schemas): (&[String], &GameSchemas),
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
    // Errata are read, and their problems reported, by the full reader.
    if table.get(ERRATA).is_some() {
        return None;
    }
    table.entries.retain(|e| !RESERVED.contains(&&*e.key));
    if let Some(schema) = schema {
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
        errata: Vec::new(),
        fields: serde_json::Map::new(),
        packed: None,
        file,
        header,
        id_span,
        refs,
        names: names_of_table(&table),
    };
    Some((raw, table))
}

/// The names and indices of every value in a card's `table`, hashed as
/// `card::names_of_json` hashes its JSON.
fn names_of_table(table: &Table<'_>) -> u64 {
    fn walk(item: &Item<'_>, at: u64, sum: &mut u64) {
        let mut step = |step, item| {
            let h = name_step(at, step);
            *sum = sum.wrapping_add(h);
            walk(item, h, sum);
        };
        match item {
            Item::Table(t) => {
                (t.entries.iter()).for_each(|e| step(NameStep::Key(&e.key), &e.node.item));
            }
            Item::Array(items, _) => {
                (items.iter().enumerate()).for_each(|(i, n)| step(NameStep::Index(i), &n.item));
            }
            _ => {}
        }
    }
    let mut sum = 0u64;
    for e in &table.entries {
        let h = name_step(0, NameStep::Key(&e.key));
        sum = sum.wrapping_add(h);
        walk(&e.node.item, h, &mut sum);
    }
    sum
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
        read_clean(file, text, (kinds, schemas), (keep, pack))
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
}
