//! `carta print DECK.toml`: the cards a deck file names, with their
//! counts. Only what printing needs is read here (the game, the name, the
//! zones); the deck's legality is `carta deck check`'s business.

use serde_json::Value;

use super::Print;
use crate::check::Game;
use crate::diag::{Diagnostic, FileId, Span};
use crate::load::{SpanIndex, parse_toml, table_to_json};

/// A deck file, read.
#[derive(Debug, Clone)]
pub struct DeckFile {
    /// The game it is for.
    pub game: String,
    /// Its display name.
    pub name: String,
    /// The file.
    pub file: FileId,
    /// Every `id = count` of every zone, in file order.
    pub entries: Vec<Entry>,
}

/// One `id = count` line.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The card id.
    pub id: String,
    /// How many copies.
    pub count: u32,
    /// Where the id is written.
    pub span: Span,
}

/// Reads a deck file; `None` (with diagnostics) when it is not one.
pub fn read(file: FileId, text: &str, diags: &mut Vec<Diagnostic>) -> Option<DeckFile> {
    let (doc, ok) = parse_toml(file, text, diags);
    if !ok {
        return None;
    }
    let spans = SpanIndex::new(&doc);
    let map = match table_to_json(doc.get_ref()) {
        Ok(m) => m,
        Err((span, message)) => {
            diags.push(Diagnostic::error("sheets::deck", message).at(file, span, "here"));
            return None;
        }
    };
    let string = |key: &str, diags: &mut Vec<Diagnostic>| match map.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        other => {
            let span = spans.value_span(&format!("/{key}")).unwrap_or(0..0);
            let what = if other.is_some() {
                "must be a string"
            } else {
                "is missing"
            };
            diags.push(
                Diagnostic::error("sheets::deck", format!("the deck's `{key}` {what}"))
                    .at(file, span, "here")
                    .with_help(format!("a deck file starts with `{key} = \"…\"`")),
            );
            None
        }
    };
    let game = string("game", diags);
    let name = string("name", diags);
    let mut entries = Vec::new();
    for (zone, value) in &map {
        let Value::Object(cards) = value else {
            continue;
        };
        for (id, count) in cards {
            let pointer = format!("/{zone}/{id}");
            let span = spans.key_span(&pointer).unwrap_or(0..0);
            match count
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n >= 1)
            {
                Some(count) => entries.push(Entry {
                    id: id.clone(),
                    count,
                    span,
                }),
                None => diags.push(
                    Diagnostic::error(
                        "sheets::deck",
                        format!("the count of `{id}` must be a whole number from 1"),
                    )
                    .at(
                        file,
                        spans.value_span(&pointer).unwrap_or(span),
                        "not a count",
                    ),
                ),
            }
        }
    }
    Some(DeckFile {
        game: game?,
        name: name?,
        file,
        entries,
    })
}

impl DeckFile {
    /// The deck's cards in `game`, counts summed over zones; an unknown id
    /// is a diagnostic at the deck file.
    pub fn prints<'a>(&self, game: &'a Game, diags: &mut Vec<Diagnostic>) -> Vec<Print<'a>> {
        let mut out: Vec<Print<'a>> = Vec::new();
        for e in &self.entries {
            let Some(card) = game.pool.get(&e.id) else {
                let hint = crate::suggest::closest(&e.id, game.pool.ids());
                diags.push(
                    Diagnostic::error(
                        "sheets::deck-card",
                        format!(
                            "the deck names `{}`, but game `{}` has no such card",
                            e.id, self.game
                        ),
                    )
                    .at(self.file, e.span.clone(), "no such card")
                    .with_help_opt(hint.map(|h| format!("did you mean `{h}`?"))),
                );
                continue;
            };
            match out.iter_mut().find(|p| p.card.id == e.id) {
                Some(p) => p.count += e.count,
                None => out.push(Print {
                    card,
                    count: e.count,
                }),
            }
        }
        out
    }
}
